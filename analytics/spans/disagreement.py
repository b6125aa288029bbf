"""Where span annotators disagree: label swaps, the worst documents, each span's support.

- :func:`label_confusion`: for every ordered pair of annotators, each span of the first
  against the second's spans that overlap it (any label): which labels get swapped, and
  ``(none)`` when the second marked nothing there;
- :func:`document_agreement`: each document's mean pairwise F1, to find the worst ones;
- :func:`span_support`: how many annotators marked exactly each span;
- :func:`document_segments`: one document's text cut at every span boundary, per
  annotator, for a side-by-side view.
"""

from __future__ import annotations

from itertools import pairwise, permutations

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.spans.matching import f1_from_totals, pair_counts
from analytics.spans.model import SpanAnnotations, require_spans
from analytics.spans.summary import mean_over_pairs

__all__ = [
    "NONE_LABEL",
    "document_agreement",
    "document_segments",
    "label_confusion",
    "span_support",
]

NONE_LABEL = "(none)"
"""The row/column of :func:`label_confusion` for "the other annotator marked nothing here"."""


def label_confusion(spans: SpanAnnotations) -> pd.DataFrame:
    """Counts of (label given, label the other annotator gave on an overlapping span).

    For every ordered pair of annotators ``(a, b)`` and every span of ``a`` on a document
    both completed: one count for each span of ``b`` that shares a character with it (its
    label, whatever it is), or one count in the ``(none)`` column when ``b`` has none.
    The matrix is symmetric in the off-diagonal sense that a swap ``X -> Y`` seen by
    ``a`` is seen ``Y -> X`` by ``b``.

    Parameters
    ----------
    spans : SpanAnnotations

    Returns
    -------
    pandas.DataFrame
        Rows: the label of ``a``'s span; columns: ``b``'s labels and ``(none)``; int counts.

    Raises
    ------
    ArgumentTypeError
        ``spans`` is not :class:`~analytics.spans.SpanAnnotations`.
    """
    require_spans(spans, "label_confusion")
    labels = list(spans.labels)
    n_l = len(labels)
    counts = np.zeros((n_l, n_l + 1), np.int64)
    width = int(spans.lengths().max(initial=0)) + 1
    pos_b = spans.item_code * width + spans.starts
    pos_e = spans.item_code * width + spans.ends
    for a, b in permutations(range(spans.n_annotators), 2):
        both = spans.completed[:, a] & spans.completed[:, b]
        sa = np.flatnonzero((spans.annotator_code == a) & both[spans.item_code])
        sb = np.flatnonzero((spans.annotator_code == b) & both[spans.item_code])
        if not len(sa):
            continue
        sb = sb[np.argsort(pos_b[sb], kind="stable")]
        b_start, b_end = pos_b[sb], pos_e[sb]
        reach = np.maximum.accumulate(b_end) if len(sb) else b_end
        lo = np.searchsorted(reach, pos_b[sa], side="right")
        hi = np.searchsorted(b_start, pos_e[sa], side="left")
        count = np.maximum(hi - lo, 0)
        row = np.repeat(sa, count)
        k = np.repeat(lo, count) + (
            np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
        )
        hit = b_end[k] > pos_b[row]
        row, other = row[hit], sb[k[hit]]
        np.add.at(counts, (spans.label_code[row], spans.label_code[other]), 1)
        seen = np.zeros(spans.n_spans, bool)
        seen[row] = True
        alone = sa[~seen[sa]]
        np.add.at(counts, (spans.label_code[alone], n_l), 1)
    return pd.DataFrame(counts, index=pd.Index(labels, name="label"), columns=[*labels, NONE_LABEL])


