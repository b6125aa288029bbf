"""Prodigy database exports (``prodigy db-out <dataset>``): one JSON task per line.

Format (Prodigy docs, "Annotation task formats" and "db-out"): every saved task keeps
its input (``text`` ...), the hashes ``_input_hash`` (same input -> same hash) and
``_task_hash`` (same question about it), the ``answer`` (``accept``, ``reject`` or
``ignore``), ``_timestamp``, and in multi-user setups ``_annotator_id`` and
``_session_id`` (``<dataset>-<session name>``).

Two kinds of item-level tasks become judgements:

* binary tasks (``classification`` view): a ``label`` with an accept/reject answer. Each
  label is one category; ``accept`` means the label applies, ``reject`` that it does
  not. All the binary answers of one annotator on one input make one label set.
* choice tasks (``choice`` view): ``options`` and the ``accept`` list of chosen option
  ids. Several chosen ids (or ``"choice_style": "multiple"`` in the task's config) make
  label sets; otherwise single labels. A rejected choice task (the annotator rejected
  the question itself) is skipped and counted.

Items are grouped by ``_input_hash`` and annotators by ``_annotator_id`` (else
``_session_id``). ``ignore`` answers are skipped and counted.
"""

from __future__ import annotations

from collections.abc import Mapping
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
    column,
    finish,
    settle_sets,
    skip,
)
from analytics.data.importers.tool_cells import name_set, preview, tool_ids
from analytics.data.load_report import LoadReport

NAME = "Prodigy"
ANSWERS = ("accept", "reject", "ignore")
ANNOTATOR_KEYS = ("_annotator_id", "_session_id")
OPTIONS = {
    "annotator_key": "Which field names the annotator: '_annotator_id' (default) or '_session_id'.",
    "multilabel": "Read choice tasks as label sets (True) or single labels (False); "
    "default: sets when the config says 'multiple' or someone chose several options.",
}


def recognise(table: pd.DataFrame) -> bool:
    """Prodigy's hashes next to an ``answer`` field.

    Parameters
    ----------
    table : pandas.DataFrame
        Any raw table; True only for prodigy ``db-out`` records.

    Returns
    -------
    bool
    """
    cols = set(table.columns)
    return "answer" in cols and ("_input_hash" in cols or "_task_hash" in cols)


def _annotator_key(table: pd.DataFrame, options: Mapping[str, Any], source: str) -> str:
    present = [k for k in ANNOTATOR_KEYS if k in table.columns and table[k].notna().any()]
    if "annotator_key" in options:
        return choose(
            options["annotator_key"],
            present,
            what="annotator field",
            option="annotator_key",
            source=source,
            tool=NAME,
        )
    if not present:
        raise AnnotationDataError(
            "the Prodigy export names no annotators (no '_annotator_id' or '_session_id').",
            source=source,
            hint="Export a dataset annotated in named sessions (…?session=name), or "
            "add an annotator column and load it as a plain table.",
        )
    return present[0]


def _tasks_have(n: int) -> str:
    """``"1 task has"`` or ``"3 tasks have"``: how a message about some tasks begins."""
    return f"{format_count(n, 'task')} {'has' if n == 1 else 'have'}"


