"""Where do the annotators agree, category by category?

:func:`per_category`: for every category, one against the rest, the percent agreement
(DKPro's ``PercentageAgreement.calculateCategoryAgreement``), the specific agreement,
Fleiss' kappa and Krippendorff's alpha (single- and multi-label data), with bootstrap
intervals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analytics._core.bootstrap import (
    ItemStatistic,
    bootstrap_replicates,
    check_resampling,
)
from analytics._core.budget import check_budget, estimate_bytes
from analytics.agreement.chance import beyond_chance, chance_from_shares
from analytics.agreement.prepared import NO_PAIRS, coders, prepare
from analytics.data import Annotations

__all__ = ["per_category"]


# ---------------------------------------------------------------------- per category
def per_category(
    ann: Annotations | pd.DataFrame,
    confidence: float = 0.95,
    n_boot: int = 1000,
    seed: int | None = 0,
) -> pd.DataFrame:
    """One-vs-rest agreement per category: percent, specific, Fleiss' kappa_j and alpha_j.

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
        observed_agreement, percent_agreement, specific_agreement, fleiss_kappa,
        kappa_low, kappa_high, alpha, alpha_low, alpha_high, note``. ``judgements`` and
        ``prevalence`` count every judgement; ``items_used`` is the number of items with
        two or more judgements, the items every agreement column uses.
        ``observed_agreement`` is kappa's one-vs-rest :math:`p_{a,j}` (a mean over
        items), ``percent_agreement`` the one-vs-rest share of agreeing pairs of
        judgements (pooled over items, as :func:`~analytics.agreement.percent_agreement`;
        the two are equal when every item has the same number of judgements),
        ``specific_agreement`` the chance that a second judgement of an item is "j" when
        one is (NaN when nobody said "j" on those items). A category nobody (or
        everybody) used on those items has NaN kappa and alpha and a ``note`` saying so.

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

    over the :math:`n` judgements of pairable items, :math:`n_j` of them "j". Percent
    and specific agreement, over the same items:

    .. math:: PA_j = \\frac{\\sum_i r_{ij}(r_{ij} - 1) + (r_i - r_{ij})(r_i - r_{ij} - 1)}
                            {\\sum_i r_i (r_i - 1)},\\qquad
              SA_j = \\frac{\\sum_i r_{ij}(r_{ij} - 1)}{\\sum_i r_{ij} (r_i - 1)}

    :math:`PA_j` is DKPro Agreement's ``PercentageAgreement.calculateCategoryAgreement``
    with complete data; :math:`SA_j` is the proportion of specific agreement (with two
    annotators, :math:`2a / (2a + b + c)`: positive agreement for "j").

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin* 76(5), 378-382 (agreement on a single category).
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed.
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School
    for Communication, University of Pennsylvania.
    Cicchetti, D. V., & Feinstein, A. R. (1990). High agreement but low kappa: II.
    Resolving the paradoxes. *Journal of Clinical Epidemiology* 43(6), 551-558 (positive
    and negative specific agreement).
    Meyer, C. M., Mieskes, M., Stab, C., & Gurevych, I. (2014). DKPro Agreement: an
    open-source Java library for measuring inter-rater agreement. *Proceedings of COLING
    2014: System Demonstrations*, 105-109 (``calculateCategoryAgreement``).

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
    percent, specific = _category_percent_agreement(counts, n_i)
    prevalence = np.divide(judged, n_i.sum(), out=np.full(len(judged), np.nan), where=n_i.sum() > 0)
    return pd.DataFrame(
        {
            "category": list(ann.categories),
            "judgements": judged.astype(np.int64),
            "items_used": np.full(q, int(pairable.sum()), dtype=np.int64),
            "prevalence": prevalence,
            "observed_agreement": observed,
            "percent_agreement": percent,
            "specific_agreement": specific,
            "fleiss_kappa": kappa,
            "kappa_low": lo_k,
            "kappa_high": hi_k,
            "alpha": alpha,
            "alpha_low": lo_a,
            "alpha_high": hi_a,
            "note": _per_category_notes(counts, n_i),
        }
    )


def _category_percent_agreement(
    counts: np.ndarray, n_i: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per category: pooled one-vs-rest percent agreement, and specific agreement."""
    two = (n_i >= 2).astype(float)[:, None]
    rest = n_i[:, None] - counts
    agree = (two * (counts * (counts - 1) + rest * (rest - 1))).sum(axis=0)
    pairs = float((two[:, 0] * n_i * (n_i - 1)).sum())
    same = (two * counts * (counts - 1)).sum(axis=0)
    with_j = (two * counts * (n_i[:, None] - 1)).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        percent = agree / pairs if pairs > 0 else np.full(counts.shape[1], np.nan)
        specific = np.where(with_j > 0, same / with_j, np.nan)
    return percent, specific


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
            pe = chance_from_shares("fleiss_kappa", np.stack([pi, 1 - pi], -1).reshape(-1, 2))
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
