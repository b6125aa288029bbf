"""Expected information gain: the bits one more judgement is expected to tell about an item.

For an item whose true category :math:`Z` has posterior :math:`q` (given every judgement so
far, under a fitted annotator model) and an annotator whose confusion matrix is
:math:`\\theta` (true x given), the next label :math:`Y` has predictive distribution
:math:`p(y) = \\sum_k q_k \\theta_{ky}`, and after seeing :math:`Y = y` the posterior is
:math:`q_k \\theta_{ky} / p(y)` (Bayes' rule). The expected reduction in the entropy of
:math:`Z`, averaged exactly over the :math:`K` possible answers, is the mutual information
between :math:`Z` and :math:`Y` with :math:`q` as the prior:

.. math::

    G(q, \\theta) = H[q] - \\sum_y p(y) \\, H[Z \\mid Y = y]
                  = I[Z; Y] = H[Y] - H[Y \\mid Z]
                  = H\\Big[\\sum_k q_k \\theta_{k\\cdot}\\Big] - \\sum_k q_k H[\\theta_{k\\cdot}].

The last form needs no division and is computed for every item and annotator at once: one
matrix product for the predictive distributions and one for :math:`H[Y \\mid Z]`.

References
----------
MacKay, D. J. C. (1992). Information-based objective functions for active data selection.
*Neural Computation* 4(4), 590-604.

Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
*Transactions of the ACL* 2, 311-326, sections 2.2.2 and 6.

Cover, T. M. and Thomas, J. A. (1991). *Elements of Information Theory*. Wiley, eq. 2.39.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy.special import entr

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_count
from analytics.data import Annotations
from analytics.next_labels.parameters import annotator_codes, judged_pairs, model_view
from analytics.next_labels.pruning import best_available, no_rounding_noise

__all__ = ["PICKS", "expected_gain", "gain_matrix", "information", "pool_gains"]

PICKS = ("each", "best", "random")
_LN2 = np.log(2.0)
_CHUNK_CELLS = 4_000_000  # items x annotators x categories held at once


def information(q: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """:math:`G(q, \\theta)` in bits, broadcast over leading axes.

    Parameters
    ----------
    q : ndarray, shape (..., K)
        Posteriors (rows sum to 1).
    theta : ndarray, shape (..., K, K)
        Confusion matrices, true x given (rows sum to 1).

    Returns
    -------
    ndarray, shape (...)
        Bits, never negative (rounding noise below
        :data:`~analytics.next_labels.pruning.ROUNDING` nats is reported as 0).
    """
    p = np.einsum("...k,...ky->...y", q, theta)
    h_y = entr(p).sum(-1)
    h_y_given_z = (q * entr(theta).sum(-1)).sum(-1)
    return no_rounding_noise(np.atleast_1d(h_y - h_y_given_z)).reshape(np.shape(h_y)) / _LN2


def gain_matrix(q: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """:math:`G(q_i, \\theta_j)` for every item ``i`` and annotator ``j``, in bits.

    Parameters
    ----------
    q : ndarray, shape (N, K)
    theta : ndarray, shape (J, K, K)

    Returns
    -------
    ndarray, shape (N, J)

    Notes
    -----
    Items are taken in chunks so that at most about four million predictive probabilities
    are held at once; each chunk is two matrix products and one entropy.
    """
    n, k = q.shape
    j = theta.shape[0]
    flat = theta.transpose(1, 0, 2).reshape(k, j * k)  # true x (annotator, given)
    h_rows = entr(theta).sum(-1)  # (J, K): entropy of every confusion row
    out = np.empty((n, j))
    step = max(1, _CHUNK_CELLS // max(1, j * k))
    for a in range(0, n, step):
        qa = q[a : a + step]
        h_y = entr((qa @ flat).reshape(len(qa), j, k)).sum(-1)
        out[a : a + step] = h_y - qa @ h_rows.T
    no_rounding_noise(out)
    out /= _LN2
    return out


def pool_gains(
    q: np.ndarray,
    theta: np.ndarray,
    pool: np.ndarray,
    judged: np.ndarray | None,
    items: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Best and mean gain over the pool members who have not judged each item, by brute force.

    Every (item, pool member) pair is scored (:func:`gain_matrix`, in chunks):
    :math:`N J K` entropy terms. :func:`expected_gain` uses it for the mean (``"random"``);
    the best alone is found much faster, with the same result, by
    :func:`analytics.next_labels.pruning.best_available`.

    Parameters
    ----------
    q : ndarray, shape (N, K)
    theta : ndarray, shape (J, K, K)
        Every annotator of the data.
    pool : ndarray of int
        Codes of the annotators who may give the next judgement.
    judged : ndarray of int or None
        Sorted ``item * J + annotator`` keys of judgements already made (those pairs are
        not available); None: every pair is available.
    items : ndarray of int, optional
        Only these item codes (rows of ``q``), in this order; default every item.

    Returns
    -------
    best : ndarray, shape (N,) or (len(items),)
        The largest gain; NaN when nobody in the pool is available for the item.
    best_annotator : ndarray of int, shape (N,)
        Its annotator code (-1 when nobody is available).
    mean : ndarray, shape (N,)
        The mean gain over the available pool members (a random one of them); NaN when
        nobody is available.
    """
    k = q.shape[1]
    n_ann = theta.shape[0]
    items = np.arange(len(q)) if items is None else np.asarray(items, np.int64)
    n = len(items)
    pool = np.asarray(pool, np.int64)
    where = np.full(n_ann, -1, np.int64)
    where[pool] = np.arange(len(pool))
    best = np.full(n, np.nan)
    best_ann = np.full(n, -1, np.int64)
    mean = np.full(n, np.nan)
    step = max(1, _CHUNK_CELLS // max(1, len(pool) * k))
    for a in range(0, n, step):
        idx = items[a : a + step]
        g = gain_matrix(q[idx], theta[pool])
        if judged is not None and len(judged):
            # the judged keys of these items: one sorted run per item
            lo = np.searchsorted(judged, idx * n_ann)
            size = np.searchsorted(judged, (idx + 1) * n_ann) - lo
            row = np.repeat(np.arange(len(idx)), size)
            keys = judged[
                np.repeat(lo - np.r_[0, np.cumsum(size)[:-1]], size) + np.arange(len(row))
            ]
            col = where[keys % n_ann]
            hit = col >= 0
            g[row[hit], col[hit]] = np.nan
        free = ~np.isnan(g)
        any_free = free.any(1)
        arg = np.argmax(np.where(free, g, -np.inf), axis=1)
        rows = np.arange(len(g))
        best[a : a + len(g)] = np.where(any_free, g[rows, arg], np.nan)
        best_ann[a : a + len(g)] = np.where(any_free, pool[arg], -1)
        with np.errstate(invalid="ignore"):
            mean[a : a + len(g)] = np.where(free, g, 0.0).sum(1) / free.sum(1)
    return best, best_ann, mean


def expected_gain(
    result: Any,
    ann: Annotations,
    *,
    annotators: Any = None,
    pick: str | None = None,
) -> pd.Series | pd.DataFrame:
    """Expected reduction in the entropy of each item's true label from one more judgement.

    Under the fitted model, for every item with posterior :math:`q_i`:

    .. math::

        G_{ij} = H\\Big[\\sum_k q_{ik} \\theta_{jk\\cdot}\\Big]
                 - \\sum_k q_{ik} H[\\theta_{jk\\cdot}]
               = H[q_i] - \\mathbb{E}_{y \\sim p_{ij}} H[q_i \\mid y]

    bits for a judgement by annotator :math:`j` (the mutual information between the item's
    true category and the next label, with the current posterior as the prior). Exact: the
    expectation runs over all :math:`K` answers.

    Parameters
    ----------
    result : fitted annotator model
        :func:`analytics.dawid_skene.fit`'s result, or any model result with
        ``posteriors``, ``prevalence`` and confusion matrices (``confusion_array`` with
        ``annotators``, or a ``confusion`` mapping).
    ann : Annotations
        The annotations the model was fitted on.
    annotators : None, annotator name or list of names, default None
        Who may give the next judgement. None: every annotator of the data (the pool).
    pick : {"each", "best", "random"} or None, default None
        ``"each"``: one column per named annotator (a Series for one name), whether or
        not they already judged the item (a repeat is another independent draw under the
        model); ``"best"``: the best pool member who has not judged the item yet;
        ``"random"``: the mean over the pool members who have not judged it (a platform
        assigning a random available worker). None means ``"random"`` when
        ``annotators`` is None and ``"each"`` otherwise. Cost: ``"each"`` and
        ``"random"`` score every (item, annotator) pair, :math:`N J K` entropy terms
        (seconds at :math:`10^8` pairs); ``"best"`` finds the same maximum by exact
        pruning (:mod:`analytics.next_labels.pruning`), a few pairs per item.

    Returns
    -------
    pandas.Series or pandas.DataFrame
        Bits indexed by item (Series ``expected_gain``), or items x annotators for
        ``"each"`` with several names. NaN for an item nobody in the pool can still
        judge (``"best"`` and ``"random"``); the reason is in ``.attrs["notes"]``.

    Raises
    ------
    AnnotationDataError
        ``result`` was not fitted on ``ann``; an annotator is unknown; ``pick`` is not one
        of :data:`PICKS`.

    Notes
    -----
    :math:`G` is 0 for an item whose posterior is certain (one category has probability
    1) and for a spammer (all confusion rows equal: the label is independent of the
    truth); it never exceeds :math:`H[q_i]`. With :math:`q_i = \\pi` it equals
    :func:`analytics.dawid_skene.mutual_information`.

    References
    ----------
    MacKay, D. J. C. (1992). Information-based objective functions for active data
    selection. *Neural Computation* 4(4), 590-604.

    Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, section 6.

    Examples
    --------
    >>> from analytics.data import load_sample
    >>> from analytics.dawid_skene import fit
    >>> ann = load_sample("crowd_intents")
    >>> g = expected_gain(fit(ann), ann)
    >>> bool((g >= 0).all())
    True
    """
    view = model_view(result, ann)
    if pick is None:
        pick = "random" if annotators is None else "each"
    if pick not in PICKS:
        raise AnnotationDataError(
            f"pick must be one of {', '.join(PICKS)}; got {pick!r}.",
            hint='Use "best" for the best available annotator, "random" for a random one.',
        )
    if annotators is None:
        pool = np.arange(len(view.annotators))
    else:
        pool = annotator_codes(view, annotators)
    if pick == "each":
        g = gain_matrix(view.posteriors, view.confusion[pool])
        if annotators is not None and np.isscalar(annotators):
            return pd.Series(g[:, 0], index=view.items, name="expected_gain")
        return pd.DataFrame(g, index=view.items, columns=view.annotators[pool])
    judged = judged_pairs(ann)
    if pick == "best":
        values = best_available(view.posteriors, view.confusion, pool, judged)[0]
    else:
        values = pool_gains(view.posteriors, view.confusion, pool, judged)[2]
    out = pd.Series(values, index=view.items, name="expected_gain")
    gone = int(out.isna().sum())
    out.attrs["notes"] = (
        (
            f"{format_count(gone, 'item')} already judged by every annotator in the pool: "
            "no gain (NaN).",
        )
        if gone
        else ()
    )
    return out
