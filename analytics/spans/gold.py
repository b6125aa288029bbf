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
    frame = pd.DataFrame(
        {"item": item, "ann": ann, "label": label, "start": start, "end": end}
    ).iloc[order]
    rounds = []
    while len(frame):  # each round keeps one span per cluster and passes on the rest
        best, frame = _one_round(frame, need)
        if len(best):
            rounds.append(best)
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


def _one_round(frame: pd.DataFrame, need: np.ndarray) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One gold span per cluster that reaches the quorum, and the spans left for the next
    round: those of a kept cluster that do not overlap its gold span.

    ``frame`` is sorted by item, start and end. A cluster is a run of spans chained by
    overlaps; a long span that lost the vote (one annotator's ``CLAIM`` over a whole
    sentence) can chain spans that do not touch the winner: those are clustered again
    without it, so "Bob" and "Rome", marked alike by two of three annotators, are not lost
    to the cluster of "Anna".
    """
    item, start, end = (frame[c].to_numpy(np.int64) for c in ("item", "start", "end"))
    new_doc = np.concatenate([[True], item[1:] != item[:-1]])
    reach = pd.Series(end).groupby(np.cumsum(new_doc)).cummax().to_numpy()
    breaks = new_doc | np.concatenate([[True], start[1:] >= reach[:-1]])
    frame = frame.assign(cluster=np.cumsum(breaks) - 1)
    support = frame.groupby("cluster")["ann"].nunique()
    cl_item = frame.groupby("cluster")["item"].first()
    kept = support.index[support.to_numpy() >= need[cl_item.to_numpy()]]
    frame = frame[frame["cluster"].isin(kept)]
    if frame.empty:
        return pd.DataFrame(), frame
    by_label = frame.groupby(["cluster", "label"])["ann"].nunique().rename("label_support")
    bounds = (
        frame.groupby(["cluster", "label", "start", "end"])["ann"]
        .nunique()
        .rename("boundary_support")
        .reset_index()
    )
    bounds["length"] = bounds["end"] - bounds["start"]
    bounds = bounds.merge(by_label.reset_index(), on=["cluster", "label"])
    bounds = bounds.sort_values(
        ["cluster", "label_support", "boundary_support", "label", "start", "length"],
        ascending=[True, False, False, True, True, False],
        kind="stable",
    )
    best = bounds.drop_duplicates("cluster").set_index("cluster")
    top = by_label.groupby(level="cluster").max()
    ties = (by_label.reset_index().merge(top.rename("top"), on="cluster")).query(
        "label_support == top"
    )
    best = best.assign(
        item=cl_item.loc[best.index],
        support=support.loc[best.index],
        label_tie=(ties.groupby("cluster").size() > 1).loc[best.index],
    )
    b_start = frame["cluster"].map(best["start"]).to_numpy()
    b_end = frame["cluster"].map(best["end"]).to_numpy()
    apart = (frame["end"].to_numpy() <= b_start) | (frame["start"].to_numpy() >= b_end)
    return best.reset_index(drop=True), frame[apart].drop(columns="cluster")
