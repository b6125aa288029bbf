"""p, the chance that the annotators agree on a hard item (Beigman Klebanov & Beigman 2009).

On a hard item each annotator flips their own coin over the categories; the annotators
agree by chance when all coins land on the same category. p feeds equation (1)
(:func:`analytics.noise.noise_bound`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import special

from analytics._core.errors import AnnotationDataError

__all__ = ["agreement_probability"]


def agreement_probability(
    hard_rates: np.ndarray | pd.DataFrame | Sequence[Sequence[float]],
) -> float:
    """p, the chance that k annotators agree on a hard item.

    Parameters
    ----------
    hard_rates : array-like of float, shape (k, m), or pandas.DataFrame
        One row per annotator (k >= 2), one column per category: annotator j's probability
        of each category on hard items. Every row is a probability vector (non-negative,
        finite, summing to 1 within 1e-6).

    Returns
    -------
    float
        p, in [0, 1].

    Raises
    ------
    AnnotationDataError
        Fewer than two annotators: with one annotator there is nobody to agree with, so
        the chance of agreeing is undefined (it is not 1). Like every other impossible
        input of this module this raises rather than returning NaN: NaN with a reason is
        kept for legal situations that leave a result undefined, and a bare float cannot
        carry a reason. Also raised for rows that are not probability vectors.

    Notes
    -----
    ``p = sum_c prod_j r_jc``, where ``r_jc`` is annotator j's probability of category c on
    hard items: the k annotators agree when all their coins land on the same category.
    Computed in log space (many annotators make tiny products).

    References
    ----------
    Beigman Klebanov, B. & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4): 495-503. Section 2 (the binary formula, here for m
    categories); the rates are estimated from the disagreed items as in footnote 3.

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
