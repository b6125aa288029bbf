"""Label Studio's flat exports: JSON-MIN, CSV and TSV, one record per annotation.

Format (Label Studio's export converter, ``convert_to_json_min`` and ``csv2.convert`` in
``label_studio_converter`` / ``label_studio_sdk.converter``): one record per submitted
annotation, holding the task's data fields (at the top level), the task ``id``,
``annotator`` (the annotator's email, else the user id), ``annotation_id``,
``created_at``, ``updated_at`` and ``lead_time`` (CSV and TSV add ``was_cancelled``;
both may add ``agreement``), and one key per labelling control (its ``from_name``)
holding the answer:

* ``Choices``: the option (text) when one option is chosen, else ``{"choices": [...]}``;
* ``Rating``, ``Number``, ``Taxonomy``: the list of the results' values, e.g.
  ``[{"rating": 4}]``, ``[{"number": 2.5}]``, ``[{"taxonomy": [["Sports", "Football"]]}]``;
* other controls (free text, regions): other shapes, not labels of the whole item.

CSV and TSV write every answer that is not text as JSON text. The export leaves out
cancelled annotations (a CSV row whose ``was_cancelled`` is true is counted and skipped);
a task without annotations is one record with no annotator and no answers (counted and
skipped). Recognised by the five annotation columns, never by the file name.

The task's data fields and the controls share the top level, so a control is told from
a data field by its answers: a structured answer (``{"choices": ...}``, ``[{"rating":
...}]``), or text that differs between two annotations of one task (a task's data is
the same in all its records). Text columns that could be either are offered as
``from_name`` choices; when several remain and none is certain, ``from_name`` must be
given (an error lists them) rather than guessed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError, show_text
from analytics._core.formatting import format_count
from analytics.data.cells import id_text, is_missing
from analytics.data.importers.base import (
    ToolInfo,
    ToolReader,
    ToolResult,
    choose,
    choose_hint,
    column,
    finish,
    settle_sets,
    skip,
)
from analytics.data.importers.label_studio import NAME, SKIPS
from analytics.data.importers.label_studio import OPTIONS as FULL_OPTIONS
from analytics.data.importers.tool_cells import (
    TaxonomyPaths,
    id_problem,
    is_name,
    name_set,
    preview,
    tool_ids,
)
from analytics.data.json_records import RepeatedKey, loads_strict, repeated_key_hint
from analytics.data.load_report import LoadReport

#: Written in every record of a flat export.
ANNOTATION_COLUMNS = ("annotator", "annotation_id", "created_at", "updated_at", "lead_time")
#: Other columns that are neither data nor a control.
META = frozenset({"id", "was_cancelled", "agreement", *ANNOTATION_COLUMNS})
VALUE_KINDS = ("rating", "number", "taxonomy")
OPTIONS = {k: FULL_OPTIONS[k] for k in ("from_name", "multilabel")}


def recognise(table: pd.DataFrame) -> bool:
    """The five annotation columns every flat export writes, without a task list.

    Parameters
    ----------
    table : pandas.DataFrame
        Any raw table; True only for a Label Studio JSON-MIN, CSV or TSV export.

    Returns
    -------
    bool
    """
    cols = {str(c) for c in table.columns}
    return set(ANNOTATION_COLUMNS) <= cols and not cols & {"annotations", "completions"}


def export(table: pd.DataFrame, fmt: str | None) -> str:
    """Which flat export: ``"JSON-MIN"``, ``"CSV"`` or ``"TSV"``.

    Parameters
    ----------
    table : pandas.DataFrame
        The export.
    fmt : str or None
        The format it was read from; None: judged from the columns (only the CSV and
        TSV exports write ``was_cancelled``).

    Returns
    -------
    str
    """
    if fmt in ("json", "jsonl"):
        return "JSON-MIN"
    if fmt == "tsv":
        return "TSV"
    if fmt is None and "was_cancelled" not in table.columns:
        return "JSON-MIN"
    return "CSV"


# ---------------------------------------------------------------------------- answers
def _shape(cell: Any, text_json: bool) -> tuple[str, Any]:
    """What one control cell holds: ``(kind, value)``.

    kind is "missing", "text" (one option, or a data field), "choices" (value: the
    list of options), one of VALUE_KINDS (value: the list of the results' values),
    "unreadable" (JSON text nested too deeply, or a number too long, to parse),
    "repeated" (value: a key that a JSON object gives twice) or "other" (anything
    else: not an item-level answer).
    """
    if isinstance(cell, str):
        text = cell.strip()
        if not text:
            return "missing", None
        if text_json and text[0] in "[{":
            try:
                cell = loads_strict(text)
            except RepeatedKey as exc:  # JSON would keep the last value: refused when read
                return "repeated", exc.key
            except json.JSONDecodeError:  # text such as "[draft]": an option's name
                return "text", cell
            except (ValueError, RecursionError):  # too deep, or a number too long
                return "unreadable", None
        else:
            return "text", cell
    elif not isinstance(cell, (dict, list)) and is_missing(cell):
        return "missing", None
    if isinstance(cell, dict):
        if set(cell) == {"choices"} and isinstance(cell["choices"], list):
            return "choices", cell["choices"]
        return "other", cell
    if isinstance(cell, list):
        if cell and all(isinstance(r, dict) and len(r) == 1 for r in cell):
            kinds = {next(iter(r)) for r in cell}
            if len(kinds) == 1 and (kind := next(iter(kinds))) in VALUE_KINDS:
                return kind, [r[kind] for r in cell]
        return "other", cell
    if text_json and is_name(cell):  # a CSV reader made the option "1" a number
        return "text", cell
    return "other", cell


def _controls(table: pd.DataFrame, items: np.ndarray, text_json: bool) -> tuple[list, list]:
    """The columns that are surely controls, and text columns that may be: (name, kind)."""
    sure: list[tuple[str, str]] = []
    maybe: list[tuple[str, str]] = []
    for name in (str(c) for c in table.columns if str(c) not in META):
        shapes = [_shape(c, text_json) for c in column(table, name)]
        found = {k for k, _ in shapes}
        kinds = found - {"missing", "unreadable", "repeated", "other"}
        structured = kinds - {"text"}
        if not kinds or len(structured) > 1 or ("other" in found and not structured):
            continue  # a data field (objects, numbers), or answers of several kinds
        if structured & set(VALUE_KINDS):  # odd cells are named when the column is read
            sure.append((name, structured.pop()))
            continue
        texts = pd.Series([str(v) if k == "text" else None for k, v in shapes], dtype=object)
        varies = bool((texts.groupby(items, dropna=True).nunique() > 1).any())
        (sure if "choices" in kinds or varies else maybe).append((name, "choices"))
    return sure, maybe


def _label(kind: str, value: Any, where: str, row: int, source: str, paths: TaxonomyPaths) -> Any:
    """The label of one answer of the chosen control; a wrong shape is an error."""
    if kind == "text":  # one option, as written (a CSV reader may have made "1" a number)
        return frozenset({value.strip() if isinstance(value, str) else str(id_text(value))})
    if kind == "choices":
        names = name_set(value)
        if names is not None:
            return names
        shape = 'a list of option names, e.g. {"choices": ["Positive", "Negative"]}'
    else:
        if len(value) > 1:
            raise AnnotationDataError(
                f"the control '{where}' holds several results in one annotation "
                "(a per-region answer), so it is not one label per item.",
                source=source,
                column=where,
                rows=[row],
                hint="Choose a control that labels the whole task with from_name=.",
            )
        (v,) = value
        if kind == "taxonomy":
            if isinstance(v, list) and all(name_set(p) is not None for p in v):
                return paths.join(v, row)
            shape = 'a list of paths, e.g. [{"taxonomy": [["Sports", "Football"]]}]'
        elif v is None or (is_name(v) and not isinstance(v, str)):
            return v
        else:
            shape = f'a number, e.g. [{{"{kind}": 4}}]'
    raise AnnotationDataError(
        f"the answer {preview(value)} is not {shape}.",
        source=source,
        column=where,
        rows=[row],
        hint="Export the project again from Label Studio; was the file edited?",
    )


def _cancelled(table: pd.DataFrame, rows: np.ndarray, source: str) -> np.ndarray:
    """``was_cancelled`` of each record (CSV): true/false, as a boolean or as text."""
    out = np.zeros(len(table), dtype=bool)
    for k, flag in enumerate(column(table, "was_cancelled")):
        if isinstance(flag, (bool, np.bool_)):
            out[k] = bool(flag)
        elif isinstance(flag, str) and flag.strip().lower() in ("true", "false", ""):
            out[k] = flag.strip().lower() == "true"
        elif not is_missing(flag) or isinstance(flag, (dict, list)):
            raise AnnotationDataError(
                f"'was_cancelled' is {preview(flag)}, not true or false.",
                source=source,
                column="was_cancelled",
                rows=[int(rows[k])],
                hint="Label Studio writes true or false; correct the value or export again.",
            )
    return out


# ---------------------------------------------------------------------------- reader
def convert(
    table: pd.DataFrame, rows: np.ndarray, report: LoadReport, options: Mapping[str, Any]
) -> ToolResult:
    """The long form of a Label Studio JSON-MIN, CSV or TSV export.

    Parameters
    ----------
    table, rows, report : pandas.DataFrame, ndarray of int, LoadReport
        A flat export, as :func:`~analytics.data.reading.read_table` returned it.
    options : Mapping
        Checked choices among ``from_name``, ``multilabel`` (see ``OPTIONS``).

    Returns
    -------
    ToolResult
        One judgement per annotation with an answer for the chosen control; every other
        record is counted among the skipped rows with its reason.
    """
    source = report.source
    rows = np.asarray(rows, dtype=np.int64)
    which = export(table, None if report.format == "dataframe" else report.format)
    text_json = which != "JSON-MIN"
    if "id" not in table.columns:
        raise AnnotationDataError(
            f"this looks like a Label Studio {which} export, but it has no 'id' column "
            "(the task id), so annotations cannot be grouped by task.",
            source=source,
            hint="Export the project again from Label Studio, with the task ids.",
        )
    items = tool_ids(column(table, "id"), rows, field="id", source=source)
    annotators = tool_ids(column(table, "annotator"), rows, field="annotator", source=source)
    annotation_ids = tool_ids(
        column(table, "annotation_id"), rows, field="annotation_id", source=source
    )
    no_task = np.flatnonzero(items == None)  # noqa: E711 - elementwise test for None
    if len(no_task):
        raise AnnotationDataError(
            f"{format_count(len(no_task), 'record')} {'has' if len(no_task) == 1 else 'have'} "
            "no task id.",
            source=source,
            column="id",
            rows=rows[no_task].tolist(),
            hint="Every record of a Label Studio export names its task; was the file edited?",
        )
    sure, maybe = _controls(table, items, text_json)
    chosen = options.get("from_name")
    if chosen is None:
        if not sure and len(maybe) != 1:
            raise AnnotationDataError(
                "say which column is the labelling control to analyse: "
                + (
                    f"the text columns {', '.join(repr(n) for n, _ in maybe)} could each be "
                    "a control or the task's data."
                    if maybe
                    else "no column holds item-level answers (choices, rating, number, taxonomy)."
                ),
                source=source,
                hint=choose_hint("from_name") if maybe else None,
            )
        chosen = (sure or maybe)[0][0]
    controls = dict(sure + maybe)
    chosen = choose(
        chosen,
        list(controls),
        what="labelling control",
        option="from_name",
        source=source,
        tool=f"{NAME} {which}",
    )
    kind = controls[chosen]
    cancelled = _cancelled(table, rows, source)
    no_annotation = (annotators == None) & (annotation_ids == None)  # noqa: E711
    no_annotator = (annotators == None) & ~no_annotation  # noqa: E711
    read = ~cancelled & ~no_annotation & ~no_annotator
    values: list[Any] = []
    paths = TaxonomyPaths(source, chosen)
    for cell, row in zip(column(table, chosen)[read], rows[read], strict=True):
        shape, value = _shape(cell, text_json)
        if shape == "repeated":
            raise AnnotationDataError(
                f"the answer of the control '{chosen}' gives the key {show_text(value)} twice.",
                source=source,
                column=chosen,
                rows=[int(row)],
                hint=repeated_key_hint(value),
            )
        if shape != "missing" and shape != kind and {shape, kind} != {"text", "choices"}:
            raise AnnotationDataError(
                "the answer "
                + (
                    "nests too deeply, or holds a number too long, to read"
                    if shape == "unreadable"
                    else f"{preview(cell)} is not a '{kind}' answer"
                )
                + f" of the control '{chosen}'.",
                source=source,
                column=chosen,
                rows=[int(row)],
                hint="Export the project again from Label Studio; was the file edited?",
            )
        values.append(
            None if shape == "missing" else _label(shape, value, chosen, int(row), source, paths)
        )
    notes = [
        f"Label Studio {which} export: one record per annotation ({len(table)} in all). "
        f"Analysed the labelling control '{chosen}' ({kind})"
        + (
            f"; other columns that may be controls: "
            f"{', '.join(repr(n) for n in controls if n != chosen)} (choose with from_name=)."
            if len(controls) > 1
            else "."
        )
    ]
    if kind in ("choices", "taxonomy"):
        labels, multi, why = settle_sets(values, options.get("multilabel"))
        notes.append(f"'{chosen}': {why}.")
        n_empty = sum(v is None for v in values) if multi else 0
        if n_empty:
            notes.append(
                f"{format_count(n_empty, 'annotation')} had no '{chosen}' answer: read as the "
                "empty set (no option ticked)."
            )
    else:
        labels = values
    answered = np.fromiter((v is not None for v in labels), bool, len(labels))
    read_rows = rows[read]
    skipped = [
        skip(SKIPS["empty"], rows[no_annotation]),
        skip(SKIPS["cancelled"], rows[cancelled & ~no_annotation]),
        skip("annotations with no annotator", rows[no_annotator & ~cancelled]),
        skip(f"annotations without an answer for the control '{chosen}'", read_rows[~answered]),
    ]
    label_arr = np.empty(len(labels), dtype=object)
    label_arr[:] = labels
    return finish(
        report,
        tool=NAME,
        items=items[read][answered],
        annotators=annotators[read][answered],
        labels=label_arr[answered],
        rows=read_rows[answered],
        skipped=skipped,
        notes=notes,
        columns={"from_name": chosen, "type": kind, "controls": controls, "export": which},
        label_field=chosen,
    )


def describe(table: pd.DataFrame) -> ToolInfo:
    """The choices a flat Label Studio export offers, for the upload page.

    Parameters
    ----------
    table : pandas.DataFrame
        A JSON-MIN, CSV or TSV export.

    Returns
    -------
    ToolInfo
        The columns that are (first) or may be labelling controls (``from_name``);
        a default only when one is certain or there is only one. Malformed cells are
        passed over here (never an exception): loading the file names them.
    """
    items = np.array(
        [None if id_problem(v) or is_missing(v) else str(v) for v in column(table, "id")],
        dtype=object,
    )
    sure, maybe = _controls(table, items, export(table, None) != "JSON-MIN")
    names = [n for n, _ in sure + maybe]
    default = names[0] if sure or len(maybe) == 1 else None
    return ToolInfo(
        tool=NAME,
        choices={"from_name": names},
        defaults={"from_name": default},
        help=dict(OPTIONS),
    )


READER = ToolReader(NAME, OPTIONS, recognise, convert, describe, export)
