"""Toloka pool results TSV ("Download results" on the pool page).

Format (Toloka requester docs, "Receiving responses"): one row per task in an assignment,
with ``INPUT:<field>`` (the task's input data), ``OUTPUT:<field>`` (the performer's
answers), ``GOLDEN:<field>`` (control answers), ``HINT:*`` and ``ASSIGNMENT:*`` columns:
``ASSIGNMENT:worker_id`` (the performer), ``ASSIGNMENT:assignment_id``,
``ASSIGNMENT:status`` (``SUBMITTED``, ``APPROVED`` or ``REJECTED``), ``ASSIGNMENT:started``.

Items are identified by the ``INPUT:`` columns (all of them joined, unless
``item_columns`` names some), annotators by ``ASSIGNMENT:worker_id``, the label is the
``OUTPUT:`` column (the only one, or ``answer``). Rejected assignments are skipped and
counted. Crowd-kit style tables (``task, worker, label``, with or without ``INPUT:`` /
``OUTPUT:`` prefixes) have no ``ASSIGNMENT:`` columns and are read as plain long tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.data.importers.base import (
    ToolInfo,
    ToolReader,
    ToolResult,
    choose,
    choose_hint,
    column,
)
from analytics.data.importers.crowd import assignments_result, item_ids, plain_labels
from analytics.data.load_report import LoadReport

NAME = "Toloka"
WORKER = "ASSIGNMENT:worker_id"
OPTIONS = {
    "answer": "Which OUTPUT: column to analyse; default: the only one.",
    "item_columns": "INPUT: column(s) that identify an item; default: all INPUT: columns.",
}


def _prefixed(table: pd.DataFrame, prefix: str) -> list[str]:
    return [str(c) for c in table.columns if str(c).upper().startswith(prefix)]


def recognise(table: pd.DataFrame) -> bool:
    """``ASSIGNMENT:worker_id`` next to at least one ``OUTPUT:`` column.

    Parameters
    ----------
    table : pandas.DataFrame
        Any raw table; True only for a Toloka pool results table.

    Returns
    -------
    bool
    """
    return WORKER in table.columns and bool(_prefixed(table, "OUTPUT:"))


def convert(
    table: pd.DataFrame, rows: np.ndarray, report: LoadReport, options: Mapping[str, Any]
) -> ToolResult:
    """The long form of a Toloka export.

    Parameters
    ----------
    table, rows, report : pandas.DataFrame, ndarray of int, LoadReport
        A Toloka pool results table, as :func:`~analytics.data.reading.read_table` returned it.
    options : Mapping
        Checked choices among ``answer``, ``item_columns`` (see ``OPTIONS``).

    Returns
    -------
    ToolResult
        One judgement per accepted assignment, from the chosen ``OUTPUT:`` column.
    """
    source = report.source
    outputs = _prefixed(table, "OUTPUT:")
    inputs = _prefixed(table, "INPUT:")
    answer = options.get("answer")
    if answer is None:
        if len(outputs) > 1:
            raise AnnotationDataError(
                f"the Toloka results have {len(outputs)} output fields: {', '.join(outputs)}; "
                "say which one to analyse.",
                source=source,
                hint=choose_hint("answer"),
            )
        answer = outputs[0]
    answer = choose(answer, outputs, what="output field", option="answer", source=source, tool=NAME)
    chosen_items = options.get("item_columns")
    if chosen_items is None:
        if not inputs:
            raise AnnotationDataError(
                "the Toloka results have no INPUT: columns to identify the tasks.",
                source=source,
                hint="Download the results with the input data included.",
            )
        item_cols = inputs
    else:
        item_cols = [chosen_items] if isinstance(chosen_items, str) else list(chosen_items)
    notes = [
        f"Analysed '{answer}'; items are identified by {', '.join(item_cols)}; annotators "
        f"are performers ({WORKER})."
    ]
    golden = _prefixed(table, "GOLDEN:")
    if golden:
        notes.append(f"Control answers ({', '.join(golden)}) are not judgements and were not used.")
    return assignments_result(
        table,
        rows,
        report,
        tool=NAME,
        items=item_ids(table, item_cols, rows, source),
        worker_column=WORKER,
        labels=plain_labels(column(table, answer), rows, answer, source, _JSON_OUTPUT),
        status_column="ASSIGNMENT:status",
        rejected_value="REJECTED",
        statuses=("ACTIVE", "SUBMITTED", "APPROVED", "ACCEPTED", "REJECTED", "SKIPPED", "EXPIRED"),
        notes=notes,
        label_field=answer,
        columns={"answer": answer, "export": EXPORT},
    )


def describe(table: pd.DataFrame) -> ToolInfo:
    """The choices a Toloka export offers, for the upload page.

    Parameters
    ----------
    table : pandas.DataFrame
        A Toloka pool results table.

    Returns
    -------
    ToolInfo
        The ``OUTPUT:`` columns (``answer``) and ``INPUT:`` columns (``item_columns``).
    """
    outputs = _prefixed(table, "OUTPUT:")
    inputs = _prefixed(table, "INPUT:")
    return ToolInfo(
        tool=NAME,
        choices={"answer": outputs, "item_columns": [None, *inputs]},
        defaults={"answer": outputs[0] if len(outputs) == 1 else None, "item_columns": None},
        help=dict(OPTIONS),
    )


EXPORT = "pool results TSV"
#: Why a Toloka output cell holding JSON is refused (see :func:`plain_labels`).
_JSON_OUTPUT = "an output field of type JSON or array is not a category"
READER = ToolReader(NAME, OPTIONS, recognise, convert, describe, lambda table, fmt: EXPORT)
