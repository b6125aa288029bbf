"""Amazon Mechanical Turk batch results CSV (Requester UI, "Download CSV").

Format (MTurk Requester UI guide, "Reviewing assignments offline", and the Assignment
data structure of the API reference): one row per assignment with ``HITId``,
``HITTypeId``, ..., ``AssignmentId``, ``WorkerId``, ``AssignmentStatus`` (``Submitted``,
``Approved`` or ``Rejected``), the HIT's inputs as ``Input.<name>`` columns, the worker's
answers as ``Answer.<name>`` columns, and ``Approve``/``Reject`` for offline review.

Templates built with Crowd HTML Elements (``<crowd-form>``) put all answers in one
column, ``Answer.taskAnswers``, holding a JSON list with one object per assignment whose
keys are the form fields (SageMaker/MTurk "Crowd HTML Elements reference"):

* ``crowd-classifier``: ``{"name": {"label": "Positive"}}`` -> a single label;
* ``crowd-classifier-multi-select``: ``{"name": {"labels": ["a", "b"]}}`` -> a label set;
* a group of options ``{"name": {"yes": true, "no": false}}`` -> the options set true;
* ``crowd-radio-group`` buttons, each its own field ``{"positive": {"on": true},
  "negative": {"on": false}}`` -> the names of the buttons set true (question
  ``Answer.taskAnswers``);
* plain inputs ``{"name": "text or number"}`` -> that value.

Each field is offered as the question ``Answer.taskAnswers.<field>``. Items are HITs
(``HITId``) unless ``item_columns`` names ``Input.*`` columns (the same content published
in several HITs is then one item); annotators are ``WorkerId``. Rejected assignments are
skipped and counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError, show_text
from analytics._core.formatting import format_count
from analytics.data.cells import is_missing
from analytics.data.importers.base import (
    ToolInfo,
    ToolReader,
    ToolResult,
    choose,
    choose_hint,
    column,
    settle_sets,
)
from analytics.data.importers.crowd import assignments_result, item_ids, plain_labels
from analytics.data.importers.tool_cells import is_name, name_set, preview, tool_id_text
from analytics.data.json_records import RepeatedKey, loads_strict, repeated_key_hint
from analytics.data.load_report import LoadReport

NAME = "Mechanical Turk"
TASK_ANSWERS = "Answer.taskAnswers"
OPTIONS = {
    "answer": "Which question to analyse: an Answer.* column, or Answer.taskAnswers.<field> "
    "for crowd-html forms; default: the only one.",
    "item_columns": "Input.* column(s) that identify an item; default: HITId.",
    "multilabel": "Read option groups as label sets (True) or single labels (False); "
    "default: sets when some worker chose several options.",
}


def recognise(table: pd.DataFrame) -> bool:
    """``HITId`` and ``WorkerId`` (or ``AssignmentId``) next to at least one ``Answer.*`` column.

    Results with ``AssignmentId`` but no ``WorkerId`` are recognised so that the load
    says what is missing, rather than reading the columns as a plain table.

    Parameters
    ----------
    table : pandas.DataFrame
        Any raw table; True only for an MTurk batch results table.

    Returns
    -------
    bool
    """
    cols = [str(c) for c in table.columns]
    return (
        "HITId" in cols
        and ("WorkerId" in cols or "AssignmentId" in cols)
        and any(c.startswith("Answer.") for c in cols)
    )


# ---------------------------------------------------------------------------- taskAnswers
def _parse_task_answers(table: pd.DataFrame, rows: np.ndarray, source: str) -> list[dict | None]:
    """The form object of each assignment (None where the cell is empty)."""
    out: list[dict | None] = []
    bad: list[int] = []
    for cell, row in zip(column(table, TASK_ANSWERS), rows, strict=True):
        if not isinstance(cell, str) and is_missing(cell):
            out.append(None)
            continue
        try:
            obj = loads_strict(cell) if isinstance(cell, str) else cell
        except RepeatedKey as exc:  # JSON would keep the last value: one answer lost
            raise AnnotationDataError(
                f"an object in the cell gives the key {show_text(exc.key)} twice.",
                source=source,
                column=TASK_ANSWERS,
                rows=[int(row)],
                hint=repeated_key_hint(exc.key),
            ) from None
        except (ValueError, RecursionError):  # not JSON, too deep, or a number too long
            bad.append(int(row))
            out.append(None)
            continue
        # the JSON list of one form object, nothing else (a bare object is not what
        # crowd-html writes: a cell edited by hand or by a script, never guessed at)
        if isinstance(obj, list) and len(obj) == 1 and isinstance(obj[0], dict):
            out.append(obj[0])
        else:
            bad.append(int(row))
            out.append(None)
    if bad:
        raise AnnotationDataError(
            f"{format_count(len(bad), f'{TASK_ANSWERS!r} cell')} "
            f"{'is' if len(bad) == 1 else 'are'} not the JSON list of one form object "
            'that crowd-html templates write (e.g. [{"sentiment": {"label": "Positive"}}]).',
            source=source,
            column=TASK_ANSWERS,
            rows=bad,
            hint="Check the file was not re-saved by a spreadsheet that altered the quotes.",
        )
    return out


def _is_button(value: Any) -> bool:
    return (
        isinstance(value, dict) and len(value) == 1 and isinstance(next(iter(value.values())), bool)
    )


def _field_value(value: Any, field: str, row: int, source: str) -> tuple[Any, bool | None]:
    """One form field as (label, declared multi-label or None when unknown)."""
    if isinstance(value, dict):
        if "label" in value and value["label"] is None:
            return None, False
        if "label" in value and is_name(value["label"]):
            return str(tool_id_text(value["label"])), False
        labels = name_set(value.get("labels"))
        if labels is not None:
            return labels, True
        if value and all(isinstance(v, bool) for v in value.values()):
            return frozenset(str(k) for k, v in value.items() if v), None
    elif isinstance(value, bool):
        return str(value).lower(), False
    elif isinstance(value, (str, int, float)):
        return value, False
    elif value is None:
        return None, None
    raise AnnotationDataError(
        f"the form field '{field}' holds {preview(value)}, which is not a label.",
        source=source,
        column=TASK_ANSWERS,
        rows=[row],
        hint="Choose another question with answer=.",
    )


def _fields(forms: Sequence[dict | None]) -> tuple[list[str], list[str]]:
    """Form fields in order of appearance: (ordinary fields, radio/checkbox buttons)."""
    order: dict[str, bool] = {}
    for form in forms:
        for key, value in (form or {}).items():
            order[key] = order.get(key, True) and _is_button(value)
    buttons = [k for k, is_btn in order.items() if is_btn]
    return [k for k in order if k not in buttons], buttons


def questions(table: pd.DataFrame, forms: Sequence[dict | None] | None) -> list[str]:
    """Every question a worker answered: Answer.* columns and crowd-html form fields.

    Parameters
    ----------
    table : pandas.DataFrame
        The export.
    forms : sequence of dict or None
        The parsed ``Answer.taskAnswers`` form of each assignment, if the column exists.

    Returns
    -------
    list of str
    """
    out = [str(c) for c in table.columns if str(c).startswith("Answer.") and c != TASK_ANSWERS]
    if forms is not None:
        fields, buttons = _fields(forms)
        out += [f"{TASK_ANSWERS}.{f}" for f in fields]
        if buttons:
            out.append(TASK_ANSWERS)
    return out


def _labels(
    table: pd.DataFrame,
    rows: np.ndarray,
    forms: Sequence[dict | None] | None,
    question: str,
    multilabel: bool | None,
    source: str,
    notes: list[str],
) -> list[Any]:
    if question != TASK_ANSWERS and question in table.columns:
        why = "an answer that holds JSON is structured data, not a category"
        return list(plain_labels(column(table, question), rows, question, source, why))
    assert forms is not None
    _, buttons = _fields(forms)
    if question == TASK_ANSWERS:
        if len(buttons) == 1:  # a lone checkbox: a yes/no question
            (b,) = buttons
            notes.append(f"The form has one checkbox, '{b}': labels are true/false.")
            return [
                None
                if form is None
                else str(bool(next(iter(form.get(b, {False: False}).values())))).lower()
                for form in forms
            ]
        notes.append(f"Buttons {buttons}: the label is the name of the button(s) set.")
        values: list[Any] = [
            None
            if form is None
            else frozenset(b for b in buttons if b in form and next(iter(form[b].values())))
            for form in forms
        ]
        declared: bool | None = None
    else:
        field = question[len(TASK_ANSWERS) + 1 :]
        parsed = [
            _field_value(form.get(field), field, int(row), source)
            if form is not None
            else (None, None)
            for form, row in zip(forms, rows, strict=True)
        ]
        values = [v for v, _ in parsed]
        flags = {d for _, d in parsed if d is not None}
        declared = True if True in flags else None
        _check_same_shape(values, rows, field, source)
    if not any(isinstance(v, frozenset) for v in values):
        return values
    by = "as chosen" if multilabel is not None else "as the form's multi-select element says"
    labels, _, why = settle_sets(values, multilabel if multilabel is not None else declared, by)
    notes.append(f"'{question}': {why}.")
    # a form (or field) with no answer is missing, not the empty set settle_sets makes of it
    return [None if v is None else lab for v, lab in zip(values, labels, strict=True)]


def _check_same_shape(values: Sequence[Any], rows: np.ndarray, field: str, source: str) -> None:
    """Label sets and single values do not mix within one form field."""
    is_set = np.fromiter((isinstance(v, frozenset) for v in values), bool, len(values))
    single = np.fromiter(
        (v is not None and not isinstance(v, frozenset) for v in values), bool, len(values)
    )
    if is_set.any() and single.any():
        odd = np.flatnonzero(single if single.sum() <= is_set.sum() else is_set)
        raise AnnotationDataError(
            f"the form field '{field}' holds label sets in some assignments and single "
            f"values in others (e.g. {values[odd[0]]!r}), so it is not one kind of answer.",
            source=source,
            column=TASK_ANSWERS,
            rows=np.asarray(rows)[odd].tolist(),
            hint="Correct those cells, or leave those assignments out of the file.",
        )


def _item_columns(options: Mapping[str, Any]) -> list[str] | None:
    cols = options.get("item_columns")
    if cols is None:
        return None
    return [cols] if isinstance(cols, str) else [str(c) for c in cols]


def convert(
    table: pd.DataFrame, rows: np.ndarray, report: LoadReport, options: Mapping[str, Any]
) -> ToolResult:
    """The long form of a Mechanical Turk export.

    Parameters
    ----------
    table, rows, report : pandas.DataFrame, ndarray of int, LoadReport
        An MTurk batch results table, as :func:`~analytics.data.reading.read_table` returned it.
    options : Mapping
        Checked choices among ``answer``, ``item_columns`` (see ``OPTIONS``).

    Returns
    -------
    ToolResult
        One judgement per accepted assignment, from the chosen ``Answer.*`` question.
    """
    source = report.source
    if "WorkerId" not in table.columns:
        raise AnnotationDataError(
            "the MTurk results have no 'WorkerId' column, so the workers who answered "
            "cannot be told apart.",
            source=source,
            hint="Download the batch results again (Requester UI, 'Download CSV'), which "
            "include WorkerId, or name the column that identifies the workers 'WorkerId'.",
        )
    rows = np.asarray(rows, dtype=np.int64)
    forms = _parse_task_answers(table, rows, source) if TASK_ANSWERS in table.columns else None
    available = questions(table, forms)
    if not available:
        raise AnnotationDataError(
            "the MTurk results hold no answers (the crowd-html form has no fields).",
            source=source,
            column=TASK_ANSWERS,
        )
    question = options.get("answer")
    if question is None:
        if len(available) > 1:
            raise AnnotationDataError(
                f"the MTurk results answer {len(available)} questions: "
                f"{', '.join(available)}; say which one to analyse.",
                source=source,
                hint=choose_hint("answer"),
            )
        question = available[0]
    question = choose(
        question, available, what="question", option="answer", source=source, tool=NAME
    )
    notes = [
        f"Analysed the answers in '{question}'"
        + (f" (of {len(available)} questions)." if len(available) > 1 else ".")
    ]
    labels = _labels(table, rows, forms, question, options.get("multilabel"), source, notes)
    item_cols = _item_columns(options)
    if item_cols is None:
        items = item_ids(table, ["HITId"], rows, source)
        notes.append("Items are HITs (HITId); annotators are workers (WorkerId).")
    else:
        items = item_ids(table, item_cols, rows, source)
        notes.append(
            f"Items are identified by {', '.join(item_cols)}; annotators are workers (WorkerId)."
        )
    return assignments_result(
        table,
        rows,
        report,
        tool=NAME,
        items=items,
        worker_column="WorkerId",
        labels=labels,
        status_column="AssignmentStatus",
        rejected_value="Rejected",
        statuses=("Submitted", "Approved", "Rejected"),
        notes=notes,
        label_field=question,
        columns={"answer": question, "export": EXPORT},
    )


def describe(table: pd.DataFrame) -> ToolInfo:
    """The choices a Mechanical Turk export offers, for the upload page.

    Parameters
    ----------
    table : pandas.DataFrame
        An MTurk batch results table.

    Returns
    -------
    ToolInfo
        The questions (``answer``) and ``Input.*`` columns (``item_columns``) to choose from.
    """
    forms = None
    if TASK_ANSWERS in table.columns:
        try:
            forms = _parse_task_answers(table, np.arange(len(table)) + 2, "")
        except AnnotationDataError:
            forms = None
    available = questions(table, forms)
    inputs = [str(c) for c in table.columns if str(c).startswith("Input.")]
    return ToolInfo(
        tool=NAME,
        choices={"answer": available, "item_columns": [None, *inputs]},
        defaults={"answer": available[0] if len(available) == 1 else None, "item_columns": None},
        help=dict(OPTIONS),
    )


EXPORT = "batch results CSV"
READER = ToolReader(NAME, OPTIONS, recognise, convert, describe, lambda table, fmt: EXPORT)
