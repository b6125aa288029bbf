"""The closed form of equation (1) in log space, where its normaliser underflows.

:func:`~analytics.noise.bound.closed_form_bound` reads the tail of the hidden hard items
off the regularised incomplete beta ``F(k) = I_{1-p}(d + 1, k + 1)``. With p close to 1 and
d so large that nearly every agreed item is hard, ``F(top)`` is below the smallest double
and the ratio ``F(j) / F(top)`` is 0 / 0; here it is ``exp(log F(j) - log F(top))``, from the
incomplete beta's prefactor (a difference of log-gammas) and its continued fraction.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy import special

__all__ = ["lgamma_step", "log_beta_fraction", "log_space_tail"]

# The continued fraction of the incomplete beta: its most terms.
CF_TERMS = 100_000


def lgamma_step(x: float, h: np.ndarray) -> np.ndarray:
    """``lgamma(x + h) - lgamma(x)``, without the cancellation of two values near 1e12.

    Parameters
    ----------
    x : float
        The starting argument, > 0.
    h : numpy.ndarray
        The steps (negative ones too), with ``x + h > 0``.

    Returns
    -------
    numpy.ndarray
        One difference per step.

    Notes
    -----
    Stirling's series where both arguments are at least 1,000 (its next term is below
    1e-18), the difference of ``gammaln`` below that.

    Examples
    --------
    >>> from scipy import special
    >>> bool(abs(lgamma_step(10.0, np.array([5.0]))[0] - (special.gammaln(15) - special.gammaln(10))) < 1e-12)
    True
    """
    h = np.asarray(h, dtype=float)
    y = x + h
    big = np.minimum(x, y) >= 1e3
    with np.errstate(all="ignore"):  # the branch not taken may divide by 0
        stirling = (
            (x - 0.5) * np.log1p(h / x)
            + h * np.log(y)
            - h
            + (1.0 / (12.0 * y) - 1.0 / (12.0 * x))
            - (1.0 / (360.0 * y**3) - 1.0 / (360.0 * x**3))
        )
    return np.where(big, stirling, special.gammaln(np.maximum(y, 1.0)) - special.gammaln(x))


def log_beta_fraction(a: float, b: np.ndarray, x: float) -> np.ndarray:
    """The logarithm of the continued fraction of the regularised incomplete beta.

    Parameters
    ----------
    a : float
        The first shape, > 0.
    b : numpy.ndarray
        The second shapes, > 0.
    x : float
        The argument, with ``x < (a + 1) / (a + b + 2)`` (where the fraction converges).

    Returns
    -------
    numpy.ndarray
        ``log fraction`` with ``I_x(a, b) = x^a (1 - x)^b / (a B(a, b)) * fraction``.

    Notes
    -----
    The modified Lentz method; it stops when a step changes the fraction by less than
    1e-15 (or after 100,000 terms).

    Examples
    --------
    >>> from scipy import special
    >>> a, b, x = 3.0, np.array([4.0]), 0.2
    >>> front = a * np.log(x) + b * np.log1p(-x) - np.log(a) - special.betaln(a, b)
    >>> bool(np.isclose(np.exp(front + log_beta_fraction(a, b, x))[0], special.betainc(a, b, x)))
    True
    """
    b = np.asarray(b, dtype=float)
    tiny = 1e-300

    def guard(v: np.ndarray) -> np.ndarray:
        return np.where(np.abs(v) < tiny, tiny, v)

    c = np.ones_like(b)
    dd = 1.0 / guard(1.0 - (a + b) * x / (a + 1.0))
    h = dd.copy()
    for m in range(1, CF_TERMS):
        even = m * (b - m) * x / ((a - 1.0 + 2 * m) * (a + 2 * m))
        dd = 1.0 / guard(1.0 + even * dd)
        c = guard(1.0 + even / c)
        h *= dd * c
        odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 1.0 + 2 * m))
        dd = 1.0 / guard(1.0 + odd * dd)
        c = guard(1.0 + odd / c)
        step = dd * c
        h *= step
        if np.all(np.abs(step - 1.0) < 1e-15):
            break
    return np.log(h)


def log_space_tail(d: int, top: int, p: float) -> tuple[Any, float]:
    """The closed form's tail and mean when ``F(top)`` underflows to 0.

    Parameters
    ----------
    d : int
        d, the disagreed items.
    top : int
        ``n - d``, the agreed items (the cut of the negative binomial).
    p : float
        Chance agreement on a hard item, ``0 < p < 1``.

    Returns
    -------
    tail : callable
        ``tail(j)``: ``P(J > j | A_d)`` for an array of counts j of hidden hard items.
    expected : float
        The posterior mean of J.

    Notes
    -----
    ``P(J > j) = 1 - F(j) / F(top)`` from ``log F(j) - log F(top)``: the incomplete
    beta's prefactor as a difference of log-gammas (:func:`lgamma_step`) and its
    continued fraction, which converges fast here (the cut is far below the mean, so
    ``x = 1 - p`` is far below ``a / (a + b)``). The mean of the cut distribution is
    ``(d + 1) / (d + 2) * top * fraction(d + 2, top) / fraction(d + 1, top + 1)``.

    Examples
    --------
    >>> tail, mean = log_space_tail(100_000, 9_900_000, 0.999)  # F(top) underflows here
    >>> float(tail(np.array([9_900_000]))[0]), bool(9.8e6 < mean < 9.9e6)
    (0.0, True)
    """
    a, x = d + 1.0, 1.0 - p
    log_keep = math.log1p(-x)
    cf_top = float(log_beta_fraction(a, np.array([top + 1.0]), x)[0])

    def tail(j: np.ndarray) -> np.ndarray:
        h = np.asarray(j, dtype=float) - top
        log_ratio = (
            h * log_keep
            - lgamma_step(top + 1.0, h)
            + lgamma_step(a + top + 1.0, h)
            + log_beta_fraction(a, h + top + 1.0, x)
            - cf_top
        )
        with np.errstate(over="ignore"):
            return np.clip(-np.expm1(np.minimum(log_ratio, 0.0)), 0.0, 1.0) + 0.0  # no -0.0

    cf_below = float(log_beta_fraction(a + 1.0, np.array([float(top)]), x)[0])
    expected = (d + 1.0) / (d + 2.0) * top * math.exp(cf_below - cf_top)
    return tail, expected
