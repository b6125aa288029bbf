"""A_m, the multi-label agreement coefficient of Bhowmick, Mitra & Basu (2008), equations 1-8.

Public names are re-exported by :mod:`analytics.multilabel.tables`; import them from there.

Two annotators agree on a *category pair* <C1, C2> for an item when they give the same
0/1 value to C1 and the same 0/1 value to C2 (section 3.1). If they differ on d of the C
categories they agree on exactly ``comb(C - d, 2)`` of the ``comb(C, 2)`` category pairs,
so observed agreement needs one Hamming distance per item-pair unit, not a loop over
category pairs. Chance agreement needs, for each annotator, how often each category is
used (``n1``) and how often each two categories are used together (``n11``); both come from
one sparse product over the distinct label sets (see :func:`_pair_grams`).

Missing judgements (an extension; the paper's three annotators judged every item): every
quantity is computed per annotator pair over the items *both* judged (I_xy of them),
exactly as equations 4-8 do for complete data. The overall P_o and P_e are the averages of
the pairs' values weighted by I_xy, i.e. P_o is the mean agreement over all item-pair units.
With complete data every I_xy = I and this is equations 4 and 8 exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd
from scipy import sparse

from analytics._core.errors import AnnotationDataError
from analytics.data import Annotations, as_annotations
from analytics.multilabel.pairs import JudgementPairs, judgement_pairs, ragged_positions

__all__ = [
    "AmInterval",
    "AmResult",
    "am_agreement",
    "am_agreement_unclubbed",
    "am_bootstrap",
    "pairwise_am",
    "undefined_reason",
    "unit_agreement",
]

Combinations = Literal["clubbed", "four"]
_CELL_BUDGET = 4_000_000  # floats per chunk of bootstrap replicates


@dataclass(frozen=True)
class AmResult:
    """A_m with its parts (Bhowmick et al. 2008, equations 1, 4 and 8).

    Attributes
    ----------
    p_o, p_e, a_m : float
        Observed agreement (eq. 4), chance agreement (eq. 8), ``(p_o - p_e) / (1 - p_e)``
        (eq. 1). NaN when undefined; then ``reason`` says why.
    combinations : {"clubbed", "four"}
        "clubbed": the paper's three assignment combinations [0 0], [0 1]=[1 0], [1 1];
        "four": [0 1] and [1 0] kept apart (:func:`am_agreement_unclubbed`).
    n_items : int
        Items judged by at least two annotators (the only ones that count).
    n_units : int
        Item-pair units: (item, two annotators who both judged it).
    n_annotator_pairs : int
        Annotator pairs that share at least one item.
    n_categories : int
    reason : str
        Empty when the coefficient is defined.
    """

    p_o: float
    p_e: float
    a_m: float
    combinations: str
    n_items: int
    n_units: int
    n_annotator_pairs: int
    n_categories: int
    reason: str = ""

    def to_frame(self) -> pd.DataFrame:
        """One row per quantity (like the paper's table 1): columns ``measure``, ``value``."""
        return pd.DataFrame(
            {
                "measure": ["Observed agreement (P_o)", "Chance agreement (P_e)", "A_m"],
                "value": [self.p_o, self.p_e, self.a_m],
            }
        )


@dataclass(frozen=True)
class AmInterval:
    """A percentile bootstrap interval for A_m (items resampled with replacement).

    Attributes
    ----------
    a_m : float
        The point estimate on the data as given.
    low, high : float
        The ``level`` percentile interval of the replicates (NaN if none was defined).
    level : float
    n_boot : int
        Replicates drawn.
    n_valid : int
        Replicates where A_m was defined (P_e < 1).
    replicates : ndarray
        A_m of every replicate (NaN where undefined).
    reason : str
        Empty when the interval is defined.
    """

    a_m: float
    low: float
    high: float
    level: float
    n_boot: int
    n_valid: int
    replicates: np.ndarray = field(repr=False)
    combinations: str = "clubbed"
    reason: str = ""


def unit_agreement(jp: JudgementPairs) -> np.ndarray:
    r"""Share of category pairs two annotators agree on, for every item-pair unit.

    :math:`\binom{C-d}{2} / \binom{C}{2}` where d is the number of categories on which the two
    label sets differ (Bhowmick et al. 2008, section 3.1 and eq. 2-3 per annotator pair).
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


def _check_combinations(combinations: str) -> Combinations:
    if combinations not in ("clubbed", "four"):
        raise AnnotationDataError(
            f"unknown combinations {combinations!r}.",
            hint="Use 'clubbed' (the paper's three combinations) or 'four'.",
        )
    return combinations  # type: ignore[return-value]


def undefined_reason(n_categories: int, n_units: int, what: str) -> str:
    """Why a category-pair measure (A_m, P_i) is undefined for a whole data set, or "".

    It needs two categories (a category pair) and one item judged by two annotators.
    """
    if n_categories < 2:
        return (
            f"{what} compares pairs of categories, so it needs at least two categories "
            f"(this data set has {n_categories})."
        )
    if n_units == 0:
        return "no item was judged by two or more annotators, so nobody can agree."
    return ""


class _AmEngine:
    """Everything A_m needs, computed once; evaluates A_m for any item weights."""

    def __init__(self, ann: Annotations, combinations: Combinations) -> None:
        self.combinations = combinations
        self.jp = judgement_pairs(ann)
        jp = self.jp
        self.reason = undefined_reason(ann.n_categories, jp.n_units, "A_m")
        if self.reason:
            return
        a = unit_agreement(jp)
        shape = (jp.n_items, jp.n_pairs)
        self.obs = sparse.csr_matrix((a, (jp.unit_item, jp.unit_pair)), shape=shape)
        self.cnt = sparse.csr_matrix(
            (np.ones(jp.n_units), (jp.unit_item, jp.unit_pair)), shape=shape
        )
        self.m, self.z = _pair_grams(jp)

    def parts(self, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(observed agreement sum, shared items, P_e) per annotator pair, each (B, P)."""
        jp = self.jp
        w = sparse.csr_matrix(weights)
        obs = np.asarray((w @ self.obs).todense())
        n = np.asarray((w @ self.cnt).todense())
        counts = (w @ self.m) @ self.z
        c = jp.n_categories
        grams = np.asarray(counts.todense()).reshape(len(weights), jp.n_pairs, 2, c, c)
        return obs, n, _chance_per_pair(grams, n, self.combinations)

    def overall(self, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(P_o, P_e, A_m), each (B,), pooling the annotator pairs by shared items."""
        obs, n, pe_pair = self.parts(weights)
        total = n.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            p_o = obs.sum(axis=1) / total
            p_e = np.where(n > 0, pe_pair * n, 0.0).sum(axis=1) / total
            a_m = np.where(p_e < 1.0, (p_o - p_e) / (1.0 - p_e), np.nan)
        return p_o, p_e, a_m


_SAME_SETS = (
    "chance agreement P_e is 1: in every pair of annotators, both gave one and the same "
    "label set to every item they share, so agreement cannot be told apart from chance."
)


def _clubbed_reason(a_m_four: float, one_label_each: bool) -> str:
    """Why the paper's P_e is 1 when the four-combination P_e is not.

    Clubbed P_e = 1 needs both annotators of every pair to give every category pair one
    and the same clubbed combination on every shared item. With three or more categories
    that forces every category to be constant, i.e. the four-combination P_e is 1 too; so
    the clubbing alone is to blame only with two categories, where [1 0] and [0 1] (one
    category each, in any mix) are one combination.
    """
    which = (
        "every judgement compared holds exactly one of the two categories"
        if one_label_each
        else "in every pair of annotators, both gave exactly one of the two categories on "
        "every shared item or one and the same label set throughout"
    )
    return (
        "chance agreement P_e is 1 because of the paper's clubbing of [1 0] and [0 1]: with "
        f"two categories, {which}, and [1 0] and [0 1] count as one combination in "
        "equation 7, so chance agreement is certain whatever the annotators did. Keeping the "
        "four combinations apart (am_agreement_unclubbed, or combinations='four') gives "
        f"A_m = {a_m_four:.3f}."
    )


def _chance_one_reason(engine: _AmEngine, ann: Annotations, p_e: float) -> str:
    """The reason for A_m = NaN when P_e = 1 (empty when P_e < 1)."""
    if p_e < 1.0:
        return ""
    if engine.combinations == "clubbed":
        four = _AmEngine(ann, "four")
        _, p_e4, a_m4 = (float(v[0]) for v in four.overall(np.ones((1, engine.jp.n_items))))
        if p_e4 < 1.0:
            jp = engine.jp
            used = np.concatenate([jp.unit_x, jp.unit_y])
            one_each = bool((jp.table[used].sum(axis=1) == 1).all())
            return _clubbed_reason(a_m4, one_each)
    return _SAME_SETS


def _pair_notes(engine: _AmEngine, ann: Annotations, pe: np.ndarray) -> np.ndarray:
    """Per annotator pair: why A_m is NaN (P_e = 1), or ""."""
    note = np.full(len(pe), "", dtype=object)
    one = ~(pe < 1.0)
    note[one] = "P_e = 1: both gave one and the same label set to every shared item"
    if engine.combinations == "clubbed" and one.any():
        jp = engine.jp
        obs4, n4, pe4 = (v[0] for v in _AmEngine(ann, "four").parts(np.ones((1, jp.n_items))))
        clubbed = one & (pe4 < 1.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            a_m4 = (obs4 / n4 - pe4) / (1.0 - pe4)
        note[clubbed] = [
            "P_e = 1 only because [1 0] and [0 1] are clubbed: both gave exactly one of the "
            f"two categories to every shared item (four combinations: A_m = {v:.3f})"
            for v in a_m4[clubbed]
        ]
    return note


def am_agreement(ann: Annotations | pd.DataFrame, combinations: str = "clubbed") -> AmResult:
    r"""A_m of Bhowmick, Mitra & Basu (2008), equations 1-8, exactly as written.

    .. math::

        A_m = \frac{P_o - P_e}{1 - P_e}, \qquad
        P_o = \frac{1}{I\binom{C}{2}\binom{U}{2}} \sum_i \sum_{p \in S} n_{ip}, \qquad
        P_e = \frac{1}{\binom{C}{2}} \sum_{p \in S} \sum_{g \in G}
              \frac{1}{\binom{U}{2}} \sum_{(x, y) \in W} \hat P(p_g | x) \hat P(p_g | y)

    where S is the set of category pairs, :math:`n_{ip}` the number of annotator pairs that
    agree on both categories of pair p for item i (eq. 2-4), :math:`\hat P(p_g | u)` the
    share of items annotator u gave assignment combination g on category pair p (eq. 5),
    and G = {[0 0], [0 1], [1 1]}: the paper clubs [0 1] and [1 0] into one combination.

    Consequence of the clubbing: an annotator who marks <anger, disgust> as [1 0] and one
    who marks it [0 1] *disagree* in P_o (eq. 2 needs both values equal) but *agree* in
    P_e, which therefore exceeds the chance probability of agreeing by
    :math:`\sum_{x,y}[\hat P(10|x)\hat P(01|y) + \hat P(01|x)\hat P(10|y)]` averaged over
    pairs. A_m is pulled down (conservative): annotators labelling independently of each
    other score clearly below 0 (about -0.16 in the tests) instead of 0. Use
    ``combinations="four"`` or :func:`am_agreement_unclubbed` to keep the four
    combinations apart, which makes P_e the exact chance probability of the agreement
    P_o counts.

    Parameters
    ----------
    ann
        Annotations (multi-label, or single-label as the one-category-per-item case), or a
        long DataFrame.
    combinations
        ``"clubbed"`` (the paper) or ``"four"``.

    Returns
    -------
    AmResult
        ``p_o``, ``p_e``, ``a_m`` and counts; NaN with a ``reason`` for fewer than two
        categories, no item judged twice, or P_e = 1.

    Notes
    -----
    Missing judgements: every annotator pair is compared over the items both judged, and
    the pairs are pooled weighted by how many items they share (see the module docstring).
    With complete data this is the paper's formula exactly. The paper's table 1
    (P_o = 0.878, P_e = 0.534) does not equal the mean of its table 2 (0.870, 0.532), which
    it must for complete data under equations 4 and 8; its A_m (0.738) does follow from its
    own P_o and P_e, and the conclusion's "0.72" is the mean of the pairwise A_m values.

    References
    ----------
    Bhowmick, P. K., Mitra, P., & Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. Proceedings of the
    COLING workshop on Human Judgements in Computational Linguistics, 58-65.
    """
    ann = as_annotations(ann)
    combos = _check_combinations(combinations)
    engine = _AmEngine(ann, combos)
    jp = engine.jp
    counts = dict(
        combinations=combos,
        n_items=int((jp.judges_per_item >= 2).sum()),
        n_units=jp.n_units,
        n_annotator_pairs=jp.n_pairs,
        n_categories=ann.n_categories,
    )
    if engine.reason:
        return AmResult(np.nan, np.nan, np.nan, reason=engine.reason, **counts)
    p_o, p_e, a_m = (float(v[0]) for v in engine.overall(np.ones((1, jp.n_items))))
    return AmResult(p_o, p_e, a_m, reason=_chance_one_reason(engine, ann, p_e), **counts)


def am_agreement_unclubbed(ann: Annotations | pd.DataFrame) -> AmResult:
    """A_m with the four assignment combinations [0 0], [0 1], [1 0], [1 1] kept apart.

    Identical to :func:`am_agreement` except that equation 7 sums over four combinations
    instead of the paper's three, so that chance agreement counts only the combinations
    that P_o counts as agreement. Never lower than the paper's A_m when P_o < 1 (its P_e is
    never higher).
    """
    return am_agreement(ann, combinations="four")


def pairwise_am(ann: Annotations | pd.DataFrame, combinations: str = "clubbed") -> pd.DataFrame:
    """P_o, P_e and A_m for every pair of annotators (Bhowmick et al. 2008, table 2).

    Each pair is compared over the items both judged, with equations 1-8 restricted to
    U = 2. Only pairs sharing at least one item are listed. With fewer than two categories
    the pairs are listed with NaN and the reason in ``note`` (and in ``attrs["reason"]``,
    which also says why a table is empty).

    Returns
    -------
    DataFrame
        Columns ``annotator_a``, ``annotator_b``, ``n_items``, ``p_o``, ``p_e``, ``a_m``,
        ``note`` (why a value is NaN).
    """
    ann = as_annotations(ann)
    engine = _AmEngine(ann, _check_combinations(combinations))
    jp = engine.jp
    if engine.reason:  # fewer than two categories (pairs still listed) or no shared item
        n = np.bincount(jp.unit_pair, minlength=jp.n_pairs).astype(float)
        nan = np.full(jp.n_pairs, np.nan)
        p_o = pe = a_m = nan
        note = np.full(jp.n_pairs, engine.reason, dtype=object)
    else:
        obs, n, pe = (v[0] for v in engine.parts(np.ones((1, jp.n_items))))
        with np.errstate(invalid="ignore", divide="ignore"):
            p_o = obs / n
            a_m = np.where(pe < 1.0, (p_o - pe) / (1.0 - pe), np.nan)
        note = _pair_notes(engine, ann, pe)
    names = np.asarray(ann.annotators, dtype=object)
    frame = pd.DataFrame(
        {
            "annotator_a": names[jp.pairs[:, 0]],
            "annotator_b": names[jp.pairs[:, 1]],
            "n_items": np.rint(n).astype(np.int64),
            "p_o": p_o,
            "p_e": pe,
            "a_m": a_m,
            "note": note,
        },
    )
    frame.attrs["reason"] = engine.reason
    return frame


def am_bootstrap(
    ann: Annotations | pd.DataFrame,
    n_boot: int = 1000,
    level: float = 0.95,
    seed: int | None = 0,
    combinations: str = "clubbed",
) -> AmInterval:
    """Percentile bootstrap interval for A_m, resampling items with replacement.

    Each replicate draws as many items as were judged at least twice, with replacement,
    and recomputes P_o, P_e and A_m from the resampled items (P_e included: the
    annotators' proportions are re-estimated in every replicate). All replicates of a chunk
    are evaluated with two sparse matrix products; nothing loops over items.

    Parameters
    ----------
    n_boot
        Number of replicates.
    level
        Coverage of the interval, e.g. 0.95.
    seed
        Seed for numpy's random generator (None: fresh entropy).
    """
    ann = as_annotations(ann)
    combos = _check_combinations(combinations)
    if not 0 < level < 1:
        raise AnnotationDataError(f"level must lie between 0 and 1, not {level}.")
    if n_boot < 1:
        raise AnnotationDataError(f"n_boot must be at least 1, not {n_boot}.")
    point = am_agreement(ann, combos)
    empty = np.full(0, np.nan)
    if point.reason and not np.isfinite(point.p_e):
        return AmInterval(point.a_m, np.nan, np.nan, level, 0, 0, empty, combos, point.reason)
    engine = _AmEngine(ann, combos)
    jp = engine.jp
    eligible = np.flatnonzero(jp.judges_per_item >= 2)
    rng = np.random.default_rng(seed)
    width = max(jp.n_items, 2 * jp.n_pairs * jp.n_categories**2)
    chunk = int(max(1, min(n_boot, _CELL_BUDGET // width)))
    out = []
    for start in range(0, n_boot, chunk):  # chunks of replicates, never items
        b = min(chunk, n_boot - start)
        draws = rng.multinomial(len(eligible), np.full(len(eligible), 1.0 / len(eligible)), size=b)
        weights = np.zeros((b, jp.n_items))
        weights[:, eligible] = draws
        out.append(engine.overall(weights)[2])
    reps = np.concatenate(out)
    valid = reps[np.isfinite(reps)]
    if len(valid) == 0:
        why = "A_m was undefined in every bootstrap replicate (P_e = 1)."
        return AmInterval(
            point.a_m,
            np.nan,
            np.nan,
            level,
            n_boot,
            0,
            reps,
            combos,
            f"{why} On the data as given, {point.reason}" if point.reason else why,
        )
    tail = (1.0 - level) / 2.0
    low, high = np.quantile(valid, [tail, 1.0 - tail])
    return AmInterval(point.a_m, float(low), float(high), level, n_boot, len(valid), reps, combos)
