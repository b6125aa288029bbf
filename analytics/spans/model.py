"""The span data model: :class:`SpanAnnotations` and the checks every loader goes through.

A span is ``(item, annotator, start, end, label)``: a half-open range ``[start, end)`` of
character offsets (Python string indices, i.e. code points) in the item's text. Beside the
spans the model keeps which documents each annotator *completed* (a completed document
without spans means "no span here", which agreement must count) and the texts when known.

Every constructor ends in :meth:`SpanAnnotations.from_frame`, which refuses, naming the
file, row and field: a missing or non-integer offset, ``end <= start``, an offset past the
end of the text, an offset that cuts a character (between a letter and its combining mark,
or inside a surrogate pair), two overlapping spans of the same label by one annotator on
one document, and different texts given for the same document.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError, require
from analytics._core.formatting import format_count
from analytics.data import SkipNote
from analytics.spans.checks import (
    add_completed,
    blank,
    check_against_text,
    check_overlaps,
    collect_texts,
    offsets,
)

__all__ = ["SPAN_COLUMNS", "SpanAnnotations", "SpanLoadReport", "require_spans"]

SPAN_COLUMNS = ("item", "annotator", "start", "end", "label")


@dataclass(frozen=True)
class SpanLoadReport:
    """What a span loader found and decided.

    Parameters
    ----------
    source : str, default "<DataFrame>"
        The file name shown to the user.
    format : str, default "dataframe"
        ``"table"``, ``"label-studio"``, ``"prodigy"``, ``"conll"`` or ``"dataframe"``.
    n_rows : int, default 0
        Records (rows, tasks, lines) read.
    n_spans : int, default 0
        Spans kept.
    skipped : tuple of SkipNote, default ()
        Records that did not become spans, by reason.
    completed_from : str, default ""
        How the documents each annotator completed were known.
    cautions : tuple of str, default ()
        Guesses the user should check.
    notes : tuple of str, default ()
        Other decisions.
    """

    source: str = "<DataFrame>"
    format: str = "dataframe"
    n_rows: int = 0
    n_spans: int = 0
    skipped: tuple[SkipNote, ...] = ()
    completed_from: str = ""
    cautions: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def n_skipped(self) -> int:
        """Records skipped, all reasons together."""
        return sum(note.count for note in self.skipped)


@dataclass(frozen=True, eq=False)
class SpanAnnotations:
    """Span annotations: who marked which character range of which document, as what.

    Build it with :func:`analytics.spans.load_spans` or :meth:`from_frame`; the
    constructor trusts its arguments.

    Attributes
    ----------
    spans : pandas.DataFrame
        One row per span: ``item, annotator, start, end, label`` (``start``/``end``
        int64 character offsets, half-open), sorted by item, annotator, label, start.
    items : pandas.Index
        The documents (every document some annotator completed).
    annotators : pandas.Index
        The annotators.
    labels : pandas.Index
        The span labels, sorted.
    completed : numpy.ndarray of bool, shape (n_items, n_annotators)
        ``completed[d, a]``: annotator ``a`` finished document ``d`` (with or without spans).
    texts : pandas.Series
        Each document's text (index ``items``), None where unknown.
    item_code, annotator_code, label_code : numpy.ndarray of int64
        The integer codes of each span row.
    report : SpanLoadReport
        What the loader found and decided.
    name : str
        A short name for displays.
    """

    spans: pd.DataFrame
    items: pd.Index
    annotators: pd.Index
    labels: pd.Index
    completed: np.ndarray
    texts: pd.Series
    item_code: np.ndarray
    annotator_code: np.ndarray
    label_code: np.ndarray
    report: SpanLoadReport = field(default_factory=SpanLoadReport)
    name: str = "spans"

    @property
    def n_items(self) -> int:
        """Number of documents."""
        return len(self.items)

    @property
    def n_annotators(self) -> int:
        """Number of annotators."""
        return len(self.annotators)

    @property
    def n_spans(self) -> int:
        """Number of spans."""
        return len(self.spans)

    @property
    def starts(self) -> np.ndarray:
        """Span starts (int64)."""
        return self.spans["start"].to_numpy(np.int64)

    @property
    def ends(self) -> np.ndarray:
        """Span ends (int64, exclusive)."""
        return self.spans["end"].to_numpy(np.int64)

    def lengths(self) -> np.ndarray:
        """Each document's length in characters: its text's, else the last span end.

        Returns
        -------
        numpy.ndarray of int64, shape (n_items,)
        """
        known = np.array([len(t) if isinstance(t, str) else -1 for t in self.texts], np.int64)
        last = np.zeros(self.n_items, np.int64)
        if self.n_spans:
            np.maximum.at(last, self.item_code, self.ends)
        return np.where(known >= 0, known, last)

    @property
    def texts_known(self) -> bool:
        """Whether every document's text is known."""
        return bool(self.texts.map(lambda t: isinstance(t, str)).all())

    @property
    def fingerprint(self) -> str:
        """A short hash of the spans, the completed documents and the texts (for caches)."""
        h = hashlib.sha256()
        h.update(pd.util.hash_pandas_object(self.spans, index=False).to_numpy().tobytes())
        h.update(np.packbits(self.completed).tobytes() + str(self.completed.shape).encode())
        h.update(
            pd.util.hash_pandas_object(self.items.to_series().astype(str), index=False)
            .to_numpy()
            .tobytes()
        )
        h.update(
            pd.util.hash_pandas_object(self.annotators.to_series().astype(str), index=False)
            .to_numpy()
            .tobytes()
        )
        h.update(
            pd.util.hash_pandas_object(self.texts.fillna("\x00"), index=False).to_numpy().tobytes()
        )
        return h.hexdigest()[:16]

    def completed_frame(self) -> pd.DataFrame:
        """The ``(item, annotator)`` pairs of completed documents, as a DataFrame."""
        d, a = np.nonzero(self.completed)
        return pd.DataFrame({"item": self.items[d], "annotator": self.annotators[a]})

    def to_frame(self, *, with_text: bool = False) -> pd.DataFrame:
        """The long table :func:`~analytics.spans.load_spans` reads back.

        One row per span, plus a row with empty ``start``, ``end`` and ``label`` for each
        document an annotator completed without spans.

        Parameters
        ----------
        with_text : bool, default False
            Add a ``text`` column with each document's text (None where unknown).

        Returns
        -------
        pandas.DataFrame
        """
        has = np.zeros_like(self.completed)
        has[self.item_code, self.annotator_code] = True
        d, a = np.nonzero(self.completed & ~has)
        empty = pd.DataFrame(
            {
                "item": self.items[d],
                "annotator": self.annotators[a],
                "start": pd.array([None] * len(d), dtype="Int64"),
                "end": pd.array([None] * len(d), dtype="Int64"),
                "label": [None] * len(d),
            }
        )
        out = pd.concat(
            [self.spans.astype({"start": "Int64", "end": "Int64"}), empty], ignore_index=True
        )
        if with_text:
            out["text"] = self.texts.reindex(out["item"]).to_numpy(object)
        return out

    def __repr__(self) -> str:
        return (
            f"SpanAnnotations({self.name!r}: {format_count(self.n_items, 'document')}, "
            f"{format_count(self.n_annotators, 'annotator')}, "
            f"{format_count(self.n_spans, 'span')}, {format_count(len(self.labels), 'label')})"
        )

    @classmethod
    def from_frame(
        cls,
        frame: pd.DataFrame,
        *,
        completed: Mapping[Any, Iterable[Any]] | pd.DataFrame | None = None,
        texts: Mapping[Any, str] | None = None,
        source: str = "<DataFrame>",
        rows: np.ndarray | None = None,
        report: SpanLoadReport | None = None,
        name: str | None = None,
    ) -> SpanAnnotations:
        """Check a table of spans and build the model.

        Parameters
        ----------
        frame : pandas.DataFrame
            Columns ``item, annotator, start, end, label``; a row whose ``start``,
            ``end`` and ``label`` are all empty says "this annotator completed this
            document and marked nothing". An optional ``text`` column gives each
            document's text (it must be the same on every row of a document).
        completed : mapping or DataFrame, optional
            The documents each annotator completed: ``{item: [annotators]}`` or a
            DataFrame with ``item`` and ``annotator`` columns. Pairs with spans are
            always completed. Default: only the documents where an annotator has a span
            or an empty row (stated as a caution in the report).
        texts : mapping, optional
            ``{item: text}``.
        source : str, default "<DataFrame>"
            The file named in errors.
        rows : numpy.ndarray of int, optional
            The row number of each frame row as a person counts it in the file (default
            ``index + 2``: a header line, then 1-based rows).
        report : SpanLoadReport, optional
            The loader's report, completed with the span count.
        name : str, optional
            A short name (default: ``source``).

        Returns
        -------
        SpanAnnotations

        Raises
        ------
        AnnotationDataError
            Naming file, row and column of the first problem found.
        """
        missing = [c for c in SPAN_COLUMNS if c not in frame.columns]
        if missing:
            raise AnnotationDataError(
                f"no column {missing[0]!r}; span tables need the columns "
                + ", ".join(SPAN_COLUMNS),
                source=source,
                hint="Rename the columns, or choose the tool's export format.",
            )
        n = len(frame)
        rownum = np.arange(n) + 2 if rows is None else np.asarray(rows)
        item = frame["item"].to_numpy(object)
        annotator = frame["annotator"].to_numpy(object)
        for col, values in (("item", item), ("annotator", annotator)):
            bad = np.flatnonzero(
                pd.isna(values) | (pd.Series(values).astype(str).str.strip() == "")
            )
            if len(bad):
                raise AnnotationDataError(
                    f"empty {col}", source=source, column=col, rows=rownum[bad].tolist()
                )
        item, stripped = _stripped(item, "document id")
        annotator, said = _stripped(annotator, "annotator name")
        start_raw, end_raw, label_raw = (frame[c] for c in ("start", "end", "label"))
        labels_text, said_labels = _stripped(label_raw.to_numpy(object), "label")
        label_raw = pd.Series(labels_text, index=frame.index)
        stripped += said + said_labels
        empty = blank(start_raw) & blank(end_raw) & blank(label_raw)
        keep = ~empty
        start = offsets(start_raw[keep], "start", source, rownum[keep])
        end = offsets(end_raw[keep], "end", source, rownum[keep])
        labels = label_raw[keep].to_numpy(object)
        bad = np.flatnonzero(blank(label_raw[keep]))
        if len(bad):
            raise AnnotationDataError(
                "a span without a label",
                source=source,
                column="label",
                rows=rownum[keep][bad].tolist(),
            )
        bad = np.flatnonzero(end <= start)
        if len(bad):
            raise AnnotationDataError(
                "end is not after start (spans are half-open [start, end) and cannot be empty)",
                source=source,
                column="end",
                rows=rownum[keep][bad].tolist(),
            )
        row_item, items = pd.factorize(item)
        row_annotator, annotators = pd.factorize(annotator)
        items, annotators = pd.Index(items, dtype=object), pd.Index(annotators, dtype=object)
        done = np.zeros((len(items), len(annotators)), bool)
        done[row_item, row_annotator] = True
        completed_from = "documents where an annotator has a span or an empty row"
        if not empty.any():
            completed_from = "documents where an annotator has a span"
        if completed is not None:
            items, annotators, done = add_completed(completed, items, annotators, done, source)
            completed_from = "completed= (plus documents with spans)"
        all_texts = collect_texts(frame, item, texts, items, source, rownum)
        span = pd.DataFrame(
            {
                "item": item[keep],
                "annotator": annotator[keep],
                "start": start,
                "end": end,
                "label": labels.astype(str),
            }
        )
        span_rows = rownum[keep]
        i_code = row_item[keep].astype(np.int64)  # completed= only appends documents
        a_code = row_annotator[keep].astype(np.int64)
        l_code, label_names = pd.factorize(span["label"], sort=True)
        l_code = l_code.astype(np.int64)
        label_index = pd.Index(label_names, dtype=object)
        check_against_text(all_texts, i_code, start, end, source, span_rows)
        order = np.lexsort((start, l_code, a_code, i_code))
        span, span_rows = span.iloc[order].reset_index(drop=True), span_rows[order]
        i_code, a_code, l_code = i_code[order], a_code[order], l_code[order]
        check_overlaps(i_code, a_code, l_code, span, source, span_rows)
        base = report or SpanLoadReport(source=source, n_rows=n)
        cautions = base.cautions
        if completed is None and not base.completed_from and not empty.any():
            cautions += (
                "Which documents each annotator completed was not given: only documents "
                "where they marked a span (or have an empty row) count. Documents they read "
                "and left empty would raise agreement if missing: add a row with empty "
                "start, end and label for each such document and annotator (or, in the library, "
                "pass completed=).",
            )
        if stripped:
            cautions += (
                "Spaces around names were removed ("
                + "; ".join(stripped)
                + "): 'PER' and ' PER' are one label, 'a' and 'a ' one annotator.",
            )
        rep = SpanLoadReport(
            source=base.source,
            format=base.format,
            n_rows=base.n_rows,
            n_spans=len(span),
            skipped=base.skipped,
            completed_from=base.completed_from or completed_from,
            cautions=cautions,
            notes=base.notes,
        )
        return cls(
            spans=span,
            items=items,
            annotators=annotators,
            labels=label_index,
            completed=done,
            texts=all_texts,
            item_code=i_code,
            annotator_code=a_code,
            label_code=l_code,
            report=rep,
            name=name or source,
        )


