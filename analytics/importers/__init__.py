"""Recognise exports of annotation tools and turn them into long (item, annotator, label) data.

Each tool reader is a function ``(table, rows, report) -> (long_table, rows, report) | None``
that returns None when the table is not that tool's export. The loader asks them in turn
after reading the file and before choosing long or wide form. Plain item/annotator/label
tables (and crowd-kit/Toloka ``task, worker, label`` with ``INPUT:``/``OUTPUT:``
prefixes) need no reader: the column synonyms of :mod:`analytics.loading` cover them.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from ..annotations import LoadReport

ToolReader = Callable[
    [pd.DataFrame, np.ndarray, LoadReport], "tuple[pd.DataFrame, np.ndarray, LoadReport] | None"
]

TOOL_READERS: list[ToolReader] = []


def convert_tool_export(
    table: pd.DataFrame, rows: np.ndarray, report: LoadReport
) -> tuple[pd.DataFrame, np.ndarray, LoadReport] | None:
    """The long form of a recognised tool export, or None if no tool recognises it."""
    for reader in TOOL_READERS:
        out = reader(table, rows, report)
        if out is not None:
            return out
    return None
