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
exactly (DFT of the characteristic function, :mod:`analytics.poisson_binomial`), or, when
that would be too large, with the refined normal approximation. With all ``p_i = p`` the
result is the paper's equation (1): ``P(J = j) ∝ C(d + j, d) p^j`` (tested).

An exact closed form exists too, ``P(J = j) ∝ e_j(p) (d + j)! (n_A - j)!`` with ``e_j`` the
elementary symmetric polynomial of the agreed items' p_i (integrate
``theta^(d+j) (1 - theta)^(n_A - j)`` over theta); it is the exact-rational oracle of the
tests, but its coefficients span too many orders of magnitude to compute it in floating
point for many items.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import fft, optimize

from .poisson_binomial import (
    MAX_SERIES_TERMS,
    cf_window,
    log_characteristic,
    log_characteristic_series,
    refined_normal_cdf,
    series_terms,
)

__all__ = ["HiddenHardPosterior", "hidden_hard_posterior"]

DEFAULT_NODES = 48
# Work allowed for the exact transform (see _node_cost): about a second on one core
# (measured: 9e7 complex logarithms took 11 s on the shared test machine).
DEFAULT_BUDGET = 3e7
LOG_DROP = 50.0  # theta's window: where its log density is within 50 of the maximum


@dataclass(frozen=True)
class HiddenHardPosterior:
    """Posterior probabilities of J, the hard items hiding among the agreed ones.

    ``pmf[r] = P(J = offset + r | data)``; counts outside the window carry less than
    ``exp(-40)`` of the mass. ``method`` says how the Poisson-binomials were computed.
    """

    offset: int
    pmf: np.ndarray
    method: str
    n_nodes: int

    def tail(self) -> np.ndarray:
        """``P(J > offset + r)`` for each r, summed from the right (no cancellation)."""
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


def _nodes(d: int, q: np.ndarray, c: np.ndarray, n_nodes: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Legendre nodes in theta and their posterior weights (summing to 1).

    When ``n = d + n_agreed <= 2 n_nodes - 1`` the whole of (0, 1) is used: every
    integrand is then a polynomial of degree at most n in theta, integrated exactly.
    """
    n = d + round(c.sum())
    lo, hi = (0.0, 1.0) if n <= 2 * n_nodes - 1 else _theta_window(d, q, c)
    x, w = np.polynomial.legendre.leggauss(n_nodes)
    theta = lo + (hi - lo) * (x + 1.0) / 2.0
    logf = _theta_log_density(theta, d, q, c)
    weights = w * np.exp(logf - logf.max())
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
    p_agreed
        Chance agreement on a hard item, one per agreed item (values repeat: they are
        grouped, so the cost grows with the number of distinct values).
    n_disagreed
        d, the items on which the annotators disagreed.
    n_nodes
        Gauss-Legendre nodes over theta.
    budget
        Largest ``nodes x frequencies x distinct p`` for the exact transform; above it
        the refined normal approximation is used (``method="auto"``).
    method
        ``"auto"``, ``"exact"`` or ``"refined normal"``.
    power_sums
        Let the exact path use the power-sum series of the characteristic function where
        it converges fast (False: a complex logarithm per frequency and distinct p; the
        same numbers, slower; for checking).

    Returns
    -------
    HiddenHardPosterior
    """
    p = np.asarray(p_agreed, dtype=float).ravel()
    d = int(n_disagreed)
    uniq, counts = np.unique(p, return_counts=True)
    c = counts.astype(float)
    q = 1.0 - uniq
    n_agreed = len(p)
    if n_agreed == 0:
        return HiddenHardPosterior(0, np.array([1.0]), "exact", 0)
    theta, weights = _nodes(d, q, c, n_nodes)
    # pi[g, u]: an agreed item of group u is hard, at node g
    with np.errstate(invalid="ignore", divide="ignore"):
        num = np.multiply.outer(theta, uniq)
        pi = np.where(num > 0, num / (num + (1.0 - theta)[:, None]), 0.0)
    var_terms = pi * (1.0 - pi)
    means, variances = pi @ c, var_terms @ c
    windows = [cf_window(m, v, n_agreed) for m, v in zip(means, variances, strict=True)]
    lo = min(w[0] for w in windows)
    hi = max(w[1] for w in windows)
    size = fft.next_fast_len(hi - lo + 1, real=True)
    terms = [
        series_terms(float(row.max()), float(n_agreed)) if power_sums else MAX_SERIES_TERMS + 1
        for row in pi
    ]
    cost = sum(_node_cost(k, size, len(uniq)) for k in terms)
    if method == "auto":
        method = "exact" if cost <= budget else "refined normal"
    if method == "exact":
        pmf = _mixture_exact(pi, c, weights, lo, size, terms)[: hi - lo + 1]
    elif method == "refined normal":
        thirds = var_terms * (1.0 - 2.0 * pi) @ c
        pmf = _mixture_refined(means, variances, thirds, weights, lo, hi)
    else:
        raise ValueError(f"unknown method {method!r}; use 'auto', 'exact' or 'refined normal'.")
    pmf = np.clip(pmf, 0.0, None)
    return HiddenHardPosterior(lo, pmf / pmf.sum(), method, n_nodes)


def _node_cost(terms: int, size: int, n_distinct: int) -> float:
    """Work for one node's characteristic function: power-sum series when it converges fast
    enough, else a complex logarithm per frequency and distinct p (counted 4 times over)."""
    if terms <= MAX_SERIES_TERMS:
        return float(terms * (n_distinct + size // 2 + 1))
    return 4.0 * (size // 2 + 1) * n_distinct


def _mixture_exact(
    pi: np.ndarray, c: np.ndarray, weights: np.ndarray, lo: int, size: int, terms: list[int]
) -> np.ndarray:
    """Mix the characteristic functions (a mixture's cf is the mixture of cfs), invert once."""
    shift = np.exp(2j * np.pi * np.arange(size // 2 + 1) * lo / size)
    mixed = np.zeros(size // 2 + 1, dtype=complex)
    for g in np.flatnonzero(weights > 0):  # loop over quadrature nodes, not items
        if terms[g] <= MAX_SERIES_TERMS:
            logcf = log_characteristic_series(pi[g], c, size, terms[g])
        else:
            logcf = log_characteristic(pi[g], c, size)
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
    for g in np.flatnonzero(weights > 0):
        cdf += weights[g] * refined_normal_cdf(k, means[g], variances[g], thirds[g])
    cdf = np.maximum.accumulate(np.clip(cdf, 0.0, 1.0))
    return np.diff(cdf)
