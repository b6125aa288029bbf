"""The kappa paradox: high agreement, low kappa, when one category dominates.

:func:`kappa_paradox` holds the observed agreement of the data fixed and computes Fleiss'
kappa and Gwet's AC1 of two categories as the majority category's prevalence grows, with
the chance agreement of :func:`~analytics.agreement.chance.chance_agreement`; the figure
:func:`~analytics.agreement.kappa_paradox_figure` only draws the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analytics._core.validation import check_whole
from analytics.agreement.chance import beyond_chance, chance_agreement
from analytics.agreement.coefficients import fleiss_kappa, gwet_ac1, percent_agreement
from analytics.agreement.prepared import Coefficient
from analytics.data import Annotations, as_annotations

__all__ = ["KappaParadox", "kappa_paradox"]


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
    fleiss_kappa, gwet_ac1 : Coefficient
        The data's own Fleiss' kappa and AC1.
    """

    observed: Coefficient
    reason: str = ""
    categories: list[str] = field(default_factory=list)
    shares: np.ndarray = field(default_factory=lambda: np.zeros(0))
    prevalence: np.ndarray = field(default_factory=lambda: np.zeros(0))
    kappa: np.ndarray = field(default_factory=lambda: np.zeros(0))
    ac1: np.ndarray = field(default_factory=lambda: np.zeros(0))
    majority: float = float("nan")
    fleiss_kappa: Coefficient = field(default_factory=lambda: Coefficient(float("nan")))
    gwet_ac1: Coefficient = field(default_factory=lambda: Coefficient(float("nan")))


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
    return KappaParadox(
        observed=po,
        categories=[str(c) for c in ann.categories],
        shares=shares,
        prevalence=prev,
        kappa=beyond_chance(po, chance_agreement("fleiss_kappa", two)),
        ac1=beyond_chance(po, chance_agreement("gwet_ac1", two)),
        majority=float(shares.max()),
        fleiss_kappa=fleiss_kappa(ann),
        gwet_ac1=gwet_ac1(ann),
    )
