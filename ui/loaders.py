"""Cached loading for the app: a file is parsed once, then previewed, described and loaded.

:func:`read_cached` reads an upload into a :class:`~analytics.data.RawTable` once per file
content; the preview, the tool description and every load (one per choice of options)
start from that table, so a 200 MB upload is parsed once, not three times.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from analytics import AnnotationDataError
from analytics.agreement import count_table_agreement
from analytics.data import (
    MISSING_TOKENS,
    SAMPLES,
    Annotations,
    RawTable,
    count_matrix_of,
    coverage_figure,
    judgements_per_item_figure,
    label_distribution_figure,
    load_annotations,
    read_table,
    workbook_sheets,
)
from analytics.data.importers import ToolInfo, describe_tool_export
from ui.text import md


def _named_bytes(data: bytes, name: str) -> io.BytesIO:
    buffer = io.BytesIO(data)
    buffer.name = name
    return buffer


def sample_source(key: str) -> tuple[bytes, str, dict[str, Any]]:
    """A sample's file content, file name and loading options."""
    sample = SAMPLES[key]
    return sample.path.read_bytes(), sample.file, dict(sample.options)


#: Options that change how the bytes are read (not only how the table is interpreted);
#: the sheet is read by :func:`read_cached` itself.
_READ_OPTIONS = frozenset({"format", "max_bytes", "limits"})
#: The default missing-value texts, as the Data page shows them.
DEFAULT_MISSING = ", ".join(sorted(t for t in MISSING_TOKENS if t))


@st.cache_data(max_entries=4, show_spinner=False)
def sheets_cached(data: bytes, name: str) -> list[str]:
    """The worksheets of an uploaded workbook (``[]`` for any other file)."""
    return workbook_sheets(data, name)


@st.cache_resource(max_entries=4, show_spinner="Reading the file...")
def read_cached(data: bytes, name: str, sheet: str | None = None) -> RawTable:
    """The file's raw table, read once per content (and sheet); never modified by loading.

    Errors are raised, not cached.
    """
    return RawTable(*read_table(_named_bytes(data, name), sheet=sheet))


@st.cache_data(max_entries=4, show_spinner="Computing agreement on the counts...")
def fractional_count_agreement(data: bytes, name: str, sheet: str | None = None):
    """The coefficients of a count table with fractional counts (None when they are whole).

    Fractional counts are no judgements, so they never become :class:`Annotations`; the
    coefficients defined on counts still are (``count_table_agreement``).
    """
    table = read_cached(data, name, sheet).table
    counts = count_matrix_of(table, None, name)[0]
    if np.allclose(counts, np.rint(counts)):
        return None
    return count_table_agreement(table)


@st.cache_resource(max_entries=8, show_spinner="Reading the annotations...")
def load_cached(data: bytes, name: str, options: tuple[tuple[str, Any], ...]) -> Annotations:
    """A file loaded with the chosen options; Annotations is immutable, so sharing is safe.

    The table comes from :func:`read_cached` (the one the preview showed) unless an option
    changes how the bytes are read. Errors are raised, not cached, so a corrected choice
    is tried afresh.
    """
    opts = {k: (list(v) if isinstance(v, tuple) and k != "tool_options" else v) for k, v in options}
    sheet = opts.pop("sheet", None)
    ignore = opts.pop("ignore", None) or []
    if _READ_OPTIONS & opts.keys() and not ignore:
        return load_annotations(_named_bytes(data, name), sheet=sheet, **opts)
    if _READ_OPTIONS & opts.keys():
        read_opts = {k: opts.pop(k) for k in _READ_OPTIONS & opts.keys()}
        raw = RawTable(*read_table(_named_bytes(data, name), sheet=sheet, **read_opts))
    else:
        raw = read_cached(data, name, sheet)
    if ignore:  # columns the user set aside on the Data page (notes, comments, ...)
        raw = RawTable(raw.table.drop(columns=list(ignore)), raw.rows, raw.report)
    return load_annotations(raw, **opts)


