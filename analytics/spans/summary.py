"""One number for span agreement: :func:`span_f1`, the mean pairwise F1 with its interval.

The interval is a document bootstrap (Efron & Tibshirani 1993, ch. 6, percentile
interval): documents are drawn with replacement, each pair's counts are re-summed over the
drawn documents and the mean F1 is recomputed. Documents, not spans, are resampled because
spans of one document are not independent (one long span against two short ones).

References
----------
Efron, B. & Tibshirani, R. J. (1993). *An Introduction to the Bootstrap*. Chapman & Hall.
Hripcsak, G. & Rothschild, A. S. (2005). Agreement, the F-measure, and reliability in
information retrieval. *JAMIA* 12(3), 296-298.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analytics._core.bootstrap import (
    ItemStatistic,
    Patterns,
    bootstrap_replicates,
    check_resampling,
    percentile_interval,
)
from analytics._core.formatting import format_count
from analytics._core.ids import name_order
from analytics.agreement import Coefficient
from analytics.spans.matching import f1_from_totals, pair_counts, pairs_table
from analytics.spans.model import SpanAnnotations, require_spans

__all__ = ["FEW_DOCUMENTS", "SpanF1", "mean_over_pairs", "span_f1"]

#: Below this many documents there is no document-bootstrap interval (with two documents
#: it has at most three distinct values; the agreement report's rule for items).
FEW_DOCUMENTS = 10

NO_PAIR = (
    "no two annotators completed a common document with a span between them, so there "
    "is nothing to compare"
)


@dataclass(frozen=True)
class SpanF1:
    """Mean pairwise span F1 and its document-bootstrap interval.

    Attributes
    ----------
    f1 : Coefficient
        The mean F1 over annotator pairs with a defined F1 (NaN with a reason if none).
    low, high : float
        The percentile interval (NaN when it cannot be computed).
    confidence : float
        The interval's level.
    n_boot : int
        Resamples drawn.
    match : str
        The matching rule.
    pairs : pandas.DataFrame
        :func:`~analytics.spans.pairwise_f1` behind the mean.
    """

    f1: Coefficient
    low: float
    high: float
    confidence: float
    n_boot: int
    match: str
    pairs: pd.DataFrame


def mean_over_pairs(f1: np.ndarray, n_pairs: int) -> np.ndarray:
    """Mean over pairs of F1 laid out pair-major, ``(..., n_pairs * m) -> (..., m)``; NaNs skipped."""
    f = f1.reshape(*f1.shape[:-1], n_pairs, -1)
    ok = np.isfinite(f)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(ok, f, 0.0).sum(axis=-2) / ok.sum(axis=-2)


def span_f1(
    spans: SpanAnnotations,
    *,
    match: str = "exact",
    by_label: bool = False,
    confidence: float = 0.95,
    n_boot: int = 1000,
    seed: int | None = 0,
) -> SpanF1 | pd.DataFrame:
    """Mean pairwise F1 over annotator pairs, with a document-bootstrap interval.

    Parameters
    ----------
    spans : SpanAnnotations
        From :func:`analytics.spans.load_spans`.
    match : {"exact", "overlap", "token"}, default "exact"
        When two spans agree (see :func:`~analytics.spans.pairwise_f1`).
    by_label : bool, default False
        One result per label (a DataFrame) instead of one over all labels.
    confidence : float, default 0.95
        The interval's level.
    n_boot : int, default 1000
        Bootstrap resamples of documents (0: no interval).
    seed : int or None, default 0
        Seed of the resampling (None: a fresh stream).

    Returns
    -------
    SpanF1 or pandas.DataFrame
        ``by_label=False``: a :class:`SpanF1`. ``by_label=True``: one row per label with
        ``label, f1, low, high, pairs`` (pairs with a defined F1) and ``note``.

    Raises
    ------
    ArgumentTypeError
        ``spans`` is not :class:`~analytics.spans.SpanAnnotations`.

    Notes
    -----
    ``F1 = mean over pairs (a, b) of 2 P R / (P + R)`` with ``P = matched_a / n_a`` and
    ``R = matched_b / n_b`` summed over the documents both completed. Pairs where neither
    annotator marked anything on their common documents have no F1 and are left out.

    Examples
    --------
    >>> import pandas as pd
    >>> from analytics.spans import load_spans
    >>> df = pd.DataFrame({"item": ["d"] * 3, "annotator": ["a", "a", "b"],
    ...                    "start": [0, 6, 0], "end": [5, 9, 5], "label": ["X"] * 3})
    >>> round(float(span_f1(load_spans(df), n_boot=0).f1), 3)
    0.667
    """
    require_spans(spans, "span_f1")
    confidence, n_boot, seed = check_resampling(confidence, n_boot, seed)
    counts = pair_counts(spans, match=match, by_label=by_label)
    n_pairs = spans.n_annotators * (spans.n_annotators - 1) // 2
    m = len(spans.labels) if by_label else 1
    value, defined = np.full(m, np.nan), np.zeros(m, np.int64)
    reps = np.zeros((0, m))
    if n_pairs and m:
        stat = ItemStatistic(
            counts.stats, lambda totals: mean_over_pairs(f1_from_totals(totals), n_pairs)
        )
        pair_f1 = f1_from_totals(np.asarray(counts.stats.sum(axis=0)).ravel())
        value = mean_over_pairs(pair_f1, n_pairs)
        defined = np.isfinite(pair_f1.reshape(n_pairs, m)).sum(axis=0)
        if n_boot and spans.n_items >= FEW_DOCUMENTS:  # fewer: no interval, as for items
            # documents drawn by the rank of their names: the file's order cannot move it
            by_name = name_order(spans.items)
            patterns = Patterns(np.arange(spans.n_items), by_name, np.ones(spans.n_items, np.int64))
            reps = bootstrap_replicates({"f1": stat}, patterns, n_boot, seed)["f1"]
            reps = reps.reshape(-1, m)
    rows = []
    for j in range(len(value)):
        low, high, _ = percentile_interval(reps[:, j], confidence)
        k = int(defined[j])
        note = f"mean over {k} annotator pair{'s' if k != 1 else ''}" if k else NO_PAIR
        if n_boot and k and spans.n_items < FEW_DOCUMENTS:
            note += (
                f"; no resampled interval: {format_count(spans.n_items, 'document')}, fewer than "
                f"{FEW_DOCUMENTS}"
            )
        rows.append((Coefficient(float(value[j]), note, spans.n_items), low, high, k))
    if not by_label:
        f1, low, high, _ = rows[0]
        pairs = pairs_table(counts, by_label=False)
        return SpanF1(f1, low, high, confidence, n_boot, match, pairs)
    return pd.DataFrame(
        {  # typed columns, so that a table without labels still merges on "label"
            "label": pd.Series(list(spans.labels), dtype=object),
            "f1": pd.Series([r[0] for r in rows], dtype=float),
            "low": pd.Series([r[1] for r in rows], dtype=float),
            "high": pd.Series([r[2] for r in rows], dtype=float),
            "pairs": pd.Series([r[3] for r in rows], dtype=np.int64),
            "note": pd.Series([r[0].note for r in rows], dtype=object),
        }
    )
