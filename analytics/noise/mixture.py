"""Hidden hard items when every agreed item has its own chance agreement p_i.

Beigman Klebanov & Beigman (2009) assume one p for all items. In real data items are
labelled by different annotator panels, so the chance that a hard item is agreed by
coin-flip, ``p_i``, differs per item. The paper's uniform prior on the number of hard
items h (footnote 5) is the same as each item being hard independently with probability
``theta``, ``theta ~ Uniform(0, 1)`` (a beta-binomial(1, 1) is uniform on 0..n). Then:

- theta's posterior, given d disagreed items (hard for sure) and the agreed ones, is
  ``f(theta) ∝ theta^d prod_{i agreed} (1 - theta (1 - p_i))``;
- given theta, agreed item i is hard with probability
  ``pi_i = theta p_i / (theta p_i + 1 - theta)``, independently of the others;
- so the number J of hidden hard items is a mixture over theta of Poisson-binomials.

We integrate over theta by Gauss-Legendre quadrature and compute each Poisson-binomial
exactly (DFT of the characteristic function, :mod:`analytics.noise.poisson_binomial`), or, when
that would be too large, with the refined normal approximation. With all ``p_i = p`` the
result is the paper's equation (1): ``P(J = j) ∝ C(d + j, d) p^j`` (tested).

An exact closed form exists too, ``P(J = j) ∝ e_j(p) (d + j)! (n_A - j)!`` with ``e_j`` the
elementary symmetric polynomial of the agreed items' p_i (integrate
``theta^(d+j) (1 - theta)^(n_A - j)`` over theta); it is the exact-rational oracle of the
tests, but its coefficients span too many orders of magnitude to compute it in floating
point for many items.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from scipy import fft, optimize

from analytics._core.validation import (
    check_method,
    check_positive,
    check_probabilities,
    check_whole,
)
from analytics.noise.poisson_binomial import (
    MAX_SERIES_TERMS,
    cf_window,
    log_characteristic,
    log_characteristic_series,
    refined_normal_cdf,
    series_terms,
)

__all__ = ["HiddenHardPosterior", "hidden_hard_posterior"]

DEFAULT_NODES = 48
# Work allowed for the exact transform (see _node_cost), about a second on one core: on
# the shared test machine a power-sum unit took ~1.2 ns (2.6e8 in 0.32 s) and a complex
# logarithm ~100 times more (9e7 of them took 11 s).
DEFAULT_BUDGET = 8e8
LOG_COST = 100.0
LOG_DROP = 50.0  # theta's window: where its log density is within 50 of the maximum
PANEL_NODES = 8  # Gauss-Legendre nodes per panel of the composite rule
PANEL_SDS = 1.5  # J's mean moves by at most this many sds within a panel
POLE_STEP = 0.5  # panels near the pole 1/q: at most 1 - exp(-0.5) = 39% of the distance wide
MAX_PANELS = 1_000
MAX_FULL_NODES = 1_024  # one exact rule on (0, 1) up to n = 2047
GRID = 129  # theta points used to place the panels
MAX_GRID_GROUPS = 512
CHUNK = 4_000_000  # largest nodes x distinct-p block held in memory


@dataclass(frozen=True)
class HiddenHardPosterior:
    """Posterior probabilities of J, the hard items hiding among the agreed ones.

    Built by :func:`hidden_hard_posterior`.

    Attributes
    ----------
    offset : int
        The smallest count of J computed.
    pmf : numpy.ndarray
        ``pmf[r] = P(J = offset + r | data)``; counts outside the window carry less than
        ``exp(-40)`` of the mass.
    method : str
        How the Poisson-binomials were computed (``"exact"`` or ``"refined normal"``).
    n_nodes : int
        Quadrature nodes in theta actually used.
    """

    offset: int
    pmf: np.ndarray
    method: str
    n_nodes: int

    def tail(self) -> np.ndarray:
        """``P(J > offset + r)`` for each r, summed from the right (no cancellation).

        Returns
        -------
        numpy.ndarray
            Same length as :attr:`pmf`.
        """
        rev = np.cumsum(self.pmf[::-1])[::-1]
        return np.append(rev[1:], 0.0)


def _theta_log_density(theta: np.ndarray, d: int, q: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``d log theta + sum_u c_u log(1 - theta q_u)`` (unnormalised), q = 1 - p."""
    theta = np.asarray(theta, dtype=float)
    with np.errstate(divide="ignore"):
        out = (d * np.log(theta)) if d else np.zeros_like(theta)
        out = out + np.log1p(-np.multiply.outer(theta, q)) @ c
    return out


