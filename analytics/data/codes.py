"""Integer codes: dictionary encoding by runs, renumbering in first-seen order, and one
code per distinct label set.

Part of the loader's encoding (:mod:`analytics.data.cells`, :mod:`analytics.data.encode`).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = [
    "category_codes",
    "few_dictionary_encode",
    "first_positions",
    "first_seen",
    "first_seen_kept",
    "run_dictionary_encode",
    "set_codes",
]

#: Cells :func:`run_dictionary_encode` looks at to decide whether runs are long enough.
RUN_SAMPLE = 4096
#: Encode by runs when the sample has fewer run heads than this share of its cells.
RUN_SHARE = 0.5


def run_dictionary_encode(
    values: pa.ChunkedArray,
) -> tuple[np.ndarray, pa.Array, tuple[np.ndarray, np.ndarray]] | None:
    """``pyarrow.compute.dictionary_encode``, hashing only the first cell of each run.

    Annotation exports are usually grouped by item (or by annotator): the item column
    holds runs of one id. Each cell is compared with the one before it (one vectorised
    pass), only the run heads are hashed, and their codes are repeated over the runs.
    When the run heads are in strictly increasing order (ids sorted, the usual export)
    they are all distinct and need no hash at all: their codes are 0, 1, 2, ...
    Measured on 2,000,000 item cells in runs of 5 (400,000 distinct ids), CPU time:
    Arrow's ``dictionary_encode`` of every cell 155 ms; by runs 28 ms with the heads
    sorted (compare 11, heads and sort check 10, repeat 3), about 110 ms with them
    shuffled (hashing 400,000 heads costs 92 ms: the cost follows the distinct values,
    which the runs do not reduce).

    Parameters
    ----------
    values : pyarrow.ChunkedArray
        A column of text (string or large_string), nulls allowed.

    Returns
    -------
    (codes, dictionary, (firsts, lengths)) or None
        ``codes`` (int32, -1 for null) and ``dictionary`` (the distinct values in
        first-seen order, of the column's type): exactly the indices and dictionary
        of ``dictionary_encode(values)``; ``firsts`` and ``lengths``: per value of the
        dictionary, where its first run starts and how long it is (for
        :func:`first_seen_kept`). None when the first :data:`RUN_SAMPLE` cells have run
        heads in :data:`RUN_SHARE` of them or more (runs too short to pay for the
        compare), or when there are fewer than two cells.

    Examples
    --------
    >>> cells = ["b", "b", "b", None, None, "a", "a", "a"]
    >>> codes, names, (firsts, lengths) = run_dictionary_encode(pa.chunked_array([cells]))
    >>> codes.tolist(), names.to_pylist()
    ([0, 0, 0, -1, -1, 1, 1, 1], ['b', 'a'])
    >>> firsts.tolist(), lengths.tolist()
    ([0, 5], [3, 3])
    >>> run_dictionary_encode(pa.chunked_array([["b", "a", "b"]])) is None  # no runs
    True
    """
    n = len(values)
    if n < 2:
        return None
    k = min(n, RUN_SAMPLE)
    if k - pc.sum(_same_as_previous(values.slice(0, k))).as_py() >= RUN_SHARE * k:
        return None
    # the chunks are compared as they are: combining them would copy the whole column
    same = _same_as_previous(values)
    head = np.empty(n, bool)
    head[0] = True
    np.logical_not(same.to_numpy(), out=head[1:])
    starts = np.flatnonzero(head)
    heads = _take_sorted(values, starts)
    lengths = np.diff(starts, append=n)
    if (
        heads.null_count == 0
        and len(heads) > 1
        and pc.all(pc.less(heads.slice(0, len(heads) - 1), heads.slice(1))).as_py()
    ):
        # strictly increasing: every head is a new value, met in this order
        codes = np.repeat(np.arange(len(heads), dtype=np.int32), lengths)
        return codes, heads, (starts, lengths)
    encoded = pc.dictionary_encode(heads)
    head_codes = encoded.indices.fill_null(-1).to_numpy(zero_copy_only=False)
    head_codes = head_codes.astype(np.int32, copy=False)
    new = first_positions(head_codes, len(encoded.dictionary))  # the first run of each value
    return np.repeat(head_codes, lengths), encoded.dictionary, (starts[new], lengths[new])


def category_codes(codes: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """A categorical column's codes renumbered in first-seen order, unused categories dropped.

    What ``pandas.factorize`` gives for the column's values, read from the codes alone:
    which categories occur (one count over the codes), where each first occurs (a
    prefix scan, :func:`first_positions`), one gather. Used for text columns the
    Parquet reader returns as dictionaries (``read_dictionary``): 2 M cells of 300
    annotators take 4 ms of CPU, against 20 ms to look each text up
    (:func:`few_dictionary_encode`) after decoding it.

    Parameters
    ----------
    codes : ndarray of int, shape (n_cells,)
        Category codes, -1 for a missing cell.
    n : int
        How many categories there are.

    Returns
    -------
    new_codes : ndarray of int32
        Codes 0, 1, ... by first appearance; -1 stays -1.
    order : ndarray of int64
        The category of each new code.

    Examples
    --------
    >>> [a.tolist() for a in category_codes(np.array([2, -1, 2, 0], np.int8), 4)]
    [[0, -1, 0, 1], [2, 0]]
    """
    used = np.bincount(np.asarray(codes, np.intp) + 1, minlength=n + 1)[1:] > 0
    first = first_positions(codes, n, needed=used)
    kept = np.flatnonzero(used)
    order = kept[np.argsort(first[kept], kind="stable")]  # every used code is found
    remap = np.full(n + 1, -1, np.int32)  # the last slot answers code -1
    remap[order] = np.arange(len(order), dtype=np.int32)
    return remap[codes], order


#: Cells :func:`few_dictionary_encode` reads to learn the distinct values.
FEW_SAMPLE = 1 << 14
#: ... and the most distinct values (as a share of those cells) it tries the rest with.
FEW_SHARE = 1 / 16


def few_dictionary_encode(values: pa.ChunkedArray) -> tuple[np.ndarray, pa.Array] | None:
    """``pyarrow.compute.dictionary_encode`` for a column of few distinct values.

    Columns such as annotators or labels show all their values early. The distinct
    values of the first :data:`FEW_SAMPLE` cells (first-seen order) are looked up for
    every cell (``pyarrow.compute.index_in``: a lookup in a fixed table, where the
    encoding inserts as it goes): 2 M cells of 300 annotators 40 against 49 ms of CPU,
    of 6 labels 30 against 44 ms. When every cell is found, the codes and dictionary are
    exactly ``dictionary_encode``'s (each value first appears in those first cells, in
    that order); when one is not, None (the caller encodes every cell, the lookup lost).

    Parameters
    ----------
    values : pyarrow.ChunkedArray
        A column of text, nulls allowed.

    Returns
    -------
    (codes, dictionary) or None
        ``codes`` (int32, -1 for null) and the distinct values in first-seen order; None
        when the first cells hold more than :data:`FEW_SHARE` of distinct values, or a
        later cell holds a value they do not.

    Examples
    --------
    >>> codes, names = few_dictionary_encode(pa.chunked_array([["b", None, "a"] * 400]))
    >>> codes[:4].tolist(), names.to_pylist()
    ([0, -1, 1, 0], ['b', 'a'])
    """
    k = min(len(values), FEW_SAMPLE)
    if k == 0:
        return None
    dictionary = pc.unique(values.slice(0, k)).drop_null()
    if hasattr(dictionary, "combine_chunks"):
        dictionary = dictionary.combine_chunks()
    if len(dictionary) > k * FEW_SHARE:
        return None
    found = pc.index_in(values, value_set=dictionary)
    if found.null_count != values.null_count:  # a value the first cells do not hold
        return None
    if found.null_count:
        found = found.fill_null(-1)
    codes = found.to_numpy()
    return codes.astype(np.int32, copy=False), dictionary


def _take_sorted(values: pa.ChunkedArray, positions: np.ndarray) -> pa.Array:
    """``values.take(positions)`` for increasing positions, chunk by chunk.

    Arrow's take on a chunked array concatenates the chunks first: for the 10 M-row
    item column read from Parquet (77 chunks) that copied the column and took 0.35 s
    of CPU; each chunk's own positions take a few milliseconds.
    """
    bounds = np.cumsum([0] + [len(c) for c in values.chunks])
    cuts = np.searchsorted(positions, bounds)
    parts = [
        chunk.take(positions[a:b] - start)
        for chunk, start, a, b in zip(values.chunks, bounds[:-1], cuts[:-1], cuts[1:], strict=True)
        if b > a
    ]
    return pa.concat_arrays(parts) if parts else pa.array([], values.type)


def _same_as_previous(values: pa.Array | pa.ChunkedArray) -> pa.BooleanArray:
    """Per cell after the first: equal to the one before (two nulls are equal)."""
    n = len(values)
    same = pc.equal(values.slice(1), values.slice(0, n - 1))
    if values.null_count:
        null = pc.is_null(values)
        same = pc.or_kleene(same, pc.and_(null.slice(1), null.slice(0, n - 1)))
    return same.fill_null(False)


def first_positions(
    codes: np.ndarray,
    n: int,
    limit: int | None = None,
    keep: np.ndarray | None = None,
    needed: np.ndarray | None = None,
) -> np.ndarray | None:
    """Where each code first appears (in the kept cells), for codes in first-seen order.

    Codes in first-seen order (what Arrow's dictionary encoding and ``pandas.factorize``
    give) are all met in a prefix of the cells as short as the last new one: the
    prefix is scanned, four times longer each round, until every code is found, so a
    column of few distinct values (annotators, labels) costs a few thousand cells.

    Parameters
    ----------
    codes : ndarray of int
        Codes in ``range(n)``, -1 for none.
    n : int
        How many codes there are.
    limit : int or None, default None
        Give up (return None) when the codes are not all met in this many cells.
    keep : ndarray of bool or None, default None
        Look at these cells only (None: all).
    needed : ndarray of bool or None, default None
        The codes to find (None: all); the others are -1 unless met on the way.

    Returns
    -------
    ndarray of int64, shape (n,), or None
        The position of the first (kept) cell with each code.

    Examples
    --------
    >>> first_positions(np.array([0, 0, -1, 1, 0, 2]), 3).tolist()
    [0, 3, 5]
    >>> keep = np.array([False, True, True, True, True, True])
    >>> first_positions(np.array([0, 0, -1, 1, 0, 2]), 3, keep=keep).tolist()
    [1, 3, 5]
    """
    m = len(codes)
    size = min(m, 1 << 14)
    while True:
        part = codes[:size] if keep is None else np.where(keep[:size], codes[:size], -1)
        part = part[::-1]
        seen = part >= 0
        first = np.full(n, -1, np.int64)
        # assigned back to front, so the earliest position of each code is the one that stays
        first[part[seen]] = (size - 1 - np.arange(size))[seen]
        found = first >= 0 if needed is None else (first >= 0) | ~needed
        if found.all():
            return first
        if size >= m or (limit is not None and size >= limit):
            return None
        size = min(m, size * 4)


def first_seen_kept(
    codes: np.ndarray,
    keep: np.ndarray,
    n: int,
    firsts: tuple[np.ndarray, np.ndarray] | None,
    used: np.ndarray | None = None,
    kept: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``first_seen(codes[keep], n)`` without a pass over the cells in the usual case.

    The codes are in first-seen order over all cells. Dropping cells changes that order
    only if a code loses the first cell of its first run and nothing else in that run
    is kept; each code's first run is known (``firsts``), so this is checked on the
    codes (a handful of gathers), not the cells. Then the new codes are the old ones
    (renumbered past codes no kept cell uses). Else, when the codes are few, the first
    kept cell of each is found in a short prefix (:func:`first_positions`); else the
    cells are renumbered by :func:`first_seen`. Measured on the 2 M-row benchmark file
    (1% of rows dropped for an empty label, so some annotators lose their first cell):
    the first-seen pass it replaces took 14 ms of CPU for the item column and 26 ms for
    the annotator column, this 5 ms and 1 ms.

    Parameters
    ----------
    codes : ndarray of int, shape (n_cells,)
        Codes in first-seen order; cells not kept may be -1.
    keep : ndarray of bool, shape (n_cells,)
        The cells kept; none of them -1.
    n : int
        How many codes there are.
    firsts : (ndarray, ndarray) or None
        Per code: where its first run starts, and the run's length (1 when runs are not
        known). None: not known, renumber the cells.
    used : ndarray of bool or None, default None
        Per code: whether a kept cell has it, when the caller knows.
    kept : ndarray of int or None, default None
        ``codes[keep]``, when the caller has it.

    Returns
    -------
    new_codes : ndarray of int64
        The kept cells' codes, renumbered 0, 1, ... by first appearance.
    order : ndarray of int64
        The old code of each new one.

    Examples
    --------
    >>> codes = np.array([0, 0, 1, 2, 1, 2])
    >>> firsts = (np.array([0, 2, 3]), np.array([2, 1, 1]))
    >>> [a.tolist() for a in first_seen_kept(codes, codes != 1, 3, firsts)]
    [[0, 0, 1, 1], [0, 2]]
    """
    ck = kept if kept is not None else codes if keep.all() else codes[keep]
    if firsts is not None and _first_runs_kept(keep, *firsts, used):
        if used is None or used.all():  # every code keeps a cell of its first run
            return np.asarray(ck, np.int64), np.arange(n, dtype=np.int64)
        order = np.flatnonzero(used).astype(np.int64)
        return (np.cumsum(used, dtype=np.int64) - 1)[ck], order
    # few codes (annotators, labels): their first kept cells are in a short prefix
    kept_at = None
    if n * 64 <= len(codes):
        kept_at = first_positions(codes, n, len(codes) // 8, keep, used)
    if kept_at is None:
        return first_seen(ck, n)
    found = np.flatnonzero(kept_at >= 0)
    order = found[np.argsort(kept_at[found], kind="stable")]
    if len(order) == n and bool((order[1:] > order[:-1]).all()):
        return np.asarray(ck, np.int64), order  # the order is unchanged
    remap = np.full(n, -1, np.int64)
    remap[order] = np.arange(len(order))
    return remap[ck], order


def _first_runs_kept(
    keep: np.ndarray, starts: np.ndarray, lengths: np.ndarray, used: np.ndarray | None
) -> bool:
    """Whether every code (every used one) keeps a cell of its first run."""
    lost = ~keep[starts]
    if used is not None:
        lost &= used
    if not lost.any():
        return True
    start, length = starts[lost], lengths[lost]
    if int(length.max()) > 64:  # long runs: cheaper to renumber the cells
        return False
    found = np.zeros(len(start), bool)
    for j in range(1, int(length.max())):
        inside = np.flatnonzero(~found & (j < length))
        found[inside] = keep[start[inside] + j]
    return bool(found.all())


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
