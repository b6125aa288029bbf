"""Wide-form annotator columns that hold free text (notes, comments), not labels.

Part of the layout decision (:mod:`analytics.data.layout`): a notes column read as one
more annotator is named in a caution, with what to do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import show_text
from analytics.data.cells import MISSING_TOKENS

__all__ = ["free_text_cautions", "free_text_columns"]


def free_text_columns(
    df: pd.DataFrame, ann_cols: Sequence[Any], block: np.ndarray | None = None
) -> list[tuple[Any, int]]:
    """Wide-form annotator columns that look like free text, not labels.

    A column is named when the table has at least two annotator columns and, among the
    column's non-missing cells (at least 3, all text), at least 90% are distinct, at
    least half hold two or more words, and fewer than 10% are a label of another
    annotator column (a notes or comments column read as an annotator). Distinct values
    are counted for every column at once; only the columns of nearly distinct values
    (usually none) are looked at further.

    Parameters
    ----------
    df : pandas.DataFrame
        The raw table.
    ann_cols : sequence
        The columns read as annotators.

    Returns
    -------
    list of (column, int)
        Each flagged column with its number of distinct values, in table order.

    Examples
    --------
    >>> df = pd.DataFrame({"a": ["x", "y", "x"], "b": ["x", "x", "y"],
    ...                    "Notes": ["looks fine", "ask Sam again", "second pass"]})
    >>> free_text_columns(df, ["a", "b", "Notes"])
    [('Notes', 3)]
    """
    n = len(df)
    if len(ann_cols) < 2 or n < 3:
        return []
    try:
        block = df[list(ann_cols)].to_numpy(object) if block is None else block
        codes, _ = pd.factorize(block.reshape(-1, order="F"))
    except TypeError:  # nested cells: the loader refuses them, naming their rows
        return []
    col = np.repeat(np.arange(len(ann_cols)), n)
    seen = codes >= 0
    filled = np.bincount(col[seen], minlength=len(ann_cols))
    pairs = np.unique(col[seen].astype(np.int64) * (int(codes.max()) + 1) + codes[seen])
    distinct = np.bincount(pairs // (int(codes.max()) + 1), minlength=len(ann_cols))
    out = []
    for k in np.flatnonzero((filled >= 3) & (distinct * 10 >= filled * 9)):
        c = ann_cols[k]
        if pd.api.types.infer_dtype(df[c], skipna=True) != "string":
            continue
        values = df[c].dropna().astype(str).str.strip()
        values = values[~values.str.lower().isin(MISSING_TOKENS)]
        m = len(values)
        if m < 3 or values.nunique() * 10 < m * 9:
            continue
        if values.str.contains(r"\S\s+\S", regex=True).sum() * 2 < m:
            continue
        own = codes[(col == k) & seen]
        if np.isin(own, codes[(col != k) & seen]).sum() * 10 >= len(own):
            continue
        out.append((c, int(values.nunique())))
    return out


def free_text_cautions(
    df: pd.DataFrame, ann_cols: Sequence[Any], block: np.ndarray | None = None
) -> list[str]:
    """Cautions for the columns :func:`free_text_columns` flags, one sentence each.

    Examples
    --------
    >>> df = pd.DataFrame({"a": ["x", "y", "x"], "b": ["x", "x", "y"],
    ...                    "Notes": ["looks fine", "ask Sam again", "second pass"]})
    >>> [c.split(" looks")[0] for c in free_text_cautions(df, ["a", "b", "Notes"])]
    ["Column 'Notes'"]
    """
    return [
        f"Column {show_text(c)} looks like free text, not labels ({n:,} distinct values of "
        "several words, unlike the other annotator columns), yet it was read as an annotator. "
        "If it holds notes or comments, ignore it (Data page: Column roles; in Python, drop "
        "the column) and load again."
        for c, n in free_text_columns(df, ann_cols, block)
    ]
