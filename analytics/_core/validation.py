"""Checks on the numbers a user passes to the analytics functions: one module for every family.

Each check raises :class:`~analytics._core.errors.AnnotationDataError` naming the argument and
what it must be (never a raw ``float()`` or numpy conversion error, never a silent
truncation of 2.5 annotators to 2). Situations that are legal but leave a quantity
undefined (no agreed items, a negative kappa, ...) are not errors: the functions return
NaN with a ``reason`` instead.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
import pandas as pd

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


# ====================================================================== Dawid-Skene
# The EM settings of analytics.dawid_skene.fit and the parameters of its posterior and
# log_likelihood (prevalence, confusion matrices, one item's observed labels, a prior).
# Every message names the argument, the expected shape or range and the value given, so
# that no raw numpy error (broadcasting, conversion) and no silent truncation reaches
# the user.

__all__ += [
    "PROBABILITY_TOL",
    "check_confusions",
    "check_finite",
    "check_observed",
    "check_prevalence",
    "check_prior",
    "check_settings",
    "check_smoothing",
]

PROBABILITY_TOL = 1e-9  # a probability vector must sum to 1 within this


@contextmanager
def _hinted(hint: str) -> Iterator[None]:
    """Add ``hint`` to an AnnotationDataError raised inside (one that has no hint yet)."""
    try:
        yield
    except AnnotationDataError as exc:
        if exc.hint:
            raise
        raise AnnotationDataError(exc.problem, hint=hint) from None


def check_finite(value: Any, name: str, *, hint: str | None = None) -> float:
    """A finite real number (:func:`check_number` without NaN and infinity).

    Parameters
    ----------
    value : Any
        What the user passed.
    name : str
        The argument's name, for the message.
    hint : str or None, default None
        How to fix a bad value, appended to the message.

    Returns
    -------
    float

    Examples
    --------
    >>> check_finite(0.5, "tol")
    0.5
    >>> check_finite(float("inf"), "tol")
    Traceback (most recent call last):
    ...
    analytics._core.errors.AnnotationDataError: tol must be a finite number, got inf.
    """
    with _hinted(hint or ""):
        v = check_number(value, name)
    if not np.isfinite(v):
        raise AnnotationDataError(
            f"{name} must be a finite number, got {_shown(value)}.", hint=hint
        )
    return v


def check_settings(
    *, max_iter: Any, tol: Any, smoothing: Any, init: Any, seed: Any, init_methods: Sequence[str]
) -> tuple[int, float, float, str, int]:
    """The EM settings of :func:`analytics.dawid_skene.fit`, checked and converted.

    Parameters
    ----------
    max_iter : Any
        A whole number >= 0 (0: the first M-step only).
    tol : Any
        A finite number >= 0 (0 means: never stop early, run all ``max_iter`` iterations).
    smoothing : Any
        A number from 0 to 1e12 (see :func:`check_smoothing`).
    init : Any
        One of ``init_methods``.
    seed : Any
        A whole number >= 0.
    init_methods : sequence of str
        The starts :func:`~analytics.dawid_skene.fit` knows.

    Returns
    -------
    tuple of (int, float, float, str, int)
        ``max_iter``, ``tol``, ``smoothing``, ``init``, ``seed``.
    """
    if not isinstance(init, str) or init not in init_methods:
        raise AnnotationDataError(
            f"unknown init {_shown(init)}.", hint=f"Use one of: {', '.join(init_methods)}."
        )
    with _hinted("It is the most EM iterations to run, e.g. 500."):
        iters = check_whole(max_iter, "max_iter", 0)
    tol_hint = "Use a small relative change such as 1e-7; 0 runs all max_iter iterations."
    stop = check_finite(tol, "tol", hint=tol_hint)
    if stop < 0:
        raise AnnotationDataError(f"tol must be >= 0, got {_shown(tol)}.", hint=tol_hint)
    smooth = check_smoothing(smoothing)
    with _hinted("Any whole number >= 0 (it fixes the random starts)."):
        rng_seed = check_whole(seed, "seed", 0)
    return iters, stop, smooth, init, rng_seed


#: The largest pseudo-count (smoothing, a prior cell): 1e308 overflowed, all posteriors NaN.
MAX_PSEUDO_COUNT = 1e12
_TOO_LARGE = " must be a number from 0 to 1e12 (got {:g}): a pseudo-count that large outweighs any data set's judgements, and larger ones overflow the fit."


def check_smoothing(smoothing: Any) -> float:
    """The additive pseudo-count of the annotator models: a number from 0 to 1e12.

    Examples
    --------
    >>> check_smoothing(0.01)
    0.01
    """
    hint = "Use 0 for the unsmoothed maximum-likelihood fit, 0.01 for light smoothing."
    s = check_finite(smoothing, "smoothing", hint=hint)
    if s < 0:
        raise AnnotationDataError(
            f"smoothing must be a finite number >= 0, got {_shown(smoothing)}.", hint=hint
        )
    if s > MAX_PSEUDO_COUNT:
        raise AnnotationDataError("smoothing" + _TOO_LARGE.format(s), hint=hint)
    return s


def check_prior(prior: Any, k: int, categories: pd.Index) -> np.ndarray:
    """Extra Dirichlet pseudo-counts for every annotator's confusion rows, as K x K.

    Parameters
    ----------
    prior : None, number, array_like of shape (K, K) or pandas.DataFrame
        None (no extra pseudo-counts: zeros), one number (the same pseudo-count in every
        cell), a K x K array or a DataFrame with the categories as rows (true) and columns
        (given). Nothing else is broadcast: a single row of K numbers is refused rather
        than repeated.
    k : int
        The number of categories K.
    categories : pandas.Index
        The categories, in the order of the rows and columns.

    Returns
    -------
    ndarray of shape (K, K)
        From 0 to 1e12.

    Examples
    --------
    >>> check_prior(2, 2, pd.Index(["a", "b"])).tolist()
    [[2.0, 2.0], [2.0, 2.0]]
    """
    if prior is None:
        return np.zeros((k, k))
    expected = (
        f"prior must be one number or a {k} x {k} table of pseudo-counts (rows: true "
        f"category, columns: given label, in the order {list(categories)[:10]})"
    )
    if isinstance(prior, pd.DataFrame):
        framed = prior.reindex(index=categories, columns=categories)
        if framed.isna().to_numpy().any() or framed.shape != (k, k):
            raise AnnotationDataError(
                "the prior DataFrame must have one row and one column per category.",
                hint=f"Categories: {list(categories)[:10]}.",
            )
        values: Any = framed.to_numpy()
    else:
        values = prior
    try:
        p = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise AnnotationDataError(f"{expected}; got {_shown(prior)}.") from None
    if p.ndim == 0:
        p = np.full((k, k), float(p))
    elif p.shape != (k, k):
        raise AnnotationDataError(f"{expected}; got an array of shape {p.shape}.")
    if not np.isfinite(p).all() or (p < 0).any():
        raise AnnotationDataError(
            "prior pseudo-counts must be finite and >= 0.",
            hint="A prior such as 2 * np.eye(K) says 'annotators are usually right'.",
        )
    if (p > MAX_PSEUDO_COUNT).any():
        raise AnnotationDataError("prior pseudo-counts" + _TOO_LARGE.format(p.max()))
    return p


def _float_array(values: Any, name: str, expected: str) -> np.ndarray:
    try:
        return np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise AnnotationDataError(
            f"{name} must be numbers: {expected}; got {_shown(values)}."
        ) from None


def _finite_non_negative(x: np.ndarray, name: str) -> None:
    if not np.isfinite(x).all():
        raise AnnotationDataError(f"{name} must be finite probabilities (no NaN or infinity).")
    if (x < 0).any():
        raise AnnotationDataError(f"{name} must not hold negative probabilities.")


def check_prevalence(prevalence: Any, k: int | None = None) -> np.ndarray:
    """The prevalence :math:`\\pi` as a probability vector.

    Parameters
    ----------
    prevalence : array_like
        One probability per category: 1-D, finite, >= 0, summing to 1 within
        :data:`PROBABILITY_TOL`.
    k : int or None, default None
        The number of categories it must have; None accepts any length >= 1.

    Returns
    -------
    ndarray of shape (K,)

    Examples
    --------
    >>> check_prevalence([0.2, 0.8]).tolist()
    [0.2, 0.8]
    """
    expected = (
        "a vector of length K, one probability per category"
        if k is None
        else (f"a vector of length {k}, one probability per category")
    )
    pi = _float_array(prevalence, "prevalence", expected)
    if pi.ndim != 1:
        raise AnnotationDataError(
            f"prevalence must be a vector of length K (one probability per category), "
            f"got an array of shape {pi.shape}."
        )
    if pi.size == 0:
        raise AnnotationDataError("prevalence needs at least one category.")
    if k is not None and pi.shape != (k,):
        raise AnnotationDataError(f"prevalence must be {expected}; got length {pi.size}.")
    _finite_non_negative(pi, "prevalence")
    total = float(pi.sum())
    if abs(total - 1.0) > PROBABILITY_TOL:
        raise AnnotationDataError(
            f"prevalence must sum to 1 (within {PROBABILITY_TOL:g}); it sums to {total:.12g}.",
            hint="Divide it by its sum.",
        )
    return pi


def check_confusions(
    confusions: Any,
    k: int,
    n_annotators: int | None = None,
    annotators: Sequence[Any] | None = None,
    categories: Sequence[Any] | None = None,
) -> np.ndarray:
    """The confusion matrices :math:`\\theta` as J x K x K (annotator x true x given).

    Parameters
    ----------
    confusions : array_like
        One K x K matrix per annotator, every row a probability vector (finite, >= 0,
        summing to 1 within :data:`PROBABILITY_TOL`).
    k : int
        The number of categories K.
    n_annotators : int or None, default None
        The number of annotators J it must have; None accepts any.
    annotators, categories : sequence or None, default None
        Names shown in the message about a bad row.

    Returns
    -------
    ndarray of shape (J, K, K)
    """
    j = "J" if n_annotators is None else str(n_annotators)
    expected = (
        f"shape ({j}, {k}, {k}): one {k} x {k} matrix (rows: true category, columns: given "
        "label) per annotator"
    )
    theta = _float_array(confusions, "confusions", expected)
    if (
        theta.ndim != 3
        or theta.shape[1:] != (k, k)
        or (n_annotators is not None and theta.shape[0] != n_annotators)
    ):
        raise AnnotationDataError(f"confusions must have {expected}; got shape {theta.shape}.")
    _finite_non_negative(theta, "confusions")
    sums = theta.sum(axis=2)
    bad = np.argwhere(np.abs(sums - 1.0) > PROBABILITY_TOL)
    if len(bad):
        a, row = (int(x) for x in bad[0])
        who = f" ({annotators[a]!r})" if annotators is not None else ""
        what = f" (true category {categories[row]!r})" if categories is not None else ""
        raise AnnotationDataError(
            f"every confusion row must sum to 1 (within {PROBABILITY_TOL:g}); annotator "
            f"{a + 1}{who}, row {row + 1}{what} sums to {sums[a, row]:.12g}"
            + (f" ({len(bad)} rows in all)." if len(bad) > 1 else "."),
            hint="Each row is the distribution of labels given to items of that true category.",
        )
    return theta


def check_observed(observed: Any, k: int, n_annotators: int) -> np.ndarray:
    """The labels of one item as 0-based codes, one per annotator; -1 = not labelled.

    Parameters
    ----------
    observed : sequence of int or None, or ndarray
        Whole numbers only (``1.0`` is accepted, ``1.7``, NaN and text are not), from 0
        to K - 1, or -1 / None for "not labelled". Other negative numbers are refused
        rather than read as "not labelled".
    k : int
        The number of categories K.
    n_annotators : int
        The number of entries it must have.

    Returns
    -------
    ndarray of int64, shape (n_annotators,)

    Examples
    --------
    >>> check_observed([0, None, 1.0], 2, 3).tolist()
    [0, -1, 1]
    """
    how = (
        f"0-based label indices from 0 to {k - 1}, or -1 / None when the annotator did not "
        "label the item"
    )
    try:
        numeric = isinstance(observed, np.ndarray) and observed.dtype.kind in "iuf"
        arr = observed if numeric else np.asarray([-1 if v is None else v for v in observed])
        if arr.dtype.kind == "O" and arr.ndim == 1:
            arr = arr.astype(float)  # e.g. Decimal or mixed number types
    except (TypeError, ValueError):
        raise AnnotationDataError(
            f"observed must be a list of {n_annotators} label indices ({how}); got {_shown(observed)}."
        ) from None
    if arr.ndim != 1 or arr.shape[0] != n_annotators:
        raise AnnotationDataError(
            f"observed needs {n_annotators} entries, one per annotator ({how}); got shape {arr.shape}."
        )
    if arr.dtype.kind in "iu":
        codes = arr.astype(np.int64)
    elif arr.dtype.kind == "f":
        whole = np.isfinite(arr) & (arr == np.floor(arr))
        if not whole.all():
            a = int(np.flatnonzero(~whole)[0])
            raise AnnotationDataError(
                f"observed label indices must be whole numbers ({how}); annotator {a + 1} has {float(arr[a])!r}."
            )
        codes = arr.astype(np.int64)
    elif n_annotators == 0:
        codes = np.zeros(0, np.int64)
    else:
        raise AnnotationDataError(
            f"observed label indices must be whole numbers ({how}); got {_shown(list(arr)[:5])}."
        )
    bad = np.flatnonzero((codes < -1) | (codes >= k))
    if len(bad):
        a = int(bad[0])
        raise AnnotationDataError(
            f"observed label indices must run from 0 to {k - 1} (-1 or None: not labelled); "
            f"annotator {a + 1} has {codes[a]}."
        )
    return codes
