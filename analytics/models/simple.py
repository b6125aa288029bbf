"""The simplest annotator models: majority vote, Dawid-Skene and one-coin Dawid-Skene.

All three describe annotator j by a K x K confusion matrix :math:`\\theta_j` (rows: true
category, columns: given label); they differ in how many free numbers it has:
majority vote estimates none (it counts votes, and the matrices are read off afterwards),
one-coin Dawid-Skene one per annotator, Dawid-Skene K(K - 1).

References
----------
Dawid, A. P. and Skene, A. M. (1979). Maximum likelihood estimation of observer
error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28.

Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
*Transactions of the ACL* 2, 311-326, section 2.2.

Paun, S., Carpenter, B., Chamberlain, J., Hovy, D., Kruschwitz, U. and Poesio, M. (2018).
Comparing Bayesian models of annotation. *TACL* 6, 571-585, section 3.1 (the "multinomial"
pooled model) and 3.2 (Dawid-Skene).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import numpy as np

from analytics.dawid_skene import EMEngine, EMRun, best_run, data_notes, majority_posteriors
from analytics.dawid_skene import fit as ds_fit
from analytics.models.result import (
    Coded,
    ModelResult,
    expected_counts,
    make_result,
)

__all__ = ["DataEngine", "fit_dawid_skene", "fit_majority", "fit_one_coin", "one_coin_confusion"]


def _clamped(coded: Coded, q: np.ndarray) -> np.ndarray:
    rows = np.flatnonzero(coded.gold >= 0)
    q[rows] = 0.0
    q[rows, coded.gold[rows]] = 1.0
    return q


class DataEngine(EMEngine):
    """:class:`~analytics.dawid_skene.EMEngine` with no penalty, for other models.

    ``data_step(pi, theta)`` is the Dawid-Skene E-step: posteriors and the plain data
    log-likelihood for any confusion matrices. A model subclasses this with its own
    ``m_step(q) -> (pi, params, counts)`` and ``e_step(pi, params) -> (q, objective)``;
    the inherited :meth:`~analytics.dawid_skene.EMEngine.run` is then its EM loop.
    """

    def __init__(self, coded: Coded) -> None:
        k = coded.k
        zero_a, zero_b = np.zeros((k, k)), np.zeros(k)
        super().__init__(coded.c, coded.ct, coded.n_annotators, k, zero_a, zero_b, coded.gold)
        self.coded = coded

    def data_step(self, pi: np.ndarray, theta: np.ndarray) -> tuple[np.ndarray, float]:
        return EMEngine.e_step(self, pi, theta)

    def reset(self) -> None:
        """Forget the state of a previous run (each start begins afresh)."""

    def run(self, q0: np.ndarray, max_iter: int, tol: float) -> EMRun:
        self.reset()
        return EMEngine.run(self, q0, max_iter, tol)

    def from_starts(
        self, init: str, seed: int, max_iter: int, tol: float
    ) -> tuple[EMRun, tuple[str, ...]]:
        """EM from the start(s) ``init`` names (:func:`analytics.dawid_skene.best_run`):
        the most likely run, and notes when starts disagree (labels not identified, or
        EM's answer depends on its start)."""
        ann = self.coded.ann  # random starts drawn in the names' order, not the rows'
        run, start, n_runs, disagree = best_run(
            self, self.coded.votes, init, seed, max_iter, tol, names=(ann.items, ann.categories)
        )
        notes = disagree
        if init == "best":
            notes = (*notes, f"Best of {n_runs} starts: {start} (highest objective).")
        return run, notes


def _normalise_rows(num: np.ndarray) -> np.ndarray:
    den = num.sum(axis=-1, keepdims=True)
    k = num.shape[-1]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), 1.0 / max(k, 1))