def document_agreement(spans: SpanAnnotations, *, match: str = "overlap") -> pd.DataFrame:
    """Each document's mean pairwise F1, worst first.

    Parameters
    ----------
    spans : SpanAnnotations
    match : {"exact", "overlap", "token"}, default "overlap"

    Returns
    -------
    pandas.DataFrame
        ``item, f1`` (mean over annotator pairs who both completed it and marked
        something; NaN when none did), ``annotators`` (who completed it), ``spans`` and
        ``note`` (why an F1 is blank), sorted by ``f1`` (NaN last), then by item order.

    Raises
    ------
    ArgumentTypeError
        ``spans`` is not :class:`~analytics.spans.SpanAnnotations`.
    """
    require_spans(spans, "document_agreement")
    counts = pair_counts(spans, match=match)
    n_pairs = len(counts.columns)
    if n_pairs:
        f1 = mean_over_pairs(f1_from_totals(counts.stats.toarray()), n_pairs)[:, 0]
    else:
        f1 = np.full(spans.n_items, np.nan)
    out = pd.DataFrame(
        {
            "item": spans.items,
            "f1": f1,
            "annotators": spans.completed.sum(axis=1),
            "spans": np.bincount(spans.item_code, minlength=spans.n_items),
        }
    )
    # a blank F1 says why: F1 compares marked spans, and "no span" agreement is alpha_U's
    out["note"] = np.where(
        np.isfinite(out["f1"]),
        "",
        np.where(
            out["annotators"] < 2,
            "fewer than two annotators completed it",
            np.where(
                out["spans"] == 0,
                "nobody marked a span: F1 has nothing to compare (alpha_U counts this agreement)",
                "no pair who both completed it marked a span between them",
            ),
        ),
    )
    return out.sort_values("f1", kind="stable", na_position="last").reset_index(drop=True)


def span_support(spans: SpanAnnotations) -> pd.DataFrame:
    """Every span with how many annotators marked exactly it, out of those who could.

    Returns
    -------
    pandas.DataFrame
        ``spans.spans`` with ``support`` (annotators with the same item, start, end and
        label) and ``annotators`` (who completed the document); ``agreed`` when all did.

    Raises
    ------
    ArgumentTypeError
        ``spans`` is not :class:`~analytics.spans.SpanAnnotations`.
    """
    require_spans(spans, "span_support")
    out = spans.spans.copy()
    key = ["item", "start", "end", "label"]
    out["support"] = out.groupby(key, sort=False)["annotator"].transform("nunique").to_numpy()
    out["annotators"] = spans.completed.sum(axis=1)[spans.item_code]
    out["agreed"] = out["support"] == out["annotators"]
    return out


def document_segments(spans: SpanAnnotations, item: object) -> pd.DataFrame:
    """One document's text cut at every span boundary, for each annotator who completed it.

    Parameters
    ----------
    spans : SpanAnnotations
        With the document's text known.
    item : object
        The document.

    Returns
    -------
    pandas.DataFrame
        ``annotator, start, end, text, labels`` (the labels of the annotator's spans
        covering the piece, sorted; empty outside spans), ``agreed`` (every covering span
        was marked exactly by all annotators of the document) and ``closes`` (labels of
        spans ending with this piece), in annotator then text order.

    Raises
    ------
    ArgumentTypeError
        ``spans`` is not :class:`~analytics.spans.SpanAnnotations`.
    """
    require_spans(spans, "document_segments")
    if item not in spans.items:
        raise AnnotationDataError(f"no document {item!r}")
    d = spans.items.get_loc(item)
    text = spans.texts.iloc[d]
    if not isinstance(text, str):
        raise AnnotationDataError(f"the text of document {item!r} is unknown")
    support = span_support(spans)
    mine = support[spans.item_code == d]
    rows = []
    for a in np.flatnonzero(spans.completed[d]):
        own = mine[mine["annotator"] == spans.annotators[a]]
        cuts = np.unique(np.concatenate([[0, len(text)], own["start"], own["end"]]))
        for s, e in pairwise(cuts):
            cover = own[(own["start"] <= s) & (own["end"] > s)]
            closing = cover[cover["end"] == e]
            rows.append(
                {
                    "annotator": spans.annotators[a],
                    "start": int(s),
                    "end": int(e),
                    "text": text[s:e],
                    "labels": tuple(sorted(cover["label"])),
                    "agreed": bool(len(cover)) and bool(cover["agreed"].all()),
                    "closes": tuple(sorted(closing["label"])),
                }
            )
    return pd.DataFrame(
        rows, columns=["annotator", "start", "end", "text", "labels", "agreed", "closes"]
    )
