"""The kappa paradox: high agreement, low kappa, when one category dominates.

:func:`kappa_paradox` holds the observed agreement of the data fixed and computes Fleiss'
kappa and Gwet's AC1 of two categories as the majority category's prevalence grows, with
the chance agreement of :func:`~analytics.agreement.chance.chance_agreement`; the figure
:func:`~analytics.agreement.kappa_paradox_figure` only draws the result. :func:`kappa_max`
is the largest Cohen's kappa the annotators' own marginals allow (Cohen 1960).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.validation import check_whole
from analytics.agreement.annotator_pairs import pair_labels, two_annotators
from analytics.agreement.chance import beyond_chance, chance_agreement
from analytics.agreement.coefficients import (
    cohen_kappa,
    fleiss_kappa,
    gwet_ac1,
    percent_agreement,
)
from analytics.agreement.pair_margins import pair_margin_blocks
from analytics.agreement.prepared import (
    Coefficient,
    coders,
    known_annotators_only,
    prepare,
    single_label_only,
    undefined,
)
from analytics.data import Annotations, as_annotations

__all__ = ["KappaParadox", "kappa_max", "kappa_paradox"]


@dataclass(frozen=True)
class KappaParadox:
    """Kappa and AC1 at the data's observed agreement, over a range of prevalences.

    Attributes
    ----------
    observed : Coefficient
        The data's percent agreement (held fixed along the curves).
    reason : str
        Why there is no paradox view ("" when there is one).
    categories : list of str
        The categories, in declared order.
    shares : ndarray
        Share of the judgements in each category.
    prevalence : ndarray
        The majority category's prevalence along the curves (0.5 to 0.995).
    kappa, ac1 : ndarray
        Fleiss' kappa and Gwet's AC1 of two categories at each prevalence.
    majority : float
        The data's own majority prevalence (the largest share).
    split : float
        The data read as two categories, the majority category against the rest: the
        larger of the two shares, ``max(majority, 1 - majority)`` (where the data sit on
        the curves; with many categories the rest can be the larger side).
    kappa_at_split, ac1_at_split : float
        The curves' values at ``split``, computed exactly (not read off the grid).
    fleiss_kappa, gwet_ac1 : Coefficient
        The data's own Fleiss' kappa and AC1.
    cohen_kappa, kappa_max : Coefficient
        The data's own Cohen's kappa (Light's mean over pairs with more than two
        annotators) and the largest value it could take with the annotators' marginals
        (:func:`kappa_max`).
    """

    observed: Coefficient
    reason: str = ""
    categories: list[str] = field(default_factory=list)
    shares: np.ndarray = field(default_factory=lambda: np.zeros(0))
    prevalence: np.ndarray = field(default_factory=lambda: np.zeros(0))
    kappa: np.ndarray = field(default_factory=lambda: np.zeros(0))
    ac1: np.ndarray = field(default_factory=lambda: np.zeros(0))
    majority: float = float("nan")
    split: float = float("nan")
    kappa_at_split: float = float("nan")
    ac1_at_split: float = float("nan")
    fleiss_kappa: Coefficient = field(default_factory=lambda: Coefficient(float("nan")))
    gwet_ac1: Coefficient = field(default_factory=lambda: Coefficient(float("nan")))
    cohen_kappa: Coefficient = field(default_factory=lambda: Coefficient(float("nan")))
    kappa_max: Coefficient = field(default_factory=lambda: Coefficient(float("nan")))


def _kappa_max_of_margins(t: np.ndarray, q: int) -> np.ndarray:
    """Kappa maximum from ``[shared, agreement, counts_a, counts_b]`` rows (NaN if undefined)."""
    n = t[:, 0]
    with np.errstate(invalid="ignore", divide="ignore"):
        row = t[:, 2 : 2 + q] / n[:, None]
        col = t[:, 2 + q :] / n[:, None]
        pe = (row * col).sum(axis=1)
        value = beyond_chance(np.minimum(row, col).sum(axis=1), pe)
    return np.where((n > 0) & ~np.isclose(pe, 1.0), value, np.nan)


def kappa_max(ann: Annotations | pd.DataFrame, a: Any = None, b: Any = None) -> Coefficient:
    """The largest Cohen's kappa the annotators' marginals allow (Cohen 1960).

    Parameters
    ----------
    ann : Annotations or DataFrame
        Single-label judgements.
    a, b : annotator name, optional
        The two annotators (on the items both judged). With neither, the mean of the
        pairwise maxima over the annotator pairs that share items (as Light's kappa is the
        mean of the pairwise kappas).

    Returns
    -------
    Coefficient
        NaN with a reason for multi-label data, one annotator, no shared items, or a
        chance agreement of 1.

    Notes
    -----
    With the two annotators' marginal shares :math:`p_{k\\cdot}` and :math:`p_{\\cdot k}`,
    the observed agreement can at most be :math:`p_{oM} = \\sum_k \\min(p_{k\\cdot},
    p_{\\cdot k})` (every judgement on the diagonal that the marginals leave room for), so

    .. math:: \\kappa_M = \\frac{p_{oM} - p_e}{1 - p_e},\\qquad
              p_e = \\sum_k p_{k\\cdot} p_{\\cdot k}.

    :math:`\\kappa / \\kappa_M` says how much of the agreement the marginals permit was
    reached; a kappa far below 1 but near :math:`\\kappa_M` is limited by how differently
    the annotators use the categories, not by disagreement on items.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educational and
    Psychological Measurement* 20(1), 37-46 (kappa maximum, equations 5-6).
    Sim, J., & Wright, C. C. (2005). The kappa statistic in reliability studies: use,
    interpretation, and sample size requirements. *Physical Therapy* 85(3), 257-268.

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3, 4, 4], "annotator": ["a", "b"] * 4,
    ...                    "label": ["x", "x", "y", "y", "x", "y", "y", "y"]})
    >>> round(kappa_max(df), 3), round(cohen_kappa(df, "a", "b"), 3)
    (0.5, 0.5)
    """
    ann = coders(ann)
    bad = single_label_only(ann, "kappa maximum") or known_annotators_only(ann, "kappa maximum")
    if bad is not None:
        return bad
    if ann.n_annotators < 2:
        who = "no annotator" if ann.n_annotators == 0 else "only one annotator"
        return undefined(f"{who}: kappa maximum compares pairs of annotators")
    p = prepare(ann)
    q = p.q
    if a is not None or b is not None:
        ia, ib = two_annotators(ann, a, b)
        la, lb = pair_labels(p, ia, ib)
        t = np.concatenate(
            [[len(la), 0.0], np.bincount(la, minlength=q), np.bincount(lb, minlength=q)]
        )[None, :].astype(float)
        value = _kappa_max_of_margins(t, q)[0]
        if np.isnan(value):
            return undefined(f"no shared items, or one category only, for {a!r} and {b!r}")
        return Coefficient(float(value), "", len(la))
    total, n_ok = 0.0, 0
    for block in pair_margin_blocks(p, None):
        vals = _kappa_max_of_margins(block.totals, q)
        total += float(np.nansum(vals))
        n_ok += int(np.isfinite(vals).sum())
    if not n_ok:
        return undefined("no annotator pair shares items with two categories in use")
    pairs = ann.n_annotators * (ann.n_annotators - 1) // 2
    note = f"mean over {n_ok} of {pairs} annotator pairs" if pairs > 1 else ""
    return Coefficient(total / n_ok, note, p.n_pairable)


def kappa_paradox(ann: Annotations | pd.DataFrame, points: int = 100) -> KappaParadox:
    """Kappa and AC1 of two categories at the data's observed agreement, as prevalence grows.

    Parameters
    ----------
    ann : Annotations or DataFrame
        Single-label judgements with two or more categories.
    points : int, default 100
        Prevalences on the curves, evenly from 0.5 to 0.995: a whole number >= 2.

    Returns
    -------
    KappaParadox
        With ``reason`` set (and empty curves) for multi-label data, fewer than two
        categories, or undefined observed agreement.

    Raises
    ------
    AnnotationDataError
        ``points`` is not a whole number >= 2.

    Notes
    -----
    With observed agreement :math:`p_a` fixed and two categories of shares :math:`\\pi`
    and :math:`1 - \\pi`,

    .. math:: \\kappa(\\pi) = \\frac{p_a - \\pi^2 - (1 - \\pi)^2}{1 - \\pi^2 - (1 - \\pi)^2},
              \\qquad
              AC_1(\\pi) = \\frac{p_a - 2 \\pi (1 - \\pi)}{1 - 2 \\pi (1 - \\pi)}

    so kappa falls toward and below 0 as :math:`\\pi \\to 1` while AC1 stays near
    :math:`p_a`.

    References
    ----------
    Feinstein, A. R., & Cicchetti, D. V. (1990). High agreement but low kappa: I. The
    problems of two paradoxes. *Journal of Clinical Epidemiology* 43(6), 543-549.
    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence
    of high agreement. *British Journal of Mathematical and Statistical Psychology* 61(1),
    29-48.
    Passonneau, R. J., & Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, section 2.1 (90% agreement at 95% prevalence:
    kappa -0.05).

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3, 4, 4], "annotator": ["a", "b"] * 4,
    ...                    "label": ["x", "x", "y", "y", "x", "y", "y", "y"]})
    >>> view = kappa_paradox(df, points=2)
    >>> view.prevalence.tolist(), view.kappa.round(3).tolist(), view.ac1.round(3).tolist()
    ([0.5, 0.995], [0.5, -24.126], [0.5, 0.747])
    """
    points = check_whole(points, "points", 2)
    ann = as_annotations(ann)
    po = percent_agreement(ann)
    if ann.is_multilabel or not np.isfinite(po) or ann.n_categories < 2:
        why = (
            po.note
            if not np.isfinite(po)
            else "this view needs single-label data with 2+ categories"
        )
        return KappaParadox(po, why)
    dist = np.asarray(ann.count_matrix().sum(axis=0), dtype=float)
    shares = dist / dist.sum()
    prev = np.linspace(0.5, 0.995, points)
    two = np.column_stack([prev, 1 - prev])
    majority = float(shares.max())
    split = max(majority, 1.0 - majority)  # majority vs the rest: the larger side
    at_split = np.array([[split, 1.0 - split]])
    return KappaParadox(
        observed=po,
        categories=[str(c) for c in ann.categories],
        shares=shares,
        prevalence=prev,
        kappa=beyond_chance(po, chance_agreement("fleiss_kappa", two)),
        ac1=beyond_chance(po, chance_agreement("gwet_ac1", two)),
        majority=majority,
        split=split,
        kappa_at_split=float(beyond_chance(po, chance_agreement("fleiss_kappa", at_split))[0]),
        ac1_at_split=float(beyond_chance(po, chance_agreement("gwet_ac1", at_split))[0]),
        fleiss_kappa=fleiss_kappa(ann),
        gwet_ac1=gwet_ac1(ann),
        cohen_kappa=cohen_kappa(ann),
        kappa_max=kappa_max(ann),
    )
