"""Label Studio tasks: their checks, which id names an item, and task files not yet annotated.

Label Studio gives every task its own ``id`` when the task is imported; the full JSON
export (:mod:`analytics.data.importers.label_studio`) keys items on it. Concord's batch
export (:func:`analytics.next_labels.label_studio_tasks`) writes the item's id into the
task's data, as ``data.item`` (:data:`ITEM_FIELD`), so that the judgements collected in
Label Studio come back under the ids of the data the batch was chosen from. The rule:

* every task's ``data`` holds an ``item`` that is an id (text or a number, not empty):
  the items are those ids (a note of the load report says so). Tasks that share one (two
  batches of Concord imported into one project, an item chosen in both) pool their
  judgements under it, and a note says so and what to do if ``data.item`` is a field of
  the project's own (a product name) rather than the item id;
* otherwise the items are the task ids, as before, never a mix of the two: no task has
  one, or some tasks lack it (a note says why ``data.item`` was not used).

A tasks file as Concord's batch export writes it, or any Label Studio import file
(``data`` objects, no ``annotations`` yet), is recognised too, so that loading it says
plainly that nothing has been annotated yet instead of failing on its ``data`` objects.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError, show_text
from analytics._core.formatting import format_count
from analytics.data.cells import is_missing
from analytics.data.importers.tool_cells import id_problem, tool_id_text

__all__ = [
    "ITEM_FIELD",
    "TASK_KEYS",
    "check_tasks",
    "is_task_file",
    "no_annotations_yet",
    "task_ids",
    "task_items",
    "task_keys",
]

#: The key of a task's ``data`` that holds the item id (Concord's batch export writes it).
ITEM_FIELD = "item"
#: The top-level keys of a Label Studio task (import and export formats, "Label Studio
#: task format"); a table with only these, and a ``data`` object in every row, is a task list.
TASK_KEYS = frozenset(
    {
        "id", "data", "meta", "predictions", "annotations", "completions", "drafts",
        "created_at", "updated_at", "inner_id", "project", "file_upload", "is_labeled",
        "overlap", "total_annotations", "cancelled_annotations", "total_predictions",
        "comment_count", "unresolved_comment_count", "last_comment_updated_at",
        "updated_by", "annotators", "comment_authors",
    }
)  # fmt: skip


def is_task_file(table: pd.DataFrame) -> bool:
    """A Label Studio task list without annotations: only task keys, a ``data`` object in each row.

    Parameters
    ----------
    table : pandas.DataFrame
        Any raw table.

    Returns
    -------
    bool
    """
    return (
        "data" in table.columns
        and len(table) > 0
        and {str(c) for c in table.columns} <= TASK_KEYS
        and all(isinstance(d, dict) for d in table["data"].to_numpy(object))
    )


def no_annotations_yet(table: pd.DataFrame, source: str | None) -> AnnotationDataError:
    """The error for a task list that holds no annotations (an import file, not an export).

    Parameters
    ----------
    table : pandas.DataFrame
        The task list (see :func:`is_task_file`).
    source : str or None
        The file name.

    Returns
    -------
    AnnotationDataError
    """
    datas = table["data"].to_numpy(object)
    metas = table["meta"].to_numpy(object) if "meta" in table.columns else [None] * len(table)
    concord = all(isinstance(d, dict) and ITEM_FIELD in d for d in datas) and all(
        isinstance(m, dict) and "assignments" in m for m in metas
    )
    predictions = "predictions" in table.columns and any(
        isinstance(p, list) and p for p in table["predictions"].to_numpy(object)
    )
    return AnnotationDataError(
        f"this is a Label Studio tasks file with no annotations yet ({format_count(len(table), 'task')}"
        ", each a 'data' object and no 'annotations'), so it holds no judgements"
        + (
            "; it looks like Concord's batch export (data.item, meta.assignments)."
            if concord
            else "."
        ),
        source=source,
        hint="Import it into a Label Studio project, annotate, then export the project "
        "(JSON) and load that export; items keep their ids from data.item."
        + (" Its model predictions load with include_predictions=True." if predictions else ""),
    )


def check_tasks(table: pd.DataFrame, rows: np.ndarray, source: str, key: str | None) -> None:
    """Every task has a ``data`` object and a list of annotations (or none at all).

    Parameters
    ----------
    table : pandas.DataFrame
        The task list.
    rows : ndarray of int
        The file row of each task.
    source : str
        The file name.
    key : str or None
        The column of annotations (``annotations`` or ``completions``); None when the
        tasks have none.

    Raises
    ------
    AnnotationDataError
        Naming the field, what it holds and the tasks' rows.
    """
    looks = "this looks like a Label Studio export, but "
    hint = "Export the project again from Label Studio (JSON, JSON-MIN or CSV) and load that file."
    if "data" not in table.columns:
        raise AnnotationDataError(
            looks + "its tasks have no 'data' object (the task's input).",
            source=source,
            hint=hint,
        )

    def listed(a: Any) -> bool:  # a list, or missing (absent, null); never an object or text
        return isinstance(a, list) or (not isinstance(a, (dict, str)) and is_missing(a))

    checks = [("data", "an object", lambda d: isinstance(d, dict))]
    checks += [(key, "a list of annotation objects", listed)] if key is not None else []
    if "predictions" in table.columns:
        checks.append(("predictions", "a list of prediction objects", listed))
    for name, expected, ok in checks:
        cells = table[name].to_numpy(object)
        bad = np.flatnonzero([not ok(c) for c in cells])
        if len(bad):
            raise AnnotationDataError(
                looks + f"{format_count(len(bad), 'task')} {'has' if len(bad) == 1 else 'have'} a "
                f"'{name}' that is {type(cells[bad[0]]).__name__}, not {expected}.",
                source=source,
                rows=np.asarray(rows)[bad].tolist(),
                hint=hint,
            )


def task_items(
    table: pd.DataFrame, rows: np.ndarray, source: str
) -> tuple[list[str | None], list[str]]:
    """The item id each task's ``data`` gives, when every task gives one (see the module).

    Parameters
    ----------
    table : pandas.DataFrame
        A checked task list (see :func:`check_tasks`).
    rows : ndarray of int
        The file row of each task.
    source : str
        The file name.

    Returns
    -------
    items : list of str or None
        One per task: ``data.item`` as text, or all None (the caller keys on task ids).
    notes : list of str
        For the load report: which ids name the items, and tasks sharing one.

    Raises
    ------
    AnnotationDataError
        A ``data.item`` that is an id but cannot be read as one (as ``tool_id_text``).
    """
    items = [
        tool_id_text(d.get(ITEM_FIELD), field=f"data.{ITEM_FIELD}", row=int(r), source=source)
        if isinstance(d, dict) and id_problem(d.get(ITEM_FIELD)) is None
        else None
        for d, r in zip(table["data"].to_numpy(object), rows, strict=True)
    ]
    without = sum(i is None for i in items)
    none = [None] * len(items)
    if without == len(items):
        return none, []
    if without:  # never a mix of two kinds of id
        return none, [
            f"Items are Label Studio's task ids: {format_count(without, 'task')} of "
            f"{len(items)} {'has' if without == 1 else 'have'} no data.{ITEM_FIELD}, the item "
            "id Concord's batch export writes into every task."
        ]
    notes = [
        f"Items are named by each task's data.{ITEM_FIELD} (the item id Concord's batch export "
        "writes), not by Label Studio's task id, so they merge with the data the batch came from."
    ]
    shared = len(items) - len(set(items))
    if shared:
        notes.append(
            f"{format_count(shared, 'task')} {'repeats' if shared == 1 else 'repeat'} the "
            f"data.{ITEM_FIELD} of an earlier task: their judgements are pooled under that item "
            f"(an item sent in two batches). If data.{ITEM_FIELD} is a field of your project "
            "rather than the item id, rename it in Label Studio's data and export again."
        )
    return items, notes


def task_ids(table: pd.DataFrame, rows: np.ndarray, source: str) -> list[str | None]:
    """Each task's ``id`` as text (None: the task has none), every id given once.

    Parameters
    ----------
    table : pandas.DataFrame
        The task list.
    rows : ndarray of int
        The file row of each task.
    source : str
        The file name.

    Returns
    -------
    list of str or None

    Raises
    ------
    AnnotationDataError
        An id that is not one (as ``tool_id_text``), or one id given to several tasks
        (Label Studio gives each task its own: two tasks under one id are two exports
        joined, whose judgements would merge into one item), naming the id and the rows.
    """
    cells = table["id"].to_numpy(object) if "id" in table.columns else [None] * len(table)
    ids = [
        tool_id_text(v, field="id", row=int(r), source=source)
        for v, r in zip(cells, rows, strict=True)
    ]
    shared = pd.Series(ids, dtype=object)
    shared = (shared.notna() & shared.duplicated(keep=False)).to_numpy()
    if shared.any():
        first = ids[int(np.argmax(shared))]
        others = len({i for i, s in zip(ids, shared, strict=True) if s}) - 1
        at = [int(r) for r, i in zip(rows, ids, strict=True) if i == first]
        raise AnnotationDataError(
            f"the task id {show_text(first)} is given to {len(at)} tasks"
            + (
                f" (rows {', '.join(map(str, at))}), and {format_count(others, 'other id')} "
                "to several too"
                if others
                else ""
            )
            + "; Label Studio gives each task its own id, so these are different tasks whose "
            "judgements would be merged into one item.",
            source=source,
            column="id",
            rows=np.asarray(rows)[shared].tolist(),
            hint="Is the file two exports joined (two projects, or one project twice)? Load "
            "the exports one at a time, or give the tasks ids of their own.",
        )
    return ids


def task_keys(
    table: pd.DataFrame, rows: np.ndarray, source: str
) -> tuple[list[str], list[str], list[str]]:
    """The item of each task (``data.item``, else the task id), its name for messages, notes.

    Parameters
    ----------
    table : pandas.DataFrame
        A checked task list (see :func:`check_tasks`).
    rows : ndarray of int
        The file row of each task.
    source : str
        The file name.

    Returns
    -------
    items : list of str
        One per task: see :func:`task_items`; a task with neither is named by its place
        in the file, ``task@<row>`` (a note says how many and which).
    names : list of str
        ``"task <id>"`` (``"the task"`` without one), for messages.
    notes : list of str
        For the load report.

    Raises
    ------
    AnnotationDataError
        As :func:`task_items` and :func:`task_ids`.
    """
    data_items, notes = task_items(table, rows, source)
    tids = task_ids(table, rows, source)
    items = [d or t or f"task@{int(r)}" for d, t, r in zip(data_items, tids, rows, strict=True)]
    unnamed = [int(r) for d, t, r in zip(data_items, tids, rows, strict=True) if not (d or t)]
    if unnamed:
        shown = ", ".join(map(str, unnamed[:5])) + (" ..." if len(unnamed) > 5 else "")
        notes.append(
            f"{format_count(len(unnamed), 'task')} {'has' if len(unnamed) == 1 else 'have'} no "
            f"'id' (and no data.{ITEM_FIELD}): named by position in the file, task@<row> "
            f"({'row' if len(unnamed) == 1 else 'rows'} {shown}); the same task in another "
            "export may be at another row."
        )
    names = [f"task {t}" if t else "the task" for t in tids]
    return items, names, notes
