"""How many judgements per item are enough: expected accuracy by simulation from a fit.

"Essentially a statistical power calculation for annotation tasks" (Passonneau & Carpenter
2014, section 6). The fitted model is a generative story: an item's true category is
drawn from the prevalence :math:`\\pi` (or, for the items at hand, from their current
posterior :math:`q_i`), each judgement from the confusion row of a randomly chosen
annotator. Simulating that story and decoding each simulated item by Bayes' rule gives
the accuracy of the model's labels after :math:`k` judgements per item, for every
:math:`k` at once: the judgements are added one at a time to the same simulated items
(common random numbers across :math:`k`), and each item counts with its posterior
probability of being labelled right rather than 0 or 1, which has the same expectation and
far less simulation noise. Under its own parameters a replicate's expected accuracy cannot
fall with more judgements, so each replicate's curve is made non-decreasing (isotonic
regression): what dips is simulation noise, and the curve and its band never do.

Uncertainty: each of ``n_draws`` replicates first draws its own parameters from the
Dirichlet distributions the fit's expected counts imply (when the result carries
``expected_counts``, as :class:`~analytics.dawid_skene.DawidSkeneResult` does), then
simulates ``n_items`` items; the interval is the spread of the replicates' accuracies, so
it covers both the simulation noise and how well the data pin the parameters down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from numbers import Integral, Real
from typing import Any

import numpy as np
import pandas as pd
from scipy.optimize import isotonic_regression

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_count, format_judged_value
from analytics._core.ids import name_order
from analytics._core.validation import check_whole
from analytics.next_labels.parameters import model_arrays

__all__ = ["Plan", "plan"]


@dataclass(frozen=True)
class Plan:
    """What :func:`plan` returns.

    Attributes
    ----------
    curve : pandas.DataFrame
        Columns ``k`` (judgements per item; more judgements per item when
        ``current=True``, starting at 0), ``accuracy`` (mean over replicates), ``low``,
        ``high`` (the interval at ``confidence``); all three are non-decreasing in ``k``.
    target_accuracy : float
        NaN when no target was given.
    needed : int or None
        The smallest ``k`` whose expected accuracy reaches the target; None when none of
        ``k <= max_k`` does or no target was given (``reason`` says which).
    needed_surely : int or None
        The smallest ``k`` whose interval's lower end reaches the target.
    reason : str
        Plain words for ``needed`` (or why it is None).
    settings : dict
    notes : tuple of str
    """

    curve: pd.DataFrame
    target_accuracy: float
    needed: int | None
    needed_surely: int | None
    reason: str
    settings: dict[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def accuracy_at(self, k: int) -> float:
        """The expected accuracy at ``k`` (NaN when ``k`` is not on the curve)."""
        hit = self.curve.loc[self.curve["k"] == k, "accuracy"]
        return float(hit.iloc[0]) if len(hit) else float("nan")


def _check(target: Any, max_k: Any, n_items: Any, n_draws: Any, confidence: Any) -> None:
    if target is not None and (
        isinstance(target, bool) or not isinstance(target, Real) or not 0 < target <= 1
    ):
        raise AnnotationDataError(
            f"target_accuracy must be a share in (0, 1]; got {target!r}.",
            hint="Pass e.g. target_accuracy=0.95, or None for the curve alone.",
        )
    for name, value, top in (
        ("max_k", max_k, 100),
        ("n_items", n_items, 10**6),
        ("n_draws", n_draws, 1000),
    ):
        if isinstance(value, bool) or not isinstance(value, Integral) or not 1 <= value <= top:
            raise AnnotationDataError(
                f"{name} must be a whole number from 1 to {top}; got {value!r}.",
                hint="The defaults (max_k=10, n_items=2000, n_draws=40) suit most data.",
            )
    if isinstance(confidence, bool) or not isinstance(confidence, Real) or not 0 < confidence < 1:
        raise AnnotationDataError(
            f"confidence must be in (0, 1); got {confidence!r}.",
            hint="Pass e.g. confidence=0.95.",
        )


def _dirichlet(rng: np.random.Generator, alpha: np.ndarray) -> np.ndarray:
    """Dirichlet draws along the last axis (vectorised over the leading ones)."""
    g = rng.standard_gamma(alpha)
    s = g.sum(-1, keepdims=True)
    return np.where(s > 0, g / np.where(s > 0, s, 1), 1.0 / alpha.shape[-1])


def _pick_annotators(rng: np.random.Generator, weights: np.ndarray, n: int, k: int) -> np.ndarray:
    """``k`` annotators per item, distinct while the pool lasts, drawn by weight.

    Weighted sampling without replacement by sorting exponential keys (Efraimidis &
    Spirakis 2006); beyond the pool's size further judgements repeat annotators (a repeat
    is another independent draw under the model).
    """
    j = len(weights)
    keys = rng.exponential(size=(n, j)) / np.where(weights > 0, weights, 1e-300)
    order = np.argsort(keys, axis=1)[:, : min(k, j)]
    if k > j:
        extra = rng.choice(j, size=(n, k - j), p=weights / weights.sum())
        order = np.concatenate([order, extra], axis=1)
    return order


def _top_posterior(log_post: np.ndarray) -> np.ndarray:
    """Each row's largest posterior, from unnormalised log posteriors.

    Under the replicate's own parameters this is the probability that the row's label
    (the argmax) is the true category: the expected accuracy of that one item.
    """
    return 1.0 / np.exp(log_post - log_post.max(1, keepdims=True)).sum(1)


#: The data notes (:func:`analytics.dawid_skene.data_notes`) after which the data settle no
#: annotator parameter: no item judged twice, one annotator, one category.
UNIDENTIFIED = ("the model is not identified", "only one annotator", "only one category")


def _unidentified(notes: Any) -> str:
    """The first note that says the fit's parameters are not identified ("" if none)."""
    return next((str(n) for n in notes if any(w in str(n).lower() for w in UNIDENTIFIED)), "")


