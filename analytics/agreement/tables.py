"""Where do the annotators agree? Agreement per category, per annotator pair, per item.

- :func:`per_category`: one-vs-rest Fleiss' kappa and alpha for every category (single-
  and multi-label data), with bootstrap intervals;
- :func:`pairwise`: a coefficient for every pair of annotators (:class:`Pairwise`);
- :func:`contingency`: two annotators' labels against each other;
- :func:`item_agreement`, :func:`agreement_levels`, :func:`item_agreement_summary`:
  observed agreement on every item, and how the items spread over it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from analytics._core.bootstrap import (
    ItemStatistic,
    bootstrap_replicates,
    check_resampling,
)
from analytics._core.budget import check_budget, estimate_bytes
from analytics._core.errors import AnnotationDataError
from analytics._core.validation import check_choice
from analytics.agreement.annotator_pairs import pair_labels, pair_margin_values, two_annotators
from analytics.agreement.chance import beyond_chance, chance_agreement
from analytics.agreement.pair_margins import pair_margin_blocks, pairwise_bytes
from analytics.agreement.prepared import (
    MULTILABEL_ONLY_ALPHA,
    NO_PAIRS,
    coders,
    prepare,
)
from analytics.data import Annotations

__all__ = [
    "ItemAgreementSummary",
    "Pairwise",
    "agreement_levels",
    "contingency",
    "item_agreement",
    "item_agreement_summary",
    "pairwise",
    "per_category",
]


# ---------------------------------------------------------------------- per category
def per_category(
    ann: Annotations | pd.DataFrame,
    confidence: float = 0.95,
    n_boot: int = 1000,
    seed: int | None = 0,
) -> pd.DataFrame:
    """One-vs-rest agreement per category: Fleiss's kappa_j and alpha_j, with intervals.

    Parameters
    ----------
    ann : Annotations or DataFrame
        Single-label or multi-label judgements.
    confidence : float, default 0.95
        Coverage of the bootstrap intervals, strictly between 0 and 1.
    n_boot : int, default 1000
        Bootstrap resamples of the items (0: no intervals).
    seed : int or None, default 0
        Seed of the resampling.

    Returns
    -------
    DataFrame
        One row per category: ``category, judgements, items_used, prevalence,
        observed_agreement, fleiss_kappa, kappa_low, kappa_high, alpha, alpha_low,
        alpha_high, note``. ``judgements`` and ``prevalence`` count every judgement;
        ``items_used`` is the number of items with two or more judgements, the items
        ``observed_agreement`` (the one-vs-rest :math:`p_a`), kappa and alpha use. A
        category nobody (or everybody) used on those items has NaN kappa and alpha and a
        ``note`` saying so.

    Raises
    ------
    AnnotationDataError
        ``confidence``, ``n_boot`` or ``seed`` out of range (the message names it).

    Notes
    -----
    For category :math:`j`, every judgement becomes "j" or "not j" (multi-label data:
    the category is in the set or not). With :math:`r_{ij}` of the :math:`r_i` judgements
    of item :math:`i` saying "j":

    .. math:: \\kappa_j = \\frac{p_{a,j} - p_{e,j}}{1 - p_{e,j}},\\quad
              p_{a,j} = \\frac{1}{n'} \\sum_{i: r_i \\ge 2}
              \\frac{r_{ij}(r_{ij} - 1) + (r_i - r_{ij})(r_i - r_{ij} - 1)}{r_i (r_i - 1)},\\quad
              p_{e,j} = \\pi_j^2 + (1 - \\pi_j)^2

    with :math:`\\pi_j` the mean over items of :math:`r_{ij}/r_i`: Fleiss's (1971) kappa for
    one category when every item has the same number of judgements, Gwet's (2014) form of
    :func:`~analytics.agreement.fleiss_kappa` otherwise. Alpha is nominal alpha on the same
    binary data:

    .. math:: \\alpha_j = 1 - \\frac{(n - 1)\\, \\sum_i 2 r_{ij}(r_i - r_{ij})/(r_i - 1)}
                                   {2\\, n_j (n - n_j)}

    over the :math:`n` judgements of pairable items, :math:`n_j` of them "j".

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin* 76(5), 378-382 (agreement on a single category).
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed.
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School
    for Communication, University of Pennsylvania.

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3, 4, 4], "annotator": ["a", "b"] * 4,
    ...                    "label": ["x", "x", "y", "y", "x", "y", "y", "y"]})
    >>> per_category(df, n_boot=0)[["category", "fleiss_kappa", "alpha"]].round(3)
      category  fleiss_kappa  alpha
    0        x         0.467  0.533
    1        y         0.467  0.533
    """
    confidence, n_boot, seed = check_resampling(confidence, n_boot, seed)
    ann = coders(ann)
    check_budget(
        estimate_bytes(ann.n_items * ann.n_categories, copies=12),
        f"agreement per category of {ann.n_items:,} items x {ann.n_categories:,} categories",
        "Merge rare categories, or analyse a subset of the items (Annotations.subset).",
    )
    counts = np.asarray(ann.count_matrix(), dtype=float)  # items x categories (sets: membership)
    n_i = np.bincount(ann.item_codes, minlength=ann.n_items).astype(float)
    q = ann.n_categories
    stat_k, stat_a = _per_category_statistics(counts, n_i)
    point = stat_k.totals(np.ones((1, ann.n_items)))
    kappa = stat_k.finish(point)[0]
    alpha = stat_a.finish(stat_a.totals(np.ones((1, ann.n_items))))[0]
    with np.errstate(invalid="ignore", divide="ignore"):
        observed = point[0, :q] / point[0, 2 * q]
    lo_k = hi_k = lo_a = hi_a = np.full(q, np.nan)
    if n_boot > 0 and ann.n_items:
        patterns = prepare(ann).patterns
        reps = bootstrap_replicates({"k": stat_k, "a": stat_a}, patterns, n_boot, seed)
        lo_k, hi_k = _columnwise_interval(reps["k"], confidence)
        lo_a, hi_a = _columnwise_interval(reps["a"], confidence)
    judged = counts.sum(axis=0)
    pairable = n_i >= 2
    prevalence = np.divide(judged, n_i.sum(), out=np.full(len(judged), np.nan), where=n_i.sum() > 0)
    return pd.DataFrame(
        {
            "category": list(ann.categories),
            "judgements": judged.astype(np.int64),
            "items_used": np.full(q, int(pairable.sum()), dtype=np.int64),
            "prevalence": prevalence,
            "observed_agreement": observed,
            "fleiss_kappa": kappa,
            "kappa_low": lo_k,
            "kappa_high": hi_k,
            "alpha": alpha,
            "alpha_low": lo_a,
            "alpha_high": hi_a,
            "note": _per_category_notes(counts, n_i),
        }
    )


def _per_category_notes(counts: np.ndarray, n_i: np.ndarray) -> list[str]:
    """Why a category's kappa and alpha are undefined ("" where they are defined)."""
    pairable = n_i >= 2
    if not pairable.any():
        return [NO_PAIRS] * counts.shape[1]
    # the counts cover only items judged twice or more: say so when other items exist
    where = "" if pairable.all() else " on the items judged by two or more annotators"
    yes = counts[pairable].sum(axis=0)
    no = n_i[pairable].sum() - yes
    return [
        f"nobody used this category{where}: no variation to agree on"
        if y == 0
        else f"every judgement used this category{where}: no variation to agree on"
        if n == 0
        else ""
        for y, n in zip(yes, no, strict=True)
    ]


