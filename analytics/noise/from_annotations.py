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
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import sparse

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_count
from analytics._core.lazy import engine_answer, is_lazy
from analytics._core.validation import check_confidence, check_method
from analytics.data import Annotations, as_annotations
from analytics.noise.annotation_noise import AnnotationNoise
from analytics.noise.bound import noise_bound
from analytics.noise.mixture import DEFAULT_NODES, hidden_hard_posterior

__all__ = [
    "AnnotationNoise",
    "ChanceByItem",
    "bound_from_chance",
    "early_answer",
    "input_notes",
    "log_rates",
    "noise_from_annotations",
    "rates_from_counts",
    "split_answer",
]

MULTILABEL_NOTE = (
    "Multi-label data: each distinct label set counts as one category, so annotators agree "
    "on an item only when they chose exactly the same set; sets that overlap but differ "
    "(say {joy, anger} and {joy}) count as a disagreement, and the empty set is a category too."
)
LOG_ZERO = -1e4  # log of a zero rate: exp(-1e4) is exactly 0.0, and sums stay finite


def _category_names(ann: Annotations) -> list[str]:
    """Display names of the label codes: label sets joined with ';', ``{}`` the empty set,
    as every CSV Concord writes them (and its loader reads them back)."""
    if not ann.is_multilabel:
        return [str(c) for c in ann.categories]
    cats = np.asarray(ann.categories, dtype=object)
    return [
        ";".join(str(c) for c in cats[row]) if row.any() else "{}" for row in ann.label_sets_table
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
    """Footnote 3's rates from the judgements on the disagreed items.

    ``who`` and ``lab`` are the judgements on disagreed items. Returns (rates, judged
    count per annotator, which annotators got the pooled rates).
    """
    counts = np.bincount(who * n_cat + lab, minlength=n_ann * n_cat)
    return rates_from_counts(counts.reshape(n_ann, n_cat).astype(float))


def rates_from_counts(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Footnote 3's rates from the annotators x categories counts on the disagreed items.

    An annotator who judged no disagreed item gets the pooled rates of all annotators.
    Returns (rates, judged count per annotator, which annotators got the pooled rates).
    """
    totals = counts.sum(axis=1)
    pooled = counts.sum(axis=0) / counts.sum()
    fallback = totals == 0
    rates = np.where(fallback[:, None], pooled[None, :], counts / np.maximum(totals, 1)[:, None])
    return rates, totals.astype(np.int64), fallback


def log_rates(rates: np.ndarray) -> np.ndarray:
    """``log r_jc``, with :data:`LOG_ZERO` for a zero rate (so sums stay finite)."""
    with np.errstate(divide="ignore"):
        return np.where(rates > 0, np.log(np.where(rates > 0, rates, 1.0)), LOG_ZERO)


def _item_p(judged: np.ndarray, rates: np.ndarray) -> np.ndarray:
    """``p_i = sum_c exp(sum_{j judged i} log r_jc)``, as a sparse product (no item loop)."""
    s = sparse.csr_matrix(judged.astype(float)) @ log_rates(rates)
    return np.exp(s).sum(axis=1)


def input_notes(ann: Any) -> list[str]:
    """The notes on what the labels are (multi-label sets, ordinal or numeric values)."""
    notes: list[str] = []
    if ann.is_multilabel:
        notes.append(MULTILABEL_NOTE)
    if ann.kind.value in ("ordinal", "numeric"):
        notes.append(
            f"The labels are {ann.kind.value}; the model compares them as categories, so "
            "annotators agree on an item only when they gave exactly the same value."
        )
    return notes


#: Fewer disagreed items than this: the load notes that p rests on few items.
FEW_DISAGREED = 10
_ZERO_P = (
    "on the {items} {who}, so the chance "
    "agreement p estimated from them (Beigman Klebanov & Beigman 2009, footnote 3) is 0, "
    "and a bound of 0 would follow by construction, not from the data. Give p by hand "
    "(the Noise calculator's 'By hand' mode), or collect more items."
)


def _undefined(
    n: int,
    d: int,
    confidence: float,
    reason: str,
    notes: list[str],
    base: dict[str, Any],
    **extra: Any,
) -> AnnotationNoise:
    return AnnotationNoise.undefined(
        n, d, float("nan"), confidence, reason, notes=tuple(notes), **{**base, **extra}
    )


def early_answer(
    n_annotators: int,
    any_eligible: bool,
    confidence: float,
    notes: list[str],
    base: dict[str, Any],
) -> AnnotationNoise | None:
    """The NaN answer when fewer than two annotators or no item judged twice, else None.

    Adds the note on the items left out (``base["n_excluded"]``) first.
    """
    n_excluded = base["n_excluded"]
    if n_excluded:
        were, are = ("item was", "is") if n_excluded == 1 else ("items were", "are")
        notes.append(
            f"{n_excluded:,} {were} judged by fewer than two of the annotators used and {are} "
            "left out (one judgement can neither agree nor disagree)."
        )
    if n_annotators < 2:
        return _undefined(
            0, 0, confidence, "it needs at least two annotators; choose two or more.", notes, base
        )
    if not any_eligible:
        return _undefined(
            0,
            0,
            confidence,
            "no item was judged by two or more of the annotators used.",
            notes,
            base,
        )
    return None


def split_answer(
    n: int, d: int, confidence: float, notes: list[str], base: dict[str, Any], items: pd.DataFrame
) -> AnnotationNoise | None:
    """The NaN answer when nobody disagreed or everybody did, else None."""
    if d == 0:
        return _undefined(
            n,
            0,
            confidence,
            "the annotators never disagreed, so their coin on hard items cannot be estimated "
            "(footnote 3 needs disagreed items). The agreed items may well be clean, but this "
            "model cannot say how clean.",
            notes,
            base,
            items=items.assign(p=np.nan),
        )
    if d == n:
        return _undefined(
            n,
            d,
            confidence,
            "the annotators disagreed on every item, so there is no agreed gold standard.",
            notes,
            base,
            items=items.assign(p=np.nan),
        )
    return None


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
        up front, even when the data would not need them), unknown annotators, or
        ``annotators`` given as one string (``"w01"`` had been read as w, 0 and 1).

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
    if isinstance(annotators, (str, bytes)):  # a name, not a list of one-letter names
        raise AnnotationDataError(
            f"annotators must be a list of annotator names, e.g. annotators=[{annotators!r}, "
            f"...], not the single string {annotators!r}."
        )
    if is_lazy(ann):
        return engine_answer(
            "noise_from_annotations", ann, confidence, annotators, n_nodes=n_nodes, method=method
        )
    ann = as_annotations(ann)
    confidence = check_confidence(confidence)
    method, n_nodes = check_method(method, n_nodes)
    if annotators is not None:
        ann = ann.subset(annotators=annotators)  # a number is refused there, by name
    notes = input_notes(ann)
    if ann.has_repeats:
        notes.append("Some annotators judged an item more than once; their last judgement is used.")
    names = tuple(ann.annotators)
    item, who, lab = _judged_pairs(ann)
    per_item = np.bincount(item, minlength=ann.n_items)
    eligible = per_item >= 2
    n_excluded = int((~eligible).sum())
    base = {"annotators": names, "n_excluded": n_excluded, "multilabel": ann.is_multilabel}
    early = early_answer(ann.n_annotators, bool(eligible.any()), confidence, notes, base)
    if early is not None:
        return early

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
    split = split_answer(n, d, confidence, notes, base, items)
    if split is not None:
        return split
    on_disagreed = ~agreed[row]
    rates, n_judged, fallback = _rates(
        who[on_disagreed], lab[on_disagreed], ann.n_annotators, len(cats)
    )
    judged = sparse.csr_matrix((np.ones(len(row)), (row, who)), shape=(n_rows, ann.n_annotators))
    p_item = _item_p(judged, rates)
    items["p"] = p_item

    def panels() -> int:
        return _count_panels(row, who, n_rows, ann.n_annotators)

    return bound_from_chance(
        ChanceByItem(n, d, p_item, agreed, panels, rates, n_judged, fallback, cats, items),
        confidence,
        notes,
        base,
        n_nodes=n_nodes,
        method=method,
    )


@dataclass(frozen=True)
class ChanceByItem:
    """What the bound needs once the items are split and each item's p is known.

    Attributes
    ----------
    n, d : int
        Items taking part, and those disagreed on.
    p_item : ndarray of float
        Chance agreement of every item taking part (any order, aligned with ``agreed``).
    agreed : ndarray of bool
        Which of them were agreed on.
    panels : callable
        The number of distinct annotator panels (asked only when p is uneven).
    rates, n_judged, fallback : ndarray
        :func:`rates_from_counts` of the disagreed items.
    cats : list of str
        Category names.
    items : DataFrame
        The per-item table of the result (with its ``p``).
    """

    n: int
    d: int
    p_item: np.ndarray
    agreed: np.ndarray
    panels: Any
    rates: np.ndarray
    n_judged: np.ndarray
    fallback: np.ndarray
    cats: list
    items: pd.DataFrame


def bound_from_chance(
    c: ChanceByItem,
    confidence: float,
    notes: list[str],
    base: dict[str, Any],
    *,
    n_nodes: int = DEFAULT_NODES,
    method: str = "auto",
) -> AnnotationNoise:
    """The noise bound from the split items and their chance agreement (footnote 3, eq. 1).

    Shared by the in-memory path and the engines (:mod:`analytics.noise.on_engine`):
    ``notes`` is extended in place; ``base`` holds ``annotators, n_excluded, multilabel``.
    """
    names, n, d, p_item, rates = base["annotators"], c.n, c.d, c.p_item, c.rates
    if c.fallback.any():
        who = ", ".join(str(names[i]) for i in np.flatnonzero(c.fallback)[:5])
        more = f" and {int(c.fallback.sum()) - 5} more" if c.fallback.sum() > 5 else ""
        notes.append(
            f"{who}{more} judged no disagreed item, so their rates on hard items are the pooled "
            "rates of all annotators on disagreed items."
        )
    rates_df = pd.DataFrame(rates, index=pd.Index(names, name="annotator"), columns=c.cats)
    rates_df["disagreed judged"] = c.n_judged
    p_agreed = p_item[c.agreed]
    extra: dict[str, Any] = {
        **base,
        "rates": rates_df,
        "items": c.items,
        "p_min": float(p_item.min()),
        "p_max": float(p_item.max()),
    }
    if not p_agreed.any():  # a bound of 0 by construction: undefined, with the reason
        panel = c.items["annotators"] if "annotators" in c.items else pd.Series([2])
        who = (
            "no two annotators ever chose the same category"
            if int(panel.max()) <= 2
            # p of an item is sum_c prod_j r_jc: one annotator of the panel who never chose
            # a category takes it out, even when the other two shared it
            else "no category was chosen by every annotator of an agreed item's panel (p "
            "multiplies the annotators' rates of a category, so one who never chose it "
            "makes it 0)"
        )
        why = _ZERO_P.format(items=format_count(d, "disagreed item"), who=who)
        return _undefined(n, d, confidence, why, notes, base, items=c.items, rates=rates_df)
    if d < FEW_DISAGREED:
        notes.append(
            f"p is estimated from only {format_count(d, 'disagreed item')} (Beigman Klebanov & "
            f"Beigman 2009, footnote 3): with so few, the "
            "bound is rough; give p by hand to see how it moves."
        )
    # the bound sums over the agreed items only: their mean is the p it stands for (the
    # mean over every item had read 0.00705 on the crowd sample, 0.00796 over the agreed)
    p_mean = float(p_agreed.mean())
    if np.ptp(p_agreed) <= 1e-12 * max(1.0, float(p_agreed.max())):
        res = noise_bound(n, d, float(p_agreed[0]), confidence)
        values = {**res.__dict__, "p": float(p_agreed[0]), "notes": tuple(notes)}
        return AnnotationNoise(**values, **extra, uneven=False)
    post = hidden_hard_posterior(p_agreed, d, n_nodes=n_nodes, method=method)
    notes.append(
        f"Coverage is uneven ({c.panels():,} different annotator panels), so the chance agreement "
        f"differs per item (p from {p_item.min():.3g} to {p_item.max():.3g}; mean over the "
        f"agreed items, whose coin-flips the bound counts, {p_mean:.3g}); "
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