def plan(
    result: Any,
    target_accuracy: float | None = None,
    *,
    max_k: int = 10,
    current: bool = False,
    n_items: int = 2000,
    n_draws: int = 40,
    confidence: float = 0.95,
    seed: int = 0,
    level: float | None = None,
) -> Plan:
    """Expected accuracy of the model's labels with ``k`` judgements per item, by simulation.

    Parameters
    ----------
    result : fitted annotator model
        :func:`analytics.dawid_skene.fit`'s result, or any model result with
        ``posteriors``, ``prevalence`` and confusion matrices. Annotators are drawn in
        proportion to their judgements (``result.judgements``) when the result has them,
        uniformly otherwise: an annotation run like this one.
    target_accuracy : float or None, default None
        The accuracy wanted, in (0, 1]. None: only the curve.
    max_k : int, default 10
        The curve runs over ``k = 1 .. max_k`` (``0 .. max_k`` when ``current``).
    current : bool, default False
        False: a new run like this one (true categories from the prevalence, ``k``
        judgements per item). True: the items at hand (true categories from their current
        posteriors, ``k`` *more* judgements per item; ``k = 0`` is the accuracy now).
    n_items : int, default 2000
        Simulated items per replicate (when ``current``, the data's items are resampled
        to this many).
    n_draws : int, default 40
        Replicates, each with its own parameter draw.
    confidence : float, default 0.95
        Coverage of the interval (equal tails over the replicates).
    seed : int, default 0
        Seed of the parameter draws and the simulation.
    level : float or None, default None
        The former name of ``confidence`` (issue 12: one name per idea), still accepted;
        giving both is an error.

    Returns
    -------
    Plan

    Raises
    ------
    AnnotationDataError
        ``result`` is not a fitted annotator model; a setting is out of range.

    Notes
    -----
    In replicate :math:`r` with parameters :math:`(\\pi^r, \\theta^r)` drawn as
    :math:`\\pi^r \\sim \\mathrm{Dir}(1 + \\sum_i q_i)` and
    :math:`\\theta^r_{jk\\cdot} \\sim \\mathrm{Dir}(1 + n_{jk\\cdot})` from the expected
    counts :math:`n` (the fitted values themselves without them), item :math:`i` has
    :math:`z_i \\sim \\pi^r`, judgements :math:`y_{im} \\sim \\theta^r_{j_{im} z_i \\cdot}`,
    and is labelled :math:`\\hat z_i = \\arg\\max_k \\pi^r_k \\prod_m \\theta^r_{j_{im} k y_{im}}`
    (decoding with the replicate's own parameters: as if a refit recovered them, which is
    optimistic for very small data). Accuracy is the share of :math:`\\hat z_i = z_i`,
    estimated by the mean of :math:`\\max_c p^r(z_i = c \\mid y_{i1}, \\ldots, y_{ik})`, the
    probability under the replicate's parameters that the label is right (its conditional
    expectation given the judgements: unbiased, with less noise than the 0/1 score). A
    replicate's curve is then replaced by its isotonic (non-decreasing) regression over
    :math:`k`: its true curve is non-decreasing (Bayes' rule with the generating parameters
    never loses accuracy from more evidence), so the projection can only bring the estimate
    closer to it (in squared error), and the mean and quantiles over replicates are
    non-decreasing as well.

    References
    ----------
    Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, section 6.

    Sheng, V. S., Provost, F. and Ipeirotis, P. G. (2008). Get another label? *KDD 2008*.

    Efraimidis, P. S. and Spirakis, P. G. (2006). Weighted random sampling with a
    reservoir. *Information Processing Letters* 97(5), 181-185.

    Robertson, T., Wright, F. T. and Dykstra, R. L. (1988). *Order Restricted Statistical
    Inference*. Wiley (isotonic regression).
    """
    if level is not None:
        if confidence != 0.95 and confidence != level:
            raise AnnotationDataError(
                f"confidence={confidence!r} and level={level!r} name the same setting.",
                hint="Pass confidence= alone (level is its former name).",
            )
        confidence = level
    _check(target_accuracy, max_k, n_items, n_draws, confidence)
    seed = check_whole(seed, "seed", 0)  # not numpy's "expected non-negative integer"
    names, theta, pi, q = model_arrays(result)
    unfit = _unidentified(getattr(result, "notes", ()))
    if unfit:  # a forecast from parameters the data do not settle would only restate them
        ks = np.arange(0 if current else 1, max_k + 1)
        nan = np.full(len(ks), np.nan)
        curve = pd.DataFrame({"k": ks, "accuracy": nan, "low": nan, "high": nan})
        target = float("nan") if target_accuracy is None else float(target_accuracy)
        settings = {"max_k": max_k, "current": current, "confidence": confidence, "seed": seed}
        return Plan(curve, target, None, None, f"No plan: {unfit}", settings, (unfit,))
    counts = getattr(result, "expected_counts", None)
    counts = np.asarray(counts, float) if counts is not None else None
    if counts is not None and counts.shape != theta.shape:
        counts = None
    judged = getattr(result, "judgements", None)
    weights = np.ones(len(names))
    if isinstance(judged, pd.Series) and judged.index.equals(names):
        weights = judged.to_numpy(float)
    if not (weights > 0).any():
        weights = np.ones(len(names))
    # every draw in the order of the names, not of the codes (first seen in the file): the
    # same data in another row order give the same plan
    a, k = name_order(names), name_order(result.posteriors.columns)
    theta, pi, weights = theta[np.ix_(a, k, k)], pi[k], weights[a]
    q = q[np.ix_(name_order(result.posteriors.index), k)]
    counts = None if counts is None else counts[np.ix_(a, k, k)]
    rng = np.random.default_rng(seed)
    ks = np.arange(0 if current else 1, max_k + 1)
    acc = np.empty((n_draws, len(ks)))
    for r in range(n_draws):
        if counts is not None:
            th = _dirichlet(rng, counts + 1.0)
            pr = _dirichlet(rng, q.sum(0) + 1.0)
        else:
            th, pr = theta, pi
        if current:
            start = q[rng.integers(len(q), size=n_items)]
            log_post = np.log(np.maximum(start, 1e-300))
        else:
            start = np.broadcast_to(pr, (n_items, len(pr)))
            log_post = np.broadcast_to(np.log(np.maximum(pr, 1e-300)), start.shape).copy()
        z = (rng.random((n_items, 1)) > np.cumsum(start, 1)).sum(1)
        z = np.minimum(z, len(pr) - 1)
        who = _pick_annotators(rng, weights, n_items, max_k)
        log_th = np.log(np.maximum(th, 1e-300))
        col = 0
        if current:
            acc[r, 0] = _top_posterior(log_post).mean()
            col = 1
        for m in range(max_k):
            j = who[:, m]
            rows_theta = th[j, z]  # (n, K): the label distribution of each judgement
            y = (rng.random((n_items, 1)) > np.cumsum(rows_theta, 1)).sum(1)
            y = np.minimum(y, th.shape[-1] - 1)
            log_post += log_th[j, :, y]
            acc[r, col] = _top_posterior(log_post).mean()
            col += 1
    # each replicate's expected accuracy cannot fall with more judgements (its decoder is
    # Bayes' rule under its own parameters): project its simulated curve onto that shape
    acc = np.array([isotonic_regression(row).x for row in acc])
    tail = (1 - confidence) / 2
    curve = pd.DataFrame(
        {
            "k": ks,
            "accuracy": acc.mean(0),
            "low": np.quantile(acc, tail, axis=0),
            "high": np.quantile(acc, 1 - tail, axis=0),
        }
    )
    needed = needed_surely = None
    if target_accuracy is None:
        reason = "no target accuracy given: the curve alone."
    else:
        ok = curve.loc[curve["accuracy"] >= target_accuracy, "k"]
        sure = curve.loc[curve["low"] >= target_accuracy, "k"]
        needed = int(ok.iloc[0]) if len(ok) else None
        needed_surely = int(sure.iloc[0]) if len(sure) else None
        more = "more " if current else ""
        reached = (
            float(curve.loc[curve["k"] == needed, "accuracy"].iloc[0])
            if needed is not None
            else math.nan
        )
        reason = (
            f"{format_count(needed, more + 'judgement')} per item "
            f"{'reaches' if needed == 1 else 'reach'} the target expected accuracy of "
            f"{target_accuracy:.1%} (expected {reached:.1%} at k = {needed})"
            + (
                f"; {needed_surely} reach it at the interval's lower end."
                if needed_surely is not None
                else f"; the interval's lower end stays below it up to k = {max_k}."
            )
            if needed is not None
            else f"even {max_k} {more}judgements per item do not reach an expected accuracy "
            f"of {target_accuracy:.1%} with annotators like these (best: "
            f"{format_judged_value(curve['accuracy'].max(), [target_accuracy], 1, 5, True)}); "
            "better annotators or guidelines are needed."
        )
    notes = (
        ()
        if counts is not None
        else (
            "the result carries no expected counts: the interval covers simulation noise only, "
            "not the uncertainty of the fitted parameters.",
        )
    )
    return Plan(
        curve,
        float("nan") if target_accuracy is None else float(target_accuracy),
        needed,
        needed_surely,
        reason,
        {
            "max_k": max_k,
            "current": current,
            "n_items": n_items,
            "n_draws": n_draws,
            "confidence": confidence,
            "seed": seed,
        },
        notes,
    )
