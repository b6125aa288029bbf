"""Each page's chosen settings, remembered across page switches.

Streamlit forgets a widget's value once its page is left (``st.navigation`` drops the
keys of widgets not drawn in a run), so a page keeps its choices here and starts its
widgets from them.

- The settings the report uses: a page calls :func:`remember` with its choices on every
  run; :func:`report_settings` builds the :class:`~analytics.report.ReportSettings` for the
  loaded data set from what the pages remembered, or from each page's own defaults for a
  page not visited yet, so the sidebar's report and the Export page's files hold the
  numbers the pages show.
- Every other control: the page passes :func:`recall` as the widget's starting value and
  hands what the widget returned to :func:`keep`. A choice that names things in the data
  (annotators, categories, items, documents) is kept for one data set (``scope``, its
  fingerprint); one that holds for any data (a section, a method, a number) is kept across
  data sets and fitted to what the current data allow (:func:`within`, :func:`one_of`,
  :func:`some_of`); a value that no longer fits gives way to the page's default.

Never the widget's own key: Streamlit warns when a widget gets both a starting value and
a value set through ``st.session_state``, and deletes that key when its page is left.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from numbers import Real
from typing import Any, TypeVar

import streamlit as st

from analytics import Annotations
from analytics.agreement import bootstrap_cost
from analytics.engines import is_lazy
from analytics.report import ReportSettings

SETTINGS_KEY = "concord_page_settings"
#: The other controls' choices: {widget key: (scope, value)} (see :func:`keep`).
CHOICES_KEY = "concord_page_choices"
# The Agreement page opens with bootstrap intervals only where 1,000 resamples take about
# a second: the pairwise means (Light's kappa, Scott's pi) cost items x annotator pairs.
BOOTSTRAP_DEFAULT_BUDGET = 2_000_000  # items x annotator pairs
AGREEMENT_BOOTSTRAP = 1000


def bootstrap_is_quick(ann: Annotations) -> bool:
    """Whether the Agreement page opens with bootstrap intervals for this data set.

    Always on an engine: its bootstrap resamples the distinct count patterns, not items.
    """
    if is_lazy(ann):
        return True
    return bootstrap_cost(ann) <= BOOTSTRAP_DEFAULT_BUDGET


def page_defaults(ann: Annotations) -> dict[str, Any]:
    """What each page starts with, as ``ReportSettings`` fields."""
    return {
        "agreement_n_boot": AGREEMENT_BOOTSTRAP if bootstrap_is_quick(ann) else 0,
        "agreement_confidence": 0.95,
    }


def remember(ann: Annotations, **values: Any) -> None:
    """Record a page's choices (``ReportSettings`` field names) for this data set."""
    store = st.session_state.setdefault(SETTINGS_KEY, {})
    mine = store.setdefault(ann.fingerprint, {})
    mine.update(values)
    for stale in [k for k in store if k != ann.fingerprint]:  # one data set at a time
        del store[stale]


def report_settings(ann: Annotations) -> ReportSettings:
    """The settings the pages chose for this data set (their defaults where unvisited)."""
    chosen = st.session_state.get(SETTINGS_KEY, {}).get(ann.fingerprint, {})
    return ReportSettings(**{**page_defaults(ann), **chosen})


# ---------------------------------------------------------------------- every other control
T = TypeVar("T")


def keep(name: str, value: Any, *, scope: Any = None) -> None:
    """Record what the control ``name`` (its widget key) returned, for :func:`recall`.

    ``scope``: what the choice belongs to, e.g. a data set's fingerprint for a choice
    that names its annotators (another scope starts from the default); None: any data.
    """
    st.session_state.setdefault(CHOICES_KEY, {})[name] = (scope, value)


def recall(
    name: str, default: T, *, scope: Any = None, fit: Callable[[Any], Any] | None = None
) -> T:
    """What the control ``name`` was left at in ``scope`` (see :func:`keep`), else ``default``.

    ``fit`` makes the kept value one the control allows now (:func:`within`,
    :func:`one_of`, :func:`some_of`); a value it refuses (``ValueError`` or ``TypeError``)
    gives ``default``, so a widget never starts from a value it cannot show.
    """
    kept = st.session_state.get(CHOICES_KEY, {}).get(name)
    if kept is None or kept[0] != scope:
        return default
    try:
        return kept[1] if fit is None else fit(kept[1])
    except (TypeError, ValueError):
        return default


def recall_index(
    name: str, options: Sequence[Any], default: int | None = 0, *, scope: Any = None
) -> int | None:
    """:func:`recall` as the ``index`` of a selectbox or radio over ``options``."""
    fallback = options[default] if default is not None and options else None
    chosen = recall(name, fallback, scope=scope, fit=one_of(options))
    return options.index(chosen) if chosen is not None and chosen in options else default


def within(low: Any = None, high: Any = None) -> Callable[[Any], Any]:
    """``fit``: a number (or a range's two ends) brought inside [low, high] (None: no
    bound), of the bounds' type (an int stays an int for an int widget)."""
    bound = low if low is not None else high

    def fit(value: Any) -> Any:
        if isinstance(value, tuple | list):
            return tuple(sorted(fit(v) for v in value))
        if not isinstance(value, Real) or isinstance(value, bool):
            raise TypeError(f"{value!r} is not a number")
        number = value if bound is None else type(bound)(value)
        if number != number:  # NaN
            raise ValueError("not a number")
        number = number if low is None else max(low, number)
        return number if high is None else min(number, high)

    return fit


def kept_number(
    where: Any,
    label: str,
    *,
    key: str,
    value: Any,
    scope: Any = None,
    restart: str | None = None,
    **kwargs: Any,
) -> Any:
    """``where.number_input(label, ...)`` that starts from the number it was left at
    (:func:`recall`, brought inside ``min_value`` and ``max_value``) and keeps what it returns.

    ``scope``: what the number is kept for (:func:`keep`). ``restart``: a text that, when it
    changes, starts the widget again from ``value`` (its key becomes ``f"{key}_{restart}"``);
    the number is then kept for that text (the default ``scope``).
    """
    widget, scope = (key, scope) if restart is None else (f"{key}_{restart}", restart)
    fit = within(kwargs.get("min_value"), kwargs.get("max_value"))
    number = where.number_input(
        label, value=recall(key, value, scope=scope, fit=fit), key=widget, **kwargs
    )
    keep(key, number, scope=scope)
    return number


def kept_toggle(
    where: Any, label: str, *, key: str, value: bool = False, scope: Any = None, **kwargs: Any
) -> bool:
    """``where.toggle(label, ...)`` that starts from what it was left at in ``scope`` (else
    ``value``) and keeps what it returns."""
    on = where.toggle(label, value=bool(recall(key, value, scope=scope)), key=key, **kwargs)
    keep(key, on, scope=scope)
    return on


def one_of(options: Collection[Any]) -> Callable[[Any], Any]:
    """``fit``: the kept value if it is still one of ``options``."""

    def fit(value: Any) -> Any:
        if value not in options:
            raise ValueError(f"{value!r} is not offered")
        return value

    return fit


def some_of(options: Collection[Any]) -> Callable[[Any], list]:
    """``fit``: the kept choices still among ``options``, in their order; none left of a
    choice that had some gives the default (an empty filter would mean "all")."""

    def fit(value: Any) -> list:
        left = [v for v in value if v in options]
        if value and not left:
            raise ValueError("none of the kept choices is offered")
        return left

    return fit
