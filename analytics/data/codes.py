"""Integer codes: renumbering in first-seen order, and one code per distinct label set.

Part of the loader's encoding (:mod:`analytics.data.cells`, :mod:`analytics.data.encode`).
"""

from __future__ import annotations

import numpy as np

__all__ = ["first_seen", "set_codes"]


def first_seen(codes: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Renumber codes (all in ``range(n)``) in the order they first appear.

    Parameters
    ----------
    codes : ndarray of int
        Codes, none negative.
    n : int
        How many codes there may be.

    Returns
    -------
    new_codes : ndarray of int64
        ``codes`` renumbered 0, 1, ... by first appearance.
    order : ndarray of int64
        The old code of each new one.

    Examples
    --------
    >>> [a.tolist() for a in first_seen(np.array([2, 0, 2, 1]), 4)]
    [[0, 1, 0, 2], [2, 0, 1]]
    """
    m = len(codes)
    if m and codes[0] == 0:
        # Arrow's dictionary is in first-seen order, so usually the codes already are:
        # each code is at most one more than the largest before it. Three passes over the
        # codes say so, where the general renumbering below scatters and sorts.
        top = np.maximum.accumulate(codes)
        if not (codes[1:] > top[:-1] + 1).any():
            return np.asarray(codes, np.int64), np.arange(int(top[-1]) + 1, dtype=np.int64)
    first = np.full(n, m, np.int64)
    # assigned back to front, so the earliest position of each code is the one that stays
    first[codes[::-1]] = np.arange(m - 1, -1, -1, dtype=np.int32 if m < 2**31 else np.int64)
    used = np.flatnonzero(first < m)
    order = used[np.argsort(first[used], kind="stable")]
    remap = np.full(n, -1, np.int64)
    remap[order] = np.arange(len(order))
    return remap[codes], order


def set_codes(matrix: np.ndarray) -> np.ndarray:
    """One code per distinct row of a judgements x categories boolean matrix.

    Parameters
    ----------
    matrix : ndarray of bool, shape (n_judgements, n_categories)
        Which categories each judgement assigned.

    Returns
    -------
    ndarray of int64, shape (n_judgements,)
        The index of each row among ``numpy.unique(matrix, axis=0)`` (sorted rows).

    Examples
    --------
    >>> set_codes(np.array([[1, 0], [0, 0], [1, 0]], bool)).tolist()
    [1, 0, 1]
    """
    if matrix.shape[0] == 0:
        return np.zeros(0, np.int64)
    _, inverse = np.unique(matrix, axis=0, return_inverse=True)
    return inverse.reshape(-1).astype(np.int64)
