"""Count tables as annotations: items x categories counts, and two-rater contingency tables.

Many published data sets come as counts, not judgements:

- an **items x categories count table** (Fleiss 1971's table 1; statsmodels'
  ``aggregate_raters``; irrCAC's ``.dist`` functions): how many raters put each item in
  each category. The raters are **anonymous**: nothing says who gave which count.
  :func:`from_count_table` turns it into :class:`~analytics.data.Annotations` whose
  annotators are placeholders (``rater 1``, ``rater 2``, ... within each item), marked by
  ``report.layout == "counts"`` (:func:`anonymous_annotators`). Coefficients that need
  to know who judged what (Cohen's and Conger's kappa, Scott's pi of a pair, pairwise
  tables, Dawid-Skene) refuse such data with the reason; the ones computed from counts
  per item (percent agreement, Fleiss' kappa, Gwet's AC1/AC2, Brennan-Prediger,
  Krippendorff's alpha) are exact.
- a **two-rater contingency table** (irrCAC's ``.table`` functions, statsmodels'
  ``cohens_kappa``): rater 1's category in rows, rater 2's in columns.
  :func:`from_contingency_table` gives two named annotators and one item per counted
  pair, so every coefficient is defined.

Counts must be whole numbers here (one judgement per count). Fractional counts
(irrCAC's ``.dist`` accepts them) have no judgements behind them; the count-based
coefficients take them directly: :func:`analytics.agreement.count_table_agreement`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_count
from analytics.data.limits import DEFAULT_LIMITS, Limits, limit_error
from analytics.data.load_report import LoadReport, SkipNote
from analytics.data.model import Annotations

__all__ = [
    "COUNT_LAYOUTS",
    "anonymous_annotators",
    "count_matrix_of",
    "from_contingency_table",
    "from_count_table",
]

COUNT_LAYOUTS = ("counts", "contingency")
"""The ``layout`` of count-table data in :class:`LoadReport` (and ``load_annotations``)."""

ANONYMOUS = (
    "the raters of a count table are anonymous (only how many raters chose each category "
    "is known, not who)"
)


def anonymous_annotators(ann: Annotations) -> bool:
    """Whether ``ann`` came from an items x categories count table (placeholder annotators)."""
    return ann.report.layout == "counts"


def count_matrix_of(
    table: Any, categories: Sequence[Any] | None, source: str
) -> tuple[np.ndarray, pd.Index, pd.Index]:
    """The counts (float), item names and category names of a count table.

    Parameters
    ----------
    table : DataFrame or array_like
        Items x categories. A DataFrame's columns are the categories; a first column that
        is not numeric holds the item names (otherwise its index does). An array gets
        items 1..n and categories from ``categories`` or 1..q.
    categories : sequence or None
        Category names (arrays), or the columns to use in order (DataFrames).
    source : str
        Named in errors.

    Returns
    -------
    counts : ndarray of float, shape (n_items, q)
    items, cats : pandas.Index

    Raises
    ------
    AnnotationDataError
        A cell that is not a finite number >= 0, or a table that is not 2-d.
    """
    if isinstance(table, pd.DataFrame):
        frame = table
        if _names_in_first_column(frame):
            frame = frame.set_index(frame.columns[0])
        if categories is not None:
            missing = [c for c in categories if c not in frame.columns]
            if missing:
                raise AnnotationDataError(
                    f"the count table has no column for the categories {missing[:5]}.",
                    source=source,
                    hint=f"Columns: {', '.join(map(str, frame.columns[:10]))}.",
                )
            frame = frame[list(categories)]
        items = pd.Index([str(i) for i in frame.index], dtype=object)
        cats = pd.Index(list(frame.columns))
        values = frame.apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
        bad_cells = ~np.isfinite(values) | (values < 0)
        if bad_cells.any():
            r, c = np.argwhere(bad_cells)[0]
            raise AnnotationDataError(
                f"count {frame.iat[r, c]!r} is not a number >= 0.",
                source=source,
                column=str(cats[c]),
                rows=(np.flatnonzero(bad_cells.any(axis=1)) + 2).tolist(),
                hint="Every cell of a count table is how many raters chose that category "
                "(0 when none did).",
            )
        return values, items, cats
    values = np.asarray(table, dtype=float)
    if values.ndim != 2:
        raise AnnotationDataError(
            f"a count table is 2-d (items x categories), not {values.ndim}-d.", source=source
        )
    if not np.isfinite(values).all() or (values < 0).any():
        raise AnnotationDataError("counts must be finite numbers >= 0.", source=source)
    cats = pd.Index(list(categories) if categories is not None else range(1, values.shape[1] + 1))
    if len(cats) != values.shape[1]:
        raise AnnotationDataError(
            f"{len(cats)} category names for {values.shape[1]} columns.", source=source
        )
    return values, pd.Index([str(i + 1) for i in range(len(values))], dtype=object), cats


ITEM_HEADERS = frozenset({"item", "items", "task", "unit", "units", "id", "subject", "subjects"})


def _names_in_first_column(frame: pd.DataFrame) -> bool:
    """A first column of names, not counts: text that is not numbers, or an item header."""
    if not len(frame.columns):
        return False
    first = frame[frame.columns[0]]
    if str(frame.columns[0]).strip().lower() in ITEM_HEADERS:
        return True  # numbered items (pandas reads "subject" 1, 2, ... as numbers) too
    if pd.api.types.is_numeric_dtype(first):
        return False
    return bool(pd.to_numeric(first, errors="coerce").isna().any())


def _whole(
    counts: np.ndarray, source: str, limits: Limits | None = None, per_judgement: int = 3
) -> np.ndarray:
    """The counts as whole numbers, refused before the judgements they stand for are made.

    Each count becomes that many judgements (``per_judgement`` cells of the long form
    each: item, annotator, label): a 30-byte table with a count of 10**9 asked for
    7.5 GiB, and 2**63 overflowed to a negative repeat. The total is held to
    ``limits.max_cells`` first.
    """
    limits = limits or DEFAULT_LIMITS
    with np.errstate(invalid="ignore"):
        finite = np.isfinite(counts)
    if not finite.all():
        raise AnnotationDataError(
            "the count table holds an infinite or missing count.",
            source=source,
            hint="Put a whole number >= 0 in every cell.",
        )
    whole = np.rint(counts)
    if not np.allclose(counts, whole, rtol=0, atol=1e-9):
        raise AnnotationDataError(
            "the count table holds fractional counts, which are no judgements.",
            source=source,
            hint="Use analytics.agreement.count_table_agreement(table) for the coefficients "
            "defined on counts (percent agreement, Fleiss' kappa, AC1/AC2, Brennan-Prediger, "
            "Krippendorff's alpha); they take fractional counts.",
        )
    with np.errstate(over="ignore"):  # counts near 1e308 sum to inf: over the limit too
        total = float(whole.sum()) if whole.size else 0.0  # float: no int64 overflow
    if total * per_judgement > limits.max_cells:
        shown = f"{total:,.0f}" if total < 1e15 else f"about {total:.3g}"
        shown = shown if np.isfinite(total) else "more than 1e308"
        raise limit_error(
            f"the counts stand for {shown} judgements ({per_judgement} cells each in "
            f"long form), over the limit max_cells={limits.max_cells:,}.",
            "max_cells",
            source=source,
            how="Check the counts (is a column of ids read as counts?),",
        )
    return whole.astype(np.int64)


def _judgements(
    counts: np.ndarray, items: pd.Index, cats: pd.Index
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(item code, rater position within the item, category code) of every counted judgement."""
    flat = counts.ravel()
    cell = np.repeat(np.arange(flat.size), flat)
    item, label = np.divmod(cell, counts.shape[1])
    starts = np.r_[0, np.cumsum(counts.sum(axis=1))[:-1]]
    position = np.arange(len(cell)) - starts[item]
    return item, position, label


