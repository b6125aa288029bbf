"""The resource limits every file read is held to, checked before the work is done.

A :class:`Limits` travels from :func:`~analytics.data.loading.load_annotations` (``limits=``)
to :func:`~analytics.data.reading.read_table`, which checks each one before it parses,
decompresses or allocates, and names the limit it hit in the error.

>>> Limits().max_bytes == 200 * 1024 * 1024
True
>>> Limits(max_cells=10).max_cells
10
>>> scan_json(b'{"a": [[[1]]]}', "x.json", Limits(max_depth=3))
Traceback (most recent call last):
...
analytics._core.errors.AnnotationDataError: file 'x.json', row 1: the JSON nests more than 3 levels deep, over the limit max_depth=3. Flatten the records, or if the file is what you meant, raise the limit where Concord runs as a library or from the command line (the app reads every upload with the default limits): in Python load_annotations(..., limits=Limits(max_depth=...)), on the command line --limit max_depth=....
"""

from __future__ import annotations

import csv
import re
import zipfile
from dataclasses import dataclass
from functools import partial

import numpy as np

from analytics._core.errors import AnnotationDataError
from analytics._core.threads import in_parallel

__all__ = [
    "DEFAULT_LIMITS",
    "Limits",
    "check_archive",
    "check_cells",
    "check_columns",
    "check_delimited_cells",
    "check_header_columns",
    "count_bytes",
    "limit_error",
    "newline_pieces",
    "refuse_lone_surrogates",
    "scan_json",
]


@dataclass(frozen=True)
class Limits:
    """How much work one file may ask of Concord.

    Parameters
    ----------
    max_bytes : int, default 200 MiB
        The file's size as stored (compressed for .xlsx and Parquet).
    max_decompressed_bytes : int, default 256 MiB
        The size of a container's contents once inflated (the XML inside an .xlsx): a
        sheet of Excel's full 1,048,576 rows by 3 columns is about 180 MB of XML.
    max_cells : int, default 100_000_000
        Rows x columns of the table read (an .xlsx sheet's declared dimension counts).
    max_columns : int, default 20_000
        Columns of the table read (header fields of delimited text, counted before it is
        parsed). Arrow's CSV parser costs about 14 KB per column whatever the rows, and
        the table about 4 KB more: 150,000 columns of 30 rows (10 MB) took 3.7 GB. Excel's
        sheets stop at 16,384 columns; a wide table of thousands of annotators is far below.
    max_depth : int, default 64
        How deeply JSON arrays and objects may nest.
    max_digits : int, default 400
        The longest number JSON may hold (Python refuses to parse longer integers).
    max_compression_ratio : int, default 100
        How many times larger than stored a container's member may inflate; real
        workbooks inflate 5 to 20 times, a zip bomb hundreds of times.
    """

    max_bytes: int = 200 * 1024 * 1024
    max_decompressed_bytes: int = 256 * 1024 * 1024
    max_cells: int = 100_000_000
    max_columns: int = 20_000
    max_depth: int = 64
    max_digits: int = 400
    max_compression_ratio: int = 100


#: The limits used when none are given.
DEFAULT_LIMITS = Limits()
# members this small are never refused for their ratio (an empty sheet compresses 100:1)
_RATIO_FLOOR_BYTES = 1024 * 1024
# the JSON scan reads this many bytes at a time
_CHUNK = 16 * 1024 * 1024