def convert(
    table: pd.DataFrame, rows: np.ndarray, report: LoadReport, options: Mapping[str, Any]
) -> ToolResult:
    """The long form of a Prodigy export.

    Parameters
    ----------
    table, rows, report : pandas.DataFrame, ndarray of int, LoadReport
        Prodigy ``db-out`` records, as :func:`~analytics.data.reading.read_table` returned it.
    options : Mapping
        Checked choices among ``annotator_key`` (see ``OPTIONS``).

    Returns
    -------
    ToolResult
        One judgement per answered task; accepted binary labels of one input grouped into sets.
    """
    source = report.source
    rows = np.asarray(rows, dtype=np.int64)
    if "_input_hash" not in table.columns:
        raise AnnotationDataError(
            "the Prodigy export has no '_input_hash', so tasks cannot be grouped by input.",
            source=source,
            hint="Export with 'prodigy db-out', which keeps the hashes.",
        )
    items = tool_ids(column(table, "_input_hash"), rows, field="_input_hash", source=source)
    no_hash = np.flatnonzero([v is None for v in items])
    if len(no_hash):
        raise AnnotationDataError(
            f"{_tasks_have(len(no_hash))} no '_input_hash'.",
            source=source,
            rows=rows[no_hash].tolist(),
            hint="Every task in a 'prodigy db-out' export has one; was the file edited?",
        )
    raw_answers = column(table, "answer")
    answers = np.array(
        [a.strip().lower() if isinstance(a, str) else "" for a in raw_answers], dtype=object
    )
    bad = np.flatnonzero(~np.isin(answers, ANSWERS))
    if len(bad):
        shown = [preview(a) if not is_missing(a) else "<missing>" for a in raw_answers[bad[:5]]]
        raise AnnotationDataError(
            f"{_tasks_have(len(bad))} an answer other than accept/reject/ignore: {shown}.",
            source=source,
            column="answer",
            rows=rows[bad].tolist(),
            hint="Every task of a 'prodigy db-out' export has an answer: set it, or remove "
            "the tasks that were never answered.",
        )
    key = _annotator_key(table, options, source)
    annotators = tool_ids(column(table, key), rows, field=key, source=source)
    accept_cells = column(table, "accept")
    labels = column(table, "label")
    is_choice = np.fromiter((isinstance(v, list) for v in accept_cells), bool, len(table))
    is_binary = ~is_choice & np.fromiter(
        (isinstance(v, str) and bool(v.strip()) for v in labels), bool, len(table)
    )
    odd_label = np.flatnonzero(
        [not isinstance(v, str) and not is_missing(v) for v in labels] & ~is_choice
    )
    if len(odd_label):
        raise AnnotationDataError(
            f"{_tasks_have(len(odd_label))} a 'label' that is {preview(labels[odd_label[0]])}, "
            "not a label name (text).",
            source=source,
            column="label",
            rows=rows[odd_label].tolist(),
            hint='A binary task asks about one label, e.g. "label": "SPORTS".',
        )
    odd = np.flatnonzero([isinstance(v, list) and name_set(v) is None for v in accept_cells])
    if len(odd):
        raise AnnotationDataError(
            f"{_tasks_have(len(odd))} an 'accept' list holding something other than option "
            f"ids (e.g. {preview(accept_cells[odd[0]])}).",
            source=source,
            column="accept",
            rows=rows[odd].tolist(),
            hint='A choice task lists the ids of the chosen options, e.g. "accept": ["SPORTS"].',
        )
    ignored = answers == "ignore"
    neither = ~is_choice & ~is_binary & ~ignored
    if neither.any():
        raise AnnotationDataError(
            f"{_tasks_have(int(neither.sum()))} neither a 'label' (binary task) nor an "
            "'accept' list (choice task), e.g. span or free-text annotations, which are "
            "not labels of the whole input.",
            source=source,
            rows=rows[neither].tolist(),
            hint="Export a text-classification dataset (binary or choice interface).",
        )
    if is_choice.any() and is_binary.any():
        raise AnnotationDataError(
            "the export mixes binary tasks (a 'label' to accept or reject) and choice tasks "
            "(an 'accept' list).",
            source=source,
            rows=rows[is_binary].tolist()[:20],
            hint="Export the two kinds as separate datasets and load them one at a time.",
        )
    nobody = ~ignored & (annotators == None)  # noqa: E711 - elementwise test for None
    skipped = [
        skip("tasks answered 'ignore' in Prodigy", rows[ignored]),
        skip(f"tasks with no annotator ('{key}' empty)", rows[nobody]),
    ]
    notes = [f"Items are Prodigy inputs (_input_hash); annotators come from '{key}'."]
    use = ~ignored & ~nobody
    if is_choice.any():
        notes += _check_choices(table, rows, is_choice, accept_cells, labels, source)
        return _choice(
            table,
            rows,
            report,
            options,
            items,
            annotators,
            answers,
            accept_cells,
            use,
            skipped,
            notes,
        )
    return _binary(rows, report, items, annotators, answers, labels, use, skipped, notes)


