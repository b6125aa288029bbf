"""The loader's options checked before any work: a wrong type is named, never a crash.

:func:`~analytics.data.loading.load_annotations` is called from scripts; an option of the
wrong type used to fail deep inside (``format=5``: AttributeError; ``limits=5``;
``multilabel_sep=5``: TypeError; ``categories=[1, None]``; ``categories=[10**400]``:
OverflowError) or, worse, to be taken apart silently (``categories="123"`` and
``missing="NA"`` were read one character at a time).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from numbers import Integral, Real
from typing import Any

import numpy as np

from analytics._core.errors import AnnotationDataError
from analytics.data.limits import Limits

__all__ = ["check_options"]


def _fail(option: str, got: Any, want: str) -> AnnotationDataError:
    return AnnotationDataError(
        f"{option}= must be {want}; got {type(got).__name__} {str(got)[:60]!r}.",
        hint=f"Pass {option}= as {want} (or leave it out).",
    )


def check_options(
    *,
    item: Any,
    annotator: Any,
    label: Any,
    format: Any,
    multilabel_sep: Any,
    categories: Any,
    layout: Any,
    max_bytes: Any,
    sheet: Any,
    name: Any,
    tool_options: Any,
    limits: Any,
    missing: Any,
) -> None:
    """Raise an :class:`AnnotationDataError` naming the first option of a wrong type.

    Examples
    --------
    >>> check_options(item=None, annotator=None, label=None, format="csv",
    ...               multilabel_sep=None, categories=["a", 1], layout=None,
    ...               max_bytes=10, sheet=None, name=None, tool_options=None,
    ...               limits=None, missing=["NA"])
    >>> check_options(item=None, annotator=None, label=None, format=None,
    ...               multilabel_sep=None, categories="abc", layout=None, max_bytes=10,
    ...               sheet=None, name=None, tool_options=None, limits=None, missing=None)
    Traceback (most recent call last):
    ...
    analytics._core.errors.AnnotationDataError: categories= must be a list of category names; got str 'abc'. ...
    """
    for option, value in (
        ("item", item),
        ("annotator", annotator),
        ("label", label),
        ("format", format),
        ("multilabel_sep", multilabel_sep),
        ("layout", layout),
        ("name", name),
    ):
        if value is not None and not isinstance(value, str):
            raise _fail(option, value, "text")
    roles = {r: c for r, c in (("item", item), ("annotator", annotator), ("label", label)) if c}
    if len(set(roles.values())) < len(roles):
        same = [r for r in roles if list(roles.values()).count(roles[r]) > 1]
        raise AnnotationDataError(
            f"{' and '.join(f'{r}=' for r in same)} name the same column "
            f"({roles[same[0]]!r}); each role needs its own column.",
            hint="Name three different columns for item, annotator and label.",
        )
    if sheet is not None and not isinstance(sheet, (str, Integral)):
        raise _fail("sheet", sheet, "a sheet name or number")
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, Integral) or max_bytes < 1:
        raise _fail("max_bytes", max_bytes, "a whole number of bytes >= 1")
    if limits is not None and not isinstance(limits, Limits):
        raise _fail("limits", limits, "a Limits(...)")
    if tool_options is not None and not _options_like(tool_options):
        raise _fail("tool_options", tool_options, "a dict of option names and values")
    if missing is not None and (isinstance(missing, (str, bytes)) or not _iterable(missing)):
        raise _fail("missing", missing, 'a list of texts (e.g. ["NA", "n/a"])')
    if categories is not None:
        _check_categories(categories)
    if categories is not None and layout == "contingency":
        raise AnnotationDataError(
            "categories= does not apply to a contingency table: its row and column names "
            "are the categories.",
            hint="Leave categories= out, or name the rows and columns of the table.",
        )


def _options_like(value: Any) -> bool:
    """A dict, or (name, value) pairs (the app passes a tuple of pairs, which it can hash)."""
    if isinstance(value, Mapping):
        return True
    if not isinstance(value, (list, tuple)):
        return False
    return all(isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str) for p in value)


def _iterable(value: Any) -> bool:
    try:
        iter(value)
    except TypeError:
        return False
    return True


def _check_categories(categories: Any) -> None:
    if isinstance(categories, (str, bytes, Mapping)) or not _iterable(categories):
        raise _fail("categories", categories, "a list of category names")
    for value in categories:
        if isinstance(value, (bool, np.bool_)):
            continue
        if isinstance(value, str):
            continue
        if isinstance(value, Integral):
            if abs(int(value)) > 2**63:
                raise AnnotationDataError(
                    f"categories= holds a number too large to be a category "
                    f"({str(value)[:30]}...).",
                    hint="Name the categories as text, or with smaller numbers.",
                )
            continue
        if isinstance(value, Real) and math.isfinite(float(value)):
            continue
        raise AnnotationDataError(
            f"categories= holds {str(value)[:60]!r} ({type(value).__name__}), which is not a "
            "category name.",
            hint="Give each category as text or a finite number; no None, NaN, lists or dicts.",
        )
