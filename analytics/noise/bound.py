"""The noise model of Beigman Klebanov & Beigman (2009), "From annotator agreement to
noise models", Computational Linguistics 35(4): the calculations that need only numbers.

The model: every item is *easy* (all annotators give the same label) or *hard* (each
annotator independently flips their own coin). Disagreed items are hard for sure; some
hard items hide among the agreed ones because the coins happened to agree. Given ``d``
disagreements among ``n`` items and ``p``, the chance that the annotators agree on a hard
item, the paper's equation (1) gives the posterior of the number of hard items, and so,
with confidence alpha, an upper bound ``gamma`` on the share of coin-flips in the agreed
gold standard.

Public functions
----------------
- :func:`agreement_probability`: p from each annotator's category rates on hard items.
- :func:`noise_bound`: equation (1): ``t0``, ``gamma``, the posterior.
- :func:`max_disagreements`: the reverse question (section 3.1).
- :func:`adding_annotators`: what more annotators buy (section 5.3).
- :func:`chance_difference`: the difference between two systems noise alone can make
  (section 4.1).
- :func:`kappa_noise_estimate`: kappa read as the share of easy items (section 3.3).

The pipeline on loaded data is :mod:`analytics.noise.from_annotations`; import everything from
:mod:`analytics.noise`.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import special, stats

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_percent
from analytics._core.validation import (
    check_confidence,
    check_counts,
    check_number,
    check_probability,
    check_whole,
)

__all__ = [
    "ChanceDifference",
    "KappaNoiseEstimate",
    "MaxDisagreements",
    "NoiseBound",
    "adding_annotators",
    "agreement_probability",
    "chance_difference",
    "equation1_posterior",
    "kappa_noise_estimate",
    "max_disagreements",
    "noise_bound",
]

NAN = float("nan")
# Posterior probabilities below this fraction of the peak are left out of the Series.
SERIES_FLOOR = 1e-16
# Beyond this many counts in the posterior's window (p close to 1), equation (1) with the
# uniform prior is evaluated in closed form (incomplete beta) instead of term by term.
MAX_WINDOW = 1_000_000
MAX_SERIES = 20_000


# ---------------------------------------------------------------------- results
class _Explained(ABC):
    """Results that explain themselves in one plain-language sentence."""

    @abstractmethod
    def explain(self) -> str:
        """One plain-language sentence for an annotation team."""

    @property
    def summary(self) -> str:
        """The same sentence as :meth:`explain`."""
        return self.explain()


@dataclass(frozen=True, eq=False)
class NoiseBound(_Explained):
    """The noise bound of an agreed gold standard (equation 1 of the paper).

    Attributes
    ----------
    n_items, n_disagreed : int
        n and d.
    p : float
        Chance that the annotators agree on a hard item (for per-item p, their mean).
    confidence : float
        alpha.
    t0 : int or float
        Smallest t with ``P(X > t | A_d) < 1 - confidence``, X the number of hard items
        (NaN when undefined, see ``reason``).
    hidden_hard : int or float
        ``t0 - d``: at most this many agreed items are coin-flips.
    gamma : float
        ``(t0 - d) / (n - d)``: the noise level of the agreed items, at most.
    posterior : pandas.Series
        ``P(X = h | A_d)`` indexed by h, the number of hard items (probabilities below
        1e-16 of the peak left out).
    tail_at_t0 : float
        ``P(X > t0 | A_d)``, just below ``1 - confidence``.
    expected_hidden : float
        Posterior mean of the hidden hard items.
    prior : str
        ``"uniform"`` (the paper's footnote 5) or ``"given"``.
    method : str
        How it was computed.
    reason : str
        Why the bound is NaN (empty when it is not).
    notes : tuple of str
        Decisions worth telling the user.
    """

    n_items: int
    n_disagreed: int
    p: float
    confidence: float
    t0: float
    hidden_hard: float
    gamma: float
    posterior: pd.Series
    tail_at_t0: float
    expected_hidden: float
    prior: str = "uniform"
    method: str = "equation (1)"
    reason: str = ""
    notes: tuple[str, ...] = ()
    tail_series: pd.Series | None = field(default=None, repr=False)

    @property
    def n_agreed(self) -> int:
        return self.n_items - self.n_disagreed

    @property
    def ok(self) -> bool:
        return not self.reason

    def tail(self) -> pd.Series:
        """``P(X > t | A_d)`` for each t of :attr:`posterior` (the curve cut at 1 - alpha)."""
        if self.tail_series is not None:  # thinned posterior: computed exactly, not summed
            return self.tail_series
        pmf = self.posterior.to_numpy()
        rev = np.cumsum(pmf[::-1])[::-1]
        return pd.Series(np.append(rev[1:], 0.0), index=self.posterior.index, name="P(X > t)")

    def explain(self) -> str:
        """One plain-language sentence for an annotation team."""
        if self.reason:
            return f"No noise bound: {self.reason}"
        conf = f"{100 * self.confidence:g}%"
        return (
            f"With {conf} confidence, at most {int(self.hidden_hard):,} of your "
            f"{self.n_agreed:,} agreed items are coin-flips (hard items the annotators "
            f"agreed on by chance): the agreed gold standard is at most {format_percent(self.gamma)} noise."
        )

    def as_frame(self) -> pd.DataFrame:
        """The numbers as a two-column table (measure, value)."""
        rows = [
            ("items (n)", self.n_items),
            ("disagreed items (d)", self.n_disagreed),
            ("agreed items (n - d)", self.n_agreed),
            ("chance agreement on a hard item (p)", self.p),
            ("confidence", self.confidence),
            ("hard items, upper bound (t0)", self.t0),
            ("coin-flips among agreed items, at most (t0 - d)", self.hidden_hard),
            ("noise level, at most (gamma)", self.gamma),
            ("coin-flips among agreed items, expected", self.expected_hidden),
        ]
        return pd.DataFrame(rows, columns=["measure", "value"]).astype({"value": object})


def _undefined(n: int, d: int, p: float, confidence: float, reason: str, **kw) -> NoiseBound:
    empty = pd.Series([], dtype=float, name="probability")
    empty.index.name = "hard items"
    return NoiseBound(n, d, p, confidence, NAN, NAN, NAN, empty, NAN, NAN, reason=reason, **kw)


# ---------------------------------------------------------------------- p
def agreement_probability(
    hard_rates: np.ndarray | pd.DataFrame | Sequence[Sequence[float]],
) -> float:
    """p, the chance that k annotators agree on a hard item.

    ``p = sum_c prod_j r_jc`` where ``r_jc`` is annotator j's probability of category c on
    hard items: the paper's binary formula (section 2) for m categories.

    Parameters
    ----------
    hard_rates
        k x m: one row per annotator (k >= 2), one column per category; every row is a
        probability vector (non-negative, finite, summing to 1 within 1e-6).

    Raises
    ------
    AnnotationDataError
        Fewer than two annotators: with one annotator there is nobody to agree with, so
        the chance of agreeing is undefined (it is not 1). Like every other impossible
        input of this module this raises rather than returning NaN: NaN with a reason is
        kept for legal situations that leave a result undefined, and a bare float cannot
        carry a reason. Also raised for rows that are not probability vectors.

    Examples
    --------
    >>> agreement_probability([[0.5, 0.5], [0.5, 0.5]])
    0.5
    """
    shape = "a table with one row per annotator and one column per category"
    try:
        r = np.asarray(hard_rates, dtype=float)
    except (TypeError, ValueError):
        raise AnnotationDataError(
            f"hard_rates must be numbers: {shape} (every row the same length)."
        ) from None
    if r.ndim != 2 or r.shape[0] < 1 or r.shape[1] < 1:
        raise AnnotationDataError(f"hard_rates must be {shape}; got shape {r.shape}.")
    if r.shape[0] < 2:
        raise AnnotationDataError(
            "the chance agreement p needs at least two annotators (rows); with one there is "
            "nobody to agree with, so p is undefined.",
            hint="Give one row of category rates per annotator.",
        )
    if not np.all(np.isfinite(r)) or np.any(r < 0):
        raise AnnotationDataError("category rates must be non-negative numbers.")
    sums = r.sum(axis=1)
    if not np.allclose(sums, 1.0, atol=1e-6):
        bad = int(np.flatnonzero(~np.isclose(sums, 1.0, atol=1e-6))[0])
        raise AnnotationDataError(
            f"the rates of annotator {bad + 1} add up to {sums[bad]:.4g}, not 1.",
            hint="Each annotator's category rates on hard items must add up to 1.",
        )
    r = r / sums[:, None]
    # log space: many annotators make tiny products
    with np.errstate(divide="ignore"):
        return float(np.exp(special.logsumexp(np.log(r).sum(axis=0))))


# ---------------------------------------------------------------------- equation (1)


def _prior_log(prior: object, n: int, d: int) -> np.ndarray:
    """log P(B_h) for h = d .. n from an array (h = 0..n) or a Series indexed by h."""
    if isinstance(prior, pd.Series):
        values = prior.reindex(range(n + 1), fill_value=0.0).to_numpy(dtype=float)
    else:
        try:
            values = np.asarray(prior, dtype=float).ravel()
        except (TypeError, ValueError):
            raise AnnotationDataError(
                f"the prior must be {n + 1} non-negative numbers, one weight per number of "
                f"hard items 0..{n}."
            ) from None
        if len(values) != n + 1:
            raise AnnotationDataError(
                f"the prior needs one weight for each number of hard items 0..{n} "
                f"({n + 1} values), not {len(values)}."
            )
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise AnnotationDataError("prior weights must be non-negative numbers.")
    with np.errstate(divide="ignore"):
        return np.log(values[d:])


def _log_nb_weight(j: float, d: int, p: float) -> float:
    """log of ``C(d + j, d) p^j``, the uniform-prior weight of j hidden hard items."""
    return float(
        special.gammaln(d + j + 1)
        - special.gammaln(j + 1)
        - special.gammaln(d + 1)
        + special.xlogy(j, p)
    )


def _uniform_window(n: int, d: int, p: float) -> tuple[int, int]:
    """Hidden-hard counts worth computing under the uniform prior.

    The weights ``C(d + j, d) p^j`` of J = X - d are a negative binomial (d + 1 successes
    of probability 1 - p) cut at ``top = n - d``. They are log-concave: beyond mean +-
    (50 sd + 50) they hold less than exp(-40) of the mass. When the cut binds (mean near
    or beyond ``top``), the window runs from where the log weight is 60 below its value at
    the mode (found by bisection) up to ``top``.
    """
    top = n - d
    if p >= 1.0:
        return 0, top
    r = d + 1.0
    mean = r * p / (1.0 - p)
    sd = math.sqrt(r * p) / (1.0 - p)
    spread = 50.0 * sd + 50.0
    if mean + spread <= top:
        return max(0, math.floor(mean - spread)), math.ceil(mean + spread)
    # weights rise while p (d + j + 1) / (j + 1) >= 1, i.e. up to the mode
    mode = min(top, max(0, math.floor((p * (d + 1) - 1) / (1 - p)) + 1))
    peak = _log_nb_weight(mode, d, p)
    lo, hi = 0, mode
    if _log_nb_weight(0, d, p) >= peak - 60:
        return 0, top
    while hi - lo > 1:  # weight(lo) < peak - 60 <= weight(hi)
        mid = (lo + hi) // 2
        if _log_nb_weight(mid, d, p) >= peak - 60:
            hi = mid
        else:
            lo = mid
    return lo, top


def equation1_posterior(
    n: int, d: int, p: float, prior: object | None = None
) -> tuple[int, np.ndarray]:
    """Posterior of J = X - d, the hidden hard items, by equation (1) in log space.

    ``P(B_h | A_d) ∝ C(h, d) p^(h - d) P(B_h)``, ``h = d .. n``, computed as
    ``gammaln(h + 1) - gammaln(d + 1) - gammaln(h - d + 1) + (h - d) log p + log P(B_h)``.
    With the uniform prior only :func:`_uniform_window` is evaluated. Returns
    ``(offset, pmf)`` with ``pmf[r] = P(J = offset + r | A_d)``; all-zero when the prior
    excludes every h >= d. Raises :class:`AnnotationDataError` for impossible counts or p.
    """
    n, d = check_counts(n, d)
    p = check_probability(p, "p")
    lo, hi = _uniform_window(n, d, p) if prior is None else (0, n - d)
    j = np.arange(lo, hi + 1, dtype=float)
    logw = special.gammaln(d + j + 1) - special.gammaln(j + 1) - special.gammaln(d + 1)
    logw += special.xlogy(j, p)
    if prior is not None:
        logw += _prior_log(prior, n, d)[lo : hi + 1]
    if not np.isfinite(logw.max()):
        return lo, np.zeros(len(j))
    w = np.exp(logw - logw.max())
    return lo, w / w.sum()


def _closed_form_bound(n: int, d: int, p: float, confidence: float) -> NoiseBound:
    """Equation (1) with the uniform prior in closed form, for very wide posteriors.

    Under the uniform prior J = X - d is a negative binomial cut at ``top = n - d``, so
    ``P(J > j | A_d) = (F(top) - F(j)) / F(top)`` with ``F(k) = I_{1-p}(d + 1, k + 1)``
    (the negative binomial cdf, a regularised incomplete beta) and the mean of the cut
    distribution is ``(d + 1) p / (1 - p) F'(top - 1) / F(top)`` with ``F'`` the cdf for
    d + 2 successes. Used when the posterior spreads over more than MAX_WINDOW counts
    (p close to 1, few disagreements); ``t0`` by bisection. The posterior Series is thinned to at most MAX_SERIES
    points for display (said in ``notes``).
    """
    top = n - d
    js = np.arange(top + 1)
    if p >= 1.0:  # flat weights on 0..top (only reachable with d = 0)

        def tail(j: np.ndarray) -> np.ndarray:
            return (top - np.asarray(j, dtype=float)) / (top + 1.0)

        expected = top / 2.0
    else:
        f_top = float(special.betainc(d + 1.0, top + 1.0, 1.0 - p))

        def tail(j: np.ndarray) -> np.ndarray:
            f = special.betainc(d + 1.0, np.asarray(j, dtype=float) + 1.0, 1.0 - p)
            return np.clip((f_top - f) / f_top, 0.0, 1.0)

        below = float(special.betainc(d + 2.0, top, 1.0 - p)) if top >= 1 else 0.0
        expected = (d + 1.0) * p / (1.0 - p) * below / f_top
    lo, hi = 0, top  # smallest j with tail(j) < 1 - confidence lies in [lo, hi]
    while lo < hi:
        mid = (lo + hi) // 2
        if tail(np.array([mid]))[0] < 1.0 - confidence:
            hi = mid
        else:
            lo = mid + 1
    stride = max(1, math.ceil((top + 1) / MAX_SERIES))
    shown = js[::stride]
    above = tail(shown)
    probs = np.where(shown > 0, tail(shown - 1), 1.0) - above
    index = pd.Index(d + shown, name="hard items")
    post = pd.Series(probs, index=index, name="probability")
    return NoiseBound(
        n_items=n,
        n_disagreed=d,
        p=p,
        confidence=confidence,
        t0=int(d + lo),
        hidden_hard=int(lo),
        gamma=lo / top,
        posterior=post,
        tail_at_t0=float(tail(np.array([lo]))[0]),
        expected_hidden=float(expected),
        method="equation (1), closed form (incomplete beta)",
        notes=(
            f"The posterior is spread over {top + 1:,} counts; the curve shows every {stride:,}th.",
        )
        if stride > 1
        else (),
        tail_series=pd.Series(above, index=index, name="P(X > t)"),
    )


def _bound_from_pmf(
    n: int,
    d: int,
    p: float,
    confidence: float,
    offset: int,
    pmf: np.ndarray,
    **kw,
) -> NoiseBound:
    """t0, gamma and the posterior Series from the posterior of the hidden hard items."""
    rev = np.cumsum(pmf[::-1])[::-1]
    tail = np.append(rev[1:], 0.0)  # P(J > offset + r)
    first = int(np.argmax(tail < 1.0 - confidence))
    hidden = offset + first
    t0 = d + hidden
    h = d + offset + np.arange(len(pmf))
    keep = pmf >= pmf.max() * SERIES_FLOOR
    lo_k, hi_k = int(np.argmax(keep)), len(keep) - int(np.argmax(keep[::-1]))
    post = pd.Series(
        pmf[lo_k:hi_k], index=pd.Index(h[lo_k:hi_k], name="hard items"), name="probability"
    )
    expected = float(pmf @ (offset + np.arange(len(pmf))))
    return NoiseBound(
        n_items=n,
        n_disagreed=d,
        p=p,
        confidence=confidence,
        t0=int(t0),
        hidden_hard=int(hidden),
        gamma=hidden / (n - d),
        posterior=post,
        tail_at_t0=float(tail[first]),
        expected_hidden=expected,
        **kw,
    )


def noise_bound(
    n_items: int,
    n_disagreed: int,
    p: float,
    confidence: float = 0.95,
    prior: Sequence[float] | np.ndarray | pd.Series | None = None,
) -> NoiseBound:
    """Upper bound on the coin-flips among the agreed items: equation (1).

    ``P(X > t | A_d) = sum_{i=t+1}^n C(i, d) p^(i-d) P(B_i) / sum_{i=d}^n C(i, d) p^(i-d) P(B_i)``;
    ``t0`` is the smallest t with ``P(X > t | A_d) < 1 - confidence`` and
    ``gamma = (t0 - d) / (n - d)`` (Beigman Klebanov & Beigman 2009, section 2).

    Parameters
    ----------
    n_items
        n, all items (agreed and disagreed).
    n_disagreed
        d, the items on which the annotators disagreed.
    p
        Chance that the annotators agree on a hard item (:func:`agreement_probability`).
    confidence
        alpha, e.g. 0.95.
    prior
        ``P(B_h)`` for h = 0..n (array of n + 1 weights, or a Series indexed by h; need
        not sum to 1). Default: uniform on 0..n, the paper's footnote 5 (the paper writes
        1..n; the two differ only when d = 0).

    Returns
    -------
    NoiseBound
        NaN (with ``reason``) when there are no agreed items, or when p = 1 but
        disagreements were seen.

    Notes
    -----
    Computed exactly in log space (``gammaln``). With the uniform prior only the window
    of h holding all but exp(-40) of the mass is evaluated, so n = 10,000,000 takes
    milliseconds. The paper's section 3.1 example (n = 1000, d = 100, p = 0.5) gives
    t0 = 225 and gamma = 125/900 = 13.9%; the paper prints 13.8% (125/900 truncated).

    Examples
    --------
    >>> r = noise_bound(1000, 100, 0.5)
    >>> r.t0, r.hidden_hard
    (225, 125)
    """
    n, d = check_counts(n_items, n_disagreed)
    p = check_probability(p, "p")
    confidence = check_confidence(confidence)
    kind = "uniform" if prior is None else "given"
    if n == d:
        return _undefined(
            n,
            d,
            p,
            confidence,
            "there are no agreed items, so there is no gold standard to bound.",
            prior=kind,
        )
    if p == 1.0 and d > 0:
        return _undefined(
            n,
            d,
            p,
            confidence,
            "p = 1 says hard items always agree, yet disagreements were seen; check p.",
            prior=kind,
        )
    if prior is None:
        lo, hi = _uniform_window(n, d, p)
        if hi - lo + 1 > MAX_WINDOW:
            return _closed_form_bound(n, d, p, confidence)
    offset, pmf = equation1_posterior(n, d, p, prior)
    if pmf.sum() == 0:
        return _undefined(
            n, d, p, confidence, f"the prior gives no weight to {d} or more hard items.", prior=kind
        )
    return _bound_from_pmf(n, d, p, confidence, offset, pmf, prior=kind)


# ---------------------------------------------------------------------- reverse question
@dataclass(frozen=True)
class MaxDisagreements(_Explained):
    """The most disagreements that still leave the agreed items within ``gamma`` noise.

    ``implied_kappa`` is section 3.3's reading of kappa as the share of easy items,
    ``1 - d / (n (1 - p))`` (expected hard items ``d / (1 - p)``); for two annotators with
    the same category distribution on easy and hard items it is Siegel & Castellan's K.
    """

    n_items: int
    p: float
    gamma_target: float
    confidence: float
    max_disagreed: int
    gamma_at_max: float
    implied_kappa: float
    reason: str = ""

    def explain(self) -> str:
        if self.reason:
            return f"No answer: {self.reason}"
        return (
            f"With {self.n_items:,} items and p = {self.p:.4g}, you can afford at most "
            f"{self.max_disagreed:,} disagreements for the agreed items to be at most "
            f"{format_percent(self.gamma_target)} noise with {100 * self.confidence:g}% confidence "
            f"(kappa about {self.implied_kappa:.2f})."
        )


def max_disagreements(
    n_items: int, p: float, gamma: float, confidence: float = 0.95
) -> MaxDisagreements:
    """The reverse question of section 3.1: the largest d with noise level at most ``gamma``.

    Binary search over d. ``t0`` never decreases as d grows, and gamma does not either
    except for one-item wobbles when the bound is close to its cap ``n - d`` (gamma above
    about 0.57); both are property-tested, and the search is checked against a linear scan
    for every n <= 60. ``max_disagreed`` is -1 with a ``reason`` when even d = 0 exceeds
    ``gamma``.

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
                f"even with no disagreements the {n:,} agreed items could hold more than "
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
    return MaxDisagreements(n, p, target, confidence, lo, g(lo), kappa)


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
    n_items
        n.
    easy_share
        e, the share of easy items (e.g. read off kappa, section 3.3).
    hard_rates
        Category rates on hard items: one distribution shared by every annotator (default
        two equiprobable categories), or a table with a row per annotator (the first k rows
        are used for k annotators).
    k_values
        Numbers of annotators.
    confidence
        alpha.
    p
        Instead of ``hard_rates``: p for each k (sequence aligned with ``k_values``,
        mapping k -> p, or a function of k).

    Returns
    -------
    pandas.DataFrame
        Columns ``annotators, p, expected_agreed, expected_disagreed, t0, hidden_hard,
        gamma, true_noise`` (``true_noise`` is the expected share of hard items among the
        agreed ones, ``n (1 - e) p_k / expected_agreed``, without the confidence margin).
        ``attrs["note"]`` says how p was obtained.
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


