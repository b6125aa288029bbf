"""Analytic standard errors of the agreement coefficients, with any agreement weights.

Every function takes the agreement weights :math:`w_{kl}` as a matrix (None: identity), so
each works with any weight family. Each returns an :class:`Analytic`: the standard error,
the degrees of freedom of its t interval, and the formula's source. ``population`` is
the size :math:`N` of the population of items the data were drawn from (None: infinite);
it multiplies every variance by the finite-population correction :math:`1 - n/N`
(Gwet 2014, section 5.3), which ``irrCAC`` calls ``N``.

- :func:`fleiss_family_se`: Fleiss' kappa, Gwet's AC1/AC2 and Brennan-Prediger
  (Gwet 2008, 2014), on any missing-data pattern;
- :func:`conger_se`: Conger's kappa (Gwet 2014, as ``irrCAC``'s ``conger.kappa.raw``);
- :func:`alpha_se`: Krippendorff's alpha with a distance that does not depend on the
  data (nominal, interval, ratio), through its weights :math:`w = 1 - \\delta/\\max\\delta`;
- :func:`percent_se`: percent agreement, a ratio of sums over items (Cochran 1977);
- :func:`pair_table_se`: Cohen's kappa (Fleiss, Cohen & Everitt 1969) and Scott's pi
  (Gwet 2014) of two annotators, weighted or not.

Notation: item :math:`i` has :math:`r_{ik}` judgements in category :math:`k`,
:math:`r_i = \\sum_k r_{ik}`, :math:`r^\\star_{ik} = \\sum_l w_{kl} r_{il}`; :math:`n`
items, :math:`n'` of them with :math:`r_i \\ge 2`. Each variance is the variance of a mean
of per-item terms :math:`\\kappa^\\star_i` (the coefficient's linearisation),

.. math:: v(\\hat\\kappa) = \\frac{1 - n/N}{n (n - 1)} \\sum_i (\\kappa^\\star_i - \\hat\\kappa)^2 .

References
----------
Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence of
high agreement. *British Journal of Mathematical and Statistical Psychology* 61(1), 29-48.
Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., Advanced Analytics,
chapters 5-6 (variances of the chance-corrected coefficients, the finite-population
correction).
Fleiss, J. L., Cohen, J., & Everitt, B. S. (1969). Large sample standard errors of kappa
and weighted kappa. *Psychological Bulletin* 72(5), 323-327.
Cochran, W. G. (1977). *Sampling Techniques*, 3rd ed., Wiley, section 6.4 (variance of a
ratio estimate).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scipy import stats as sps

from analytics.agreement.chance import beyond_chance, chance_from_shares
from analytics.agreement.prepared import Prepared

__all__ = [
    "Analytic",
    "alpha_se",
    "conger_se",
    "fleiss_family_se",
    "pair_table_se",
    "percent_se",
    "t_interval",
]

GWET = "analytic SE (Gwet 2014)"
FCE = "analytic SE (Fleiss, Cohen & Everitt 1969)"
RATIO = "analytic SE (ratio linearisation, Cochran 1977)"


@dataclass(frozen=True)
class Analytic:
    """An analytic standard error.

    Attributes
    ----------
    se : float
        The standard error (NaN when undefined, e.g. fewer than two items).
    df : int
        Degrees of freedom of the t interval and test (items - 1, as ``irrCAC``).
    method : str
        The formula's source, e.g. ``"analytic SE (Gwet 2014)"``.
    """

    se: float
    df: int
    method: str


def _fpc(n: int, population: float | None) -> float:
    """The finite-population correction :math:`1 - n/N` (1 when ``population`` is None)."""
    if population is None or not np.isfinite(population):
        return 1.0
    return max(0.0, 1.0 - n / float(population))


def _mean_se(
    k_i: np.ndarray, centre: float, population: float | None, method: str, sampled: int = 0
) -> Analytic:
    """SE of a mean of the per-item linearised terms ``k_i`` around ``centre``.

    ``sampled``: the items drawn from the population (default ``len(k_i)``), for the
    finite-population correction.
    """
    n = len(k_i)
    if n < 2:
        return Analytic(float("nan"), max(n - 1, 0), method)
    var = _fpc(sampled or n, population) * float(((k_i - centre) ** 2).sum()) / (n * (n - 1))
    return Analytic(float(np.sqrt(max(var, 0.0))), n - 1, method)


def t_interval(
    value: float, a: Analytic, confidence: float, cap: bool = True
) -> tuple[float, float, float]:
    """``(low, high, p_value)``: value :math:`\\pm t_{df,(1+c)/2}` SE and the two-sided test.

    The upper end is capped at 1 (as ``irrCAC``) unless ``cap=False`` (the caller then
    keeps the interval in range itself, as :func:`~analytics.agreement.ranges.clip_interval`
    does, saying so); the p-value tests "no agreement beyond
    chance" (coefficient 0) with :math:`t = \\hat\\kappa / SE` on ``df`` degrees of freedom.
    NaN when the SE is NaN or 0.
    """
    # a standard error within rounding of zero (three items, two annotators who never
    # agree: 5.9e-17) is zero: no interval and no p-value, not "p < 0.001"
    if not (
        np.isfinite(a.se)
        and a.se > 1e-12 * max(1.0, abs(value))
        and a.df >= 1
        and np.isfinite(value)
    ):
        return float("nan"), float("nan"), float("nan")
    half = float(sps.t.ppf(0.5 + confidence / 2.0, a.df)) * a.se
    p = float(2.0 * sps.t.sf(abs(value) / a.se, a.df))
    return value - half, min(1.0, value + half) if cap else value + half, p


DENSE_CELLS = 20_000_000
"""Items x categories tables up to this size are used dense (faster than sparse for few
categories); larger ones stay sparse, so many categories cost no dense copy."""


def _counts(p: Prepared) -> np.ndarray | sparse.csr_matrix:
    """The items x categories counts :math:`r_{ik}`, dense when small enough."""
    if p.counts.shape[0] * p.counts.shape[1] <= DENSE_CELLS:
        return p.dense_counts
    return p.counts.astype(float)


def _row_dot(
    c: np.ndarray | sparse.csr_matrix, other: np.ndarray | sparse.csr_matrix
) -> np.ndarray:
    """Per row, :math:`\\sum_k c_{ik}\\, o_{ik}` (``c`` dense or sparse)."""
    if sparse.issparse(c):
        return np.asarray(c.multiply(other).sum(axis=1)).ravel()
    return np.einsum("ik,ik->i", c, other)


def _matvec(c: np.ndarray | sparse.csr_matrix, v: np.ndarray) -> np.ndarray:
    """``c @ v`` (items); einsum for dense ``c``: numpy's matmul is slow for few columns."""
    if sparse.issparse(c):
        return np.asarray(c @ v).ravel()
    return np.einsum("ik,k->i", c, v)


