"""A text file's bytes mapped into memory instead of read, and checks of bytes made in place.

Reading an 83 MB CSV into a ``bytes`` object cost 44 ms (the copy out of the page cache
and the faults of fresh memory: about 40% of Arrow's whole parse of the file); mapping it
costs nothing up front, and Arrow parses the mapping as fast as the bytes. The readers
given a mapping look at it through slices, ``find``, NumPy and Arrow; :func:`whole` copies
it where a method of ``bytes`` is needed (decoding a file that is not UTF-8, a strict
reader's fallback). The mapping is read-only and is never closed explicitly: Arrow's
buffers may still refer to it while a parse runs, and it is released with its last
reference. (A file truncated by another program while it is mapped makes reading past
its new end fail with a bus error; a file being rewritten should not be loaded anyway.)
"""

from __future__ import annotations

import io
import mmap
import os
import re
from pathlib import Path

import numpy as np
import pyarrow as pa

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_count

__all__ = [
    "MAP_MIN_BYTES",
    "excel_sep_line",
    "is_ascii",
    "is_utf8",
    "longest_line",
    "looks_binary",
    "map_file",
    "read_capped",
    "refuse_compressed",
    "refuse_mixed_encodings",
    "refuse_nul_bytes",
    "utf8_mix",
    "whole",
]

#: Text files at least this large (1 MiB) are mapped, not read.
MAP_MIN_BYTES = 1 << 20


def map_file(path: Path) -> mmap.mmap:
    """The file's bytes, mapped read-only (the file must not be empty)."""
    # MAP_POPULATE maps every page at once (Linux): the first pass over the mapping then
    # takes no page faults (10 ms on 83 MB, one per 4 KB page, paid by whichever pass
    # came first)
    with open(path, "rb") as f:
        if os.name == "nt":  # Windows has no flags (nor MAP_SHARED)
            return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        flags = mmap.MAP_SHARED | getattr(mmap, "MAP_POPULATE", 0)
        return mmap.mmap(f.fileno(), 0, flags=flags, prot=mmap.PROT_READ)


def whole(data: bytes | mmap.mmap) -> bytes:
    """``data`` as ``bytes``: a mapped file is copied, bytes are returned as they are.

    >>> whole(b"abc")
    b'abc'
    """
    return data if isinstance(data, bytes) else data[:]


def is_utf8(data: bytes | mmap.mmap) -> bool:
    """Whether ``data`` is valid UTF-8, checked by Arrow in place (no ``str`` is built).

    ``bytes.decode`` built the whole text to answer: 128 ms and up to four bytes per
    character of memory for 105 MB of mixed Latin and CJK text, where Arrow's UTF-8
    validation of the same bytes, viewed as one string without a copy, takes 40 ms.

    >>> is_utf8("naïve 中文".encode()), is_utf8("naïve".encode("latin-1"))
    (True, False)
    """
    offsets = pa.py_buffer(np.array([0, len(data)], np.int64))
    text = pa.Array.from_buffers(pa.large_string(), 1, [None, offsets, pa.py_buffer(data)])
    try:
        text.validate(full=True)
    except pa.ArrowInvalid:
        return False
    return True


def is_ascii(data: bytes | mmap.mmap) -> bool:
    """``bytes.isascii`` for bytes or a mapped file (whose bytes NumPy reads in place).

    >>> is_ascii(b"abc"), is_ascii("é".encode())
    (True, False)
    """
    if isinstance(data, bytes):
        return data.isascii()
    return len(data) == 0 or int(np.frombuffer(data, np.uint8).max()) < 0x80


def longest_line(data: bytes) -> int:
    r"""The length in bytes of the longest line, newline included (found by NumPy, in place).

    >>> longest_line(b"ab\nabcd\nc")
    5
    """
    ends = np.flatnonzero(np.frombuffer(data, np.uint8) == 10)
    return int(np.diff(ends, prepend=-1, append=len(data)).max())


#: Excel's first line naming the delimiter (``sep=;``), after a byte-order mark or not.
_SEP_LINE = re.compile(rb"(?:\xef\xbb\xbf)?sep=([^\r\n\"])\r?\n", re.IGNORECASE)


