"""Label Studio JSON exports: a list of tasks, each with ``data`` and ``annotations``.

Format (Label Studio docs, "Label Studio JSON format of annotated tasks",
https://labelstud.io/guide/task_format and the result format of each control tag)::

    [{"id": 1, "data": {...},
      "annotations": [{"id": 1001, "completed_by": 10, "was_cancelled": false,
                       "result": [{"from_name": "sentiment", "to_name": "text",
                                   "type": "choices",
                                   "value": {"choices": ["Positive"]}}]}],
      "predictions": [{"model_version": "v1", "result": [...]}]}]

Each annotation is one judgement of the task's item by ``completed_by`` (an id, or an
object whose ``email`` or ``id`` is used). The item is the task ``id``, or, when every
task's ``data`` holds an ``item`` (Concord's batch export writes the item id there), that
``data.item`` (a load report note says so; tasks of both kinds in one file are an error):
see :mod:`analytics.data.importers.label_studio_items`, which also recognises a tasks file
without annotations (an import file) to say so plainly. One labelling control (``from_name``) is
analysed at a time: by default the first item-level control met in the file; the report
names it and the others. Supported control types: ``choices`` (single, or several options
-> a label set), ``taxonomy`` (each selected path joined by ``/`` -> a label set or a
single path), ``rating`` and ``number``. Cancelled (skipped) annotations are counted and
left out; predictions are left out unless asked for (each model version then counts as
an annotator named ``model:<version>``). The legacy key ``completions`` (Label Studio
< 1.0) is read like ``annotations``.

Every annotation and prediction is one row of the load report, and so is a task with
neither: each becomes a judgement, or is counted among the skipped rows with its reason
(cancelled, no annotator, no answer for the control, predictions not asked for, entries
that are not objects), so rows = judgements + skipped. The flat exports (JSON-MIN, CSV)
are read by :mod:`analytics.data.importers.label_studio_flat`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_count
from analytics.data.cells import is_missing
from analytics.data.importers.base import (
    ToolInfo,
    ToolReader,
    ToolResult,
    choose,
    finish,
    settle_sets,
    skip,
)
from analytics.data.importers.label_studio_items import (
    check_tasks,
    is_task_file,
    no_annotations_yet,
    task_keys,
)
from analytics.data.importers.tool_cells import (
    TaxonomyPaths,
    id_problem,
    is_name,
    name_set,
    preview,
    tool_id_text,
)
from analytics.data.load_report import LoadReport, SkipNote

NAME = "Label Studio"
SET_TYPES = ("choices", "taxonomy")
VALUE_TYPES = ("rating", "number")
SUPPORTED = SET_TYPES + VALUE_TYPES
#: Why an annotation, a prediction or a task did not become a judgement.
SKIPS = {
    "empty": "tasks with no annotations (nothing to read)",
    "cancelled": "cancelled (skipped) annotations in Label Studio (was_cancelled)",
    "no_annotator": "annotations with no completed_by (annotator unknown)",
    "prediction": "model predictions, not read (include_predictions=True reads each "
    "model version as an annotator)",
    "junk_prediction": "entries of 'predictions' that are not prediction objects",
}
OPTIONS = {
    "from_name": "Which labelling control (from_name) to analyse; default: the first one.",
    "include_predictions": "Also read model predictions, one annotator per model version.",
    "multilabel": "Read choices as label sets (True) or single labels (False); "
    "default: sets when some annotation chose several options.",
}


def _annotation_key(table: pd.DataFrame) -> str | None:
    for key in ("annotations", "completions"):
        if key in table.columns:
            return key
    return None


def recognise(table: pd.DataFrame) -> bool:
    """A list of tasks: an ``annotations`` column with some list (or object) cell, or an
    ``annotations`` column next to a ``data`` column with some object cell; or a tasks
    file with no annotations at all (only task keys, a ``data`` object in every row), so
    that :func:`convert` can say it holds nothing annotated yet.

    Deliberately broad: a malformed export (tasks without ``data``, ``annotations`` as
    text) is still recognised, so that :func:`convert` can say what is wrong instead of
    the plain loader reading it as a wide table of dict reprs. A delimited file cannot
    hold list or object cells, so plain tables with an ``annotations`` column are left
    alone.

    Parameters
    ----------
    table : pandas.DataFrame
        Any raw table; True only for a Label Studio task list.

    Returns
    -------
    bool
    """
    key = _annotation_key(table)
    if key is None:  # a tasks file not annotated yet: recognised, to say so
        return is_task_file(table)
    if any(isinstance(a, (list, dict)) for a in table[key].to_numpy(object)):
        return True
    return "data" in table.columns and any(
        isinstance(d, dict) for d in table["data"].to_numpy(object)
    )


def cancelled_flag(flag: Any, row: int, source: str, text_rows: list[int]) -> bool:
    """``was_cancelled``: JSON true/false (null or absent: not cancelled).

    The text "true"/"false" (any case; a spreadsheet or script may have quoted the
    booleans) is read strictly as that boolean and reported in a note; anything else
    (numbers, "yes", objects) is an error rather than a guess.
    """
    if flag is None or isinstance(flag, bool):
        return bool(flag)
    if isinstance(flag, str) and flag.strip().lower() in ("true", "false"):
        text_rows.append(row)
        return flag.strip().lower() == "true"
    raise AnnotationDataError(
        f"an annotation's 'was_cancelled' is {preview(flag)}, not true or false.",
        source=source,
        rows=[row],
        hint="Label Studio writes true or false; correct the value or export again.",
    )


def _annotator(completed_by: Any, row: int, source: str) -> str | None:
    """``completed_by`` is a user id, or (API exports) an object with email and id.

    Anything else (a list of users, an object inside the object) is an error naming
    the field and the task's row, never an id made of its text.
    """
    if isinstance(completed_by, dict):
        for key in ("email", "id", "username"):
            if not is_missing(completed_by.get(key)):
                field = f"completed_by.{key}"
                return tool_id_text(completed_by[key], field=field, row=row, source=source)
        return None
    return tool_id_text(completed_by, field="completed_by", row=row, source=source)


class _Entry:
    """One annotation (or prediction) of one task, with its results by control."""

    __slots__ = ("annotator", "item", "results", "row", "task")

    def __init__(
        self, item: str, annotator: str | None, row: int, results: dict[str, list], task: str
    ):
        self.item, self.annotator, self.row, self.results = item, annotator, row, results
        self.task = task  # "task <id>", for messages


def _kind(result: dict) -> str:
    """A result's control type: its ``type``, else the first key of its value."""
    kind = result.get("type")
    if isinstance(kind, str) and kind:
        return kind
    return str(next(iter(result["value"]), ""))