# ---------------------------------------------------------------------- chance difference
CHANCE_BOUNDS = ("chebyshev", "normal", "exact")


@dataclass(frozen=True)
class ChanceDifference(_Explained):
    """How many more "correct" answers one system can get than another by noise alone.

    ``S = sum_{i=1}^R X_i``, ``X_i`` in {-1, 0, 1} with probabilities 1/4, 1/2, 1/4, so
    ``sd = sqrt(R / 2)``; ``difference = multiplier * sd`` (Chebyshev: ``1 / sqrt(1 - alpha)``;
    normal: the two-sided z) or, for ``"exact"``, the smallest c with
    ``P(|S| > c) <= 1 - alpha`` (``S + R ~ Binomial(2R, 1/2)``).
    """

    n_gold: int
    n_noisy: float
    bound: str
    confidence: float
    sd: float
    multiplier: float
    difference: float
    share: float
    reason: str = ""

    def explain(self) -> str:
        if self.reason:
            return f"No chance difference: {self.reason}"
        return (
            f"Two systems that are equally good on the easy items can still differ by up to "
            f"{self.difference:.0f} correct answers ({format_percent(self.share)} of the {self.n_gold:,} "
            f"gold items) by chance alone, with {100 * self.confidence:g}% probability "
            f"({self.bound} bound); smaller differences prove nothing."
        )


