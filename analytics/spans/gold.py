"""The span gold standard: :func:`gold_spans`, spans a quorum of annotators share.

The rules, applied document by document:

1. **Where**: spans of every annotator and label that overlap (directly or through a chain
   of overlapping spans) form one *cluster*. Its *support* is the number of annotators
   with at least one span in it; it becomes a gold span when the support reaches the
   quorum (by default a strict majority of the annotators who completed the document,
   so annotators who read the document and marked nothing there count against it).
2. **Label**: the label given by the most annotators in the cluster (``label_support``);
   a tie goes to the label whose best boundaries have more support, then to the first
   label in sorted order, and is flagged in ``label_tie``.
3. **Boundaries**: among that label's spans in the cluster, the ``(start, end)`` marked by
   the most annotators (``boundary_support``); ties go to the earliest start, then to the
   longest span.
4. **What the gold span does not touch**: spans of the cluster that do not overlap its
   gold span (they were chained to it only through a span that lost, such as one
   annotator's long span over a whole sentence) are clustered again on their own, by the
   same rules, until none is left.

Nested spans of different labels (``"Bank of America"`` ORG around ``"America"`` LOC)
overlap and so fall into one cluster: the gold keeps one span per cluster, the flat-NER
convention. This mirrors majority voting over spans as in Rodrigues & Pereira (2018) and
the "union then vote" resolution used for crowd NER (Finin et al. 2010).

References
----------
Finin, T. et al. (2010). Annotating named entities in Twitter data with crowdsourcing.
*NAACL-HLT Workshop on Creating Speech and Language Data with Amazon's Mechanical Turk*.
Rodrigues, F. & Pereira, F. (2018). Deep learning from crowds. *AAAI*.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.spans.model import SpanAnnotations, require_spans

__all__ = ["GOLD_COLUMNS", "gold_spans", "quorum_needed"]

GOLD_COLUMNS = (
    "item",
    "start",
    "end",
    "label",
    "support",
    "annotators",
    "label_support",
    "boundary_support",
    "label_tie",
    "text",
)


def quorum_needed(quorum: int | float | None, annotators: np.ndarray) -> np.ndarray:
    """The support a cluster needs on each document, given who completed it.

    Parameters
    ----------
    quorum : int, float or None
        None: a strict majority (``floor(n / 2) + 1``); an int >= 1: that many annotators;
        a float in (0, 1]: that share of the annotators who completed the document
        (rounded up; 1.0 means all of them).
    annotators : numpy.ndarray of int
        How many annotators completed each document.

    Returns
    -------
    numpy.ndarray of int64
    """
    n = np.asarray(annotators, np.int64)
    if quorum is None:
        return n // 2 + 1
    if isinstance(quorum, bool) or not isinstance(quorum, (int, float, np.integer, np.floating)):
        raise AnnotationDataError(
            f"quorum must be None, a whole number of annotators or a share, not {quorum!r}"
        )
    if isinstance(quorum, (float, np.floating)):
        if 0 < quorum <= 1:
            return np.maximum(np.ceil(quorum * n - 1e-9).astype(np.int64), 1)
        raise AnnotationDataError(
            f"a quorum given as a share must be in (0, 1], not {quorum!r}",
            hint="Give a whole number (an int) for a number of annotators.",
        )
    if quorum >= 1:
        return np.full(len(n), int(quorum), np.int64)
    raise AnnotationDataError(f"quorum must be a whole number >= 1, not {quorum!r}")


def gold_spans(spans: SpanAnnotations, *, quorum: int | float | None = None) -> pd.DataFrame:
    """The spans a quorum of annotators agree on, with their support.

    Parameters
    ----------
    spans : SpanAnnotations
        From :func:`analytics.spans.load_spans`.
    quorum : int, float or None, default None
        The support a gold span needs: None is a strict majority of the annotators who
        completed the document; an int is a number of annotators; a float in (0, 1] a
        share of them (1.0: all).

    Returns
    -------
    pandas.DataFrame
        One row per gold span, sorted by item and start, with the columns of
        :data:`GOLD_COLUMNS`: ``support`` (annotators with a span in its cluster),
        ``annotators`` (who completed the document), ``label_support``,
        ``boundary_support``, ``label_tie`` and ``text`` (the covered text, None when the
        document text is unknown). The rules are in the module docstring.

    Raises
    ------
    ArgumentTypeError
        ``spans`` is not :class:`~analytics.spans.SpanAnnotations`.

    Examples
    --------
    >>> import pandas as pd
    >>> from analytics.spans import load_spans
    >>> df = pd.DataFrame({"item": ["d"] * 3, "annotator": ["a", "b", "c"],
    ...                    "start": [0, 0, 0], "end": [4, 4, 5], "label": ["X", "X", "Y"]})
    >>> gold_spans(load_spans(df))[["start", "end", "label", "support", "label_support"]]
       start  end label  support  label_support
    0      0    4     X        3              2
    """
    require_spans(spans, "gold_spans")
    n_done = spans.completed.sum(axis=1)
    need = quorum_needed(quorum, n_done)
    if spans.n_spans == 0:
        return pd.DataFrame({c: [] for c in GOLD_COLUMNS})
    item, ann, label = spans.item_code, spans.annotator_code, spans.label_code
    start, end = spans.starts, spans.ends
    order = np.lexsort((end, start, item))
    cols = tuple(np.asarray(x, np.int64)[order] for x in (item, ann, label, start, end))
    rounds = []
    while len(cols[0]):  # each round keeps one span per cluster and passes on the rest
        best, cols = _one_round(cols, need)
        if len(best["item"]):
            rounds.append(pd.DataFrame(best))
    out = pd.concat(rounds, ignore_index=True) if rounds else pd.DataFrame()
    if out.empty:
        return pd.DataFrame({c: [] for c in GOLD_COLUMNS})
    out = out.sort_values(["item", "start", "end"], kind="stable")
    doc = out["item"].to_numpy(np.int64)
    out = pd.DataFrame(
        {
            "item": spans.items[doc],
            "start": out["start"].to_numpy(np.int64),
            "end": out["end"].to_numpy(np.int64),
            "label": spans.labels[out["label"].to_numpy()],
            "support": out["support"].to_numpy(np.int64),
            "annotators": n_done[doc].astype(np.int64),
            "label_support": out["label_support"].to_numpy(np.int64),
            "boundary_support": out["boundary_support"].to_numpy(np.int64),
            "label_tie": out["label_tie"].to_numpy(bool),
        }
    )
    texts = spans.texts.to_numpy(object)[doc]
    out["text"] = [
        t[s:e] if isinstance(t, str) else None
        for t, s, e in zip(texts, out["start"], out["end"], strict=True)
    ]
    return out.reset_index(drop=True)


def _groups(*keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows sorted by ``keys`` (the last key first, as :func:`numpy.lexsort`), and a mask
    over the sorted rows that is True where a run of equal keys starts."""
    order = np.lexsort(keys)
    starts = np.ones(len(order), bool)
    if len(order) > 1:
        starts[1:] = np.any([k[order][1:] != k[order][:-1] for k in keys], axis=0)
    return order, starts


