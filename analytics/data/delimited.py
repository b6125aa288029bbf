"""Reading delimited text (CSV, TSV): strict parsing, header checks, delimiter sniffing.

Part of :func:`analytics.data.reading.read_table`; cells stay text, nothing is interpreted.
:func:`read_delimited_bytes` parses with ``pyarrow.csv`` (every cell read as a string,
the header as the first data row); a file Arrow refuses or finds ragged is parsed again
by the strict :func:`read_delimited` (Python's ``csv``), whose error names the rows.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

from analytics._core.errors import AnnotationDataError, show_text
from analytics._core.formatting import format_count
from analytics.data.cells import text_heads
from analytics.data.header_rows import refuse_repeated_header
from analytics.data.limits import count_bytes
from analytics.data.mapped import excel_sep_line, longest_line, whole

__all__ = [
    "check_header",
    "read_delimited",
    "read_delimited_bytes",
    "sniff_delimiter",
]


def read_delimited_bytes(
    data: bytes,
    name: str,
    fmt: str,
    counts: tuple[int, int] | None = None,
    *,
    valid_utf8: bool = False,
    check_repeated_header: bool = True,
) -> tuple[pd.DataFrame, np.ndarray, list[str], str]:
    r"""Parse CSV or TSV bytes (UTF-8, else latin-1) into a table of text cells.

    Parameters
    ----------
    data : bytes
        The file's content (UTF-8 with or without a byte-order mark, or latin-1).
    name : str
        The file name, for messages.
    fmt : {"csv", "tsv"}
        TSV is split on tabs; for CSV the delimiter is sniffed (``,``, tab, ``;``, ``|``).
    counts : (int, int) or None, default None
        The double quotes and newlines in ``data``, when already counted.
    valid_utf8 : bool, default False
        True when ``data`` is known to be valid UTF-8 (:func:`~analytics.data.reading.read_table`
        has checked or converted it): Arrow then skips its own check of every cell (on the
        83 MB benchmark CSV, 136-177 against 113-141 ms of CPU for the parse).
    check_repeated_header : bool, default True
        Refuse a data row that repeats the header
        (:func:`~analytics.data.header_rows.refuse_repeated_header`). False leaves the
        check to the caller: :func:`~analytics.data.loading.load_annotations` makes it
        after factorizing the columns, on one column's distinct values
        (:func:`~analytics.data.header_rows.header_may_repeat`), not every cell.

    Returns
    -------
    table : pandas.DataFrame
        The cells as strings (blank lines dropped), columns named by the stripped header.
    rows : ndarray of int
        Each row's record number in the file (header = 1).
    notes : list of str
        What the reader decided (blank lines, delimiter).
    encoding : str
        ``"utf-8"`` or ``"latin-1"``.

    Raises
    ------
    AnnotationDataError
        For an empty, ragged or malformed file, or a bad header.

    Examples
    --------
    >>> t, rows, notes, enc = read_delimited_bytes(b"a;b\n1;2\n\n3;4\n", "x.csv", "csv")
    >>> t.to_dict("list"), rows.tolist(), notes, enc
    ({'a': ['1', '3'], 'b': ['2', '4']}, [2, 4], ['1 blank line ignored.', "Cells are separated by ';'."], 'utf-8')
    """
    named, skip = excel_sep_line(data)
    head = data[skip : skip + 65536].decode("latin-1")
    sep = named or ("\t" if fmt == "tsv" else sniff_delimiter(head))
    table = None
    for encoding in ("utf-8", "latin-1"):
        try:
            table = _arrow_cells(data, sep, encoding, counts, valid_utf8, skip)
            break
        except _Ragged:
            break
        except pa.ArrowInvalid as exc:
            if encoding == "utf-8" and "UTF8" in str(exc):
                continue  # not UTF-8: read as latin-1, as the strict path does
            break
    if table is None:  # Arrow refused: the strict reader gives the precise error
        text, encoding = _decode_text(data)
        df, rows, notes = read_delimited(text, name, sep, skip=int(skip > 0))
    else:
        df, rows, notes = _from_arrow(table, name, sep, int(skip > 0))
    if check_repeated_header:
        refuse_repeated_header(df, rows, name)
    if named:
        notes.append(
            f"The first line, sep={named}, is Excel's delimiter line: cells are separated "
            f"by {named!r} (the line is not a row of the table)."
        )
    elif fmt == "csv" and sep != ",":
        notes.append(f"Cells are separated by {sep!r}.")
    return df, rows, notes, encoding


class _Ragged(Exception):
    """A file left to the strict reader (leading blank lines, unbalanced quotes)."""


def _arrow_cells(
    data: bytes,
    sep: str,
    encoding: str,
    counts: tuple[int, int] | None = None,
    valid_utf8: bool = False,
    skip: int = 0,
) -> pa.Table:
    """All rows (header included) as string columns; Arrow raises on a ragged row.

    The first ``skip`` bytes (Excel's ``sep=`` line, :func:`excel_sep_line`) are a line
    Arrow skips: the header is the line after it.

    Parsed with line breaks as row ends only (``newlines_in_values=False``): Arrow then
    cuts the file into blocks at any newline and parses them in parallel, where a file
    parsed allowing line breaks inside quoted cells is cut by one thread that follows
    every quote (on the 2 M-row benchmark CSV, every value quoted: 186 against 258 ms of
    CPU, and on two cores about half the wall time). A quoted line break makes some row
    span two lines, so the table has fewer rows than the file has lines (a row of a block
    parser never ends anywhere but at a line break, so no row can make up for it): then
    the file is parsed again allowing line breaks in values, and a file with quotes and a
    carriage return (a lone one also ends a row) is parsed that way from the start. The
    result is the same either way.
    """
    first = data[skip : skip + 65536].lstrip(b"\xef\xbb\xbf")[:1]
    end = data.find(b"\n", skip)
    quoted_values = end >= 0 and data.find(b'"', end) >= 0
    if quoted_values:
        quotes, newlines = counts if counts is not None else count_bytes(data, b'"', b"\n")
        newlines -= skip > 0  # the sep= line is not a row
    else:  # quotes on the first line at most (Arrow's and Excel's writers quote the header)
        quotes, newlines = data[skip : end if end >= 0 else len(data)].count(b'"'), -1
    if first in (b"\n", b"\r", b" ", b"\t") or quotes % 2:
        # leading blank lines (the strict reader skips and counts them), or an odd number
        # of quotes: Arrow would read an unclosed quote to the end without complaint
        raise _Ragged
    if not quoted_values:  # no value can hold a line break
        return _parse(data, sep, encoding, valid_utf8, skip, newlines_in_values=False)
    if data.find(b"\r") < 0:
        lines = newlines + (data[-1:] != b"\n")
        try:
            table = _parse(data, sep, encoding, valid_utf8, skip, newlines_in_values=False)
            if table.num_rows == lines:  # every line one row: no quoted line break
                return table
        except pa.ArrowInvalid as exc:
            if "UTF8" in str(exc):
                raise
    return _parse(data, sep, encoding, valid_utf8, skip, newlines_in_values=True)


def _block_size(n_bytes: int) -> int:
    """Arrow's block: an eighth of the file, between 1 MiB (Arrow's default) and 16 MiB.

    Larger blocks parse faster (the 83 MB benchmark CSV: 84 against 94 ms on two cores)
    and give fewer chunks to the loops over chunks that follow (8, not 80); eight of
    them keep the threads busy.
    """
    return min(1 << 24, max(1 << 20, n_bytes // 8))


def _parse(
    data: bytes, sep: str, encoding: str, valid_utf8: bool, skip: int, *, newlines_in_values: bool
) -> pa.Table:
    """Arrow's parse; a row longer than a block (one long text cell) gets a larger block.

    Arrow refuses a row that straddles two blocks ("straddling object"): a valid CSV of
    20,000 short rows and one 2.4 MB cell was refused. The parse is then run again with a
    block twice the longest line, and, for a quoted cell spanning lines, the whole file as
    one block (Arrow's block size is a 32-bit int).
    """
    block = _block_size(len(data))
    for attempt in range(3):
        try:
            return _parse_blocks(data, sep, encoding, valid_utf8, skip, newlines_in_values, block)
        except pa.ArrowInvalid as exc:
            if "straddl" not in str(exc) or block > len(data) or attempt == 2:
                raise  # the strict reader then gives the error
            grown = 2 * longest_line(data) + 1 if attempt == 0 else len(data) + 1
            block = min(max(grown, block + 1), 2**31 - 1)
    raise AssertionError("unreachable")  # pragma: no cover


def _parse_blocks(
    data: bytes,
    sep: str,
    encoding: str,
    valid_utf8: bool,
    skip: int,
    newlines_in_values: bool,
    block: int,
) -> pa.Table:
    return pa_csv.read_csv(
        pa.py_buffer(data),
        read_options=pa_csv.ReadOptions(
            autogenerate_column_names=True,
            encoding=encoding,
            block_size=block,
            skip_rows=int(skip > 0),
        ),
        parse_options=pa_csv.ParseOptions(
            delimiter=sep, newlines_in_values=newlines_in_values, ignore_empty_lines=False
        ),
        convert_options=pa_csv.ConvertOptions(
            column_types=_all_strings(data, sep, encoding, skip),
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
            check_utf8=not (valid_utf8 and encoding == "utf-8"),
        ),
    )


def _all_strings(data: bytes, sep: str, encoding: str, skip: int = 0) -> dict[str, pa.DataType]:
    """Arrow's generated names (f0, f1, ...) for every column of the header, as strings."""
    end = data.find(b"\n", skip)
    first = data[skip : end if end >= 0 else len(data)]
    n = max(first.count(sep.encode(encoding)) + 1, 1)
    # quoted delimiters make the count an upper bound; extra names are harmless
    # large_string: what pandas' Arrow-backed str dtype holds (no cast in to_pandas)
    return {f"f{i}": pa.large_string() for i in range(n)}


def _from_arrow(
    table: pa.Table, name: str, sep: str, skipped: int = 0
) -> tuple[pd.DataFrame, np.ndarray, list[str]]:
    notes: list[str] = []
    blank = np.ones(len(table), bool)
    for col in table.columns:  # a blank row is blank in its first column: usually no row is
        blank &= _blank_cells(col)
        if not blank.any():
            break
    if blank.all():
        raise AnnotationDataError(
            "the file is empty.", source=name, hint="Give a file with a header row and data rows."
        )
    line_numbers = np.arange(1 + skipped, len(blank) + 1 + skipped)
    if blank.any():
        notes.append(f"{format_count(int(blank.sum()), 'blank line')} ignored.")
        table = table.filter(pa.array(~blank))
        line_numbers = line_numbers[~blank]
    header = [str(table.column(i)[0]).strip() for i in range(table.num_columns)]
    _check_shape(header, len(table), name)
    check_header(header, name, int(line_numbers[0]))
    df = table.slice(1).rename_columns(header).to_pandas()
    return df, line_numbers[1:], notes


def _blank_cells(col: pa.ChunkedArray) -> np.ndarray:
    """Per cell: empty or only blanks.

    A cell whose first byte is printable ASCII other than a blank is not blank; only
    the others are asked of Arrow's ``utf8_is_space`` (2 M cells: 5 ms of CPU, where
    judging every cell took 18 ms).
    """
    parts = []
    for chunk in col.chunks:
        if chunk.null_count:
            empty = pc.or_(pc.equal(pc.binary_length(chunk), 0), pc.utf8_is_space(chunk))
            parts.append(empty.to_numpy(zero_copy_only=False))
            continue
        unsure = _maybe_blank(chunk)
        blank = np.zeros(len(chunk), bool)
        if len(unsure):
            some = chunk.take(unsure)
            empty = pc.equal(pc.binary_length(some), 0)
            blank[unsure] = pc.or_(empty, pc.utf8_is_space(some)).to_numpy(zero_copy_only=False)
        parts.append(blank)
    return np.concatenate(parts) if parts else np.zeros(0, bool)


def _maybe_blank(chunk: pa.Array) -> np.ndarray:
    """Positions of the texts that are empty or start outside ``!``..``~`` (maybe blank).

    Read from the offsets and bytes in place: one gather of first bytes and one
    comparison of neighbouring offsets, with no array of lengths built (2 M cells: about
    half the CPU of :func:`~analytics.data.text_index.text_heads` and its tests).
    """
    if len(chunk) == 0:
        return np.zeros(0, np.int64)
    width = np.int64 if pa.types.is_large_string(chunk.type) else np.int32
    buffers = chunk.buffers()
    offsets = np.frombuffer(buffers[1], width)[chunk.offset : chunk.offset + len(chunk) + 1]
    if buffers[2] is None or offsets[-2] == offsets[-1]:  # an empty text last: the slow way
        first, nbytes = text_heads(chunk)
        return np.flatnonzero((nbytes == 0) | (first - np.uint8(0x21) > 0x5D))
    # every start is below the end of the data (the last text is not empty); an empty
    # text reads its neighbour's first byte, and is caught by the offsets instead
    first = np.frombuffer(buffers[2], np.uint8)[offsets[:-1]]
    odd = first - np.uint8(0x21) > 0x5D  # uint8 wraps: outside 0x21..0x7E
    odd |= offsets[1:] == offsets[:-1]
    return np.flatnonzero(odd)


def _decode_text(data: bytes) -> tuple[str, str]:
    data = whole(data)
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


def _check_shape(header: list[str], n_records: int, name: str) -> None:
    if n_records == 1:
        raise AnnotationDataError(
            "the file has a header row but no data rows.",
            source=name,
            hint=f"Header found: {', '.join(header)}. Add the annotations below it (one row "
            "per judgement, or per item in wide form), or export the file again with its data.",
        )
    if len(header) == 1:
        raise AnnotationDataError(
            f"the file has a single column ('{header[0]}').",
            source=name,
            hint="Concord needs item, annotator and label columns (long form) or an item column "
            "plus one column per annotator (wide form). Is the delimiter right?",
        )


def read_delimited(
    text: str, name: str, sep: str, *, skip: int = 0
) -> tuple[pd.DataFrame, np.ndarray, list[str]]:
    """Parse delimited text strictly: ragged rows are an error naming the rows.

    The first ``skip`` records (Excel's ``sep=`` line) are read and left out; rows keep
    their numbers in the file.
    """
    notes: list[str] = []
    # the csv module refuses a field over 128 KiB ("field larger than field limit"): a long
    # text cell is valid CSV. The limit is process-wide, so it is only ever raised
    csv.field_size_limit(max(csv.field_size_limit(), len(text) + 1))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep, strict=True)
    try:
        for _ in range(skip):
            next(reader, None)
        rows = list(reader)
    except csv.Error as exc:
        raise _malformed(text, name, sep, exc) from None
    line_numbers = np.arange(1 + skip, len(rows) + 1 + skip)
    lens = np.fromiter((len(r) for r in rows), np.int64, len(rows))
    blank = np.fromiter(
        (len(r) == 0 or all(not c.strip() for c in r) for r in rows), bool, len(rows)
    )
    if blank.all():
        raise AnnotationDataError(
            "the file is empty.", source=name, hint="Give a file with a header row and data rows."
        )
    if blank.any():
        notes.append(f"{format_count(int(blank.sum()), 'blank line')} ignored.")
    rows = [r for r, b in zip(rows, blank, strict=True) if not b]
    line_numbers, lens = line_numbers[~blank], lens[~blank]
    header = [h.strip() for h in rows[0]]
    _check_shape(header, len(rows), name)
    width = len(header)
    ragged = np.flatnonzero(lens[1:] != width) + 1
    if len(ragged):
        first = int(ragged[0])
        raise AnnotationDataError(
            f"{format_count(len(ragged), 'row')} {'does' if len(ragged) == 1 else 'do'} not "
            f"have the {width} fields of the header "
            f"(e.g. row {line_numbers[first]} has {lens[first]}).",
            source=name,
            rows=line_numbers[ragged].tolist(),
            hint="Quote cells that contain the delimiter, or fix those rows.",
        )
    check_header(header, name, int(line_numbers[0]))
    df = pd.DataFrame(rows[1:], columns=header, dtype=object)
    return df, line_numbers[1:], notes