def limit_error(
    problem: str, field: str, *, source: str, sheet: str | None = None, rows=None, how: str = ""
) -> AnnotationDataError:
    """The error for a file over one of the :class:`Limits`, naming the field to raise.

    Parameters
    ----------
    problem : str
        What is over the limit, ending with the limit (``"..., over the limit max_cells=10."``).
    field : str
        The :class:`Limits` field (``"max_cells"``).
    source : str
        The file name.
    sheet : str or None, default None
        The sheet, for a workbook.
    rows : sequence of int or None, default None
        Where in the file, when known.
    how : str, default ""
        How to make the file smaller, put before the way to raise the limit.

    Returns
    -------
    AnnotationDataError
    """
    raise_it = (
        "if the file is what you meant, raise the limit where Concord runs as a library or "
        "from the command line (the app reads every upload with the default limits): in "
        f"Python load_annotations(..., limits=Limits({field}=...)), on the command line "
        f"--limit {field}=...."
    )
    hint = f"{how} or {raise_it}" if how else raise_it[0].upper() + raise_it[1:]
    return AnnotationDataError(problem, source=source, sheet=sheet, rows=rows, hint=hint)


def check_cells(
    n_cells: int, limits: Limits, source: str, what: str, sheet: str | None = None
) -> None:
    """Refuse a table of more than ``limits.max_cells`` cells, before it is built.

    Parameters
    ----------
    n_cells : int
        The cells the table would hold (rows x columns, or an upper estimate).
    limits : Limits
    source : str
        The file name.
    what : str
        How the count was found, for the message (``"the sheet declares 1,048,576 rows x
        16,384 columns"``).
    sheet : str or None, default None
        The sheet, for a workbook.

    Raises
    ------
    AnnotationDataError
        When ``n_cells > limits.max_cells``.
    """
    if n_cells > limits.max_cells:
        raise limit_error(
            f"{what}: {n_cells:,} cells, over the limit max_cells={limits.max_cells:,}.",
            "max_cells",
            source=source,
            sheet=sheet,
            how="Split the data into smaller files,",
        )


def check_columns(
    n_columns: int,
    limits: Limits,
    source: str,
    what: str,
    sheet: str | None = None,
    *,
    row: int | None = 1,
) -> None:
    """Refuse a table of more than ``limits.max_columns`` columns, before it is built.

    Parameters
    ----------
    n_columns : int
        The columns the table would hold.
    limits : Limits
    source : str
        The file name.
    what : str
        Where the count comes from, for the message (``"the header has 150,001 fields"``).
    sheet : str or None, default None
        The sheet, for a workbook.
    row : int or None, default 1
        The row named in the error (the header's), when there is no sheet; None for
        formats without a header row (JSON).

    Raises
    ------
    AnnotationDataError
        When ``n_columns > limits.max_columns``, naming the limit.

    Examples
    --------
    >>> check_columns(3, Limits(max_columns=2), "w.csv", "the header has 3 fields")
    Traceback (most recent call last):
    ...
    analytics._core.errors.AnnotationDataError: file 'w.csv', row 1: the header has 3 fields, over the limit max_columns=2. Put the annotations in long form (one row per judgement: item, annotator, label), or if the file is what you meant, raise the limit where Concord runs as a library or from the command line (the app reads every upload with the default limits): in Python load_annotations(..., limits=Limits(max_columns=...)), on the command line --limit max_columns=....
    """
    if n_columns > limits.max_columns:
        raise limit_error(
            f"{what}, over the limit max_columns={limits.max_columns:,}.",
            "max_columns",
            source=source,
            sheet=sheet,
            rows=[row] if sheet is None and row is not None else None,
            how="Put the annotations in long form (one row per judgement: item, annotator, label),",
        )


def check_header_columns(data: bytes, sep: str, source: str, limits: Limits, skip: int = 0) -> None:
    """Refuse delimited text whose header has more fields than ``max_columns``, before Arrow.

    Arrow's parser costs about 14 KB per column whatever the rows (150,000 columns of 30
    rows, 10 MB, took 3.7 GB). The delimiters of the header (the first line that is not
    blank) are counted at C speed; only a count over the limit parses the line, since
    quoted delimiters make the count an upper bound.

    Parameters
    ----------
    data : bytes
        The file (a mapped one is not copied).
    sep : str
        The delimiter.
    source : str
        The file name.
    limits : Limits
    skip : int, default 0
        Where the header may start: the bytes of Excel's ``sep=`` line.

    Examples
    --------
    >>> check_header_columns(b'a,"b,c"\\n1,2\\n', ",", "x.csv", Limits(max_columns=2))
    """
    head = data[skip : skip + 65536]
    start = skip + len(head) - len(head.lstrip())
    end = data.find(b"\n", start)
    line = data[start : end if end >= 0 else len(data)]
    if line.count(sep.encode()) < limits.max_columns:
        return
    try:
        n = len(next(csv.reader([line.decode("latin-1")], delimiter=sep), []))
    except csv.Error:  # a field over the csv module's limit: the count stands
        n = line.count(sep.encode()) + 1
    check_columns(n, limits, source, f"the header has {n:,} fields")


