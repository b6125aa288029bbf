"""Every agreement coefficient with a confidence interval, in one tidy table.

:func:`agreement_report` computes every coefficient of :data:`COEFFICIENTS` once, then
either bootstraps them all from the same resamples of the items
(:mod:`analytics._core.bootstrap`) or, with ``n_boot=0``, uses the analytic standard error
where one exists (:func:`gwet_standard_error`, Cohen's kappa of one pair).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
from scipy import sparse
from scipy import stats as sps

from analytics._core.bootstrap import (
    ItemStatistic,
    bootstrap_replicates,
    check_resampling,
    percentile_interval,
)
from analytics._core.errors import AnnotationDataError
from analytics._core.lazy import engine_answer, is_lazy
from analytics.agreement.annotator_pairs import pair_labels, pair_mean
from analytics.agreement.chance import beyond_chance, chance_agreement
from analytics.agreement.coefficients import build_conger, build_family, build_percent
from analytics.agreement.coincidence import resolve_distance
from analytics.agreement.krippendorff import build_alpha, default_distance, distance_label
from analytics.agreement.prepared import (
    Built,
    Prepared,
    coders,
    join_notes,
    prepare,
    undefined,
)
from analytics.agreement.weights import weights_order_problem
from analytics.data import Annotations, LabelKind, as_annotations

__all__ = ["COEFFICIENTS", "agreement_report", "bootstrap_cost", "gwet_standard_error"]

COEFFICIENTS = {
    "percent_agreement": "Percent agreement",
    "cohen_kappa": "Cohen's kappa",
    "scott_pi": "Scott's pi",
    "fleiss_kappa": "Fleiss' kappa",
    "conger_kappa": "Conger's kappa",
    "brennan_prediger": "Brennan-Prediger",
    "gwet_ac1": "Gwet's AC1",
    "krippendorff_alpha": "Krippendorff's alpha",
}
"""Machine name -> display name of the coefficients in :func:`agreement_report`."""

UNSTABLE = (
    "no interval: the estimate lies outside the central range of its bootstrap resamples, so "
    "it is unstable under resampling (a mean over annotator pairs is, when many pairs share "
    "few items); rely on Fleiss' kappa, AC1 or alpha here"
)


def bootstrap_cost(ann: Annotations | pd.DataFrame) -> int:
    """The work of one bootstrap resample of :func:`agreement_report`: items x annotator pairs.

    The pairwise means (Light's kappa, Scott's pi) cost that much per resample, so a
    caller can choose between the bootstrap and the analytic intervals by it.

    Parameters
    ----------
    ann : Annotations or DataFrame

    Returns
    -------
    int
        :math:`n_{items} \\cdot \\max(1, a(a-1)/2)` for :math:`a` annotators.

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1, 1, 2], "annotator": ["a", "b", "c", "a"],
    ...                    "label": ["x", "y", "x", "y"]})
    >>> bootstrap_cost(df)
    6
    """
    ann = as_annotations(ann)
    n_pairs = ann.n_annotators * (ann.n_annotators - 1) // 2
    return ann.n_items * max(n_pairs, 1)


def _report_entries(p: Prepared, distance: str | Callable) -> list[tuple[str, Built]]:
    """(display name, (point estimate, bootstrap statistic)) for every report row."""
    ann = p.ann
    two = ann.n_annotators == 2
    entries: list[tuple[str, Built]] = [
        ("Percent agreement", build_percent(p)),
        (
            "Cohen's kappa" if two else "Cohen's kappa (Light's mean over pairs)",
            pair_mean(p, None, "cohen", "Cohen's kappa"),
        ),
        (
            "Scott's pi" if two else "Scott's pi (mean over pairs)",
            pair_mean(p, None, "scott", "Scott's pi"),
        ),
        ("Fleiss' kappa", build_family(p, None, "fleiss_kappa", "Fleiss' kappa")),
        ("Conger's kappa", build_conger(p)),
        ("Brennan-Prediger", build_family(p, None, "brennan_prediger", "Brennan-Prediger")),
        ("Gwet's AC1", build_family(p, None, "gwet_ac1", "Gwet's AC1")),
    ]
    if ann.kind in (LabelKind.ORDINAL, LabelKind.NUMERIC):
        unordered = weights_order_problem(ann, "quadratic")
        entries.append(
            (
                "Gwet's AC2 (quadratic weights)",
                (undefined(unordered), None)
                if unordered
                else build_family(p, "quadratic", "gwet_ac1", "AC2"),
            )
        )
        entries.append(
            (
                "Cohen's kappa (quadratic weights)",
                (undefined(unordered), None)
                if unordered
                else pair_mean(p, "quadratic", "cohen", "Cohen's kappa"),
            )
        )
    name = resolve_distance(distance, ann.kind)
    for d in [name] if name == "nominal" else ["nominal", name]:
        entries.append((f"Krippendorff's alpha ({distance_label(d)})", build_alpha(ann, d)))
    return entries


def agreement_report(
    ann: Annotations | pd.DataFrame,
    confidence: float = 0.95,
    n_boot: int = 1000,
    seed: int | None = 0,
    *,
    distance: str | Callable | None = None,
) -> pd.DataFrame:
    """Every coefficient, with a confidence interval, in one tidy table.

    Parameters
    ----------
    ann : Annotations or DataFrame
        The judgements (a long DataFrame: item, annotator, label).
    confidence : float, default 0.95
        Coverage of the intervals, strictly between 0 and 1 (0.95: 95% intervals).
    n_boot : int, default 1000
        Bootstrap resamples of the items (0: no bootstrap; then the analytic standard
        error is used where one exists).
    seed : int or None, default 0
        Seed of the resampling, for reproducible intervals.
    distance : str or callable, optional
        Alpha's distance (keyword only); default :func:`~analytics.agreement.default_distance`.
        Nominal alpha is always included.

    Returns
    -------
    DataFrame
        Columns ``coefficient, value, ci_low, ci_high, ci_method, items_used, note``, one
        row per coefficient (Gwet's AC2 and quadratic-weighted Cohen's kappa too for
        ordinal and numeric labels).

    Raises
    ------
    AnnotationDataError
        ``confidence``, ``n_boot`` or ``seed`` out of range (the message names it).

    Notes
    -----
    Bootstrap intervals are percentile intervals over items, every coefficient from the
    same resamples; an interval that does not contain its own estimate is withheld (the
    estimate is unstable under resampling). With ``n_boot=0`` the interval is
    :math:`\\hat\\kappa \\pm t_{n-1, (1+c)/2}\\, \\widehat{SE}` (upper end capped at 1, as
    ``irrCAC``) where an analytic standard error exists, labelled in ``ci_method``.

    References
    ----------
    Efron, B., & Tibshirani, R. J. (1993). *An Introduction to the Bootstrap*, Chapman &
    Hall, chapter 13 (percentile intervals).
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed. (the variance of
    the agreement coefficients).
    Fleiss, J. L., Cohen, J., & Everitt, B. S. (1969). Large sample standard errors of
    kappa and weighted kappa. *Psychological Bulletin* 72(5), 323-327.

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3, 4, 4], "annotator": ["a", "b"] * 4,
    ...                    "label": ["x", "x", "y", "y", "x", "y", "y", "y"]})
    >>> agreement_report(df, n_boot=0)["value"].round(3).tolist()
    [0.75, 0.5, 0.467, 0.467, 0.5, 0.5, 0.529, 0.533]
    """
    if is_lazy(ann):
        return engine_answer("agreement_report", ann, confidence, n_boot, seed, distance=distance)
    confidence, n_boot, seed = check_resampling(confidence, n_boot, seed)
    original = as_annotations(ann)
    ann = coders(original)
    repeat_note = (
        f"{original.n_judgements - ann.n_judgements:,} repeated judgements (same annotator, same "
        "item): only each annotator's last judgement of an item is compared"
        if ann is not original
        else ""
    )
    p = prepare(ann)
    entries = _report_entries(p, default_distance(ann) if distance is None else distance)
    boot: dict[str, np.ndarray] = {}
    refused: dict[str, str] = {}  # rows whose bootstrap would exceed the memory budget
    if n_boot > 0:
        to_boot = {}
        for name, (_, stat) in entries:
            if stat is None:
                continue
            try:
                to_boot[name] = (
                    stat() if callable(stat) and not isinstance(stat, ItemStatistic) else stat
                )
            except AnnotationDataError as exc:
                refused[name] = f"no bootstrap interval: {exc}"
        boot = bootstrap_replicates(to_boot, p.patterns, n_boot, seed)
    rows = []
    for name, (value, _) in entries:
        lo = hi = float("nan")
        method, note = "", value.note
        if name in boot:
            lo, hi, n_ok = percentile_interval(boot[name], confidence)
            method = f"bootstrap over items ({n_boot:,} resamples, percentile)"
            if n_ok < n_boot:
                note = join_notes(
                    note, f"{n_boot - n_ok} resamples undefined, left out of the interval"
                )
            if np.isfinite(lo) and not lo - 1e-12 <= value <= hi + 1e-12:
                lo = hi = float("nan")
                method = f"bootstrap over items ({n_boot:,} resamples): interval withheld"
                note = join_notes(note, UNSTABLE)
        elif name in refused:
            method = "none (the bootstrap would exceed the memory budget)"
            note = join_notes(note, refused[name])
        elif n_boot <= 0 and np.isfinite(value):
            se, method = _analytic_se(ann, p, name)
            if np.isfinite(se):
                lo, hi = _t_interval(value, se, confidence, ann.n_items)
            else:
                method = "none (no analytic standard error; use the bootstrap)"
        rows.append(
            (name, float(value), lo, hi, method, value.items_used, join_notes(note, repeat_note))
        )
    return pd.DataFrame(
        rows,
        columns=["coefficient", "value", "ci_low", "ci_high", "ci_method", "items_used", "note"],
    )


def _t_interval(value: float, se: float, confidence: float, n: int) -> tuple[float, float]:
    """Value +- t quantile x SE, the upper bound capped at 1 (as ``irrCAC``)."""
    half = sps.t.ppf(0.5 + confidence / 2.0, max(n - 1, 1)) * se
    return float(value - half), float(min(1.0, value + half))


_FAMILY_ROWS = {
    "Fleiss' kappa": "fleiss_kappa",
    "Brennan-Prediger": "brennan_prediger",
    "Gwet's AC1": "gwet_ac1",
}


def _analytic_se(ann: Annotations, p: Prepared, name: str) -> tuple[float, str]:
    """Standard error of a report row, where a standard analytic formula exists."""
    if name in _FAMILY_ROWS:
        se = gwet_standard_error(p, None, _FAMILY_ROWS[name])
        return se, "analytic SE (Gwet 2014 linearisation), t interval"
    if name == "Cohen's kappa" and ann.n_annotators == 2:
        se = _cohen_se(*pair_labels(p, 0, 1), p.q)
        return se, "analytic SE (Fleiss, Cohen & Everitt 1969), t interval"
    return float("nan"), ""


def _cohen_se(la: np.ndarray, lb: np.ndarray, q: int) -> float:
    """Large-sample SE of unweighted Cohen's kappa (Fleiss, Cohen & Everitt 1969).

    .. math:: \\mathrm{var} = \\frac{\\sum_k p_{kk}[1 - (p_{k\\cdot} + p_{\\cdot k})(1-\\kappa)]^2
              + (1-\\kappa)^2 \\sum_{k \\ne l} p_{kl}(p_{\\cdot k} + p_{l\\cdot})^2
              - [\\kappa - p_e(1-\\kappa)]^2}{n (1 - p_e)^2}

    From the two annotators' labels on their shared items ``la``, ``lb``: the sums run
    over the cells of the joint table that occur, never a q x q table.
    """
    n = len(la)
    if n == 0:
        return float("nan")
    cells, count = np.unique(la * q + lb, return_counts=True)
    k, m, prob = cells // q, cells % q, count / n  # p_km over the occurring cells
    row, col = np.bincount(la, minlength=q) / n, np.bincount(lb, minlength=q) / n
    pe = float(row @ col)
    if np.isclose(pe, 1.0):
        return float("nan")
    diag = k == m
    kappa = float(beyond_chance(prob[diag].sum(), pe))
    term_a = (prob[diag] * (1 - (row[k[diag]] + col[k[diag]]) * (1 - kappa)) ** 2).sum()
    term_b = prob[~diag] * (col[k[~diag]] + row[m[~diag]]) ** 2
    term_c = (kappa - pe * (1 - kappa)) ** 2
    var = (term_a + (1 - kappa) ** 2 * term_b.sum() - term_c) / ((1 - pe) ** 2 * n)
    return float(np.sqrt(max(var, 0.0)))


def gwet_standard_error(p: Prepared, w: np.ndarray | None, which: str) -> float:
    """Gwet's linearised standard error of Fleiss' kappa, AC1/AC2 or Brennan-Prediger.

    Parameters
    ----------
    p : Prepared
        The prepared data (:func:`~analytics.agreement.prepared.prepare`).
    w : ndarray of shape (q, q), or None
        Agreement weights (None or the identity: unweighted).
    which : {"fleiss_kappa", "gwet_ac1", "brennan_prediger"}
        The coefficient.

    Returns
    -------
    float
        NaN with fewer than two items.

    Notes
    -----
    .. math:: v = \\frac{1}{n(n-1)} \\sum_i (\\kappa^\\star_i - \\kappa)^2,\\qquad
              \\kappa^\\star_i = \\frac{n}{n'}\\frac{p_{a|i} - p_e [r_i \\ge 2]}{1 - p_e}
              - 2 (1 - \\kappa) \\frac{p_{e|i} - p_e}{1 - p_e}

    over the :math:`n` items, :math:`n'` of them with two or more judgements (as
    ``irrCAC``; no finite-population correction).

    References
    ----------
    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence
    of high agreement. *British Journal of Mathematical and Statistical Psychology* 61(1),
    29-48 (the linearised variance of AC1 and of Fleiss' kappa).
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed.
    """
    c = p.counts.astype(float)  # sparse items x categories: no dense copy, no q x q identity
    n_i = p.n_i.astype(float)
    n, q = len(n_i), p.q
    two = n_i >= 2
    n2 = two.sum()
    cw = c if w is None else c @ w.T
    sum_q = np.asarray(c.multiply(cw).sum(axis=1)).ravel() - n_i
    pa_i = np.where(two, sum_q / np.maximum(n_i * (n_i - 1), 1), 0.0)
    pa = pa_i.sum() / n2
    pi = np.asarray((sparse.diags(1.0 / n_i) @ c).mean(axis=0)).ravel()
    pe = float(chance_agreement(which, pi, w)[0])
    if which == "fleiss_kappa":
        pe_i = c @ (pi if w is None else (w @ pi + w.T @ pi) / 2.0) / n_i
    elif which == "gwet_ac1":
        w_sum = q if w is None else w.sum()
        pe_i = w_sum / (q * (q - 1)) * (c @ (1 - pi)) / n_i
    else:
        pe_i = np.full(n, pe)
    kappa = float(beyond_chance(pa, pe))
    k_i = (n / n2) * (pa_i - pe * two) / (1 - pe)
    k_i = k_i - 2 * (1 - kappa) * (pe_i - pe) / (1 - pe)
    return float(np.sqrt(((k_i - kappa) ** 2).sum() / (n * (n - 1)))) if n > 1 else float("nan")
