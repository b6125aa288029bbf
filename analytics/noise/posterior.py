"""Equation (1) of Beigman Klebanov & Beigman (2009): the posterior of the number of hard
items, given the disagreements.

With ``n`` items, ``d`` of them disagreed (hard for sure) and ``p`` the chance that the
annotators agree on a hard item, the posterior of X, the number of hard items, is
``P(B_h | A_d) ∝ C(h, d) p^(h - d) P(B_h)`` for ``h = d .. n``. This module computes it in
log space, over ``J = X - d``, the hard items hiding among the agreed ones; the bound read
off it is :func:`analytics.noise.bound.noise_bound`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import special

from analytics._core.errors import AnnotationDataError
from analytics._core.validation import check_counts, check_probability

__all__ = ["equation1_posterior", "uniform_window"]

# Window of the uniform prior: counts beyond mean +- (SPREAD_SDS sd + SPREAD_PAD) hold
# less than exp(-40) of the mass; when the cut at n - d binds, the window starts where the
# log weight is LOG_DROP below its peak.
SPREAD_SDS = 50.0
SPREAD_PAD = 50.0
LOG_DROP = 60.0


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


def uniform_window(n: int, d: int, p: float) -> tuple[int, int]:
    """The hidden-hard counts worth computing under the uniform prior.

    Parameters
    ----------
    n : int
        n, all items (at least 1; not checked here: :func:`equation1_posterior` and
        :func:`~analytics.noise.bound.noise_bound` check their arguments first).
    d : int
        d, the disagreed items, ``0 <= d <= n``.
    p : float
        Chance agreement on a hard item, in [0, 1].

    Returns
    -------
    tuple of int
        ``(lo, hi)``: the counts j of hidden hard items, ``lo <= j <= hi <= n - d``, that
        hold all but about ``exp(-40)`` of the posterior mass.

    Notes
    -----
    Under the uniform prior the weights ``C(d + j, d) p^j`` of ``J = X - d`` are a negative
    binomial (``d + 1`` successes of probability ``1 - p``, mean ``(d + 1) p / (1 - p)``,
    sd ``sqrt((d + 1) p) / (1 - p)``) cut at ``top = n - d``. They are log-concave, so
    beyond mean +- (50 sd + 50) they hold less than ``exp(-40)`` of the mass. When the cut
    binds (mean near or beyond ``top``), the window runs from where the log weight is 60
    below its value at the mode (found by bisection) up to ``top``.

    References
    ----------
    Beigman Klebanov, B. & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4): 495-503. Equation (1), with the uniform prior of
    footnote 5.

    Examples
    --------
    >>> uniform_window(1000, 100, 0.5)
    (0, 862)
    """
    top = n - d
    if p >= 1.0:
        return 0, top
    r = d + 1.0
    mean = r * p / (1.0 - p)
    sd = math.sqrt(r * p) / (1.0 - p)
    spread = SPREAD_SDS * sd + SPREAD_PAD
    if mean + spread <= top:
        return max(0, math.floor(mean - spread)), math.ceil(mean + spread)
    # weights rise while p (d + j + 1) / (j + 1) >= 1, i.e. up to the mode
    mode = min(top, max(0, math.floor((p * (d + 1) - 1) / (1 - p)) + 1))
    peak = _log_nb_weight(mode, d, p)
    lo, hi = 0, mode
    if _log_nb_weight(0, d, p) >= peak - LOG_DROP:
        return 0, top
    while hi - lo > 1:  # weight(lo) < peak - LOG_DROP <= weight(hi)
        mid = (lo + hi) // 2
        if _log_nb_weight(mid, d, p) >= peak - LOG_DROP:
            hi = mid
        else:
            lo = mid
    return lo, top


def equation1_posterior(
    n: int, d: int, p: float, prior: object | None = None
) -> tuple[int, np.ndarray]:
    """Posterior of ``J = X - d``, the hidden hard items, by equation (1) in log space.

    Parameters
    ----------
    n : int
        n, all items (agreed and disagreed), a whole number >= 1.
    d : int
        d, the items on which the annotators disagreed, ``0 <= d <= n``.
    p : float
        Chance that the annotators agree on a hard item, in [0, 1].
    prior : array-like of float or pandas.Series, optional
        ``P(B_h)`` for h = 0..n (n + 1 non-negative weights, or a Series indexed by h; need
        not sum to 1). Default None: the uniform prior of footnote 5, of which only the
        window of :func:`uniform_window` is evaluated.

    Returns
    -------
    offset : int
        The smallest count of hidden hard items computed.
    pmf : numpy.ndarray
        ``pmf[r] = P(J = offset + r | A_d)``, summing to 1; all zeros when the prior
        excludes every ``h >= d``.

    Raises
    ------
    AnnotationDataError
        Impossible counts, p outside [0, 1], or a prior that is not n + 1 non-negative
        numbers.

    Notes
    -----
    ``P(B_h | A_d) ∝ C(h, d) p^(h - d) P(B_h)`` for ``h = d .. n``, computed as
    ``gammaln(h + 1) - gammaln(d + 1) - gammaln(h - d + 1) + (h - d) log p + log P(B_h)``
    and normalised with the maximum subtracted (no overflow for n = 10,000,000).

    References
    ----------
    Beigman Klebanov, B. & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4): 495-503. Equation (1), section 2; the uniform prior
    is footnote 5.

    Examples
    --------
    >>> offset, pmf = equation1_posterior(3, 1, 0.5)
    >>> offset, [round(float(x), 4) for x in pmf]
    (0, [0.3636, 0.3636, 0.2727])
    """
    n, d = check_counts(n, d)
    p = check_probability(p, "p")
    lo, hi = uniform_window(n, d, p) if prior is None else (0, n - d)
    j = np.arange(lo, hi + 1, dtype=float)
    logw = special.gammaln(d + j + 1) - special.gammaln(j + 1) - special.gammaln(d + 1)
    logw += special.xlogy(j, p)
    if prior is not None:
        logw += _prior_log(prior, n, d)[lo : hi + 1]
    if not np.isfinite(logw.max()):
        return lo, np.zeros(len(j))
    w = np.exp(logw - logw.max())
    return lo, w / w.sum()