def _frame_to_annotations(
    item: np.ndarray,
    rater: np.ndarray,
    label: np.ndarray,
    items: pd.Index,
    raters: pd.Index,
    cats: pd.Index,
    kind: str | None,
    report: LoadReport,
    name: str,
) -> Annotations:
    if len(item) == 0:
        raise AnnotationDataError("the table counts no judgement.", source=report.source)
    frame = pd.DataFrame(
        {
            "item": np.asarray(items, dtype=object)[item],
            "annotator": np.asarray(raters, dtype=object)[rater],
            "label": np.asarray(cats, dtype=object)[label],
        }
    )
    ann = Annotations.from_frame(frame, kind=kind, categories=list(cats), name=name)
    details = {
        "n_judgements": ann.n_judgements,
        "kind": ann.kind.value,
        "kind_reason": ann.report.kind_reason,
        "categories_declared": True,
    }
    return replace(ann, report=LoadReport(**{**report.__dict__, **details}))


def from_count_table(
    table: Any,
    *,
    categories: Sequence[Any] | None = None,
    kind: str | None = None,
    name: str = "count table",
    report: LoadReport | None = None,
    limits: Limits | None = None,
) -> Annotations:
    """Annotations from an items x categories count table (anonymous raters).

    Parameters
    ----------
    table : DataFrame or array_like
        One row per item, one column per category, each cell how many raters chose that
        category for that item (whole numbers >= 0). A DataFrame's first column holds
        the item names when it is not numeric; otherwise the index does.
    categories : sequence, optional
        Array input: the category names of the columns, in order (default 1..q).
        DataFrame input: the columns to use, in order (default all).
    kind : str, optional
        ``"nominal"``, ``"ordinal"`` or ``"numeric"`` (default: inferred from the names).
    name : str, default "count table"
        A display name.
    report : LoadReport, optional
        What the reader found (the loader passes it: file name, format, encoding).
    limits : Limits or None, default None
        The judgements the counts stand for are held to ``limits.max_cells`` (three
        cells each, as in long form) before they are made; None: the default limits.

    Returns
    -------
    Annotations
        One judgement per count; annotators ``rater 1`` ... ``rater m`` (m the most
        counts of an item) stand for positions within an item, not people
        (``report.layout == "counts"``; :func:`anonymous_annotators`). The categories
        are declared in column order, so ordered weights and ordinal alpha use it. A row
        whose counts are all 0 has no judgement: it is skipped and counted in
        ``report.skipped`` with its row number.

    Raises
    ------
    AnnotationDataError
        A cell that is not a whole number >= 0 (fractional counts: the error points to
        :func:`analytics.agreement.count_table_agreement`), or nothing counted.

    Notes
    -----
    Percent agreement, Fleiss' kappa, Gwet's AC1/AC2, Brennan-Prediger and Krippendorff's
    alpha depend on the data only through the counts :math:`r_{ik}`, so they are the same
    as on the judgements the table was counted from. Cohen's, Conger's and pairwise
    coefficients need rater identities and are NaN with the reason.

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin* 76(5), 378-382 (table 1 is such a table).
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed. (the
    "distribution of raters by subject and category" input of irrCAC's ``.dist``
    functions).

    Examples
    --------
    >>> ann = from_count_table(pd.DataFrame({"yes": [2, 0], "no": [1, 3]}))
    >>> ann.n_items, ann.n_judgements, list(ann.categories), ann.report.layout
    (2, 6, ['yes', 'no'], 'counts')
    """
    source = name
    counts, items, cats = count_matrix_of(table, categories, source)
    whole = _whole(counts, source, limits)
    # a row counting no rater is no judgement: counted and skipped, never lost unseen
    empty = whole.sum(axis=1) == 0
    first_row = 2 if isinstance(table, pd.DataFrame) else 1  # a header line above a frame
    report = report or LoadReport(source=source)
    skipped = report.skipped
    if empty.any() and not empty.all():
        at = np.flatnonzero(empty)
        why = "the row counts no rater (every count 0), so it has no judgement"
        skipped += (SkipNote(why, len(at), tuple((at[:20] + first_row).tolist())),)
        whole, items = whole[~empty], items[~empty]
    item, position, label = _judgements(whole, items, cats)
    width = int(whole.sum(axis=1).max()) if len(whole) else 0
    raters = pd.Index([f"rater {r + 1}" for r in range(width)], dtype=object)
    shape = (
        f"{format_count(len(items), 'item')} x {format_count(len(cats), 'category', 'categories')}"
    )
    if len(skipped) > len(report.skipped):
        shape += f" ({len(empty):,} rows, {int(empty.sum()):,} of them with no count, skipped)"
    report = LoadReport(
        **{
            **report.__dict__,
            "layout": "counts",
            "layout_reason": f"Count table: {shape}; " + ANONYMOUS + ".",
            "n_rows": len(empty),
            "skipped": skipped,
        }
    )
    return _frame_to_annotations(item, position, label, items, raters, cats, kind, report, name)