def parse_missing(text: str) -> tuple[str, ...] | None:
    """The Data page's missing-values text as ``missing=``: None for the default list.

    Comma-separated; an empty text means only empty cells are missing.
    """
    tokens = tuple(sorted({t.strip().lower() for t in text.split(",")} - {""}))
    default = tuple(sorted(t for t in MISSING_TOKENS if t))
    return None if tokens == default else tokens


def parse_category_order(text: str) -> tuple[str, ...] | None:
    """The Data page's category-order text as ``categories=``: None when empty.

    Comma-separated, in order, blanks around each name ignored; a name given twice is kept
    once, at its first place.

    >>> parse_category_order(" neg, neu ,pos,neg "), parse_category_order("  ")
    (('neg', 'neu', 'pos'), None)
    """
    names = [t.strip() for t in text.split(",")]
    ordered = tuple(dict.fromkeys(n for n in names if n))
    return ordered or None


def span_file_error(exc: AnnotationDataError, columns: list[str]) -> str | None:
    """A loading error of a span-shaped table (``start`` and ``end`` columns) with the
    loader's span hint first, as Markdown; None for any other error.

    Read as judgements, a span file fails on what it is not ("693 repeated judgements
    ... rows 7, 8, 10"); the hint (load it on the Spans page) is the useful part, so it
    leads and the failure follows as the reason.
    """
    names = {str(c).strip().lower() for c in columns}
    hint = exc.hint or ""
    if not {"start", "end"} <= names or "span file" not in hint:
        return None
    reason = AnnotationDataError(
        exc.problem, source=exc.source, column=exc.column, rows=exc.rows, sheet=exc.sheet
    )
    return f"**{md(hint)}**\n\n" + md(f"Read as judgements instead: {reason}")


def load_sample_cached(key: str) -> Annotations:
    data, name, options = sample_source(key)
    options = {k: tuple(v) if isinstance(v, list) else v for k, v in options.items()}
    defaults = {
        "item": None,
        "annotator": None,
        "label": None,
        "layout": None,
        "kind": None,
        "multilabel_sep": None,
        "duplicates": "error",
        "missing": None,
    }
    return load_cached(data, name, tuple(sorted({**defaults, **options}.items())))


@st.cache_data(max_entries=8, show_spinner=False)
def preview_upload(
    data: bytes, name: str, sheet: str | None = None, n_rows: int = 20
) -> tuple[pd.DataFrame, list[str]]:
    """The first rows of the raw table and its column names, before interpretation."""
    table = read_cached(data, name, sheet).table
    return table.head(n_rows), [str(c) for c in table.columns]


@st.cache_data(max_entries=8, show_spinner=False)
def describe_upload(data: bytes, name: str, sheet: str | None = None) -> ToolInfo | None:
    """Which annotation tool made the file (None for plain tables), and its choices."""
    raw = read_cached(data, name, sheet)
    return describe_tool_export(raw.table, format=raw.report.format)


@st.cache_data(max_entries=8, show_spinner="Summarising the data set...")
def data_overview(fingerprint: str, _ann: Annotations, n_rows: int = 1000) -> dict[str, Any]:
    """The Data page's summary table, three figures and first rows, once per data set.

    ``summary`` is written for reading (``1,500``); ``summary_csv`` is the same table with
    plain numbers, for its download (as the Export page's "Data summary CSV").
    """
    head = (_ann.to_frame(sep=";") if _ann.is_multilabel else _ann.to_frame()).head(n_rows)
    return {
        "summary": _ann.summary(separators=True),
        "summary_csv": _ann.summary(),
        "per_item": judgements_per_item_figure(_ann),
        "coverage": coverage_figure(_ann),
        "labels": label_distribution_figure(_ann),
        "head": head,
    }


@st.cache_resource(max_entries=2, show_spinner="Counting shared items...")
def coverage_cached(fingerprint: str, _ann: Annotations) -> tuple[pd.DataFrame | None, str]:
    """The annotators x annotators shared-items table once per data set, or why not.

    Kept as it is (``cache_resource``: no copy per rerun; two data sets at most), since it
    grows with annotators². ``(None, reason)`` when the memory budget refuses it.
    """
    try:
        return _ann.coverage(), ""
    except AnnotationDataError as exc:
        return None, str(exc)
