"""Repeated judgements: the same annotator labelling the same item more than once.

:func:`one_per_pair` finds the first (or last) judgement of each (item, annotator) pair
with one sort of integer keys; :func:`duplicates_kept` applies a policy of
:data:`DUPLICATE_POLICIES` to the encoded judgements (refusing, keeping the first or the
last, or keeping all of them, which Dawid-Skene can use).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError

__all__ = ["DUPLICATE_POLICIES", "duplicates_kept", "one_per_pair"]

#: What to do when one annotator judged one item more than once.
DUPLICATE_POLICIES = ("error", "first", "last", "keep")


def one_per_pair(
    item_codes: np.ndarray, annotator_codes: np.ndarray, n_annotators: int, keep: str
) -> np.ndarray:
    """Which judgements to keep for one per annotator and item: the first or the last.

    Parameters
    ----------
    item_codes, annotator_codes : ndarray of int, shape (n_judgements,)
        The judgements' item and annotator codes, in input order.
    n_annotators : int
        How many annotators there are (annotator codes are below it).
    keep : {"first", "last"}
        Which judgement of a repeated (item, annotator) pair to keep, in input order.

    Returns
    -------
    ndarray of bool, shape (n_judgements,)
        True for the kept judgements (all of them when nothing repeats).

    Examples
    --------
    >>> one_per_pair(np.array([0, 0, 1]), np.array([0, 0, 0]), 1, "last").tolist()
    [False, True, True]
    """
    n = len(item_codes)
    if n < 2:
        return np.ones(n, bool)
    key = np.multiply(item_codes, max(n_annotators, 1), dtype=np.int64)
    key += annotator_codes
    # a stable sort in place (timsort: near linear on files grouped by item or annotator)
    # says whether any pair repeats; the order is computed only when one does
    key.sort(kind="stable")
    if (key[1:] != key[:-1]).all():
        return np.ones(n, bool)  # nothing repeats: every judgement is kept
    key = np.multiply(item_codes, max(n_annotators, 1), dtype=np.int64)
    key += annotator_codes
    order = np.argsort(key, kind="stable")
    sk = key[order]
    flags = np.empty(n, bool)  # per sorted position: the first (or last) of its pair
    if keep == "last":
        np.not_equal(sk[1:], sk[:-1], out=flags[:-1])
        flags[-1] = True
    else:
        np.not_equal(sk[1:], sk[:-1], out=flags[1:])
        flags[0] = True
    mask = np.empty(n, bool)
    mask[order] = flags
    return mask


def duplicates_kept(
    item_codes: np.ndarray,
    ann_codes: np.ndarray,
    duplicates: str,
    items: pd.Index,
    annotators: pd.Index,
    rows: Any,
    source: str,
) -> tuple[np.ndarray, int]:
    """Which judgements the duplicates policy keeps, and how many repeats there were.

    ``rows`` maps a judgement's position to its row number in the file (read only to
    name rows in the error of the ``"error"`` policy).
    """
    first = one_per_pair(item_codes, ann_codes, len(annotators), "first")
    dup_later = ~first  # a repeat of an earlier row
    n_dup = int(dup_later.sum())
    keep = np.ones(len(item_codes), bool)
    if n_dup:
        if duplicates == "error":
            first_dups = np.flatnonzero(dup_later)[:5]
            pairs = "; ".join(
                f"item '{items[item_codes[i]]}' by '{annotators[ann_codes[i]]}' (row {rows[i]})"
                for i in first_dups
            )
            raise AnnotationDataError(
                f"{n_dup} repeated judgements: the same annotator labelled the same item "
                f"more than once, e.g. {pairs}.",
                source=source,
                rows=rows[dup_later].tolist(),
                hint="Choose a duplicates policy: 'first', 'last' or 'keep' "
                "(repeated judgements are legitimate input for Dawid-Skene).",
            )
        if duplicates == "first":
            keep = first
        elif duplicates == "last":
            keep = one_per_pair(item_codes, ann_codes, len(annotators), "last")
    return keep, n_dup