def check_delimited_cells(
    data: bytes, sep: str, limits: Limits, source: str, lines: int | None = None
) -> None:
    """Refuse delimited text whose lines x header fields exceed ``limits.max_cells``.

    The estimate counts newlines (an upper bound on the records) and the header's fields,
    at C speed, before anything is parsed.

    Parameters
    ----------
    data : bytes
        The file, UTF-8 (or another ASCII-compatible encoding).
    sep : str
        The delimiter.
    limits : Limits
    source : str
        The file name.
    lines : int or None, default None
        The newlines + 1, when the caller has counted them.
    """
    if len(data) <= limits.max_cells:  # a cell takes at least one byte
        return
    if lines is None:
        lines = count_bytes(data, b"\n")[0] + 1
    end = data.find(b"\n")
    fields = data[: end if end >= 0 else len(data)].count(sep.encode()) + 1
    check_cells(lines * fields, limits, source, f"{lines:,} lines x {fields:,} header fields")


def count_bytes(
    data: bytes, *chars: bytes, piece: int = 1 << 22, highest: bool = False
) -> tuple[int, ...]:
    """How many times each single byte occurs in ``data``, in one pass.

    NumPy compares pieces of 4 MiB with each byte (the pieces keep the temporary masks
    small): on an 83 MB file, quotes and newlines together take 18 ms of CPU, where
    ``bytes.count`` takes 37 ms for each.

    Parameters
    ----------
    data : bytes
    *chars : bytes
        Single bytes, e.g. ``b'"'``, ``b"\\n"``.
    piece : int, default 4 MiB
    highest : bool, default False
        Also return the highest byte (below 0x80: the data are ASCII), found in the same
        pass while each piece is in the cache (a separate ``max`` over a mapped 83 MB
        file took 8 ms on one core).

    Returns
    -------
    tuple of int
        One count per byte asked for, then the highest byte with ``highest=True`` (0
        for empty data).

    Examples
    --------
    >>> count_bytes(b'a"b"\\nc\\n', b'"', b"\\n")
    (2, 2)
    >>> count_bytes("é\\n".encode(), b"\\n", highest=True)
    (1, 195)
    """
    arr = np.frombuffer(data, np.uint8)
    codes = [ord(c) for c in chars]

    def count(half: np.ndarray) -> list[int]:
        counts = [0] * (len(codes) + highest)
        for start in range(0, len(half), piece):
            part = half[start : start + piece]
            for i, code in enumerate(codes):
                counts[i] += int(np.count_nonzero(part == code))
            if highest:
                counts[-1] = max(counts[-1], int(part.max()))
        return counts

    # two halves on two threads (NumPy releases the GIL): 14 -> 8 ms on 83 MB, two cores;
    # a byte is cheap next to a cell, so threads start at 64 x PARALLEL_MIN bytes (6.4 MB)
    mid = len(arr) // 2
    halves = in_parallel([partial(count, arr[:mid]), partial(count, arr[mid:])], len(arr) // 64)
    total = [a + b for a, b in zip(*halves, strict=True)]
    if highest:
        total[-1] = max(halves[0][-1], halves[1][-1])
    return tuple(total)


def check_archive(archive: zipfile.ZipFile, limits: Limits, source: str) -> None:
    """Refuse a zip container (an .xlsx) that would inflate past the limits.

    Sums the sizes its directory declares (:mod:`zipfile` never inflates a member past
    its declared size: it stops there and fails the CRC), and refuses any member that
    inflates more than ``max_compression_ratio`` times. Nothing is decompressed.

    Parameters
    ----------
    archive : zipfile.ZipFile
    limits : Limits
    source : str
        The file name.

    Raises
    ------
    AnnotationDataError
        Naming ``max_decompressed_bytes`` or ``max_compression_ratio``.
    """
    members = archive.infolist()
    total = sum(m.file_size for m in members)
    if total > limits.max_decompressed_bytes:
        raise limit_error(
            f"the workbook inflates to {total / 1e6:,.1f} MB of XML, over the limit "
            f"max_decompressed_bytes={limits.max_decompressed_bytes:,}.",
            "max_decompressed_bytes",
            source=source,
            how="Export the sheet as CSV,",
        )
    for m in members:
        ratio = m.file_size / max(m.compress_size, 1)
        if m.file_size > _RATIO_FLOOR_BYTES and ratio > limits.max_compression_ratio:
            raise limit_error(
                f"its part {m.filename} inflates {ratio:,.0f} times "
                f"({m.compress_size:,} bytes to {m.file_size:,}), over the limit "
                f"max_compression_ratio={limits.max_compression_ratio:,}: workbooks inflate "
                "5 to 20 times; this looks like a zip bomb.",
                "max_compression_ratio",
                source=source,
            )


def newline_pieces(data: bytes, size: int):
    """Pieces of about ``size`` bytes, each ending at a newline (or the end of the file).

    Valid JSON holds no raw newline inside a string, so no string, escape or number
    crosses a cut: only the depth is carried from one piece to the next.
    """
    start = 0
    while start < len(data):
        end = data.find(b"\n", min(start + size, len(data)) - 1)
        end = len(data) if end < 0 else end + 1
        yield start, data[start:end]
        start = end


_DIGIT_TABLE = bytes(
    ord("0") if 48 <= b <= 57 else b if b in b'"\n' else ord("x") for b in range(256)
)
_STRUCTURE = bytes(b for b in range(256) if b not in b'"[]{}\n')


def scan_json(data: bytes, source: str, limits: Limits, *, depth: bool = True) -> None:
    """Refuse JSON nested deeper than ``max_depth`` or with numbers over ``max_digits``.

    A pass over the bytes at C speed, before any parsing: the escapes ``\\`` and ``\"``
    are dropped (so every quote left opens or closes a string), a run of more than
    ``max_digits`` digits outside a string is a number too long, and once the strings
    are cut out, the running count of ``[`` and ``{`` minus ``]`` and ``}`` is the depth.
    The file is read in pieces of 16 MiB cut at newlines.

    Parameters
    ----------
    data : bytes
        JSON or JSON Lines, UTF-8 (any ASCII-compatible encoding works).
    source : str
        The file name.
    limits : Limits
    depth : bool, default True
        False checks the digits only: for JSON Lines already parsed by Arrow into flat
        records (:func:`~analytics.data.json_records.read_json_lines_flat`), whose depth
        is 1 and whose numbers may still be long. The depth pass is about two thirds of
        the scan's time (0.3 of 0.5 s CPU on 141 MB).

    Raises
    ------
    AnnotationDataError
        Naming the limit and the line (the record, for JSON Lines) where it is passed.

    Examples
    --------
    >>> scan_json(b'[{"item": "[[[[", "n": 12}]', "x.json", Limits(max_depth=2, max_digits=2))
    """
    refuse_lone_surrogates(data, source)
    level, line = 0, 1
    too_long = b"0" * (limits.max_digits + 1)
    for _, chunk in newline_pieces(data, _CHUNK):
        plain = chunk
        if b"\\" in plain:  # drop JSON's escapes, left to right, as a parser reads them
            plain = plain.replace(b"\\\\", b"").replace(b'\\"', b"")
        digits = plain.translate(_DIGIT_TABLE)
        at = digits.find(too_long)
        while at >= 0:  # rare: a long run of digits is a number only outside a string
            end = at + len(too_long)
            while end < len(digits) and digits[end] == 48:
                end += 1
            if digits.count(b'"', 0, at) % 2 == 0:
                raise limit_error(
                    f"a number has {end - at:,} digits, over the limit "
                    f"max_digits={limits.max_digits}.",
                    "max_digits",
                    source=source,
                    rows=[line + digits.count(b"\n", 0, at)],
                    how="Store such values as strings (in quotes),",
                )
            at = digits.find(too_long, end)
        del digits
        if not depth:
            line += chunk.count(b"\n")
            continue
        marks = np.frombuffer(plain.translate(None, _STRUCTURE), np.uint8)  # " [ ] { } newline
        inside = np.bitwise_xor.accumulate((marks == 34).view(np.uint8))  # 1 within a string
        low = marks | np.uint8(0x20)  # [ and { differ from ] and } by one bit
        at = np.flatnonzero(((low == 0x7B) | (low == 0x7D)) & (inside == 0))
        levels = level + np.cumsum(np.where(low[at] == 0x7B, 1, -1), dtype=np.int64)
        if len(levels) and levels.max() > limits.max_depth:
            first = int(at[np.argmax(levels > limits.max_depth)])
            raise limit_error(
                f"the JSON nests more than {limits.max_depth} levels deep, over the limit "
                f"max_depth={limits.max_depth}.",
                "max_depth",
                source=source,
                rows=[line + int(np.count_nonzero(marks[:first] == 10))],
                how="Flatten the records,",
            )
        if len(levels):
            level = int(levels[-1])
        line += chunk.count(b"\n")


#: A JSON escape of a UTF-16 surrogate, ``\ud800`` to ``\udfff``.
_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def refuse_lone_surrogates(data: bytes, source: str) -> None:
    r"""Refuse JSON with an unpaired surrogate escape (``"\ud800"`` alone).

    JSON may escape a character beyond U+FFFF as two escapes, a high then a low surrogate
    (an emoji: ``\ud83d\ude00``). Python's ``json`` also accepts either half alone and
    returns a string holding it, which is not text: pandas and Arrow then fail with
    ``UnicodeEncodeError`` wherever the string goes. Half a pair is what remains of an
    emoji cut in two, so the place is named. Files without ``\u`` cost one search.

    Raises
    ------
    AnnotationDataError
        Naming the line of the first unpaired escape.

    Examples
    --------
    >>> refuse_lone_surrogates(b'{"a": "\\ud83d\\ude00", "b": "\\\\ud800"}', "x.json")
    >>> refuse_lone_surrogates(b'{"a": "x"}\n{"a": "\\ud800"}', "x.jsonl")
    Traceback (most recent call last):
    ...
    analytics._core.errors.AnnotationDataError: file 'x.jsonl', row 2: the text holds half ...
    """
    if data.find(b"\\u") < 0:
        return
    paired_low = -1
    for match in _SURROGATE.finditer(data):
        at = match.start()
        slashes = 0
        while at - slashes - 1 >= 0 and data[at - slashes - 1 : at - slashes] == b"\\":
            slashes += 1
        if slashes % 2 or at == paired_low:  # an escaped backslash, or a pair's second half
            continue
        high = match.group()[3:4].lower() in b"89ab"
        after = data[match.end() : match.end() + 6]
        low_next = _SURROGATE.fullmatch(after) and after[3:4].lower() in b"cdef"
        if high and low_next:
            paired_low = match.end()
            continue
        line = 1 + bytes(data[:at]).count(b"\n")
        raise AnnotationDataError(
            f"the text holds half of a UTF-16 surrogate pair "
            f"({match.group().decode('ascii')} without its other half), which is not a "
            "character.",
            source=source,
            rows=[line],
            hint="It is usually an emoji cut in two: fix or remove that escape, or export "
            "the file again.",
        )
