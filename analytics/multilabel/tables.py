"""Where annotators of label sets disagree: the tables of Bhowmick et al. and set-distance alpha.

From Bhowmick, Mitra & Basu (2008): observed agreement per item (eq. 3) and items by
observed agreement (table 3), disagreement per category and annotator pair (table 4),
confusion between category pairs (table 5). From Poesio & Artstein (2005): Krippendorff's
alpha with set distances (computed by :func:`analytics.agreement.krippendorff_alpha`; this
module puts the four distances side by side, and says how the label sets relate).

Every function takes an :class:`~analytics.data.Annotations` (or a long DataFrame) and
compares only real judgements: an empty set is a judgement ("none of these"), a missing
one is not. See :mod:`analytics.multilabel.pairs`.

>>> import pandas as pd
>>> from analytics import Annotations
>>> df = pd.DataFrame({"item": ["s1", "s1", "s2", "s2"], "annotator": ["a", "b", "a", "b"],
...                    "label": ["anger;fear", "anger", "joy", "joy"]})
>>> ann = Annotations.from_frame(df, kind="multilabel", multilabel_sep=";")
>>> am_item_agreement(ann)["p_i"].round(4).tolist()  # s1 differs on fear: 1 of 3 pairs agree
[0.3333, 1.0]
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError, wrong_type
from analytics._core.formatting import format_number
from analytics.agreement import SET_DISTANCES, krippendorff_alpha
from analytics.data import Annotations, as_annotations
from analytics.multilabel.engine import undefined_reason, unit_agreement
from analytics.multilabel.pairs import judgement_pairs

__all__ = [
    "PAIR_TYPES",
    "PAPER_BINS",
    "am_item_agreement",
    "category_disagreement",
    "category_pair_confusion",
    "items_by_agreement",
    "set_distance_alphas",
    "set_distance_sentence",
    "set_pair_types",
]

PAPER_BINS: tuple[float, ...] = (0.0, 0.2, 0.4, 0.7, 1.0)
"""The observed-agreement bins of Bhowmick et al. (2008), table 3."""


def _pair_index(ann: Annotations, pairs: np.ndarray) -> pd.MultiIndex:
    names = np.asarray(ann.annotators, dtype=object)
    return pd.MultiIndex.from_arrays(
        [names[pairs[:, 0]], names[pairs[:, 1]]], names=["annotator_a", "annotator_b"]
    )


def am_item_agreement(ann: Annotations | pd.DataFrame) -> pd.DataFrame:
    r"""A_m's observed agreement of every item, :math:`P_i` (Bhowmick et al. 2008, eq. 3).

    The per-item term of A_m's P_o: agreement on *category pairs*, not the pairwise
    agreement on whole labels of :func:`analytics.agreement.item_agreement`. NaN for items
    judged by fewer than two annotators, and for every item when there are fewer than two
    categories.

    Parameters
    ----------
    ann : Annotations or DataFrame
        Multi-label annotations, or a long DataFrame.

    Returns
    -------
    DataFrame
        Indexed by item: ``n_annotators``, ``p_i``. ``attrs["reason"]`` says why no item
        has a P_i (fewer than two categories, or no item judged twice), else "".

    Notes
    -----
    .. math:: P_i = \frac{1}{\binom{C}{2}\binom{U_i}{2}} \sum_{p \in S} n_{ip}

    the mean over the :math:`\binom{U_i}{2}` pairs of annotators who judged item i of the
    share of the :math:`\binom{C}{2}` category pairs they agree on (:math:`n_{ip}`, eq. 2,
    counts the annotator pairs giving both categories of p the same 0/1).

    References
    ----------
    Bhowmick, P. K., Mitra, P., & Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. Proceedings of the
    COLING workshop on Human Judgements in Computational Linguistics, 58-65 (eq. 2-3).
    """
    ann = as_annotations(ann)
    jp = judgement_pairs(ann)
    units = np.bincount(jp.unit_item, minlength=ann.n_items)
    if ann.n_categories >= 2:
        agree = jp.per_item(unit_agreement(jp))
    else:
        agree = np.full(ann.n_items, np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_i = np.where(units > 0, agree / np.maximum(units, 1), np.nan)
    frame = pd.DataFrame({"n_annotators": jp.judges_per_item, "p_i": p_i}, index=ann.items)
    frame.index.name = "item"
    frame.attrs["reason"] = undefined_reason(ann.n_categories, jp.n_units, "P_i")
    return frame


def _band_edges(bins: Sequence[float]) -> np.ndarray:
    """The band edges of :func:`items_by_agreement`, checked: finite, increasing, in [0, 1]."""
    hint = f"For example bins={list(PAPER_BINS)}."
    try:
        edges = None if isinstance(bins, (str, bytes)) else np.asarray(bins, dtype=float)
    except (TypeError, ValueError):
        edges = None
    if edges is None or edges.ndim != 1:
        raise wrong_type(bins, "bins as a sequence of numbers (the band edges)", hint=hint)
    shown = edges.tolist()[:10]
    if len(edges) < 2 or not np.isfinite(edges).all() or np.any(np.diff(edges) <= 0):
        raise AnnotationDataError(
            f"bins must be at least two finite, increasing numbers, not {shown}.", hint=hint
        )
    if edges[0] < 0 or edges[-1] > 1:
        raise AnnotationDataError(
            f"bins must lie within [0, 1], the range of the observed agreement P_i; got {shown}.",
            hint=hint,
        )
    return edges


def items_by_agreement(
    ann: Annotations | pd.DataFrame, bins: Sequence[float] = PAPER_BINS
) -> pd.DataFrame:
    r"""How many items fall in each band of observed agreement (Bhowmick et al., table 3).

    Bands are closed on the right, ``lower < P_i <= upper``, as in the paper; the first
    band also takes ``P_i == bins[0]`` (the paper's "0.0 < A_o" would leave an item with no
    agreement at all out of every band). Items judged by fewer than two annotators have no
    P_i and are counted in ``attrs["n_without_agreement"]``.

    Parameters
    ----------
    ann : Annotations or DataFrame
        Multi-label annotations, or a long DataFrame.
    bins : sequence of float, default PAPER_BINS
        Increasing band edges, at least two, finite and within [0, 1] (the range of
        P_i); the paper's are (0, 0.2, 0.4, 0.7, 1).

    Returns
    -------
    DataFrame
        ``band`` (text), ``lower``, ``upper``, ``n_items``, ``share``. When no item has a
        P_i (fewer than two categories, or no item judged by two annotators) every count is
        0, every share NaN, and ``attrs["reason"]`` says why ("" otherwise).

    Notes
    -----
    Band k holds the items with :math:`b_k < P_i \le b_{k+1}` (:math:`P_i`: eq. 3, see
    :func:`am_item_agreement`); ``share`` is its count over the items that have a
    :math:`P_i`.

    Raises
    ------
    ArgumentTypeError
        ``bins`` is not a sequence of numbers.
    AnnotationDataError
        Fewer than two edges, edges that do not increase, or edges that are not finite
        or lie outside [0, 1].

    References
    ----------
    Bhowmick, P. K., Mitra, P., & Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. Proceedings of the
    COLING workshop on Human Judgements in Computational Linguistics, 58-65 (eq. 3, table 3).
    """
    ann = as_annotations(ann)
    edges = _band_edges(bins)
    per_item = am_item_agreement(ann)
    p_i = per_item["p_i"].to_numpy()
    known = p_i[np.isfinite(p_i)]
    # P_i is a ratio of whole numbers computed in floats: 0.4 arrives as 0.4000000000000001
    # and would cross its band's edge; a value within rounding of an edge is that edge
    near = np.isclose(known[:, None], edges[None, :], rtol=0, atol=1e-9)
    known = np.where(near.any(axis=1), edges[near.argmax(axis=1)], known)
    # right-closed bands; the first also includes its lower edge
    slot = np.searchsorted(edges, known, side="left") - 1
    slot[known == edges[0]] = 0
    inside = (slot >= 0) & (slot < len(edges) - 1)
    counts = np.bincount(slot[inside], minlength=len(edges) - 1)
    bands = [
        f"{lo:g} {'≤' if k == 0 else '<'} P_i ≤ {hi:g}"
        for k, (lo, hi) in enumerate(itertools.pairwise(edges))
    ]
    with np.errstate(invalid="ignore", divide="ignore"):
        share = counts / len(known) if len(known) else np.full(len(counts), np.nan)
    frame = pd.DataFrame(
        {"band": bands, "lower": edges[:-1], "upper": edges[1:], "n_items": counts, "share": share}
    )
    frame.attrs["n_without_agreement"] = int(len(p_i) - len(known))
    frame.attrs["n_outside_bins"] = int((~inside).sum())
    frame.attrs["reason"] = per_item.attrs["reason"]
    return frame


def category_disagreement(ann: Annotations | pd.DataFrame) -> pd.DataFrame:
    r"""Disagreements per category for every annotator pair (Bhowmick et al., table 4).

    A disagreement on category c is a shared item that one annotator of the pair put in c
    and the other did not. The paper's "Total" row is ``frame.sum()``.

    Parameters
    ----------
    ann : Annotations or DataFrame
        Multi-label annotations, or a long DataFrame.

    Returns
    -------
    DataFrame
        Indexed by (``annotator_a``, ``annotator_b``), one integer column per category.

    Notes
    -----
    For annotators x, y and category c: :math:`\sum_{i \in I_{xy}} [c \in S_{ix}]
    \oplus [c \in S_{iy}]`, over the items :math:`I_{xy}` both judged (:math:`S_{iu}`:
    u's label set for item i).

    References
    ----------
    Bhowmick, P. K., Mitra, P., & Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. Proceedings of the
    COLING workshop on Human Judgements in Computational Linguistics, 58-65 (section 5, table 4).
    """
    ann = as_annotations(ann)
    jp = judgement_pairs(ann)
    counts = jp.per_pair((jp.x_rows ^ jp.y_rows).astype(np.float64))
    return pd.DataFrame(
        np.rint(counts).astype(np.int64).reshape(jp.n_pairs, ann.n_categories),
        index=_pair_index(ann, jp.pairs),
        columns=ann.categories,
    )


def category_pair_confusion(ann: Annotations | pd.DataFrame) -> pd.DataFrame:
    r"""Confusion between two categories over all annotator pairs (Bhowmick et al., table 5).

    For categories a and b, the number of (item, annotator pair) cases where one annotator
    gave the pattern [a -] (a assigned, b not) and the other [- b] (b assigned, a not):
    each said one of the two categories, and they chose different ones. Symmetric, so only
    the upper triangle is filled (the rest is NaN), as in the paper.

    Computed as U^T V with U = "x assigned, y did not" and V = "y assigned, x did not" over
    all item-pair units (one matrix product, no loop over category pairs): the count for
    {a, b} is (U^T V)[a, b] + (U^T V)[b, a].

    Parameters
    ----------
    ann : Annotations or DataFrame
        Multi-label annotations, or a long DataFrame.

    Returns
    -------
    DataFrame
        Categories x categories, counts in the upper triangle, NaN elsewhere.

    Notes
    -----
    .. math:: N_{ab} = \sum_{(i, x, y)} [a \in S_{ix}, b \notin S_{ix}, b \in S_{iy},
              a \notin S_{iy}] + [b \in S_{ix}, a \notin S_{ix}, a \in S_{iy},
              b \notin S_{iy}]

    over the item-pair units (i, x, y).

    References
    ----------
    Bhowmick, P. K., Mitra, P., & Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. Proceedings of the
    COLING workshop on Human Judgements in Computational Linguistics, 58-65 (section 5, table 5 and figure 2).
    """
    ann = as_annotations(ann)
    jp = judgement_pairs(ann)
    x, y = jp.x_rows, jp.y_rows
    only_x = (x & ~y).astype(np.float64)
    only_y = (y & ~x).astype(np.float64)
    cross = only_x.T @ only_y
    both = np.rint(cross + cross.T)
    out = np.where(np.triu(np.ones_like(both, bool), k=1), both, np.nan)
    return pd.DataFrame(out, index=ann.categories, columns=ann.categories)


PAIR_TYPES = ("identical", "subset", "overlap", "disjoint")


def set_pair_types(ann: Annotations | pd.DataFrame) -> pd.DataFrame:
    r"""How the label sets of two annotators on the same item relate, over all such pairs.

    Each pair of judgements of one item is identical, one a proper subset of the other,
    overlapping, or disjoint (an empty set against a non-empty one counts as disjoint), the
    four levels of Passonneau's distance. These shares explain why alpha differs between
    set distances: the distances disagree only on the partial matches (subset, overlap).

    Parameters
    ----------
    ann : Annotations or DataFrame
        Multi-label annotations, or a long DataFrame.

    Returns
    -------
    DataFrame
        ``relation``, ``n_pairs``, ``share``, and ``distance_<name>`` for every set
        distance: the mean distance of the pairs of that relation.

    Raises
    ------
    AnnotationDataError
        When the data are single-label.

    Notes
    -----
    The relation is Passonneau's distance times 3: 0 identical, 1 subset, 2 overlap,
    3 disjoint. The distances (:data:`analytics.agreement.SET_DISTANCES`): Jaccard
    :math:`1 - |A \cap B| / |A \cup B|`, Dice :math:`1 - 2|A \cap B| / (|A| + |B|)`, MASI
    :math:`1 - J \cdot M` with J the Jaccard similarity and M = 1, 2/3, 1/3, 0 for the four
    relations.

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006 (section 3: MASI and the four relations).

    Poesio, M., & Artstein, R. (2005). The reliability of anaphoric annotation,
    reconsidered: Taking ambiguity into account. ACL Workshop on Frontiers in Corpus
    Annotation II, 76-83 (the distances between sets).
    """
    ann = as_annotations(ann)
    if not ann.is_multilabel:
        raise AnnotationDataError(
            "set relations need multi-label data.",
            hint="Load the file with a label separator or the multilabel label kind.",
        )
    jp = judgement_pairs(ann)
    x, y = jp.x_rows, jp.y_rows  # per unit, so no n_sets^2 matrix is ever built
    level = np.rint(SET_DISTANCES["passonneau"](x, y) * 3).astype(np.int64)  # 0, 1, 2, 3
    counts = np.bincount(level, minlength=4)
    frame = pd.DataFrame({"relation": PAIR_TYPES, "n_pairs": counts})
    with np.errstate(invalid="ignore", divide="ignore"):
        frame["share"] = counts / counts.sum() if counts.sum() else np.nan
        for name in SET_DISTANCES:
            d = SET_DISTANCES[name](x, y)
            frame[f"distance_{name}"] = np.bincount(level, weights=d, minlength=4) / counts
    return frame


def set_distance_alphas(ann: Annotations | pd.DataFrame) -> pd.DataFrame:
    r"""Krippendorff's alpha with each set distance, side by side (Poesio & Artstein 2005).

    Calls :func:`analytics.agreement.krippendorff_alpha` with ``distance=`` each name in
    :data:`analytics.agreement.SET_DISTANCES` (Passonneau's, Jaccard, Dice, MASI).

    Parameters
    ----------
    ann : Annotations or DataFrame
        Multi-label annotations, or a long DataFrame.

    Returns
    -------
    DataFrame
        ``distance``, ``alpha``, ``note`` (why alpha is NaN).

    Notes
    -----
    .. math:: \alpha = 1 - \frac{D_o}{D_e}, \quad
              D_o = \frac{1}{n} \sum_c \sum_k o_{ck}\, \delta(c, k), \quad
              D_e = \frac{1}{n(n-1)} \sum_c \sum_k n_c n_k\, \delta(c, k)

    with :math:`o_{ck}` the coincidences of label sets c and k, :math:`n_c` their margins,
    n the pairable judgements and :math:`\delta` a distance between sets.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School
    for Communication, University of Pennsylvania (section C, eq. for D_o and D_e).

    Poesio, M., & Artstein, R. (2005). The reliability of anaphoric annotation,
    reconsidered: Taking ambiguity into account. ACL Workshop on Frontiers in Corpus
    Annotation II, 76-83 (alpha with set distances).

    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006 (MASI).
    """
    ann = as_annotations(ann)
    rows = []
    for name in SET_DISTANCES:
        result = krippendorff_alpha(ann, distance=name)
        value, note = _alpha_value(result)
        rows.append((name, value, note))
    return pd.DataFrame(rows, columns=["distance", "alpha", "note"])


def _alpha_value(result: object) -> tuple[float, str]:
    """The number and the reason out of whatever krippendorff_alpha returns."""
    if isinstance(result, (int, float, np.floating)):  # agreement.Coefficient is a float
        return float(result), str(getattr(result, "reason", "") or "")
    for attr in ("alpha", "value", "estimate"):
        if hasattr(result, attr):
            value = float(getattr(result, attr))
            note = str(getattr(result, "reason", "") or getattr(result, "note", "") or "")
            return value, note
    raise TypeError(f"unexpected result from krippendorff_alpha: {type(result).__name__}")


#: A spread of alpha between the set distances that can change a verdict (Krippendorff's
#: thresholds 0.667 and 0.8 are 0.133 apart; half a band's width is 0.05 or more)
SPREAD_THAT_MATTERS = 0.05


def set_distance_sentence(pair_types: pd.DataFrame, alphas: pd.DataFrame | None = None) -> str:
    """One plain sentence on why alpha differs between the set distances, for this data.

    Parameters
    ----------
    pair_types : DataFrame
        :func:`set_pair_types` of the data.
    alphas : DataFrame or None, default None
        :func:`set_distance_alphas` of the data; when given, the sentence adds the range.

    Returns
    -------
    str
        The sentence (a few, in fact), for the page and the report.
    """
    if pair_types["n_pairs"].sum() == 0:
        return (
            "No item was judged by two or more annotators, so there are no two label sets "
            "to compare and no distance to choose."
        )
    shares = dict(zip(pair_types["relation"], pair_types["share"], strict=True))
    partial = float(shares.get("subset", 0.0) + shares.get("overlap", 0.0))
    disagree = 1.0 - float(shares.get("identical", 0.0))
    if not np.isfinite(partial) or disagree <= 0:
        return (
            "All four distances agree here: every two annotators of an item gave identical "
            "sets, so no partial match needs weighing."
        )
    share_partial = partial / disagree
    verdict = f"so the choice of distance matters {'a lot' if share_partial > 0.5 else 'little'}."
    if alphas is not None and alphas["alpha"].notna().sum() >= 2:
        # the alphas themselves say how much the choice matters: judged by their spread
        vals = alphas.dropna(subset=["alpha"]).set_index("distance")["alpha"]
        low, high = format_number(vals.min()), format_number(vals.max())
        if low == high:
            verdict = f"yet here every distance gives alpha {low}: the choice does not matter."
        else:
            verdict = (
                f"and here alpha runs from {low} ({vals.idxmin()}) to {high} "
                f"({vals.idxmax()}): the choice of distance matters "
                f"{'a lot' if vals.max() - vals.min() >= SPREAD_THAT_MATTERS else 'little'}."
            )
    return (
        "The distances differ only in how much a partial match costs: Passonneau's charges "
        "1/3 for one set inside the other and 2/3 for an overlap whatever the sizes, "
        "Jaccard and Dice charge the share of labels not shared (Dice less), and MASI "
        "multiplies the Jaccard similarity by a subset/overlap weight, so it always charges most. "
        f"{share_partial:.0%} of the disagreeing pairs of judgements here are partial "
        f"matches, {verdict}"
    )