def _stripped(values: np.ndarray, what: str) -> tuple[np.ndarray, list[str]]:
    """``values`` with the spaces around each text removed, and what that changed, in words.

    Spaces around an id or a label are never meant (an export's padding, a hand-edited
    cell); kept, they make 'PER' and ' PER' two labels and every pair's F1 0.
    """
    texts = pd.Series(values, dtype=object)
    is_text = np.fromiter((isinstance(v, str) for v in values), bool, len(values))
    if not is_text.any():  # numeric ids (a tool's user ids): nothing to strip
        return values, []
    clean = texts[is_text].str.strip().reindex(texts.index)  # NaN where not text
    changed = clean.notna() & (clean != texts)
    if not changed.any():
        return values, []
    before = pd.unique(texts[changed].to_numpy(object))
    out = texts.where(~changed, clean).to_numpy(object)
    shown = ", ".join(repr(v) for v in before[:3]) + (", ..." if len(before) > 3 else "")
    return out, [f"{format_count(len(before), what)}: {shown}"]


def require_spans(spans: Any, call: str) -> None:
    """Refuse anything but :class:`SpanAnnotations` (a raw table of spans, say)."""
    require(
        spans,
        isinstance(spans, SpanAnnotations),
        "SpanAnnotations (what load_spans returns)",
        hint=f"Load the spans first: {call}(load_spans(table_or_path)).",
    )
