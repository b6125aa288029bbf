"""The canonical data model: :class:`Annotations`.

Every analytics module takes an :class:`Annotations`. Underneath it is one row per
judgement (item, annotator, label) stored as integer codes, next to the original names
for display. Multi-label data keeps a boolean judgement x category matrix instead of a
single category code; the empty set is a real judgement ("none of these"), distinct
from a missing one (no row at all).

Building one from a table is ingestion and lives in :mod:`analytics.data.encode`
(:meth:`Annotations.from_frame` calls it); the read-only views (labels, wide tables,
counts, summaries) are inherited from :class:`~analytics.data.views.AnnotationViews`;
loading files is :mod:`analytics.data.loading`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError, ArgumentTypeError
from analytics.data.encode import Encoded, encode_frame, one_per_pair, set_codes
from analytics.data.kinds import LabelKind
from analytics.data.load_report import LoadReport
from analytics.data.views import AnnotationViews

__all__ = ["Annotations", "LabelKind"]


def _freeze(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a


@dataclass(frozen=True, eq=False)
class Annotations(AnnotationViews):
    """Judgements of items by annotators: the one data model of Concord.

    Build one with :func:`analytics.load_annotations` (files, uploads, DataFrames) or
    :meth:`Annotations.from_frame`. It is immutable; :meth:`subset` returns a new one.

    Parameters
    ----------
    item_codes, annotator_codes : ndarray of int64, shape (n_judgements,)
        Index into :attr:`items` and :attr:`annotators`.
    label_codes : ndarray of int64, shape (n_judgements,)
        Single-label data: index into :attr:`categories`. Multi-label data: index into
        :attr:`label_sets_table`, the distinct label sets.
    items, annotators, categories : pandas.Index
        Original names. Categories are in their declared order, numeric labels sorted
        numerically, text labels in first-seen order. Ids read as text from a file stay
        in pandas' Arrow-backed ``str`` dtype (an object Index of 2 M item ids costs
        0.1 s to build); ids from a DataFrame of objects or numbers are objects. Either
        way each name is a Python ``str`` (or the number) when read.
    kind : LabelKind or str, default LabelKind.NOMINAL
        What a label is (see :class:`~analytics.data.kinds.LabelKind`).
    label_matrix : ndarray of bool, shape (n_judgements, n_categories) or None, default None
        Multi-label data only: which categories each judgement assigned.
    name : str, default "annotations"
        A display name (usually the file name).
    report : LoadReport, default LoadReport()
        What the loader did.

    Raises
    ------
    AnnotationDataError
        When the codes differ in length or fall outside the names, or ``label_matrix``
        is missing (multi-label) or present (single-label) or of the wrong shape.

    See Also
    --------
    analytics.data.load_annotations : load files, uploads and DataFrames.
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
        missing: Iterable[str] | None = None,
    ) -> Annotations:
        """Build from a long DataFrame with one judgement per row.

        Missing labels (empty, NA, None, NaN, null) mean "not labelled": those rows are
        skipped and counted in :attr:`report`. Rows with no item or annotator are
        skipped and counted too. Items and annotators are kept as text. The work is
        done by :func:`analytics.data.encode.encode_frame`.

        Parameters
        ----------
        df : pandas.DataFrame
            Long data, one judgement per row.
        item, annotator, label : str, default "item", "annotator", "label"
            Column names.
        kind : str, LabelKind or None, default None
            ``"nominal"``, ``"ordinal"``, ``"numeric"`` or ``"multilabel"``; inferred when
            None (sets, or ``multilabel_sep``, mean multi-label; see :class:`LoadReport`
            ``kind_reason`` for the rule used).
        categories : sequence or None, default None
            Declared categories, in order. Categories nobody used still count. Labels
            outside them are an error.
        multilabel_sep : str or None, default None
            Split text cells on this separator into label sets.
        duplicates : str, default "error"
            One annotator judging one item more than once: ``"error"``, ``"first"``,
            ``"last"`` or ``"keep"``.
        name : str, default "annotations"
            A display name (usually the file name).
        row_numbers : sequence of int or None, default None
            The row number, as the user counts it in their file, of each row of ``df``
            (for error messages). Defaults to the DataFrame's position + 2 (a header
            line, then 1-based rows).
        report : LoadReport or None, default None
            What the loader found so far (the loader passes it; scripts leave it out).
        missing : iterable of str or None, default None
            Texts read as "not labelled" (case and blanks ignored); None means
            :data:`~analytics.data.cells.MISSING_TOKENS`. Blank cells, None and NaN always
            are.

        Returns
        -------
        Annotations

        Raises
        ------
        AnnotationDataError
            When a column is missing, a label is outside the declared categories, a
            repeated judgement meets the ``"error"`` policy, or no row is a judgement.

        Examples
        --------
        >>> import pandas as pd
        >>> df = pd.DataFrame({"item": ["i1", "i1", "i2", "i2"],
        ...                    "annotator": ["a", "b", "a", "b"],
        ...                    "label": ["yes", "no", "yes", None]})
        >>> ann = Annotations.from_frame(df, name="demo")
        >>> ann
        Annotations('demo': 2 items, 2 annotators, 3 judgements, 2 categories, nominal)
        >>> ann.report.n_missing
        1
        """
        enc = encode_frame(
            df,
            item=item,
            annotator=annotator,
            label=label,
            kind=kind,
            categories=categories,
            multilabel_sep=multilabel_sep,
            duplicates=duplicates,
            name=name,
            row_numbers=row_numbers,
            report=report,
            missing=missing,
        )
        return cls.from_encoded(enc, name, labels=df[label])

    @classmethod
    def from_encoded(
        cls, enc: Encoded, name: str = "annotations", labels: pd.Series | None = None
    ) -> Annotations:
        """Build from judgements already encoded by :func:`~analytics.data.encode.encode_frame`.

        Parameters
        ----------
        enc : Encoded
            The codes, names, kind and report.
        name : str, default "annotations"
            A display name (usually the file name).
        labels : pandas.Series or None, default None
            The label column that was encoded. When it holds booleans only (missing
            cells aside) and no categories were declared, the categories are the
            booleans ``True``/``False``, not their text (the cells are read as text).

        Returns
        -------
        Annotations
        """
        if labels is not None and _holds_booleans(labels, enc):
            enc = replace(
                enc, categories=pd.Index([c == "True" for c in enc.categories], dtype=object)
            )
        return cls(
            item_codes=enc.item_codes,
            annotator_codes=enc.annotator_codes,
            label_codes=enc.label_codes,
            items=enc.items,
            annotators=enc.annotators,
            categories=enc.categories,
            kind=enc.kind,
            label_matrix=enc.label_matrix,
            name=name,
            report=enc.report,
        )

    # ------------------------------------------------------------------ sizes
    @property
    def n_items(self) -> int:
        """How many items (with at least one judgement)."""
        return len(self.items)

    @property
    def n_annotators(self) -> int:
        """How many annotators."""
        return len(self.annotators)

    @property
    def n_judgements(self) -> int:
        """How many judgements (rows of the long form)."""
        return len(self.item_codes)

    @property
    def n_categories(self) -> int:
        """How many categories (declared ones nobody used included)."""
        return len(self.categories)

    @property
    def is_multilabel(self) -> bool:
        """Whether each judgement is a set of categories."""
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
        # codes were assigned by set_codes in the same order (np.unique of rows)
        return _freeze(uniq)

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

        Parameters
        ----------
        annotators, items, categories : iterable or None, default None
            The names to keep (None keeps all). Names may be given as text.

        Returns
        -------
        Annotations

        Raises
        ------
        AnnotationDataError
            For a name that is not in the data.
        ArgumentTypeError
            One name (text) or a number instead of a list of names.
        """
        for key, names in (
            ("annotators", annotators),
            ("items", items),
            ("categories", categories),
        ):
            _check_names(key, names)
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
            label_codes = set_codes(matrix)
        else:
            remap = np.full(self.n_categories, -1, np.int64)
            remap[cat_keep] = np.arange(len(cat_keep))
            label_codes = remap[self.label_codes[keep]]
            matrix = None
        return replace(
            self,
            item_codes=item_c,
            annotator_codes=ann_c,
            label_codes=label_codes,
            items=i_names,
            annotators=a_names,
            categories=cats,
            label_matrix=matrix,
        )

    def without_repeats(self, keep: str = "last") -> Annotations:
        """One judgement per annotator and item: the ``"first"`` or ``"last"`` in input order.

        Agreement compares coders, and an annotator's second look at an item is not a
        second coder; models such as Dawid-Skene use the repeats, so loading keeps them
        on request (``duplicates="keep"``) and each analysis decides.

        Parameters
        ----------
        keep : {"last", "first"}, default "last"
            Which judgement of a repeated (item, annotator) pair to keep.

        Returns
        -------
        Annotations
            ``self`` when nothing repeats.

        Raises
        ------
        AnnotationDataError
            For another ``keep``.
        """
        if keep not in ("first", "last"):
            raise AnnotationDataError(f"keep must be 'first' or 'last', not {keep!r}.")
        if not self.has_repeats:
            return self
        mask = one_per_pair(self.item_codes, self.annotator_codes, self.n_annotators, keep)
        matrix = self.label_matrix[mask] if self.is_multilabel else None
        return replace(
            self,
            item_codes=self.item_codes[mask],
            annotator_codes=self.annotator_codes[mask],
            label_codes=set_codes(matrix) if matrix is not None else self.label_codes[mask],
            label_matrix=matrix,
        )

    def with_kind(self, kind: str | LabelKind) -> Annotations:
        """The same judgements read as another label kind (not to or from multi-label).

        Parameters
        ----------
        kind : str or LabelKind
            ``"nominal"``, ``"ordinal"`` or ``"numeric"`` (for single-label data).

        Returns
        -------
        Annotations

        Raises
        ------
        AnnotationDataError
            Between single- and multi-label, or numeric for text categories.
        """
        lk = LabelKind.parse(kind)
        if (lk is LabelKind.MULTILABEL) != self.is_multilabel:
            raise AnnotationDataError("cannot convert between single-label and multi-label data.")
        if lk is LabelKind.NUMERIC and not pd.api.types.is_numeric_dtype(self.categories):
            raise AnnotationDataError(
                "the categories are not numbers, so the labels cannot be numeric.",
                hint="Choose nominal or ordinal.",
            )
        return replace(self, kind=lk)

    def __repr__(self) -> str:
        return (
            f"Annotations({self.name!r}: {self.n_items} items, {self.n_annotators} annotators, "
            f"{self.n_judgements} judgements, {self.n_categories} categories, {self.kind.value})"
        )


# ---------------------------------------------------------------------- helpers
def _holds_booleans(column: pd.Series, enc: Encoded) -> bool:
    """A label column of booleans only, encoded as single labels without declared categories."""
    if enc.kind is LabelKind.MULTILABEL or enc.report.categories_declared:
        return False
    if pd.api.types.is_bool_dtype(column.dtype):
        return True
    return column.dtype == object and pd.api.types.infer_dtype(column, skipna=True) == "boolean"


def _check_names(key: str, names: Any) -> None:
    """Refuse one name or a number where a list of names goes (not read as its letters)."""
    if names is None:
        return
    if isinstance(names, (str, bytes)) or not isinstance(names, Iterable):
        raise ArgumentTypeError(
            f"{key}= takes a list of names, got {type(names).__name__} ({names!r}).",
            hint=f"Pass e.g. {key}=[{names!r}] for one.",
        )


def _codes_of(index: pd.Index, names: Iterable[Any], what: str) -> np.ndarray:
    names = list(names)
    lookup = index.get_indexer(names)
    if (lookup < 0).any() and not pd.api.types.is_numeric_dtype(index):
        lookup = index.get_indexer([str(n) for n in names])
    if (lookup < 0).any():
        missing = [n for n, c in zip(names, lookup, strict=True) if c < 0][:5]
        noun = what if len(missing) == 1 else {"category": "categories"}.get(what, f"{what}s")
        raise AnnotationDataError(f"unknown {noun}: {missing}.")
    return lookup.astype(np.int64)


def _recode(codes: np.ndarray, names: pd.Index) -> tuple[np.ndarray, pd.Index]:
    used = np.unique(codes)
    remap = np.full(len(names), -1, np.int64)
    remap[used] = np.arange(len(used))
    return remap[codes], names[used]
