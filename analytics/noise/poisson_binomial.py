"""The Poisson-binomial distribution: the number of successes of independent, unequal coins.

Two ways to compute it, both over *groups* of coins that share a probability (real
annotation data has few distinct annotator panels, so few distinct probabilities):

- :func:`poisson_binomial_pmf`: exact, by the discrete Fourier transform of the
  characteristic function (Hong 2013, "DFT-CF"), restricted to a window around the mean
  that holds all but ~1e-20 of the mass, so its cost is the window width times the number
  of distinct probabilities, not the number of coins squared.
- :func:`refined_normal_cdf`: the refined normal approximation (Volkova 1996; Hong 2013),
  a skewness-corrected normal with continuity correction, for when the exact
  transform would be too large.

Hand-written rather than a library: no installed package offers a Poisson-binomial, and a
plain dynamic programme is O(n^2).
"""

from __future__ import annotations

import numpy as np
from scipy import fft, special

from analytics._core.errors import AnnotationDataError
from analytics._core.validation import check_probabilities

__all__ = [
    "cf_window",
    "log_characteristic",
    "log_characteristic_series",
    "pb_moments",
    "poisson_binomial_pmf",
    "refined_normal_cdf",
    "series_terms",
]

# Mass beyond mean +- (TAIL_SDS * sd + TAIL_PAD) is below exp(-45) by Bernstein's
# inequality P(|X - mu| >= t) <= 2 exp(-t^2 / (2 sd^2 + 2t/3)) for a sum of 0/1 coins.
TAIL_SDS = 10.0
TAIL_PAD = 30.0