def _colsum(c: np.ndarray | sparse.csr_matrix, x: np.ndarray | None = None) -> np.ndarray:
    """``c.T @ x`` (categories), or the column sums when ``x`` is None."""
    if sparse.issparse(c):
        return np.asarray(c.sum(axis=0) if x is None else c.T @ x).ravel()
    return np.einsum("ik->k", c) if x is None else np.einsum("ik,i->k", c, x)


def _weighted(c: np.ndarray | sparse.csr_matrix, w: np.ndarray | None):
    """:math:`r^\\star_{ik} = \\sum_l w_{kl} r_{il}` (``c @ w.T``; ``c`` itself unweighted)."""
    if w is None:
        return c
    return c @ w.T if sparse.issparse(c) else np.einsum("il,kl->ik", c, w)


def _agreement_terms(p: Prepared, w: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Per item :math:`p_{a|i} = \\sum_k r_{ik}(r^\\star_{ik} - 1) / (r_i(r_i - 1))` (0 if
    :math:`r_i < 2`) and the indicator :math:`r_i \\ge 2`."""
    c = _counts(p)
    n_i = p.n_i.astype(float)
    sum_q = _row_dot(c, _weighted(c, w)) - n_i
    two = n_i >= 2
    return np.where(two, sum_q / np.maximum(n_i * (n_i - 1), 1), 0.0), two


def fleiss_family_se(
    p: Prepared, w: np.ndarray | None, which: str, population: float | None = None
) -> Analytic:
    """Gwet's linearised SE of Fleiss' kappa, AC1/AC2 or Brennan-Prediger.

    Parameters
    ----------
    p : Prepared
        The prepared data (:func:`~analytics.agreement.prepared.prepare`).
    w : ndarray of shape (q, q), or None
        Agreement weights (None: identity, unweighted).
    which : {"fleiss_kappa", "gwet_ac1", "brennan_prediger"}
        The coefficient.
    population : float, optional
        Items in the population (finite-population correction); None: infinite.

    Returns
    -------
    Analytic
        NaN with fewer than two items, or when chance agreement is 1.

    Notes
    -----
    .. math:: \\kappa^\\star_i = \\frac{n}{n'}\\frac{p_{a|i} - p_e [r_i \\ge 2]}{1 - p_e}
              - 2 (1 - \\hat\\kappa) \\frac{p_{e|i} - p_e}{1 - p_e}

    with :math:`p_{e|i}` the item's share of chance agreement: Fleiss
    :math:`\\sum_k r_{ik} \\bar\\pi_k / r_i` with :math:`\\bar\\pi_k = \\sum_l (w_{kl} +
    w_{lk}) \\pi_l / 2`; AC1/AC2 :math:`\\frac{\\sum w}{q(q-1)} \\sum_k r_{ik}
    (1 - \\pi_k) / r_i`; Brennan-Prediger :math:`p_e` itself (its chance term is fixed).
    This is ``irrCAC``'s ``fleiss.kappa.raw``, ``gwet.ac1.raw`` and ``bp.coeff.raw``.

    References
    ----------
    Gwet, K. L. (2008). *British Journal of Mathematical and Statistical Psychology*
    61(1), 29-48, equations 28-31.
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., chapter 5.
    """
    c = _counts(p)
    n_i = np.maximum(p.n_i.astype(float), 1.0)
    n, q = len(n_i), p.q
    pa_i, two = _agreement_terms(p, w)
    n2 = int(two.sum())
    if n < 2 or n2 == 0:
        return Analytic(float("nan"), max(n - 1, 0), GWET)
    pa = pa_i.sum() / n2
    pi = _colsum(c, 1.0 / n_i) / n
    pe = float(chance_from_shares(which, pi, w)[0])
    if np.isclose(pe, 1.0):
        return Analytic(float("nan"), n - 1, GWET)
    if which == "fleiss_kappa":
        pe_i = _matvec(c, pi if w is None else (w @ pi + w.T @ pi) / 2.0) / n_i
    elif which == "gwet_ac1":
        w_sum = q if w is None else w.sum()
        pe_i = w_sum / (q * (q - 1)) * _matvec(c, 1 - pi) / n_i
    else:
        pe_i = np.full(n, pe)
    kappa = float(beyond_chance(pa, pe))
    k_i = (n / n2) * (pa_i - pe * two) / (1 - pe) - 2 * (1 - kappa) * (pe_i - pe) / (1 - pe)
    return _mean_se(k_i, kappa, population, GWET)


def conger_se(p: Prepared, w: np.ndarray | None, population: float | None = None) -> Analytic:
    """Gwet's linearised SE of Conger's kappa (weighted or not).

    Parameters
    ----------
    p : Prepared
        The prepared data (one judgement per annotator and item).
    w : ndarray of shape (q, q), or None
        Agreement weights (None: identity; then no q x q array is built).
    population : float, optional
        Items in the population (finite-population correction); None: infinite.

    Returns
    -------
    Analytic
        NaN with fewer than two items or annotators, or when chance agreement is 1.

    Notes
    -----
    With :math:`p_{gk}` the share of annotator :math:`g`'s :math:`n_g` judgements in
    category :math:`k`, :math:`r` annotators, :math:`A_{gk} = \\sum_h p_{hk} - p_{gk}`,
    :math:`B = A W` and :math:`c_g = \\sum_l B_{gl} p_{gl}`, item :math:`i`'s share of
    chance agreement is

    .. math:: p_{e|i} = \\frac{1}{r(r-1)} \\Big(\\sum_g c_g + \\sum_{g \\text{ judged } i}
              \\frac{n}{n_g} (B_{g, l_{ig}} - c_g)\\Big),

    the closed form of ``irrCAC``'s per-rater loop :math:`\\lambda_{ig}` (Gwet 2014), and
    :math:`\\kappa^\\star_i` is as in :func:`fleiss_family_se`. Cost: one pass over the
    judgements, an annotators x categories table; no items x annotators array.

    References
    ----------
    Conger, A. J. (1980). Integration and generalization of kappas for multiple raters.
    *Psychological Bulletin* 88(2), 322-328.
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., chapter 5
    (``conger.kappa.raw`` in the ``irrCAC`` packages).
    """
    n, q, r = p.ann.n_items, p.q, p.ann.n_annotators
    pa_i, two = _agreement_terms(p, w)
    n2 = int(two.sum())
    if n < 2 or n2 == 0 or r < 2:
        return Analytic(float("nan"), max(n - 1, 0), GWET)
    classif = np.bincount(p.annotator * q + p.label, minlength=r * q).reshape(r, q).astype(float)
    n_g = classif.sum(axis=1)
    active = n_g > 0
    pgk = classif / np.where(active, n_g, 1.0)[:, None]
    pbar = pgk.sum(axis=0) / r
    if w is None:  # the diagonal only: no q x q array (10,000 categories would be 800 MB)
        s2_diag = ((pgk * pgk).sum(axis=0) - r * pbar**2) / (r - 1)
        pe = float((pbar**2 - s2_diag / r).sum())
    else:
        s2 = (pgk.T @ pgk - r * np.outer(pbar, pbar)) / (r - 1)
        pe = float((w * (np.outer(pbar, pbar) - s2 / r)).sum())
    if np.isclose(pe, 1.0):
        return Analytic(float("nan"), n - 1, GWET)
    pa = pa_i.sum() / n2
    kappa = float(beyond_chance(pa, pe))
    a_gk = r * pbar[None, :] - pgk
    b = a_gk if w is None else a_gk @ w
    c_g = (b * pgk).sum(axis=1)
    g, lab = p.annotator, p.label
    contrib = (n / np.where(active, n_g, 1.0)[g]) * (b[g, lab] - c_g[g])
    pe_i = (c_g.sum() + np.bincount(p.item, weights=contrib, minlength=n)) / (r * (r - 1))
    k_i = (n / n2) * (pa_i - pe * two) / (1 - pe) - 2 * (1 - kappa) * (pe_i - pe) / (1 - pe)
    return _mean_se(k_i, kappa, population, GWET)


def alpha_se(p: Prepared, w: np.ndarray | None, population: float | None = None) -> Analytic:
    """Gwet's linearised SE of Krippendorff's alpha, for weights that do not depend on data.

    Parameters
    ----------
    p : Prepared
        The prepared data.
    w : ndarray of shape (q, q), or None
        :math:`1 - \\delta_{kl} / \\max \\delta` for alpha's distance :math:`\\delta` (alpha is
        unchanged when :math:`\\delta` is scaled); None: nominal.
    population : float, optional
        Items in the population; the sampling fraction counts every item, pairable or not.

    Returns
    -------
    Analytic
        Its ``df`` is the pairable items - 1 (as ``irrCAC``).

    Notes
    -----
    Over the :math:`n'` items with :math:`r_i \\ge 2`, with :math:`\\bar r` their mean
    number of judgements, :math:`p'_{a|i} = \\sum_k r_{ik}(r^\\star_{ik}-1)/(\\bar r
    (r_i - 1))`, :math:`\\pi_k = \\sum_i r_{ik} / (n' \\bar r)` and :math:`\\alpha' =
    (p'_a - p_e)/(1 - p_e)`:

    .. math:: \\alpha^\\star_i = \\frac{p'_{a|i} - p_a (r_i - \\bar r)/\\bar r - p_e}{1 - p_e}
              - 2 (1 - \\alpha') \\frac{p_{e|i} - p_e}{1 - p_e},

    :math:`p_{e|i} = \\sum_k r_{ik} \\bar\\pi_k / \\bar r - p_e (r_i - \\bar r)/\\bar r`, and
    the variance is that of a mean of :math:`n'` terms around :math:`\\alpha'` (as
    ``irrCAC``'s ``krippen.alpha.raw``). Krippendorff's ordinal distance depends on the
    category frequencies, so its alpha has no such formula (use the bootstrap).

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., chapter 6
    (Krippendorff's alpha and its variance).
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School
    for Communication, University of Pennsylvania.
    """
    keep = p.n_i >= 2
    c = _counts(p)[keep]
    r_i = p.n_i[keep].astype(float)
    n = len(r_i)
    if n < 2:
        return Analytic(float("nan"), max(n - 1, 0), GWET)
    r_bar = r_i.mean()
    sum_q = _row_dot(c, _weighted(c, w)) - r_i
    eps = 1.0 / r_i.sum()
    pa_prime_i = sum_q / (r_bar * (r_i - 1))
    pa_prime = pa_prime_i.mean()
    pa = (1 - eps) * pa_prime + eps
    pi = _colsum(c) / (n * r_bar)
    pe = float(chance_from_shares("fleiss_kappa", pi, w)[0])
    if np.isclose(pe, 1.0):
        return Analytic(float("nan"), n - 1, GWET)
    alpha_prime = (pa_prime - pe) / (1 - pe)
    a_i = (pa_prime_i - pa * (r_i - r_bar) / r_bar - pe) / (1 - pe)
    pi_w = pi if w is None else (w @ pi + w.T @ pi) / 2.0
    pe_i = _matvec(c, pi_w) / r_bar - pe * (r_i - r_bar) / r_bar
    a_i = a_i - 2 * (1 - alpha_prime) * (pe_i - pe) / (1 - pe)
    # the sampling fraction counts every item drawn, pairable or not (as irrCAC)
    return _mean_se(a_i, alpha_prime, population, GWET, sampled=p.ann.n_items)


def percent_se(p: Prepared, population: float | None = None) -> Analytic:
    """SE of percent agreement :math:`p_o = \\sum_i a_i / \\sum_i b_i`, a ratio of sums.

    Parameters
    ----------
    p : Prepared
        The prepared data (single-label; multi-label data compare whole label sets).
    population : float, optional
        Items in the population (finite-population correction); None: infinite.

    Returns
    -------
    Analytic

    Examples
    --------
    >>> import pandas as pd
    >>> from analytics.agreement.prepared import coders, prepare
    >>> df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3, 4, 4], "annotator": ["a", "b"] * 4,
    ...                    "label": ["x", "x", "y", "y", "x", "y", "y", "y"]})
    >>> round(percent_se(prepare(coders(df))).se, 4)  # sqrt(0.75 * 0.25 / 3)
    0.25

    Notes
    -----
    :math:`a_i = \\sum_k r_{ik}(r_{ik} - 1)` agreeing ordered pairs of judgements and
    :math:`b_i = r_i (r_i - 1)` all of them; the linearised terms are
    :math:`u_i = n (a_i - p_o b_i) / \\sum_j b_j`, whose mean is 0.

    References
    ----------
    Cochran, W. G. (1977). *Sampling Techniques*, 3rd ed., Wiley, section 6.4.
    """
    c = _counts(p)
    n_i = p.n_i.astype(float)
    n = len(n_i)
    a_i = _row_dot(c, c) - n_i
    b_i = n_i * (n_i - 1)
    if n < 2 or b_i.sum() == 0:
        return Analytic(float("nan"), max(n - 1, 0), RATIO)
    po = a_i.sum() / b_i.sum()
    return _mean_se(n * (a_i - po * b_i) / b_i.sum(), 0.0, population, RATIO)


def pair_table_se(
    la: np.ndarray,
    lb: np.ndarray,
    q: int,
    w: np.ndarray | None,
    which: str,
    population: float | None = None,
) -> Analytic:
    """Large-sample SE of two annotators' Cohen's kappa or Scott's pi (weighted or not).

    Parameters
    ----------
    la, lb : ndarray of int
        The two annotators' category codes on the items both judged.
    q : int
        Number of categories.
    w : ndarray of shape (q, q), or None
        Agreement weights (None: identity).
    which : {"cohen", "scott"}
        Chance agreement from each annotator's margins (Cohen) or the pooled ones (Scott).
    population : float, optional
        Items in the population (finite-population correction); None: infinite.

    Returns
    -------
    Analytic
        Its ``df`` is the shared items - 1.

    Notes
    -----
    With :math:`p_{kl}` the joint shares, :math:`p_{k\\cdot}`, :math:`p_{\\cdot l}` the
    margins, :math:`\\bar w_{k\\cdot} = \\sum_l w_{kl} p_{\\cdot l}` and
    :math:`\\bar w_{\\cdot l} = \\sum_k w_{kl} p_{k\\cdot}` (Cohen), or both replaced by
    their mean over the two margins (Scott):

    .. math:: v = \\frac{1 - n/N}{n (1 - p_e)^2} \\Big[\\sum_{kl} p_{kl}
              \\big(w_{kl} - (\\bar w_{k\\cdot} + \\bar w_{\\cdot l})(1 - \\hat\\kappa)\\big)^2
              - \\big(\\hat\\kappa - p_e (1 - \\hat\\kappa)\\big)^2\\Big]

    (Fleiss, Cohen & Everitt 1969, equations 12-13 for Cohen's kappa, weighted and not;
    Gwet 2014 for Scott's pi). The sum runs over the cells that occur: no q x q table is
    built when unweighted.

    References
    ----------
    Fleiss, J. L., Cohen, J., & Everitt, B. S. (1969). *Psychological Bulletin* 72(5),
    323-327.
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., chapter 5.
    """
    n = len(la)
    if n < 2:
        return Analytic(float("nan"), max(n - 1, 0), FCE if which == "cohen" else GWET)
    method = FCE if which == "cohen" else GWET
    cells, count = np.unique(la * q + lb, return_counts=True)
    k, m, prob = cells // q, cells % q, count / n
    row, col = np.bincount(la, minlength=q) / n, np.bincount(lb, minlength=q) / n
    if which == "scott":
        row = col = (row + col) / 2.0
    if w is None:
        w_km = (k == m).astype(float)
        wbar_row, wbar_col = col, row  # sum_l w_kl p_.l and sum_k w_kl p_k.
        pe = float(row @ col)
    else:
        w_km = w[k, m]
        wbar_row, wbar_col = w @ col, w.T @ row
        pe = float(row @ w @ col)
    if np.isclose(pe, 1.0):
        return Analytic(float("nan"), n - 1, method)
    kappa = float(beyond_chance(float((prob * w_km).sum()), pe))
    inner = (prob * (w_km - (wbar_row[k] + wbar_col[m]) * (1 - kappa)) ** 2).sum()
    centre = (kappa - pe * (1 - kappa)) ** 2
    # the difference of two equal sums (perfect agreement) is rounding noise, not variance:
    # its square root (1e-8) would depend on the order of the labels and give p = 1e-39
    spread = inner - centre if inner - centre > 1e-12 * max(inner, centre) else 0.0
    var = _fpc(n, population) * spread / (n * (1 - pe) ** 2)
    return Analytic(float(np.sqrt(max(var, 0.0))), n - 1, method)
