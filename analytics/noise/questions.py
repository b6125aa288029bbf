"""Planning with the noise bound: the questions of Beigman Klebanov & Beigman (2009)
about a project's disagreements, annotators and kappa.

- :func:`max_disagreements`: the reverse question, how many disagreements a project can
  afford (section 3.1).
- :func:`adding_annotators`: what more annotators buy (section 5.3).
- :func:`kappa_noise_estimate`: kappa read as the share of easy items (section 3.3).

Comparing two systems on the agreed items (section 4.1) is
:mod:`analytics.noise.comparing_systems`; the bound itself is
:func:`analytics.noise.noise_bound`. Import everything from :mod:`analytics.noise`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_confidence, format_count, format_percent
from analytics._core.validation import (
    check_confidence,
    check_counts,
    check_number,
    check_probability,
    check_whole,
)
from analytics.noise.bound import noise_bound
from analytics.noise.chance_agreement import agreement_probability
from analytics.noise.results import ExplainedResult

__all__ = [
    "KappaNoiseEstimate",
    "MaxDisagreements",
    "adding_annotators",
    "kappa_noise_estimate",
    "max_disagreements",
]

NAN = float("nan")


# ---------------------------------------------------------------------- reverse question (3.1)
@dataclass(frozen=True)
class MaxDisagreements(ExplainedResult):
    """The most disagreements that still leave the agreed items within ``gamma`` noise.

    Built by :func:`max_disagreements`.

    Attributes
    ----------
    n_items : int
        n.
    p : float
        Chance agreement on a hard item.
    gamma_target : float
        The noise level asked for, at most.
    confidence : float
        The confidence, the paper's alpha.
    max_disagreed : int
        The largest d whose bound is at most ``gamma_target`` (-1 when even d = 0 is not).
    gamma_at_max : float
        The bound's gamma at ``max_disagreed`` (at d = 0 when there is no answer).
    implied_kappa : float
        Section 3.3's kappa at ``max_disagreed``, a share of items in [0, 1] (NaN when
        p = 1, when there is no answer, or when ``max_disagreed`` exceeds ``n (1 - p)``:
        see ``kappa_reason``).
    reason : str, default ""
        Why there is no answer (empty when there is one).
    kappa_reason : str, default ""
        Why ``implied_kappa`` is NaN although there is an answer (empty when it is not).

    Notes
    -----
    ``implied_kappa = 1 - d / (n (1 - p))``: kappa read as the share of easy items, with
    ``d / (1 - p)`` hard items expected; for two annotators with the same category
    distribution on easy and hard items it is Siegel & Castellan's K.

    References
    ----------
    Beigman Klebanov, B. & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4): 495-503. Sections 3.1 and 3.3.
    """

    n_items: int
    p: float
    gamma_target: float
    confidence: float
    max_disagreed: int
    gamma_at_max: float
    implied_kappa: float
    reason: str = ""
    kappa_reason: str = ""

    def explain(self) -> str:
        """One plain-language sentence for an annotation team."""
        if self.reason:
            return f"No answer: {self.reason}"
        p = f"{self.p:.4g}"
        if 0 < self.p < 1 and float(p) in (0.0, 1.0):  # 0.999999 is not p = 1
            p = repr(float(self.p))
        kappa = (
            f"that many disagreements leave about {format_percent(self.implied_kappa, 0)} of "
            "the items easy: the kappa of section 3.3's reading, a share of items, not the "
            "Fleiss' kappa of the Agreement page"
            if self.kappa_reason == ""
            else self.kappa_reason
        )
        return (
            f"With {self.n_items:,} items and p = {p}, you can afford at most "
            f"{format_count(self.max_disagreed, 'disagreement')} for the agreed items to be at most "
            f"{format_percent(self.gamma_target)} noise with {format_confidence(self.confidence)} confidence "
            f"({kappa})."
        )


def max_disagreements(
    n_items: int, p: float, gamma: float, confidence: float = 0.95
) -> MaxDisagreements:
    """The reverse question of section 3.1: the largest d with noise level at most ``gamma``.

    Parameters
    ----------
    n_items : int
        n, all items of the project, a whole number >= 1.
    p : float
        Chance that the annotators agree on a hard item, in [0, 1].
    gamma : float
        The noise level the agreed items may have at most, in [0, 1] (0.05 for 5%).
    confidence : float, default 0.95
        The confidence, the paper's alpha, strictly between 0 and 1.

    Returns
    -------
    MaxDisagreements
        ``max_disagreed`` is -1 with a ``reason`` when even d = 0 exceeds ``gamma``.

    Raises
    ------
    AnnotationDataError
        n_items, p, gamma or confidence impossible.

    Notes
    -----
    ``max {d : gamma(n, d, p) <= gamma}`` with ``gamma(n, d, p) = (t0 - d) / (n - d)`` of
    equation (1), by binary search over d. ``t0`` never decreases as d grows, and gamma
    does not either except for one-item wobbles when the bound is close to its cap
    ``n - d`` (gamma above about 0.57); both are property-tested, and the search is
    checked against a linear scan for every n <= 60.

    References
    ----------
    Beigman Klebanov, B. & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4): 495-503. Section 3.1 (and
    section 3.3 for ``implied_kappa``).

    Examples
    --------
    >>> max_disagreements(1000, 0.5, 0.05).max_disagreed
    33
    """
    n, _ = check_counts(n_items, 0)
    p = check_probability(p, "p")
    target = check_probability(gamma, "the noise level gamma")
    confidence = check_confidence(confidence)

    def g(d: int) -> float:
        return noise_bound(n, d, p, confidence).gamma

    if not g(0) <= target:
        return MaxDisagreements(
            n,
            p,
            target,
            confidence,
            -1,
            g(0),
            NAN,
            reason=(
                f"even with no disagreements the {format_count(n, 'agreed item')} could hold "
                "more than "
                f"{format_percent(target)} coin-flips at this confidence; more items or a lower p are needed."
            ),
        )
    lo, hi = 0, n - 1  # g(lo) <= target; answer in [lo, hi]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if g(mid) <= target:
            lo = mid
        else:
            hi = mid - 1
    kappa = 1.0 - lo / (n * (1.0 - p)) if p < 1 else NAN
    why = ""
    if kappa < 0:  # more disagreements than n items all hard would give on average
        why = (
            f"section 3.3's reading of kappa as a share of easy items does not apply: "
            f"{lo:,} disagreements are more than the {n * (1.0 - p):,.0f} that {n:,} items, "
            "all of them hard, would give on average"
        )
        kappa = NAN
    return MaxDisagreements(n, p, target, confidence, lo, g(lo), kappa, kappa_reason=why)


# ---------------------------------------------------------------------- adding annotators
def _p_per_k(hard_rates: object, p: object, k_values: Sequence[int]) -> tuple[list[float], str]:
    if p is not None:
        if callable(p):
            values = [p(k) for k in k_values]
        elif isinstance(p, Mapping):
            missing = [k for k in k_values if k not in p]
            if missing:
                raise AnnotationDataError(f"p is not given for {missing} annotators.")
            values = [p[k] for k in k_values]
        else:
            values = list(np.atleast_1d(np.asarray(p, dtype=object)).ravel())
            if len(values) != len(k_values):
                raise AnnotationDataError(
                    f"give one p for each number of annotators ({len(k_values)}), not {len(values)}."
                )
        return [check_probability(v, "p") for v in values], "p given per number of annotators"
    try:
        rates = np.asarray((0.5, 0.5) if hard_rates is None else hard_rates, dtype=float)
    except (TypeError, ValueError):
        raise AnnotationDataError(
            "hard_rates must be numbers: one category distribution, or a table with a row per "
            "annotator."
        ) from None
    if rates.ndim == 1:
        table = [agreement_probability(np.tile(rates, (k, 1))) for k in k_values]
        return table, "every annotator flips the same coin on hard items"
    if rates.ndim == 2 and rates.shape[0] >= max(k_values):
        return (
            [agreement_probability(rates[:k]) for k in k_values],
            "the first k annotators' rates",
        )
    raise AnnotationDataError(
        "hard_rates must be one category distribution (shared by all annotators) or a table "
        f"with at least {max(k_values)} rows (one per annotator)."
    )


def adding_annotators(
    n_items: int,
    easy_share: float,
    hard_rates: Sequence[float] | np.ndarray | None = None,
    k_values: Iterable[int] = range(2, 11),
    confidence: float = 0.95,
    *,
    p: Sequence[float] | Mapping[int, float] | Callable[[int], float] | None = None,
) -> pd.DataFrame:
    """Section 5.3 as a table: how the noise bound falls as annotators are added.

    For each number of annotators k: ``p_k`` (from ``hard_rates`` or given), the expected
    agreed items ``n e + n (1 - e) p_k`` and disagreements ``d_k = round(n (1 - e)(1 - p_k))``
    (the most likely count, as the paper's "we are most likely to observe 850 agreed
    instances"), and the bound ``noise_bound(n, d_k, p_k)``.

    Parameters
    ----------
    n_items : int
        n, a whole number >= 1.
    easy_share : float
        e, the share of easy items, in [0, 1] (e.g. read off kappa, section 3.3).
    hard_rates : array-like of float, optional
        Category rates on hard items: one distribution shared by every annotator, or a
        table with a row per annotator (the first k rows are used for k annotators).
        Default None: two equiprobable categories.
    k_values : iterable of int, default range(2, 11)
        Numbers of annotators, each a whole number >= 2.
    confidence : float, default 0.95
        The confidence, the paper's alpha, strictly between 0 and 1.
    p : sequence of float, mapping of int to float, or callable, optional
        Instead of ``hard_rates``: p for each k (sequence aligned with ``k_values``,
        mapping k -> p, or a function of k). Default None: p from ``hard_rates``.

    Returns
    -------
    pandas.DataFrame
        Columns ``annotators, p, expected_agreed, expected_disagreed, t0, hidden_hard,
        gamma, true_noise`` (``true_noise`` is the expected share of hard items among the
        agreed ones, ``n (1 - e) p_k / expected_agreed``, without the confidence margin).
        ``attrs["note"]`` says how p was obtained.

    Raises
    ------
    AnnotationDataError
        Impossible n_items, easy_share, confidence or k_values, rates that are not
        probability vectors, or p not given for every k.

    Notes
    -----
    ``d_k = round(n (1 - e)(1 - p_k))``, ``expected_agreed = n e + n (1 - e) p_k``,
    ``true_noise = n (1 - e) p_k / expected_agreed``, and the bound of equation (1) for
    ``(n, d_k, p_k)``; ``p_k = sum_c prod_{j <= k} r_jc``.

    References
    ----------
    Beigman Klebanov, B. & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4): 495-503. Section 5.3.

    Examples
    --------
    >>> table = adding_annotators(1000, 0.8, k_values=[2, 3])
    >>> table["expected_disagreed"].tolist()
    [100, 150]
    """
    n, _ = check_counts(n_items, 0)
    e = check_probability(easy_share, "the share of easy items")
    confidence = check_confidence(confidence)
    ks = [check_whole(k, "every number of annotators in k_values", 2) for k in k_values]
    if not ks:
        raise AnnotationDataError(
            "k_values must hold at least one number of annotators (2 or more)."
        )
    ps, note = _p_per_k(hard_rates, p, ks)
    rows = []
    hard = n * (1.0 - e)
    for k, pk in zip(ks, ps, strict=True):
        d = round(hard * (1.0 - pk))
        agreed = n * e + hard * pk
        res = noise_bound(n, d, pk, confidence)
        rows.append(
            {
                "annotators": k,
                "p": pk,
                "expected_agreed": agreed,
                "expected_disagreed": d,
                "t0": res.t0,
                "hidden_hard": res.hidden_hard,
                "gamma": res.gamma,
                "true_noise": hard * pk / agreed if agreed > 0 else NAN,
            }
        )
    table = pd.DataFrame(rows)
    table.attrs["note"] = note
    return table


# ---------------------------------------------------------------------- kappa
@dataclass(frozen=True)
class KappaNoiseEstimate(ExplainedResult):
    """Section 3.3: kappa read as the share of easy items.

    Built by :func:`kappa_noise_estimate`.

    Attributes
    ----------
    kappa : float
        The kappa given.
    n_items : int
        n.
    n_agreed : int
        The agreed items.
    easy_items : float
        ``kappa n`` (NaN when there is no reading).
    hidden_hard : float
        ``n_agreed - kappa n``: the coin-flips among the agreed items.
    noise : float
        ``hidden_hard / n_agreed``.
    reason : str, default ""
        Why kappa cannot be read this way (empty when it can).

    Notes
    -----
    ``easy = kappa n``; easy items are all agreed, so the agreed items hold about
    ``n_agreed - kappa n`` hard ones: ``noise = (n_agreed - kappa n) / n_agreed``. A point
    estimate without confidence, and only sound when categories are near uniform.

    References
    ----------
    Beigman Klebanov, B. & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4): 495-503. Section 3.3.
    """

    kappa: float
    n_items: int
    n_agreed: int
    easy_items: float
    hidden_hard: float
    noise: float
    reason: str = ""

    def explain(self, shown: str | None = None) -> str:
        """One plain-language sentence for an annotation team.

        Parameters
        ----------
        shown : str or None, default None
            The noise level as printed beside its verdict
            (:func:`analytics.overview.format_judged`); None: one decimal of a percentage.
        """
        if self.reason:
            return f"No kappa reading: {self.reason}"
        return (
            f"Read as the share of easy items, kappa = {self.kappa:.3g} says about "
            f"{self.easy_items:,.0f} of your {self.n_items:,} items are easy; of the "
            f"{self.n_agreed:,} agreed items about {self.hidden_hard:,.0f} are then coin-flips, "
            f"a noise level of about {format_percent(self.noise) if shown is None else shown} (an estimate, with no confidence margin)."
        )


def kappa_noise_estimate(kappa: float, n_items: int, n_agreed: int) -> KappaNoiseEstimate:
    """Noise of the agreed items as read from kappa (section 3.3).

    Parameters
    ----------
    kappa : float
        A chance-corrected agreement coefficient, in [-1, 1] (NaN allowed: undefined).
    n_items : int
        n, all items, a whole number >= 1.
    n_agreed : int
        The agreed items, a whole number in 0..n_items.

    Returns
    -------
    KappaNoiseEstimate
        A legal kappa that cannot be read as a share of easy items (negative: agreement
        below chance; NaN: kappa was undefined; more easy items than agreed ones) gives
        NaN with a ``reason``.

    Raises
    ------
    AnnotationDataError
        Impossible inputs: ``n_items`` not a whole number >= 1, ``n_agreed`` not a whole
        number in 0..n_items, ``kappa`` not a number or outside [-1, 1].

    Notes
    -----
    ``noise = (n_agreed - kappa n) / n_agreed``.

    References
    ----------
    Beigman Klebanov, B. & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4): 495-503. Section 3.3.

    Examples
    --------
    >>> round(kappa_noise_estimate(0.8, 1000, 900).noise, 3)
    0.111
    """
    n, a = check_counts(n_items, n_agreed, part="n_agreed", symbol="")
    k = check_number(kappa, "kappa")
    if np.isfinite(k) and not -1.0 <= k <= 1.0:
        raise AnnotationDataError(
            f"kappa must lie between -1 and 1 (got {kappa!r}); is it a percentage?"
        )
    easy = k * n
    reason = ""
    if np.isnan(k):
        reason = "kappa is undefined (NaN), so it says nothing about the share of easy items."
    elif k < 0.0:
        reason = (
            f"kappa = {k:.3g} is outside 0..1, so it cannot be a share of easy items (a "
            "negative kappa means agreement below chance)."
        )
    elif a == 0:
        reason = "there are no agreed items."
    elif easy > a + 1e-9:
        reason = (
            f"kappa says {easy:,.0f} items are easy but only {a:,} are agreed; the data do not "
            "fit the model's reading of kappa (easy items agreed by everyone, hard items "
            "labelled by coin-flips), so it cannot say how many agreed items are coin-flips."
        )
    if reason:
        return KappaNoiseEstimate(k, n, a, NAN, NAN, NAN, reason)
    hidden = a - easy
    return KappaNoiseEstimate(k, n, a, easy, hidden, hidden / a)
