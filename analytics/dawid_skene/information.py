"""How much a label tells about the true category: entropy and mutual information.

Passonneau & Carpenter (2014), "The Benefits of a Model of Annotation", section 2.2.2:
with the true category :math:`Z` distributed as the prevalence :math:`\\pi` and an
annotator's label :math:`Y` drawn from row :math:`Z` of the annotator's confusion matrix
:math:`\\theta` (true x given),

.. math::

    H[Z] = -\\sum_k \\pi_k \\log_2 \\pi_k, \\qquad
    H[Z \\mid Y] = \\sum_{k'} p(k') \\, H[Z \\mid Y = k'], \\qquad
    I[Z; Y] = H[Z] - H[Z \\mid Y],

where :math:`p(k') = \\sum_k \\pi_k \\theta_{k k'}` and
:math:`p(k \\mid k') = \\pi_k \\theta_{k k'} / p(k')` (Bayes' rule). All values are in bits.

Functions accept one matrix (K x K) or a stack of matrices (J x K x K, one per annotator)
and are vectorised over the stack.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from analytics._core.errors import AnnotationDataError
from analytics._core.validation import (
    PROBABILITY_TOL,
    check_confusions,
    check_prevalence,
    check_probabilities,
)

__all__ = ["conditional_entropy", "entropy", "mutual_information"]


def _xlogx(p: np.ndarray) -> np.ndarray:
    """p * log2(p) with the convention 0 log 0 = 0."""
    out = np.zeros_like(p, dtype=float)
    pos = p > 0
    out[pos] = p[pos] * np.log2(p[pos])
    return out


def _check(confusion: ArrayLike, prevalence: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """One K x K confusion matrix or a J x K x K stack, and a prevalence of length K.

    Checked by :func:`~analytics._core.validation.check_confusions` (every row a
    probability vector) and :func:`~analytics._core.validation.check_prevalence`; both
    raise :class:`~analytics._core.errors.AnnotationDataError` naming the argument.
    """
    values = confusion.to_numpy() if isinstance(confusion, pd.DataFrame) else confusion
    try:
        shape = np.shape(values)
    except ValueError:  # ragged nested lists: check_confusions says what it must be
        shape = ()
    single = len(shape) == 2
    k = int(shape[-1]) if len(shape) in (2, 3) else 0
    theta = check_confusions(np.asarray(values)[None] if single else values, k)
    pi = check_prevalence(
        prevalence.to_numpy() if isinstance(prevalence, pd.Series) else prevalence, k
    )
    return (theta[0] if single else theta), pi


def entropy(p: ArrayLike) -> float:
    """Shannon entropy in bits, :math:`H = -\\sum_k p_k \\log_2 p_k` (0 log 0 = 0).

    Parameters
    ----------
    p : array_like
        A probability distribution: numbers in [0, 1] summing to 1 (within
        :data:`~analytics._core.validation.PROBABILITY_TOL`). A table (for example a
        joint distribution) is read flattened.

    Returns
    -------
    float
        Bits.

    Raises
    ------
    AnnotationDataError
        ``p`` holds text, NaN or numbers outside [0, 1], or does not sum to 1.

    Notes
    -----
    .. math:: H(p) = -\\sum_k p_k \\log_2 p_k

    References
    ----------
    Cover, T. M. and Thomas, J. A. (1991). *Elements of Information Theory*. Wiley,
    eq. 2.1.

    Examples
    --------
    >>> entropy([0.5, 0.5])
    1.0
    """
    arr = check_probabilities(p, "p")
    total = float(arr.sum())
    if abs(total - 1.0) > PROBABILITY_TOL:
        raise AnnotationDataError(
            f"p must be a probability distribution summing to 1 (within {PROBABILITY_TOL:g}); "
            f"it sums to {total:.12g}.",
            hint="Divide it by its sum.",
        )
    return float(-_xlogx(arr).sum())


def conditional_entropy(confusion: ArrayLike, prevalence: ArrayLike) -> float | np.ndarray:
    """Expected entropy of the true category after one label, :math:`H[Z \\mid Y]`, in bits.

    Passonneau & Carpenter (2014), section 2.2.2 ("Conditional Entropy"). Computed as
    :math:`H[Z, Y] - H[Y]` with the joint :math:`p(k, k') = \\pi_k \\theta_{kk'}`.

    Parameters
    ----------
    confusion : array_like or pandas.DataFrame, shape (K, K) or (J, K, K)
        Rows = true category, columns = given label, rows sum to 1.
    prevalence : array_like or pandas.Series, shape (K,)
        Probability of each true category (sums to 1).

    Returns
    -------
    float or ndarray
        A float for one K x K matrix, an array of length J for a J x K x K stack. With
        fewer than two categories the value is NaN (there is no uncertainty to reduce).

    Raises
    ------
    AnnotationDataError
        ``confusion`` is not K x K (or J x K x K) with every row summing to 1, or
        ``prevalence`` is not a probability vector of length K.

    References
    ----------
    Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, section 2.2.2.

    Cover, T. M. and Thomas, J. A. (1991). *Elements of Information Theory*. Wiley,
    eqs. 2.10 and 2.21 (chain rule).
    """
    theta, pi = _check(confusion, prevalence)
    if theta.shape[-1] < 2:
        return float("nan") if theta.ndim == 2 else np.full(theta.shape[0], np.nan)
    joint = pi[:, None] * theta  # broadcasts over a leading annotator axis
    h_joint = -_xlogx(joint).sum(axis=(-2, -1))
    h_y = -_xlogx(joint.sum(axis=-2)).sum(axis=-1)
    out = np.maximum(h_joint - h_y, 0.0)
    return float(out) if theta.ndim == 2 else out


def mutual_information(confusion: ArrayLike, prevalence: ArrayLike) -> float | np.ndarray:
    """Bits of information one label from an annotator carries about the true category.

    .. math::

        I[Z; Y] = H[Z] - H[Z \\mid Y]
                = \\sum_k \\sum_{k'} \\pi_k \\theta_{kk'}
                  \\log_2 \\frac{\\theta_{kk'}}{\\sum_m \\pi_m \\theta_{m k'}}

    (Passonneau & Carpenter 2014, section 2.2.2; Cover & Thomas 1991, eq. 2.39).
    0 for a spammer (all rows equal: the label is independent of the truth), :math:`H[Z]`
    for a perfect annotator (or a perfectly consistent relabeller).

    Parameters
    ----------
    confusion : array_like or pandas.DataFrame, shape (K, K) or (J, K, K)
        Rows = true category, columns = given label, every row a probability vector
        (sums to 1). One K x K matrix (array or DataFrame) or a J x K x K stack.
    prevalence : array_like or pandas.Series, shape (K,)
        Probability of each true category (sums to 1).

    Returns
    -------
    float or ndarray
        Bits (base-2 logarithm); an array of length J for a stack. NaN with fewer than two
        categories (nothing to learn).

    Raises
    ------
    AnnotationDataError
        ``confusion`` is not K x K (or J x K x K) with every row summing to 1, or
        ``prevalence`` is not a probability vector of length K.

    Notes
    -----
    The paper's worked example (prevalence (0.2, 0.8) and its three response matrices)
    prints conditional entropies 0.71, 0.60, 0.47 and mutual information 0.01, 0.13, 0.25.
    Only the third annotator's figures are right: the exact values are
    0.664 / 0.058, 0.663 / 0.059 and 0.468 / 0.253 bits (checked as :math:`H[Z]-H[Z|Y]` and
    as :math:`H[Y]-H[Y|Z]`; see ``docs/dawid_skene.md``).

    References
    ----------
    Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, section 2.2.2.

    Cover, T. M. and Thomas, J. A. (1991). *Elements of Information Theory*. Wiley,
    eq. 2.39.

    Examples
    --------
    >>> mutual_information([[1.0, 0.0], [0.0, 1.0]], [0.5, 0.5])
    1.0
    >>> mutual_information([[0.5, 0.5], [0.5, 0.5]], [0.5, 0.5])
    0.0
    """
    theta, pi = _check(confusion, prevalence)
    if theta.shape[-1] < 2:
        return float("nan") if theta.ndim == 2 else np.full(theta.shape[0], np.nan)
    # I = H(Y) - H(Y|Z): no division, so zero-probability labels need no special case.
    joint = pi[:, None] * theta
    h_y = -_xlogx(joint.sum(axis=-2)).sum(axis=-1)
    h_y_given_z = -(pi[:, None] * _xlogx(theta)).sum(axis=(-2, -1))
    out = np.maximum(h_y - h_y_given_z, 0.0)
    return float(out) if theta.ndim == 2 else out
