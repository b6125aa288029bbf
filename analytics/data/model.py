"""The canonical data model: :class:`Annotations`.

Every analytics module takes an :class:`Annotations`. Underneath it is one row per
judgement (item, annotator, label) stored as integer codes, next to the original names
for display. Multi-label data keeps a boolean judgement x category matrix instead of a
single category code; the empty set is a real judgement ("none of these"), distinct
from a missing one (no row at all).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd
from scipy import sparse

from analytics._core.errors import AnnotationDataError

__all__ = [
    "Annotations",
    "LabelKind",
    "LoadReport",
    "SkipNote",
    "as_annotations",
    "is_missing",
    "looks_numeric",
]

_NUMBER = re.compile(r"^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$")
MISSING_TOKENS = frozenset({"", "na", "n/a", "nan", "none", "null", "<na>", "nat"})
DUPLICATE_POLICIES = ("error", "first", "last", "keep")
# An explicit empty label set in a text cell ("none of these"); an empty cell is missing.
EMPTY_SET_TOKENS = frozenset({"{}", "[]", "set()", "\u2205"})


class LabelKind(StrEnum):
    """What a label is, which decides the sensible distances between labels."""

    NOMINAL = "nominal"
    ORDINAL = "ordinal"
    NUMERIC = "numeric"  # interval or ratio
    MULTILABEL = "multilabel"

    @classmethod
    def parse(cls, value: str | LabelKind) -> LabelKind:
        try:
            return cls(value.value if isinstance(value, LabelKind) else str(value).lower())
        except ValueError:
            allowed = ", ".join(k.value for k in cls)
            raise AnnotationDataError(
                f"unknown label kind {value!r}.", hint=f"Use one of: {allowed}."
            ) from None


@dataclass(frozen=True)
class SkipNote:
    """Rows of the input that did not become judgements, and why."""

    reason: str
    count: int
    rows: tuple[int, ...] = ()

    def __str__(self) -> str:
        shown = ", ".join(str(r) for r in self.rows[:5])
        more = f", ... ({self.count} in all)" if self.count > 5 else ""
        where = f" (rows {shown}{more})" if self.rows else ""
        return f"{self.count} skipped: {self.reason}{where}"


@dataclass(frozen=True)
class LoadReport:
    """What the loader found and decided, for the user to check.

    Nothing the user gave is dropped silently: every skipped row is in ``skipped``.
    """

    source: str = "<DataFrame>"
    format: str = "dataframe"
    layout: str = "long"
    layout_reason: str = ""
    encoding: str | None = None
    columns: dict[str, Any] = field(default_factory=dict)
    n_rows: int = 0
    n_judgements: int = 0
    n_missing: int = 0
    skipped: tuple[SkipNote, ...] = ()
    kind: str = ""
    kind_reason: str = ""
    multilabel_sep: str | None = None
    duplicates: str = "error"
    n_duplicates: int = 0
    tool: str | None = None
    categories_declared: bool = False
    cautions: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def n_skipped(self) -> int:
        return int(sum(s.count for s in self.skipped))

    def messages(self) -> list[str]:
        """Plain-language lines describing every decision and every skipped row."""
        out = []
        if self.tool:
            out.append(f"Recognised an export of {self.tool}.")
        out.append(f"Read {self.n_rows:,} rows as {self.format.upper()} ({self.layout} form).")
        out.extend(self.notes)
        if self.layout_reason:
            out.append(self.layout_reason)
        if self.encoding and self.encoding.lower() not in ("utf-8", "utf-8-sig", "ascii"):
            out.append(f"The file is not valid UTF-8; it was decoded as {self.encoding}.")
        if self.kind_reason:
            out.append(self.kind_reason)
        if self.multilabel_sep:
            out.append(f"Cells were split into label sets on {self.multilabel_sep!r}.")
        if self.n_missing:
            out.append(
                f"{self.n_missing:,} empty or missing label cells were read as 'not labelled' "
                "(not as a category)."
            )
        if self.n_duplicates:
            action = {
                "first": "kept the first of each",
                "last": "kept the last of each",
                "keep": "kept all of them (repeated judgements)",
            }.get(self.duplicates, "")
            out.append(
                f"{self.n_duplicates:,} repeated judgements (same annotator, same item): {action}."
            )
        out.extend(str(s) for s in self.skipped)
        out.extend(self.cautions)
        return out

    def warnings(self) -> list[str]:
        """Only the lines that say something was skipped, repaired or guessed."""
        out = [str(s) for s in self.skipped] + list(self.cautions)
        if self.n_duplicates and self.duplicates in ("first", "last"):
            out.append(
                f"{self.n_duplicates:,} repeated judgements were dropped "
                f"(policy '{self.duplicates}')."
            )
        if self.encoding and self.encoding.lower() not in ("utf-8", "utf-8-sig", "ascii"):
            out.append(f"The file was decoded as {self.encoding}, not UTF-8.")
        return out


def is_missing(value: Any) -> bool:
    """True for the cell values that mean "not labelled"."""
    if value is None:
        return True
    if isinstance(value, float) and np.isnan(value):
        return True
    if value is pd.NA or value is pd.NaT:
        return True
    if isinstance(value, str) and value.strip().lower() in MISSING_TOKENS:
        return True
    return False


def looks_numeric(values: Iterable[Any]) -> bool:
    """True if every value is a number or a string that is plainly a decimal number.

    Deliberately stricter than ``float()``, which reads ``"4_20"`` as 420.
    """
    seen = False
    for v in values:
        seen = True
        if isinstance(v, bool):
            return False
        if isinstance(v, (int, float, np.integer, np.floating)):
            continue
        if not (isinstance(v, str) and _NUMBER.match(v)):
            return False
    return seen


def _to_number(v: Any) -> float | int:
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return int(v)
    f = float(v)
    return int(f) if f.is_integer() and abs(f) < 2**53 else f


def _as_set(v: Any, sep: str | None) -> frozenset:
    if isinstance(v, (set, frozenset, list, tuple, np.ndarray)):
        return frozenset(str(x).strip() if not isinstance(x, str) else x.strip() for x in v)
    if isinstance(v, str):
        if v.strip() in EMPTY_SET_TOKENS:
            return frozenset()
        if sep is None:
            return frozenset([v.strip()]) if v.strip() else frozenset()
        return frozenset(p.strip() for p in v.split(sep) if p.strip())
    return frozenset([str(v)])


def _freeze(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a


@dataclass(frozen=True, eq=False)
class Annotations:
    """Judgements of items by annotators: the one data model of Concord.

    Build one with :func:`analytics.load_annotations` (files, uploads, DataFrames) or
    :meth:`Annotations.from_frame`. It is immutable; :meth:`subset` returns a new one.

    Attributes
    ----------
    item_codes, annotator_codes : ndarray of int64, shape (n_judgements,)
        Index into :attr:`items` and :attr:`annotators`.
    label_codes : ndarray of int64, shape (n_judgements,)
        Single-label data: index into :attr:`categories`. Multi-label data: index into
        :attr:`label_sets_table`, the distinct label sets.
    items, annotators, categories : pandas.Index
        Original names. Categories are in their declared order, numeric labels sorted
        numerically, text labels in first-seen order.
    kind : LabelKind
    label_matrix : ndarray of bool, shape (n_judgements, n_categories) or None
        Multi-label data only: which categories each judgement assigned.
    name : str
        A display name (usually the file name).
    report : LoadReport
        What the loader did.
    """

    item_codes: np.ndarray
    annotator_codes: np.ndarray
    label_codes: np.ndarray
    items: pd.Index
    annotators: pd.Index
    categories: pd.Index
    kind: LabelKind = LabelKind.NOMINAL
    label_matrix: np.ndarray | None = None
    name: str = "annotations"
    report: LoadReport = field(default_factory=LoadReport)

    def __post_init__(self) -> None:
        kind = LabelKind.parse(self.kind)
        object.__setattr__(self, "kind", kind)
        for attr in ("item_codes", "annotator_codes", "label_codes"):
            object.__setattr__(self, attr, _freeze(np.asarray(getattr(self, attr), np.int64)))
        for attr in ("items", "annotators", "categories"):
            object.__setattr__(self, attr, pd.Index(getattr(self, attr)))
        n = len(self.item_codes)
        if not (len(self.annotator_codes) == n == len(self.label_codes)):
            raise AnnotationDataError("item, annotator and label codes differ in length.")
        if kind is LabelKind.MULTILABEL:
            if self.label_matrix is None:
                raise AnnotationDataError("multi-label annotations need a label_matrix.")
            lm = _freeze(np.asarray(self.label_matrix, bool))
            if lm.shape != (n, len(self.categories)):
                raise AnnotationDataError("label_matrix must be n_judgements x n_categories.")
            object.__setattr__(self, "label_matrix", lm)
        elif self.label_matrix is not None:
            raise AnnotationDataError("label_matrix is only for multi-label annotations.")
        if n:
            if self.item_codes.min() < 0 or self.item_codes.max() >= len(self.items):
                raise AnnotationDataError("item code out of range.")
            if self.annotator_codes.min() < 0 or self.annotator_codes.max() >= len(self.annotators):
                raise AnnotationDataError("annotator code out of range.")
            top = (
                len(self.label_sets_table) if kind is LabelKind.MULTILABEL else len(self.categories)
            )
            if self.label_codes.min() < 0 or self.label_codes.max() >= top:
                raise AnnotationDataError("label code out of range.")

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_frame(
        cls,
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
    ) -> Annotations:
        """Build from a long DataFrame with one judgement per row.

        Missing labels (empty, NA, None, NaN, null) mean "not labelled": those rows are
        skipped and counted in :attr:`report`. Rows with no item or annotator are
        skipped and counted too. Items and annotators are kept as text.

        Parameters
        ----------
        df
            Long data, one judgement per row.
        item, annotator, label
            Column names.
        kind
            ``"nominal"``, ``"ordinal"``, ``"numeric"`` or ``"multilabel"``; inferred when
            None (sets, or ``multilabel_sep``, mean multi-label; see :meth:`LoadReport`
            ``kind_reason`` for the rule used).
        categories
            Declared categories, in order. Categories nobody used still count. Labels
            outside them are an error.
        multilabel_sep
            Split text cells on this separator into label sets.
        duplicates
            One annotator judging one item more than once: ``"error"``, ``"first"``,
            ``"last"`` or ``"keep"``.
        row_numbers
            The row number, as the user counts it in their file, of each row of ``df``
            (for error messages). Defaults to the DataFrame's position + 2 (a header
            line, then 1-based rows).
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

        items_raw = df[item].to_numpy(dtype=object)
        anns_raw = df[annotator].to_numpy(dtype=object)
        labels_raw = df[label].to_numpy(dtype=object)

        bad_item = np.fromiter((is_missing(v) for v in items_raw), bool, len(items_raw))
        bad_ann = np.fromiter((is_missing(v) for v in anns_raw), bool, len(anns_raw))
        lab_missing = np.fromiter(
            (
                False if isinstance(v, (set, frozenset, list, tuple, np.ndarray)) else is_missing(v)
                for v in labels_raw
            ),
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
        items_raw, anns_raw, labels_raw, rows = (
            items_raw[keep],
            anns_raw[keep],
            labels_raw[keep],
            rows[keep],
        )
        items_s = np.array([_id_text(v) for v in items_raw], dtype=object)
        anns_s = np.array([_id_text(v) for v in anns_raw], dtype=object)

        # ---- label kind
        is_setlike = np.fromiter(
            (isinstance(v, (set, frozenset, list, tuple, np.ndarray)) for v in labels_raw),
            bool,
            len(labels_raw),
        )
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
            sets = [_as_set(v, multilabel_sep) for v in labels_raw]
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
            cat_values = pd.Index(cats, dtype=object)
            label_values_codes = None
        else:
            matrix = None
            # categories given as Python strings are text, even if they look like numbers
            text_declared = categories is not None and any(isinstance(c, str) for c in categories)
            if not text_declared and looks_numeric(labels_raw):
                values = [_to_number(v) for v in labels_raw]
                bad_rows = [i for i, v in enumerate(values) if not np.isfinite(v)]
                if bad_rows:
                    raise AnnotationDataError(
                        f"labels such as {labels_raw[bad_rows[0]]!r} are not finite numbers.",
                        source=source,
                        column=label,
                        rows=rows[bad_rows].tolist(),
                        hint="Correct those cells (or leave them empty for 'not labelled').",
                    )
                if categories is not None:
                    cats = [_to_number(c) for c in categories]
                else:
                    cats = sorted(set(values))
            else:
                values = [_label_text(v) for v in labels_raw]
                if categories is not None:
                    cats = [_label_text(c) for c in categories]
                else:
                    cats = list(dict.fromkeys(values))
            if lk is None:
                lk, kind_reason = _infer_kind(
                    cats, numeric=not isinstance(cats[0], str) if cats else False
                )
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
            label_values_codes = codes

        # ---- codes for items and annotators (first-seen order)
        item_codes, item_names = pd.factorize(pd.Series(items_s, dtype=object), sort=False)
        ann_codes, ann_names = pd.factorize(pd.Series(anns_s, dtype=object), sort=False)
        item_codes = item_codes.astype(np.int64)
        ann_codes = ann_codes.astype(np.int64)

        # ---- duplicates
        key = item_codes * max(len(ann_names), 1) + ann_codes
        order = np.argsort(key, kind="stable")
        dup_later = np.zeros(len(key), bool)
        if len(key):
            same = key[order][1:] == key[order][:-1]
            dup_later[order[1:][same]] = True  # a repeat of an earlier row
        n_dup = int(dup_later.sum())
        keep = np.ones(len(key), bool)
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
                keep = ~dup_later
            elif duplicates == "last":
                dup_earlier = np.zeros(len(key), bool)
                same = key[order][1:] == key[order][:-1]
                dup_earlier[order[:-1][same]] = True
                keep = ~dup_earlier
        if not keep.all():
            item_codes, ann_codes = item_codes[keep], ann_codes[keep]
            if matrix is not None:
                matrix = matrix[keep]
            else:
                label_values_codes = label_values_codes[keep]

        if matrix is not None:
            label_codes = _set_codes(matrix)
        else:
            label_codes = label_values_codes
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
        return cls(
            item_codes=item_codes,
            annotator_codes=ann_codes,
            label_codes=label_codes,
            items=pd.Index(item_names, dtype=object),
            annotators=pd.Index(ann_names, dtype=object),
            categories=cat_values,
            kind=lk,
            label_matrix=matrix,
            name=name,
            report=rep,
        )

    # ------------------------------------------------------------------ sizes
    @property
    def n_items(self) -> int:
        return len(self.items)

    @property
    def n_annotators(self) -> int:
        return len(self.annotators)

    @property
    def n_judgements(self) -> int:
        return len(self.item_codes)

    @property
    def n_categories(self) -> int:
        return len(self.categories)

    @property
    def is_multilabel(self) -> bool:
        return self.kind is LabelKind.MULTILABEL

    @cached_property
    def fingerprint(self) -> str:
        """A short content hash: equal data give equal fingerprints (used as a cache key)."""
        h = hashlib.blake2b(digest_size=12)
        for arr in (self.item_codes, self.annotator_codes, self.label_codes):
            h.update(arr.tobytes())
        if self.label_matrix is not None:
            h.update(np.packbits(self.label_matrix).tobytes())
        for names in (self.items, self.annotators, self.categories):
            h.update(repr(names.tolist()).encode())
        h.update(self.kind.value.encode())
        return h.hexdigest()

    @cached_property
    def has_repeats(self) -> bool:
        """True if some annotator judged some item more than once."""
        key = np.sort(self.item_codes * max(self.n_annotators, 1) + self.annotator_codes)
        return bool((key[1:] == key[:-1]).any())

    # ------------------------------------------------------------------ label views
    @cached_property
    def label_sets_table(self) -> np.ndarray:
        """Multi-label data: the distinct label sets, shape (n_sets, n_categories)."""
        if self.label_matrix is None:
            raise AnnotationDataError("label sets exist only for multi-label annotations.")
        if self.label_matrix.shape[0] == 0:
            return _freeze(np.zeros((0, self.n_categories), bool))
        uniq = np.unique(self.label_matrix, axis=0)
        # codes were assigned by _set_codes in the same order (np.unique of rows)
        return _freeze(uniq)

    def label_values(self) -> np.ndarray:
        """The label of each judgement as a number (numeric and ordinal codes only).

        Numeric categories give their value; text ordinal categories give their rank.
        """
        if self.is_multilabel:
            raise AnnotationDataError("multi-label judgements have no single value.")
        if pd.api.types.is_numeric_dtype(self.categories):
            return self.categories.to_numpy(dtype=float)[self.label_codes]
        return self.label_codes.astype(float)

    def labels(self) -> np.ndarray:
        """The original label of each judgement (frozensets for multi-label data)."""
        if self.is_multilabel:
            cats = np.asarray(self.categories, dtype=object)
            table = np.empty(len(self.label_sets_table), dtype=object)
            table[:] = [frozenset(cats[row]) for row in self.label_sets_table]
            return table[self.label_codes]
        return np.asarray(self.categories, dtype=object)[self.label_codes]

    def to_frame(self, sep: str | None = None) -> pd.DataFrame:
        """The long form: one row per judgement, columns item, annotator, label.

        Multi-label sets come as frozensets, or as ``sep``-joined text when ``sep`` is given
        (categories in their declared order).
        """
        labels = self.labels()
        if self.is_multilabel and sep is not None:
            order = {c: i for i, c in enumerate(self.categories)}
            labels = np.array(
                [sep.join(str(c) for c in sorted(s, key=order.__getitem__)) for s in labels],
                dtype=object,
            )
        return pd.DataFrame(
            {
                "item": np.asarray(self.items, dtype=object)[self.item_codes],
                "annotator": np.asarray(self.annotators, dtype=object)[self.annotator_codes],
                "label": labels,
            }
        )

    def count_matrix(self) -> np.ndarray:
        """Items x categories: how many judgements put each item in each category.

        For multi-label data, how many annotators assigned the category to the item.
        """
        n_i, n_c = self.n_items, self.n_categories
        if self.is_multilabel:
            onehot = sparse.csr_matrix(
                (np.ones(self.n_judgements), (self.item_codes, np.arange(self.n_judgements))),
                shape=(n_i, self.n_judgements),
            )
            return np.asarray(onehot @ self.label_matrix.astype(np.int64)).astype(np.int64)
        flat = np.bincount(self.item_codes * n_c + self.label_codes, minlength=n_i * n_c)
        return flat.reshape(n_i, n_c)

    def counts(self) -> pd.DataFrame:
        """:meth:`count_matrix` as a DataFrame indexed by item, one column per category."""
        return pd.DataFrame(self.count_matrix(), index=self.items, columns=self.categories)

    def wide_codes(self) -> np.ndarray:
        """Items x annotators of category codes, -1 where not labelled.

        Single-label data only (multi-label data has :meth:`binary`). When an annotator
        judged an item more than once, the last judgement in input order is used.
        """
        if self.is_multilabel:
            raise AnnotationDataError("use binary() for multi-label annotations.")
        out = np.full((self.n_items, self.n_annotators), -1, np.int64)
        out[self.item_codes, self.annotator_codes] = self.label_codes
        return out

    def wide(self) -> pd.DataFrame:
        """Items x annotators of original labels (NaN/None where not labelled)."""
        out = np.full((self.n_items, self.n_annotators), None, dtype=object)
        out[self.item_codes, self.annotator_codes] = self.labels()
        frame = pd.DataFrame(out, index=self.items, columns=self.annotators)
        frame.index.name, frame.columns.name = "item", "annotator"
        return frame

    def judged(self) -> np.ndarray:
        """Items x annotators, True where the annotator judged the item."""
        out = np.zeros((self.n_items, self.n_annotators), bool)
        out[self.item_codes, self.annotator_codes] = True
        return out

    def binary(self) -> np.ndarray:
        """Items x annotators x categories of bool: which categories each annotator gave.

        For single-label data this is the one-hot view. Combine with :meth:`judged` to
        tell an empty set (judged, nothing assigned) from a missing judgement.
        """
        out = np.zeros((self.n_items, self.n_annotators, self.n_categories), bool)
        if self.is_multilabel:
            out[self.item_codes, self.annotator_codes] = self.label_matrix
        else:
            out[self.item_codes, self.annotator_codes, self.label_codes] = True
        return out

    # ------------------------------------------------------------------ summaries
    def judgements_per_item(self) -> pd.Series:
        return pd.Series(
            np.bincount(self.item_codes, minlength=self.n_items),
            index=self.items,
            name="judgements",
        )

    def judgements_per_annotator(self) -> pd.Series:
        return pd.Series(
            np.bincount(self.annotator_codes, minlength=self.n_annotators),
            index=self.annotators,
            name="judgements",
        )

    def coverage(self) -> pd.DataFrame:
        """Annotators x annotators: how many items each pair both judged (diagonal: own)."""
        j = sparse.csr_matrix(
            (np.ones(self.n_judgements), (self.item_codes, self.annotator_codes)),
            shape=(self.n_items, self.n_annotators),
        )
        j.data[:] = 1.0  # repeated judgements count once
        shared = np.asarray((j.T @ j).todense()).astype(np.int64)
        return pd.DataFrame(shared, index=self.annotators, columns=self.annotators)

    def label_distribution(self) -> pd.DataFrame:
        """Annotators x categories: how often each annotator used each category."""
        n_a, n_c = self.n_annotators, self.n_categories
        if self.is_multilabel:
            onehot = sparse.csr_matrix(
                (np.ones(self.n_judgements), (self.annotator_codes, np.arange(self.n_judgements))),
                shape=(n_a, self.n_judgements),
            )
            counts = np.asarray(onehot @ self.label_matrix.astype(np.int64)).astype(np.int64)
        else:
            counts = np.bincount(
                self.annotator_codes * n_c + self.label_codes, minlength=n_a * n_c
            ).reshape(n_a, n_c)
        return pd.DataFrame(counts, index=self.annotators, columns=self.categories)

    def summary(self) -> pd.DataFrame:
        """One row per fact about the data set: columns ``measure`` and ``value`` (as text).

        For the numbers themselves use the properties (``n_items``, ...) and
        :meth:`judgements_per_item`.
        """
        per_item = np.bincount(self.item_codes, minlength=self.n_items)
        judged = self.judged()
        n_judges = judged.sum(axis=1)
        rows = [
            ("items", self.n_items),
            ("annotators", self.n_annotators),
            ("judgements", self.n_judgements),
            ("categories", self.n_categories),
            ("label kind", self.kind.value),
            (
                "judgements per item (mean)",
                round(float(per_item.mean()), 2) if self.n_items else float("nan"),
            ),
            ("judgements per item (min)", int(per_item.min()) if self.n_items else 0),
            ("judgements per item (max)", int(per_item.max()) if self.n_items else 0),
            ("items with 2+ annotators", int((n_judges >= 2).sum())),
            ("items with 1 annotator", int((n_judges == 1).sum())),
            ("repeated judgements", int(self.n_judgements - judged.sum())),
            ("missing labels read as 'not labelled'", self.report.n_missing),
            ("rows skipped", self.report.n_skipped),
        ]
        if self.is_multilabel:
            sizes = self.label_matrix.sum(axis=1)
            rows.append(
                (
                    "labels per judgement (mean)",
                    round(float(sizes.mean()), 2) if len(sizes) else float("nan"),
                )
            )
            rows.append(("empty-set judgements", int((sizes == 0).sum())))
        # values are shown as text: the column mixes counts, means and the label kind
        return pd.DataFrame([(m, str(v)) for m, v in rows], columns=["measure", "value"])

    # ------------------------------------------------------------------ subsets
    def subset(
        self,
        annotators: Iterable[Any] | None = None,
        items: Iterable[Any] | None = None,
        categories: Iterable[Any] | None = None,
    ) -> Annotations:
        """A new :class:`Annotations` restricted to chosen annotators, items, categories.

        Names are the original ones. Items and annotators left with no judgement are
        dropped. For single-label data, judgements outside the chosen categories are
        dropped; for multi-label data every judgement stays, its set restricted to the
        chosen categories (an empty set is still a judgement). Category order follows
        the original order.
        """
        keep = np.ones(self.n_judgements, bool)
        if annotators is not None:
            keep &= np.isin(
                self.annotator_codes, _codes_of(self.annotators, annotators, "annotator")
            )
        if items is not None:
            keep &= np.isin(self.item_codes, _codes_of(self.items, items, "item"))
        cat_keep = np.arange(self.n_categories)
        if categories is not None:
            cat_keep = np.sort(_codes_of(self.categories, categories, "category"))
            if not self.is_multilabel:
                keep &= np.isin(self.label_codes, cat_keep)
        item_c, i_names = _recode(self.item_codes[keep], self.items)
        ann_c, a_names = _recode(self.annotator_codes[keep], self.annotators)
        cats = self.categories[cat_keep]
        if self.is_multilabel:
            matrix = self.label_matrix[keep][:, cat_keep]
            label_codes = _set_codes(matrix)
        else:
            remap = np.full(self.n_categories, -1, np.int64)
            remap[cat_keep] = np.arange(len(cat_keep))
            label_codes = remap[self.label_codes[keep]]
            matrix = None
        return Annotations(
            item_codes=item_c,
            annotator_codes=ann_c,
            label_codes=label_codes,
            items=i_names,
            annotators=a_names,
            categories=cats,
            kind=self.kind,
            label_matrix=matrix,
            name=self.name,
            report=self.report,
        )

    def without_repeats(self, keep: str = "last") -> Annotations:
        """One judgement per annotator and item: the ``"first"`` or ``"last"`` in input order.

        Agreement compares coders, and an annotator's second look at an item is not a
        second coder; models such as Dawid-Skene use the repeats, so loading keeps them
        on request (``duplicates="keep"``) and each analysis decides.
        """
        if keep not in ("first", "last"):
            raise AnnotationDataError(f"keep must be 'first' or 'last', not {keep!r}.")
        if not self.has_repeats:
            return self
        key = self.item_codes * max(self.n_annotators, 1) + self.annotator_codes
        order = np.argsort(key, kind="stable")
        sk = key[order]
        if keep == "last":
            chosen = order[np.r_[sk[1:] != sk[:-1], True]]
        else:
            chosen = order[np.r_[True, sk[1:] != sk[:-1]]]
        mask = np.zeros(self.n_judgements, bool)
        mask[np.sort(chosen)] = True
        matrix = self.label_matrix[mask] if self.is_multilabel else None
        return Annotations(
            item_codes=self.item_codes[mask],
            annotator_codes=self.annotator_codes[mask],
            label_codes=_set_codes(matrix) if matrix is not None else self.label_codes[mask],
            items=self.items,
            annotators=self.annotators,
            categories=self.categories,
            kind=self.kind,
            label_matrix=matrix,
            name=self.name,
            report=self.report,
        )

    def with_kind(self, kind: str | LabelKind) -> Annotations:
        """The same judgements read as another label kind (not to or from multi-label)."""
        lk = LabelKind.parse(kind)
        if (lk is LabelKind.MULTILABEL) != self.is_multilabel:
            raise AnnotationDataError("cannot convert between single-label and multi-label data.")
        if lk is LabelKind.NUMERIC and not pd.api.types.is_numeric_dtype(self.categories):
            raise AnnotationDataError(
                "the categories are not numbers, so the labels cannot be numeric.",
                hint="Choose nominal or ordinal.",
            )
        return Annotations(
            self.item_codes,
            self.annotator_codes,
            self.label_codes,
            self.items,
            self.annotators,
            self.categories,
            lk,
            self.label_matrix,
            self.name,
            self.report,
        )

    def __repr__(self) -> str:
        return (
            f"Annotations({self.name!r}: {self.n_items} items, {self.n_annotators} annotators, "
            f"{self.n_judgements} judgements, {self.n_categories} categories, {self.kind.value})"
        )


# ---------------------------------------------------------------------- helpers
def _id_text(v: Any) -> str:
    """Item and annotator ids are text; integral floats (from Excel, JSON) lose '.0'."""
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return str(int(v))
    return str(v).strip()


def _label_text(v: Any) -> Any:
    if isinstance(v, str):
        return v.strip()
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return str(int(v))
    return str(v)


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


def _set_codes(matrix: np.ndarray) -> np.ndarray:
    if matrix.shape[0] == 0:
        return np.zeros(0, np.int64)
    _, inverse = np.unique(matrix, axis=0, return_inverse=True)
    return inverse.reshape(-1).astype(np.int64)


def _codes_of(index: pd.Index, names: Iterable[Any], what: str) -> np.ndarray:
    names = list(names)
    lookup = index.get_indexer(names)
    if (lookup < 0).any() and not pd.api.types.is_numeric_dtype(index):
        lookup = index.get_indexer([str(n) for n in names])
    if (lookup < 0).any():
        missing = [n for n, c in zip(names, lookup, strict=True) if c < 0][:5]
        raise AnnotationDataError(f"unknown {what}(s): {missing}.")
    return lookup.astype(np.int64)


def _recode(codes: np.ndarray, names: pd.Index) -> tuple[np.ndarray, pd.Index]:
    used = np.unique(codes)
    remap = np.full(len(names), -1, np.int64)
    remap[used] = np.arange(len(used))
    return remap[codes], names[used]


def as_annotations(data: Annotations | pd.DataFrame, **kwargs: Any) -> Annotations:
    """Accept an :class:`Annotations` or a long DataFrame (item, annotator, label).

    Every public analytics function calls this first, so scripts may pass a DataFrame.
    """
    if isinstance(data, Annotations):
        return data
    if isinstance(data, pd.DataFrame):
        from analytics.data.loading import load_annotations

        return load_annotations(data, **kwargs)
    raise TypeError(
        f"expected Annotations or a pandas DataFrame, got {type(data).__name__}; "
        "load files with analytics.load_annotations()."
    )
