"""Reading a file of known gold labels: the true label of some items, one row per item.

"Known gold" is a reference the user already has (an expert's labels, or a sample's true
labels). It is what :func:`analytics.dawid_skene.fit` clamps (``gold=``) and what
:func:`analytics.dawid_skene.gold_accuracy` scores against; it is not the model's own
labels (``analytics.dawid_skene.model_labels_table``) nor the multi-label expert gold
standard (``analytics.multilabel.gold_standard``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_count
from analytics.data.cells import MISSING_TOKENS, CellColumn, unguard
from analytics.data.reading import read_table

__all__ = ["read_gold_labels"]

_TWO_COLUMNS = "the gold file needs two columns: item and label."
_LABEL_NAMES = ("label", "labels", "gold", "truth")


def _cells(frame: pd.DataFrame, column: Any, rows: np.ndarray, role: str, name: str) -> tuple:
    """A column's cells as the loader reads them: texts and which cells are missing.

    The loader's rules, so that gold names the same items and labels as the data: ids
    and labels stripped, whole numbers without ``.0`` (JSON's 1.0, an integer column
    with an empty cell read as floats), the missing tokens (empty, NA, None, ...) missing,
    the spreadsheet guard undone; a list, an object or bytes in a cell is an error (its
    text would be a label nobody gave).
    """
    col = CellColumn.of(frame[column], MISSING_TOKENS)
    values = frame[column]
    bad = col.containers if col.containers is not None else np.zeros(len(values), bool)
    if values.dtype == object:
        bad = bad | values.map(lambda v: isinstance(v, (bytes, bytearray))).to_numpy(bool)
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise AnnotationDataError(
            f"the {role} cells hold lists, objects or bytes (e.g. {str(values.iat[first])[:60]}),"
            f" not one {role} each.",
            source=name,
            column=str(column),
            rows=rows[bad][:20].tolist(),
            hint=f"Put one {role} (text or a number) in each cell.",
        )
    texts = unguard(col.texts("id" if role == "item" else "label"))
    codes = np.asarray(col.codes, np.int64)
    missing = (codes < 0) | col.missing[np.maximum(codes, 0)]
    out = np.where(missing, "", texts.to_numpy(object)[np.maximum(codes, 0)])
    return out, missing


def read_gold_labels(source: Any, *, format: str | None = None) -> pd.Series:
    """Read known gold labels (item -> true label) from a CSV, TSV or other table.

    Parameters
    ----------
    source : str, path, bytes or file-like
        The file (an upload's ``name`` is used in messages), read with
        :func:`analytics.data.read_table`.
    format : str or None, default None
        Force a format (``"csv"``, ``"tsv"``, ...); None detects it.

    Returns
    -------
    pandas.Series
        Indexed by item (text, as in the file), the gold labels as text; the index is
        named after the item column and the series after the label column. Rows with an
        empty label are left out (no gold label for that item). Items that are not in
        the data set are kept: :func:`~analytics.dawid_skene.fit` and
        :func:`~analytics.dawid_skene.gold_accuracy` ignore them.

    Raises
    ------
    AnnotationDataError
        A file that cannot be read, one with a single column, or an item given two
        different labels (the message names the file, the column and the rows).

    Notes
    -----
    The columns are found by name, case-insensitively: ``item``, and ``label`` (else
    ``labels``, ``gold`` or ``truth``); without those names, the first column holds the
    items and the last the labels. An item
    listed twice with the same label counts once.

    Examples
    --------
    >>> gold = read_gold_labels(b"item,label\\nm1,question\\nm2,\\nm3,request\\n")
    >>> gold.to_dict()
    {'m1': 'question', 'm3': 'request'}
    """
    try:
        frame, rows, report = read_table(source, format=format)
    except AnnotationDataError as exc:
        if exc.problem.startswith("the file has a single column"):
            raise AnnotationDataError(_TWO_COLUMNS, source=exc.source) from None
        raise
    name = report.source
    if len(frame.columns) < 2:  # e.g. JSON records with no fields: [{}]
        raise AnnotationDataError(_TWO_COLUMNS, source=name)
    cols = {str(c).lower().strip(): c for c in frame.columns}
    item = cols.get("item", frame.columns[0])
    # "labels": the multi-label gold standard's download (gold_standard(...).to_frame())
    label = next((cols[n] for n in _LABEL_NAMES if n in cols), frame.columns[-1])
    if item == label:
        raise AnnotationDataError(_TWO_COLUMNS, source=name)
    rows = np.asarray(rows)
    item_texts, no_item = _cells(frame, item, rows, "item", name)
    label_texts, no_label = _cells(frame, label, rows, "label", name)
    orphan = no_item & ~no_label
    if orphan.any():
        n = int(orphan.sum())
        raise AnnotationDataError(
            f"{format_count(n, 'row')} {'gives' if n == 1 else 'give'} a gold label but no item.",
            source=name,
            column=str(item),
            rows=rows[orphan][:20].tolist(),
            hint="Give the item of each gold label, or delete those rows.",
        )
    items = pd.Index(item_texts, dtype=object, name=item)
    gold = pd.Series(label_texts, index=items, name=label, dtype=object)
    given = ~no_label
    gold, rows = gold[given], rows[given]
    repeated = gold.index.duplicated(keep=False)
    if repeated.any():
        twice = gold[repeated]
        conflicting = twice.groupby(level=0, sort=False).transform("nunique") > 1
        if conflicting.any():
            first = twice.index[conflicting.to_numpy()][0]
            raise AnnotationDataError(
                f"item {first!r} has more than one gold label "
                f"({', '.join(sorted(set(twice.loc[[first]])))}).",
                source=name,
                column=label,
                rows=rows[repeated][conflicting.to_numpy()].tolist(),
                hint="Keep one gold label per item.",
            )
        gold = gold[~gold.index.duplicated(keep="first")]
    return gold
