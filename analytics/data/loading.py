"""Reading annotation files into :class:`~analytics.data.model.Annotations`.

One entry point, :func:`load_annotations`, for paths, uploaded files and DataFrames, in
CSV, TSV, JSON, JSON Lines, Excel and Parquet, long or wide. Every decision (format,
encoding, layout, columns, label kind, separator) is recorded in the result's
``report``; every row that does not become a judgement is counted there with its reason.
Bad input raises :class:`~analytics._core.errors.AnnotationDataError` and nothing else.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.data.model import Annotations, LabelKind, LoadReport, is_missing

__all__ = [
    "DEFAULT_MAX_BYTES",
    "FORMATS",
    "ROLE_SYNONYMS",
    "detect_columns",
    "load_annotations",
    "read_table",
]

DEFAULT_MAX_BYTES = 200 * 1024 * 1024
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
ROLE_SYNONYMS: dict[str, tuple[str, ...]] = {
    "item": (
        "item",
        "task",
        "unit",
        "id",
        "orig_id",
        "item_id",
        "task_id",
        "unit_id",
        "itemid",
        "taskid",
        "hitid",
        "doc_id",
        "document_id",
        "example_id",
        "sentence_id",
        "text_id",
    ),
    "annotator": (
        "annotator",
        "worker",
        "rater",
        "coder",
        "user",
        "annotator_id",
        "worker_id",
        "workerid",
        "rater_id",
        "coder_id",
        "user_id",
        "judge",
        "labeler",
        "labeller",
    ),
    "label": (
        "label",
        "response",
        "answer",
        "category",
        "value",
        "rating",
        "class",
        "annotation",
        "judgement",
        "judgment",
        "labels",
        "choice",
        "choices",
    ),
}
_SEPARATOR_CANDIDATES = (";", "|")
_NUMERIC_ID = re.compile(r"^\s*[+-]?\d+(\.\d+)?\s*$")


def _norm(col: Any) -> str:
    text = str(col).strip().lower()
    # INPUT:/OUTPUT: prefixes (Toloka, crowd-kit) are dropped; GOLDEN: columns keep their
    # prefix so an expert answer never competes with the crowd's for the label role
    text = re.sub(r"^(input|output):", "", text)
    return re.sub(r"[\s\-]+", "_", text)


# ---------------------------------------------------------------------------- reading
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


def _read_delimited(text: str, name: str, sep: str) -> tuple[pd.DataFrame, np.ndarray, list[str]]:
    """Parse delimited text strictly: ragged rows are an error naming the rows."""
    notes: list[str] = []
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep, strict=True)
    try:
        rows = list(reader)
    except csv.Error as exc:
        raise AnnotationDataError(
            f"malformed {('TSV' if sep == chr(9) else 'CSV')}: {exc}.",
            source=name,
            rows=[reader.line_num],
            hint="Check quoting on that line (an unclosed quote swallows the rest of the file).",
        ) from None
    line_numbers = np.arange(1, len(rows) + 1)
    lens = np.fromiter((len(r) for r in rows), np.int64, len(rows))
    blank = np.fromiter(
        (len(r) == 0 or all(not c.strip() for c in r) for r in rows), bool, len(rows)
    )
    if blank.all():
        raise AnnotationDataError(
            "the file is empty.", source=name, hint="Upload a file with a header row and data rows."
        )
    if blank.any():
        notes.append(f"{int(blank.sum())} blank line(s) ignored.")
    rows = [r for r, b in zip(rows, blank, strict=True) if not b]
    line_numbers, lens = line_numbers[~blank], lens[~blank]
    header = [h.strip() for h in rows[0]]
    if len(rows) == 1:
        raise AnnotationDataError(
            "the file has a header row but no data rows.",
            source=name,
            hint=f"Header found: {', '.join(header)}.",
        )
    width = len(header)
    if width == 1:
        raise AnnotationDataError(
            f"the file has a single column ('{header[0]}').",
            source=name,
            hint="Concord needs item, annotator and label columns (long form) or an item column "
            "plus one column per annotator (wide form). Is the delimiter right?",
        )
    ragged = np.flatnonzero(lens[1:] != width) + 1
    if len(ragged):
        first = int(ragged[0])
        raise AnnotationDataError(
            f"{len(ragged)} row(s) do not have the {width} fields of the header "
            f"(e.g. row {line_numbers[first]} has {lens[first]}).",
            source=name,
            rows=line_numbers[ragged].tolist(),
            hint="Quote cells that contain the delimiter, or fix those rows.",
        )
    _check_header(header, name)
    df = pd.DataFrame(rows[1:], columns=header, dtype=object)
    return df, line_numbers[1:], notes


def _check_header(header: Sequence[Any], name: str) -> None:
    cols = [str(h).strip() for h in header]
    empty = [i + 1 for i, h in enumerate(cols) if not h]
    if empty:
        raise AnnotationDataError(
            f"column(s) number {', '.join(map(str, empty))} have no name in the header.",
            source=name,
            rows=[1],
            hint="Give every column a name.",
        )
    seen: dict[str, int] = {}
    for h in cols:
        seen[h] = seen.get(h, 0) + 1
    dups = [h for h, n in seen.items() if n > 1]
    if dups:
        raise AnnotationDataError(
            f"the header names column(s) {dups} more than once.",
            source=name,
            column=dups[0],
            rows=[1],
            hint="Column names must be unique.",
        )


def _read_json(text: str, name: str, lines: bool) -> tuple[pd.DataFrame, np.ndarray, list[str]]:
    notes: list[str] = []
    if lines:
        records, numbers = [], []
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise AnnotationDataError(
                    f"line is not valid JSON ({exc.msg} at column {exc.colno}).",
                    source=name,
                    rows=[n],
                    hint="JSON Lines files need one complete JSON object per line.",
                ) from None
            if not isinstance(obj, dict):
                raise AnnotationDataError(
                    "each line must be a JSON object ({...}).", source=name, rows=[n]
                )
            records.append(obj)
            numbers.append(n)
        if not records:
            raise AnnotationDataError("the file is empty.", source=name)
        return pd.DataFrame.from_records(records), np.asarray(numbers), notes
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data" and text.lstrip().startswith("{"):
            # one object per line saved as .json: read it as JSON Lines, and say so
            df, numbers, more = _read_json(text, name, lines=True)
            return (
                df,
                numbers,
                [*more, "The file holds one JSON object per line: read as JSON Lines."],
            )
        raise AnnotationDataError(
            f"not valid JSON ({exc.msg}, line {exc.lineno} column {exc.colno}).",
            source=name,
            rows=[exc.lineno],
            hint="Check the file is complete JSON (a list of records).",
        ) from None
    if isinstance(obj, dict):
        lists = {k: v for k, v in obj.items() if isinstance(v, list)}
        record_lists = {k: v for k, v in lists.items() if v and all(isinstance(r, dict) for r in v)}
        if len(record_lists) == 1:
            key, obj = next(iter(record_lists.items()))
            notes.append(f"Read the records under the JSON key '{key}'.")
        elif lists and len(lists) == len(obj) and len({len(v) for v in lists.values()}) == 1:
            df = pd.DataFrame(obj)
            return df, np.arange(1, len(df) + 1), [*notes, "Read JSON columns (a dict of lists)."]
        else:
            raise AnnotationDataError(
                "the JSON is an object, not a list of records.",
                source=name,
                hint="Use a list of {item, annotator, label} objects, or a dict of equal-length columns.",
            )
    if not isinstance(obj, list):
        raise AnnotationDataError("the JSON holds a single value, not records.", source=name)
    if not obj:
        raise AnnotationDataError("the JSON list is empty: no judgements.", source=name)
    bad = [i + 1 for i, r in enumerate(obj) if not isinstance(r, dict)]
    if bad:
        raise AnnotationDataError(
            "every record in the JSON list must be an object ({...}).",
            source=name,
            rows=bad,
            hint="Records are numbered from 1.",
        )
    return pd.DataFrame.from_records(obj), np.arange(1, len(obj) + 1), notes


def read_table(
    source: Any,
    *,
    format: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    sheet: str | int | None = None,
) -> tuple[pd.DataFrame, np.ndarray, LoadReport]:
    """Read a file into a raw table of text cells (no interpretation yet).

    Returns the table, the row number of each record as a person counts it in the file
    (header = row 1 for delimited text and Excel; records from 1 for JSON and Parquet),
    and a partial :class:`LoadReport`.
    """
    data, name = _read_source(source, max_bytes)
    if not data.strip():
        raise AnnotationDataError(
            "the file is empty.", source=name, hint="Upload a file with a header row and data rows."
        )
    fmt, why = _detect_format(data, name, format)
    notes = [f"Format {fmt.upper()} {why}."]
    encoding = None
    if fmt in ("csv", "tsv"):
        text, encoding = _decode(data, name)
        sep = "\t" if fmt == "tsv" else _sniff_delimiter(text)
        df, rows, more = _read_delimited(text, name, sep)
        if fmt == "csv" and sep != ",":
            more.append(f"Cells are separated by {sep!r}.")
    elif fmt in ("json", "jsonl"):
        text, encoding = _decode(data, name)
        df, rows, more = _read_json(text, name, lines=fmt == "jsonl")
    elif fmt == "excel":
        try:
            df = pd.read_excel(
                io.BytesIO(data), sheet_name=sheet if sheet is not None else 0, dtype=object
            )
        except Exception as exc:  # openpyxl raises many types for corrupt files
            raise AnnotationDataError(
                f"could not read it as an Excel workbook ({type(exc).__name__}: {exc}).",
                source=name,
                hint="Save it again as .xlsx, or export CSV.",
            ) from None
        if df.shape[1] == 0 and df.shape[0] == 0:
            raise AnnotationDataError("the sheet is empty.", source=name)
        _check_header(
            [str(c) if not str(c).startswith("Unnamed:") else "" for c in df.columns], name
        )
        if len(df) == 0:
            raise AnnotationDataError("the sheet has a header row but no data rows.", source=name)
        if df.shape[1] == 1:
            raise AnnotationDataError(
                f"the sheet has a single column ('{df.columns[0]}').", source=name
            )
        rows, more = np.arange(2, len(df) + 2), []
    else:  # parquet
        try:
            df = pd.read_parquet(io.BytesIO(data))
        except Exception as exc:  # pyarrow raises its own types
            raise AnnotationDataError(
                f"could not read it as Parquet ({type(exc).__name__}: {exc}).", source=name
            ) from None
        if len(df) == 0:
            raise AnnotationDataError("the Parquet file has no rows.", source=name)
        rows, more = np.arange(1, len(df) + 1), []
    df.columns = [str(c).strip() for c in df.columns]
    report = LoadReport(
        source=name, format=fmt, encoding=encoding, n_rows=len(df), notes=tuple(notes + more)
    )
    return df, rows, report


def _sniff_delimiter(text: str) -> str:
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    counts = {d: first.count(d) for d in (",", "\t", ";", "|")}
    best = max(counts, key=counts.get)
    return best if counts[best] > 0 else ","


# ---------------------------------------------------------------------------- columns
def detect_columns(
    columns: Sequence[str],
    *,
    item: str | None = None,
    annotator: str | None = None,
    label: str | None = None,
    source: str | None = None,
) -> dict[str, str | None]:
    """Find the item, annotator and label columns by name (case-insensitive synonyms).

    Columns named by the caller win. A role that several columns could fill is an error
    listing the candidates (name the one you mean).
    """
    given = {"item": item, "annotator": annotator, "label": label}
    cols = [str(c) for c in columns]
    for role, col in given.items():
        if col is not None and col not in cols:
            raise AnnotationDataError(
                f"there is no column '{col}' for the {role}.",
                source=source,
                column=col,
                hint=f"Columns present: {', '.join(cols)}.",
            )
    found: dict[str, str | None] = {}
    taken = {c for c in given.values() if c is not None}
    for role, synonyms in ROLE_SYNONYMS.items():
        if given[role] is not None:
            found[role] = given[role]
            continue
        matches = [c for c in cols if _norm(c) in synonyms and c not in taken]
        if len(matches) > 1:
            # the role's own name wins ('item' beside 'id'); any other tie is ambiguous
            exact = [c for c in matches if _norm(c) == role]
            if len(exact) != 1:
                raise AnnotationDataError(
                    f"several columns could hold the {role}: {matches}.",
                    source=source,
                    column=matches[0],
                    hint=f"Say which one with {role}='...'.",
                )
            matches = exact
        found[role] = matches[0] if matches else None
        if found[role]:
            taken.add(found[role])
    return found


def _to_long(
    df: pd.DataFrame,
    rows: np.ndarray,
    report: LoadReport,
    *,
    item: str | None,
    annotator: str | None,
    label: str | None,
    layout: str | None,
) -> tuple[pd.DataFrame, np.ndarray, dict[str, Any], str, str, list[str]]:
    """Decide long or wide form and return a long frame (item, annotator, label).

    Also returns the layout's reason and any cautions for the user.
    """
    name = report.source
    cautions: list[str] = []
    cols = list(df.columns)
    found = detect_columns(cols, item=item, annotator=annotator, label=label, source=name)
    named = any(v is not None for v in (item, annotator, label))
    if layout not in (None, "long", "wide"):
        raise AnnotationDataError(f"unknown layout {layout!r}.", hint="Use 'long' or 'wide'.")
    guess = ""
    known = [r for r in ("annotator", "label") if found[r] is not None]
    if layout in (None, "long") and known and len(cols) == 3 and not all(found.values()):
        # Three columns, some recognised: the others take the remaining roles in the
        # usual order (item, annotator, label). The report says it was a guess.
        free = [c for c in cols if c not in found.values()]
        roles = [r for r in ("item", "annotator", "label") if found[r] is None]
        found.update(zip(roles, free, strict=True))
        guess = (
            " Guessed "
            + " and ".join(f"'{found[r]}' as the {r} column" for r in roles)
            + " (three columns, the others recognised); name the columns if that is wrong."
        )
    long_ok = all(found.values())
    if layout == "long" or (layout is None and long_ok):
        missing = [r for r, c in found.items() if c is None]
        if missing:
            raise AnnotationDataError(
                f"could not tell which column holds the {' and the '.join(missing)}.",
                source=name,
                hint=f"Columns present: {', '.join(map(str, cols))}. Name them with "
                + ", ".join(f"{m}='...'" for m in missing)
                + ".",
            )
        why = (
            "Long form: the columns were named by you."
            if named
            else f"Long form: found item column '{found['item']}', annotator column "
            f"'{found['annotator']}' and label column '{found['label']}'."
        )
        why += guess
        extra = [c for c in cols if c not in found.values()]
        if extra:
            why += f" Other columns ignored: {', '.join(map(str, extra[:8]))}{'...' if len(extra) > 8 else ''}."
        out = pd.DataFrame(
            {
                "item": df[found["item"]].to_numpy(object),
                "annotator": df[found["annotator"]].to_numpy(object),
                "label": df[found["label"]].to_numpy(object),
            }
        )
        return out, rows, found, "long", why, cautions
    partial = [r for r in ("annotator", "label") if found[r] is not None]
    if layout is None and partial:
        missing = [r for r, c in found.items() if c is None]
        raise AnnotationDataError(
            f"found {' and '.join(f'{r} column {found[r]!r}' for r in partial)} but no "
            f"{' and no '.join(missing)} column.",
            source=name,
            hint=f"Columns present: {', '.join(map(str, cols))}. Name the missing one with "
            + ", ".join(f"{m}='...'" for m in missing)
            + ", or pass layout='wide' if every column besides the item is an annotator.",
        )
    # wide form: one row per item, one column per annotator
    item_col = found["item"]
    if item_col is None:
        first = cols[0]
        values = df[first].to_numpy(object)
        if layout == "wide" or (len(cols) >= 2 and pd.Series(values).nunique() == len(values)):
            item_col = first
            why_item = f"its first column '{first}' has a distinct value on every row, so it is read as the item id"
        else:
            raise AnnotationDataError(
                "could not tell which column holds the items, and the data is not in wide form "
                "(no column has a distinct id on every row).",
                source=name,
                hint=f"Columns present: {', '.join(map(str, cols))}. Name them with item='...', "
                "annotator='...', label='...'.",
            )
    else:
        why_item = f"'{item_col}' is the item column"
    ann_cols = [c for c in cols if c != item_col]
    if not ann_cols:
        raise AnnotationDataError("wide form needs at least one annotator column.", source=name)
    ids = df[item_col].to_numpy(object)
    dup = pd.Series(ids).duplicated(keep=False).to_numpy()
    if dup.any():
        raise AnnotationDataError(
            f"wide form needs one row per item, but item ids repeat in column '{item_col}'.",
            source=name,
            column=str(item_col),
            rows=rows[dup].tolist(),
            hint="For long data (one judgement per row) name the columns with item=, annotator=, label=.",
        )
    why = (
        f"Wide form: {why_item}, and each of the other {len(ann_cols)} columns is one annotator "
        "(no annotator and label columns were found)."
    )
    cells = {str(v).strip() for v in df[ann_cols].to_numpy(object).reshape(-1)[:20_000]}
    header_as_data = [
        c for c in [item_col, *ann_cols] if str(c).strip() in cells or _NUMERIC_ID.match(str(c))
    ]
    if header_as_data:
        caution = (
            f"The header names {header_as_data[:3]} look like data values: if the file has no "
            "header row, add one (item, annotator, label for long form)."
        )
        why += " " + caution
        cautions.append(caution)
    n_i, n_a = len(df), len(ann_cols)
    out = pd.DataFrame(
        {
            "item": np.repeat(ids, n_a),
            "annotator": np.tile(np.asarray(ann_cols, dtype=object), n_i),
            "label": df[ann_cols].to_numpy(object).reshape(-1),
        }
    )
    return (
        out,
        np.repeat(rows, n_a),
        {"item": item_col, "annotators": ann_cols},
        "wide",
        why,
        cautions,
    )


def _detect_separator(labels: np.ndarray) -> str | None:
    texts = [v for v in labels if isinstance(v, str) and not is_missing(v)]
    if not texts:
        return None
    for sep in _SEPARATOR_CANDIDATES:
        share = sum(sep in t for t in texts) / len(texts)
        if share >= 0.02:
            return sep
    return None


# ---------------------------------------------------------------------------- entry point
def load_annotations(
    source: Any,
    *,
    item: str | None = None,
    annotator: str | None = None,
    label: str | None = None,
    format: str | None = None,
    multilabel_sep: str | None = None,
    categories: Sequence[Any] | None = None,
    duplicates: str = "error",
    kind: str | LabelKind | None = None,
    layout: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    sheet: str | int | None = None,
    name: str | None = None,
    tool_options: dict[str, Any] | None = None,
) -> Annotations:
    """Load annotations from a file, an upload or a DataFrame.

    Parameters
    ----------
    source
        A path, a file-like object with ``.read()`` (``st.file_uploader`` gives one, with
        a ``.name``), raw bytes, or a DataFrame (multi-label cells may be sets or lists).
    item, annotator, label
        Column names, when the common names are not used. Recognised without naming:
        item/task/unit/id/orig_id, annotator/worker/rater/coder/user/annotator_id,
        label/response/answer/category/value (case-insensitive; ``INPUT:``/``OUTPUT:``
        prefixes ignored).
    format
        ``"csv"``, ``"tsv"``, ``"json"``, ``"jsonl"``, ``"excel"`` or ``"parquet"``;
        by default from the extension, else from the content.
    multilabel_sep
        Split label cells on this separator into sets (e.g. ``";"`` for ``anger;fear``).
        Detected (``;`` or ``|``) and reported when None; ``""`` turns detection off.
    categories
        Declared categories in order (ordinal scales; categories nobody used still count).
        Declaring text categories keeps numeric-looking labels as text.
    duplicates
        One annotator judging one item more than once: ``"error"`` (default),
        ``"first"``, ``"last"`` or ``"keep"``.
    kind
        ``"nominal"``, ``"ordinal"``, ``"numeric"`` or ``"multilabel"``; inferred if None.
    layout
        ``"long"`` or ``"wide"``; detected if None (the report says why).
    max_bytes
        Refuse files larger than this (default 200 MB).
    sheet
        Excel sheet name or index (default: the first).
    name
        Display name (default: the file name).
    tool_options
        Choices for annotation-tool exports (Label Studio ``from_name``, MTurk ``answer``
        column, Prodigy ``annotator_key``, ...): see :data:`analytics.data.importers.TOOL_OPTIONS`.

    Returns
    -------
    Annotations
        With ``report`` (:class:`~analytics.data.model.LoadReport`) describing every
        decision and every skipped row.

    Raises
    ------
    AnnotationDataError
        For any input that cannot be read; the message names file, column and rows.
    """
    try:
        return _load(
            source,
            item=item,
            annotator=annotator,
            label=label,
            format=format,
            multilabel_sep=multilabel_sep,
            categories=categories,
            duplicates=duplicates,
            kind=kind,
            layout=layout,
            max_bytes=max_bytes,
            sheet=sheet,
            name=name,
            tool_options=tool_options,
        )
    except AnnotationDataError:
        raise
    except (MemoryError, KeyboardInterrupt):
        raise
    except Exception as exc:  # anything unforeseen still reaches the user as data error
        if os.environ.get("CONCORD_STRICT_ERRORS"):
            raise  # the test suite sets this, so an internal bug fails a test instead of hiding
        src = (
            name
            or getattr(source, "name", None)
            or (str(source) if isinstance(source, (str, os.PathLike)) else None)
        )
        raise AnnotationDataError(
            f"could not read the annotations ({type(exc).__name__}: {exc}).",
            source=os.path.basename(str(src)) if src else None,
            hint="Check the file's format; CSV with item, annotator and label columns always works.",
        ) from exc


def _refuse_nested_cells(
    long: pd.DataFrame, rows: np.ndarray, columns: dict[str, Any], source: str
) -> None:
    """Object cells ({...}) and nested lists are not ids or labels: refuse, never repr them.

    A JSON list of names in a label cell is a label set (the data model reads it so);
    anything else nested would load as its Python text, e.g. "{'value': 'x'}".
    """

    def name(x: Any) -> bool:
        return isinstance(x, (str, int, float)) and not isinstance(x, bool)

    wide = "annotators" in columns
    for role in ("item", "annotator", "label"):
        cells = long[role].to_numpy(object)
        if role == "label":
            bad = np.fromiter(
                (
                    isinstance(v, dict)
                    or (isinstance(v, (list, tuple)) and not all(name(x) for x in v))
                    for v in cells
                ),
                bool,
                len(cells),
            )
        else:
            bad = np.fromiter((isinstance(v, (dict, list, tuple)) for v in cells), bool, len(cells))
        if bad.any():
            first = int(np.flatnonzero(bad)[0])
            col = long["annotator"].iat[first] if wide and role == "label" else columns.get(role)
            raise AnnotationDataError(
                f"the {role} cells hold JSON objects or nested lists "
                f"(e.g. {str(cells[first])[:60]}), which are not {role}s Concord can read.",
                source=source,
                column=None if col is None else str(col),
                rows=rows[bad].tolist(),
                hint="If this is an annotation tool's export, load the tool's own format "
                "(Label Studio JSON, Prodigy JSONL, MTurk CSV, Toloka TSV); otherwise flatten "
                "those cells to text, or to lists of label names.",
            )


def _load(
    source: Any,
    *,
    item,
    annotator,
    label,
    format,
    multilabel_sep,
    categories,
    duplicates,
    kind,
    layout,
    max_bytes,
    sheet,
    name,
    tool_options,
) -> Annotations:
    if isinstance(source, Annotations):
        return source
    if isinstance(source, pd.DataFrame):
        if source.empty:
            raise AnnotationDataError("the DataFrame is empty.", source=name or "<DataFrame>")
        df = source.copy()
        df.columns = [str(c) for c in df.columns]
        rows = np.arange(1, len(df) + 1)
        report = LoadReport(source=name or "<DataFrame>", format="dataframe", n_rows=len(df))
    else:
        df, rows, report = read_table(source, format=format, max_bytes=max_bytes, sheet=sheet)
    display = name or report.source
    from analytics.data.importers import convert_tool_export

    tool = convert_tool_export(df, rows, report, options=tool_options)
    if tool is not None:
        df, rows, report = tool
        long, _, _, chosen, _, cautions = _to_long(
            df, rows, report, item="item", annotator="annotator", label="label", layout="long"
        )
        columns = {**report.columns}
        why = f"Converted from a {report.tool} export (one judgement per row)."
    else:
        long, rows, columns, chosen, why, cautions = _to_long(
            df, rows, report, item=item, annotator=annotator, label=label, layout=layout
        )
        _refuse_nested_cells(long, rows, columns, report.source)
    notes = list(report.notes)
    sep = multilabel_sep or None  # "" means: never split cells
    lk = LabelKind.parse(kind) if kind is not None else None
    if multilabel_sep is None and lk in (None, LabelKind.MULTILABEL):
        detected = _detect_separator(long["label"].to_numpy(object))
        if detected is not None and (lk is LabelKind.MULTILABEL or _mostly_text(long["label"])):
            sep = detected
            notes.append(f"The multi-label separator {detected!r} was detected in the label cells.")
    if cautions:
        report = LoadReport(**{**report.__dict__, "cautions": (*report.cautions, *cautions)})
    report = LoadReport(
        **{
            **report.__dict__,
            "layout": chosen,
            "layout_reason": why,
            "columns": columns,
            "notes": tuple(notes),
        }
    )
    return Annotations.from_frame(
        long,
        item="item",
        annotator="annotator",
        label="label",
        kind=lk,
        categories=categories,
        multilabel_sep=sep,
        duplicates=duplicates,
        name=display,
        row_numbers=rows,
        report=report,
    )


def _mostly_text(labels: pd.Series) -> bool:
    from analytics.data.model import looks_numeric

    vals = [v for v in labels.to_numpy(object)[:2000] if isinstance(v, str) and not is_missing(v)]
    return bool(vals) and not looks_numeric(vals)
