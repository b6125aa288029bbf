"""Data rows that repeat the header row (several exports joined into one file).

:func:`refuse_repeated_header` searches every row; :func:`header_may_repeat` rules it out
from one column's distinct values, which :func:`refuse_repeated_header_of` uses once the
loader has factorized the columns. CSV, TSV and .xlsx share these checks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_count
from analytics.data.cells import CellColumn, unguard
from analytics.data.text_index import could_end_as

__all__ = ["header_may_repeat", "refuse_repeated_header", "refuse_repeated_header_of"]


def refuse_repeated_header(
    df: pd.DataFrame, rows: np.ndarray, name: str, sheet: str | None = None
) -> None:
    """Refuse a data row that repeats the header, in any case (several exports joined into one).

    Loaded as it was, the second header became a judgement: item "item", annotator
    "annotator", category "label". Cells are compared with the names after stripping
    blanks and byte-order marks (two Excel "CSV UTF-8" files joined put a U+FEFF before the
    second header; a pasted one may start with a blank). One vectorised search of the first
    column for its name finds the candidates (usually none); only those are compared in full.
    CSV, TSV and .xlsx share this check.

    Parameters
    ----------
    df : pandas.DataFrame
        The data rows, columns named by the (stripped) header.
    rows : ndarray of int
        Each row's number in the file.
    name : str
        The file name.
    sheet : str or None, default None
        The sheet, for a workbook.

    Raises
    ------
    AnnotationDataError
        Naming the repeated header rows.
    """
    if df.empty:
        return
    names = [_bare(str(c)) for c in df.columns]
    first = df.iloc[:, 0]
    if not names[0]:
        return
    ends = could_end_as(first, names[0])
    if ends is not None:
        first = first[ends]
    first = first[first.notna()]  # a workbook's empty cells
    hit = first.astype(str).str.contains(names[0], case=False, regex=False)
    candidates = hit.index[np.asarray(hit, bool)]
    if not len(candidates):
        return
    same = np.ones(len(candidates), bool)
    for column, wanted in zip(df.columns, names, strict=True):
        cells = df.loc[candidates[same], column]
        text = cells.astype(str).str.strip().str.strip("\ufeff").str.strip()
        # the names may have been unguarded already (read_table), the cells not yet
        plain = pd.Series(unguard(pd.Index(text, dtype=object)), index=text.index)
        match = (text.str.casefold() == wanted.casefold()) | (
            plain.str.casefold() == wanted.casefold()
        )
        same[same] = np.asarray(cells.notna() & match, bool)
        if not same.any():
            return
    n = int(same.sum())
    at = np.asarray(rows)[df.index.get_indexer(candidates[same])]
    raise AnnotationDataError(
        f"{format_count(n, 'row')} {'repeats' if n == 1 else 'repeat'} the header row "
        f"({', '.join(map(str, df.columns))}): the file looks like several exports joined "
        "into one.",
        source=name,
        sheet=sheet,
        rows=at[:20].tolist(),
        hint="Delete the repeated header rows (keep the first one), then load again.",
    )


def header_may_repeat(uniques: pd.Index, name: str) -> bool:
    """Whether a column whose distinct values are ``uniques`` could hold its header again.

    A row repeating the header holds, in every column, that column's name (blanks,
    byte-order marks and case aside: :func:`refuse_repeated_header`'s comparison). So when
    one column's distinct values hold no such text, no row repeats the header, and the
    check of every cell can be skipped: on a long file the label or annotator column has
    a handful of distinct values, where the first column's 2 M cells took
    :func:`refuse_repeated_header` 15 ms of CPU (worst on ids like ``item_0000123``).

    Parameters
    ----------
    uniques : pandas.Index
        The column's distinct values (unguarded, as
        :class:`~analytics.data.cells.CellColumn` keeps them).
    name : str
        The column's name (unguarded, as :func:`~analytics.data.reading.read_table` keeps
        it).

    Returns
    -------
    bool
        False only when no cell of the column can be its name.

    Examples
    --------
    >>> header_may_repeat(pd.Index(["yes", "no"]), "label")
    False
    >>> header_may_repeat(pd.Index(["yes", "\ufeff LABEL "]), "label")
    True
    """
    wanted = _bare(str(name)).casefold()
    if not wanted:
        return True  # an unnamed column: left to the full check
    texts = pd.Series(uniques.to_numpy(object), dtype=object)
    texts = texts[texts.notna()].astype(str)
    bare = texts.str.strip().str.strip("\ufeff").str.strip().str.casefold()
    return bool((bare == wanted).any())


def _bare(text: str) -> str:
    """Text without its surrounding blanks and byte-order marks (U+FEFF)."""
    return text.strip().strip("\ufeff").strip()


def refuse_repeated_header_of(
    raw: tuple[pd.DataFrame, np.ndarray],
    source: str,
    chosen: str,
    columns: dict[str, Any],
    cells: dict[str, CellColumn],
) -> None:
    """:func:`refuse_repeated_header` on a loaded table, skipped when it cannot fire.

    In long form each role is a column of the file: when the column with the fewest
    distinct values holds no text that could be its name
    (:func:`header_may_repeat`), no row repeats the header
    and the cells are not searched. Otherwise (wide form too) every row is checked.
    """
    df, rows = raw
    if chosen == "long":
        role = min(cells, key=lambda r: len(cells[r].uniques))
        column = columns.get(role)
        if column in df.columns and not header_may_repeat(cells[role].uniques, column):
            return
    refuse_repeated_header(df, rows, source)
