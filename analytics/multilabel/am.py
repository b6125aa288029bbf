"""A_m, the multi-label agreement coefficient of Bhowmick, Mitra & Basu (2008), equations 1-8.

Import the public names from :mod:`analytics.multilabel`, the family's public face.

The computation (one Hamming distance per item-pair unit, one sparse product over the
distinct label sets) is in :mod:`analytics.multilabel.engine`; this module states the
results and why a value is undefined.

Missing judgements (an extension; the paper's three annotators judged every item): every
quantity is computed per annotator pair over the items *both* judged (I_xy of them),
exactly as equations 4-8 do for complete data. The overall P_o and P_e are the averages of
the pairs' values weighted by I_xy, i.e. P_o is the mean agreement over all item-pair units.
With complete data every I_xy = I and this is equations 4 and 8 exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analytics._core.bootstrap import ItemStatistic
from analytics._core.errors import AnnotationDataError
from analytics.data import Annotations, as_annotations
from analytics.multilabel.engine import AmEngine, check_combinations

__all__ = [
    "AmResult",
    "am_agreement",
    "am_agreement_unclubbed",
    "am_statistic",
    "pairwise_am",
]


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
        Categories declared (the empty set included as a judgement, not a category).
    reason : str
        Empty when the coefficient is defined.
    categories : tuple of str
        The categories' names, in the data's order (for examples in words, e.g.
        :func:`~analytics.multilabel.am_summary`); not compared in ``==``.

    References
    ----------
    Bhowmick, P. K., Mitra, P., & Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. Proceedings of the
    COLING workshop on Human Judgements in Computational Linguistics, 58-65 (eq. 1, 4, 8).
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
    categories: tuple[str, ...] = field(default=(), compare=False)

    def to_frame(self) -> pd.DataFrame:
        """One row per quantity (like the paper's table 1): columns ``measure``, ``value``."""
        return pd.DataFrame(
            {
                "measure": ["Observed agreement (P_o)", "Chance agreement (P_e)", "A_m"],
                "value": [self.p_o, self.p_e, self.a_m],
            }
        )


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


def _chance_one_reason(engine: AmEngine, ann: Annotations, p_e: float) -> str:
    """The reason for A_m = NaN when P_e = 1 (empty when P_e < 1)."""
    if p_e < 1.0:
        return ""
    if engine.combinations == "clubbed":
        four = AmEngine(ann, "four")
        _, p_e4, a_m4 = (float(v[0]) for v in four.overall(np.ones((1, engine.jp.n_items))))
        if p_e4 < 1.0:
            jp = engine.jp
            used = np.concatenate([jp.unit_x, jp.unit_y])
            one_each = bool((jp.table[used].sum(axis=1) == 1).all())
            return _clubbed_reason(a_m4, one_each)
    return _SAME_SETS


def _pair_notes(engine: AmEngine, ann: Annotations, pe: np.ndarray) -> np.ndarray:
    """Per annotator pair: why A_m is NaN (P_e = 1), or ""."""
    note = np.full(len(pe), "", dtype=object)
    one = ~(pe < 1.0)
    note[one] = "P_e = 1: both gave one and the same label set to every shared item"
    if engine.combinations == "clubbed" and one.any():
        jp = engine.jp
        obs4, n4, pe4 = (v[0] for v in AmEngine(ann, "four").parts(np.ones((1, jp.n_items))))
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
    ann : Annotations or DataFrame
        Annotations (multi-label, or single-label as the one-category-per-item case), or a
        long DataFrame.
    combinations : {"clubbed", "four"}, default "clubbed"
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
    COLING workshop on Human Judgements in Computational Linguistics, 58-65 (section 3,
    eq. 1-8; table 1).

    Examples
    --------
    Two annotators, three categories; on s1 the sets differ on ``fear`` only, so they agree
    on the one category pair without fear, <anger, joy>, of the three:

    >>> import pandas as pd
    >>> df = pd.DataFrame({"item": ["s1", "s1", "s2", "s2"], "annotator": ["a", "b"] * 2,
    ...                    "label": ["anger;fear", "anger", "joy", "joy"]})
    >>> res = am_agreement(df.assign(label=df["label"].str.split(";").map(set)))
    >>> round(res.p_o, 4), res.n_units
    (0.6667, 2)
    """
    ann = as_annotations(ann)
    combos = check_combinations(combinations)
    engine = AmEngine(ann, combos)
    jp = engine.jp
    counts = dict(
        combinations=combos,
        n_items=int((jp.judges_per_item >= 2).sum()),
        n_units=jp.n_units,
        n_annotator_pairs=jp.n_pairs,
        n_categories=ann.n_categories,
        categories=tuple(str(c) for c in ann.categories),
    )
    if engine.reason:
        return AmResult(np.nan, np.nan, np.nan, reason=engine.reason, **counts)
    p_o, p_e, a_m = (float(v[0]) for v in engine.overall(np.ones((1, jp.n_items))))
    return AmResult(p_o, p_e, a_m, reason=_chance_one_reason(engine, ann, p_e), **counts)


def am_agreement_unclubbed(ann: Annotations | pd.DataFrame) -> AmResult:
    r"""A_m with the four assignment combinations [0 0], [0 1], [1 0], [1 1] kept apart.

    Identical to :func:`am_agreement` except that equation 7 sums over four combinations
    instead of the paper's three, so that chance agreement counts only the combinations
    that P_o counts as agreement. Never lower than the paper's A_m when P_o < 1 (its P_e is
    never higher).

    Parameters
    ----------
    ann : Annotations or DataFrame
        As for :func:`am_agreement`.

    Returns
    -------
    AmResult
        With ``combinations == "four"``.

    Notes
    -----
    Equation 7 becomes :math:`\hat P(p) = \sum_{g \in \{00, 01, 10, 11\}} \hat P(p_g)`;
    every other equation is unchanged.

    References
    ----------
    Bhowmick, P. K., Mitra, P., & Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. COLING workshop on
    Human Judgements in Computational Linguistics, 58-65 (eq. 7, here with four
    combinations instead of three).
    """
    return am_agreement(ann, combinations="four")


def pairwise_am(ann: Annotations | pd.DataFrame, combinations: str = "clubbed") -> pd.DataFrame:
    r"""P_o, P_e and A_m for every pair of annotators (Bhowmick et al. 2008, table 2).

    Each pair is compared over the items both judged, with equations 1-8 restricted to
    U = 2. Only pairs sharing at least one item are listed. With fewer than two categories
    the pairs are listed with NaN and the reason in ``note`` (and in ``attrs["reason"]``,
    which also says why a table is empty).

    Parameters
    ----------
    ann : Annotations or DataFrame
        As for :func:`am_agreement`.
    combinations : {"clubbed", "four"}, default "clubbed"
        As for :func:`am_agreement`.

    Returns
    -------
    DataFrame
        Columns ``annotator_a``, ``annotator_b``, ``n_items``, ``p_o``, ``p_e``, ``a_m``,
        ``note`` (why a value is NaN).

    Notes
    -----
    For annotators x and y sharing the items :math:`I_{xy}`,
    :math:`P_o^{xy} = \frac{1}{|I_{xy}|\binom{C}{2}} \sum_{i \in I_{xy}} \sum_p n_{ip}` and
    :math:`P_e^{xy} = \frac{1}{\binom{C}{2}} \sum_p \sum_{g \in G}
    \hat P(p_g | x) \hat P(p_g | y)` with the shares of equation 5 taken over
    :math:`I_{xy}`; :math:`A_m^{xy} = (P_o^{xy} - P_e^{xy}) / (1 - P_e^{xy})`.

    References
    ----------
    Bhowmick, P. K., Mitra, P., & Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. COLING workshop on
    Human Judgements in Computational Linguistics, 58-65 (eq. 1-8 with U = 2; table 2).
    """
    ann = as_annotations(ann)
    engine = AmEngine(ann, check_combinations(combinations))
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


def am_statistic(
    ann: Annotations | pd.DataFrame, combinations: str = "clubbed"
) -> tuple[ItemStatistic, int]:
    """A_m as a function of sums over the items judged at least twice, for resampling.

    Parameters
    ----------
    ann : Annotations or DataFrame
        As for :func:`am_agreement`.
    combinations : {"clubbed", "four"}, default "clubbed"
        As for :func:`am_agreement`.

    Returns
    -------
    statistic : ItemStatistic
        One row per item judged at least twice, in item order; ``statistic.value()`` is
        :func:`am_agreement`'s A_m and any weighting of the rows (a bootstrap replicate)
        gives the A_m of the reweighted items (:mod:`analytics._core.bootstrap`).
    n_items : int
        Its number of rows.

    Raises
    ------
    AnnotationDataError
        When A_m is undefined for the whole data set (fewer than two categories, or no
        item judged by two annotators): there is nothing to resample.
    """
    engine = AmEngine(as_annotations(ann), check_combinations(combinations))
    if engine.reason:
        raise AnnotationDataError(f"A_m is undefined: {engine.reason}")
    eligible = np.flatnonzero(engine.jp.judges_per_item >= 2)
    stats = engine.statistic.stats[eligible]
    return ItemStatistic(stats, engine.statistic.finish), len(eligible)
