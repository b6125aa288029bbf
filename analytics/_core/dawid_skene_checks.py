"""Checks on what a user passes to the Dawid-Skene functions.

Every check raises :class:`~analytics._core.errors.AnnotationDataError` with a message that
names the argument, the expected shape or range and the value that was given, so that
no raw numpy error (broadcasting, conversion) and no silent truncation or broadcast
reaches the user. Used by :mod:`analytics.dawid_skene`.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError

__all__ = [
    "PROBABILITY_TOL",
    "check_confusions",
    "check_observed",
    "check_prevalence",
    "check_settings",
    "pseudo_counts",
]

PROBABILITY_TOL = 1e-9  # a probability vector must sum to 1 within this


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _number(value: Any, name: str, hint: str) -> float:
    """A finite real number (numpy scalars included; bools, text and None refused)."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise AnnotationDataError(f"{name} must be a number, got {_shown(value)}.", hint=hint)
    v = float(value)
    if not np.isfinite(v):
        raise AnnotationDataError(
            f"{name} must be a finite number, got {_shown(value)}.", hint=hint
        )
    return v


def _whole(value: Any, name: str, minimum: int, hint: str) -> int:
    """A whole number >= ``minimum`` (3 and 3.0 are accepted, 1.5 is not)."""
    v = _number(value, name, hint)
    if not v.is_integer() or v < minimum:
        raise AnnotationDataError(
            f"{name} must be a whole number >= {minimum}, got {_shown(value)}.", hint=hint
        )
    return int(v)


def check_settings(
    *, max_iter: Any, tol: Any, smoothing: Any, init: Any, seed: Any, init_methods: Sequence[str]
) -> tuple[int, float, float, str, int]:
    """The EM settings of :func:`analytics.dawid_skene.fit`, checked and converted.

    ``max_iter`` >= 1 (whole), ``tol`` >= 0 and finite (0 means: never stop early, run
    all ``max_iter`` iterations), ``smoothing`` >= 0 and finite, ``init`` one of
    ``init_methods``, ``seed`` a whole number >= 0.
    """
    if not isinstance(init, str) or init not in init_methods:
        raise AnnotationDataError(
            f"unknown init {_shown(init)}.", hint=f"Use one of: {', '.join(init_methods)}."
        )
    iters = _whole(max_iter, "max_iter", 1, "It is the most EM iterations to run, e.g. 500.")
    stop = _number(
        tol, "tol", "Use a small relative change such as 1e-7; 0 runs all max_iter iterations."
    )
    if stop < 0:
        raise AnnotationDataError(
            f"tol must be >= 0, got {_shown(tol)}.",
            hint="Use a small relative change such as 1e-7; 0 runs all max_iter iterations.",
        )
    smooth = check_smoothing(smoothing)
    rng_seed = _whole(seed, "seed", 0, "Any whole number >= 0 (it fixes the random starts).")
    return iters, stop, smooth, init, rng_seed


def check_smoothing(smoothing: Any) -> float:
    hint = "Use 0 for the unsmoothed maximum-likelihood fit, 0.01 for light smoothing."
    s = _number(smoothing, "smoothing", hint)
    if s < 0:
        raise AnnotationDataError(
            f"smoothing must be a finite number >= 0, got {_shown(smoothing)}.", hint=hint
        )
    return s


def pseudo_counts(smoothing: Any, prior: Any, k: int, categories: pd.Index) -> np.ndarray:
    """Dirichlet pseudo-counts (alpha - 1) added to every annotator's confusion rows.

    ``prior`` is None, one number (the same pseudo-count in every cell), a K x K array
    or a DataFrame with the categories as rows (true) and columns (given). Nothing else
    is broadcast: a single row of K numbers is refused rather than repeated.
    """
    a = np.full((k, k), check_smoothing(smoothing))
    if prior is None:
        return a
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
    return a + p


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
    """pi as a probability vector: 1-D, finite, >= 0, summing to 1 within 1e-9."""
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
    """theta as J x K x K (annotator x true x given), every row a probability vector."""
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
    """Label indices of one item, one per annotator; -1 (or None) = not labelled.

    Whole numbers only (``1.0`` is accepted, ``1.7``, NaN and text are not), from 0 to
    K - 1, or -1. Other negative numbers are refused rather than read as "not labelled".
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