def _grouped(probs: np.ndarray, counts: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    probs = check_probabilities(probs, "every coin's success probability")
    if counts is None:
        counts = np.ones(len(probs))
    try:
        counts = np.asarray(counts, dtype=float).ravel()
    except (TypeError, ValueError):
        raise AnnotationDataError("counts must be numbers of coins (whole numbers >= 0).") from None
    if probs.shape != counts.shape:
        raise AnnotationDataError(
            f"probs and counts differ in length ({len(probs)} and {len(counts)}): give one "
            "count per probability."
        )
    if not np.all(counts >= 0) or not np.all(np.isfinite(counts)):
        raise AnnotationDataError("counts must be finite and non-negative (numbers of coins).")
    return probs, counts


def pb_moments(probs: np.ndarray, counts: np.ndarray | None = None) -> tuple[float, float, float]:
    """Mean, variance and third central moment of a Poisson-binomial.

    Parameters
    ----------
    probs : array-like of float
        Success probability of each coin, or of each group of coins, in [0, 1].
    counts : array-like of float, optional
        Number of coins in each group (non-negative). Default None: one coin each.

    Returns
    -------
    tuple of float
        ``(mean, variance, third central moment)``.

    Raises
    ------
    AnnotationDataError
        Probabilities outside [0, 1], or counts negative, not finite or not one per
        probability.

    Notes
    -----
    ``sum c p``, ``sum c p (1 - p)`` and ``sum c p (1 - p) (1 - 2p)`` over groups of ``c``
    coins with success probability ``p``.

    References
    ----------
    Hong, Y. (2013). On computing the distribution function for the Poisson binomial
    distribution. *Computational Statistics & Data Analysis* 59: 41-51.

    Examples
    --------
    >>> pb_moments([0.5, 0.5])
    (1.0, 0.5, 0.0)
    """
    p, c = _grouped(probs, counts)
    var_terms = c * p * (1.0 - p)
    return float(c @ p), float(var_terms.sum()), float(var_terms @ (1.0 - 2.0 * p))


def cf_window(mean: float, var: float, n_max: int) -> tuple[int, int]:
    """Lowest and highest counts worth computing: mean +- (10 sd + 30), clipped to [0, n].

    Parameters
    ----------
    mean, var : float
        Mean and variance of the count.
    n_max : int
        The largest possible count (the number of coins).

    Returns
    -------
    tuple of int
        ``(lo, hi)`` with ``0 <= lo <= hi <= n_max``.

    Notes
    -----
    Bernstein's inequality ``P(|X - mu| >= t) <= 2 exp(-t^2 / (2 sd^2 + 2t/3))`` puts less
    than ``exp(-45)`` of the mass outside.

    Examples
    --------
    >>> cf_window(50.0, 25.0, 100)
    (0, 100)
    """
    spread = TAIL_SDS * np.sqrt(max(var, 0.0)) + TAIL_PAD
    lo = max(0, int(np.floor(mean - spread)))
    hi = min(int(n_max), int(np.ceil(mean + spread)))
    return lo, max(lo, hi)


def log_characteristic(probs: np.ndarray, counts: np.ndarray, size: int) -> np.ndarray:
    """log E[z^X] at z = exp(-2 pi i l / size), l = 0 .. size // 2 (half spectrum).

    Parameters
    ----------
    probs : numpy.ndarray
        Success probability of each group of coins (not checked: see
        :func:`poisson_binomial_pmf`).
    counts : numpy.ndarray
        Number of coins in each group.
    size : int
        Length of the transform.

    Returns
    -------
    numpy.ndarray of complex
        ``size // 2 + 1`` values.

    Notes
    -----
    ``sum_u c_u log(1 - p_u + p_u z)``; a factor that is exactly zero (p = 1/2 at z = -1)
    gives ``-inf`` (the characteristic function is zero there).

    References
    ----------
    Hong, Y. (2013). On computing the distribution function for the Poisson binomial
    distribution. *Computational Statistics & Data Analysis* 59: 41-51. The DFT-CF
    method.
    """
    z = np.exp(-2j * np.pi * np.arange(size // 2 + 1) / size)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.log(1.0 + np.multiply.outer(z - 1.0, probs))
    terms[np.isneginf(terms.real)] = -np.inf
    return terms @ counts


# The power-sum series is used only while it needs at most this many terms.
MAX_SERIES_TERMS = 200
SERIES_TOL = 1e-15


def series_terms(p_max: float, n: float) -> int:
    """Terms K of :func:`log_characteristic_series` for a truncation error below 1e-15.

    Parameters
    ----------
    p_max : float
        The largest success probability.
    n : float
        The number of coins.

    Returns
    -------
    int
        K, between 1 and ``MAX_SERIES_TERMS + 1``.

    Notes
    -----
    The remainder is at most ``n (2 p_max)^(K+1) / ((K + 1)(1 - 2 p_max))`` (``|z - 1| <= 2``);
    returns ``MAX_SERIES_TERMS + 1`` when the series does not converge (``p_max >= 1/2``)
    or would need more terms than that.

    Examples
    --------
    >>> series_terms(0.6, 100) == MAX_SERIES_TERMS + 1
    True
    """
    ratio = 2.0 * p_max
    if ratio >= 1.0:
        return MAX_SERIES_TERMS + 1
    if ratio <= 0.0 or n <= 0:
        return 1
    need = (np.log(SERIES_TOL) - np.log(n) + np.log1p(-ratio)) / np.log(ratio) - 1.0
    return int(min(MAX_SERIES_TERMS + 1, max(1, np.ceil(need))))


def log_characteristic_series(
    probs: np.ndarray, counts: np.ndarray, size: int, terms: int
) -> np.ndarray:
    """:func:`log_characteristic` by power sums, for coins with small probabilities.

    Parameters
    ----------
    probs : numpy.ndarray
        Success probability of each group of coins, all below 1/2.
    counts : numpy.ndarray
        Number of coins in each group.
    size : int
        Length of the transform.
    terms : int
        Terms of the series (:func:`series_terms`).

    Returns
    -------
    numpy.ndarray of complex
        ``size // 2 + 1`` values, as :func:`log_characteristic`.

    Notes
    -----
    ``sum_u c_u log(1 + p_u w) = sum_k (-1)^(k+1) S_k w^k / k`` with ``w = z - 1`` and
    ``S_k = sum_u c_u p_u^k``; it converges for ``p_u |w| < 1``, guaranteed by
    ``max p < 1/2``. Cost: ``terms x (distinct p + frequencies)`` instead of their product,
    which makes the exact transform affordable for 100,000 distinct probabilities.
    """
    power = np.asarray(counts, dtype=float).copy()
    p = np.asarray(probs, dtype=float)
    coef = np.empty(terms)
    for k in range(1, terms + 1):  # loop over series terms, not coins
        power *= p
        coef[k - 1] = (1.0 if k % 2 else -1.0) * power.sum() / k
    w = np.exp(-2j * np.pi * np.arange(size // 2 + 1) / size) - 1.0
    acc = np.zeros_like(w)
    for a in coef[::-1]:  # Horner: w (a_1 + w (a_2 + ...))
        acc = (acc + a) * w
    return acc


def poisson_binomial_pmf(
    probs: np.ndarray, counts: np.ndarray | None = None
) -> tuple[int, np.ndarray]:
    """Exact probabilities of the number of successes, on the window that matters.

    Parameters
    ----------
    probs : array-like of float
        Success probability of each coin, or of each group of coins, in [0, 1].
    counts : array-like of float, optional
        Number of coins in each group. Default None: one coin each.

    Returns
    -------
    offset, pmf
        ``pmf[r] = P(X = offset + r)``. Counts outside the window carry less than
        ``exp(-45)`` of the mass (Bernstein) and are left out.

    Notes
    -----
    ``P(X = k) = 1/M sum_l phi(w_l) exp(-i w_l k)`` with ``w_l = 2 pi l / M`` and
    ``phi(w) = prod_u (1 - p_u + p_u e^{i w})^{c_u}``. Taking ``M`` at least the window
    width, the sum returns the probabilities folded modulo ``M``, which equal the true ones
    up to the mass outside the window.

    Raises
    ------
    AnnotationDataError
        Probabilities outside [0, 1], or counts negative, not finite or not one per
        probability.

    References
    ----------
    Hong, Y. (2013). On computing the distribution function for the Poisson binomial
    distribution. *Computational Statistics & Data Analysis* 59: 41-51. The DFT-CF
    method.

    Examples
    --------
    >>> offset, pmf = poisson_binomial_pmf([0.5, 0.5])
    >>> offset, [round(float(x), 6) for x in pmf]
    (0, [0.25, 0.5, 0.25])
    """
    p, c = _grouped(probs, counts)
    n = round(c.sum())
    mean, var, _ = pb_moments(p, c)
    lo, hi = cf_window(mean, var, n)
    size = fft.next_fast_len(hi - lo + 1, real=True)
    logcf = log_characteristic(p, c, size)
    shift = np.exp(2j * np.pi * np.arange(size // 2 + 1) * lo / size)
    pmf = fft.irfft(np.exp(logcf) * shift, n=size)[: hi - lo + 1]
    pmf = np.clip(pmf, 0.0, None)
    return lo, pmf / pmf.sum()


def refined_normal_cdf(k: np.ndarray, mean: float, var: float, third: float) -> np.ndarray:
    """Refined normal approximation of P(X <= k) (Volkova 1996; Hong 2013).

    Parameters
    ----------
    k : array-like of float
        The counts.
    mean, var, third : float
        Mean, variance and third central moment of X (:func:`pb_moments`).

    Returns
    -------
    numpy.ndarray
        ``P(X <= k)``, each in [0, 1].

    Notes
    -----
    ``G(x) = Phi(x) + gamma (1 - x^2) phi(x) / 6`` with ``x = (k + 0.5 - mean) / sd`` and
    skewness ``gamma = third / sd^3``, clipped to [0, 1]. With zero variance the
    distribution is a point mass at ``mean``.

    References
    ----------
    Volkova, A. Yu. (1996). A refinement of the central limit theorem for sums of
    independent random indicators. *Theory of Probability and Its Applications* 40(4):
    791-794.

    Hong, Y. (2013). On computing the distribution function for the Poisson binomial
    distribution. *Computational Statistics & Data Analysis* 59: 41-51. The refined
    normal approximation (RNA).

    Examples
    --------
    >>> refined_normal_cdf([1], 1.0, 0.5, 0.0).round(4).tolist()
    [0.7602]
    """
    k = np.asarray(k, dtype=float)
    if var <= 0:
        return (k >= np.round(mean)).astype(float)
    sd = np.sqrt(var)
    x = (k + 0.5 - mean) / sd
    skew = third / sd**3
    g = special.ndtr(x) + skew * (1.0 - x * x) * np.exp(-0.5 * x * x) / np.sqrt(2 * np.pi) / 6.0
    return np.clip(g, 0.0, 1.0)