def _one_round(
    cols: tuple[np.ndarray, ...], need: np.ndarray
) -> tuple[dict[str, np.ndarray], tuple[np.ndarray, ...]]:
    """One gold span per cluster that reaches the quorum, and the spans left for the next
    round: those of a kept cluster that do not overlap its gold span.

    ``cols`` are the spans' ``item, annotator, label, start, end`` codes, sorted by item,
    start and end. A cluster is a run of spans chained by overlaps; a long span that lost
    the vote (one annotator's ``CLAIM`` over a whole sentence) can chain spans that do not
    touch the winner: those are clustered again without it, so "Bob" and "Rome", marked
    alike by two of three annotators, are not lost to the cluster of "Anna". A chain of
    n offset spans (two annotators segmenting one text) takes about n / 2 rounds, so each
    round is a few sorts over integer arrays (2,000 such spans: under a second; a round
    of pandas group-bys had taken 24 s).
    """
    item, ann, label, start, end = cols
    new_doc = np.concatenate([[True], item[1:] != item[:-1]])
    doc = np.cumsum(new_doc) - 1
    width = int(end.max()) + 1  # the running maximum of the ends starts again per document
    if (int(doc[-1]) + 1) * width < 2**62:
        reach = np.maximum.accumulate(doc * width + end) - doc * width
    else:  # offsets near 2**53 in many documents: the shifted ends would overflow
        reach = pd.Series(end).groupby(doc).cummax().to_numpy()
    breaks = new_doc | np.concatenate([[True], start[1:] >= reach[:-1]])
    cluster = np.cumsum(breaks) - 1
    n_cl = int(cluster[-1]) + 1
    order, first = _groups(ann, cluster)  # distinct annotators per cluster
    support = np.bincount(cluster[order][first], minlength=n_cl)
    rows = (support >= need[item[breaks]])[cluster]
    if not rows.any():
        return {"item": np.zeros(0, np.int64)}, tuple(x[:0] for x in cols)
    cluster, item, ann, label, start, end = (
        x[rows] for x in (cluster, item, ann, label, start, end)
    )
    # label support: distinct annotators per (cluster, label)
    order, first = _groups(ann, label, cluster)
    c_l, l_l = cluster[order][first], label[order][first]
    order, first = _groups(l_l, c_l)
    lab_cl, lab_lab = c_l[order][first], l_l[order][first]
    lab_support = np.bincount(np.cumsum(first) - 1)
    # boundary support: distinct annotators per (cluster, label, start, end)
    order, first = _groups(ann, end, start, label, cluster)
    bc, bl, bs, be = (x[order][first] for x in (cluster, label, start, end))
    order, first = _groups(be, bs, bl, bc)
    b_cl, b_lab, b_s, b_e = (x[order][first] for x in (bc, bl, bs, be))
    b_support = np.bincount(np.cumsum(first) - 1)
    n_lab = int(label.max()) + 1  # (cluster, label) pairs are sorted in both tables
    b_lab_support = lab_support[np.searchsorted(lab_cl * n_lab + lab_lab, b_cl * n_lab + b_lab)]
    # the label most annotators gave, then its boundaries most gave; ties: the label
    # first in sorted order, the earliest start, the longest span
    order = np.lexsort((-(b_e - b_s), b_s, b_lab, -b_support, -b_lab_support, b_cl))
    win = order[np.concatenate([[True], b_cl[order][1:] != b_cl[order][:-1]])]
    best_cl = b_cl[win]
    top = np.zeros(n_cl, np.int64)
    np.maximum.at(top, lab_cl, lab_support)
    n_top = np.bincount(lab_cl, weights=lab_support == top[lab_cl], minlength=n_cl)
    best = {
        "item": item[np.searchsorted(cluster, best_cl)],
        "start": b_s[win],
        "end": b_e[win],
        "label": b_lab[win],
        "support": support[best_cl],
        "label_support": b_lab_support[win],
        "boundary_support": b_support[win],
        "label_tie": n_top[best_cl] > 1,
    }
    where = np.full(n_cl, -1)
    where[best_cl] = np.arange(len(best_cl))
    k = where[cluster]
    apart = (end <= b_s[win][k]) | (start >= b_e[win][k])
    return best, tuple(x[apart] for x in (item, ann, label, start, end))
