"""GLAD (Whitehill et al. 2009): annotator ability and item difficulty.

Annotator j has an ability :math:`\\alpha_j` (negative: adversarial) and item i an
easiness :math:`\\beta_i = e^{b_i} > 0`; a label is right with probability
:math:`\\sigma(\\alpha_j \\beta_i)` and otherwise one of the K - 1 wrong categories at
random. It is the one model here with a parameter per item: an item that confuses
everyone is recognised as hard instead of making every annotator look bad (the "item
difficulty" random effect of Passonneau & Carpenter 2014, section 2.2.3).

References
----------
Whitehill, J., Ruvolo, P., Wu, T., Bergsma, J. and Movellan, J. (2009). Whose vote should
count more: optimal integration of labels from labelers of unknown expertise. *NIPS 22*,
2035-2043, eqs. 1-2 (model), section 3 (EM).
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit, log_expit

from analytics._core.errors import AnnotationDataError
from analytics._core.validation import check_choice
from analytics.dawid_skene import data_notes
from analytics.models.result import Coded, ModelResult, make_result
from analytics.models.simple import DataEngine, one_coin_confusion

__all__ = ["fit_glad", "glad_scores"]

#: Newton steps per block (abilities, then easiness) in one M-step; backtracking halvings.
N_NEWTON, N_HALVE = 1, 12


def glad_scores(alpha: np.ndarray, b: np.ndarray, coded: Coded) -> np.ndarray:
    """:math:`x_n = \\alpha_{jj[n]} e^{b_{ii[n]}}` for every judgement."""
    return alpha[coded.jj] * np.exp(b)[coded.ii]  # one exp per item, not per judgement


class _Glad(DataEngine):
    """E- and M-steps on coded data; everything vectorised over judgements.

    The inherited :meth:`~analytics.dawid_skene.EMEngine.run` is the EM loop; the
    "confusion" parameters it carries are the pair (alpha, b).
    """

    def __init__(
        self, coded: Coded, smoothing: float, mean_alpha: float, mean_b: float, fixed: bool
    ):
        super().__init__(coded)
        self.s, self.fixed = smoothing, fixed
        self.mu_a, self.mu_b = mean_alpha, mean_b
        self.cell = coded.ii * coded.k + coded.yy  # (item, given label) of each judgement
        self.reset()

    def reset(self) -> None:
        c = self.coded
        self.params = (np.full(c.n_annotators, self.mu_a), np.full(c.n_items, self.mu_b))
        self.cache: tuple = (None, None, None, None, None)

    def _terms(self, alpha, b, beta=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:math:`e^{b_i}`, the score :math:`x_n` and :math:`\\log\\sigma(x_n)` of every
        judgement. The last full computation is kept: the M-step's first block starts
        from the E-step's parameters, each block from the previous block's accepted
        step and the E-step from the last block's, so each is computed once."""
        cached_alpha, cached_b, cached_beta, cached_x, cached_log_s = self.cache
        if cached_alpha is alpha and cached_b is b:
            return cached_beta, cached_x, cached_log_s
        c = self.coded
        if beta is None:
            beta = cached_beta if cached_b is b else np.exp(b)[c.ii]  # one exp per item
        x = alpha[c.jj] * beta
        log_s = log_expit(x)
        self.cache = (alpha, b, beta, x, log_s)
        return beta, x, log_s

    def e_step(self, pi: np.ndarray, params: tuple) -> tuple[np.ndarray, float]:
        alpha, b = params
        c = self.coded
        n_i, k = c.n_items, c.k
        _, x, right = self._terms(alpha, b)
        # log p(one given wrong label) = log s(-x) - log(K - 1), log s(-x) = log s(x) - x
        wrong = right - x - np.log(k - 1)
        s = np.bincount(self.cell, right - wrong, n_i * k).reshape(n_i, k)
        s += np.bincount(c.ii, wrong, n_i)[:, None]
        with np.errstate(divide="ignore"):
            s += np.log(pi)
        gold_ll = s[self.gold_rows, c.gold[self.gold_rows]]
        top = s.max(axis=1)
        q = np.exp(s - top[:, None])
        z = q.sum(axis=1)
        q /= z[:, None]
        ll_items = top + np.log(z)
        ll_items[self.gold_rows] = gold_ll
        q[self.gold_rows] = 0.0
        q[self.gold_rows, c.gold[self.gold_rows]] = 1.0
        with np.errstate(divide="ignore"):
            pen = self.s * np.log(pi).sum() if self.s > 0 and not self.fixed else 0.0
        pen -= 0.5 * (((alpha - self.mu_a) ** 2).sum() + ((b - self.mu_b) ** 2).sum())
        return q, float(ll_items.sum() + pen)

    def _block(self, p, alpha, b, which: str) -> np.ndarray:
        """Damped Newton on one block (abilities or easiness), per-coordinate backtracking
        so each coordinate's part of the expected complete log-likelihood never falls.

        Coordinates are independent given the other block, so only the coordinates that
        got worse are halved, and only their judgements are recomputed."""
        c = self.coded
        group, size = (c.jj, c.n_annotators) if which == "alpha" else (c.ii, c.n_items)
        mu = self.mu_a if which == "alpha" else self.mu_b
        own = alpha if which == "alpha" else b
        fixed_beta, x, log_s = self._terms(alpha, b)

        def objective(own_new, x, log_s, sel=slice(None)):
            # p log s(x) + (1 - p) log s(-x) = log s(x) - (1 - p) x: one log_expit
            q_ = np.bincount(group[sel], log_s - (1 - p[sel]) * x, size)
            return q_ - 0.5 * (own_new - mu) ** 2

        def full(own_new):
            if which == "alpha":
                _, x, log_s = self._terms(own_new, b, fixed_beta)
            else:
                _, x, log_s = self._terms(alpha, own_new, np.exp(own_new)[c.ii])
            return objective(own_new, x, log_s)

        def some(own_new, rows):
            if which == "alpha":
                x = own_new[c.jj[rows]] * fixed_beta[rows]
            else:
                x = alpha[c.jj[rows]] * np.exp(own_new)[c.ii[rows]]
            return objective(own_new, x, log_expit(x), rows)

        before = objective(own, x, log_s)
        sig = expit(x)
        if which == "alpha":
            beta = fixed_beta
            grad = np.bincount(group, (p - sig) * beta, size) - (alpha - mu)
            hess = np.bincount(group, sig * (1 - sig) * beta**2, size) + 1.0
        else:
            g = (p - sig) * x
            grad = np.bincount(group, g, size) - (b - mu)
            hess = np.bincount(group, sig * (1 - sig) * x**2 + np.abs(g), size) + 1.0
        step = grad / hess
        new = own + step
        after = full(new)
        worse = after < before - 1e-10 * (1.0 + np.abs(before))
        for _ in range(N_HALVE):
            if not worse.any():
                return new
            step = np.where(worse, 0.5 * step, step)
            new = own + step
            rows = worse[group]
            after = some(new, rows)
            worse &= after < before - 1e-10 * (1.0 + np.abs(before))
        return np.where(worse, own, new)

    def m_step(self, q: np.ndarray, initial_error: None = None) -> tuple[np.ndarray, tuple, None]:
        c = self.coded
        alpha, b = self.params
        # posterior that each judgement's label is the true one
        p = np.ascontiguousarray(q).ravel()[self.cell]
        for _ in range(N_NEWTON):
            alpha = self._block(p, alpha, b, "alpha")
            b = self._block(p, alpha, b, "b")
        self.params = (alpha, b)
        pi = np.ones(c.k) if self.fixed else q.sum(axis=0) + self.s
        return pi / pi.sum(), self.params, None


