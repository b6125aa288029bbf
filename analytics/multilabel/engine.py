"""The machinery under A_m: per-item sums from which P_o, P_e and A_m follow.

Two annotators agree on a *category pair* <C1, C2> for an item when they give the same
0/1 value to C1 and the same 0/1 value to C2 (Bhowmick, Mitra & Basu 2008, section 3.1).
If they differ on d of the C categories they agree on exactly ``comb(C - d, 2)`` of the
``comb(C, 2)`` category pairs, so observed agreement needs one Hamming distance per
item-pair unit, not a loop over category pairs. Chance agreement needs, for each
annotator, how often each category is used (``n1``) and how often each two categories are
used together (``n11``); both come from one sparse product over the distinct label sets
(see :func:`_pair_grams`). :class:`AmEngine` evaluates all of it for any weighting of the
items: ones for the data as given, multinomial counts for a bootstrap replicate.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from scipy import sparse

from analytics._core.bootstrap import ItemStatistic
from analytics._core.validation import check_choice
from analytics.data import Annotations
from analytics.multilabel.pairs import JudgementPairs, judgement_pairs, ragged_positions

__all__ = ["AmEngine", "Combinations", "check_combinations", "undefined_reason", "unit_agreement"]

Combinations = Literal["clubbed", "four"]
_CELL_BUDGET = 4_000_000  # co-occurrence counts (floats) built at once


def unit_agreement(jp: JudgementPairs) -> np.ndarray:
    r"""Share of category pairs two annotators agree on, for every item-pair unit.

    Parameters
    ----------
    jp : JudgementPairs
        The item-pair units of a data set (:func:`~analytics.multilabel.pairs.judgement_pairs`).

    Returns
    -------
    ndarray of float, shape (n_units,)
        The share, NaN-free; divides by zero (NaN) when there are fewer than two categories.

    Notes
    -----
    Two annotators agree on category pair <c1, c2> when they give c1 the same 0/1 and c2 the
    same 0/1. If their sets differ on d of the C categories they agree on exactly the pairs
    drawn from the C - d others:

    .. math:: \frac{\binom{C-d}{2}}{\binom{C}{2}} = \frac{(C-d)(C-d-1)}{C(C-1)}

    which is :math:`n_{ip}` of equation 2 summed over category pairs and divided by their
    number, for one annotator pair.

    References
    ----------
    Bhowmick, P. K., Mitra, P., & Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. COLING workshop on
    Human Judgements in Computational Linguistics, 58-65 (section 3.1, eq. 2-3).
    """
    c = jp.n_categories
    d = (jp.x_rows ^ jp.y_rows).sum(axis=1)
    agree = c - d
    return agree * (agree - 1) / (c * (c - 1))


def _pair_grams(jp: JudgementPairs) -> tuple[sparse.csr_matrix, sparse.csr_matrix]:
    """Sparse maps from item weights to per annotator pair co-occurrence counts.

    Returns ``(M, Z)``: ``M`` (items x K) counts, for every distinct (annotator pair, side,
    label set) combination k, the units of each item that fall in it; ``Z`` (K x 2 P C^2)
    holds the outer product of combination k's label set in the block of its pair and side.
    For item weights ``w`` (one bootstrap replicate, or ones), ``(w @ M) @ Z`` reshaped to
    (P, 2, C, C) is, for both annotators of every pair, ``n11[c1, c2]``: the (weighted)
    number of shared items given both c1 and c2 (``n1`` on the diagonal). Building on the
    distinct sets keeps the cost at (units + combinations x set size^2), with no C^2 work
    per unit.
    """
    n_sets = max(len(jp.table), 1)
    c = jp.n_categories
    side_pair = np.concatenate([jp.unit_pair * 2, jp.unit_pair * 2 + 1])
    codes = np.concatenate([jp.unit_x, jp.unit_y])
    items = np.concatenate([jp.unit_item, jp.unit_item])
    combo_key, combo = np.unique(side_pair * n_sets + codes, return_inverse=True)
    combo = combo.reshape(-1)
    m = sparse.csr_matrix((np.ones(len(combo)), (items, combo)), shape=(jp.n_items, len(combo_key)))
    combo_block, combo_set = combo_key // n_sets, combo_key % n_sets
    # (set, c1, c2) for every two categories that a distinct set contains (sorted by set).
    s_idx, c1, c2 = np.nonzero(jp.table[:, :, None] & jp.table[:, None, :])
    per_set = np.bincount(s_idx, minlength=len(jp.table))
    set_start = np.cumsum(per_set) - per_set
    reps = per_set[combo_set]
    which = np.repeat(set_start[combo_set], reps) + ragged_positions(reps)
    rows = np.repeat(np.arange(len(combo_key)), reps)
    cols = np.repeat(combo_block, reps) * c * c + c1[which] * c + c2[which]
    z = sparse.csr_matrix(
        (np.ones(len(rows)), (rows, cols)), shape=(len(combo_key), 2 * jp.n_pairs * c * c)
    )
    return m, z


def _chance_per_pair(grams: np.ndarray, n: np.ndarray, combinations: Combinations) -> np.ndarray:
    """P_e of every annotator pair, equations 5-8 (shape (B, P)).

    ``grams`` (B, P, 2, C, C) are the co-occurrence counts of both annotators of each pair;
    ``n`` (B, P) the shared items. For category pair p = <c1, c2> and annotator u:
    P([1 1]) = n11 / n, P([1 0]) = (n1[c1] - n11) / n, P([0 1]) = (n1[c2] - n11) / n,
    P([0 0]) = 1 - the three (eq. 5). Equation 6 multiplies the two annotators'
    proportions, eq. 7 sums over the combinations G, eq. 8 averages over category pairs.
    """
    c = grams.shape[-1]
    iu, ju = np.triu_indices(c, 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        nn = n[..., None]
        probs = []
        for side in (0, 1):
            g = grams[:, :, side]
            n1 = np.diagonal(g, axis1=-2, axis2=-1)
            g11 = g[..., iu, ju]
            p10 = (n1[..., iu] - g11) / nn
            p01 = (n1[..., ju] - g11) / nn
            p11 = g11 / nn
            p00 = 1.0 - p10 - p01 - p11
            if combinations == "clubbed":
                probs.append((p00, p10 + p01, p11))  # G = {[0 0], [0 1]=[1 0], [1 1]}
            else:
                probs.append((p00, p10, p01, p11))
        agree = sum(px * py for px, py in zip(*probs, strict=True))
        return agree.mean(axis=-1)


def check_combinations(combinations: str) -> Combinations:
    """The ``combinations`` argument of the A_m functions, checked.

    Parameters
    ----------
    combinations : str
        "clubbed" (the paper's three assignment combinations) or "four".

    Returns
    -------
    str
        ``combinations`` itself.

    Raises
    ------
    AnnotationDataError
        For anything else, naming the argument.
    """
    return check_choice(combinations, "combinations", ("clubbed", "four"))  # type: ignore[return-value]


def undefined_reason(n_categories: int, n_units: int, what: str) -> str:
    """Why a category-pair measure (A_m, P_i) is undefined for a whole data set, or "".

    It needs two categories (a category pair) and one item judged by two annotators.

    Parameters
    ----------
    n_categories : int
        Categories of the data set.
    n_units : int
        Item-pair units (an item and two annotators who both judged it).
    what : str
        The measure's name, as the reason should call it ("A_m", "P_i").

    Returns
    -------
    str
        The reason, or "" when the measure is defined.

    Examples
    --------
    >>> undefined_reason(2, 0, "A_m")
    'no item was judged by two or more annotators, so nobody can agree.'
    >>> undefined_reason(3, 10, "A_m")
    ''
    """
    if n_categories < 2:
        return (
            f"{what} compares pairs of categories, so it needs at least two categories "
            f"(this data set has {n_categories})."
        )
    if n_units == 0:
        return "no item was judged by two or more annotators, so nobody can agree."
    return ""


class AmEngine:
    """Everything A_m needs, computed once; evaluates A_m for any item weights.

    ``statistic`` holds, per item, the sums A_m is a function of (an
    :class:`~analytics._core.bootstrap.ItemStatistic`): the agreement and the count of its
    units per annotator pair, and its units per (annotator pair, side, label set)
    combination (``m``). Any weighting of the items (ones for the data as given, multinomial
    counts for a bootstrap replicate) gives P_o, P_e and A_m through :meth:`pooled`.
    """

    def __init__(self, ann: Annotations, combinations: Combinations) -> None:
        self.combinations = combinations
        self.jp = judgement_pairs(ann)
        jp = self.jp
        self.reason = undefined_reason(ann.n_categories, jp.n_units, "A_m")
        if self.reason:
            return
        shape = (jp.n_items, jp.n_pairs)
        obs = sparse.csr_matrix((unit_agreement(jp), (jp.unit_item, jp.unit_pair)), shape=shape)
        cnt = sparse.csr_matrix((np.ones(jp.n_units), (jp.unit_item, jp.unit_pair)), shape=shape)
        self.m, self.z = _pair_grams(jp)
        self.statistic = ItemStatistic(
            sparse.hstack([obs, cnt, self.m], format="csr"), lambda t: self.pooled(t)[2]
        )

    def split(self, totals: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(observed agreement sum, shared items, P_e) per annotator pair, each (B, P).

        ``totals`` (B, 2 P + K) are weighted column sums of ``statistic.stats``. The
        co-occurrence counts (B, P, 2, C, C) are built a few replicates at a time, so that
        no more than ``_CELL_BUDGET`` of them exist at once.
        """
        p, c = self.jp.n_pairs, self.jp.n_categories
        obs, n, combos = totals[:, :p], totals[:, p : 2 * p], totals[:, 2 * p :]
        step = max(1, _CELL_BUDGET // max(self.z.shape[1], 1))
        pe = np.empty((len(totals), p))
        for start in range(0, len(totals), step):  # chunks of replicates, never items
            rows = slice(start, start + step)
            grams = np.asarray((self.z.T @ combos[rows].T).T).reshape(-1, p, 2, c, c)
            pe[rows] = _chance_per_pair(grams, n[rows], self.combinations)
        return obs, n, pe

    def parts(self, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(observed agreement sum, shared items, P_e) per annotator pair for item weights."""
        return self.split(self.statistic.totals(np.asarray(weights, dtype=float)))

    def pooled(self, totals: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(P_o, P_e, A_m), each (B,), pooling the annotator pairs by shared items."""
        obs, n, pe_pair = self.split(totals)
        total = n.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            p_o = obs.sum(axis=1) / total
            p_e = np.where(n > 0, pe_pair * n, 0.0).sum(axis=1) / total
            a_m = np.where(p_e < 1.0, (p_o - p_e) / (1.0 - p_e), np.nan)
        return p_o, p_e, a_m

    def overall(self, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(P_o, P_e, A_m), each (B,), for item weights (B, n_items)."""
        return self.pooled(self.statistic.totals(np.asarray(weights, dtype=float)))
