"""Checks on the numbers a user passes to the analytics functions: one module for every family.

Each check raises :class:`~analytics._core.errors.AnnotationDataError` naming the argument and
what it must be (never a raw ``float()`` or numpy conversion error, never a silent
truncation of 2.5 annotators to 2). Situations that are legal but leave a quantity
undefined (no agreed items, a negative kappa, ...) are not errors: the functions return
NaN with a ``reason`` instead.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from analytics._core.errors import AnnotationDataError

__all__ = [
    "check_choice",
    "check_confidence",
    "check_counts",
    "check_method",
    "check_number",
    "check_positive",
    "check_probabilities",
    "check_probability",
    "check_whole",
]

MIXTURE_METHODS = ("auto", "exact", "refined normal")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_number(value: Any, name: str) -> float:
    """A real number (numpy scalars included; NaN passes, text, bools and None do not)."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise AnnotationDataError(f"{name} must be a number, got {_shown(value)}.")
    return float(value)


def check_whole(value: Any, name: str, minimum: int) -> int:
    """A whole number >= ``minimum`` (100 and 100.0 pass; 100.5, NaN and "100" do not)."""
    try:
        v = check_number(value, name)
    except AnnotationDataError:
        v = float("nan")
    if not np.isfinite(v) or not v.is_integer():
        raise AnnotationDataError(f"{name} must be a whole number, got {_shown(value)}.")
    if v < minimum:
        raise AnnotationDataError(f"{name} must be at least {minimum}, got {int(v)}.")
    return int(v)


def check_counts(
    n_items: Any, n_disagreed: Any, *, part: str = "n_disagreed", symbol: str = "d"
) -> tuple[int, int]:
    """n >= 1 items and 0 <= d <= n of them disagreed (or, with ``part``, agreed).

    ``symbol`` is the paper's letter for the count (shown as "d = 11"); "" shows the bare
    number.
    """
    n = check_whole(n_items, "n_items", 1)
    d = check_whole(n_disagreed, part, 0)
    if d > n:
        what = part.removeprefix("n_")
        count, total = (f"{symbol} = {d}", f"n = {n}") if symbol else (str(d), str(n))
        raise AnnotationDataError(
            f"{part} ({count}) cannot exceed n_items ({total}): the {what} items are among "
            "all the items."
        )
    return n, d


def check_probability(value: Any, name: str) -> float:
    """A number in [0, 1] (NaN refused)."""
    v = check_number(value, name)
    if not 0.0 <= v <= 1.0:
        raise AnnotationDataError(f"{name} must lie between 0 and 1 (got {_shown(value)}).")
    return v


def check_probabilities(values: Any, name: str) -> np.ndarray:
    """A flat float array of numbers in [0, 1] (NaN refused)."""
    try:
        arr = np.asarray(values, dtype=float).ravel()
    except (TypeError, ValueError):
        raise AnnotationDataError(f"{name} must be numbers between 0 and 1.") from None
    bad = ~((arr >= 0.0) & (arr <= 1.0))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise AnnotationDataError(
            f"{name} must lie between 0 and 1; entry {i + 1} is {float(arr[i])!r}"
            + (f" ({int(bad.sum())} bad entries in all)." if bad.sum() > 1 else ".")
        )
    return arr


def check_confidence(confidence: Any) -> float:
    c = check_number(confidence, "the confidence")
    if not 0.0 < c < 1.0:
        raise AnnotationDataError(
            f"the confidence must lie strictly between 0 and 1 (got {_shown(confidence)}); "
            "for 95% give 0.95."
        )
    return c


def check_method(method: Any, n_nodes: Any) -> tuple[str, int]:
    """Options of the per-item computation (:func:`analytics.noise.mixture.hidden_hard_posterior`)."""
    if not isinstance(method, str) or method not in MIXTURE_METHODS:
        raise AnnotationDataError(
            f"unknown method {_shown(method)}; use {', '.join(repr(m) for m in MIXTURE_METHODS)}."
        )
    return method, check_whole(n_nodes, "n_nodes", 1)


def check_positive(value: Any, name: str) -> float:
    """A number > 0 (NaN, zero, negatives, text, bools and None refused).

    Parameters
    ----------
    value : Any
        What the caller passed.
    name : str
        The argument's name, as the error message shows it.

    Returns
    -------
    float
        ``value`` as a float.

    Examples
    --------
    >>> check_positive(8e8, "budget")
    800000000.0
    """
    v = check_number(value, name)
    if not v > 0:
        raise AnnotationDataError(f"{name} must be a positive number, got {_shown(value)}.")
    return v


def check_choice(value: Any, name: str, options: tuple[str, ...]) -> str:
    """One of a few named options (exact match: the caller normalises case if it wants).

    Parameters
    ----------
    value : Any
        What the caller passed.
    name : str
        The argument's name, as the error message shows it.
    options : tuple of str
        The allowed values.

    Returns
    -------
    str
        ``value``, unchanged.

    Examples
    --------
    >>> check_choice("normal", "bound", ("chebyshev", "normal", "exact"))
    'normal'
    """
    if not isinstance(value, str) or value not in options:
        raise AnnotationDataError(
            f"unknown {name} {_shown(value)}; use one of {', '.join(options)}."
        )
    return value
