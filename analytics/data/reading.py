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

import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.data.delimited import read_delimited_bytes
from analytics.data.json_records import read_json, read_json_lines_bytes
from analytics.data.limits import Limits
from analytics.data.load_report import LoadReport
from analytics.data.parquet_file import read_parquet
from analytics.data.workbook import read_excel

__all__ = ["DEFAULT_MAX_BYTES", "FORMATS", "read_table"]

#: Files larger than this (200 MB) are refused unless the caller raises the limit.
DEFAULT_MAX_BYTES = 200 * 1024 * 1024
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
            raise AnnotationDataError(
                f"the file is {size / 1e6:,.1f} MB, over the limit of {max_bytes / 1e6:,.1f} MB.",
                source=path.name,
                hint="Split it, or raise the limit with max_bytes=.",
            )
        return path.read_bytes(), path.name
    if isinstance(source, (bytes, bytearray)):
        data, name = bytes(source), "<bytes>"
    elif hasattr(source, "read"):
        name = os.path.basename(str(getattr(source, "name", "") or "<upload>"))
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
    if len(data) > max_bytes:
        raise AnnotationDataError(
            f"the file is over the limit of {max_bytes / 1e6:,.1f} MB.",
            source=name,
            hint="Split it, or raise the limit with max_bytes=.",
        )
    return data, name


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
        why = "from the content (a zip container, read as Excel)"
        return "excel", why if by_ext in (
            None,
            "excel",
        ) else f"{why}, although the extension is {ext}"
    if head.startswith(b"PAR1"):
        why = "from the content (Parquet magic bytes)"
        return "parquet", why if by_ext in (
            None,
            "parquet",
        ) else f"{why}, although the extension is {ext}"
    if by_ext is not None:
        return by_ext, f"from the extension {ext}"
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if stripped[:1] in (b"[", b"{"):
        lines = [ln for ln in data.splitlines() if ln.strip()]
        if (
            stripped[:1] == b"{"
            and len(lines) > 1
            and all(ln.strip().startswith(b"{") for ln in lines[:5])
        ):
            return "jsonl", "from the content (one JSON object per line)"
        return "json", "from the content (JSON)"
    if ext and ext not in _EXTENSIONS:
        known = ", ".join(sorted(e for e in _EXTENSIONS if e != ".txt"))
        if _looks_binary(data):
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


def _looks_binary(data: bytes) -> bool:
    sample = data[:8192]
    if b"\x00" in sample:
        return True
    if not sample:
        return False
    control = sum(1 for b in sample if b < 32 and b not in (9, 10, 13, 12))
    return control / len(sample) > 0.05


def _decode(data: bytes, name: str) -> tuple[str, str]:
    if _looks_binary(data):
        raise AnnotationDataError(
            "the file holds binary data, not text.",
            source=name,
            hint="Export your annotations as CSV, TSV, JSON, Excel (.xlsx) or Parquet.",
        )
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


def read_table(
    source: Any,
    *,
    format: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    sheet: str | int | None = None,
    limits: Limits | None = None,
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
        ``Limits(max_bytes=max_bytes)``. Given limits win over ``max_bytes``.

    Returns
    -------
    table : pandas.DataFrame
        The cells, with the header's column names (stripped).
    rows : ndarray of int
        The row number of each record as a person counts it in the file (header = row 1
        for delimited text and Excel; records from 1 for JSON and Parquet).
    report : LoadReport
        A partial report: source, format, encoding, rows read and notes.

    Raises
    ------
    AnnotationDataError
        For a missing, empty, oversized, binary, malformed or ragged file, an unknown
        format, or a header with empty or repeated names.

    Examples
    --------
    >>> table, rows, report = read_table(b"item,annotator,label\n1,a,x\n1,b,y\n")
    >>> table.shape, rows.tolist(), report.messages()[0]
    ((2, 3), [2, 3], 'Read 2 rows as CSV (long form).')
    """
    limits = limits if limits is not None else Limits(max_bytes=max_bytes)
    data, name = _read_source(source, limits.max_bytes)
    if not data.strip():
        raise AnnotationDataError(
            "the file is empty.", source=name, hint="Upload a file with a header row and data rows."
        )
    fmt, why = _detect_format(data, name, format)
    notes = [f"Format {fmt.upper()} {why}."]
    encoding = None
    if fmt in ("csv", "tsv"):
        if _looks_binary(data):
            _decode(data, name)  # raises: the file holds binary data
        df, rows, more, encoding = read_delimited_bytes(data, name, fmt)
    elif fmt in ("json", "jsonl"):
        fast = read_json_lines_bytes(data) if fmt == "jsonl" else None
        if fast is not None:
            (df, rows, more), encoding = fast, "utf-8"
        else:
            text, encoding = _decode(data, name)
            df, rows, more = read_json(text, name, lines=fmt == "jsonl")
    elif fmt == "excel":
        df, rows, more = read_excel(data, name, sheet)
    else:  # parquet
        df, rows, more = read_parquet(data, name)
    df.columns = [str(c).strip() for c in df.columns]
    report = LoadReport(
        source=name, format=fmt, encoding=encoding, n_rows=len(df), notes=tuple(notes + more)
    )
    return df, rows, report