def _theta_window(d: int, q: np.ndarray, c: np.ndarray) -> tuple[float, float]:
    """Where theta's log density is within LOG_DROP of its maximum (it is log-concave)."""

    def slope(t: float) -> float:
        return d / t - float(c @ (q / (1.0 - t * q)))

    eps = 1e-300
    hi_edge = 1.0 - 1e-15
    if d == 0:
        mode = 0.0
    elif slope(hi_edge) >= 0:
        mode = 1.0
    else:
        mode = optimize.brentq(slope, 1e-300, hi_edge, xtol=1e-300, rtol=1e-14)
    top = _theta_log_density(np.array([max(mode, eps)]), d, q, c)[0]

    def edge(a: float, b: float) -> float:
        # a is inside (density high), b outside-or-boundary; bisect in between.
        fb = _theta_log_density(np.array([b]), d, q, c)[0]
        if fb >= top - LOG_DROP:
            return b
        for _ in range(80):
            m = 0.5 * (a + b)
            if _theta_log_density(np.array([m]), d, q, c)[0] >= top - LOG_DROP:
                a = m
            else:
                b = m
        return b

    lo = 0.0 if mode <= 0 else edge(mode, 0.0)
    hi = 1.0 if mode >= 1 else edge(mode, 1.0)
    return lo, hi


