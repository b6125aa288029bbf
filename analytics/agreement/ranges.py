"""The range each coefficient of the agreement report can take, and intervals kept inside it.

A basic bootstrap interval (:math:`2\\hat\\theta - \\theta^\\star`), a jackknife or a
t interval (:math:`\\hat\\theta \\pm t\\,SE`) is not bound to the coefficient's range: on
a handful of items its upper end can pass 1, which no chance-corrected coefficient can
reach. :func:`clip_interval` moves such an end back to the bound, and says whether it did.
Clipping an end to a value the coefficient cannot exceed never excludes the true value, so
coverage can only rise.
"""

from __future__ import annotations

import math

__all__ = ["CLIPPED", "clip_interval", "coefficient_range"]

CLIPPED = "clipped to the coefficient's range"
"""What a method text gains when an interval end was moved back inside the range."""

_BOTH_ENDS = {
    "Percent agreement": (0.0, 1.0),
    # po = 0 forces p_e <= 1/2 for two raters (a_k + b_k <= 1 for every category), so
    # kappa and pi are at least -1, and so is their mean over annotator pairs
    "Cohen's kappa": (-1.0, 1.0),
    "Cohen's kappa (Light's mean over pairs)": (-1.0, 1.0),
    "Scott's pi": (-1.0, 1.0),
    "Scott's pi (mean over pairs)": (-1.0, 1.0),
}


def coefficient_range(name: str) -> tuple[float, float]:
    """The smallest and largest value a report row's coefficient can take.

    Parameters
    ----------
    name : str
        The row's display name in :func:`~analytics.agreement.agreement_report`.

    Returns
    -------
    tuple of float
        ``(low, high)``: percent agreement lies in [0, 1], unweighted Cohen's kappa and
        Scott's pi (and their means over pairs) in [-1, 1]; every other coefficient is
        chance-corrected, :math:`1 - D_o / D_e` with :math:`D_o \\ge 0`, so at most 1, with
        a minimum that depends on the data (``-inf`` here).

    Examples
    --------
    >>> coefficient_range("Percent agreement")
    (0.0, 1.0)
    >>> coefficient_range("Gwet's AC1")
    (-inf, 1.0)
    """
    return _BOTH_ENDS.get(name, (-math.inf, 1.0))


def clip_interval(name: str, low: float, high: float) -> tuple[float, float, bool]:
    """An interval's ends moved back inside the coefficient's range.

    Parameters
    ----------
    name : str
        The report row's display name (see :func:`coefficient_range`).
    low, high : float
        The interval's ends (NaN: no interval, returned as is).

    Returns
    -------
    tuple of (float, float, bool)
        ``(low, high, clipped)``; ``clipped`` says an end was moved.

    Examples
    --------
    >>> clip_interval("Gwet's AC1", 0.02, 1.235)
    (0.02, 1.0, True)
    >>> clip_interval("Percent agreement", -0.1, 0.9)
    (0.0, 0.9, True)
    >>> clip_interval("Gwet's AC1", 0.2, 0.9)
    (0.2, 0.9, False)
    """
    bottom, top = coefficient_range(name)
    new_low = max(low, bottom) if math.isfinite(low) else low
    new_high = min(high, top) if math.isfinite(high) else high
    # a whole interval beyond a bound collapses onto it
    new_low = min(new_low, top) if math.isfinite(new_low) else new_low
    new_high = max(new_high, bottom) if math.isfinite(new_high) else new_high
    clipped = (new_low != low and math.isfinite(low)) or (new_high != high and math.isfinite(high))
    return float(new_low), float(new_high), bool(clipped)
