"""What the crowd-platform readers share (MTurk, Toloka): one row per assignment.

Both export one row per worker assignment, with the item identified by one or more
input columns and rejected assignments marked in a status column.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_count
from analytics.data.importers.base import (
    ToolResult,
    column,
    finish,
    skip,
)
from analytics.data.importers.tool_cells import preview, tool_ids
from analytics.data.load_report import LoadReport

__all__ = ["assignments_result", "item_ids", "plain_labels"]


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
        The file row numbers, for errors.
    source : str
        The file name, for errors.

    Returns
    -------
    ndarray of object

    Raises
    ------
    AnnotationDataError
        When no column is given or one is absent, or a cell is a list or an object
        (not an id), naming the column and the rows.
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
        tool_ids(column(table, c), rows, field=c, source=source, bools=True) for c in item_columns
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


def plain_labels(
    labels: np.ndarray, rows: np.ndarray, field: str, source: str, why: str
) -> np.ndarray:
    """The answer cells, refusing JSON objects and arrays (structured data, not a category).

    Toloka writes an output of type JSON or array as JSON text, and an MTurk answer that
    holds JSON (a script's output, a form re-saved as JSON) is no more a category: such a
    cell is never taken as a label by its text. Only cells that start with ``{`` or ``[``
    and parse as JSON are refused (``[x]`` stays a label).

    Parameters
    ----------
    labels : ndarray of object
        The answer column.
    rows : ndarray of int
        The file row numbers, for the error.
    field : str
        The column's name, for the error.
    source : str
        The file name, for the error.
    why : str
        Why such a cell is not a category, in the platform's words (ends the message).

    Returns
    -------
    ndarray of object
        ``labels``, unchanged.

    Raises
    ------
    AnnotationDataError
        Naming the column, the rows and the first such cell.
    """
    cells = pd.Series(labels, dtype=object)
    try:
        first = cells.str.lstrip().str[:1]
    except AttributeError:  # no text cell at all (a table of numbers)
        return labels
    candidates = np.flatnonzero(first.isin(["{", "["]).to_numpy(bool))
    bad = []
    for k in candidates:  # only the cells that look like JSON: usually none
        try:
            value = json.loads(cells.iat[k])
        except RecursionError:  # nested deeper than Python parses: structured, not a label
            bad.append(k)
            continue
        except ValueError:
            continue
        if isinstance(value, (dict, list)):
            bad.append(k)
    if bad:
        kind = "an object" if cells.iat[bad[0]].lstrip().startswith("{") else "a list"
        raise AnnotationDataError(
            f"{format_count(len(bad), 'cell')} {'holds' if len(bad) == 1 else 'hold'} JSON, "
            f"not a label (e.g. {kind}: {preview(cells.iat[bad[0]])}): {why}.",
            source=source,
            column=field,
            rows=np.asarray(rows)[bad].tolist(),
            hint="Choose an answer that holds one category per task with answer=, or "
            "turn the field into plain labels (one text or number per cell) and load again.",
        )
    return labels


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
    statuses: tuple[str, ...],
    notes: list[str],
    label_field: str = "label",
    columns: dict[str, Any] | None = None,
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
    statuses : tuple of str
        Every status the platform writes (any case); another value in the status column
        is an error naming the rows, not a status guessed to mean "kept".
    notes : list of str
        Decisions so far; extended in place.
    label_field : str, default "label"
        The column (or form field) the labels came from, for errors.
    columns : dict or None, default None
        The fields used and the export's name, for the report.

    Returns
    -------
    ToolResult
    """
    rows = np.asarray(rows, dtype=np.int64)
    status = tool_ids(column(table, status_column), rows, field=status_column, source=report.source)
    known = {s.lower() for s in statuses}
    odd = [k for k, s in enumerate(status) if s is not None and s.lower() not in known]
    if odd:
        raise AnnotationDataError(
            f"the status {status[odd[0]]!r} is not one {tool} writes.",
            source=report.source,
            column=status_column,
            rows=rows[odd].tolist(),
            hint=f"Statuses: {', '.join(statuses)}; correct the cells or leave the rows out.",
        )
    rejected = np.fromiter(
        (s is not None and s.lower() == rejected_value.lower() for s in status), bool, len(status)
    )
    workers = tool_ids(
        column(table, worker_column), rows, field=worker_column, source=report.source
    )
    if status_column not in table.columns:
        notes.append(f"No '{status_column}' column: every assignment is kept.")
    keep = ~rejected
    label_arr = np.empty(len(labels), dtype=object)
    label_arr[:] = list(labels)
    return finish(
        report,
        tool=tool,
        items=items[keep],
        annotators=workers[keep],
        labels=label_arr[keep],
        rows=rows[keep],
        skipped=[skip(f"rejected assignments ({status_column} {rejected_value})", rows[rejected])],
        notes=notes,
        label_field=label_field,
        columns=columns,
    )
