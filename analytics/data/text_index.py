"""Distinct texts, judged from Arrow's buffers: factorizing, missing tokens, blanks.

The byte-level half of :mod:`analytics.data.cells`: a column is factorized once (by
runs, by a small fixed table, or by Arrow's hash) and each distinct text is judged from
its first and last bytes and its length, read from Arrow's offsets without building a
Python string. Imports nothing from the package but :mod:`analytics.data.codes`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from analytics.data.codes import category_codes, few_dictionary_encode, run_dictionary_encode

__all__ = [
    "arrow_factorize",
    "could_end_as",
    "factorize_runs",
    "is_text",
    "strip_leaves",
    "text_edges",
    "text_heads",
    "text_missing",
]


def arrow_factorize(s: pd.Series) -> tuple[np.ndarray, pd.Index]:
    """``pandas.factorize(s, use_na_sentinel=True)``, by Arrow's hash for Arrow strings.

    Same codes (-1 for None/NaN) and uniques (first-seen order); an Arrow-backed string
    column is dictionary-encoded by Arrow, whose int32 indices are the codes.

    Parameters
    ----------
    s : pandas.Series

    Returns
    -------
    codes : ndarray of int32 (Arrow strings) or int64, shape (len(s),)
    uniques : pandas.Index

    Examples
    --------
    >>> codes, uniques = arrow_factorize(pd.Series(["b", None, "a", "b"], dtype="str"))
    >>> codes.tolist(), uniques.tolist()
    ([0, -1, 1, 0], ['b', 'a'])
    """
    codes, uniques, _ = factorize_runs(s)
    return codes, uniques


def factorize_runs(
    s: pd.Series,
) -> tuple[np.ndarray, pd.Index, tuple[np.ndarray, np.ndarray] | None]:
    """:func:`arrow_factorize`, and each value's first run when encoded by runs."""
    if isinstance(s.dtype, pd.CategoricalDtype) and is_text(s.dtype.categories):
        # text read as a dictionary (the Parquet reader's columns of few values, a pandas
        # category column): judged as text, as the same cells written out would be
        codes, order = category_codes(s.array.codes, len(s.dtype.categories))
        return codes, s.dtype.categories.take(order), None
    if not _arrow_text(s.dtype):
        codes, uniques = pd.factorize(s, use_na_sentinel=True)
        return np.asarray(codes, np.int64), pd.Index(uniques), None
    values = pa.chunked_array(s.array.__arrow_array__())
    runs = run_dictionary_encode(values)  # a column grouped in runs: hash the run heads
    if runs is not None:
        codes, dictionary, firsts = runs
        return codes, pd.Index(pd.array(dictionary, dtype=s.dtype)), firsts
    few = few_dictionary_encode(values)  # annotators, labels: all seen in the first cells
    if few is not None:
        codes, dictionary = few
        return codes, pd.Index(pd.array(dictionary, dtype=s.dtype)), None
    encoded = pc.dictionary_encode(values)
    codes = np.empty(len(s), np.int32)  # dictionary_encode's indices are int32
    start = 0
    for chunk in encoded.chunks:  # every chunk shares the one (final) dictionary
        indices = chunk.indices if not chunk.null_count else chunk.indices.fill_null(-1)
        codes[start : start + len(chunk)] = indices.to_numpy(zero_copy_only=False)
        start += len(chunk)
    dictionary = encoded.chunks[-1].dictionary if encoded.num_chunks else pa.array([], pa.string())
    return codes, pd.Index(pd.array(dictionary, dtype=s.dtype)), None


def _arrow_text(dtype: object) -> bool:
    return isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow"


def text_missing(texts: pd.Index, tokens: frozenset) -> tuple[np.ndarray, bool]:
    """Per distinct text: is it a missing token; and does stripping leave every text as is?

    A text is a token when stripped and lower-cased it is one of ``tokens``; the second
    value is True only when stripping is known to change no text (False: not known).

    Stripping and lower-casing 400,000 item ids costs 26 ms of CPU, for none of them
    to be a token: only the texts that could be one are looked at, those short enough
    or with a blank (or anything but printable ASCII) at either end (see
    :func:`text_edges`; about 5 ms).
    """
    edges = text_edges(texts)
    if edges is None:
        return np.asarray(texts.str.strip().str.lower().isin(list(tokens)), bool), False
    plain, nbytes, arr = edges
    longest = max((len(t.encode()) for t in tokens), default=0)
    # lower-casing keeps an ASCII text's length, and makes no character vanish: a text
    # of more bytes than the longest token is one only if it is not ASCII (4 bytes a
    # character at most) or stripping shortens it
    could = ~plain | (nbytes <= longest)
    unsure = ~could & (nbytes <= 4 * longest)
    if unsure.any():
        could |= unsure & ~pc.string_is_ascii(arr).to_numpy(zero_copy_only=False)
    miss = np.zeros(len(texts), bool)
    if could.any():
        some = texts[could]
        miss[could] = np.asarray(some.str.strip().str.lower().isin(list(tokens)), bool)
    return miss, bool(plain.all())