def chance_difference(
    n_gold: int, n_noisy: float, bound: str = "chebyshev", confidence: float = 0.95
) -> ChanceDifference:
    """Section 4.1: the difference in correct answers noise alone can produce.

    Parameters
    ----------
    n_gold
        L, items in the gold standard.
    n_noisy
        R, coin-flip items among them (e.g. ``NoiseBound.hidden_hard``).
    bound
        ``"chebyshev"`` (the paper's, ``P(|S| > k sd) <= 1/k^2``), ``"normal"`` (footnote 9,
        for large R) or ``"exact"`` (the exact distribution of S; R must be whole).
    confidence
        alpha.

    Examples
    --------
    >>> round(chance_difference(900, 125).difference, 1)
    35.4
    """
    bound = str(bound).lower()
    if bound not in CHANCE_BOUNDS:
        raise AnnotationDataError(
            f"unknown bound {bound!r}; use one of {', '.join(CHANCE_BOUNDS)}."
        )
    confidence = check_confidence(confidence)
    L = check_whole(n_gold, "n_gold", 1)
    R = check_number(n_noisy, "n_noisy")
    if not 0 <= R <= L:
        raise AnnotationDataError(
            f"n_noisy (R = {n_noisy}) must lie between 0 and n_gold (L = {L}): the coin-flip "
            "items are among the gold items."
        )
    sd = math.sqrt(R / 2.0)
    if bound == "chebyshev":
        mult = 1.0 / math.sqrt(1.0 - confidence)
        diff = mult * sd
    elif bound == "normal":
        mult = float(stats.norm.ppf(0.5 + confidence / 2.0))
        diff = mult * sd
    else:
        if R != int(R):
            raise AnnotationDataError("the exact bound needs a whole number of noisy items.")
        r = int(R)
        # P(|S| > c) = 2 P(Binomial(2R, 1/2) > R + c); smallest c with that <= 1 - alpha
        c = np.arange(0, r + 1)
        tails = 2.0 * stats.binom.sf(r + c, 2 * r, 0.5)
        diff = float(c[np.argmax(tails <= 1.0 - confidence)])
        mult = diff / sd if sd > 0 else NAN
    return ChanceDifference(L, R, bound, confidence, sd, mult, diff, diff / L)