def _binary(rows, report, items, annotators, answers, labels, use, skipped, notes) -> ToolResult:
    """One label set per (input, annotator): the labels accepted; rejected ones are absent."""
    frame = pd.DataFrame(
        {
            "item": items[use],
            "annotator": annotators[use],
            "label": np.array([str(v).strip() for v in labels[use]], dtype=object),
            "accept": answers[use] == "accept",
            "row": rows[use],
        }
    )
    repeated = frame.duplicated(["item", "annotator", "label"], keep="last").to_numpy()
    skipped.append(
        skip(
            "repeated binary answers to the same label by the same annotator (the last one "
            "was kept)",
            frame["row"].to_numpy()[repeated],
        )
    )
    frame = frame[~repeated]
    all_labels = frozenset(frame["label"])
    grouped = frame.groupby(["item", "annotator"], sort=False, dropna=False)
    # the accepted labels of each pair; pairs that accepted nothing get the empty set
    accepted = (
        frame[frame["accept"]]
        .groupby(["item", "annotator"], sort=False)["label"]
        .agg(frozenset)
        .reindex(grouped.size().index)
    )
    accepted = accepted.map(lambda s: s if isinstance(s, frozenset) else frozenset())
    asked = grouped["label"].nunique()
    first_row = grouped["row"].min()
    not_all = int((asked < len(all_labels)).sum())
    each = "the label" if len(all_labels) == 1 else f"each of the {len(all_labels):,} labels"
    notes.append(
        f"Binary tasks: {each} is a category; 'accept' means the label applies, 'reject' that it "
        "does not; one label set per input and annotator."
    )
    if not_all:
        notes.append(
            f"{format_count(not_all, 'input/annotator pair')} {'was' if not_all == 1 else 'were'} "
            "not asked about every label; labels not asked are read as absent."
        )
    keys = accepted.index
    notes.append(
        f"{format_count(len(frame), 'binary answer line')} made "
        f"{format_count(len(keys), 'judgement')}, one label set per input and annotator "
        "(rows = answer lines + skipped)."
    )
    return finish(
        report,
        tool=NAME,
        items=list(keys.get_level_values(0)),
        annotators=list(keys.get_level_values(1)),
        labels=list(accepted.to_numpy(object)),
        rows=first_row.to_numpy(np.int64),
        skipped=skipped,
        notes=notes,
        columns={
            "task": "binary",
            "labels": sorted(all_labels),
            "answers": len(frame),
            "export": EXPORT,
        },
    )


def _choice(
    table, rows, report, options, items, annotators, answers, accept_cells, use, skipped, notes
) -> ToolResult:
    rejected = use & (answers == "reject")
    skipped.append(
        skip("choice tasks answered 'reject' (the question itself was rejected)", rows[rejected])
    )
    keep = use & ~rejected
    sets = [name_set(accept_cells[i]) for i in np.flatnonzero(keep)]  # checked in convert
    declared, style = options.get("multilabel"), None
    if declared is None:
        style = _choice_style(column(table, "config"), rows, keep, sets, report.source, notes)
        declared = None if style is None else style == "multiple"
    by = "as chosen" if style is None else f"as the task config says (choice_style '{style}')"
    labels, multi, why = settle_sets(sets, declared, by)
    notes.append(f"Choice tasks: {why}.")
    labels_arr = np.empty(len(labels), dtype=object)
    labels_arr[:] = labels
    answered = np.fromiter((v is not None for v in labels), bool, len(labels))
    kept_rows = rows[keep]
    skipped.append(skip("choice tasks accepted without choosing an option", kept_rows[~answered]))
    return finish(
        report,
        tool=NAME,
        items=items[keep][answered],
        annotators=annotators[keep][answered],
        labels=labels_arr[answered],
        rows=kept_rows[answered],
        skipped=skipped,
        notes=notes,
        columns={"task": "choice", "multilabel": multi, "export": EXPORT},
    )


def _check_choices(
    table: pd.DataFrame,
    rows: np.ndarray,
    is_choice: np.ndarray,
    accept_cells: np.ndarray,
    labels: np.ndarray,
    source: str,
) -> list[str]:
    """Each choice task's ``options`` and the ids it accepted among them.

    Parameters
    ----------
    table : pandas.DataFrame
        The export.
    rows : ndarray of int
        The line of each task.
    is_choice : ndarray of bool
        The choice tasks (an ``accept`` list, checked to hold option ids).
    accept_cells, labels : ndarray of object
        The ``accept`` and ``label`` fields.
    source : str
        The file name.

    Returns
    -------
    list of str
        Notes: tasks without ``options`` (their ids could not be checked) and choice
        tasks that also carry a ``label`` (not read).

    Raises
    ------
    AnnotationDataError
        ``options`` that is not a list of objects with an option id each, or an accepted
        id that is not among the task's options (it would become a category nobody was
        offered), naming the lines.
    """
    offered = column(table, "options")
    absent, shape, outside, example = [], [], [], ""
    for k in np.flatnonzero(is_choice):
        opts = offered[k]
        if not isinstance(opts, (list, dict, str)) and is_missing(opts):
            absent.append(k)
            continue
        ids = None
        if isinstance(opts, list) and all(isinstance(o, dict) for o in opts):
            ids = name_set([o.get("id") for o in opts])
        if ids is None:
            shape.append(k)
            continue
        unknown = name_set(accept_cells[k]) - ids
        if unknown and not outside:
            example = f"{show_text(min(unknown))} (options: {preview(sorted(ids))})"
        outside += [k] if unknown else []
    if shape:
        raise AnnotationDataError(
            f"{_tasks_have(len(shape))} 'options' that are not a list of option objects with an "
            f"'id' each (e.g. {preview(offered[shape[0]])}).",
            source=source,
            column="options",
            rows=rows[shape].tolist(),
            hint='A choice task offers [{"id": "SPORTS", "text": "Sports"}, ...]; export the '
            "dataset again with 'prodigy db-out'.",
        )
    if outside:
        raise AnnotationDataError(
            f"{_tasks_have(len(outside))} an 'accept' id that is not among the task's options, "
            f"e.g. {example}.",
            source=source,
            column="accept",
            rows=rows[outside].tolist(),
            hint="'accept' lists ids of the task's own options; correct the id (or the "
            "options), or leave the task out of the file.",
        )
    notes = []
    if absent:
        notes.append(
            f"{format_count(len(absent), 'choice task')} {'has' if len(absent) == 1 else 'have'} "
            "no 'options', so the ids accepted could not be checked against the options offered."
        )
    named = [k for k in np.flatnonzero(is_choice) if isinstance(labels[k], str) and labels[k]]
    if named:
        notes.append(
            f"{format_count(len(named), 'choice task')} also {'has' if len(named) == 1 else 'have'}"
            f" a 'label' (e.g. {show_text(labels[named[0]])}; {'line' if len(named) == 1 else 'lines'} "
            f"{', '.join(map(str, rows[named[:5]]))}{' ...' if len(named) > 5 else ''}), not "
            "read: a choice task's answer is its 'accept' list."
        )
    return notes


