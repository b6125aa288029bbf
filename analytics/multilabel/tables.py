"""Agreement and gold standards for multi-label (set-valued) annotations.

From Bhowmick, Mitra & Basu (2008): the A_m coefficient (equations 1-8), its pairwise
table (table 2), items by observed agreement (table 3), disagreement per category and
annotator pair (table 4), confusion between category pairs (table 5) and the gold
standard of Algorithm 1. From Poesio & Artstein (2005): Krippendorff's alpha with set
distances (computed by :func:`analytics.agreement.krippendorff_alpha`; this module puts
the four distances side by side). Per-category kappa and alpha on the binarised data.

Every function takes an :class:`~analytics.data.model.Annotations` (or a long DataFrame)
and compares only real judgements: an empty set is a judgement ("none of these"), a
missing one is not. See :mod:`analytics.multilabel.pairs`.

>>> import pandas as pd
>>> from analytics.data.model import Annotations
>>> df = pd.DataFrame({"item": ["s1", "s1", "s2", "s2"], "annotator": ["a", "b", "a", "b"],
...                    "label": ["anger;fear", "anger", "joy", "joy"]})
>>> ann = Annotations.from_frame(df, kind="multilabel", multilabel_sep=";")
>>> round(am_agreement(ann).p_o, 4)  # s1 differs on fear: 1 of 3 category pairs agree
0.6667
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.agreement import SET_DISTANCES, krippendorff_alpha
from analytics.data.model import Annotations, as_annotations
from analytics.multilabel.am import (
    AmInterval,
    AmResult,
    am_agreement,
    am_agreement_unclubbed,
    am_bootstrap,
    pairwise_am,
    undefined_reason,
    unit_agreement,
)
from analytics.multilabel.gold import GoldStandard, gold_standard
from analytics.multilabel.pairs import judgement_pairs

__all__ = [
    "PAPER_BINS",
    "AmInterval",
    "AmResult",
    "GoldStandard",
    "am_agreement",
    "am_agreement_unclubbed",
    "am_bootstrap",
    "category_disagreement",
    "category_pair_confusion",
    "gold_standard",
    "item_agreement",
    "items_by_agreement",
    "pairwise_am",
    "per_category_agreement",
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


def item_agreement(ann: Annotations | pd.DataFrame) -> pd.DataFrame:
    r"""Observed agreement of every item, :math:`P_i` (Bhowmick et al. 2008, eq. 3).

    :math:`P_i = \frac{1}{\binom{C}{2}\binom{U_i}{2}} \sum_{p} n_{ip}`, the mean over the
    :math:`\binom{U_i}{2}` pairs of annotators who judged item i of the share of category
    pairs they agree on. NaN for items judged by fewer than two annotators, and for every
    item when there are fewer than two categories.

    Returns
    -------
    DataFrame
        Indexed by item: ``n_annotators``, ``p_i``. ``attrs["reason"]`` says why no item
        has a P_i (fewer than two categories, or no item judged twice), else "".
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


def items_by_agreement(
    ann: Annotations | pd.DataFrame, bins: Sequence[float] = PAPER_BINS
) -> pd.DataFrame:
    """How many items fall in each band of observed agreement (Bhowmick et al., table 3).

    Bands are closed on the right, ``lower < P_i <= upper``, as in the paper; the first
    band also takes ``P_i == bins[0]`` (the paper's "0.0 < A_o" would leave an item with no
    agreement at all out of every band). Items judged by fewer than two annotators have no
    P_i and are counted in ``attrs["n_without_agreement"]``.

    Returns
    -------
    DataFrame
        ``band`` (text), ``lower``, ``upper``, ``n_items``, ``share``. When no item has a
        P_i (fewer than two categories, or no item judged by two annotators) every count is
        0, every share NaN, and ``attrs["reason"]`` says why ("" otherwise).
    """
    ann = as_annotations(ann)
    edges = np.asarray(bins, dtype=float)
    if edges.ndim != 1 or len(edges) < 2 or np.any(np.diff(edges) <= 0):
        raise AnnotationDataError(
            f"bins must be at least two increasing numbers, not {list(bins)}.",
            hint=f"For example {list(PAPER_BINS)}.",
        )
    per_item = item_agreement(ann)
    p_i = per_item["p_i"].to_numpy()
    known = p_i[np.isfinite(p_i)]
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
    """Disagreements per category for every annotator pair (Bhowmick et al., table 4).

    A disagreement on category c is a shared item that one annotator of the pair put in c
    and the other did not. The paper's "Total" row is ``frame.sum()``.

    Returns
    -------
    DataFrame
        Indexed by (``annotator_a``, ``annotator_b``), one integer column per category.
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
    """Confusion between two categories over all annotator pairs (Bhowmick et al., table 5).

    For categories a and b, the number of (item, annotator pair) cases where one annotator
    gave the pattern [a -] (a assigned, b not) and the other [- b] (b assigned, a not):
    each said one of the two categories, and they chose different ones. Symmetric, so only
    the upper triangle is filled (the rest is NaN), as in the paper.

    Computed as U^T V with U = "x assigned, y did not" and V = "y assigned, x did not" over
    all item-pair units (one matrix product, no loop over category pairs): the count for
    {a, b} is (U^T V)[a, b] + (U^T V)[b, a].
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


