"""Turning a long table of judgements into integer codes: the ingestion behind the model.

:func:`encode_frame` reads one judgement per row (item, annotator, label), skips and
counts the rows that are not judgements, decides the label kind, encodes items,
annotators and labels as integer codes and applies the duplicates policy. It returns an
:class:`Encoded` with everything :class:`~analytics.data.model.Annotations` needs;
:meth:`Annotations.from_frame <analytics.data.model.Annotations.from_frame>` is a thin
call into it. This module does not import the model.

>>> import pandas as pd
>>> df = pd.DataFrame({"item": ["i1", "i1", "i2"], "annotator": ["a", "b", "a"],
...                    "label": ["x", "y", "x"]})
>>> enc = encode_frame(df)
>>> enc.item_codes.tolist(), enc.label_codes.tolist(), list(enc.categories)
([0, 0, 1], [0, 1, 0], ['x', 'y'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.data.cells import (
    SET_TYPES,
    id_text,
    is_missing,
    label_set,
    label_text,
    looks_numeric,
    to_number,
)
from analytics.data.kinds import LabelKind
from analytics.data.load_report import LoadReport, SkipNote

__all__ = ["DUPLICATE_POLICIES", "Encoded", "encode_frame", "one_per_pair", "set_codes"]

#: What to do when one annotator judged one item more than once.
DUPLICATE_POLICIES = ("error", "first", "last", "keep")


@dataclass(frozen=True, eq=False)
class Encoded:
    """The encoded judgements: the fields of an :class:`~analytics.data.model.Annotations`.

    Parameters
    ----------
    item_codes, annotator_codes, label_codes : ndarray of int64, shape (n_judgements,)
        Codes into ``items``, ``annotators`` and ``categories`` (multi-label data: into
        the distinct label sets, see :func:`set_codes`).
    items, annotators, categories : pandas.Index
        The names behind the codes.
    kind : LabelKind
        The label kind, as chosen or inferred.
    label_matrix : ndarray of bool or None
        Multi-label data only: judgements x categories.
    report : LoadReport
        The loader's report, completed with what encoding found.
    """

    item_codes: np.ndarray
    annotator_codes: np.ndarray
    label_codes: np.ndarray
    items: pd.Index
    annotators: pd.Index
    categories: pd.Index
    kind: LabelKind
    label_matrix: np.ndarray | None
    report: LoadReport


def set_codes(matrix: np.ndarray) -> np.ndarray:
    """One code per distinct row of a judgements x categories boolean matrix.

    Parameters
    ----------
    matrix : ndarray of bool, shape (n_judgements, n_categories)
        Which categories each judgement assigned.

    Returns
    -------
    ndarray of int64, shape (n_judgements,)
        The index of each row among ``numpy.unique(matrix, axis=0)`` (sorted rows).

    Examples
    --------
    >>> set_codes(np.array([[1, 0], [0, 0], [1, 0]], bool)).tolist()
    [1, 0, 1]
    """
    if matrix.shape[0] == 0:
        return np.zeros(0, np.int64)
    _, inverse = np.unique(matrix, axis=0, return_inverse=True)
    return inverse.reshape(-1).astype(np.int64)


def one_per_pair(
    item_codes: np.ndarray, annotator_codes: np.ndarray, n_annotators: int, keep: str
) -> np.ndarray:
    """Which judgements to keep for one per annotator and item: the first or the last.

    Parameters
    ----------
    item_codes, annotator_codes : ndarray of int, shape (n_judgements,)
        The judgements' item and annotator codes, in input order.
    n_annotators : int
        How many annotators there are (annotator codes are below it).
    keep : {"first", "last"}
        Which judgement of a repeated (item, annotator) pair to keep, in input order.

    Returns
    -------
    ndarray of bool, shape (n_judgements,)
        True for the kept judgements (all of them when nothing repeats).

    Examples
    --------
    >>> one_per_pair(np.array([0, 0, 1]), np.array([0, 0, 0]), 1, "last").tolist()
    [False, True, True]
    """
    key = item_codes * max(n_annotators, 1) + annotator_codes
    mask = np.zeros(len(key), bool)
    if len(key):
        order = np.argsort(key, kind="stable")
        sk = key[order]
        differs = sk[1:] != sk[:-1]
        last = keep == "last"
        mask[order[np.r_[differs, True] if last else np.r_[True, differs]]] = True
    return mask


def encode_frame(
    df: pd.DataFrame,
    *,
    item: str = "item",
    annotator: str = "annotator",
    label: str = "label",
    kind: str | LabelKind | None = None,
    categories: Sequence[Any] | None = None,
    multilabel_sep: str | None = None,
    duplicates: str = "error",
    name: str = "annotations",
    row_numbers: Sequence[int] | np.ndarray | None = None,
    report: LoadReport | None = None,
) -> Encoded:
    """Encode a long DataFrame with one judgement per row.

    Missing labels (empty, NA, None, NaN, null) mean "not labelled": those rows are
    skipped and counted in the report. Rows with no item or annotator are skipped and
    counted too. Items and annotators are kept as text, in first-seen order.

    Parameters
    ----------
    df : pandas.DataFrame
        Long data, one judgement per row.
    item, annotator, label : str, default "item", "annotator", "label"
        Column names.
    kind : str, LabelKind or None, default None
        ``"nominal"``, ``"ordinal"``, ``"numeric"`` or ``"multilabel"``. Inferred when
        None: sets in the cells, or a ``multilabel_sep``, mean multi-label; text labels
        are nominal; up to 12 whole numbers are nominal codes; other numbers are numeric.
        The report's ``kind_reason`` says which rule was used.
    categories : sequence or None, default None
        Declared categories, in order. Categories nobody used still count; labels outside
        them are an error. Text categories keep numeric-looking labels as text.
    multilabel_sep : str or None, default None
        Split text cells on this separator into label sets.
    duplicates : str, default "error"
        One annotator judging one item more than once: ``"error"``, ``"first"``,
        ``"last"`` or ``"keep"`` (see :data:`DUPLICATE_POLICIES`).
    name : str, default "annotations"
        The source named in error messages when there is no ``report``.
    row_numbers : sequence of int or None, default None
        The row number, as the user counts it in their file, of each row of ``df`` (for
        error messages). Defaults to the DataFrame's position + 2 (a header line, then
        1-based rows).
    report : LoadReport or None, default None
        What the loader found so far; completed and returned in the result.

    Returns
    -------
    Encoded

    Raises
    ------
    AnnotationDataError
        For a missing column, an unknown policy or kind, labels outside the declared
        categories, non-finite numbers, text labels read as numeric, repeated judgements
        under the ``"error"`` policy, or no judgement at all.
    """
    source = report.source if report else name
    for role, col in (("item", item), ("annotator", annotator), ("label", label)):
        if col not in df.columns:
            raise AnnotationDataError(
                f"there is no {role} column '{col}'.",
                source=source,
                hint=f"Columns present: {', '.join(map(str, df.columns))}.",
            )
    if duplicates not in DUPLICATE_POLICIES:
        raise AnnotationDataError(
            f"unknown duplicates policy {duplicates!r}.",
            hint=f"Use one of: {', '.join(DUPLICATE_POLICIES)}.",
        )
    rows = (
        np.asarray(row_numbers, dtype=np.int64)
        if row_numbers is not None
        else np.arange(len(df), dtype=np.int64) + 2
    )
    skipped: list[SkipNote] = list(report.skipped) if report else []
    notes: list[str] = list(report.notes) if report else []

    items_s, anns_s, labels_raw, rows, n_missing = _judgement_rows(
        df, item, annotator, label, rows, skipped
    )

    # ---- label kind
    is_setlike = np.fromiter((isinstance(v, SET_TYPES) for v in labels_raw), bool, len(labels_raw))
    kind_reason = ""
    if kind is not None:
        lk = LabelKind.parse(kind)
        kind_reason = f"Label kind: {lk.value} (as chosen)."
    elif is_setlike.any() or multilabel_sep is not None:
        lk = LabelKind.MULTILABEL
        kind_reason = "Label kind: multi-label (cells hold sets of categories)."
    else:
        lk = None  # decided below once values are parsed
    if lk is LabelKind.MULTILABEL:
        matrix, cat_values = _encode_sets(
            labels_raw, rows, categories, multilabel_sep, source, label
        )
        label_values_codes = None
    else:
        matrix = None
        label_values_codes, cat_values, lk, kind_reason = _encode_single(
            labels_raw, rows, categories, lk, kind_reason, source, label
        )

    # ---- codes for items and annotators (first-seen order)
    item_codes, item_names = pd.factorize(pd.Series(items_s, dtype=object), sort=False)
    ann_codes, ann_names = pd.factorize(pd.Series(anns_s, dtype=object), sort=False)
    item_codes = item_codes.astype(np.int64)
    ann_codes = ann_codes.astype(np.int64)

    keep, n_dup = _duplicates_kept(
        item_codes, ann_codes, len(ann_names), duplicates, items_s, anns_s, rows, source
    )
    if not keep.all():
        item_codes, ann_codes = item_codes[keep], ann_codes[keep]
        if matrix is not None:
            matrix = matrix[keep]
        else:
            label_values_codes = label_values_codes[keep]

    label_codes = set_codes(matrix) if matrix is not None else label_values_codes
    if len(item_codes) == 0:
        why = "; ".join(str(s) for s in skipped) or "every row was skipped"
        raise AnnotationDataError(
            f"no judgements: all {len(df):,} rows lack a label"
            + (f" ({n_missing:,} empty label cells)" if n_missing else "")
            + (f"; {why}" if skipped else "")
            + ".",
            source=source,
            column=label,
            hint="Check that the label column is the right one.",
        )
    cautions: list[str] = list(report.cautions) if report else []
    if (
        lk is LabelKind.ORDINAL
        and categories is None
        and not pd.api.types.is_numeric_dtype(cat_values)
    ):
        cautions.append(
            "Ordinal labels without a declared order: the order used is the order of first "
            f"appearance ({', '.join(map(str, list(cat_values)[:8]))}); declare the categories "
            "in order for ordinal measures to mean anything."
        )

    rep = LoadReport(
        **{
            **(report.__dict__ if report else {"source": source}),
            "n_rows": report.n_rows if report and report.n_rows else len(df),
            "n_judgements": len(item_codes),
            "n_missing": (report.n_missing if report else 0) + n_missing,
            "skipped": tuple(skipped),
            "kind": lk.value,
            "kind_reason": kind_reason,
            "multilabel_sep": multilabel_sep,
            "duplicates": duplicates,
            "n_duplicates": n_dup,
            "categories_declared": categories is not None,
            "cautions": tuple(cautions),
            "notes": tuple(notes),
        }
    )
    return Encoded(
        item_codes=item_codes,
        annotator_codes=ann_codes,
        label_codes=label_codes,
        items=pd.Index(item_names, dtype=object),
        annotators=pd.Index(ann_names, dtype=object),
        categories=cat_values,
        kind=lk,
        label_matrix=matrix,
        report=rep,
    )


# ---------------------------------------------------------------------- steps
def _judgement_rows(
    df: pd.DataFrame,
    item: str,
    annotator: str,
    label: str,
    rows: np.ndarray,
    skipped: list[SkipNote],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """Drop (and note in ``skipped``) rows with no item, annotator or label.

    Returns item and annotator ids as text, the raw labels, their row numbers and how
    many label cells were empty on rows that had an item and an annotator.
    """
    items_raw = df[item].to_numpy(dtype=object)
    anns_raw = df[annotator].to_numpy(dtype=object)
    labels_raw = df[label].to_numpy(dtype=object)

    bad_item = np.fromiter((is_missing(v) for v in items_raw), bool, len(items_raw))
    bad_ann = np.fromiter((is_missing(v) for v in anns_raw), bool, len(anns_raw))
    lab_missing = np.fromiter(
        (False if isinstance(v, SET_TYPES) else is_missing(v) for v in labels_raw),
        bool,
        len(labels_raw),
    )
    for mask, why in (
        (bad_item, f"no item id (column '{item}' empty)"),
        (bad_ann & ~bad_item, f"no annotator id (column '{annotator}' empty)"),
    ):
        if mask.any():
            skipped.append(SkipNote(why, int(mask.sum()), tuple(rows[mask][:20].tolist())))
    n_missing = int((lab_missing & ~bad_item & ~bad_ann).sum())
    keep = ~(bad_item | bad_ann | lab_missing)
    items_s = np.array([id_text(v) for v in items_raw[keep]], dtype=object)
    anns_s = np.array([id_text(v) for v in anns_raw[keep]], dtype=object)
    return items_s, anns_s, labels_raw[keep], rows[keep], n_missing


def _encode_sets(
    labels_raw: np.ndarray,
    rows: np.ndarray,
    categories: Sequence[Any] | None,
    multilabel_sep: str | None,
    source: str,
    label: str,
) -> tuple[np.ndarray, pd.Index]:
    """Multi-label cells as a judgements x categories matrix, and the categories."""
    sets = [label_set(v, multilabel_sep) for v in labels_raw]
    if categories is not None:
        cats = list(categories)
    else:
        cats = []
        seen: set = set()
        for s in sets:
            for c in sorted(s, key=str):
                if c not in seen:
                    seen.add(c)
                    cats.append(c)
    cat_index = {c: i for i, c in enumerate(cats)}
    unknown = [i for i, s in enumerate(sets) if any(c not in cat_index for c in s)]
    if unknown:
        bad = sorted({c for i in unknown for c in sets[i] if c not in cat_index}, key=str)
        raise AnnotationDataError(
            f"labels {bad[:5]} are not among the declared categories.",
            source=source,
            column=label,
            rows=rows[unknown].tolist(),
            hint="Add them to the categories or correct the cells.",
        )
    matrix = np.zeros((len(sets), len(cats)), bool)
    r_idx = [i for i, s in enumerate(sets) for _ in s]
    c_idx = [cat_index[c] for s in sets for c in s]
    matrix[r_idx, c_idx] = True
    return matrix, pd.Index(cats, dtype=object)


def _encode_single(
    labels_raw: np.ndarray,
    rows: np.ndarray,
    categories: Sequence[Any] | None,
    lk: LabelKind | None,
    kind_reason: str,
    source: str,
    label: str,
) -> tuple[np.ndarray, pd.Index, LabelKind, str]:
    """Single labels as category codes; infers the kind when ``lk`` is None."""
    # categories given as Python strings are text, even if they look like numbers
    text_declared = categories is not None and any(isinstance(c, str) for c in categories)
    if not text_declared and looks_numeric(labels_raw):
        values = [to_number(v) for v in labels_raw]
        bad_rows = [i for i, v in enumerate(values) if not np.isfinite(v)]
        if bad_rows:
            raise AnnotationDataError(
                f"labels such as {labels_raw[bad_rows[0]]!r} are not finite numbers.",
                source=source,
                column=label,
                rows=rows[bad_rows].tolist(),
                hint="Correct those cells (or leave them empty for 'not labelled').",
            )
        cats = [to_number(c) for c in categories] if categories is not None else sorted(set(values))
    else:
        values = [label_text(v) for v in labels_raw]
        if categories is not None:
            cats = [label_text(c) for c in categories]
        else:
            cats = list(dict.fromkeys(values))
    if lk is None:
        lk, kind_reason = _infer_kind(cats, numeric=not isinstance(cats[0], str) if cats else False)
    cat_index = {c: i for i, c in enumerate(cats)}
    if len(cat_index) != len(cats):
        raise AnnotationDataError("declared categories contain duplicates.", source=source)
    codes = np.fromiter((cat_index.get(v, -1) for v in values), np.int64, len(values))
    if (codes < 0).any():
        bad_rows = np.flatnonzero(codes < 0)
        bad = sorted({str(values[i]) for i in bad_rows})[:5]
        raise AnnotationDataError(
            f"labels {bad} are not among the declared categories {list(cats)[:10]}.",
            source=source,
            column=label,
            rows=rows[bad_rows].tolist(),
            hint="Add them to the categories or correct the cells.",
        )
    cat_values = pd.Index(cats)
    if lk is LabelKind.NUMERIC and not pd.api.types.is_numeric_dtype(cat_values):
        raise AnnotationDataError(
            "the labels are not numbers, so they cannot be treated as numeric.",
            source=source,
            column=label,
            hint="Choose the nominal or ordinal label kind.",
        )
    return codes, cat_values, lk, kind_reason


def _infer_kind(cats: list, numeric: bool) -> tuple[LabelKind, str]:
    if not numeric:
        return LabelKind.NOMINAL, "Label kind: nominal (text labels)."
    all_int = all(float(c).is_integer() for c in cats)
    if all_int and len(cats) <= 12:
        return (
            LabelKind.NOMINAL,
            f"Label kind: nominal ({len(cats)} whole-number codes read as categories); "
            "choose ordinal or numeric if the numbers are a scale.",
        )
    return (
        LabelKind.NUMERIC,
        f"Label kind: numeric ({len(cats)} distinct numbers); choose nominal or ordinal "
        "if they are codes.",
    )


def _duplicates_kept(
    item_codes: np.ndarray,
    ann_codes: np.ndarray,
    n_annotators: int,
    duplicates: str,
    items_s: np.ndarray,
    anns_s: np.ndarray,
    rows: np.ndarray,
    source: str,
) -> tuple[np.ndarray, int]:
    """Which judgements the duplicates policy keeps, and how many repeats there were."""
    first = one_per_pair(item_codes, ann_codes, n_annotators, "first")
    dup_later = ~first  # a repeat of an earlier row
    n_dup = int(dup_later.sum())
    keep = np.ones(len(item_codes), bool)
    if n_dup:
        if duplicates == "error":
            first_dups = np.flatnonzero(dup_later)[:5]
            pairs = "; ".join(
                f"item '{items_s[i]}' by '{anns_s[i]}' (row {rows[i]})" for i in first_dups
            )
            raise AnnotationDataError(
                f"{n_dup} repeated judgements: the same annotator labelled the same item "
                f"more than once, e.g. {pairs}.",
                source=source,
                rows=rows[dup_later].tolist(),
                hint="Choose a duplicates policy: 'first', 'last' or 'keep' "
                "(repeated judgements are legitimate input for Dawid-Skene).",
            )
        if duplicates == "first":
            keep = first
        elif duplicates == "last":
            keep = one_per_pair(item_codes, ann_codes, n_annotators, "last")
    return keep, n_dup
