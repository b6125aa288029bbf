"""How many different keys the records of JSON Lines hold, counted before a parser sees them.

Every distinct key of a record becomes a column. ``pyarrow.json`` infers its schema at a
cost that grows faster than the fields: one 1.5 MB line of 100,000 keys took 24 s to
parse and 42 s to load, and 20,000 lines of five new keys each (2 MB) did not finish in
five minutes. :func:`check_json_keys` counts the keys first, at the bytes, and refuses
more than ``Limits.max_columns``, as the header of a CSV file is counted.
"""

from __future__ import annotations

import numpy as np

from analytics.data.limits import Limits, check_columns, newline_pieces

__all__ = ["check_json_keys", "record_keys"]

#: Bytes a JSON parser skips between a key's closing quote and its colon.
_SPACE = np.zeros(256, bool)
_SPACE[list(b" \t\r\n")] = True

#: Pieces of the file counted at a time (cut at newlines: no string crosses a cut).
_PIECE = 16 * 1024 * 1024


def record_keys(data: bytes, stop: int) -> int:
    """Distinct keys at the top level of the objects of JSON Lines (one object per line).

    A pass at NumPy speed over each piece of the file: escapes are masked without moving
    any byte (``\\\\`` becomes two NUL bytes and ``\\"`` a NUL and a 1, bytes valid
    JSON never holds raw), so quotes pair up into strings; a string is a key when the next byte other than
    white space is ``:``, and a top-level one when the line's braces and brackets outside
    strings open exactly one level before it. Nested objects' keys are not columns and
    are not counted. Distinct keys are gathered in a set of their bytes, and the count
    stops once it passes ``stop``.

    Parameters
    ----------
    data : bytes
        JSON Lines, UTF-8. Invalid JSON gives some count; the parser then names the
        fault.
    stop : int
        Count no further once more than this many keys are found.

    Returns
    -------
    int
        The distinct top-level keys, or ``stop + 1`` when there are more than ``stop``.

    Examples
    --------
    >>> record_keys(b'{"a": 1, "b": {"c": 2}}\\n{"a": "x:\\\\"y", "d": [3]}\\n', 10)
    3
    """
    keys: set[bytes] = set()
    for _, piece in newline_pieces(data, _PIECE):
        keys.update(_piece_keys(piece))
        if len(keys) > stop:
            return stop + 1
    return len(keys)


def _piece_keys(piece: bytes) -> set[bytes]:
    """The distinct top-level keys of whole lines of JSON Lines."""
    masked = piece.replace(b"\\\\", b"\0\0").replace(b'\\"', b"\0\1")
    raw = np.frombuffer(masked, np.uint8)
    quotes = np.flatnonzero(raw == 34)
    opens, closes = quotes[0:-1:2], quotes[1::2]
    if not len(closes):
        return set()
    # a key's closing quote is followed by ':' (after white space, rarely any)
    after = closes + 1
    for _ in range(8):
        spaced = np.flatnonzero(_SPACE[raw[np.minimum(after, len(raw) - 1)]] & (after < len(raw)))
        if not len(spaced):
            break
        after[spaced] += 1
    else:  # more white space than that before some colons: find each one's next byte
        solid = np.flatnonzero(~_SPACE[raw])
        at = np.searchsorted(solid, closes, side="right")
        after = np.where(at < len(solid), solid[np.minimum(at, len(solid) - 1)], len(raw))
    is_key = np.zeros(len(closes), bool)
    inside = after < len(raw)
    is_key[inside] = raw[after[inside]] == 58
    starts, ends = opens[is_key] + 1, closes[is_key]
    # depth at each key: braces and brackets outside strings before it (an even number
    # of quotes before a brace puts it outside); a line's object opens depth 1
    low = raw | np.uint8(0x20)  # '[' and ']' read as '{' and '}'
    marks = np.flatnonzero((low == 0x7B) | (low == 0x7D))
    marks = marks[np.searchsorted(quotes, marks) % 2 == 0]
    level = np.cumsum(np.where(low[marks] == 0x7B, 1, -1))
    before = np.searchsorted(marks, starts)
    depth = np.where(before > 0, level[np.maximum(before - 1, 0)], 0)
    starts, ends = starts[depth == 1], ends[depth == 1]
    return _distinct(masked, starts, ends)


def _distinct(data: bytes, starts: np.ndarray, ends: np.ndarray) -> set[bytes]:
    """The distinct byte strings ``data[starts[i]:ends[i]]``.

    Keys of up to 15 bytes, nearly all, are made unique by NumPy first: their bytes and
    length packed into 16 bytes are their identity. Only one of each, and longer keys,
    are sliced into the set (a set of every occurrence cost 2 s on 6 M keys).
    """
    lengths = ends - starts
    short = lengths <= 15
    padded = data + bytes(16)
    words = np.ndarray((len(data) + 9,), "<u8", padded, 0, (1,))  # 8 bytes from each byte
    s, n = starts[short], lengths[short].astype(np.uint64)
    keep = np.uint64(2**64 - 1)
    first = words[s] & np.where(n >= 8, keep, (np.uint64(1) << (n * np.uint64(8))) - np.uint64(1))
    rest = np.where(n > 8, n - np.uint64(8), np.uint64(0))
    second = words[s + 8] & ((np.uint64(1) << (rest * np.uint64(8))) - np.uint64(1))
    second |= n << np.uint64(56)  # bytes 8..14, then the length
    packed = np.stack([first, second], axis=1).view("V16").ravel()
    _, one = np.unique(packed, return_index=True)
    picks = np.concatenate([np.flatnonzero(short)[one], np.flatnonzero(~short)])
    return set(map(data.__getitem__, map(slice, starts[picks].tolist(), ends[picks].tolist())))


def check_json_keys(data: bytes, source: str, limits: Limits) -> None:
    """Refuse JSON Lines whose records hold more than ``limits.max_columns`` different keys.

    Parameters
    ----------
    data : bytes
        JSON Lines, UTF-8.
    source : str
        The file name.
    limits : Limits

    Raises
    ------
    AnnotationDataError
        Naming the limit, before any parser builds a column.
    """
    n = record_keys(data, limits.max_columns)
    if n > limits.max_columns:
        what = f"the records hold more than {limits.max_columns:,} different keys"
        check_columns(n, limits, source, what, row=None)