def excel_sep_line(data: bytes) -> tuple[str | None, int]:
    r"""The delimiter Excel's first line ``sep=X`` names, and the bytes that line takes.

    Excel writes (and reads) such a line to say which delimiter the file uses; read as a
    row, it made every data row look ragged. ``(None, 0)`` when the file has no such line.

    Examples
    --------
    >>> excel_sep_line(b"sep=;\r\na;b\n"), excel_sep_line(b"a,b\n")
    ((';', 7), (None, 0))
    """
    found = _SEP_LINE.match(bytes(data[:16]))
    return (found.group(1).decode("latin-1"), found.end()) if found else (None, 0)


def read_capped(path: Path, max_bytes: int) -> bytes:
    """At most ``max_bytes + 1`` bytes of a path that is not a regular file, in pieces.

    ``/dev/zero``, a FIFO, ``/dev/stdin`` or a process substitution report a size of 0,
    and reading one whole never ends (``/dev/zero`` grew to 9 GB): one byte past the limit
    is enough to refuse it. Pieces of 1 MiB keep a short stream from costing the limit.

    Parameters
    ----------
    path : pathlib.Path
    max_bytes : int

    Returns
    -------
    bytes
        The first ``max_bytes + 1`` bytes at most: longer than ``max_bytes`` means over it.
    """
    buffer = io.BytesIO()  # getvalue() shares its buffer: no copy of the whole at the end
    with open(path, "rb") as f:
        while buffer.tell() <= max_bytes:
            piece = f.read(min(1 << 20, max_bytes + 1 - buffer.tell()))
            if not piece:
                break
            buffer.write(piece)
    return buffer.getvalue()


def utf8_mix(data: bytes) -> tuple[int, np.ndarray]:
    """How much of text that is not valid UTF-8 still is: its valid multi-byte characters,
    and where the bytes that are not valid UTF-8 stand.

    Only the bytes at 0x80 and above are looked at (NumPy, in place): a lead byte followed
    by as many continuation bytes as it announces is one valid character (overlong forms
    are not told apart: this is a measure, not a validator); any other high byte is not
    UTF-8. Latin-1 text has few valid characters (an accented capital before a symbol such
    as ``Ã©``) and many bytes that are not; UTF-8 text with a pasted latin-1 line has many
    and a few.

    Parameters
    ----------
    data : bytes

    Returns
    -------
    valid : int
        The valid multi-byte characters.
    bad : ndarray of int
        The offsets of the high bytes that are not part of one, in order.

    Examples
    --------
    >>> valid, bad = utf8_mix("café ".encode() + "café".encode("latin-1"))
    >>> valid, bad.tolist()
    (1, [9])
    """
    arr = np.frombuffer(data, np.uint8)
    at = np.flatnonzero(arr >= 0x80)
    lead = arr[at]

    def continues(k: int) -> np.ndarray:  # the byte k after each high byte continues it
        pos = at + k
        inside = pos < len(arr)
        out = np.zeros(len(at), bool)
        out[inside] = (arr[pos[inside]] & 0xC0) == 0x80
        return out

    c1, c2, c3 = continues(1), continues(2), continues(3)
    covered = np.zeros(len(at), bool)
    valid = 0
    for starts, k in (
        ((lead >= 0xC2) & (lead <= 0xDF) & c1, 2),
        (((lead & 0xF0) == 0xE0) & c1 & c2, 3),
        ((lead >= 0xF0) & (lead <= 0xF4) & c1 & c2 & c3, 4),
    ):
        first = np.flatnonzero(starts)
        valid += len(first)
        for j in range(k):  # a character's continuation bytes are the next high bytes
            covered[first + j] = True
    return valid, at[~covered]


