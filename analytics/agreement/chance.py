"""Chance agreement of the Fleiss family, and agreement beyond chance.

Fleiss' kappa, Gwet's AC1/AC2 and Brennan-Prediger share the observed agreement
:math:`p_a` and differ only in the chance agreement :math:`p_e`
(:func:`chance_agreement`); every kappa-type coefficient is then
:math:`(p_a - p_e) / (1 - p_e)` (:func:`beyond_chance`). The coefficients, the per-category
view and the kappa-paradox figure all take these two from here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analytics._core.errors import AnnotationDataError
from analytics._core.validation import PROBABILITY_TOL, check_choice

__all__ = ["FLEISS_FAMILY", "beyond_chance", "chance_agreement", "chance_from_shares"]

FLEISS_FAMILY = ("fleiss_kappa", "gwet_ac1", "brennan_prediger")
"""The coefficients :func:`chance_agreement` knows: same :math:`p_a`, different :math:`p_e`."""


# ---------------------------------------------------------------------- chance agreement
def chance_agreement(
    coefficient: str, shares: np.ndarray, weights: np.ndarray | None = None
) -> np.ndarray:
    """Chance agreement :math:`p_e` of Fleiss' kappa, Gwet's AC1/AC2 or Brennan-Prediger.

    Parameters
    ----------
    coefficient : {"fleiss_kappa", "gwet_ac1", "brennan_prediger"}
        Whose chance agreement.
    shares : array_like, shape (q,) or (b, q)
        Category shares :math:`\\pi_k` (one row per replicate): every share in [0, 1],
        every row summing to 1 (within 1e-9).
    weights : ndarray, shape (q, q), optional
        Agreement weights :math:`w_{kl}`; default identity (unweighted).

    Returns
    -------
    ndarray, shape (b,)
        :math:`p_e` for every row of ``shares``.

    Raises
    ------
    AnnotationDataError
        ``coefficient`` is not one of :data:`FLEISS_FAMILY`; ``shares`` are not numbers
        in [0, 1] or a row does not sum to 1.

    Notes
    -----
    .. math:: p_e^{F} = \\sum_{kl} w_{kl} \\pi_k \\pi_l,\\qquad
              p_e^{AC} = \\frac{\\sum_{kl} w_{kl}}{q (q - 1)} \\sum_k \\pi_k (1 - \\pi_k),\\qquad
              p_e^{BP} = \\frac{\\sum_{kl} w_{kl}}{q^2}

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin* 76(5), 378-382.
    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence
    of high agreement. *British Journal of Mathematical and Statistical Psychology* 61(1),
    29-48 (AC1's chance agreement).
    Brennan, R. L., & Prediger, D. J. (1981). Coefficient kappa: some uses, misuses, and
    alternatives. *Educational and Psychological Measurement* 41(3), 687-699.

    Examples
    --------
    >>> shares = np.array([0.9, 0.1])
    >>> [round(float(chance_agreement(c, shares)[0]), 2) for c in FLEISS_FAMILY]
    [0.82, 0.18, 0.5]
    """
    check_choice(coefficient, "coefficient", FLEISS_FAMILY)
    return chance_from_shares(coefficient, _checked_shares(shares), weights)


def _checked_shares(shares: Any) -> np.ndarray:
    """``shares`` as a (b, q) array of probability vectors, or an error saying what is wrong."""
    hint = "Pass each category's share of the labels, e.g. counts / counts.sum()."
    try:
        pi = np.atleast_2d(np.asarray(shares, dtype=float))
    except (TypeError, ValueError):
        raise AnnotationDataError("shares must be numbers.", hint=hint) from None
    if pi.ndim != 2 or pi.shape[1] == 0:
        raise AnnotationDataError(
            f"shares must be one row of q category shares (or b rows); got shape {pi.shape}.",
            hint=hint,
        )
    if not ((pi >= 0) & (pi <= 1)).all():
        raise AnnotationDataError(
            "shares must lie between 0 and 1 (NaN refused); got "
            f"{pi[~((pi >= 0) & (pi <= 1))][:3].tolist()}.",
            hint=hint,
        )
    total = pi.sum(axis=1)
    if (np.abs(total - 1.0) > PROBABILITY_TOL).any():
        bad = float(total[np.abs(total - 1.0) > PROBABILITY_TOL][0])
        raise AnnotationDataError(
            f"the shares must sum to 1 (within {PROBABILITY_TOL:g}); they sum to {bad:.12g}.",
            hint="Divide them by their sum.",
        )
    return pi


def chance_from_shares(
    coefficient: str, shares: np.ndarray, weights: np.ndarray | None = None
) -> np.ndarray:
    """:func:`chance_agreement` without its checks, for shares the coefficients computed
    (bootstrap replicates may hold NaN rows, which give NaN)."""
    pi = np.atleast_2d(np.asarray(shares, dtype=float))
    q = pi.shape[1]
    w = None if weights is None else np.asarray(weights, dtype=float)  # None: identity
    w_sum = float(q) if w is None else float(w.sum())
    if coefficient == "fleiss_kappa":
        return (pi * pi).sum(axis=1) if w is None else np.einsum("bk,kl,bl->b", pi, w, pi)
    if coefficient == "gwet_ac1":
        if q < 2:
            return np.ones(len(pi))
        return w_sum * (pi * (1.0 - pi)).sum(axis=1) / (q * (q - 1))
    return np.full(len(pi), w_sum / q**2)  # brennan_prediger


def beyond_chance(observed: Any, chance: Any) -> np.ndarray:
    """Agreement beyond chance :math:`(p_a - p_e) / (1 - p_e)` (NaN where :math:`p_e = 1`).

    Parameters
    ----------
    observed, chance : float or array_like
        Observed agreement :math:`p_a` and chance agreement :math:`p_e` (broadcast).

    Returns
    -------
    ndarray

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educational and
    Psychological Measurement* 20(1), 37-46, equation 1 (the form every kappa-type
    coefficient shares; Artstein & Poesio 2008, section 2).

    Examples
    --------
    >>> float(beyond_chance(0.9, 0.82).round(3))
    0.444
    """
    po, pe = np.asarray(observed, dtype=float), np.asarray(chance, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (po - pe) / (1.0 - pe)