def _choice_style(
    configs: np.ndarray,
    rows: np.ndarray,
    keep: np.ndarray,
    sets: list,
    source: str,
    notes: list[str],
) -> str | None:
    """The ``choice_style`` the tasks' ``config`` declares: 'single', 'multiple' or None.

    A config that is not an object, or a style other than those two, is not read (a
    note says so); tasks declaring both styles are an error, and so are tasks declared
    'single' that accepted several options. Tasks without a style follow the others.
    """
    where: dict[str, list[int]] = {"single": [], "multiple": []}
    odd = []
    for k, c in enumerate(configs):
        style = c.get("choice_style") if isinstance(c, dict) else None
        if style in where:
            where[style].append(k)
        elif style is not None or not (isinstance(c, dict) or is_missing(c)):
            odd.append(k)
    if odd:
        notes.append(
            f"{format_count(len(odd), 'task')} {'has' if len(odd) == 1 else 'have'} a 'config' "
            f"that is not an object with choice_style 'single' or 'multiple' (e.g. "
            f"{preview(configs[odd[0]])}, line {rows[odd[0]]}): not read."
        )
    single, multiple = where["single"], where["multiple"]
    if single and multiple:
        few = single if len(single) <= len(multiple) else multiple
        raise AnnotationDataError(
            f"the tasks declare both choice styles: {len(single):,} 'single' and "
            f"{len(multiple):,} 'multiple', so the answers are not one kind of label.",
            source=source,
            column="config",
            rows=rows[few].tolist(),
            hint="Export the datasets of the two styles separately and load them one at a time.",
        )
    kept = np.flatnonzero(keep)
    several = [int(kept[j]) for j, s in enumerate(sets) if s is not None and len(s) > 1]
    if single and several:
        raise AnnotationDataError(
            f"the task config declares choice_style 'single', but {format_count(len(several), 'task')} "
            f"accepted several options.",
            source=source,
            column="accept",
            rows=rows[several].tolist(),
            hint="Correct those tasks, or load with multilabel=True to read label sets.",
        )
    style = "single" if single else "multiple" if multiple else None
    silent = len(configs) - len(single) - len(multiple) - len(odd)
    if style is not None and silent:
        notes.append(
            f"{format_count(silent, 'task')} {'declares' if silent == 1 else 'declare'} no "
            f"choice_style: read like the others ('{style}')."
        )
    return style


def describe(table: pd.DataFrame) -> ToolInfo:
    """The choices a Prodigy export offers, for the upload page.

    Parameters
    ----------
    table : pandas.DataFrame
        Prodigy ``db-out`` records.

    Returns
    -------
    ToolInfo
        The annotator fields present (``annotator_key``).
    """
    present = [k for k in ANNOTATOR_KEYS if k in table.columns and table[k].notna().any()]
    return ToolInfo(
        tool=NAME,
        choices={"annotator_key": present},
        defaults={"annotator_key": present[0] if present else None},
        help=dict(OPTIONS),
    )


EXPORT = "db-out JSONL"
READER = ToolReader(NAME, OPTIONS, recognise, convert, describe, lambda table, fmt: EXPORT)