@functools.lru_cache(maxsize=32)
def _legendre(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Legendre nodes and weights on (-1, 1) (cached: 1,024 nodes take 0.2 s)."""
    return np.polynomial.legendre.leggauss(n)


def _hard_given_theta(theta: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``pi[g, u] = theta_g p_u / (theta_g p_u + 1 - theta_g)``: an agreed item is hard."""
    num = np.multiply.outer(np.atleast_1d(theta), p)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(num > 0, num / (num + (1.0 - np.atleast_1d(theta))[:, None]), 0.0)


def _pb_mean_sd(theta: np.ndarray, p: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and sd of the hidden hard count at each theta."""
    pi = _hard_given_theta(theta, p)
    return pi @ c, np.sqrt((pi * (1.0 - pi)) @ c)


def _node_moments(
    theta: np.ndarray, p: np.ndarray, c: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Mean, sd, third central moment and largest pi of J given each theta, computed in
    chunks of nodes so that no nodes x distinct-p matrix exceeds CHUNK entries."""
    out = np.empty((4, len(theta)))
    step = max(1, int(CHUNK // max(len(p), 1)))
    for start in range(0, len(theta), step):  # loop over chunks of nodes, not items
        pi = _hard_given_theta(theta[start : start + step], p)
        var_terms = pi * (1.0 - pi)
        out[:, start : start + step] = (
            pi @ c,
            np.sqrt(var_terms @ c),
            (var_terms * (1.0 - 2.0 * pi)) @ c,
            pi.max(axis=1),
        )
    return out[0], out[1], out[2], out[3]


def _panels(
    lo: float, hi: float, d: int, p: np.ndarray, c: np.ndarray, min_panels: int
) -> np.ndarray:
    """Panel edges in theta for the composite Gauss-Legendre rule.

    Two things make the integrand sharp in theta. (1) Given theta, J is a Poisson-binomial
    with sd about sqrt(n), and across theta's posterior its mean can move by many sds (few
    disagreements, p near 1): one rule would then mix a comb of narrow bumps. So theta is
    measured in ``s(theta) = integral |dmean/dtheta| / sd`` and each panel spans at most
    PANEL_SDS of it. (2) ``pi = theta p / (1 - theta q)`` has a pole at ``1 / q``, close to
    1 when some p is small; panels shrink geometrically towards it, each at most
    ``1 - exp(-POLE_STEP)`` of its distance to the pole wide. (3) theta's posterior itself:
    each panel spans at most PANEL_SDS of its local sd. The grid points only place the
    panels.
    """
    q_max = float(1.0 - p.min())
    if len(p) > MAX_GRID_GROUPS:  # placing panels only: a quantile summary of p suffices
        order = np.argsort(p)
        cs, ps = c[order], p[order]
        group = ((np.cumsum(cs) - cs / 2) * MAX_GRID_GROUPS // cs.sum()).astype(np.int64)
        c = np.bincount(group, weights=cs)
        keep = c > 0
        p = np.bincount(group, weights=cs * ps)[keep] / c[keep]
        c = c[keep]
    # a grid fine both in the middle and towards either end (theta^d near 0, the pole near 1)
    tiny = max(lo, 1e-300)
    grid = np.unique(
        np.concatenate(
            [
                np.linspace(lo, hi, GRID),
                np.geomspace(tiny, hi, GRID) if hi > tiny else [],
                hi + lo - np.geomspace(max(lo, hi * 1e-12, 1e-300), hi, GRID)[::-1]
                if hi > lo
                else [],
            ]
        )
    )
    grid = grid[(grid >= lo) & (grid <= hi)]
    mean, sd = _pb_mean_sd(grid, p, c)
    step = np.abs(np.diff(mean)) / np.maximum(0.5 * (sd[1:] + sd[:-1]), 1.0)
    measure = np.concatenate([[0.0], np.cumsum(step)]) / PANEL_SDS
    # (3) theta's own posterior: its local sd is 1 / sqrt(-d^2 log f / dtheta^2)
    with np.errstate(divide="ignore", invalid="ignore"):
        q = 1.0 - p
        curv = d / grid**2 + (q * q / (1.0 - np.multiply.outer(grid, q)) ** 2) @ c
    root = np.sqrt(np.where(np.isfinite(curv), curv, 0.0))
    local = np.minimum(0.5 * (root[1:] + root[:-1]) * np.diff(grid), 50.0)
    measure += np.concatenate([[0.0], np.cumsum(local)]) / PANEL_SDS
    if q_max > 0:
        pole = 1.0 / q_max
        measure += np.log((pole - lo) / (pole - grid)) / POLE_STEP
    count = int(np.clip(np.ceil(measure[-1]), min_panels, MAX_PANELS))
    if measure[-1] <= 0:
        return np.linspace(lo, hi, count + 1)
    return np.interp(np.linspace(0.0, measure[-1], count + 1), measure, grid)


def _nodes(d: int, q: np.ndarray, c: np.ndarray, n_nodes: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Legendre nodes in theta and their posterior weights (summing to 1).

    ``f(theta) P(J = j | theta)`` is, for every j, a polynomial of degree n = d + n_agreed in
    theta (``theta^d prod_hard theta p_i prod_easy (1 - theta)``). So when
    ``n <= 2 MAX_FULL_NODES - 1`` one rule of ``max(n_nodes, ceil((n + 1) / 2))`` nodes on
    (0, 1) integrates it exactly. Otherwise a composite rule (PANEL_NODES per panel, at
    least ``n_nodes`` in all) on theta's window, with panels from :func:`_panels`.
    """
    n = d + round(c.sum())
    if n <= 2 * MAX_FULL_NODES - 1:
        x, w = _legendre(max(n_nodes, -(-(n + 1) // 2)))
        theta, weights = (x + 1.0) / 2.0, w / 2.0
    else:
        lo, hi = _theta_window(d, q, c)
        edges = _panels(lo, hi, d, 1.0 - q, c, -(-n_nodes // PANEL_NODES))
        x, w = _legendre(PANEL_NODES)
        half = np.diff(edges) / 2.0
        theta = (edges[:-1] + half)[:, None] + half[:, None] * x[None, :]
        weights = half[:, None] * w[None, :]
        theta, weights = theta.ravel(), weights.ravel()
    logf = _theta_log_density(theta, d, q, c)
    weights = weights * np.exp(logf - logf.max())
    return theta, weights / weights.sum()


def hidden_hard_posterior(
    p_agreed: np.ndarray,
    n_disagreed: int,
    *,
    n_nodes: int = DEFAULT_NODES,
    budget: float = DEFAULT_BUDGET,
    method: str = "auto",
    power_sums: bool = True,
) -> HiddenHardPosterior:
    """Posterior of the number of hard items among the agreed ones, per-item p_i.

    Parameters
    ----------
    p_agreed : array-like of float
        Chance agreement on a hard item, one per agreed item, each in [0, 1] (values
        repeat: they are grouped, so the cost grows with the number of distinct values).
    n_disagreed : int
        d, the items on which the annotators disagreed, a whole number >= 0.
    n_nodes : int, default 48
        Gauss-Legendre nodes over theta, at least 1.
    budget : float, default 8e8
        Largest ``nodes x frequencies x distinct p`` for the exact transform, a positive
        number; above it the refined normal approximation is used (``method="auto"``).
    method : str, default "auto"
        ``"auto"``, ``"exact"`` or ``"refined normal"``.
    power_sums : bool, default True
        Let the exact path use the power-sum series of the characteristic function where
        it converges fast (False: a complex logarithm per frequency and distinct p; the
        same numbers, slower; for checking).

    Returns
    -------
    HiddenHardPosterior

    Raises
    ------
    AnnotationDataError
        p values outside [0, 1] (or NaN), ``n_disagreed`` not a whole number >= 0, an
        unknown ``method``, ``n_nodes`` < 1 or a ``budget`` that is not a positive number.

    Notes
    -----
    The uniform prior on the number of hard items is each item being hard with
    probability ``theta ~ Uniform(0, 1)``. Then
    ``f(theta | data) ∝ theta^d prod_{i agreed} (1 - theta (1 - p_i))`` and, given theta,
    agreed item i is hard with probability ``pi_i = theta p_i / (theta p_i + 1 - theta)``
    independently, so ``P(J = j) = integral f(theta) PB(j; pi(theta)) dtheta`` with PB the
    Poisson-binomial (Gauss-Legendre quadrature in theta). With all ``p_i = p`` this is
    equation (1): ``P(J = j) ∝ C(d + j, d) p^j``.

    References
    ----------
    Beigman Klebanov, B. & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4): 495-503. Equation (1) and
    footnote 5 (the uniform prior), generalised here to one p per item.

    Hong, Y. (2013). On computing the distribution function for the Poisson binomial
    distribution. *Computational Statistics & Data Analysis* 59: 41-51. The DFT-CF
    method (exact path).

    Volkova, A. Yu. (1996). A refinement of the central limit theorem for sums of
    independent random indicators. *Theory of Probability and Its Applications* 40(4):
    791-794. The refined normal approximation (when the exact transform is over
    ``budget``).

    Examples
    --------
    >>> post = hidden_hard_posterior([0.5, 0.5, 0.5], 1)
    >>> post.offset, [round(float(x), 4) for x in post.pmf]
    (0, [0.3077, 0.3077, 0.2308, 0.1538])
    """
    p = check_probabilities(p_agreed, "the chance agreement p of every agreed item")
    d = check_whole(n_disagreed, "n_disagreed", 0)
    method, n_nodes = check_method(method, n_nodes)
    check_positive(budget, "budget")
    uniq, counts = np.unique(p, return_counts=True)
    c = counts.astype(float)
    q = 1.0 - uniq
    n_agreed = len(p)
    if n_agreed == 0:
        return HiddenHardPosterior(0, np.array([1.0]), "exact", 0)
    theta, weights = _nodes(d, q, c, n_nodes)
    keep = weights > 0
    theta, weights = theta[keep], weights[keep]
    means, sds, thirds, pi_max = _node_moments(theta, uniq, c)
    windows = [cf_window(m, s * s, n_agreed) for m, s in zip(means, sds, strict=True)]
    lo = min(w[0] for w in windows)
    hi = max(w[1] for w in windows)
    size = fft.next_fast_len(hi - lo + 1, real=True)
    terms = [
        series_terms(float(top), float(n_agreed)) if power_sums else MAX_SERIES_TERMS + 1
        for top in pi_max
    ]
    cost = sum(_node_cost(k, size, len(uniq)) for k in terms)
    if method == "auto":
        method = "exact" if cost <= budget else "refined normal"
    if method == "exact":
        pmf = _mixture_exact(theta, uniq, c, weights, lo, size, terms)[: hi - lo + 1]
    else:
        pmf = _mixture_refined(means, sds * sds, thirds, weights, lo, hi)
    pmf = np.clip(pmf, 0.0, None)
    return HiddenHardPosterior(lo, pmf / pmf.sum(), method, len(theta))


def _use_series(terms: int, size: int, n_distinct: int) -> bool:
    """Power sums when they converge within MAX_SERIES_TERMS and cost less than logs."""
    return (
        terms <= MAX_SERIES_TERMS
        and terms * (n_distinct + size // 2 + 1) <= LOG_COST * (size // 2 + 1) * n_distinct
    )


def _node_cost(terms: int, size: int, n_distinct: int) -> float:
    """Work for one node's characteristic function: power-sum series (terms x (distinct p +
    frequencies)) or a complex logarithm per frequency and distinct p (LOG_COST each)."""
    if _use_series(terms, size, n_distinct):
        return float(terms * (n_distinct + size // 2 + 1))
    return LOG_COST * (size // 2 + 1) * n_distinct


def _mixture_exact(
    theta: np.ndarray,
    p: np.ndarray,
    c: np.ndarray,
    weights: np.ndarray,
    lo: int,
    size: int,
    terms: list[int],
) -> np.ndarray:
    """Mix the characteristic functions (a mixture's cf is the mixture of cfs), invert once."""
    shift = np.exp(2j * np.pi * np.arange(size // 2 + 1) * lo / size)
    mixed = np.zeros(size // 2 + 1, dtype=complex)
    for g in range(len(theta)):  # loop over quadrature nodes, not items
        pi = _hard_given_theta(theta[g], p)[0]
        if _use_series(terms[g], size, len(c)):
            logcf = log_characteristic_series(pi, c, size, terms[g])
        else:
            logcf = log_characteristic(pi, c, size)
        mixed += weights[g] * np.exp(logcf)
    return fft.irfft(mixed * shift, n=size)


def _mixture_refined(
    means: np.ndarray,
    variances: np.ndarray,
    thirds: np.ndarray,
    weights: np.ndarray,
    lo: int,
    hi: int,
) -> np.ndarray:
    """Mix refined-normal cdfs over the nodes; probabilities are the cdf's steps."""
    k = np.arange(lo - 1, hi + 1)
    cdf = np.zeros(len(k))
    for g in range(len(weights)):
        cdf += weights[g] * refined_normal_cdf(k, means[g], variances[g], thirds[g])
    cdf = np.maximum.accumulate(np.clip(cdf, 0.0, 1.0))
    return np.diff(cdf)