def _results_by_control(
    result: Any, row: int, source: str, controls: dict[str, str], what: str = "an annotation"
) -> dict[str, list[dict]]:
    if not isinstance(result, list):
        raise AnnotationDataError(
            f"{what}'s 'result' is {preview(result)}, not a list of results.",
            source=source,
            rows=[row],
            hint="Export the project again from Label Studio; was the file edited?",
        )
    out: dict[str, list[dict]] = {}
    for r in result:
        if not isinstance(r, dict):
            raise AnnotationDataError(
                f"{what}'s 'result' holds {preview(r)}, not a result object.",
                source=source,
                rows=[row],
            )
        name = r.get("from_name")
        if name is None and (r.get("type") == "relation" or "from_id" in r):
            continue  # a relation between regions has no control
        if name is None or id_problem(name) is not None or not str(name).strip():
            shown = "absent" if "from_name" not in r else "null" if name is None else preview(name)
            raise AnnotationDataError(
                f"a result's 'from_name' is {shown}, not a control's name.",
                source=source,
                rows=[row],
                hint="Each result names its labelling control in from_name (text).",
            )
        if not isinstance(r.get("value"), dict):
            raise AnnotationDataError(
                f"a result of the control '{name}' has no 'value' object.",
                source=source,
                rows=[row],
                hint="Each result needs from_name, type and value.",
            )
        kind = _kind(r)
        controls.setdefault(str(name), kind)
        out.setdefault(str(name), []).append(r)
    return out