def _malformed(text: str, name: str, sep: str, exc: csv.Error) -> AnnotationDataError:
    """The error for text the csv module refuses, naming the row where the bad record starts.

    An unclosed quote is only noticed where the file ends; the place to fix is the row
    where the quoted cell opens, which a second pass finds (the error path only).
    """
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep, strict=True)
    start = 1
    try:
        for _ in reader:
            start = reader.line_num + 1
    except csv.Error:
        pass
    end = reader.line_num
    what = "TSV" if sep == "\t" else "CSV"
    if str(exc) == "unexpected end of data" and end > start:
        return AnnotationDataError(
            f"malformed {what}: a quoted cell opens on this row and is never closed, so the "
            f"rest of the file (to row {end}) was read as one cell.",
            source=name,
            rows=[start],
            hint='Close the quote, or double a quote that is part of the text ("").',
        )
    return AnnotationDataError(
        f"malformed {what}: {exc}.",
        source=name,
        rows=[end],
        hint="Check quoting on that line (an unclosed quote swallows the rest of the file).",
    )


def check_header(header: Sequence[Any], name: str, row: int = 1) -> None:
    """Refuse a header with an empty name or a name given twice, naming the columns.

    Parameters
    ----------
    header : sequence
        The header's names, in order.
    name : str
        The file name.
    row : int, default 1
        The header's row in the file.

    Raises
    ------
    AnnotationDataError
        Naming the columns by position (and by letter, as a spreadsheet shows them).

    Examples
    --------
    >>> check_header(["item", "annotator", "label", "label"], "x.csv")
    Traceback (most recent call last):
    ...
    analytics._core.errors.AnnotationDataError: file 'x.csv', column 'label', row 1: the header names column 'label' more than once (columns 3 and 4; C and D in a spreadsheet). Column names must be unique: rename or delete one of them.
    """
    cols = [str(h).strip() for h in header]
    empty = [i + 1 for i, h in enumerate(cols) if not h]
    if empty:
        raise AnnotationDataError(
            f"{'column number' if len(empty) == 1 else 'columns number'} "
            f"{', '.join(map(str, empty))} {'has' if len(empty) == 1 else 'have'} no name in "
            "the header.",
            source=name,
            rows=[row],
            hint="Give every column a name"
            + (
                " (a count or contingency table written by pandas' to_csv or R's write.csv "
                "leaves its row names' column unnamed: name it, e.g. item)."
                if empty == [1]
                else "."
            ),
        )
    where: dict[str, list[int]] = {}
    for i, h in enumerate(cols, start=1):
        where.setdefault(h, []).append(i)
    dups = {h: at for h, at in where.items() if len(at) > 1}
    if dups:
        h, at = next(iter(dups.items()))
        others = [show_text(o) for o in list(dups)[1:]]
        more = f"; so {'does' if len(others) == 1 else 'do'} {', '.join(others[:5])}" * bool(others)
        raise AnnotationDataError(
            f"the header names column {show_text(h)} more than once (columns "
            f"{_and(map(str, at))}; {_and(map(_letter, at))} in a spreadsheet){more}.",
            source=name,
            column=h,
            rows=[row],
            hint="Column names must be unique: rename or delete one of them."
            + (
                # a number named twice is most often a headerless file's first row of data
                " A header of numbers: the first row looks like data, so the file may "
                "have no header; add one (item, annotator, label) as its first row."
                if _NUMBER.fullmatch(h)
                else ""
            ),
        )


#: A plain number as a header name (``4_20`` is text: Python's float() would read it).
_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")


def _and(words: Any) -> str:
    words = list(words)
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def _letter(number: int) -> str:
    """A 1-based column number as a spreadsheet's letters (1: A, 27: AA)."""
    letters = ""
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def sniff_delimiter(text: str) -> str:
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    counts = {d: first.count(d) for d in (",", "\t", ";", "|")}
    best = max(counts, key=counts.get)
    return best if counts[best] > 0 else ","
