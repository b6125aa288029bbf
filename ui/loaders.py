"""Cached loading for the app: parsing runs once per file content and options."""

from __future__ import annotations

import io
from typing import Any

import pandas as pd
import streamlit as st

from analytics.data import (
    SAMPLES,
    Annotations,
    coverage_figure,
    judgements_per_item_figure,
    label_distribution_figure,
    load_annotations,
    read_table,
)
from analytics.data.importers import ToolInfo, describe_tool_export


def _named_bytes(data: bytes, name: str) -> io.BytesIO:
    buffer = io.BytesIO(data)
    buffer.name = name
    return buffer


def sample_source(key: str) -> tuple[bytes, str, dict[str, Any]]:
    """A sample's file content, file name and loading options."""
    sample = SAMPLES[key]
    return sample.path.read_bytes(), sample.file, dict(sample.options)


@st.cache_resource(max_entries=8, show_spinner="Reading the annotations...")
def load_cached(data: bytes, name: str, options: tuple[tuple[str, Any], ...]) -> Annotations:
    """A file loaded with the chosen options; Annotations is immutable, so sharing is safe.

    Errors are raised, not cached, so a corrected choice is tried afresh.
    """
    opts = {k: (list(v) if isinstance(v, tuple) and k != "tool_options" else v) for k, v in options}
    return load_annotations(_named_bytes(data, name), **opts)


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
    }
    return load_cached(data, name, tuple(sorted({**defaults, **options}.items())))


@st.cache_data(max_entries=8, show_spinner=False)
def preview_upload(data: bytes, name: str, n_rows: int = 20) -> tuple[pd.DataFrame, list[str]]:
    """The first rows of the raw table and its column names, before interpretation."""
    table, _, _ = read_table(_named_bytes(data, name))
    return table.head(n_rows), [str(c) for c in table.columns]


@st.cache_data(max_entries=8, show_spinner=False)
def describe_upload(data: bytes, name: str) -> ToolInfo | None:
    """Which annotation tool made the file (None for plain tables), and its choices."""
    table, _, _ = read_table(_named_bytes(data, name))
    return describe_tool_export(table)


@st.cache_data(max_entries=8, show_spinner="Summarising the data set...")
def data_overview(fingerprint: str, _ann: Annotations, n_rows: int = 1000) -> dict[str, Any]:
    """The Data page's summary table, three figures and first rows, once per data set."""
    head = (_ann.to_frame(sep=";") if _ann.is_multilabel else _ann.to_frame()).head(n_rows)
    return {
        "summary": _ann.summary(),
        "per_item": judgements_per_item_figure(_ann),
        "coverage": coverage_figure(_ann),
        "labels": label_distribution_figure(_ann),
        "head": head,
    }