def from_contingency_table(
    table: Any,
    *,
    raters: tuple[str, str] = ("rater 1", "rater 2"),
    categories: Sequence[Any] | None = None,
    kind: str | None = None,
    name: str = "contingency table",
    report: LoadReport | None = None,
    limits: Limits | None = None,
) -> Annotations:
    """Annotations from a two-rater contingency table (rows: rater 1, columns: rater 2).

    Parameters
    ----------
    table : DataFrame or array_like, shape (q, q)
        Cell (k, l): how many items rater 1 put in category k and rater 2 in l (whole
        numbers >= 0). A DataFrame's index and columns name the categories (the same
        set; a first column that is not numeric is taken as the row names).
    raters : tuple of str, default ("rater 1", "rater 2")
        The two annotators' names.
    categories : sequence, optional
        Array input: the category names, in order (default 1..q).
    kind : str, optional
        As in :func:`from_count_table`.
    name : str, default "contingency table"
        A display name.
    report : LoadReport, optional
        As in :func:`from_count_table`.
    limits : Limits or None, default None
        As in :func:`from_count_table` (two judgements per counted pair).

    Returns
    -------
    Annotations
        One item per counted pair (``pair 1`` ...), judged by both raters; every
        coefficient is defined (``report.layout == "contingency"``).

    Raises
    ------
    AnnotationDataError
        A table that is not square, rows and columns that name different categories, or a
        cell that is not a whole number >= 0.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educational and
    Psychological Measurement* 20(1), 37-46 (table 1 is such a table).

    Examples
    --------
    >>> ann = from_contingency_table([[88, 14, 18], [10, 40, 10], [2, 6, 12]])
    >>> ann.n_items, ann.n_annotators, ann.report.layout
    (200, 2, 'contingency')
    """
    source = name
    if isinstance(table, pd.DataFrame):
        frame = table
        if _names_in_first_column(frame):
            frame = frame.set_index(frame.columns[0])
        rows = [str(r) for r in frame.index]
        by_text = {str(c): c for c in frame.columns}
        if sorted(rows) != sorted(by_text) or len(set(rows)) != len(rows):
            raise AnnotationDataError(
                f"the rows ({', '.join(rows[:6])}) and columns ({', '.join(list(by_text)[:6])}) "
                "of a contingency table must name the same categories, each once.",
                source=source,
                hint="Rater 1's categories in rows, rater 2's in columns.",
            )
        frame = frame[[by_text[r] for r in rows]]  # columns in the order of the rows
        counts, _, _ = count_matrix_of(frame.reset_index(drop=True), None, source)
        cats = pd.Index(list(frame.index))
    else:
        counts, _, cats = count_matrix_of(table, categories, source)
    if counts.shape[0] != counts.shape[1]:
        raise AnnotationDataError(
            f"a contingency table is square (q x q), this one is {counts.shape[0]} x "
            f"{counts.shape[1]}.",
            source=source,
        )
    whole = _whole(counts, source, limits, per_judgement=6)
    q = len(cats)
    cell = np.repeat(np.arange(q * q), whole.ravel())
    first, second = np.divmod(cell, q)
    pairs = pd.Index([f"pair {i + 1}" for i in range(len(cell))], dtype=object)
    item = np.r_[np.arange(len(cell)), np.arange(len(cell))]
    rater = np.r_[np.zeros(len(cell), np.int64), np.ones(len(cell), np.int64)]
    label = np.r_[first, second]
    report = LoadReport(
        **{
            **(report or LoadReport(source=source)).__dict__,
            "layout": "contingency",
            "layout_reason": f"Contingency table of two raters ({raters[0]} in rows, "
            f"{raters[1]} in columns), {len(cell):,} items.",
            "n_rows": q,
        }
    )
    return _frame_to_annotations(
        item, rater, label, pairs, pd.Index(list(raters), dtype=object), cats, kind, report, name
    )