def fit_majority(coded: Coded, *, smoothing: float = 0.01) -> ModelResult:
    """Majority vote, ties split equally, with the confusion matrices it implies.

    Parameters
    ----------
    coded : Coded
        The data (:func:`analytics.models.result.code`); clamped gold items keep their label.
    smoothing : float, default 0.01
        Pseudo-count added to every confusion cell and prevalence count when the
        parameters are read off the votes.

    Returns
    -------
    ModelResult
        ``posteriors`` are the vote shares of the top categories (an item whose top count
        is shared by t categories gives each 1/t); ``confusion_array`` and ``prevalence``
        are one M-step of Dawid-Skene from those posteriors; ``log_likelihood`` holds one
        entry, the (unpenalised) Dawid-Skene log-likelihood of those parameters, so that
        majority vote can be compared with the models on the same scale.

    Notes
    -----
    .. math::

        q_{ik} = \\frac{[v_{ik} = \\max_{k'} v_{ik'}]}{\\#\\{k': v_{ik'} = \\max v_i\\}},
        \\qquad \\theta_{jkk'} \\propto \\sum_{n: jj[n]=j, y[n]=k'} q_{ii[n],k} + a

    with :math:`v_{ik}` the votes for category k on item i.

    References
    ----------
    Paun et al. (2018), Comparing Bayesian models of annotation, *TACL* 6, section 2
    (majority voting as the baseline).
    """
    q = _clamped(coded, majority_posteriors(coded.votes))
    counts = expected_counts(coded, q)
    theta = _normalise_rows(counts + smoothing)
    pi = _normalise_rows(q.sum(axis=0) + smoothing)
    _, ll = DataEngine(coded).data_step(pi, theta)
    return make_result(
        coded,
        "majority",
        q,
        pi,
        theta,
        np.array([ll]),
        0,
        True,
        settings={"smoothing": smoothing},
        notes=data_notes(coded.ann),
    )


def fit_dawid_skene(
    coded: Coded, *, gold: Any = None, seed: int = 0, **options: Any
) -> ModelResult:
    """Dawid-Skene as :func:`analytics.dawid_skene.fit` fits it, as a :class:`ModelResult`.

    Parameters
    ----------
    coded : Coded
        The data.
    gold : mapping or pandas.Series, default None
        Known gold, passed on to :func:`analytics.dawid_skene.fit`.
    seed : int, default 0
        Passed on.
    **options
        ``max_iter``, ``tol``, ``smoothing``, ``prior``, ``init``: see
        :func:`analytics.dawid_skene.fit`. Unlike there, ``init`` defaults to
        ``"best"`` (several starts, with a note when they disagree), as in every model
        of this family.

    Returns
    -------
    ModelResult

    Notes
    -----
    MAP-EM of :math:`\\theta_{jk} \\sim \\mathrm{Dir}(a + 1)`, :math:`\\pi \\sim
    \\mathrm{Dir}(b + 1)`, :math:`y \\sim \\mathrm{Categorical}(\\theta_{jj[n], z_{ii[n]}})`
    (Dawid & Skene 1979, eqs. 2.3-2.5).

    References
    ----------
    Dawid, A. P. and Skene, A. M. (1979). *Applied Statistics* 28(1), 20-28.
    """
    r = ds_fit(coded.ann, gold=gold, seed=seed, **{"init": "best", **options})
    values = {f.name: getattr(r, f.name) for f in fields(r)}
    notes = values.pop("notes")
    if not r.converged:
        notes = (
            *notes,
            f"The dawid_skene fit did not converge in {r.n_iter} iterations; its labels may "
            "still change with more iterations (raise max_iter).",
        )
    return ModelResult(**values, notes=notes, model="dawid_skene")


def one_coin_confusion(accuracy: np.ndarray, k: int) -> np.ndarray:
    """Confusion matrices of one-coin annotators: ``accuracy`` on the diagonal, the rest
    spread evenly over the K - 1 wrong labels.

    Parameters
    ----------
    accuracy : ndarray, shape (J,)
    k : int

    Returns
    -------
    ndarray, shape (J, K, K)
    """
    accuracy = np.asarray(accuracy, float)
    if k < 2:
        return np.ones((len(accuracy), k, k))
    off = (1.0 - accuracy) / (k - 1)
    theta = np.broadcast_to(off[:, None, None], (len(accuracy), k, k)).copy()
    idx = np.arange(k)
    theta[:, idx, idx] = accuracy[:, None]
    return theta