def per_category_agreement(ann: Annotations | pd.DataFrame) -> pd.DataFrame:
    r"""Fleiss' kappa and Krippendorff's alpha for each category on its own (0/1 data).

    Each category becomes a yes/no question for every judgement. With :math:`m_i` judges
    of item i of whom :math:`y_i` said yes (only items with :math:`m_i \geq 2`),
    :math:`n = \sum m_i`, :math:`\bar p = \sum y_i / n`:

    - observed agreement (Fleiss 1971): :math:`\bar P = \text{mean}_i
      [y_i(y_i-1) + (m_i-y_i)(m_i-y_i-1)] / [m_i(m_i-1)]`;
    - Fleiss' kappa: :math:`(\bar P - P_e) / (1 - P_e)` with
      :math:`P_e = \pi^2 + (1-\pi)^2` and :math:`\pi = \text{mean}_i\, y_i / m_i` over every
      judged item (items judged once included). With the
      same number of judges on every item this is Fleiss (1971, eq. 13) for one category;
      with unequal numbers it is Gwet's (2014) form, the one
      :func:`analytics.agreement.per_category` reports;
    - Krippendorff's nominal alpha: :math:`1 - D_o / D_e` with
      :math:`D_o = \frac{1}{n}\sum_i \frac{2 y_i (m_i - y_i)}{m_i - 1}` and
      :math:`D_e = \frac{2 n_1 n_0}{n(n-1)}`.

    All categories at once, vectorised. A category everyone always (or never) used has no
    variation: both coefficients are NaN and ``note`` says so.

    Returns
    -------
    DataFrame
        Indexed by category: ``n_items``, ``prevalence``, ``observed_agreement``,
        ``fleiss_kappa``, ``krippendorff_alpha``, ``note``.
    """
    ann = as_annotations(ann)
    jp = judgement_pairs(ann)
    m = jp.judges_per_item.astype(float)
    keep = m >= 2
    m = m[keep][:, None]
    y = jp.assigned_per_item[keep].astype(float)
    no = m - y
    n = float(m.sum())
    n1 = y.sum(axis=0)
    n0 = n - n1
    with np.errstate(invalid="ignore", divide="ignore"):
        p_bar = n1 / n
        p_i = (y * (y - 1) + no * (no - 1)) / (m * (m - 1))
        observed = p_i.mean(axis=0) if len(p_i) else np.full(ann.n_categories, np.nan)
        # Gwet (2014): pi over every judged item, agreement over items with 2+ judges
        seen = jp.judges_per_item > 0
        share = jp.assigned_per_item[seen] / jp.judges_per_item[seen, None]
        pi = share.mean(axis=0) if seen.any() else np.full(ann.n_categories, np.nan)
        p_e = pi**2 + (1 - pi) ** 2
        kappa = (observed - p_e) / (1 - p_e)
        d_o = (2 * y * no / (m - 1)).sum(axis=0) / n
        d_e = 2 * n1 * n0 / (n * (n - 1))
        alpha = 1 - d_o / d_e
    note = np.full(ann.n_categories, "", dtype=object)
    flat = (n1 == 0) | (n0 == 0)
    # the counts cover only items judged twice or more: say so when other items exist
    where = "" if keep.all() else " on the items judged by two or more annotators"
    note[flat & (n1 == 0)] = f"nobody used this category{where}: no variation to agree on"
    note[flat & (n0 == 0)] = f"every judgement used this category{where}: no variation to agree on"
    if not keep.any():
        note[:] = "no item was judged by two or more annotators"
    kappa = np.where(flat | ~keep.any(), np.nan, kappa)
    alpha = np.where(flat | ~keep.any(), np.nan, alpha)
    frame = pd.DataFrame(
        {
            "n_items": np.full(ann.n_categories, int(keep.sum())),
            "prevalence": p_bar,
            "observed_agreement": observed,
            "fleiss_kappa": kappa,
            "krippendorff_alpha": alpha,
            "note": note,
        },
        index=ann.categories,
    )
    frame.index.name = "category"
    return frame


PAIR_TYPES = ("identical", "subset", "overlap", "disjoint")


def set_pair_types(ann: Annotations | pd.DataFrame) -> pd.DataFrame:
    """How the label sets of two annotators on the same item relate, over all such pairs.

    Each pair of judgements of one item is identical, one a proper subset of the other,
    overlapping, or disjoint (an empty set against a non-empty one counts as disjoint), the
    four levels of Passonneau's distance. These shares explain why alpha differs between
    set distances: the distances disagree only on the partial matches (subset, overlap).

    Returns
    -------
    DataFrame
        ``relation``, ``n_pairs``, ``share``, and ``distance_<name>`` for every set
        distance: the mean distance of the pairs of that relation.
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
    """Krippendorff's alpha with each set distance, side by side (Poesio & Artstein 2005).

    Calls :func:`analytics.agreement.krippendorff_alpha` with ``distance=`` each name in
    :data:`analytics.agreement.set_distances.SET_DISTANCES`.

    Returns
    -------
    DataFrame
        ``distance``, ``alpha``, ``note`` (why alpha is NaN).
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


def set_distance_sentence(pair_types: pd.DataFrame, alphas: pd.DataFrame | None = None) -> str:
    """One plain sentence on why alpha differs between the set distances, for this data."""
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
    spread = ""
    if alphas is not None and alphas["alpha"].notna().sum() >= 2:
        vals = alphas.dropna(subset=["alpha"]).set_index("distance")["alpha"]
        spread = (
            f" Here alpha runs from {vals.min():.3f} ({vals.idxmin()}) to "
            f"{vals.max():.3f} ({vals.idxmax()})."
        )
    return (
        "The distances differ only in how much a partial match costs: Passonneau's charges "
        "1/3 for one set inside the other and 2/3 for an overlap whatever the sizes, "
        "Jaccard and Dice charge the share of labels not shared (Dice less), and MASI "
        "multiplies the Jaccard similarity by a subset/overlap weight, so it always charges most. "
        f"{share_partial:.0%} of the disagreeing pairs of judgements here are partial "
        f"matches, so the choice of distance matters {'a lot' if share_partial > 0.5 else 'little'}."
        + spread
    )
