"""Reading delimited text (CSV, TSV): strict parsing, header checks, delimiter sniffing.

Part of :func:`analytics.data.reading.read_table`; cells stay text, nothing is interpreted.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError

__all__ = ["check_header", "read_delimited", "sniff_delimiter"]


def read_delimited(text: str, name: str, sep: str) -> tuple[pd.DataFrame, np.ndarray, list[str]]:
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
    check_header(header, name)
    df = pd.DataFrame(rows[1:], columns=header, dtype=object)
    return df, line_numbers[1:], notes


def check_header(header: Sequence[Any], name: str) -> None:
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


def sniff_delimiter(text: str) -> str:
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    counts = {d: first.count(d) for d in (",", "\t", ";", "|")}
    best = max(counts, key=counts.get)
    return best if counts[best] > 0 else ","
