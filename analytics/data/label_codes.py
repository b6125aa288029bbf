"""Encoding the label column: its kind, and its codes (single labels) or matrix (multi-label).

Part of :func:`analytics.data.encode.encode_frame`, which runs it on one thread while the
item and annotator ids are encoded on another.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError, show_text
from analytics._core.formatting import format_count
from analytics.data.cells import (
    EMPTY_SET_TOKENS,
    SET_TYPES,
    CellColumn,
    first_seen,
    label_set,
    label_text,
    to_number,
)
from analytics.data.codes import first_seen_kept
from analytics.data.kinds import LabelKind, infer_kind
from analytics.data.load_report import missing_token_cautions
from analytics.data.text_index import is_text

__all__ = ["encode_labels"]


def encode_labels(
    lab: CellColumn,
    keep: np.ndarray,
    has_ids: np.ndarray,
    rows: Any,
    rows_all: np.ndarray,
    categories: Sequence[Any] | None,
    kind: str | LabelKind | None,
    multilabel_sep: str | None,
    source: str,
    label: str,
) -> tuple[tuple, list[str], list[str]]:
    """The label kind and codes (single labels) or matrix (multi-label), and cautions.

    Returns ``((matrix, codes, categories, kind, kind_reason, n_split), cautions, notes)``:
    ``matrix`` is None for single labels, ``codes`` None for multi-label data.
    """
    # ---- label kind
    setlike = lab.containers is not None and bool((lab.containers & keep).any())
    kind_reason = ""
    if kind is not None:
        lk = LabelKind.parse(kind)
        kind_reason = f"Label kind: {lk.value} (as chosen)."
    elif setlike or multilabel_sep is not None:
        lk = LabelKind.MULTILABEL
        kind_reason = "Label kind: multi-label (cells hold sets of categories)."
    else:
        lk = None  # decided below once values are parsed
    n_split, notes = 0, []
    if lk is LabelKind.MULTILABEL:
        matrix, cat_values, n_split, notes = _encode_sets(
            lab, keep, rows, categories, multilabel_sep, source, label
        )
        label_values_codes = None
        per_category = matrix.sum(axis=0)
    else:
        if setlike:
            first = int(np.flatnonzero(lab.containers & keep)[0])
            raise AnnotationDataError(
                f"label cells hold sets or lists (e.g. {str(lab.cells[first])[:60]}), but the "
                f"label kind is {lk.value}.",
                source=source,
                column=str(label),
                rows=rows_all[lab.containers & keep].tolist(),
                hint="Choose the multi-label kind, or put one label per cell.",
            )
        matrix = None
        label_values_codes, cat_values, lk, kind_reason, merged = _encode_single(
            lab, keep, rows, categories, lk, kind_reason, source, label
        )
        per_category = np.bincount(label_values_codes, minlength=len(cat_values))
    cautions = missing_token_cautions(
        lab.token_counts(has_ids), per_category, cat_values, str(label)
    )
    if lk is not LabelKind.MULTILABEL:
        cautions += merged
    return (matrix, label_values_codes, cat_values, lk, kind_reason, n_split), cautions, notes


def _encode_sets(
    lab: CellColumn,
    keep: np.ndarray,
    rows: Any,
    categories: Sequence[Any] | None,
    multilabel_sep: str | None,
    source: str,
    label: str,
) -> tuple[np.ndarray, pd.Index, int, list[str]]:
    """Multi-label cells as a judgements x categories matrix, the categories, cells split,
    and a note counting the blank parts dropped.

    Each distinct text is split once; container cells (lists, sets) are read one by one.
    A blank part names no category: ``";x"`` split on ``";"`` and the list ``["", "x"]``
    are both ``{"x"}`` (the list's had been a category ``''``), counted in the note.
    """
    n_u = len(lab.uniques)
    sets = [label_set(v, multilabel_sep) for v in lab.uniques]
    full = lab.codes.astype(np.int64)  # a copy, wide enough for the container codes
    if lab.containers is not None:
        where = np.flatnonzero(lab.containers & keep)
        full[where] = n_u + np.arange(len(where))
        sets += [label_set(lab.cells[i], multilabel_sep) for i in where]
    kcodes = full[keep]
    used = pd.unique(kcodes)
    if categories is not None:
        cats = list(categories)
    else:
        cats, seen = [], set()
        for d in used:
            for c in sorted(sets[d], key=str):
                if c not in seen:
                    seen.add(c)
                    cats.append(c)
    cat_index = {c: i for i, c in enumerate(cats)}
    unknown_d = np.zeros(len(sets), bool)
    unknown_d[used] = [any(c not in cat_index for c in sets[d]) for d in used]
    if unknown_d.any():
        bad = sorted({c for d in np.flatnonzero(unknown_d) for c in sets[d] if c not in cat_index})
        raise AnnotationDataError(
            f"labels {bad[:5]} are not among the declared categories.",
            source=source,
            column=label,
            rows=rows[unknown_d[kcodes]].tolist(),
            hint="Add them to the categories or correct the cells.",
        )
    distinct = np.zeros((len(sets), len(cats)), bool)
    for d in used:
        distinct[d, [cat_index[c] for c in sets[d]]] = True
    split = np.zeros(len(sets), bool)
    if multilabel_sep:
        split[:n_u] = [isinstance(v, str) and multilabel_sep in v for v in lab.uniques]
    blanks = np.zeros(len(sets), np.int64)
    blanks[used] = [
        _blank_parts(lab.uniques[d] if d < n_u else lab.cells[where[d - n_u]], multilabel_sep)
        for d in used
    ]
    notes = []
    if blanks.any():
        n_blank = int(blanks[kcodes].sum())
        d = int(np.flatnonzero(blanks)[0])
        example = lab.uniques[d] if d < n_u else lab.cells[where[d - n_u]]
        example = list(example) if isinstance(example, (tuple, np.ndarray)) else example
        notes.append(
            f"{format_count(n_blank, 'empty part')} of label sets in column "
            f"{show_text(label)} {'was' if n_blank == 1 else 'were'} dropped (e.g. in "
            f"{repr(example)[:60]}): an empty text names no category."
        )
    return distinct[kcodes], pd.Index(cats, dtype=object), int(split[kcodes].sum()), notes


def _blank_parts(value: Any, sep: str | None) -> int:
    """How many parts of a label-set cell are blank (dropped by :func:`label_set`)."""
    if isinstance(value, SET_TYPES):
        return sum(label_set([x], sep) == frozenset() for x in value)
    if not (sep and isinstance(value, str)) or value.strip() in EMPTY_SET_TOKENS:
        return 0
    return sum(not p.strip() for p in value.split(sep)) if value.strip() else 0


def merged_number_cautions(lab: CellColumn, used: np.ndarray, label: str) -> list[str]:
    """A caution when different label texts are one number ('1' and '01' both 1).

    Labels that are all numbers are read as numbers, so texts that differ only in how
    the number is written become one category. That is right for '1' and '1.0' from two
    tools, and wrong for codes where '01' and '1' differ: the load says so instead of
    deciding silently. Looks at the distinct texts only (``used``: those of judgements).
    """
    if not is_text(lab.uniques):
        return []
    texts = lab.texts("label")[used]
    numbers = lab.numbers()[used].astype(np.float64)
    per_number = pd.Series(texts).groupby(numbers).unique()
    merged = per_number[per_number.map(len) > 1]
    if not len(merged):
        return []
    shown = ", ".join(repr(t) for t in sorted(merged.iloc[0])[:3])
    more = f" ({len(merged):,} numbers are written more than one way)" if len(merged) > 1 else ""
    return [
        f"Labels {shown} in column {show_text(label)} are the same number, so they are read "
        f"as one category{more}. If they are different codes, declare the categories as "
        "text (categories=['01', '1', ...]; on the Data page, Category order) to keep "
        "them apart."
    ]


def _encode_single(
    lab: CellColumn,
    keep: np.ndarray,
    rows: Any,
    categories: Sequence[Any] | None,
    lk: LabelKind | None,
    kind_reason: str,
    source: str,
    label: str,
) -> tuple[np.ndarray, pd.Index, LabelKind, str, list[str]]:
    """Single labels as category codes; infers the kind when ``lk`` is None. Also returns
    the cautions for label texts merged into one number."""
    ucodes = lab.codes if keep.all() else lab.codes[keep]
    used = np.bincount(ucodes, minlength=len(lab.uniques)) > 0  # a pass, not a scatter
    # categories given as Python strings are text, even if they look like numbers
    text_declared = categories is not None and any(isinstance(c, str) for c in categories)
    isnum = None if text_declared or not used.any() else lab.numeric()
    numeric = isnum is not None and bool(isnum[used].all())
    if numeric:
        nums = np.where(used, lab.numbers(), 0)
        bad = used & ~np.isfinite(nums.astype(np.float64))
        if bad.any():
            raise AnnotationDataError(
                f"labels such as {str(lab.uniques[np.flatnonzero(bad)[0]])!r} are not finite "
                "numbers.",
                source=source,
                column=label,
                rows=rows[bad[ucodes]].tolist(),
                hint="Correct those cells (or leave them empty for 'not labelled').",
            )
        if categories is not None:
            cat_values = pd.Index([to_number(c) for c in categories])
        else:
            values = np.unique(nums[used])
            whole = nums.dtype.kind == "i" or bool(
                (np.floor(values) == values).all() and (np.abs(values) < 2**53).all()
            )
            cat_values = pd.Index(values.astype(np.int64) if whole else values)
        shown = nums
    else:
        shown = lab.texts("label")
        if categories is not None:
            cat_values = pd.Index([label_text(c) for c in categories])
        else:
            tcodes, tnames = pd.factorize(shown)
            if len(tnames) == len(shown):  # distinct texts: the codes are the text codes
                codes, order = first_seen_kept(
                    lab.codes, keep, len(shown), lab.first_runs(), used, ucodes
                )
            else:
                codes, order = first_seen(tcodes[ucodes], len(tnames))
            cat_values = pd.Index(np.asarray(tnames, object)[order].tolist())
    if lk is None:
        lk, kind_reason = infer_kind(list(cat_values), numeric=numeric and len(cat_values) > 0)
    if not cat_values.is_unique:
        raise AnnotationDataError("declared categories contain duplicates.", source=source)
    if numeric or categories is not None:
        codes = cat_values.get_indexer(pd.Index(shown))[ucodes].astype(np.int64)
    if (codes < 0).any():
        bad = sorted({str(to_number(v)) if numeric else str(v) for v in shown[ucodes[codes < 0]]})
        raise AnnotationDataError(
            f"labels {bad[:5]} are not among the declared categories {list(cat_values)[:10]}.",
            source=source,
            column=label,
            rows=rows[codes < 0].tolist(),
            hint="Add them to the categories or correct the cells.",
        )
    if lk is LabelKind.NUMERIC and not pd.api.types.is_numeric_dtype(cat_values):
        # name the cells that are not numbers: one 'inf' in a column of numbers is hard to
        # find (isnum is None when the categories were declared as text)
        at = np.zeros(len(ucodes), bool) if isnum is None else ~np.asarray(isnum, bool)[ucodes]
        bad = sorted({str(v) for v in shown[ucodes[at]]})
        raise AnnotationDataError(
            f"labels {bad[:5]} are not numbers, so the labels cannot be treated as numeric."
            if at.any()
            else "the labels are not numbers, so they cannot be treated as numeric.",
            source=source,
            column=label,
            rows=rows[at].tolist() if at.any() else None,
            hint="Correct those cells, or choose the nominal or ordinal label kind.",
        )
    if numeric:
        merged = merged_number_cautions(lab, used, label)
    else:
        merged = bool_cautions(lab, used, shown, label)
        if categories is None and isnum is not None:
            merged += apart_number_cautions(shown, used & isnum, used & ~isnum, label)
    return codes.astype(np.int64, copy=False), cat_values, lk, kind_reason, merged


def apart_number_cautions(
    texts: pd.Index, numbers: np.ndarray, others: np.ndarray, label: str
) -> list[str]:
    """A caution when label texts that are one number stay apart beside text labels.

    Labels that are all numbers are read as numbers ('1' and '1.0' one category, with
    :func:`merged_number_cautions`); one text label among them (``other``) makes every
    label text, and '1' and '1.0' two categories. The load names the pair instead of
    splitting a category silently. Looks at the distinct texts only.

    Parameters
    ----------
    texts : pandas.Index
        The label text of each distinct value.
    numbers, others : ndarray of bool
        Distinct values in use that are numbers, and that are not.
    label : str
        The label column, for the message.

    Returns
    -------
    list of str
        One caution, or none.

    Examples
    --------
    >>> apart_number_cautions(pd.Index(["1", "1.0", "x"]), np.array([1, 1, 0], bool),
    ...                       np.array([0, 0, 1], bool), "label")[0][:35]
    "Labels '1', '1.0' in column 'label'"
    """
    if numbers.sum() < 2 or not others.any():
        return []
    written = pd.Series(texts.to_numpy(object)[numbers], dtype=object)
    value = pd.to_numeric(written, errors="coerce").to_numpy(np.float64)
    per_number = written.groupby(value).unique()
    apart = per_number[per_number.map(len) > 1]
    if not len(apart):
        return []
    shown = ", ".join(repr(t) for t in sorted(apart.iloc[0])[:3])
    more = f" ({len(apart):,} numbers are written more than one way)" if len(apart) > 1 else ""
    text = texts[int(np.flatnonzero(others)[0])]
    return [
        f"Labels {shown} in column {show_text(label)} are the same number written differently, "
        f"but the column also holds text labels (e.g. {text!r}), so they are read as text and "
        f"kept apart as different categories{more}. If they are one category, write them the "
        "same way in the file."
    ]


def bool_cautions(lab: CellColumn, used: np.ndarray, texts: pd.Index, label: str) -> list[str]:
    """A caution when booleans stood beside text or numbers in the label column.

    The booleans are read as the texts 'True' and 'False', a category each beside the
    others: an Excel TRUE next to the text 'TRUE', or JSON true next to 1, are two
    categories. Kept apart (nothing is guessed), and said.
    """
    if not lab.mixed_bools:
        return []
    words = texts[used]
    others = [t for t in words[~words.isin(["True", "False"])][:3]]
    if not others:
        return []
    return [
        f"Column {show_text(label)} holds booleans (true/false) and other labels "
        f"({', '.join(map(repr, others))}): the booleans were read as the texts 'True' and "
        "'False', a category each, apart from the others (a boolean true and the text "
        "'TRUE' or the number 1 are different categories). If they mean the same, write the "
        "column in one type: all booleans, or all text."
    ]