def _collect(
    table: pd.DataFrame, rows: np.ndarray, source: str, include_predictions: bool
) -> tuple[list[_Entry], dict[str, str], list[SkipNote], int, list[str]]:
    """Every usable annotation (and prediction, if asked), the controls met, the skips.

    Returns the entries, the controls, the skip notes, the number of rows read (each
    annotation, each prediction, each task with neither) and notes.
    """
    key = _annotation_key(table)  # None: a tasks file, no annotations yet
    check_tasks(table, rows, source, key)
    items, tasks, item_notes = task_keys(table, rows, source)
    anns = table[key].to_numpy(object) if key is not None else np.full(len(table), None)
    preds = (
        table["predictions"].to_numpy(object)
        if "predictions" in table.columns
        else np.full(len(table), None)
    )
    controls: dict[str, str] = {}
    entries: list[_Entry] = []
    skips: dict[str, list[int]] = {k: [] for k in SKIPS}
    cancel_as_text: list[int] = []
    n_read = n_anns = n_preds = n_preds_read = 0
    # Parsing nested JSON: one Python pass over the tasks is unavoidable here.
    for item, task, task_anns, task_preds, row in zip(items, tasks, anns, preds, rows, strict=True):
        row = int(row)
        task_anns = task_anns if isinstance(task_anns, list) else []  # else missing
        task_preds = task_preds if isinstance(task_preds, list) else []
        n_read += max(1, len(task_anns) + len(task_preds))
        n_anns, n_preds = n_anns + len(task_anns), n_preds + len(task_preds)
        if not task_anns and not task_preds:
            skips["empty"].append(row)
        for a in task_anns:
            if not isinstance(a, dict):
                raise AnnotationDataError(
                    f"the task's '{key}' list holds {preview(a)}, not an annotation object.",
                    source=source,
                    rows=[row],
                )
            if cancelled_flag(a.get("was_cancelled"), row, source, cancel_as_text):
                skips["cancelled"].append(row)
                continue
            if "result" not in a:
                raise AnnotationDataError(
                    "an annotation has no 'result'.",
                    source=source,
                    rows=[row],
                    hint="Export the project again from Label Studio; was the file edited?",
                )
            who = _annotator(a.get("completed_by"), row, source)
            if who is None:
                skips["no_annotator"].append(row)
                continue
            results = _results_by_control(a["result"], row, source, controls)
            entries.append(_Entry(item, who, row, results, task))
        for p in task_preds:
            if not isinstance(p, dict):
                skips["junk_prediction"].append(row)
            elif not include_predictions:
                skips["prediction"].append(row)
            else:
                version = tool_id_text(
                    p.get("model_version"), field="model_version", row=row, source=source
                )
                results = _results_by_control(
                    p.get("result", []), row, source, controls, "a prediction"
                )
                entries.append(_Entry(item, f"model:{version or 'unnamed'}", row, results, task))
                n_preds_read += 1
    skipped = [skip(SKIPS[k], r) for k, r in skips.items()]
    notes = [
        f"Label Studio JSON export: {format_count(len(table), 'task')} holding "
        f"{format_count(n_anns, 'annotation')} and {format_count(n_preds, 'prediction')}; each "
        f"annotation and prediction (and each task with neither) counts as a row, {n_read} in all."
    ]
    notes += item_notes
    if n_preds_read:
        notes.append(
            f"{format_count(n_preds_read, 'prediction')} read as annotators 'model:<version>'."
        )
    if cancel_as_text:
        notes.append(
            f"{format_count(len(cancel_as_text), 'annotation')} gave 'was_cancelled' as text, not "
            "a JSON boolean: read strictly, 'true' as cancelled and 'false' as kept."
        )
    return entries, controls, skipped, n_read, notes


