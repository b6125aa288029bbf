"""How the replay's ``gain`` can score a judgement other than by the plain fitted model.

The options of :func:`analytics.next_labels.replay` that change what ``gain`` believes
(every one off by default, each measured in ``docs/next_labels.md``): confusion matrices
pooled toward the crowd's (:func:`pooled_confusion`) or the crowd's for annotators with no
kept judgement (:func:`crowd_for_unseen`), posteriors mixed with the prevalence
(:func:`contaminated`) or tempered (:func:`tempered`), the expected drop of the error
instead of the entropy (:func:`error_reduction`), and the gain averaged over draws of the
parameters (:func:`gain_over_draws`). Each stays an exact expectation over the answers.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from analytics.data import Annotations
from analytics.next_labels.gain import information

__all__ = [
    "contaminated",
    "crowd_for_unseen",
    "error_reduction",
    "gain_over_draws",
    "pooled_confusion",
    "tempered",
]


def pooled_confusion(ann: Annotations, keep: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Every annotator's confusion matrix shrunk toward the crowd's, by their judgements.

    Parameters
    ----------
    ann : Annotations
    keep : ndarray of bool, shape (n_judgements,)
        The judgements seen so far.
    q : ndarray, shape (n_items, K)
        Posteriors of the current fit.

    Returns
    -------
    ndarray, shape (n_annotators, K, K)
        :math:`\\tilde\\theta_{jk\\cdot} = (N_{jk\\cdot} + K \\bar\\theta_{k\\cdot}) /
        (N_{jk} + K)`, where :math:`N_{jky} = \\sum_{n: j, y} q_{i_n k}` are annotator
        ``j``'s expected counts over the kept judgements and :math:`\\bar\\theta` is the
        crowd's confusion matrix (everyone's counts pooled, rows normalised; a row nobody
        has counts in is uniform).

    Notes
    -----
    The posterior mean of a confusion row under a Dirichlet prior centred on the crowd
    with the weight of a flat Dirichlet (:math:`K` pseudo-judgements). The fitted
    maximum-a-posteriori rows of an annotator with two judgements can look perfect; an
    expected gain computed with them buys that annotator's judgements first (a winner's
    curse). With the shrunk rows an annotator is trusted in proportion to the evidence,
    and one not seen yet is expected to answer like the crowd.

    References
    ----------
    Paun, S. et al. (2018). Comparing Bayesian models of annotation. *TACL* 6, 571-585
    (partially pooled models).
    """
    k = q.shape[1]
    j = ann.n_annotators
    rows = np.flatnonzero(keep)
    cell = ann.annotator_codes[rows] * k + ann.label_codes[rows]
    w = q[ann.item_codes[rows]]
    by_true = [np.bincount(cell, weights=w[:, c], minlength=j * k) for c in range(k)]
    counts = np.stack(by_true, axis=1).reshape(j, k, k).transpose(0, 2, 1)  # j, true, given
    crowd = counts.sum(0)
    total = crowd.sum(1, keepdims=True)
    crowd = np.where(total > 0, crowd / np.where(total > 0, total, 1.0), 1.0 / k)
    return (counts + k * crowd) / (counts.sum(2, keepdims=True) + k)


def crowd_for_unseen(
    ann: Annotations, keep: np.ndarray, q: np.ndarray, theta: np.ndarray
) -> np.ndarray:
    """``theta`` with the crowd's confusion matrix for every annotator not seen in ``keep``.

    The crowd's matrix is everyone's expected counts over the kept judgements pooled, rows
    normalised (:func:`pooled_confusion`'s :math:`\\bar\\theta`); the expected answer of
    an annotator the data says nothing about yet.
    """
    seen = np.bincount(ann.annotator_codes[keep], minlength=ann.n_annotators) > 0
    if seen.all():
        return theta
    k = q.shape[1]
    rows = np.flatnonzero(keep)
    w = q[ann.item_codes[rows]]
    crowd = np.stack(
        [np.bincount(ann.label_codes[rows], weights=w[:, c], minlength=k) for c in range(k)]
    )
    total = crowd.sum(1, keepdims=True)
    crowd = np.where(total > 0, crowd / np.where(total > 0, total, 1.0), 1.0 / k)
    out = theta.copy()
    out[~seen] = crowd
    return out


def contaminated(q: np.ndarray, prevalence: np.ndarray, explore: float) -> np.ndarray:
    """Posteriors mixed with the prevalence: :math:`(1 - \\epsilon) q_i + \\epsilon \\pi`.

    The posterior when, with probability :math:`\\epsilon`, the model's evidence on an
    item is wrong and its true label is a draw from the prevalence (an
    :math:`\\epsilon`-contamination of the posterior; Berger 1985, section 4.7). The
    expected gain under it stays an exact mutual information (never negative, 0 for
    spammers) but is no longer 0 for an item the model is certain of.

    Examples
    --------
    >>> contaminated(np.array([[1.0, 0.0]]), np.array([0.5, 0.5]), 0.1).round(3).tolist()
    [[0.95, 0.05]]
    """
    return (1.0 - explore) * q + explore * np.asarray(prevalence, float)[None, :]


