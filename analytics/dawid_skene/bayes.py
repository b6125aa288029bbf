"""One item's posterior from given Dawid-Skene parameters (Bayes' rule), no fitting.

:func:`posterior` answers "given these annotators' confusion matrices and the prevalence,
how likely is each true category of an item with these labels?", the worked example of
Passonneau & Carpenter (2014, section 2.2.1).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from analytics._core.errors import AnnotationDataError
from analytics._core.validation import check_confusions, check_observed, check_prevalence

__all__ = ["posterior"]


def posterior(
    prevalence: ArrayLike,
    confusions: Sequence[ArrayLike] | np.ndarray,
    observed: Sequence[int | None] | np.ndarray,
) -> np.ndarray:
    """Posterior over the true category of one item, from given parameters (Bayes' rule).

    Parameters
    ----------
    prevalence : array_like, shape (K,)
        :math:`\\pi`, a probability vector of length K (non-negative, finite, summing to
        1 within 1e-9).
    confusions : array_like, shape (J, K, K)
        ``confusions[j]`` is annotator j's K x K matrix (rows: true
        category, columns: given label); every row is a probability vector like
        ``prevalence``.
    observed : sequence of int or None, or ndarray, length J
        J entries: ``observed[j]`` is the 0-based index (0 .. K - 1) of the label annotator
        j gave, or **-1 or None when annotator j did not label the item** (that annotator
        then contributes nothing). Indices must be whole numbers (``1.0`` is accepted as
        1; ``1.7``, NaN, text and negative numbers other than -1 are refused, never
        truncated).

    Returns
    -------
    ndarray of shape (K,)
        :math:`p(z = k \\mid y)`, summing to 1.

    Raises
    ------
    AnnotationDataError
        Parameters of the wrong shape (the message names the expected shape), rows that
        are not probability vectors, bad label indices, or labels that have probability
        zero under every category.

    Notes
    -----
    .. math::

        p(z = k \\mid y, \\theta, \\pi) \\propto \\pi_k \\prod_j \\theta_{j, k, y_j}

    computed in log space.

    References
    ----------
    Dawid, A. P. and Skene, A. M. (1979). Maximum likelihood estimation of observer
    error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28, eq. 2.5.

    Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, section 2.2.1.

    Examples
    --------
    The paper's worked example: majority says category 1, the model says 2.

    >>> th = [[[.75, .25], [.40, .60]], [[.65, .35], [.30, .70]], [[.9, .1], [.2, .8]]]
    >>> posterior([0.2, 0.8], th, [0, 0, 1]).round(2)
    array([0.11, 0.89])
    """
    pi = check_prevalence(prevalence)
    k = pi.shape[0]
    theta = check_confusions(confusions, k)
    obs = check_observed(observed, k, theta.shape[0])
    seen = obs >= 0
    with np.errstate(divide="ignore"):
        log_p = np.log(pi) + np.log(theta[seen, :, obs[seen]]).sum(axis=0)
    if not np.isfinite(log_p).any():
        raise AnnotationDataError(
            "every category has probability zero for these labels: some observed label has "
            "probability zero under every true category (or where the prevalence is not zero).",
            hint="Check the confusion matrices, or smooth them so no cell is exactly 0.",
        )
    log_p -= log_p.max()
    p = np.exp(log_p)
    return p / p.sum()