def fit_glad(
    coded: Coded,
    *,
    max_iter: int = 500,
    tol: float = 1e-7,
    smoothing: float = 0.01,
    prevalence: str = "uniform",
    init: str = "best",
    seed: int = 0,
) -> ModelResult:
    """GLAD by MAP-EM (generalised EM: damped Newton steps in the M-step).

    Parameters
    ----------
    coded : Coded
        The data (at least two categories and two annotators); clamped gold items keep
        their label.
    max_iter : int, default 500
        Most EM iterations.
    tol : float, default 1e-7
        Stop when the relative change of the penalised log-likelihood is below ``tol``.
    smoothing : float, default 0.01
        Pseudo-count of the prevalence prior :math:`\\pi \\sim \\mathrm{Dir}(1 + s)`
        when the prevalence is estimated.
    prevalence : {"uniform", "estimate"}, default "uniform"
        ``"uniform"``: the true categories are equally likely a priori, as in the paper
        (and crowd-kit); ``"estimate"``: :math:`\\pi` is estimated by MAP-EM. With item
        difficulties free, an estimated prevalence can run away to one category (on
        ``welinder_bluebirds`` it reaches 0.94 and accuracy falls from 0.72 to 0.57).
    init : {"best", "majority", "soft", "random"}, default "best"
        Where EM starts (see :func:`analytics.models.simple.fit_one_coin`); every start
        begins at :math:`\\alpha = 1`, :math:`b = 1`.
    seed : int, default 0
        Seed of the random starts.

    Returns
    -------
    ModelResult
        ``parameters["alpha"]`` (ability per annotator), ``parameters["beta"]``
        (easiness :math:`e^{b_i}` per item). ``confusion_array[j]`` is one-coin with
        accuracy :math:`\\frac{1}{n_j} \\sum_{n: jj[n]=j} \\sigma(\\alpha_j\\beta_{ii[n]})`,
        the annotator's mean chance of being right on the items they labelled
        (:math:`\\sigma(\\alpha_j e^{1})`, the prior-mean item, for an annotator with no
        judgement); the model's own matrices differ per item.

    Raises
    ------
    AnnotationDataError
        Fewer than two categories or fewer than two annotators (ability and
        difficulty cannot be told apart).

    Notes
    -----
    .. math::

        p(y_n = l \\mid z_i = k) = \\begin{cases} \\sigma(\\alpha_j\\beta_i) & l = k \\\\
            (1 - \\sigma(\\alpha_j\\beta_i)) / (K - 1) & l \\ne k \\end{cases}

    with priors :math:`\\alpha_j \\sim N(1, 1)`, :math:`b_i = \\log\\beta_i \\sim N(1, 1)`
    (crowd-kit's defaults), :math:`\\pi \\sim \\mathrm{Dir}(1 + s)`. The M-step raises
    the expected complete log-likelihood
    :math:`\\sum_n [p_n \\log\\sigma(x_n) + (1 - p_n)\\log(1 - \\sigma(x_n))]` with
    :math:`p_n = q_{ii[n], y[n]}`, :math:`x_n = \\alpha_j e^{b_i}` by alternating
    Newton steps on the abilities and the easiness (each coordinate backtracked until it
    does not decrease), so the penalised log-likelihood never decreases. Started from
    :math:`\\alpha = 1`, :math:`b = 1` (Whitehill et al. 2009, section 3).

    References
    ----------
    Whitehill, J., Ruvolo, P., Wu, T., Bergsma, J. and Movellan, J. (2009). Whose vote
    should count more. *NIPS 22*, 2035-2043, eqs. 1-5.
    """
    if coded.k < 2 or coded.n_annotators < 2:
        raise AnnotationDataError(
            "GLAD needs at least two categories and two annotators (with one annotator, "
            "ability and item difficulty cannot be told apart).",
            hint="Use majority vote or Dawid-Skene, which report this case in their notes.",
        )
    fixed = check_choice(prevalence, "prevalence", ("uniform", "estimate")) == "uniform"
    engine = _Glad(coded, smoothing, 1.0, 1.0, fixed)
    run, start_notes = engine.from_starts(init, seed, max_iter, tol)
    alpha, b = run.theta
    # each annotator's mean chance of being right over the items they labelled (an
    # annotators x items table would not fit in memory for large data)
    right = expit(glad_scores(alpha, b, coded))
    n_j = np.bincount(coded.jj, minlength=coded.n_annotators)
    with np.errstate(invalid="ignore", divide="ignore"):
        acc = np.bincount(coded.jj, right, coded.n_annotators) / n_j
    acc = np.where(n_j > 0, acc, expit(alpha * np.exp(engine.mu_b)))
    return make_result(
        coded,
        "glad",
        run.q,
        run.pi,
        one_coin_confusion(acc, coded.k),
        run.trace,
        run.n_iter,
        run.converged,
        settings={
            "max_iter": max_iter,
            "tol": tol,
            "smoothing": smoothing,
            "prevalence": prevalence,
        },
        notes=data_notes(coded.ann) + start_notes,
        parameters={"alpha": alpha, "beta": np.exp(b)},
    )