#: The first bytes of compressed files, and what decompresses them.
_COMPRESSED = (
    (b"\x1f\x8b", "gzip (.gz)", "gunzip FILE.gz, or 7-Zip"),
    (b"BZh", "bzip2 (.bz2)", "bunzip2 FILE.bz2, or 7-Zip"),
    (b"\xfd7zXZ\x00", "xz (.xz)", "unxz FILE.xz, or 7-Zip"),
    (b"\x28\xb5\x2f\xfd", "Zstandard (.zst)", "unzstd FILE.zst, or 7-Zip"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip (.7z)", "7-Zip"),
)


def refuse_compressed(data: bytes, name: str) -> None:
    """Refuse a compressed file (``data.csv.gz``), saying how to decompress it.

    Read as text it was "binary data"; by its extension, "an extension Concord does not
    read". Neither said what to do.

    Raises
    ------
    AnnotationDataError
        For gzip, bzip2, xz, Zstandard and 7-Zip files.
    """
    for magic, what, tool in _COMPRESSED:
        if data[:8].startswith(magic) and (magic != b"BZh" or data[3:4].isdigit()):
            raise AnnotationDataError(
                f"the file is compressed with {what}; Concord reads the file inside, not the "
                "compressed one.",
                source=name,
                hint=f"Decompress it first ({tool}; or double-click it), then load the "
                ".csv, .json or other file it holds.",
            )


#: Refuse mixed encodings only with this many valid UTF-8 characters ...
MIXED_MIN = 4
#: ... and this many times the bytes that are not UTF-8 (chance pairs in latin-1 are rare).
MIXED_RATIO = 4


def refuse_mixed_encodings(data: bytes, name: str) -> None:
    """UTF-8 text with a few bytes that are not (rows pasted from a latin-1 file): an error.

    Read whole as latin-1, its UTF-8 letters came out garbled beside the pasted ones
    ('cafÃ©' and 'café', two categories). When the valid multi-byte UTF-8 characters are at
    least :data:`MIXED_MIN` and at least :data:`MIXED_RATIO` times the bytes that are not
    UTF-8, the file is refused, naming the rows of those bytes. Latin-1 and Windows-1252
    text has many such bytes and few valid characters, made by chance where an accented
    capital stands before a symbol (``É’`` in ``CAFÉ’S`` is the UTF-8 of U+0252): a
    Windows-1252 file of ``CAFÉ’S``, ``née`` and ``café`` has two of each, and is read as
    before.

    Raises
    ------
    AnnotationDataError
        Naming the rows (lines) of the first bytes that are not UTF-8.
    """
    valid, bad = utf8_mix(data)
    if valid < max(MIXED_MIN, MIXED_RATIO * len(bad)):
        return
    ends = np.flatnonzero(np.frombuffer(data, np.uint8) == 10)
    lines = np.unique(np.searchsorted(ends, bad) + 1)
    raise AnnotationDataError(
        f"the file mixes text encodings: {format_count(valid, 'character')} "
        f"{'is' if valid == 1 else 'are'} UTF-8, but {format_count(len(bad), 'byte')} on {format_count(len(lines), 'row')} "
        f"{'is' if len(bad) == 1 else 'are'} not (text pasted from a file in another "
        "encoding, such as latin-1 or Windows-1252). Read as one encoding, the other's "
        "letters would come out garbled ('cafÃ©' beside 'café').",
        source=name,
        rows=lines[:20].tolist(),
        hint="Fix the letters on those rows in a text editor and save the file as UTF-8, or "
        "export all of it again as UTF-8 (CSV UTF-8 in Excel).",
    )


def looks_binary(data: bytes) -> bool:
    """Whether the first 8 KB hold a NUL byte or more than 5% control bytes."""
    sample = data[:8192]
    if b"\x00" in sample:
        return True
    if not sample:
        return False
    head = np.frombuffer(sample, np.uint8)  # control bytes other than tab, LF, FF, CR
    control = np.count_nonzero((head < 32) & ~np.isin(head, (9, 10, 12, 13)))
    return control / len(sample) > 0.05


def refuse_nul_bytes(data: bytes, name: str) -> None:
    """Text holding NUL bytes: an error naming the rows they are on.

    A NUL byte is never part of text: a few of them (in the first 8 KB at most 8, or 1%) in a
    file that is otherwise text (its first 8 KB without them do not look binary) come
    from a damaged file or a bad export, and the rows that hold them are named. A file
    that is binary through and through is left to the "binary data" error.
    """
    head = data[:8192]
    if data.find(b"\x00") < 0 or head.count(b"\x00") > max(8, len(head) // 100):
        return  # no NUL, or so many that the file is binary (or UTF-16 not told as such)
    if looks_binary(head.replace(b"\x00", b"")):
        return
    arr = np.frombuffer(data, np.uint8)
    nul = np.flatnonzero(arr == 0)
    lines = np.unique(np.searchsorted(np.flatnonzero(arr == 10), nul) + 1)
    raise AnnotationDataError(
        f"{format_count(len(nul), 'NUL byte')} (\\x00) in the text: no cell of a CSV or TSV "
        "file can hold one (the file is damaged, or partly binary).",
        source=name,
        rows=lines.tolist(),
        hint="Remove the NUL bytes from those rows (a text editor shows them), or export "
        "the file again.",
    )
