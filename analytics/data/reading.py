"""Reading the bytes of a file into a raw table of text cells.

The first step of loading: where the bytes come from (a path, an upload, raw bytes),
which format they are in (CSV, TSV, JSON, JSON Lines, Excel, Parquet; from the
extension, else from the content), how text is decoded, and the strict readers for each
format. Nothing here interprets the cells; :mod:`analytics.data.layout` finds the
columns and :mod:`analytics.data.loading` builds the annotations.

>>> table, rows, report = read_table("sample_data/crowd_intents.csv")
>>> list(table.columns), int(rows[0]), report.format
(['item', 'annotator', 'label'], 2, 'csv')
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.budget import format_bytes
from analytics._core.errors import AnnotationDataError
from analytics.data.cells import unguard
from analytics.data.delimited import read_delimited_bytes, sniff_delimiter
from analytics.data.json_keys import check_json_keys
from analytics.data.json_records import read_json, read_json_lines_bytes, read_json_lines_flat
from analytics.data.limits import (
    Limits,
    check_cells,
    check_columns,
    check_delimited_cells,
    check_header_columns,
    count_bytes,
    limit_error,
    scan_json,
)
from analytics.data.load_report import LoadReport
from analytics.data.mapped import (
    MAP_MIN_BYTES,
    excel_sep_line,
    is_ascii,
    is_utf8,
    looks_binary,
    map_file,
    read_capped,
    refuse_compressed,
    refuse_mixed_encodings,
    refuse_nul_bytes,
    whole,
)
from analytics.data.parquet_file import read_parquet
from analytics.data.workbook import OLE_MAGIC, read_excel

__all__ = ["DEFAULT_MAX_BYTES", "FORMATS", "read_table"]

#: Files larger than this (200 MB) are refused unless the caller raises the limit.
DEFAULT_MAX_BYTES = 200 * 1024 * 1024
#: Delimited text at least this large (1 MiB) is scanned once for its ASCII-ness, quotes
#: and newlines (:func:`~analytics.data.limits.count_bytes`) before reading.
SCAN_MIN_BYTES = 1 << 20
#: The extensions of the text formats whose readers take a mapped file.
_MAPPED = (".csv", ".tsv", ".tab", ".jsonl", ".ndjson")
#: The formats :func:`read_table` reads.
FORMATS = ("csv", "tsv", "json", "jsonl", "excel", "parquet")
_EXTENSIONS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".txt": None,  # sniffed
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".xlsx": "excel",
    ".xlsm": "excel",
    ".parquet": "parquet",
    ".pq": "parquet",
}


def _read_source(source: Any, max_bytes: int) -> tuple[bytes, str]:
    """The raw bytes of a path or file-like object, and a display name."""
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        if not path.exists():
            raise AnnotationDataError("no such file.", source=str(path))
        if path.is_dir():
            raise AnnotationDataError("this is a folder, not a file.", source=str(path))
        size = path.stat().st_size
        if size > max_bytes:
            raise _too_big(f"the file is {format_bytes(size)},", max_bytes, path.name)
        if size >= MAP_MIN_BYTES and path.suffix.lower() in _MAPPED and path.is_file():
            return map_file(path), path.name
        # a regular file's size was checked; a device, FIFO or /dev/stdin says 0 whatever
        # it holds: read one byte past the limit at most
        data = path.read_bytes() if path.is_file() else read_capped(path, max_bytes)
        name = path.name
    elif isinstance(source, (bytes, bytearray)):
        data, name = bytes(source), "<bytes>"
    elif hasattr(source, "read"):
        name = stream_name(source)
        if hasattr(source, "seek"):
            try:
                source.seek(0)
            except (OSError, ValueError):
                pass
        data = source.read(max_bytes + 1)
        if isinstance(data, str):
            data = data.encode("utf-8")
    else:
        raise AnnotationDataError(
            f"cannot read annotations from a {type(source).__name__}.",
            hint="Pass a file path, an uploaded file, or a pandas DataFrame.",
        )
    if len(data) > max_bytes:  # also a regular file that grew after its size was read
        raise _too_big("the file is", max_bytes, name)
    return data, name


def stream_name(source: Any) -> str:
    """The name of a file-like object as the user knows it.

    An open file's ``name`` is its path: the file name is its last part. Anything else
    (an upload, a buffer given a ``name``) keeps its name whole: a browser's file name
    is not a path, and cutting ``<b>x</b>.csv`` at its last "/" showed "b>.csv".

    >>> import io
    >>> buffer = io.BytesIO(b"")
    >>> buffer.name = "a/b.csv"
    >>> stream_name(buffer), stream_name(io.BytesIO(b""))
    ('a/b.csv', '<upload>')
    """
    name = str(getattr(source, "name", "") or "<upload>")
    try:
        source.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return name
    return os.path.basename(name)


def _too_big(what: str, max_bytes: int, name: str) -> AnnotationDataError:
    return limit_error(
        f"{what} over the limit max_bytes={max_bytes:,} ({format_bytes(max_bytes)}).",
        "max_bytes",
        source=name,
        how="Split it,",
    )


def _detect_format(data: bytes, name: str, fmt: str | None) -> tuple[str, str]:
    if fmt is not None:
        f = fmt.lower().lstrip(".")
        f = {
            "xlsx": "excel",
            "xls": "excel",
            "ndjson": "jsonl",
            "json_lines": "jsonl",
            "pq": "parquet",
            "tab": "tsv",
        }.get(f, f)
        if f not in FORMATS:
            raise AnnotationDataError(
                f"unknown format {fmt!r}.", source=name, hint=f"Use one of: {', '.join(FORMATS)}."
            )
        return f, "as chosen"
    ext = Path(name).suffix.lower()
    head = data[:4096]
    by_ext = _EXTENSIONS.get(ext)
    # binary containers announce themselves: their magic bytes win over a wrong extension
    if head.startswith(b"PK\x03\x04"):
        if by_ext == "excel":  # the extension and the content agree
            return "excel", f"from the extension {ext}"
        why = "from the content (a zip container, read as Excel)"
        return "excel", why if by_ext is None else f"{why}, although the extension is {ext}"
    if head.startswith(OLE_MAGIC) and (ext in (".xls", "") or ext in _EXTENSIONS):
        # an .xls (or an encrypted .xlsx): the workbook reader says how to convert it
        return "excel", "from the content (an OLE2 file: an old .xls or an encrypted workbook)"
    if head.startswith(b"PAR1"):
        if by_ext == "parquet":
            return "parquet", f"from the extension {ext}"
        why = "from the content (Parquet magic bytes)"
        return "parquet", why if by_ext is None else f"{why}, although the extension is {ext}"
    if by_ext is not None:
        return by_ext, f"from the extension {ext}"
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if stripped[:1] in (b"[", b"{"):
        lines = [ln for ln in whole(data).splitlines() if ln.strip()]
        if (
            stripped[:1] == b"{"
            and len(lines) > 1
            and all(ln.strip().startswith(b"{") for ln in lines[:5])
        ):
            return "jsonl", "from the content (one JSON object per line)"
        return "json", "from the content (JSON)"
    if ext and ext not in _EXTENSIONS:
        known = ", ".join(sorted(e for e in _EXTENSIONS if e != ".txt"))
        if looks_binary(data):
            raise AnnotationDataError(
                f"unknown format: the extension {ext} is not one Concord reads and the content is binary.",
                source=name,
                hint=f"Save the data as one of {known}.",
            )
    text_sample = head.decode("latin-1")
    first = text_sample.splitlines()[0] if text_sample.splitlines() else ""
    return ("tsv" if first.count("\t") > max(first.count(","), first.count(";")) else "csv"), (
        "from the content (delimited text)"
    )


# byte-order marks, longest first (UTF-32's little-endian mark begins with UTF-16's)
_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le", "UTF-32 (little-endian)"),
    (b"\x00\x00\xfe\xff", "utf-32-be", "UTF-32 (big-endian)"),
    (b"\xff\xfe", "utf-16-le", "UTF-16 (little-endian)"),
    (b"\xfe\xff", "utf-16-be", "UTF-16 (big-endian)"),
)
_CONTAINERS = (b"PK\x03\x04", b"PAR1", OLE_MAGIC)


def _bomless_utf16(data: bytes) -> str | None:
    """UTF-16 without a byte-order mark, told by its NULs: every other byte of ASCII text.

    Only mostly-ASCII text is recognised (NUL in at least 70% of the high bytes of the
    first 4 KB, never in the low ones), and only if it decodes to printable text.
    """
    sample = np.frombuffer(data[: min(len(data), 4096) // 2 * 2], np.uint8)
    if len(sample) < 8:
        return None
    even, odd = sample[0::2], sample[1::2]
    for codec, low, high in (("utf-16-le", even, odd), ("utf-16-be", odd, even)):
        if (low == 0).any() or (high == 0).mean() < 0.7:
            continue
        try:
            text = data[: len(sample)].decode(codec)
        except UnicodeDecodeError:
            continue
        if all(c.isprintable() or c in "\t\r\n" for c in text):
            return codec
    return None


def _from_byte_order(data: bytes, name: str) -> tuple[bytes, str | None, list[str]]:
    """UTF-16 and UTF-32 text (Excel's "Unicode Text") as UTF-8 bytes, and what it was.

    Binary containers (zip, Parquet, OLE2) are returned as they are.
    """
    head = data[:4]
    if head.startswith(_CONTAINERS):
        return data, None, []
    found = next(((bom, codec, label) for bom, codec, label in _BOMS if head.startswith(bom)), None)
    how = "its byte-order mark"
    if found is None:
        codec = _bomless_utf16(data)
        if codec is None:
            return data, None, []
        found = (b"", codec, f"UTF-16 ({'little' if codec.endswith('le') else 'big'}-endian)")
        how = "the pattern of its bytes (no byte-order mark)"
    bom, codec, label = found
    try:
        text = data[len(bom) :].decode(codec)
    except UnicodeDecodeError as exc:
        raise AnnotationDataError(
            f"the file looks like {label} text (from {how}) but byte {exc.start + len(bom):,} "
            "is not valid there.",
            source=name,
            hint="Save it again as UTF-8 (CSV UTF-8 in Excel).",
        ) from None
    sample = text[:4096]
    odd = sum(1 for c in sample if not c.isprintable() and c not in "\t\r\n\ufeff")
    if odd > 0.05 * len(sample):
        raise AnnotationDataError(
            f"the file starts like {label} text (from {how}) but does not hold text.",
            source=name,
            hint="Export your annotations as CSV, TSV, JSON, Excel (.xlsx) or Parquet.",
        )
    return text.encode("utf-8"), codec, [f"Text in {label}, told by {how}: converted to UTF-8."]


def _to_utf8(
    data: bytes, name: str, known_ascii: bool | None = None
) -> tuple[bytes, str | None, list[str], list[str]]:
    """Text that is not UTF-8, as UTF-8 bytes: Windows-1252 if it fits, else latin-1.

    Bytes 0x80-0x9F are control characters in latin-1 but letters and punctuation in
    Windows-1252 (what Excel on Windows writes: curly quotes, euro sign), so a file
    using them is read as Windows-1252. Text that still holds such control characters,
    or whose high bytes mostly come in runs (accented letters come one at a time), is
    probably in a multi-byte or non-Latin encoding: it is read, with a caution.
    """
    ascii_text = is_ascii(data) if known_ascii is None else known_ascii
    if ascii_text or looks_binary(data) or is_utf8(data):
        return data, None, [], []
    refuse_mixed_encodings(data, name)
    data = whole(data)
    arr = np.frombuffer(data, np.uint8)
    high = arr >= 0x80
    codec = "latin-1"
    if ((arr >= 0x80) & (arr <= 0x9F)).any():
        try:
            text = data.decode("cp1252")
            codec = "cp1252"
        except UnicodeDecodeError:
            text = data.decode("latin-1")
    else:
        text = data.decode("latin-1")
    cautions = []
    neighbour = np.zeros(len(arr), bool)  # a high byte next to another high byte
    neighbour[1:] |= high[:-1]
    neighbour[:-1] |= high[1:]
    in_runs = int((high & neighbour).sum())
    c1_controls = codec == "latin-1" and bool(((arr >= 0x80) & (arr <= 0x9F)).any())
    if c1_controls or (high.sum() >= 4 and in_runs * 2 > high.sum()):
        cautions.append(
            f"The file is not UTF-8 and does not look like Western European text: it was "
            f"read as {codec}, but its letters may be wrong (it may be in another encoding, "
            "e.g. Shift-JIS, GBK or Windows-1251). Save it as UTF-8 and load it again."
        )
    return text.encode("utf-8"), codec, [], cautions


def _decode(data: bytes, name: str) -> tuple[str, str]:
    data = whole(data)
    if looks_binary(data):
        raise AnnotationDataError(
            "the file holds binary data, not text.",
            source=name,
            hint="Export your annotations as CSV, TSV, JSON, Excel (.xlsx) or Parquet.",
        )
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


def _refuse_empty(data: bytes, name: str) -> None:
    # the head decides for any real file; only a blank head pays for stripping the whole
    if not data[:65536].strip() and not whole(data).strip():
        raise AnnotationDataError(
            "the file is empty.", source=name, hint="Give a file with a header row and data rows."
        )


def _check_limits(
    data: bytes, name: str, fmt: str, limits: Limits, counts: tuple[int, int] | None = None
) -> tuple[int, int] | None:
    """The limits a format can be held to before its reader starts (Excel: in its reader).

    Returns the quotes and newlines of delimited text when they were counted (``counts``,
    or here for a file larger in bytes than ``max_cells``), so the reader does not count
    them again.
    """
    if fmt in ("csv", "tsv"):
        named, skip = excel_sep_line(data)
        first = data[skip : data.find(b"\n", skip) if b"\n" in data[:65536] else 65536]
        sep = named or ("\t" if fmt == "tsv" else sniff_delimiter(first.decode("latin-1")))
        check_header_columns(data, sep, name, limits, skip)
        lines = None if counts is None else counts[1] + 1
        if counts is None and len(data) > limits.max_cells:
            end = data.find(b"\n")
            if end >= 0 and data.find(b'"', end) >= 0:  # the reader needs the quotes too
                counts = count_bytes(data, b'"', b"\n")
                lines = counts[1] + 1
            else:
                lines = count_bytes(data, b"\n")[0] + 1
        check_delimited_cells(data, sep, limits, name, lines)
        return counts
    elif fmt == "json":  # JSON Lines: in its reader (read_table), which may prove it flat
        scan_json(data, name, limits)
    elif fmt == "parquet":
        _check_parquet(data, name, limits)
    return None


def _check_parquet(data: bytes, name: str, limits: Limits) -> None:
    """Cells and inflated size from the Parquet footer, before any column is read."""
    import pyarrow.parquet as pq

    try:
        meta = pq.ParquetFile(io.BytesIO(data)).metadata
    except Exception:  # a damaged footer: the reader says so in its own words
        return
    check_columns(meta.num_columns, limits, name, f"the file has {meta.num_columns:,} columns")
    check_cells(
        meta.num_rows * meta.num_columns,
        limits,
        name,
        f"the file holds {meta.num_rows:,} rows x {meta.num_columns:,} columns",
    )
    inflated = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
    if inflated > limits.max_decompressed_bytes:
        raise limit_error(
            f"its columns inflate to {inflated / 1e6:,.1f} MB, over the limit "
            f"max_decompressed_bytes={limits.max_decompressed_bytes:,}.",
            "max_decompressed_bytes",
            source=name,
            how="Split the file,",
        )


def read_table(
    source: Any,
    *,
    format: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    sheet: str | int | None = None,
    limits: Limits | None = None,
    check_repeated_header: bool = True,
) -> tuple[pd.DataFrame, np.ndarray, LoadReport]:
    r"""Read a file into a raw table of text cells (no interpretation yet).

    Parameters
    ----------
    source : str, os.PathLike, bytes or file-like
        A path, raw bytes, or an object with ``.read()`` (an upload; its ``.name``
        gives the file name).
    format : str or None, default None
        One of :data:`FORMATS` (also ``"xlsx"``, ``"ndjson"``, ``"pq"``, ``"tab"``); by
        default from the extension, else from the content.
    max_bytes : int, default DEFAULT_MAX_BYTES
        Refuse larger files.
    sheet : str, int or None, default None
        Excel sheet name or index (default: the first).
    limits : Limits or None, default None
        The resource limits (:class:`~analytics.data.limits.Limits`); by default
        ``Limits(max_bytes=max_bytes)``. Given limits win over ``max_bytes``. Each is
        checked before the work it bounds.
    check_repeated_header : bool, default True
        Refuse a CSV or TSV data row that repeats the header. False leaves that check
        to the caller (:func:`~analytics.data.loading.load_annotations` makes it on the
        factorized columns, see
        :func:`~analytics.data.delimited.read_delimited_bytes`).

    Returns
    -------
    table : pandas.DataFrame
        The cells, with the header's column names (stripped).
    rows : ndarray of int
        The row number of each record as a person counts it in the file (header = row 1
        for delimited text and Excel; records from 1 for JSON and Parquet).
    report : LoadReport
        A partial report: source, format, encoding (UTF-16 and UTF-32 text is converted
        to UTF-8 first), rows read, notes, and cautions (other sheets holding data, text
        that may be in another encoding).

    Raises
    ------
    AnnotationDataError
        For a missing, empty, oversized, binary, malformed or ragged file, an unknown
        format, a header with empty or repeated names, or a file over one of the limits
        (naming it).

    Examples
    --------
    >>> table, rows, report = read_table(b"item,annotator,label\n1,a,x\n1,b,y\n")
    >>> table.shape, rows.tolist(), report.messages()[0]
    ((2, 3), [2, 3], 'Read 2 rows as CSV (long form).')
    """
    limits = limits if limits is not None else Limits(max_bytes=max_bytes)
    data, name = _read_source(source, limits.max_bytes)
    _refuse_empty(data, name)
    refuse_compressed(data, name)
    data, source_encoding, notes = _from_byte_order(data, name)
    _refuse_empty(data, name)
    fmt, why = _detect_format(data, name, format)
    if fmt not in ("csv", "tsv", "jsonl"):
        data = whole(data)  # a mapped file that is not what its extension says
    notes.insert(0, f"Format {fmt.upper()} {why}.")
    cautions: list[str] = []
    scan = None
    if fmt in ("csv", "tsv") and source_encoding is None and len(data) >= SCAN_MIN_BYTES:
        # one pass on two threads: ASCII or not, and the quotes and newlines (for the
        # limits and the parser), which had been two passes (on 83 MB, 23 against 26 ms;
        # NUL bytes are left to bytes.find, at 7 ms faster than a third count's 12)
        quotes, newlines, top = count_bytes(data, b'"', b"\n", highest=True)
        # converting to UTF-8 keeps these counts: no multi-byte character has an ASCII byte
        scan = (quotes, newlines), top < 0x80
    if fmt in ("csv", "tsv", "json", "jsonl") and source_encoding is None:
        known_ascii = scan[1] if scan is not None else None
        data, source_encoding, more_notes, cautions = _to_utf8(data, name, known_ascii)
        notes += more_notes
    counts = _check_limits(data, name, fmt, limits, scan[0] if scan is not None else None)
    encoding = None
    if fmt in ("csv", "tsv"):
        refuse_nul_bytes(data, name)
        if looks_binary(data):
            _decode(data, name)  # raises: the file holds binary data
        # the text is UTF-8 by now: ASCII, checked (_to_utf8), or converted to it
        df, rows, more, encoding = read_delimited_bytes(
            data,
            name,
            fmt,
            counts,
            valid_utf8=True,
            check_repeated_header=check_repeated_header,
        )
    elif fmt in ("json", "jsonl"):
        fast = None
        if fmt == "jsonl":
            # flat records parsed against the head's schema need no depth scan (0.3 s on
            # 2 M records); anything else is scanned in full before any other parser
            fast = read_json_lines_flat(data, name, limits)
            if fast is None:
                scan_json(data, name, limits)
                check_json_keys(data, name, limits)
                fast = read_json_lines_bytes(data)
        if fast is not None:
            (df, rows, more), encoding = fast, "utf-8"
        else:
            text, encoding = _decode(data, name)
            df, rows, more = read_json(text, name, lines=fmt == "jsonl", limits=limits)
    elif fmt == "excel":
        df, rows, more, cautions = read_excel(data, name, sheet, limits)
    else:  # parquet
        df, rows, more = read_parquet(data, name)
    df.columns = unguard(pd.Index([str(c).strip() for c in df.columns], dtype=object))
    report = LoadReport(
        source=name,
        format=fmt,
        encoding=source_encoding or encoding,
        n_rows=len(df),
        notes=tuple(notes + more),
        cautions=tuple(cautions),
    )
    return df, rows, report
