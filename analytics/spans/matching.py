"""Pairwise span agreement as precision, recall and F1: :func:`pairwise_f1`, :func:`span_f1`.

For two annotators ``a`` and ``b`` and the documents *both* completed, ``a``'s spans are
scored against ``b``'s as if ``b`` were the reference:

- ``precision = matched_a / n_a``: the share of ``a``'s units that ``b`` also marked;
- ``recall = matched_b / n_b``: the share of ``b``'s units that ``a`` also marked;
- ``F1 = 2 P R / (P + R)``; swapping ``a`` and ``b`` swaps P and R and keeps F1.

What a unit is and when it matches (``match=``), with nervaluate's schemes (Segura-Bedmar
et al. 2013) as the reference point:

- ``"exact"``: a span matches a span of the other annotator with the same start, end and
  label (nervaluate *strict*); then ``matched_a = matched_b`` and
  ``F1 = 2 matched / (n_a + n_b)``;
- ``"overlap"``: a span matches if the other annotator has a span of the same label that
  shares at least one character, each side counted on its own spans, so one long span
  against two short ones gives P = 1, R = 1 (nervaluate *type* pairs spans one to one and
  gives R = 0.5 there: the two agree only when every overlap is one to one);
- ``"token"``: every token a span touches, with the span's label, is a unit; units match
  when the other annotator has the same token with the same label (tokens are
  ``\\w+`` runs and single punctuation marks of the text; the texts must be known).

F1 is 0 when exactly one annotator marked something and undefined (NaN) when neither did.
Hripcsak & Rothschild (2005) show that pairwise F1 approaches chance-corrected agreement
when the "no span" cases are unbounded, which is why F1 and not kappa is the usual span
agreement.

References
----------
Hripcsak, G. & Rothschild, A. S. (2005). Agreement, the F-measure, and reliability in
information retrieval. *JAMIA* 12(3), 296-298.
Segura-Bedmar, I., Martínez, P. & Herrero-Zazo, M. (2013). SemEval-2013 Task 9.
*Proc. SemEval*, 341-350 (the strict/exact/partial/type schemes of nervaluate).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import sparse

from analytics._core.errors import AnnotationDataError
from analytics._core.validation import check_choice
from analytics.spans.model import SpanAnnotations, require_spans

__all__ = [
    "MATCHES",
    "TOKEN_PATTERN",
    "PairCounts",
    "match_units",
    "pair_counts",
    "pairs_table",
    "pairwise_f1",
    "tokens",
]

MATCHES = ("exact", "overlap", "token")
TOKEN_PATTERN = re.compile(r"\w+|[^\w\s]")
"""What a token is for ``match="token"``: a run of word characters or one other mark."""

_COUNTS = ("n_a", "n_b", "matched_a", "matched_b")


@dataclass(frozen=True)
class PairCounts:
    """Per-document counts behind pairwise F1, ready to sum or to bootstrap.

    Attributes
    ----------
    stats : scipy.sparse.csr_matrix, shape (n_items, 4 * len(columns))
        For each column of ``columns`` the four counts ``n_a, n_b, matched_a, matched_b``
        of every document (zero where the pair did not both complete the document).
    columns : pandas.DataFrame
        One row per (pair, label): ``annotator_a, annotator_b, label`` (label ``None``
        when counted over all labels) and ``documents`` (documents both completed).
    """

    stats: sparse.csr_matrix
    columns: pd.DataFrame


def tokens(spans: SpanAnnotations) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The tokens of every document: ``(item code, start, end)``, sorted.

    Raises
    ------
    AnnotationDataError
        When a document's text is unknown (token matching cannot be done without it).
    """
    if not spans.texts_known:
        missing = spans.texts.index[spans.texts.map(lambda t: not isinstance(t, str))]
        raise AnnotationDataError(
            f"token matching needs every document's text; document {missing[0]!r} has none",
            source=spans.report.source,
            hint="Load the spans with their texts (text= or a text column), or use "
            "match='exact' or 'overlap'.",
        )
    joined = "\n".join(spans.texts.tolist())
    found = np.array([m.span() for m in TOKEN_PATTERN.finditer(joined)], np.int64).reshape(-1, 2)
    lengths = np.array([len(t) for t in spans.texts], np.int64)
    doc_start = np.concatenate([[0], np.cumsum(lengths + 1)[:-1]])
    doc = np.searchsorted(doc_start, found[:, 0], side="right") - 1
    return doc, found[:, 0] - doc_start[doc], found[:, 1] - doc_start[doc]