def _value(result: dict, kind: str, control: str, entry: _Entry, paths: TaxonomyPaths) -> Any:
    """The label of one result, after checking its shape against the documented format:
    ``choices`` a list of option names, ``taxonomy`` a list of paths (each a list of
    names), ``rating``/``number`` a number (null: no answer). A wrong shape is an error,
    never a guess (a string would otherwise be split into one-letter options).
    """
    source = paths.source
    value = result["value"]
    where = f"{entry.task}, the control '{control}'"
    if kind not in value:
        raise AnnotationDataError(
            f"{where}: the result's value has no '{kind}' (keys: {preview(sorted(map(str, value)))}).",
            source=source,
            rows=[entry.row],
            hint=f"A {kind} result holds its answer under 'value': {{'{kind}': ...}}.",
        )
    v = value[kind]
    shape = None
    if kind == "choices":
        names = name_set(v)
        if names is not None:
            return names
        shape = 'a list of option names, e.g. ["Positive"]'
    elif kind == "taxonomy":
        if isinstance(v, list) and all(name_set(p) is not None for p in v):
            return paths.join(v, entry.row)
        shape = 'a list of paths, each a list of names, e.g. [["Sports", "Football"]]'
    else:
        if v is None or (is_name(v) and not isinstance(v, str)):
            return v
        shape = "a number"
    raise AnnotationDataError(
        f"{where}: '{kind}' is {preview(v)}, not {shape}.",
        source=source,
        rows=[entry.row],
        hint="Export the project again from Label Studio; was the file edited?",
    )


def convert(
    table: pd.DataFrame, rows: np.ndarray, report: LoadReport, options: Mapping[str, Any]
) -> ToolResult:
    """The long form of a Label Studio export.

    Parameters
    ----------
    table, rows, report : pandas.DataFrame, ndarray of int, LoadReport
        A Label Studio task list, as :func:`~analytics.data.reading.read_table` returned it.
    options : Mapping
        Checked choices among ``from_name``, ``include_predictions``, ``multilabel`` (see ``OPTIONS``).

    Returns
    -------
    ToolResult
        One judgement per annotation of the chosen control; sets for multi-choice controls.
    """
    source = report.source
    include = bool(options.get("include_predictions", False))
    entries, controls, skipped, n_read, read_notes = _collect(table, rows, source, include)
    usable = [name for name, kind in controls.items() if kind in SUPPORTED]
    if not controls and _annotation_key(table) is None:
        raise no_annotations_yet(table, source)
    if not controls:
        why = "; ".join(str(sk) for sk in skipped if sk.count)
        raise AnnotationDataError(
            "the Label Studio export holds no judgements: no annotation has a result"
            + (f" ({why})." if why else "."),
            source=source,
            hint="Export after annotating, with the annotations included.",
        )
    chosen = options.get("from_name")
    if chosen is None:
        if not usable:
            found = ", ".join(f"'{n}' ({k})" for n, k in controls.items())
            raise AnnotationDataError(
                f"none of the labelling controls is an item-level label: {found}.",
                source=source,
                hint=f"Concord reads the control types {', '.join(SUPPORTED)}; regions "
                "and free text are not labels of the whole item.",
            )
        chosen = usable[0]
    chosen = choose(
        chosen,
        list(controls),
        what="labelling control",
        option="from_name",
        source=source,
        tool=NAME,
    )
    kind = controls[chosen]
    if kind not in SUPPORTED:
        raise AnnotationDataError(
            f"the control '{chosen}' is of type '{kind}', not an item-level label.",
            source=source,
            hint=f"Choose a control of type {', '.join(SUPPORTED)}"
            + (f": {', '.join(usable)}." if usable else "."),
        )
    values: list[Any] = []
    per_region: list[int] = []
    paths = TaxonomyPaths(source, chosen)
    for e in entries:
        results = e.results.get(chosen, [])
        if len(results) > 1:
            per_region.append(e.row)
        values.append(_value(results[0], kind, chosen, e, paths) if results else None)
    if per_region:
        raise AnnotationDataError(
            f"the control '{chosen}' has several results in one annotation "
            "(a per-region classification), so it is not one label per item.",
            source=source,
            rows=per_region,
            hint="Choose a control that labels the whole task.",
        )
    notes = [
        read_notes[0],  # the rows: tasks, annotations, predictions
        f"Analysed the labelling control '{chosen}' ({kind})"
        + (
            f"; other controls: {', '.join(repr(n) for n in controls if n != chosen)}"
            f" (choose one with from_name=)."
            if len(controls) > 1
            else "."
        ),
        *read_notes[1:],
    ]
    answered = np.fromiter((v is not None for v in values), bool, len(values))
    entry_rows = np.fromiter((e.row for e in entries), np.int64, len(entries))
    if kind in SET_TYPES:
        labels, multi, why = settle_sets(values, options.get("multilabel"))
        notes.append(f"'{chosen}': {why}.")
        if multi and (~answered).any():
            notes.append(
                f"{format_count(int((~answered).sum()), 'annotation')} had no '{chosen}' result: "
                "read as the empty set (no option ticked)."
            )
        answered = np.fromiter((lab is not None for lab in labels), bool, len(labels))
    else:
        labels = values
    skipped.append(
        skip(f"annotations without an answer for the control '{chosen}'", entry_rows[~answered])
    )
    keep = np.flatnonzero(answered)
    return finish(
        report,
        tool=NAME,
        items=[entries[i].item for i in keep],
        annotators=[entries[i].annotator for i in keep],
        labels=[labels[i] for i in keep],
        rows=entry_rows[keep],
        skipped=skipped,
        notes=notes,
        columns={"from_name": chosen, "type": kind, "controls": dict(controls), "export": "JSON"},
        n_rows=n_read,
    )


