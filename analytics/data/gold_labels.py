"""Reading a file of known gold labels: the true label of some items, one row per item.

"Known gold" is a reference the user already has (an expert's labels, or a sample's true
labels). It is what :func:`analytics.dawid_skene.fit` clamps (``gold=``) and what
:func:`analytics.dawid_skene.gold_accuracy` scores against; it is not the model's own
labels (``analytics.dawid_skene.model_labels_table``) nor the multi-label expert gold
standard (``analytics.multilabel.gold_standard``).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.data.reading import read_table

__all__ = ["read_gold_labels"]

_TWO_COLUMNS = "the gold file needs two columns: item and label."


def _text(value: Any) -> str:
    """A cell as text; an empty or missing cell is ``""``."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    return str(value)


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
    The columns are found by name, case-insensitively: ``item`` and ``label``; without
    those names, the first column holds the items and the last the labels. An item
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
    cols = {str(c).lower().strip(): c for c in frame.columns}
    item = cols.get("item", frame.columns[0])
    label = cols.get("label", frame.columns[-1])
    if item == label:
        raise AnnotationDataError(_TWO_COLUMNS, source=name)
    items = pd.Index([_text(v) for v in frame[item]], dtype=object, name=item)
    gold = pd.Series([_text(v) for v in frame[label]], index=items, name=label, dtype=object)
    given = (gold.str.strip() != "").to_numpy()
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