def tempered(q: np.ndarray, prevalence: np.ndarray, temper: float) -> np.ndarray:
    """Posteriors with the evidence of the judgements divided by ``temper``.

    :math:`q^T_{ik} \\propto \\pi_k (q_{ik} / \\pi_k)^{1/T}`: the likelihood part of the
    posterior, :math:`q_{ik} / \\pi_k`, raised to :math:`1/T` (a power likelihood, as when
    :math:`T` judgements are worth one independent one). Log-odds between categories
    shrink by :math:`T`; a category of posterior 0 stays at 0, so a certain item stays
    certain and its gain stays 0.

    Examples
    --------
    >>> tempered(np.array([[0.9, 0.1]]), np.array([0.5, 0.5]), 2.0).round(3).tolist()
    [[0.75, 0.25]]
    """
    pi = np.asarray(prevalence, float)[None, :]
    with np.errstate(divide="ignore"):
        log = np.log(q) / temper + (1.0 - 1.0 / temper) * np.log(np.where(pi > 0, pi, 1.0))
    log -= log.max(1, keepdims=True)
    out = np.exp(log)
    return out / out.sum(1, keepdims=True)


def error_reduction(q: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """Expected decrease of an item's label error :math:`1 - \\max_k q_k` from one answer.

    :math:`E_y[\\max_k q(k \\mid y)] - \\max_k q_k = \\sum_y \\max_k q_k \\theta_{ky} -
    \\max_k q_k`, exact over the answers, broadcast over leading axes. Never negative (the
    posterior's expectation is ``q`` and the maximum is convex), 0 for a certain item and
    for a spammer, and 0 as well when no single answer can change the label (differences
    below 1e-12, rounding noise, read 0).

    Examples
    --------
    >>> error_reduction(np.array([0.5, 0.5]), np.array([[0.9, 0.1], [0.1, 0.9]])).round(3)
    np.float64(0.4)
    """
    joint = q[..., :, None] * theta
    out = joint.max(-2).sum(-1) - q.max(-1)
    return np.where(out > 1e-12, out, 0.0)  # below: rounding noise of rows summing to 1


def gain_over_draws(
    ann: Annotations,
    keep: np.ndarray,
    q: np.ndarray,
    items: np.ndarray,
    anns: np.ndarray,
    draws: int,
    rng: np.random.Generator,
    score: Callable[[np.ndarray, np.ndarray], np.ndarray] = information,
) -> np.ndarray:
    """Expected gain of judgements (``items``, ``anns``) averaged over parameter draws.

    Each draw takes every annotator's confusion rows from
    :math:`\\mathrm{Dir}(1 + N_{jk\\cdot})` and the prevalence from
    :math:`\\mathrm{Dir}(1 + \\sum_i q_i)`, with :math:`N` the expected counts of the kept
    judgements under the posteriors ``q`` (as :func:`~analytics.next_labels.plan` draws
    them), recomputes every item's posterior from its kept judgements under the draw, and
    scores each judgement by :math:`G(q_i^{(s)}, \\theta_j^{(s)})`; the result is the
    mean over the draws, in bits. Each term is an exact mutual information, so the mean
    is never negative; it is larger than the gain under the fitted parameters where an
    item's label hinges on an annotator seen a few times.

    Returns
    -------
    ndarray, shape (len(items),)
    """
    n, k = q.shape
    j = ann.n_annotators
    rows = np.flatnonzero(keep)
    who, what, where = ann.annotator_codes[rows], ann.label_codes[rows], ann.item_codes[rows]
    w = q[where]
    cell = who * k + what
    counts = (
        np.stack([np.bincount(cell, weights=w[:, c], minlength=j * k) for c in range(k)], axis=1)
        .reshape(j, k, k)
        .transpose(0, 2, 1)
    )  # annotator, true, given
    total = np.zeros(len(items))
    for _ in range(draws):
        theta = rng.standard_gamma(counts + 1.0)
        theta /= theta.sum(2, keepdims=True)
        pi = rng.standard_gamma(q.sum(0) + 1.0)
        log_theta = np.log(np.maximum(theta, 1e-300))
        log_q = np.tile(np.log(pi / pi.sum()), (n, 1))
        terms = log_theta[who, :, what]  # kept judgement x true
        for c in range(k):
            log_q[:, c] += np.bincount(where, weights=terms[:, c], minlength=n)
        log_q -= log_q.max(1, keepdims=True)
        qs = np.exp(log_q)
        qs /= qs.sum(1, keepdims=True)
        total += score(qs[items], theta[anns])
    return total / draws
