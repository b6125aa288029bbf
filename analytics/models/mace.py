"""MACE (Hovy et al. 2013): every annotator either knows the answer or spams.

Annotator j labels an item truthfully with probability :math:`t_j` (their trust); otherwise
they "spam" and draw a label from their own spam distribution :math:`\\xi_j`, whatever the
item. In confusion-matrix form,

.. math::

    p(y = l \\mid z = k, j) = t_j [l = k] + (1 - t_j) \\xi_{jl},

a Dawid-Skene model with 1 + (K - 1) free numbers per annotator, so the Dawid-Skene E-step
applies unchanged.

References
----------
Hovy, D., Berg-Kirkpatrick, T., Vaswani, A. and Hovy, E. (2013). Learning whom to trust
with MACE. *Proceedings of NAACL-HLT 2013*, 1120-1130, section 2 (the generative story,
eq. 1) and section 3 (EM).
"""

from __future__ import annotations

import numpy as np

from analytics.dawid_skene import data_notes
from analytics.models.result import Coded, ModelResult, expected_counts, make_result
from analytics.models.simple import DataEngine

__all__ = ["fit_mace", "mace_confusion"]


def mace_confusion(trust: np.ndarray, spam: np.ndarray) -> np.ndarray:
    """Annotator x true x given matrices :math:`t_j I + (1 - t_j) \\mathbf 1 \\xi_j^\\top`.

    Parameters
    ----------
    trust : ndarray, shape (J,)
        :math:`t_j`, the probability that annotator j labels truthfully.
    spam : ndarray, shape (J, K)
        :math:`\\xi_j`, each annotator's spam distribution over labels.

    Returns
    -------
    ndarray, shape (J, K, K)
    """
    j, k = spam.shape
    theta = np.broadcast_to(((1.0 - trust)[:, None] * spam)[:, None, :], (j, k, k)).copy()
    idx = np.arange(k)
    theta[:, idx, idx] += trust[:, None]
    return theta


class _Mace(DataEngine):
    def __init__(self, coded: Coded, smoothing: float) -> None:
        super().__init__(coded)
        self.s = smoothing
        self.reset()

    def reset(self) -> None:
        coded = self.coded
        self.params = (
            np.full(coded.n_annotators, 0.5),
            np.full((coded.n_annotators, coded.k), 1 / coded.k),
        )

    def m_step(
        self, q: np.ndarray, initial_error: None = None
    ) -> tuple[np.ndarray, tuple, np.ndarray]:
        counts = expected_counts(self.coded, q)  # annotator x true x given
        trust, spam = self.params
        s = self.s
        given = counts.sum(axis=1)  # n_jl: judgements with label l
        on_true = np.diagonal(counts, axis1=1, axis2=2)  # expected judgements with z = l
        # E[knows] for a judgement labelled l: it can be truthful only if z = l
        share = trust[:, None] / (trust[:, None] + (1.0 - trust[:, None]) * spam)
        knows = on_true * np.nan_to_num(share)
        spams = given - knows
        n = given.sum(axis=1)
        trust = (knows.sum(axis=1) + s) / np.maximum(n + 2 * s, np.finfo(float).tiny)
        num = spams + s
        tot = num.sum(axis=1, keepdims=True)
        spam = np.where(tot > 0, num / np.where(tot > 0, tot, 1.0), 1.0 / self.coded.k)
        self.params = (trust, spam)
        pi_num = q.sum(axis=0) + s
        return pi_num / pi_num.sum(), self.params, counts

    def e_step(self, pi: np.ndarray, params: tuple) -> tuple[np.ndarray, float]:
        trust, spam = params
        q, ll = self.data_step(pi, mace_confusion(trust, spam))
        if self.s == 0:
            return q, ll
        with np.errstate(divide="ignore"):
            pen = np.log(trust).sum() + np.log1p(-trust).sum() + np.log(spam).sum()
            pen += np.log(pi).sum()
        return q, ll + self.s * float(pen)


def fit_mace(
    coded: Coded,
    *,
    max_iter: int = 1000,
    tol: float = 1e-7,
    smoothing: float = 0.01,
    init: str = "best",
    seed: int = 0,
) -> ModelResult:
    """MACE by MAP-EM: each annotator's trust and spam distribution.

    Parameters
    ----------
    coded : Coded
        The data; clamped gold items keep their label.
    max_iter : int, default 1000
        Most EM iterations (trust near 1 makes EM creep: ``snow_wsd`` needs about 530).
    tol : float, default 1e-7
        Stop when the relative change of the penalised log-likelihood is below ``tol``.
    smoothing : float, default 0.01
        Pseudo-count :math:`s`: priors :math:`t_j \\sim \\mathrm{Beta}(1 + s, 1 + s)`,
        :math:`\\xi_j \\sim \\mathrm{Dir}(1 + s)`, :math:`\\pi \\sim \\mathrm{Dir}(1 + s)`.
    init : {"best", "majority", "soft", "random"}, default "best"
        Where EM starts (see :func:`analytics.models.simple.fit_one_coin`).
    seed : int, default 0
        Seed of the random starts.

    Returns
    -------
    ModelResult
        ``parameters["trust"]`` (:math:`t_j`, shape J) and ``parameters["spam"]``
        (:math:`\\xi_j`, shape J x K); ``confusion_array`` is :func:`mace_confusion` of them.

    Notes
    -----
    The latent variables are each item's true category :math:`z_i` and, per judgement,
    whether the annotator spammed. Given the posteriors :math:`q`, a judgement of
    annotator j with label l is truthful with expected probability
    :math:`q_{il}\\, t_j / (t_j + (1 - t_j)\\xi_{jl})` (Hovy et al. 2013, section 3), so
    with :math:`N_{jkl}` the expected counts of annotator j's label l on items of true
    category k, the M-step is

    .. math::

        K_{jl} = N_{jll} \\frac{t_j}{t_j + (1 - t_j)\\xi_{jl}}, \\quad
        t_j = \\frac{\\sum_l K_{jl} + s}{n_j + 2s}, \\quad
        \\xi_{jl} \\propto \\sum_k N_{jkl} - K_{jl} + s

    (:math:`n_j` annotator j's judgements), an exact EM for the penalised likelihood
    :math:`\\ell = \\sum_i \\log \\sum_k \\pi_k \\prod_n \\theta_{jj[n], k, y[n]} +
    s \\sum_j [\\log t_j + \\log(1 - t_j) + \\sum_l \\log \\xi_{jl}] + s \\sum_k
    \\log\\pi_k`, which therefore never decreases. Unlike the paper (uniform true labels,
    variational Bayes with random restarts), the prevalence :math:`\\pi` is estimated and
    the starts are majority vote, vote shares and jittered votes (seeded).

    References
    ----------
    Hovy, D., Berg-Kirkpatrick, T., Vaswani, A. and Hovy, E. (2013). Learning whom to
    trust with MACE. *NAACL-HLT 2013*, 1120-1130, eq. 1 and section 3.
    """
    run, start_notes = _Mace(coded, smoothing).from_starts(init, seed, max_iter, tol)
    trust, spam = run.theta
    return make_result(
        coded,
        "mace",
        run.q,
        run.pi,
        mace_confusion(trust, spam),
        run.trace,
        run.n_iter,
        run.converged,
        settings={"max_iter": max_iter, "tol": tol, "smoothing": smoothing, "init": init},
        notes=data_notes(coded.ann) + start_notes,
        parameters={"trust": trust, "spam": spam},
    )
