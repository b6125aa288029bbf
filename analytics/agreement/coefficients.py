"""How much do the annotators agree? Every standard coefficient, right on missing data.

Each coefficient takes an :class:`~analytics.data.model.Annotations` or a long DataFrame
(item, annotator, label) and returns a :class:`~analytics.agreement.prepared.Coefficient`,
a float that is NaN when undefined and carries ``note`` and ``items_used``:
:func:`percent_agreement`, :func:`cohen_kappa`, :func:`scott_pi`, :func:`fleiss_kappa`,
:func:`conger_kappa`, :func:`brennan_prediger`, :func:`gwet_ac1`; Krippendorff's alpha
and :func:`default_distance`, the alpha distance that suits the
label kind (both in :mod:`analytics.agreement.krippendorff`), and
:func:`~analytics.agreement.chance.chance_from_shares` the chance term of the Fleiss family.

Every coefficient is written as a function of sums over items of per-item statistics
(:class:`analytics._core.bootstrap.ItemStatistic`), which makes the point estimate one pass of
numpy over integer codes and the bootstrap a matrix product of multinomial item counts.
The ``build_*`` functions return a coefficient together with that statistic
(:data:`~analytics.agreement.prepared.Built`) for :func:`~analytics.agreement.agreement_report`.

Notation: item :math:`i` has :math:`r_{ik}` judgements in category :math:`k` and
:math:`r_i = \\sum_k r_{ik}`; :math:`q` categories; agreement weights :math:`w_{kl}`
(identity when unweighted). Multi-annotator kappa-type coefficients follow Gwet (2014,
*Handbook of Inter-Rater Reliability*, 4th ed., ch. 2-5) for missing judgements: the
observed agreement is averaged over the :math:`n'` items with :math:`r_i \\ge 2`,

.. math:: p_a = \\frac{1}{n'} \\sum_{i: r_i \\ge 2}
          \\sum_k \\frac{r_{ik}(r^\\star_{ik} - 1)}{r_i (r_i - 1)},
          \\qquad r^\\star_{ik} = \\sum_l w_{kl} r_{il},

which is Fleiss's (1971) :math:`\\bar P` when every item has the same number of
judgements. Artstein & Poesio (2008) survey the family and its notation. Agreement is
neither necessary nor sufficient for a good gold standard (Beigman Klebanov & Beigman
2009, section 3; Passonneau & Carpenter 2014, section 2.1).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy import sparse

from analytics._core.bootstrap import ItemStatistic
from analytics._core.budget import check_budget, estimate_bytes
from analytics._core.lazy import engine_answer, is_lazy, no_engine_weights
from analytics.agreement.annotator_pairs import pair_coefficient
from analytics.agreement.chance import beyond_chance, chance_from_shares
from analytics.agreement.prepared import (
    NO_PAIRS,
    ONE_CATEGORY,
    ONE_CATEGORY_RAW,
    Built,
    Coefficient,
    Prepared,
    Weights,
    coders,
    known_annotators_only,
    prepare,
    single_label_only,
    undefined,
)
from analytics.agreement.weights import agreement_weights
from analytics.data import Annotations

__all__ = [
    "brennan_prediger",
    "build_conger",
    "build_family",
    "build_percent",
    "cohen_kappa",
    "conger_kappa",
    "fleiss_kappa",
    "gwet_ac1",
    "percent_agreement",
    "scott_pi",
]


# ---------------------------------------------------------------------- percent agreement
def _percent_statistic(p: Prepared) -> ItemStatistic:
    c = p.counts
    agree = np.asarray(c.multiply(c).sum(axis=1)).ravel() - p.n_i
    pairs = (p.n_i * (p.n_i - 1)).astype(float)
    stats = np.column_stack([agree, pairs])

    def finish(t: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(t[:, 1] > 0, t[:, 0] / t[:, 1], np.nan)

    return ItemStatistic(stats, finish)


def build_percent(p: Prepared) -> Built:
    """Percent agreement and its bootstrap statistic (see :func:`percent_agreement`)."""
    if p.n_pairable == 0:
        return undefined(NO_PAIRS), None
    if np.count_nonzero(np.asarray(p.counts.sum(axis=0)).ravel()) < 2:
        # Degenerate data give NaN with a reason, never a 1 (the guide and issue 3): with one
        # category in use the 100% is an artefact of the data, not evidence of agreement.
        return undefined(ONE_CATEGORY_RAW, p.n_pairable), None
    stat = _percent_statistic(p)
    return Coefficient(stat.value(), "", p.n_pairable), stat


def percent_agreement(ann: Annotations | pd.DataFrame) -> Coefficient:
    """Share of agreeing pairs among all pairs of judgements of the same item.

    Parameters
    ----------
    ann : Annotations or DataFrame
        The judgements (a long DataFrame: item, annotator, label).

    Returns
    -------
    Coefficient
        NaN with a reason when no item has two judgements or one category is all there is.

    Notes
    -----
    .. math:: p_o = \\frac{\\sum_i \\sum_k r_{ik} (r_{ik} - 1)}{\\sum_i r_i (r_i - 1)}

    Every annotator pair counts once on every item both judged, so this is the mean over
    annotator pairs of their agreement on shared items, each pair weighted by how many
    items it shares (with complete data, the plain mean over pairs: NLTK's ``avg_Ao``).
    Not chance-corrected. Multi-label data compare whole label sets.

    References
    ----------
    Passonneau, R. J., & Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, section 2, *Agreement*: A_{m,n} for a pair and A,
    its mean over the pairs of annotators.
    Artstein, R., & Poesio, M. (2008). Inter-coder agreement for computational
    linguistics. *Computational Linguistics* 34(4), 555-596, section 2 (observed
    agreement, chance correction, more than two coders).

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3], "annotator": ["a", "b"] * 3,
    ...                    "label": ["x", "x", "y", "y", "x", "y"]})
    >>> round(percent_agreement(df), 3)
    0.667
    """
    if is_lazy(ann):
        return engine_answer("percent_agreement", ann)
    return build_percent(prepare(coders(ann)))[0]


# ---------------------------------------------------------------------- Fleiss family
def _fleiss_family_stats(p: Prepared, w: np.ndarray | None) -> sparse.csr_matrix:
    """Per item: ``[pa_i, [r_i >= 2], 1, r_ik / r_i (q columns)]`` (``w`` None: identity)."""
    c = p.counts.astype(float)
    n_i = p.n_i.astype(float)
    if w is None:
        sum_q = np.asarray(c.multiply(c).sum(axis=1)).ravel() - n_i
    else:
        cw = np.asarray(c @ w.T)
        sum_q = np.asarray(c.multiply(cw - 1.0).sum(axis=1)).ravel()
    two = n_i >= 2
    pa_i = np.where(two, sum_q / np.maximum(n_i * (n_i - 1), 1), 0.0)
    share = sparse.diags(1.0 / np.maximum(n_i, 1)) @ c
    head = sparse.csr_matrix(np.column_stack([pa_i, two.astype(float), np.ones_like(n_i)]))
    return sparse.hstack([head, share], format="csr")


def _fleiss_family_statistic(p: Prepared, w: np.ndarray | None, which: str) -> ItemStatistic:
    stats = _fleiss_family_stats(p, w)

    def finish(t: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            pa = t[:, 0] / t[:, 1]
            pi = t[:, 3:] / t[:, [2]]
            pe = chance_from_shares(which, pi, w)
            value = beyond_chance(pa, pe)
        degenerate = (t[:, 1] == 0) | ((pi > 0).sum(axis=1) < 2) | np.isclose(pe, 1.0)
        return np.where(degenerate, np.nan, value)

    return ItemStatistic(stats, finish)


def _fleiss_note(p: Prepared) -> str:
    n = p.n_i[p.n_i >= 2]
    if len(n) and n.min() != n.max():
        return (
            f"items have {n.min()}-{n.max()} judgements: observed agreement averaged over the "
            f"{len(n):,} items with 2+ (Gwet 2014's form for missing judgements)"
        )
    return ""


def build_family(p: Prepared, weights: Weights, which: str, name: str) -> Built:
    """A coefficient of the Fleiss family (``which`` in :data:`FLEISS_FAMILY`) and its statistic."""
    bad = single_label_only(p.ann, name)
    if bad is not None:
        return bad, None
    if p.n_pairable == 0:
        return undefined(NO_PAIRS), None
    w, wlabel = agreement_weights(p.ann, weights)
    stat = _fleiss_family_statistic(p, w, which)
    value = stat.value()
    if np.isnan(value):
        return undefined(ONE_CATEGORY, p.n_pairable), None
    note = "; ".join(x for x in (wlabel, _fleiss_note(p)) if x)
    return Coefficient(value, note, p.n_pairable), stat


def fleiss_kappa(ann: Annotations | pd.DataFrame, weights: Weights = None) -> Coefficient:
    """Fleiss's (1971) kappa, the multi-annotator Scott's pi (weighted: Gwet 2014).

    Parameters
    ----------
    ann : Annotations or DataFrame
        Single-label judgements (multi-label data give NaN with a reason).
    weights : None, str or array_like, default None
        Agreement weights: a family of :data:`~analytics.agreement.WEIGHT_FAMILIES`
        (``"linear"``, ``"quadratic"``, ``"ordinal"``, ``"radical"``, ``"ratio"``,
        ``"circular"``, ``"bipolar"``, ``"identity"``) or a q x q matrix
        (:func:`~analytics.agreement.weights.weight_matrix`); None: unweighted.

    Returns
    -------
    Coefficient

    Notes
    -----
    .. math:: \\kappa_F = \\frac{p_a - p_e}{1 - p_e},\\qquad
              p_e = \\sum_{kl} w_{kl} \\pi_k \\pi_l,\\qquad \\pi_k = \\frac{1}{n} \\sum_i \\frac{r_{ik}}{r_i}

    This is Siegel & Castellan's K (Beigman Klebanov & Beigman 2009, equation 2) and
    Fleiss (1971) with complete data; with unequal numbers of judgements per
    item, Gwet's (2014) generalisation (as in ``irrCAC``).

    References
    ----------
    Beigman Klebanov, B., & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4), 495-503, section 3.3, equation 2: Siegel & Castellan's K
    (P_E, p_j, P_A, P_{A_i}), which is Fleiss' kappa with every item judged by k annotators.
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin* 76(5), 378-382.
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., Advanced Analytics
    (Fleiss' kappa with missing ratings).

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3, 4, 4], "annotator": ["a", "b"] * 4,
    ...                    "label": ["x", "x", "y", "y", "x", "y", "y", "y"]})
    >>> round(fleiss_kappa(df), 3)
    0.467
    """
    if is_lazy(ann):
        return engine_answer("fleiss_kappa", ann, weights)
    return build_family(prepare(coders(ann)), weights, "fleiss_kappa", "Fleiss' kappa")[0]


def gwet_ac1(ann: Annotations | pd.DataFrame, weights: Weights = None) -> Coefficient:
    """Gwet's AC1 (AC2 when weighted), paradox-resistant chance correction.

    Parameters
    ----------
    ann : Annotations or DataFrame
        Single-label judgements.
    weights : None, str or array_like, default None
        None (AC1); a family of :data:`~analytics.agreement.WEIGHT_FAMILIES` or a q x q
        matrix of agreement weights (AC2).

    Returns
    -------
    Coefficient

    Notes
    -----
    .. math:: p_e = \\frac{\\sum_{kl} w_{kl}}{q (q - 1)} \\sum_k \\pi_k (1 - \\pi_k)

    Uses every item with two or more judgements for :math:`p_a` and every judgement
    for :math:`\\pi_k` (as ``irrCAC``'s ``gwet.ac1.raw``).

    References
    ----------
    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence
    of high agreement. *British Journal of Mathematical and Statistical Psychology* 61(1),
    29-48.
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed. (AC1 and AC2 with
    missing ratings).
    """
    if is_lazy(ann):
        return engine_answer("gwet_ac1", ann, weights)
    return build_family(prepare(coders(ann)), weights, "gwet_ac1", "Gwet's AC1")[0]


def brennan_prediger(ann: Annotations | pd.DataFrame, weights: Weights = None) -> Coefficient:
    """Brennan & Prediger's (1981) coefficient: chance agreement :math:`p_e = 1/q`.

    Parameters
    ----------
    ann : Annotations or DataFrame
        Single-label judgements.
    weights : None, str or array_like, default None
        Agreement weights: a family of :data:`~analytics.agreement.WEIGHT_FAMILIES`
        (``"linear"``, ``"quadratic"``, ``"ordinal"``, ``"radical"``, ``"ratio"``,
        ``"circular"``, ``"bipolar"``, ``"identity"``) or a q x q matrix
        (:func:`~analytics.agreement.weights.weight_matrix`); None: unweighted.

    Returns
    -------
    Coefficient

    Notes
    -----
    .. math:: \\kappa_{BP} = \\frac{p_a - p_e}{1 - p_e},\\qquad
              p_e = \\frac{\\sum_{kl} w_{kl}}{q^2} \\;(= 1/q \\text{ unweighted})

    :math:`q` is the number of declared categories (used or not), so declaring more
    categories raises the value.

    References
    ----------
    Brennan, R. L., & Prediger, D. J. (1981). Coefficient kappa: some uses, misuses, and
    alternatives. *Educational and Psychological Measurement* 41(3), 687-699.
    """
    if is_lazy(ann):
        return engine_answer("brennan_prediger", ann, weights)
    return build_family(prepare(coders(ann)), weights, "brennan_prediger", "Brennan-Prediger")[0]


# ---------------------------------------------------------------------- Conger
def _conger_statistic(p: Prepared, w: np.ndarray | None) -> ItemStatistic:
    a, q = p.ann.n_annotators, p.q
    head = _fleiss_family_stats(p, w)[:, :2]
    classif = sparse.csr_matrix(
        (np.ones(len(p.item)), (p.item, p.annotator * q + p.label)), shape=(p.ann.n_items, a * q)
    )
    stats = sparse.hstack([head, classif], format="csr")

    def finish(t: np.ndarray) -> np.ndarray:
        pa = t[:, 0] / np.where(t[:, 1] > 0, t[:, 1], np.nan)
        cl = t[:, 2:].reshape(len(t), a, q)
        n_g = cl.sum(axis=2)
        active = n_g > 0
        r = active.sum(axis=1).astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            pgk = np.where(active[..., None], cl / np.where(active, n_g, 1.0)[..., None], 0.0)
            pbar = pgk.sum(axis=1) / r[:, None]
            # sum_kl w_kl (mean_outer - s2 / r), without the q x q outer products:
            # (r^2 pbar' W pbar - sum_g p_g' W p_g) / (r (r - 1))
            if w is None:
                own = np.einsum("bgk,bgk->b", pgk, pgk)
                mean = (pbar * pbar).sum(axis=1)
            else:
                own = np.einsum("bgk,bgk->b", pgk @ w.T, pgk)
                mean = np.einsum("bk,kl,bl->b", pbar, w, pbar)
            pe = (r**2 * mean - own) / (r * (r - 1.0))
            value = beyond_chance(pa, pe)
        degenerate = (r < 2) | ((pbar > 0).sum(axis=1) < 2) | np.isclose(pe, 1.0)
        return np.where(degenerate, np.nan, value)

    return ItemStatistic(stats, finish)


def build_conger(p: Prepared, weights: Weights = None) -> Built:
    """Conger's kappa and its bootstrap statistic (see :func:`conger_kappa`)."""
    ann = p.ann
    bad = single_label_only(ann, "Conger's kappa") or known_annotators_only(ann, "Conger's kappa")
    if bad is not None:
        return bad, None
    if ann.n_annotators < 2:
        who = "no annotator" if ann.n_annotators == 0 else "only one annotator"
        return undefined(f"{who}: Conger's kappa compares annotators"), None
    if p.n_pairable == 0:
        return undefined(NO_PAIRS), None
    check_budget(
        estimate_bytes(ann.n_annotators * p.q, copies=6),
        f"Conger's kappa of {ann.n_annotators:,} annotators x {p.q:,} categories",
        "Use Fleiss' kappa or Light's mean (agreement_report has both), or a subset.",
    )
    w, wlabel = agreement_weights(ann, weights)
    stat = _conger_statistic(p, w)
    value = stat.value()
    if np.isnan(value):
        return undefined(ONE_CATEGORY, p.n_pairable), None
    notes = [wlabel, _fleiss_note(p)]
    if p.repeats:
        notes.append(
            "repeated judgements: each annotator's last judgement of an item gives the marginals"
        )
    return Coefficient(value, "; ".join(n for n in notes if n), p.n_pairable), stat


def conger_kappa(ann: Annotations | pd.DataFrame, weights: Weights = None) -> Coefficient:
    """Conger's (1980) kappa, the multi-annotator Cohen's kappa (weighted: Gwet 2014).

    Parameters
    ----------
    ann : Annotations or DataFrame
        Single-label judgements by two or more annotators.
    weights : None, str or array_like, default None
        Agreement weights: a family of :data:`~analytics.agreement.WEIGHT_FAMILIES` or a
        q x q matrix (:func:`~analytics.agreement.weights.weight_matrix`); None: unweighted.

    Returns
    -------
    Coefficient

    Notes
    -----
    Chance agreement averages Cohen's pairwise chance agreement over annotator pairs,

    .. math:: p_e = \\sum_{kl} w_{kl} \\left(\\bar p_k \\bar p_l - s^2_{kl} / r\\right)

    with :math:`p_{gk}` the share of annotator :math:`g`'s judgements in category
    :math:`k`, :math:`\\bar p_k` its mean over the :math:`r` annotators and :math:`s^2_{kl}`
    their covariance (as ``irrCAC``'s ``conger.kappa.raw``). Each annotator's shares are
    over the items they judged.

    References
    ----------
    Conger, A. J. (1980). Integration and generalization of kappas for multiple raters.
    *Psychological Bulletin* 88(2), 322-328.
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed. (Conger's kappa
    with missing ratings).
    """
    if is_lazy(ann):
        no_engine_weights(ann, weights, "Conger's kappa")
        return engine_answer("conger_kappa", ann)
    return build_conger(prepare(coders(ann)), weights)[0]


# ---------------------------------------------------------------------- Cohen, Scott
def cohen_kappa(
    ann: Annotations | pd.DataFrame, a: Any = None, b: Any = None, weights: Weights = None
) -> Coefficient:
    """Cohen's (1960) kappa between annotators ``a`` and ``b`` on the items both judged.

    Parameters
    ----------
    ann : Annotations or DataFrame
        Single-label judgements.
    a, b : annotator name, optional
        The two annotators. With neither, Light's (1971) kappa: the mean of the pairwise
        kappas over the annotator pairs that share items.
    weights : None, str or array_like, default None
        Agreement weights: a family of :data:`~analytics.agreement.WEIGHT_FAMILIES`
        (``"linear"``, ``"quadratic"``, ``"ordinal"``, ``"radical"``, ``"ratio"``,
        ``"circular"``, ``"bipolar"``, ``"identity"``) or a q x q matrix
        (:func:`~analytics.agreement.weights.weight_matrix`); None: unweighted.

    Returns
    -------
    Coefficient

    Notes
    -----
    .. math:: \\kappa = \\frac{p_o - p_e}{1 - p_e},\\quad
              p_o = \\sum_{kl} w_{kl} p_{kl},\\quad p_e = \\sum_{kl} w_{kl} p_{k\\cdot} p_{\\cdot l}

    References
    ----------
    Passonneau, R. J., & Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, section 2, *Chance-Adjusted Agreement*: IA_{m,n} =
    (A_{m,n} - C_{m,n}) / (1 - C_{m,n}) with Cohen's chance C_{m,n} = sum_k psi_{m,k} psi_{n,k}.
    Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educational and
    Psychological Measurement* 20(1), 37-46, equation 1.
    Cohen, J. (1968). Weighted kappa: nominal scale agreement with provision for scaled
    disagreement or partial credit. *Psychological Bulletin* 70(4), 213-220.
    Light, R. J. (1971). Measures of response agreement for qualitative data.
    *Psychological Bulletin* 76(5), 365-377.

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3, 4, 4], "annotator": ["a", "b"] * 4,
    ...                    "label": ["x", "x", "y", "y", "x", "y", "y", "y"]})
    >>> round(cohen_kappa(df, "a", "b"), 3)
    0.5
    """
    if is_lazy(ann):
        return engine_answer("cohen_kappa", ann, a, b, weights)
    return pair_coefficient(coders(ann), a, b, weights, "cohen", "Cohen's kappa")


def scott_pi(
    ann: Annotations | pd.DataFrame, a: Any = None, b: Any = None, weights: Weights = None
) -> Coefficient:
    """Scott's (1955) pi: chance agreement from the two annotators' pooled distribution.

    Parameters
    ----------
    ann : Annotations or DataFrame
        Single-label judgements.
    a, b : annotator name, optional
        The two annotators; with neither, the mean over annotator pairs (for the
        multi-annotator generalisation, see :func:`fleiss_kappa`).
    weights : None, str or array_like, default None
        Agreement weights: a family of :data:`~analytics.agreement.WEIGHT_FAMILIES`
        (``"linear"``, ``"quadratic"``, ``"ordinal"``, ``"radical"``, ``"ratio"``,
        ``"circular"``, ``"bipolar"``, ``"identity"``) or a q x q matrix
        (:func:`~analytics.agreement.weights.weight_matrix`); None: unweighted.

    Returns
    -------
    Coefficient

    Notes
    -----
    .. math:: \\pi = \\frac{p_o - p_e}{1 - p_e},\\qquad
              p_e = \\sum_{kl} w_{kl} \\bar p_k \\bar p_l,\\qquad
              \\bar p_k = \\frac{p_{k\\cdot} + p_{\\cdot k}}{2}

    References
    ----------
    Passonneau, R. J., & Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, section 2, *Chance-Adjusted Agreement*: the pooled
    chance C'_{m,n} = sum_k phi_k^2, which Scott's pi uses for a pair.
    Scott, W. A. (1955). Reliability of content analysis: the case of nominal scale
    coding. *Public Opinion Quarterly* 19(3), 321-325.
    """
    if is_lazy(ann):
        no_engine_weights(ann, weights, "Scott's pi")
        return engine_answer("scott_pi", ann, a, b)
    return pair_coefficient(coders(ann), a, b, weights, "scott", "Scott's pi")