def match_units(
    spans: SpanAnnotations,
    match: str,
    token_table: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> pd.DataFrame:
    """The units that are matched: ``annotator, item, label, lo, hi`` (global positions).

    Positions are made global by giving every (document, label) its own stretch, so a
    comparison of positions never crosses a document or a label. ``token_table`` is
    :func:`tokens` of ``spans`` when the caller has it already (tokenizing is the slow
    part of token matching).
    """
    n_labels = max(len(spans.labels), 1)
    # each document's place on one line of positions (its length and a gap after it)
    size = spans.lengths().astype(np.int64) + 1
    offset = np.concatenate([[0], np.cumsum(size)[:-1]])
    if match != "token":
        # each (document, label) gets its own range of positions, as long as its document:
        # n_labels x (the documents' total length) positions, not n_groups x the longest
        # document, which overflowed int64 for thousands of documents and one far offset
        doc_start = offset * n_labels
        if n_labels * float(size.sum()) >= 2.0**62:
            raise AnnotationDataError(
                "the span offsets are too large to compare (documents of billions of characters).",
                hint="Offsets count characters within a document; check the start and end columns.",
            )
        base = doc_start[spans.item_code] + spans.label_code * size[spans.item_code]
        return pd.DataFrame(
            {
                "annotator": spans.annotator_code,
                "item": spans.item_code,
                "label": spans.label_code,
                "lo": base + spans.starts,
                "hi": base + spans.ends,
            }
        )
    t_doc, t_start, t_end = tokens(spans) if token_table is None else token_table
    g_start, g_end = offset[t_doc] + t_start, offset[t_doc] + t_end
    first = np.searchsorted(g_end, offset[spans.item_code] + spans.starts, side="right")
    last = np.searchsorted(g_start, offset[spans.item_code] + spans.ends, side="left")
    count = np.maximum(last - first, 0)
    row = np.repeat(np.arange(spans.n_spans), count)
    tok = np.repeat(first, count) + (
        np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
    )
    key = tok * n_labels + spans.label_code[row]
    units = pd.DataFrame(
        {
            "annotator": spans.annotator_code[row],
            "item": spans.item_code[row],
            "label": spans.label_code[row],
            "lo": key,
            "hi": key + 1,
        }
    ).drop_duplicates(["annotator", "lo"])
    return units.sort_values(["annotator", "lo"], kind="stable").reset_index(drop=True)


def _matched(
    lo: np.ndarray, hi: np.ndarray, other_lo: np.ndarray, other_hi: np.ndarray
) -> np.ndarray:
    """Which ``[lo, hi)`` share a position with one of the other side's (sorted, disjoint) units."""
    before_end = np.searchsorted(other_lo, hi, side="left")
    ended = np.searchsorted(other_hi, lo, side="right")
    return before_end > ended


def _exact(
    lo: np.ndarray, hi: np.ndarray, other_lo: np.ndarray, other_hi: np.ndarray
) -> np.ndarray:
    """Which units the other side has with the same start and end (starts are unique per side)."""
    at = np.minimum(np.searchsorted(other_lo, lo), max(len(other_lo) - 1, 0))
    if not len(other_lo):
        return np.zeros(len(lo), bool)
    return (other_lo[at] == lo) & (other_hi[at] == hi)


def pair_counts(
    spans: SpanAnnotations, *, match: str = "exact", by_label: bool = False
) -> PairCounts:
    """Per-document counts of units and matched units for every annotator pair.

    Parameters
    ----------
    spans : SpanAnnotations
    match : {"exact", "overlap", "token"}, default "exact"
    by_label : bool, default False
        Count each label apart (one column per pair and label) instead of all together.

    Returns
    -------
    PairCounts
    """
    match = check_choice(match, "match", MATCHES)
    units = match_units(spans, match)
    n_labels = len(spans.labels) if by_label else 1
    n_items = spans.n_items
    per_annotator = {a: g for a, g in units.groupby("annotator", sort=True)}
    empty = units.iloc[:0]
    rows, cols, meta = [], [], []
    for k, (a, b) in enumerate(combinations(range(spans.n_annotators), 2)):
        both = spans.completed[:, a] & spans.completed[:, b]
        ua, ub = per_annotator.get(a, empty), per_annotator.get(b, empty)
        ua, ub = ua[both[ua["item"].to_numpy()]], ub[both[ub["item"].to_numpy()]]
        a_lo, a_hi, b_lo, b_hi = (u[c].to_numpy() for u in (ua, ub) for c in ("lo", "hi"))
        test = _exact if match == "exact" else _matched
        hit_a, hit_b = test(a_lo, a_hi, b_lo, b_hi), test(b_lo, b_hi, a_lo, a_hi)
        for q, (u, mask) in enumerate(((ua, None), (ub, None), (ua, hit_a), (ub, hit_b))):
            chosen = u if mask is None else u[mask]
            label = chosen["label"].to_numpy() if by_label else np.zeros(len(chosen), np.int64)
            rows.append(chosen["item"].to_numpy())
            cols.append(((k * n_labels) + label) * 4 + q)
        names = [None] if not by_label else list(spans.labels)
        for name in names:
            meta.append(
                {
                    "annotator_a": spans.annotators[a],
                    "annotator_b": spans.annotators[b],
                    "label": name,
                    "documents": int(both.sum()),
                }
            )
    width = 4 * len(meta)
    r = np.concatenate(rows) if rows else np.zeros(0, np.int64)
    c = np.concatenate(cols) if cols else np.zeros(0, np.int64)
    stats = sparse.coo_matrix((np.ones(len(r)), (r, c)), shape=(n_items, width)).tocsr()
    columns = pd.DataFrame(meta, columns=["annotator_a", "annotator_b", "label", "documents"])
    return PairCounts(stats=stats, columns=columns)


def f1_from_totals(totals: np.ndarray) -> np.ndarray:
    """F1 of each (pair, label) from summed counts, shape (..., 4 * m) -> (..., m).

    ``F1 = 2 m_a m_b / (m_a n_b + m_b n_a)`` (the harmonic mean of P and R); 0 when
    exactly one side has units, NaN when neither has.
    """
    t = totals.reshape(*totals.shape[:-1], -1, 4)
    n_a, n_b, m_a, m_b = t[..., 0], t[..., 1], t[..., 2], t[..., 3]
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = 2 * m_a * m_b / (m_a * n_b + m_b * n_a)
    f1 = np.where((m_a == 0) | (m_b == 0), 0.0, f1)
    return np.where((n_a == 0) & (n_b == 0), np.nan, f1)


def pairwise_f1(
    spans: SpanAnnotations, *, match: str = "exact", by_label: bool = False
) -> pd.DataFrame:
    """Precision, recall and F1 between every pair of annotators.

    Parameters
    ----------
    spans : SpanAnnotations
        From :func:`analytics.spans.load_spans`.
    match : {"exact", "overlap", "token"}, default "exact"
        When two spans agree (see the module docstring).
    by_label : bool, default False
        One row per pair and label instead of one per pair.

    Returns
    -------
    pandas.DataFrame
        ``annotator_a, annotator_b`` (``label`` with ``by_label``), ``documents`` (both
        completed), ``n_a, n_b`` (units), ``matched_a, matched_b``, ``precision``
        (``matched_a / n_a``), ``recall`` (``matched_b / n_b``) and ``f1``
        (``2 P R / (P + R)``; 0 when one side is empty, NaN when both are).

    Raises
    ------
    ArgumentTypeError
        ``spans`` is not :class:`~analytics.spans.SpanAnnotations`.

    Examples
    --------
    >>> import pandas as pd
    >>> from analytics.spans import load_spans
    >>> df = pd.DataFrame({"item": ["d"] * 3, "annotator": ["a", "a", "b"],
    ...                    "start": [0, 6, 0], "end": [5, 9, 5], "label": ["X"] * 3})
    >>> pairwise_f1(load_spans(df))[["precision", "recall", "f1"]].round(3).values.tolist()
    [[0.5, 1.0, 0.667]]
    """
    require_spans(spans, "pairwise_f1")
    return pairs_table(pair_counts(spans, match=match, by_label=by_label), by_label)


def pairs_table(counts: PairCounts, by_label: bool) -> pd.DataFrame:
    """The table of :func:`pairwise_f1` from counts already made."""
    totals = np.asarray(counts.stats.sum(axis=0)).ravel()
    out = counts.columns.copy()
    if not by_label:
        out = out.drop(columns="label")
    t = totals.reshape(-1, 4)
    for q, name in enumerate(_COUNTS):
        out[name] = t[:, q].astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        out["precision"] = np.where(t[:, 0] > 0, t[:, 2] / np.maximum(t[:, 0], 1), np.nan)
        out["recall"] = np.where(t[:, 1] > 0, t[:, 3] / np.maximum(t[:, 1], 1), np.nan)
    out["f1"] = f1_from_totals(totals)
    return out
