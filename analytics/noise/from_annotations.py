"""The noise bound on loaded annotations (Beigman Klebanov & Beigman 2009, on real data).

Steps, each kept in the result so a team can check it:

1. Items judged by at least two of the chosen annotators take part; the others are
   counted and excluded (one judgement cannot agree or disagree).
2. An item is *agreed* when every chosen annotator who judged it gave the same label,
   otherwise *disagreed*; ``d`` = disagreed items, ``n`` = items taking part.
3. Each annotator's category rates on hard items are estimated from the disagreed items
   they judged (the paper's footnote 3). An annotator with no judgement on a disagreed
   item gets the pooled rates of all annotators on disagreed items (said in ``notes``).
4. Each item's chance agreement ``p_i = sum_c prod_{j judged i} r_jc``, from the
   annotators who actually labelled it.
5. If every item has the same p, the paper's equation (1); otherwise (uneven coverage)
   the per-item generalisation of :mod:`analytics.noise.mixture`, which equals
   equation (1) when all p_i are equal.

Multi-label data: each distinct label *set* is one category, so two annotators agree on
an item only when they gave exactly the same set (said in ``notes``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from typing import Any

import numpy as np
import pandas as pd
from scipy import sparse

from analytics._core.validation import check_confidence, check_method
from analytics.data import Annotations, as_annotations
from analytics.noise.bound import NoiseBound, noise_bound
from analytics.noise.mixture import DEFAULT_NODES, hidden_hard_posterior

__all__ = ["AnnotationNoise", "noise_from_annotations"]

MULTILABEL_NOTE = (
    "Multi-label data: each distinct label set counts as one category, so annotators agree "
    "on an item only when they chose exactly the same set; sets that overlap but differ "
    "(say {joy, anger} and {joy}) count as a disagreement, and the empty set is a category too."
)
MULTILABEL_SHORT = (
    "Multi-label data: each distinct label set is one category; annotators agree only on "
    "exactly the same set."
)
LOG_ZERO = -1e4  # log of a zero rate: exp(-1e4) is exactly 0.0, and sums stay finite


@dataclass(frozen=True, eq=False)
class AnnotationNoise(NoiseBound):
    """:class:`~analytics.noise.NoiseBound` on loaded data, with every intermediate step.

    Built by :func:`noise_from_annotations`. Besides the attributes of
    :class:`~analytics.noise.NoiseBound`:

    Attributes
    ----------
    annotators : tuple
        The annotators used.
    n_excluded : int
        Items judged by fewer than two of them (left out).
    rates : pandas.DataFrame
        Annotators x categories: each annotator's category rates on disagreed items
        (footnote 3), with a column ``disagreed judged`` (how many they judged).
    items : pandas.DataFrame
        One row per item taking part: ``item, status ('agreed' | 'disagreed'), label
        (the agreed label, empty when disagreed), annotators, p``.
    p_min, p_max : float
        Range of the per-item chance agreement (``p`` is the mean over items).
    uneven : bool
        True when p differs between items and the per-item generalisation was used.
    multilabel : bool
        True for multi-label data: each distinct label set was one category (said in
        ``notes`` and in :meth:`explain`).

    References
    ----------
    Beigman Klebanov, B. & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4): 495-503. Equation (1);
    footnote 3 for the rates on hard items.
    """

    annotators: tuple = ()
    n_excluded: int = 0
    rates: pd.DataFrame = field(default_factory=pd.DataFrame)
    items: pd.DataFrame = field(default_factory=pd.DataFrame)
    p_min: float = float("nan")
    p_max: float = float("nan")
    uneven: bool = False
    multilabel: bool = False
    full_pmf: np.ndarray | None = field(default=None, repr=False)
    pmf_offset: int = 0

    def at_confidence(self, confidence: float) -> AnnotationNoise:
        """The same data read at another confidence, without estimating again.

        The posterior of the hidden hard items does not depend on the confidence (only
        where its tail is cut does), so the rates, the per-item p and the posterior are
        reused: equation (1) directly for one p, or the kept per-item posterior
        (:attr:`full_pmf`) for uneven coverage. Equals ``noise_from_annotations(ann,
        confidence, ...)`` on the same data.

        Parameters
        ----------
        confidence : float
            The new confidence, strictly between 0 and 1.

        Returns
        -------
        AnnotationNoise
        """
        confidence = check_confidence(confidence)
        if not self.ok:
            return replace(self, confidence=confidence)
        if self.uneven and self.full_pmf is not None:
            bound = NoiseBound.from_posterior(
                self.n_items,
                self.n_disagreed,
                self.p,
                confidence,
                self.pmf_offset,
                self.full_pmf,
            )
        else:
            bound = noise_bound(self.n_items, self.n_disagreed, self.p, confidence)
        kept = ("prior", "method", "reason", "notes")
        return replace(
            self,
            **{f.name: getattr(bound, f.name) for f in fields(NoiseBound) if f.name not in kept},
        )

    def explain(self) -> str:
        """The bound's sentence, plus what was left out (and, for multi-label data, how
        label sets were compared)."""
        text = super().explain()
        if self.multilabel:
            text += f" ({MULTILABEL_SHORT})"
        if self.n_excluded:
            what = "item" if self.n_excluded == 1 else "items"
            text += (
                f" ({self.n_excluded:,} {what} judged by fewer than two of the chosen annotators "
                "left out.)"
            )
        return text

    def agreed_items(self) -> pd.DataFrame:
        """The agreed items with their label: the subset whose noise this result bounds.

        Teams often take these as their gold standard; up to ``gamma`` of them may be
        coin-flips (see :meth:`explain`). Not to be confused with the Dawid-Skene model's
        labels (:func:`analytics.dawid_skene.model_labels_table`) or the multi-label gold
        standard of label sets (:func:`analytics.multilabel.gold_standard`).

        Returns
        -------
        pandas.DataFrame
            Columns ``item, label, annotators, p``: one row per agreed item.
        """
        if self.items.empty:
            return pd.DataFrame(columns=["item", "label", "annotators", "p"])
        gold = self.items[self.items["status"] == "agreed"]
        return gold.drop(columns="status").reset_index(drop=True)


def _category_names(ann: Annotations) -> list[str]:
    """Display names of the label codes (label sets joined with '|' for multi-label data)."""
    if not ann.is_multilabel:
        return [str(c) for c in ann.categories]
    cats = np.asarray(ann.categories, dtype=object)
    return [
        "|".join(str(c) for c in cats[row]) if row.any() else "∅ (empty set)"
        for row in ann.label_sets_table
    ]


def _judged_pairs(ann: Annotations) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(item, annotator, label) codes, one per judged pair; a repeat keeps the last.

    One entry per judgement, never an items x annotators matrix: 1,000,000 judgements from
    1,000 annotators stay 1,000,000 entries (a dense table would hold 200,000,000 cells).
    """
    item, who, lab = ann.item_codes, ann.annotator_codes, ann.label_codes
    if ann.has_repeats:
        key = item * ann.n_annotators + who
        _, last_from_end = np.unique(key[::-1], return_index=True)
        keep = np.sort(len(key) - 1 - last_from_end)
        item, who, lab = item[keep], who[keep], lab[keep]
    return item, who, lab