def describe(table: pd.DataFrame) -> ToolInfo:
    """The choices a Label Studio export offers, for the upload page.

    Parameters
    ----------
    table : pandas.DataFrame
        A Label Studio task list.

    Returns
    -------
    ToolInfo
        The controls to choose from (``from_name``) and whether predictions exist.
        Malformed entries are passed over here (never an exception): loading the file
        names them.
    """
    controls: dict[str, str] = {}
    has_predictions = False
    key = _annotation_key(table)
    for task_anns, task_preds in zip(
        table[key].to_numpy(object) if key is not None else [None] * len(table),
        table["predictions"].to_numpy(object)
        if "predictions" in table.columns
        else [None] * len(table),
        strict=True,
    ):
        groups = (
            [a for a in task_anns if isinstance(a, dict)] if isinstance(task_anns, list) else []
        )
        if isinstance(task_preds, list):
            preds = [p for p in task_preds if isinstance(p, dict)]
            has_predictions = has_predictions or bool(preds)
            groups += preds
        for a in groups:
            results = a.get("result")
            for r in results if isinstance(results, list) else []:
                if (
                    isinstance(r, dict)
                    and r.get("from_name") is not None
                    and id_problem(r["from_name"]) is None
                    and isinstance(r.get("value"), dict)
                ):
                    controls.setdefault(str(r["from_name"]), _kind(r))
    usable = [n for n, k in controls.items() if k in SUPPORTED]
    return ToolInfo(
        tool=NAME,
        choices={
            "from_name": usable,
            "include_predictions": [False, True] if has_predictions else [False],
        },
        defaults={"from_name": usable[0] if usable else None, "include_predictions": False},
        help=dict(OPTIONS),
        export="JSON",
    )


def _export(table: pd.DataFrame, fmt: str | None) -> str:
    """``"JSON"``; ``"JSON tasks, not annotated yet"`` for a task list without annotations."""
    return "JSON" if _annotation_key(table) is not None else "JSON tasks, not annotated yet"


READER = ToolReader(NAME, OPTIONS, recognise, convert, describe, _export)
