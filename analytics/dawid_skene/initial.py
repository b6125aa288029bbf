"""Confusion matrices known before the fit: crowd-kit's ``initial_error``.

:func:`initial_error_counts` reads historical confusion counts (from an earlier study, or
a qualification test) into the annotator x true x given array that the first M-step of
:func:`~analytics.dawid_skene.fit` adds to its expected counts (``"addition"``) or uses
instead of them (``"assign"``), as crowd-kit's ``DawidSkene(initial_error_strategy=...)``
does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError, wrong_type
from analytics.data import Annotations
from analytics.dawid_skene.em import category_codes

__all__ = ["INITIAL_ERROR_STRATEGIES", "initial_error_counts"]

INITIAL_ERROR_STRATEGIES = ("addition", "assign")
"""How ``fit(initial_error=...)`` enters the first M-step (crowd-kit's strategies)."""

_SHAPES = (
    "an annotators x K x K array (true x given, annotators in data order), a mapping "
    "annotator -> K x K table (rows: true category, columns: given label), or crowd-kit's "
    "frame (index: worker, observed label; columns: true label)"
)


def _counts(values: Any, what: str) -> np.ndarray:
    """``values`` as a float array; text, or cells that are not numbers, are refused."""
    if isinstance(values, (str, bytes)):
        raise wrong_type(values, f"{what} as confusion counts", hint=f"Pass {_SHAPES}.")
    try:
        if isinstance(values, pd.DataFrame):
            return values.to_numpy(dtype=float)
        return np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise AnnotationDataError(
            f"{what} must hold numbers (confusion counts or probabilities).",
            hint=f"Pass {_SHAPES}.",
        ) from None


def _square(table: Any, ann: Annotations, who: Any) -> np.ndarray:
    """One annotator's K x K counts (true x given) in the categories' order."""
    k = ann.n_categories
    if isinstance(table, pd.DataFrame):
        rows = category_codes(ann.categories, list(table.index))
        cols = category_codes(ann.categories, list(table.columns))
        if (rows < 0).any() or (cols < 0).any():
            raise AnnotationDataError(
                f"the initial confusion matrix of {who!r} names labels that are not categories "
                "of the data.",
                hint=f"Use the categories {list(map(str, ann.categories))[:10]}.",
            )
        out = np.zeros((k, k))
        np.add.at(out, (rows[:, None], cols[None, :]), _counts(table, f"the matrix of {who!r}"))
        return out
    arr = _counts(table, f"the initial confusion matrix of {who!r}")
    if arr.shape != (k, k):
        raise AnnotationDataError(
            f"the initial confusion matrix of {who!r} has shape {arr.shape}, not ({k}, {k}).",
            hint="One row per true category and one column per given label, in the order "
            "of the categories.",
        )
    return arr


def _from_crowdkit(frame: pd.DataFrame) -> dict[Any, pd.DataFrame]:
    """crowd-kit's (worker, observed) x true frame as worker -> true x observed tables."""
    return {w: sub.droplevel(0).T for w, sub in frame.groupby(level=0, sort=False)}


def initial_error_counts(
    ann: Annotations, initial_error: Any, strategy: str
) -> tuple[str, np.ndarray] | None:
    """Historical confusion counts as an annotator x true x given array (checked).

    Parameters
    ----------
    ann : Annotations
        The data being fitted (its annotators and categories give the axes).
    initial_error : None, ndarray, mapping or DataFrame
        None: no initial error (returns None). An annotators x K x K array (true x given, annotators in the order of
        ``ann.annotators``); a mapping annotator -> K x K array or DataFrame (rows: true
        category, columns: given label); or crowd-kit's frame, indexed by (worker,
        observed label) with one column per true label. Counts, or probabilities.
    strategy : {"addition", "assign"}
        ``"addition"`` accepts some of the annotators (the others get zeros);
        ``"assign"`` needs every annotator of the data.

    Returns
    -------
    tuple of (str, ndarray of shape (n_annotators, K, K)) or None
        The strategy and the counts, as :meth:`~analytics.dawid_skene.em.EMEngine.run`
        takes them.

    Raises
    ------
    AnnotationDataError
        An unknown strategy or annotator, a label that is no category, a wrong shape, a
        cell that is not a number, a negative or non-finite count, or (``"assign"``) an
        annotator left out.
    ArgumentTypeError
        ``initial_error`` (or one annotator's table) is text.

    References
    ----------
    Ustalov, D., Pavlichenko, N., & Tseitlin, B. (2024). Learning from crowds with
    Crowd-Kit. *Journal of Open Source Software* 9(96), 6227 (``DawidSkene``'s
    ``initial_error`` and ``initial_error_strategy``).
    """
    if not isinstance(strategy, str) or strategy not in INITIAL_ERROR_STRATEGIES:
        # checked with or without initial_error: a misspelt strategy is not ignored
        raise AnnotationDataError(
            f"unknown initial_error_strategy {strategy!r}.",
            hint="Use 'addition' (add the counts to the first M-step's) or 'assign' (use "
            "them instead).",
        )
    if initial_error is None:
        return None
    j, k = ann.n_annotators, ann.n_categories
    out = np.zeros((j, k, k))
    given = np.zeros(j, bool)
    if isinstance(initial_error, pd.DataFrame) and initial_error.index.nlevels == 2:
        initial_error = _from_crowdkit(initial_error)
    if isinstance(initial_error, Mapping):
        for who, table in initial_error.items():
            at = ann.annotators.get_indexer([who])[0]
            if at < 0:
                at = ann.annotators.get_indexer([str(who)])[0]
            if at < 0:
                raise AnnotationDataError(
                    f"initial_error names the annotator {who!r}, who is not in the data.",
                    hint="Give matrices for annotators of the data only.",
                )
            out[at] = _square(table, ann, who)
            given[at] = True
    else:
        arr = _counts(initial_error, "initial_error")
        if arr.shape != (j, k, k):
            raise AnnotationDataError(
                f"initial_error has shape {arr.shape}; expected {_SHAPES}, here ({j}, {k}, {k}).",
            )
        out, given[:] = arr, True
    if not np.isfinite(out).all() or (out < 0).any():
        raise AnnotationDataError("initial_error counts must be finite numbers >= 0.")
    if strategy == "assign" and not given.all():
        missing = [str(a) for a in ann.annotators[~given][:5]]
        raise AnnotationDataError(
            f"initial_error_strategy='assign' needs every annotator's matrix; missing: "
            f"{', '.join(missing)}.",
            hint="Give them all, or use 'addition' (partial matrices are added).",
        )
    return strategy, out
