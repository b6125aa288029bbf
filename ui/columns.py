"""The Data page's column roles: which column of the file became what, and what was set aside."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from analytics.data import RawTable, free_text_columns

ROLE_NAMES = {"annotators": "annotator (wide form)", "items": "item"}


def column_roles(
    columns: Sequence[Any],
    chosen: Mapping[str, Any],
    ignored: Sequence[Any] = (),
    free_text: Sequence[Any] = (),
    annotators: Sequence[Any] | None = None,
) -> pd.DataFrame:
    """One row per column of the file: its role, and a note when it needs a look.

    Parameters
    ----------
    columns : sequence
        The file's columns, in order.
    chosen : mapping
        The loader's choice (``LoadReport.columns``): role -> column, or -> list of columns
        (``annotators`` in wide form).
    ignored : sequence, default ()
        Columns the user set aside.
    free_text : sequence, default ()
        Columns that look like free text rather than labels.
    annotators : sequence or None, default None
        The annotators loaded: a wide-form annotator column not among them holds no label
        and says so (the load report's caution names it too).

    Returns
    -------
    pandas.DataFrame
        Columns ``column, role, note``; a column the loader did not use is "not used".
    """
    role_of: dict[str, str] = {}
    for role, value in chosen.items():
        for col in value if isinstance(value, (list, tuple)) else [value]:
            if col is not None:
                role_of[str(col)] = ROLE_NAMES.get(role, role)
    flagged = {str(c) for c in free_text}
    named = {str(a).strip() for a in annotators} if annotators is not None else set()
    rows = []
    for col in columns:
        key = str(col)
        if col in ignored or key in {str(c) for c in ignored}:
            rows.append((key, "ignored (your choice)", ""))
            continue
        note = "looks like free text, not labels" if key in flagged else ""
        role = role_of.get(key, "not used")
        if role == ROLE_NAMES["annotators"] and annotators is not None and key.strip() not in named:
            role, note = "not used", "holds no label at all: not an annotator"
        rows.append((key, role, note))
    return pd.DataFrame(rows, columns=["column", "role", "note"])


@st.cache_data(max_entries=8, show_spinner=False)
def flagged_columns(fingerprint: str, _raw: RawTable, annotator_columns: tuple) -> list[str]:
    """The wide-form annotator columns that look like free text (once per data set)."""
    return [str(c) for c, _ in free_text_columns(_raw.table, list(annotator_columns))]