def _per_category_statistics(
    counts: np.ndarray, n_i: np.ndarray
) -> tuple[ItemStatistic, ItemStatistic]:
    """Per-category one-vs-rest Fleiss kappa and nominal alpha, vectorised over categories."""
    q = counts.shape[1]
    rest = n_i[:, None] - counts
    two = (n_i >= 2).astype(float)
    denom = np.maximum(n_i * (n_i - 1), 1)[:, None]
    pa = two[:, None] * (counts * (counts - 1) + rest * (rest - 1)) / denom
    share = counts / np.maximum(n_i, 1)[:, None]
    # alpha: disagreeing pairs 2 r_ij (r_i - r_ij) / (r_i - 1) and pairable margins
    dis = two[:, None] * 2.0 * counts * rest / np.maximum(n_i - 1, 1)[:, None]
    margins = np.column_stack([two[:, None] * counts, two * n_i])
    stats_k = np.column_stack([pa, share, two, np.ones_like(n_i), margins])

    def varies(m: np.ndarray) -> np.ndarray:
        """Category used on some, not all, judgements of pairable items (margins columns)."""
        n1, n = m[:, :q], m[:, [q]]
        return (n1 > 0) & (n1 < n)

    def finish_k(t: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            p_a = t[:, :q] / t[:, [2 * q]]
            pi = t[:, q : 2 * q] / t[:, [2 * q + 1]]
            # one-vs-rest: the shares of "j" and "not j" (rows of replicates x categories)
            pe = chance_agreement("fleiss_kappa", np.stack([pi, 1 - pi], -1).reshape(-1, 2))
            value = beyond_chance(p_a, pe.reshape(pi.shape))
        return np.where(varies(t[:, 2 * q + 2 :]) & (t[:, [2 * q]] > 0), value, np.nan)

    stats_a = np.column_stack([dis, margins])

    def finish_a(t: np.ndarray) -> np.ndarray:
        n = t[:, [2 * q]]
        n1 = t[:, q : 2 * q]
        with np.errstate(invalid="ignore", divide="ignore"):
            value = 1.0 - (n - 1.0) * t[:, :q] / (2.0 * n1 * (n - n1))
        return np.where(varies(t[:, q:]), value, np.nan)

    return ItemStatistic(stats_k, finish_k), ItemStatistic(stats_a, finish_a)


def _columnwise_interval(reps: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~analytics._core.bootstrap.percentile_interval` of every column at once."""
    reps = np.asarray(reps, dtype=float).reshape(len(reps), -1)
    enough = np.isfinite(reps).sum(axis=0) >= 2
    lo, hi = np.full(reps.shape[1], np.nan), np.full(reps.shape[1], np.nan)
    if enough.any():
        cols, tail = (
            np.where(np.isfinite(reps[:, enough]), reps[:, enough], np.nan),
            (1 - confidence) / 2,
        )
        lo[enough], hi[enough] = np.nanquantile(cols, [tail, 1.0 - tail], axis=0)
    return lo, hi


# ---------------------------------------------------------------------- pairwise matrix
class Pairwise(NamedTuple):
    """An annotator x annotator matrix of a coefficient and its shared-item counts.

    Attributes
    ----------
    values : DataFrame
        Annotators x annotators; NaN on the diagonal and for pairs that share no item.
    shared : DataFrame
        Items both judged (diagonal: the annotator's own items).
    coefficient : str
        The machine name of the coefficient.
    """

    values: pd.DataFrame
    shared: pd.DataFrame
    coefficient: str

    def most_shared(self) -> tuple[int, int]:
        """Positions (row, column) of the two different annotators who share most items.

        Ties go to the first pair in row order; with one annotator, ``(0, 0)``.
        """
        shared = self.shared.to_numpy().copy()
        np.fill_diagonal(shared, -1)
        ia, ib = np.unravel_index(int(np.argmax(shared)), shared.shape)
        return int(ia), int(ib)


_PAIRWISE = {
    "cohen_kappa": "cohen",
    "scott_pi": "scott",
    "percent_agreement": "percent",
    "krippendorff_alpha": "alpha",
    "gwet_ac1": "gwet",
}


def pairwise(ann: Annotations | pd.DataFrame, coefficient: str = "cohen_kappa") -> Pairwise:
    """The coefficient for every pair of annotators, over the items both judged.

    Parameters
    ----------
    ann : Annotations or DataFrame
        The judgements.
    coefficient : str, default "cohen_kappa"
        ``"cohen_kappa"``, ``"scott_pi"``, ``"percent_agreement"``, ``"gwet_ac1"``
        (two-annotator AC1) or ``"krippendorff_alpha"`` (nominal, two annotators).
        Multi-label data: ``"percent_agreement"`` only.

    Returns
    -------
    Pairwise

    Raises
    ------
    AnnotationDataError
        Unknown ``coefficient``, or one that needs single-label data; or the annotators x
        annotators tables would exceed the memory budget (checked before allocating).

    Notes
    -----
    The pairs are computed in blocks of annotators, each within a quarter of the memory
    budget (:mod:`~analytics.agreement.pair_margins`). Each pair's value is the two-annotator coefficient on the items both judged,
    from the pair's margins (:func:`~analytics.agreement.annotator_pairs.pair_values_from_margins`
    gives the formulas).

    References
    ----------
    Cohen, J. (1960), equation 1; Scott, W. A. (1955); Gwet, K. L. (2008);
    Krippendorff, K. (2011) (alpha of two observers).
    """
    ann = coders(ann)
    check_choice(coefficient, "coefficient", tuple(_PAIRWISE))
    names = ann.annotators
    a_n = ann.n_annotators
    if ann.is_multilabel and coefficient != "percent_agreement":
        raise AnnotationDataError(
            f"{coefficient} is {MULTILABEL_ONLY_ALPHA}.", hint="Choose percent_agreement."
        )
    check_budget(
        pairwise_bytes(a_n),
        f"the pairwise table of {a_n:,} annotators ({a_n * (a_n - 1) // 2:,} annotator pairs)",
        "Use agreement_report for the coefficients over all annotators, or pairwise on a "
        "subset of the annotators (Annotations.subset).",
    )
    shared = ann.coverage()
    values = np.full((a_n, a_n), np.nan)
    p = prepare(ann)
    which = _PAIRWISE[coefficient]
    if a_n >= 2 and len(p.item) and which == "percent":  # sets may be many: count directly
        for pairs in pair_margin_blocks(p, None, margins=False):
            n, agree = pairs.totals[:, 0], pairs.totals[:, 1]
            with np.errstate(invalid="ignore", divide="ignore"):
                vals = np.where(n > 0, agree / n, np.nan)
            values[pairs.first, pairs.second] = vals
            values[pairs.second, pairs.first] = vals
    elif a_n >= 2 and len(p.item):
        for pairs, vals, _ in pair_margin_values(p, None, which):
            values[pairs.first, pairs.second] = vals
            values[pairs.second, pairs.first] = vals
    frame = pd.DataFrame(values, index=names, columns=names)
    frame.index.name, frame.columns.name = "annotator", "annotator"
    return Pairwise(frame, shared, coefficient)


# ---------------------------------------------------------------------- contingency, items
def contingency(ann: Annotations | pd.DataFrame, a: Any, b: Any) -> pd.DataFrame:
    """Confusion matrix between annotators ``a`` (rows) and ``b`` (columns) on shared items.

    Parameters
    ----------
    ann : Annotations or DataFrame
        The judgements.
    a, b : annotator name
        The two annotators.

    Returns
    -------
    DataFrame
        Counts of shared items; rows and columns are the categories (multi-label data: the
        distinct label sets), named after the annotators.

    Raises
    ------
    AnnotationDataError
        An unknown annotator.

    Notes
    -----
    Cell :math:`(k, l)` is :math:`n_{kl}`, the number of items ``a`` labelled :math:`k`
    and ``b`` labelled :math:`l`: the agreement table whose proportions
    :math:`p_{kl} = n_{kl} / n` give Cohen's :math:`p_o = \\sum_k p_{kk}` and, from its
    margins, :math:`p_e = \\sum_k p_{k\\cdot} p_{\\cdot k}`.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educational and
    Psychological Measurement* 20(1), 37-46, equation 1 (the kappa computed from this
    table).
    """
    ann = coders(ann)
    ia, ib = two_annotators(ann, a, b)
    p = prepare(ann)
    if ann.is_multilabel:
        names = _set_names(ann)
        q = len(names)
    else:
        names, q = list(ann.categories), ann.n_categories
    check_budget(
        estimate_bytes(q * q, copies=3),
        f"the {q:,} x {q:,} table of two annotators' categories",
        "Merge rare categories, or analyse a subset of the categories.",
    )
    la, lb = pair_labels(p, ia, ib)
    table = np.bincount(la * q + lb, minlength=q * q).reshape(q, q)
    return pd.DataFrame(
        table,
        index=pd.Index(names, name=str(ann.annotators[ia])),
        columns=pd.Index(names, name=str(ann.annotators[ib])),
    )


def _set_names(ann: Annotations) -> list[str]:
    """Display names of the distinct label sets: categories in declared order, "{}" if empty."""
    cats = [str(c) for c in ann.categories]
    return [
        ", ".join(c for c, on in zip(cats, row, strict=True) if on) or "{}"
        for row in ann.label_sets_table
    ]


def item_agreement(ann: Annotations | pd.DataFrame) -> pd.DataFrame:
    """Observed agreement on every item.

    Parameters
    ----------
    ann : Annotations or DataFrame
        The judgements (multi-label data compare whole label sets).

    Returns
    -------
    DataFrame
        Indexed by item: ``judgements``, ``agreement`` (share of agreeing pairs of
        judgements; NaN with one judgement), ``top_votes`` (judgements in the most frequent
        label), ``top_share``, ``top_label`` (ties: the first in category order; multi-label
        data: the set as text, categories in declared order, ``{}`` for the empty set).

    Notes
    -----
    .. math:: p_i = \\frac{\\sum_k r_{ik}(r_{ik}-1)}{r_i(r_i-1)}

    Fleiss's (1971) :math:`P_i`; their mean over items with two or more
    judgements is the observed agreement of :func:`~analytics.agreement.fleiss_kappa`.

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin* 76(5), 378-382.
    """
    ann = coders(ann)
    p = prepare(ann)
    c = p.counts
    n_i = p.n_i.astype(float)
    agree = np.asarray(c.multiply(c).sum(axis=1)).ravel() - n_i
    with np.errstate(invalid="ignore", divide="ignore"):
        share_pairs = np.where(n_i >= 2, agree / (n_i * (n_i - 1)), np.nan)
    top = np.asarray(c.max(axis=1).toarray()).ravel() if c.shape[1] else np.zeros(len(n_i))
    top_code = np.asarray(c.argmax(axis=1)).ravel() if c.shape[1] else np.zeros(len(n_i), int)
    labels = np.asarray(_set_names(ann) if ann.is_multilabel else ann.categories, dtype=object)
    frame = pd.DataFrame(
        {
            "judgements": p.n_i.astype(np.int64),
            "agreement": share_pairs,
            "top_votes": top.astype(np.int64),
            "top_share": np.divide(top, n_i, out=np.full(len(n_i), np.nan), where=n_i > 0),
            "top_label": labels[top_code] if len(labels) else None,
        },
        index=ann.items,
    )
    frame.index.name = "item"
    return frame


class ItemAgreementSummary(NamedTuple):
    """How the items spread over observed agreement (:func:`item_agreement_summary`).

    Parameters
    ----------
    n_items : int
        Items with two or more judgements (the ones with an agreement).
    mean : float
        Mean item agreement, Fleiss's (1971) :math:`\\bar P` (NaN without such items).
    full_share : float
        Share of those items on which every pair of judgements agrees (NaN without such
        items).
    """

    n_items: int
    mean: float
    full_share: float


def item_agreement_summary(items: pd.DataFrame) -> ItemAgreementSummary:
    """Mean item agreement and the share of items in full agreement.

    Parameters
    ----------
    items : DataFrame
        A table of :func:`item_agreement` (its ``agreement`` column).

    Returns
    -------
    ItemAgreementSummary
        Over the items with a defined agreement (two or more judgements).

    Notes
    -----
    The mean is Fleiss's (1971) :math:`\\bar P = \\frac{1}{n'} \\sum_i p_i` over the
    :math:`n'` items with :math:`r_i \\ge 2`; the full share is the fraction of those
    items with :math:`p_i = 1`.

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin* 76(5), 378-382 (:math:`P_i` and their mean
    :math:`\\bar P`, the observed agreement of kappa).
    """
    values = items["agreement"].dropna()
    if values.empty:
        return ItemAgreementSummary(0, float("nan"), float("nan"))
    return ItemAgreementSummary(
        len(values), float(values.mean()), float((values >= 1 - 1e-12).mean())
    )


def agreement_levels(ann: Annotations | pd.DataFrame) -> pd.DataFrame:
    """Items by agreement level, as table 3 of Bhowmick, Mitra & Basu (2008).

    Parameters
    ----------
    ann : Annotations or DataFrame
        The judgements.

    Returns
    -------
    DataFrame
        One row per (judgements, top_votes) combination: ``level`` ("3 of 4 agree"),
        ``judgements``, ``top_votes``, ``items`` (how many items had ``top_votes`` of their
        ``judgements`` judgements on the same label) and ``share`` of all items.

    References
    ----------
    Bhowmick, P. K., Mitra, P., & Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. *Proceedings of the
    Workshop on Human Judgements in Computational Linguistics* (COLING 2008), table 3.
    """
    items = item_agreement(ann)
    table = (
        items.groupby(["judgements", "top_votes"])
        .size()
        .rename("items")
        .reset_index()
        .sort_values(["judgements", "top_votes"], ascending=[True, False], ignore_index=True)
    )
    total = max(int(table["items"].sum()), 1)
    table["share"] = table["items"] / total
    table["level"] = [
        f"{t} of {j} agree" for j, t in zip(table["judgements"], table["top_votes"], strict=True)
    ]
    return table[["level", "judgements", "top_votes", "items", "share"]]