def strip_leaves(texts: pd.Index) -> bool:
    """Whether stripping blanks leaves every text as it is."""
    edges = text_edges(texts)
    if edges is not None and edges[0].all():
        return True
    return bool((texts.str.strip() == texts).all())


def text_edges(texts: pd.Index) -> tuple[np.ndarray, np.ndarray, pa.Array] | None:
    """Per Arrow text: printable ASCII other than a blank at both ends, and byte length.

    A text that starts and ends with a character from ``!`` to ``~`` loses nothing to
    stripping (every blank, ASCII or Unicode, is outside that range). Read from Arrow's
    offsets and bytes, without building a string (400,000 ids: 3 ms of CPU, against
    7 ms to strip them and compare). None for texts not held by Arrow. The third value
    is the Arrow array.
    """
    if not (isinstance(texts.dtype, pd.StringDtype) and texts.dtype.storage == "pyarrow"):
        return None
    arr = pa.chunked_array(texts.array.__arrow_array__()).combine_chunks()
    if arr.null_count or not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
        return None
    first, nbytes, last = text_heads(arr, last=True)
    # uint8 arithmetic wraps around: x - 0x21 <= 0x5D holds for 0x21 <= x <= 0x7E only
    plain = (first - np.uint8(0x21) <= 0x5D) & (last - np.uint8(0x21) <= 0x5D) & (nbytes > 0)
    return plain, nbytes, arr


def text_heads(arr: pa.Array, last: bool = False) -> tuple[np.ndarray, ...]:
    """The first byte and the byte length of each text of an Arrow string array.

    Read from the array's offsets and data buffers (no string is built).

    Parameters
    ----------
    arr : pyarrow.Array
        Of type string or large_string.
    last : bool, default False
        Also return the last byte of each text.

    Returns
    -------
    first : ndarray of uint8
        The first byte (any byte for an empty text).
    nbytes : ndarray of int
        The length in bytes.
    last : ndarray of uint8
        With ``last=True``: the last byte (any byte for an empty text).

    Examples
    --------
    >>> first, nbytes = text_heads(pa.array(["ab", "", " c"]))
    >>> bytes(first[[0, 2]]), nbytes.tolist()
    (b'a ', [2, 0, 2])
    """
    width = np.int64 if pa.types.is_large_string(arr.type) else np.int32
    buffers = arr.buffers()
    offsets = np.frombuffer(buffers[1], width)[arr.offset : arr.offset + len(arr) + 1]
    nbytes = np.diff(offsets)
    if buffers[2] is None or offsets[-1] == offsets[0]:  # every text empty
        zeros = np.zeros(len(arr), np.uint8)
        return (zeros, nbytes, zeros) if last else (zeros, nbytes)
    data = np.frombuffer(buffers[2], np.uint8)
    first = data[np.minimum(offsets[:-1], offsets[-1] - 1)]
    if not last:
        return first, nbytes
    return first, nbytes, data[np.maximum(offsets[1:] - 1, offsets[0])]


def is_text(index: pd.Index) -> bool:
    return pd.api.types.is_string_dtype(index.dtype) and (
        index.dtype != object or pd.api.types.infer_dtype(index, skipna=True) in ("string", "empty")
    )


def could_end_as(column: pd.Series, name: str) -> np.ndarray | None:
    """Per Arrow text cell: could it be ``name`` (in any case) with blanks or marks around it?

    Such a cell ends with the name's last letter (lower or upper case) or with a byte that
    is not printable ASCII other than a blank (every blank and U+FEFF ends outside
    ``!``..``~``). Read from
    Arrow's offsets (:func:`text_heads`): on ids like ``item_0000123`` under the header
    ``item`` no cell is left to search, where a search of every cell for the name took
    about 0.1 s on 2 M rows. None for a column not held as Arrow text.
    """
    if not (isinstance(column.dtype, pd.StringDtype) and column.dtype.storage == "pyarrow"):
        return None
    end = name[-1:]
    if not end.isascii():  # its last byte is not printable ASCII: every such cell is kept
        end, name = "", ""
    # in either case (``Item`` repeats ``item``): the name's last letter, lower or upper
    wants = np.array(sorted({ord(c) for c in (end.lower(), end.upper()) if c}), np.uint8)
    size = len(name)
    parts = []
    for chunk in pa.chunked_array(column.array.__arrow_array__()).chunks:
        _, nbytes, last = text_heads(chunk, last=True)
        plain_end = last - np.uint8(0x21) <= 0x5D  # uint8 wraps: 0x21 <= last <= 0x7E
        parts.append((nbytes >= size) & (np.isin(last, wants) | ~plain_end))
    return np.concatenate(parts) if parts else np.zeros(0, bool)