# ---------------------------------------------------------------------- kappa
@dataclass(frozen=True)
class KappaNoiseEstimate(_Explained):
    """Section 3.3: kappa read as the share of easy items.

    ``easy = kappa n``; easy items are all agreed, so the agreed items hold about
    ``n_agreed - kappa n`` hard ones: ``noise = (n_agreed - kappa n) / n_agreed``. A point
    estimate without confidence, and only sound when categories are near uniform.
    """

    kappa: float
    n_items: int
    n_agreed: int
    easy_items: float
    hidden_hard: float
    noise: float
    reason: str = ""

    def explain(self) -> str:
        if self.reason:
            return f"No kappa reading: {self.reason}"
        return (
            f"Read as the share of easy items, kappa = {self.kappa:.3g} says about "
            f"{self.easy_items:,.0f} of your {self.n_items:,} items are easy; of the "
            f"{self.n_agreed:,} agreed items about {self.hidden_hard:,.0f} are then coin-flips, "
            f"a noise level of about {format_percent(self.noise)} (an estimate, with no confidence margin)."
        )


def kappa_noise_estimate(kappa: float, n_items: int, n_agreed: int) -> KappaNoiseEstimate:
    """Noise of the agreed items as read from kappa (section 3.3).

    Examples
    --------
    >>> round(kappa_noise_estimate(0.8, 1000, 900).noise, 3)
    0.111

    Raises
    ------
    AnnotationDataError
        Impossible inputs: ``n_items`` not a whole number >= 1, ``n_agreed`` not a whole
        number in 0..n_items, ``kappa`` not a number or outside [-1, 1].

    A legal kappa that cannot be read as a share of easy items (negative: agreement below
    chance; NaN: kappa was undefined) gives NaN with a ``reason``.
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
            "fit the model's reading of kappa (skewed categories make kappa unreliable here)."
        )
    if reason:
        return KappaNoiseEstimate(k, n, a, NAN, NAN, NAN, reason)
    hidden = a - easy
    return KappaNoiseEstimate(k, n, a, easy, hidden, hidden / a)
