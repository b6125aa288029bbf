"""A batch in the formats a team sends work out in: CSV, Label Studio tasks, MTurk input.

- :func:`batch_csv`: the batch as it is, one row per judgement asked for, with its reason.
- :func:`label_studio_tasks`: a Label Studio import file: a JSON list of tasks, one per
  item, ``{"data": {"item": ..., <your columns>}, "meta": {<the reason>}}``. The keys of
  ``data`` must match the variables of the project's labelling configuration (``$item``,
  or e.g. ``$text`` from ``data=``); ``meta`` is imported with the task and shown in its
  JSON (Label Studio, "Import tasks" / task format).
- :func:`mturk_input_csv`: a Mechanical Turk batch input file: a header of variable names
  (used as ``${item}`` in the HIT layout) and one row per HIT, here one per item. MTurk sets
  the judgements per HIT ("assignments") for the whole batch, so the ``assignments``
  column says how many this item needs; publish items with different counts as separate
  batches (the file is sorted by it).

Every CSV goes through :func:`analytics.data.table_to_csv`. The batch CSV, meant for a
spreadsheet, has cells that a spreadsheet would run as formulas neutralised (a leading
``'``); the MTurk input file is read by Mechanical Turk, not a spreadsheet, so it is
written verbatim (a neutralised ``=x`` would reach workers, and come back in the results'
``Input.item``, as ``'=x``).

A task of :func:`label_studio_tasks` keeps its item id in ``data.item`` (the field
:mod:`analytics.data.importers.label_studio_items` reads, ``ITEM_FIELD``); loading Label Studio's
JSON export of the annotated tasks names the items by it again, so the judgements merge
with the data the batch was chosen from.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError, require
from analytics.data import table_to_csv

__all__ = ["EXPORT_FORMATS", "batch_csv", "label_studio_tasks", "mturk_input_csv", "per_item"]

#: The key of a task's ``data`` that holds the item id; the Label Studio importer reads
#: the items back from it (``ITEM_FIELD`` of analytics.data.importers.label_studio_items).
ITEM_FIELD = "item"

#: Format key -> (file name suffix, MIME type) of each export.
EXPORT_FORMATS = {
    "csv": ("next_batch.csv", "text/csv"),
    "label_studio": ("next_batch_label_studio.json", "application/json"),
    "mturk": ("next_batch_mturk_input.csv", "text/csv"),
}


def _check(batch: Any) -> pd.DataFrame:
    if not isinstance(batch, pd.DataFrame) or "item" not in batch.columns:
        raise AnnotationDataError(
            "a batch must be the DataFrame next_batch returns (with an 'item' column).",
            hint="Pass analytics.next_labels.next_batch(result, ann, budget).",
        )
    return batch


def per_item(batch: pd.DataFrame) -> pd.DataFrame:
    """One row per item of a batch, in first-chosen order.

    Columns: ``item``, ``assignments`` (judgements asked for), ``annotators`` (assigned
    names joined by ``;``, when assigned), ``current_confidence``, ``expected_gain`` (sum
    over the item's judgements, bits) and ``expected_confidence`` (after all of them).
    """
    batch = _check(batch)
    grouped = batch.groupby("item", sort=False)
    out = pd.DataFrame({"item": list(grouped.groups), "assignments": grouped.size().to_numpy()})
    if "annotator" in batch.columns:
        out["annotators"] = grouped["annotator"].agg(lambda a: ";".join(map(str, a))).to_numpy()
    if "current_confidence" in batch.columns:
        out["current_confidence"] = grouped["current_confidence"].first().to_numpy()
        out["expected_gain"] = grouped["expected_gain"].sum().to_numpy()
        out["expected_confidence"] = grouped["expected_confidence"].last().to_numpy()
    return out


def batch_csv(batch: pd.DataFrame) -> str:
    """The batch as CSV: ``item``, ``annotator`` (when assigned) and the reason columns.

    Parameters
    ----------
    batch : pandas.DataFrame
        :func:`~analytics.next_labels.next_batch`'s result.

    Returns
    -------
    str
    """
    return table_to_csv(_check(batch), index=False)


def _plain(value: Any) -> Any:
    """A JSON-ready value: numpy scalars as Python ones, NaN as null."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not np.isfinite(value):
        return None
    return value


def label_studio_tasks(batch: pd.DataFrame, data: pd.DataFrame | None = None) -> str:
    """The batch as a Label Studio tasks file (JSON list, one task per item).

    Parameters
    ----------
    batch : pandas.DataFrame
        :func:`~analytics.next_labels.next_batch`'s result.
    data : pandas.DataFrame or None, default None
        Item -> the columns the labelling configuration shows (e.g. ``text``), indexed
        by item; they are added to each task's ``data``.

    Returns
    -------
    str
        UTF-8 JSON: ``[{"data": {"item": ...}, "meta": {"assignments": ..., ...}}]``.
        Label Studio's JSON export of these tasks, once annotated, loads with
        :func:`analytics.load_annotations` under the items' ids (from ``data.item``), not
        Label Studio's task ids.

    Raises
    ------
    AnnotationDataError
        ``data`` lacks an item of the batch, or has an ``item`` column (it would
        replace the item id that names the judgements when they come back).
    ArgumentTypeError
        ``data`` is not a DataFrame (e.g. the annotations, or a Series of texts).

    References
    ----------
    Label Studio documentation, "Import tasks" and "Label Studio task format"
    (https://labelstud.io/guide/tasks, https://labelstud.io/guide/task_format).
    """
    items = per_item(batch)
    _check_data(data)
    if data is not None and ITEM_FIELD in map(str, data.columns):
        raise AnnotationDataError(
            f"data has a column {ITEM_FIELD!r}: it would replace the item id a task keeps in "
            f"data.{ITEM_FIELD}, which names the judgements when Label Studio's export is loaded.",
            hint="Index data by item and rename or drop its 'item' column.",
        )
    extra = None if data is None else _item_data(data, items["item"])
    tasks = []
    for n, row in enumerate(items.itertuples(index=False)):
        rec = row._asdict()
        task_data = {ITEM_FIELD: _plain(rec.pop("item"))}  # read back by the importer
        if extra is not None:
            task_data.update({str(k): _plain(v) for k, v in extra.iloc[n].items()})
        tasks.append({"data": task_data, "meta": {k: _plain(v) for k, v in rec.items()}})
    return json.dumps(tasks, ensure_ascii=False, indent=1, default=str)


def mturk_input_csv(batch: pd.DataFrame, data: pd.DataFrame | None = None) -> str:
    """The batch as a Mechanical Turk batch input CSV (one HIT row per item).

    Parameters
    ----------
    batch : pandas.DataFrame
        :func:`~analytics.next_labels.next_batch`'s result.
    data : pandas.DataFrame or None, default None
        Item -> further HIT variables (e.g. ``text``), indexed by item.

    Returns
    -------
    str
        Columns ``item``, the ``data`` columns, ``assignments``; sorted by
        ``assignments`` (largest first), then by the batch order. A batch with assigned
        annotators keeps only how many judgements each item needs: an input file cannot
        route a HIT to a named worker (a qualification can); the batch CSV keeps who.
        Cells are written verbatim, without the spreadsheet guard of :func:`batch_csv`:
        Mechanical Turk reads the file (it is not opened in a spreadsheet), so an item
        ``=x`` guarded as ``'=x`` would be shown to workers and come back in the
        results as ``Input.item='=x``, no longer the item's id. Open the file in a
        spreadsheet only with formulas turned off. Quotes, commas and line breaks
        are quoted as CSV requires.

    Raises
    ------
    AnnotationDataError
        ``data`` lacks an item of the batch (its HIT would go out with empty fields).
    ArgumentTypeError
        ``data`` is not a DataFrame (e.g. the annotations, or a Series of texts).

    References
    ----------
    Amazon Mechanical Turk Requester UI guide, "Create a batch with an input file"
    (a CSV whose header names the ``${variable}`` placeholders of the HIT layout).
    """
    items = per_item(batch)
    _check_data(data)
    out = items[["item"]].copy()
    if data is not None:
        joined = _item_data(data, items["item"]).reset_index(drop=True)
        out = pd.concat([out, joined], axis=1)
    out["assignments"] = items["assignments"].to_numpy()
    out = out.sort_values("assignments", ascending=False, kind="stable")
    # MTurk reads this file itself: the spreadsheet guard's leading ' would reach the
    # workers and come back in Input.item, so the ids no longer match (see the docstring).
    return table_to_csv(out, index=False, safe=False)


def _check_data(data: Any) -> None:
    """Refuse item data that is not a table indexed by item (the loaded annotations, a
    Series of texts), before pandas fails on it with its own words."""
    require(
        data,
        data is None or isinstance(data, pd.DataFrame),
        "data as a DataFrame of item fields indexed by item",
        hint="E.g. data=texts.to_frame() for a Series of texts, or df.set_index('item')[['text']].",
    )


def _item_data(data: pd.DataFrame, items: pd.Series) -> pd.DataFrame:
    """``data``'s rows for the batch's items, in their order; refused when one is missing
    (a task or HIT without its text)."""
    extra = data.reindex(items)
    missing = items[extra.isna().all(axis=1).to_numpy()] if len(data.columns) else []
    if len(missing):
        raise AnnotationDataError(
            f"data has no row for item {missing.iloc[0]!r} of the batch.",
            hint="Index data by item and include every item of the batch.",
        )
    return extra
