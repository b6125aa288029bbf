"""The few numbers the verdicts need that no other subpackage states directly."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["expected_label_error"]


def expected_label_error(confidence) -> float:
    """The expected share of wrong model labels, from each item's top posterior.

    Parameters
    ----------
    confidence : array-like of float
        Each item's top posterior probability (``DawidSkeneResult.confidence``).

    Returns
    -------
    float
        :math:`\\frac{1}{n}\\sum_i (1 - \\max_k P(z_i = k \\mid x))`, the expected number of
        wrong labels per item if the model is right about its own uncertainty; NaN without
        items.

    References
    ----------
    Passonneau, R. J., & Carpenter, B. (2014). The benefits of a model of annotation.
    *TACL* 2, 311-326 (section 5: the posterior as the label's certainty).

    Examples
    --------
    >>> expected_label_error([1.0, 0.9, 0.8])
    0.1
    >>> expected_label_error([])
    nan
    """
    values = np.asarray(confidence, dtype=float)
    if values.size == 0:
        return math.nan
    return round(float(np.mean(1.0 - values)), 12)