class _OneCoin(DataEngine):
    def __init__(self, coded: Coded, smoothing: float) -> None:
        super().__init__(coded)
        self.s = smoothing

    def m_step(
        self, q: np.ndarray, initial_error: None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        counts = expected_counts(self.coded, q)
        correct = np.trace(counts, axis1=1, axis2=2)
        total = counts.sum(axis=(1, 2))
        acc = (correct + self.s) / np.maximum(total + 2 * self.s, np.finfo(float).tiny)
        pi = _normalise_rows(q.sum(axis=0) + self.s)
        return pi, acc, counts

    def e_step(self, pi: np.ndarray, acc: np.ndarray) -> tuple[np.ndarray, float]:
        q, ll = self.data_step(pi, one_coin_confusion(acc, self.coded.k))
        if self.s == 0:
            return q, ll
        with np.errstate(divide="ignore"):
            pen = self.s * (np.log(acc).sum() + np.log1p(-acc).sum() + np.log(pi).sum())
        return q, ll + float(pen)


def fit_one_coin(
    coded: Coded,
    *,
    max_iter: int = 500,
    tol: float = 1e-7,
    smoothing: float = 0.01,
    init: str = "best",
    seed: int = 0,
) -> ModelResult:
    """One-coin Dawid-Skene: each annotator is right with probability :math:`a_j`, and a
    wrong label is any other category with equal chance.

    Parameters
    ----------
    coded : Coded
        The data; clamped gold items keep their label.
    max_iter : int, default 500
        Most EM iterations.
    tol : float, default 1e-7
        Stop when the relative change of the penalised log-likelihood is below ``tol``.
    smoothing : float, default 0.01
        Pseudo-count :math:`s`: prior :math:`a_j \\sim \\mathrm{Beta}(1 + s, 1 + s)` and
        :math:`\\pi \\sim \\mathrm{Dir}(1 + s)`.
    init : {"best", "majority", "soft", "random"}, default "best"
        Where EM starts (as in :func:`analytics.dawid_skene.fit`); ``"best"`` runs from
        majority vote, vote shares and jittered votes and keeps the most likely fit,
        saying in ``notes`` when equally likely starts label items differently (the
        labels are not identified).
    seed : int, default 0
        Seed of the random starts.

    Returns
    -------
    ModelResult
        ``parameters["accuracy"]``: :math:`a_j` per annotator.

    Notes
    -----
    :math:`\\theta_{jkk} = a_j`, :math:`\\theta_{jkk'} = (1 - a_j)/(K - 1)` for
    :math:`k' \\ne k`. MAP-EM maximises

    .. math::

        \\ell = \\sum_i \\log \\sum_k \\pi_k \\prod_{n: ii[n]=i} \\theta_{jj[n], k, y[n]}
          + s \\sum_j [\\log a_j + \\log(1 - a_j)] + s \\sum_k \\log \\pi_k

    with M-step :math:`a_j = (\\sum_k N_{jkk} + s) / (\\sum_{k,k'} N_{jkk'} + 2s)`
    (expected counts :math:`N`).

    References
    ----------
    Dawid, A. P. and Skene, A. M. (1979). *Applied Statistics* 28(1), 20-28 (the general
    model); the one-parameter restriction is the "one-coin" model of Zhang, Y., Chen, X.,
    Zhou, D. and Jordan, M. I. (2016), Spectral methods meet EM, *JMLR* 17(102), eq. 3;
    Paun et al. (2018), *TACL* 6, section 3.
    """
    run, start_notes = _OneCoin(coded, smoothing).from_starts(init, seed, max_iter, tol)
    acc = run.theta
    return make_result(
        coded,
        "one_coin",
        run.q,
        run.pi,
        one_coin_confusion(acc, coded.k),
        run.trace,
        run.n_iter,
        run.converged,
        settings={"max_iter": max_iter, "tol": tol, "smoothing": smoothing, "init": init},
        notes=data_notes(coded.ann) + start_notes,
        parameters={"accuracy": acc},
    )