def _count_panels(row: np.ndarray, who: np.ndarray, n_rows: int, n_ann: int) -> int:
    """How many different sets of annotators judged the items (for the coverage note).

    Each set is summed into two 64-bit fingerprints of random per-annotator weights (a
    collision needs two different sets to agree on 128 random bits), one pass over the
    judgements.
    """
    weights = np.random.default_rng(0).integers(0, 2**63, size=(2, n_ann), dtype=np.uint64)
    a = np.zeros(n_rows, np.uint64)
    b = np.zeros(n_rows, np.uint64)
    np.add.at(a, row, weights[0][who])
    np.add.at(b, row, weights[1][who])
    return len(np.unique(np.stack([a, b], axis=1), axis=0))


def _rates(
    who: np.ndarray, lab: np.ndarray, n_ann: int, n_cat: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Footnote 3: each annotator's category proportions on the disagreed items they judged.

    ``who`` and ``lab`` are the judgements on disagreed items. Returns (rates, judged
    count per annotator, which annotators got the pooled rates).
    """
    counts = np.bincount(who * n_cat + lab, minlength=n_ann * n_cat)
    counts = counts.reshape(n_ann, n_cat).astype(float)
    totals = counts.sum(axis=1)
    pooled = counts.sum(axis=0) / counts.sum()
    fallback = totals == 0
    rates = np.where(fallback[:, None], pooled[None, :], counts / np.maximum(totals, 1)[:, None])
    return rates, totals.astype(np.int64), fallback


def _item_p(judged: np.ndarray, rates: np.ndarray) -> np.ndarray:
    """``p_i = sum_c exp(sum_{j judged i} log r_jc)``, as a sparse product (no item loop)."""
    with np.errstate(divide="ignore"):
        logr = np.where(rates > 0, np.log(np.where(rates > 0, rates, 1.0)), LOG_ZERO)
    s = sparse.csr_matrix(judged.astype(float)) @ logr
    return np.exp(s).sum(axis=1)


def noise_from_annotations(
    ann: Annotations | pd.DataFrame,
    confidence: float = 0.95,
    annotators: Iterable[Any] | None = None,
    *,
    n_nodes: int = DEFAULT_NODES,
    method: str = "auto",
) -> AnnotationNoise:
    """The noise bound of the agreed items of loaded annotations.

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        The annotations (or a long DataFrame item, annotator, label).
    confidence : float, default 0.95
        The confidence, the paper's alpha, strictly between 0 and 1.
    annotators : iterable, optional
        Use only these annotators. Default None: all.
    n_nodes : int, default 48
        Passed to :func:`~analytics.noise.hidden_hard_posterior` when coverage is uneven.
    method : str, default "auto"
        ``"auto"``, ``"exact"`` or ``"refined normal"``; passed on like ``n_nodes``.

    Returns
    -------
    AnnotationNoise
        NaN with ``reason`` for fewer than two annotators, no item judged twice, no
        disagreed item (p cannot be estimated) or no agreed item.

    Raises
    ------
    AnnotationDataError
        ``confidence`` outside (0, 1), an unknown ``method`` or ``n_nodes`` < 1 (checked
        up front, even when the data would not need them), unknown annotators.

    Notes
    -----
    Each annotator's rates ``r_jc`` are their category shares on the disagreed items they
    judged (footnote 3); each item's chance agreement is
    ``p_i = sum_c prod_{j judged i} r_jc``. With one p for every agreed item the bound is
    equation (1) (:func:`~analytics.noise.noise_bound`); otherwise the per-item
    generalisation of :func:`~analytics.noise.hidden_hard_posterior`, which equals
    equation (1) when all p_i are equal.

    References
    ----------
    Beigman Klebanov, B. & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4): 495-503. Equation (1),
    section 2; footnote 3 (rates estimated on the disagreed items).

    Examples
    --------
    >>> import pandas as pd
    >>> long = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3, 4, 4],
    ...                      "annotator": ["A", "B"] * 4,
    ...                      "label": ["x", "x", "x", "y", "y", "y", "y", "x"]})
    >>> r = noise_from_annotations(long)
    >>> r.n_items, r.n_disagreed, r.p
    (4, 2, 0.5)
    """
    ann = as_annotations(ann)
    confidence = check_confidence(confidence)
    method, n_nodes = check_method(method, n_nodes)
    if annotators is not None:
        ann = ann.subset(annotators=list(annotators))
    notes: list[str] = []
    if ann.is_multilabel:
        notes.append(MULTILABEL_NOTE)
    if ann.kind.value in ("ordinal", "numeric"):
        notes.append(
            f"The labels are {ann.kind.value}; the model compares them as categories, so "
            "annotators agree on an item only when they gave exactly the same value."
        )
    if ann.has_repeats:
        notes.append("Some annotators judged an item more than once; their last judgement is used.")
    names = tuple(ann.annotators)
    item, who, lab = _judged_pairs(ann)
    per_item = np.bincount(item, minlength=ann.n_items)
    eligible = per_item >= 2
    n_excluded = int((~eligible).sum())
    if n_excluded:
        notes.append(
            f"{n_excluded:,} items were judged by fewer than two of the chosen annotators and are "
            "left out (one judgement can neither agree nor disagree)."
        )
    base: dict[str, Any] = {
        "annotators": names,
        "n_excluded": n_excluded,
        "multilabel": ann.is_multilabel,
    }

    def undefined(n: int, d: int, reason: str, **extra: Any) -> AnnotationNoise:
        return AnnotationNoise.undefined(
            n, d, float("nan"), confidence, reason, notes=tuple(notes), **{**base, **extra}
        )

    if ann.n_annotators < 2:
        return undefined(0, 0, "it needs at least two annotators; choose two or more.")
    if not eligible.any():
        return undefined(0, 0, "no item was judged by two or more of the chosen annotators.")

    keep = eligible[item]
    row = (np.cumsum(eligible) - 1)[item[keep]]  # the item's row among the eligible items
    who, lab = who[keep], lab[keep]
    n_rows = int(eligible.sum())
    lowest = np.full(n_rows, np.iinfo(np.int64).max)
    np.minimum.at(lowest, row, lab)
    highest = np.full(n_rows, -1)
    np.maximum.at(highest, row, lab)
    agreed = lowest == highest
    n, d = len(agreed), int((~agreed).sum())
    cats = _category_names(ann)
    item_names = np.asarray(ann.items, dtype=object)[eligible]
    items = pd.DataFrame(
        {
            "item": item_names,
            "status": np.where(agreed, "agreed", "disagreed"),
            "label": np.where(
                agreed, np.asarray(cats, dtype=object)[np.where(agreed, lowest, 0)], ""
            ),
            "annotators": per_item[eligible],
        }
    )
    if d == 0:
        return undefined(
            n,
            0,
            "the annotators never disagreed, so their coin on hard items cannot be estimated "
            "(footnote 3 needs disagreed items). The agreed items may well be clean, but this "
            "model cannot say how clean.",
            items=items.assign(p=np.nan),
        )
    if d == n:
        return undefined(
            n,
            d,
            "the annotators disagreed on every item, so there is no agreed gold standard.",
            items=items.assign(p=np.nan),
        )

    on_disagreed = ~agreed[row]
    rates, n_judged, fallback = _rates(
        who[on_disagreed], lab[on_disagreed], ann.n_annotators, len(cats)
    )
    if fallback.any():
        pooled_names = ", ".join(str(names[i]) for i in np.flatnonzero(fallback)[:5])
        more = f" and {int(fallback.sum()) - 5} more" if fallback.sum() > 5 else ""
        notes.append(
            f"{pooled_names}{more} judged no disagreed item, so their rates on hard items are the pooled "
            "rates of all annotators on disagreed items."
        )
    rates_df = pd.DataFrame(rates, index=pd.Index(names, name="annotator"), columns=cats)
    rates_df["disagreed judged"] = n_judged
    judged = sparse.csr_matrix(
        (np.ones(len(row)), (row, who)), shape=(n_rows, ann.n_annotators)
    )
    p_item = _item_p(judged, rates)
    items["p"] = p_item
    p_agreed = p_item[agreed]
    extra: dict[str, Any] = {
        **base,
        "rates": rates_df,
        "items": items,
        "p_min": float(p_item.min()),
        "p_max": float(p_item.max()),
    }
    p_mean = float(p_item.mean())
    if np.ptp(p_agreed) <= 1e-12 * max(1.0, float(p_agreed.max())):
        res = noise_bound(n, d, float(p_agreed[0]), confidence)
        fields = {**res.__dict__, "p": float(p_agreed[0]), "notes": tuple(notes)}
        return AnnotationNoise(**fields, **extra, uneven=False)
    post = hidden_hard_posterior(p_agreed, d, n_nodes=n_nodes, method=method)
    panels = _count_panels(row, who, n_rows, ann.n_annotators)
    notes.append(
        f"Coverage is uneven ({panels:,} different annotator panels), so the chance agreement "
        f"differs per item (p from {p_item.min():.3g} to {p_item.max():.3g}, mean {p_mean:.3g}); "
        "the bound uses the per-item generalisation of equation (1) (a mixture over theta of "
        f"Poisson-binomials, {post.method})."
    )
    return AnnotationNoise.from_posterior(
        n,
        d,
        p_mean,
        confidence,
        post.offset,
        post.pmf,
        method=f"per-item p: mixture of Poisson-binomials ({post.method})",
        notes=tuple(notes),
        uneven=True,
        full_pmf=post.pmf,
        pmf_offset=int(post.offset),
        **extra,
    )
