"""What the crowd-platform readers share (MTurk, Toloka): one row per assignment.

Both export one row per worker assignment, with the item identified by one or more
input columns and rejected assignments marked in a status column.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.data.cells import is_missing
from analytics.data.importers.base import ToolResult, column, finish, skip, tool_id_text
from analytics.data.load_report import LoadReport

__all__ = ["assignments_result", "item_ids"]


def item_ids(
    table: pd.DataFrame, item_columns: Sequence[str], rows: np.ndarray, source: str
) -> np.ndarray:
    """Item ids from one column, or several joined by ' | ' (None where all are empty).

    Parameters
    ----------
    table : pandas.DataFrame
        The export.
    item_columns : sequence of str
        The columns that identify an item.
    rows : ndarray of int
        The file row numbers (unused; kept for a uniform call).
    source : str
        The file name, for errors.

    Returns
    -------
    ndarray of object

    Raises
    ------
    AnnotationDataError
        When no column is given or one is absent.
    """
    missing = [c for c in item_columns if c not in table.columns]
    if missing or not item_columns:
        raise AnnotationDataError(
            f"there is no column {missing[0]!r} to identify the items."
            if missing
            else "no columns were given to identify the items.",
            source=source,
            hint=f"Columns present: {', '.join(map(str, table.columns))}.",
        )
    parts = [
        np.array([tool_id_text(v) for v in column(table, c)], dtype=object) for c in item_columns
    ]
    if len(parts) == 1:
        return parts[0]
    stacked = np.stack(parts, axis=1)
    empty = np.all(stacked == None, axis=1)  # noqa: E711 - elementwise test for None
    joined = np.array(
        [" | ".join("" if p is None else p for p in r) for r in stacked], dtype=object
    )
    joined[empty] = None
    return joined


def assignments_result(
    table: pd.DataFrame,
    rows: np.ndarray,
    report: LoadReport,
    *,
    tool: str,
    items: np.ndarray,
    worker_column: str,
    labels: Sequence[Any],
    status_column: str,
    rejected_value: str,
    notes: list[str],
) -> ToolResult:
    """Long data from one row per assignment (MTurk, Toloka): rejected ones skipped.

    Parameters
    ----------
    table : pandas.DataFrame
        The export, one row per assignment.
    rows : ndarray of int
        The file row numbers.
    report : LoadReport
        The report so far.
    tool : str
        The tool's name.
    items : ndarray of object
        The item id of each assignment.
    worker_column : str
        The column naming the worker.
    labels : sequence
        The label of each assignment.
    status_column, rejected_value : str
        Assignments whose status is ``rejected_value`` are skipped (and noted).
    notes : list of str
        Decisions so far; extended in place.

    Returns
    -------
    ToolResult
    """
    rows = np.asarray(rows, dtype=np.int64)
    status = np.array(
        [str(s).strip().lower() if not is_missing(s) else "" for s in column(table, status_column)],
        dtype=object,
    )
    rejected = status == rejected_value.lower()
    if status_column not in table.columns:
        notes.append(f"No '{status_column}' column: every assignment is kept.")
    keep = ~rejected
    label_arr = np.empty(len(labels), dtype=object)
    label_arr[:] = list(labels)
    return finish(
        report,
        tool=tool,
        items=items[keep],
        annotators=column(table, worker_column)[keep],
        labels=label_arr[keep],
        rows=rows[keep],
        skipped=[skip(f"rejected assignments ({status_column} {rejected_value})", rows[rejected])],
        notes=notes,
    )
