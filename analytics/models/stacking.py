"""Stacking: the models' posteriors averaged with weights that predict held-out judgements best.

Choosing the single model with the best held-out score throws away what the others know;
on crowds where two models each get some items right, a weighted average of their
predictive distributions predicts better than either. Stacking (Wolpert 1992; for Bayesian
predictive distributions Yao, Vehtari, Simpson & Gelman 2018) picks the weights that
maximise the held-out log score of the mixture, from the same item-grouped
cross-validation :func:`~analytics.models.compare` runs, without gold. Choosing one model
is the special case of a weight 1.

References
----------
Yao, Y., Vehtari, A., Simpson, D. and Gelman, A. (2018). Using stacking to average Bayesian
predictive distributions. *Bayesian Analysis* 13(3), 917-1007, eq. 4.

Wolpert, D. H. (1992). Stacked generalization. *Neural Networks* 5(2), 241-259.

Kim, Y., Carbonetto, P., Stephens, M. and Anitescu, M. (2020). A fast algorithm for maximum
likelihood estimation of mixture proportions using sequential quadratic programming.
*Journal of Computational and Graphical Statistics* 29(2), 261-273 (the weights' solver).

Nocedal, J. and Wright, S. J. (2006). *Numerical Optimization*, 2nd ed., Springer,
algorithm 16.3 (active-set method for convex quadratic programs).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.dawid_skene import data_notes
from analytics.models.result import Coded, ModelResult, make_result

__all__ = ["MIN_WEIGHT", "stack", "stacking_weights"]

#: Components below this weight are dropped (and the others renormalised).
MIN_WEIGHT = 0.01


def stacking_weights(
    scores: np.ndarray, *, max_iter: int = 100, tol: float = 1e-8
) -> tuple[np.ndarray, np.ndarray, int, bool]:
    """Weights on the simplex maximising the mixture's held-out log score.

    Parameters
    ----------
    scores : ndarray, shape (M, N)
        :math:`\\log p_m(y_{i,\\mathrm{out}} \\mid y_{\\mathrm{in}})` of model m on held-out
        unit i (``compare``'s per-item scores).
    max_iter : int, default 100
        Newton steps at most (the public data sets need 5 to 10).
    tol : float, default 1e-8
        Stop when the weights are certified within this of the maximum, in nats per unit:
        :math:`\\max_m g_m - 1 \\le` ``tol`` (Notes).

    Returns
    -------
    tuple of (ndarray, ndarray, int, bool)
        Weights (sum 1), the mean log score at the start and after each step (never
        decreasing), the number of steps taken (``len(trace) - 1``, as the models count
        their EM iterations), converged (the certificate met).

    Raises
    ------
    AnnotationDataError
        ``scores`` is not a 2-d table of numbers with at least one model and one unit,
        holds NaN or +inf, or has a unit that every model scores -inf.

    Notes
    -----
    Maximises the concave :math:`f(w) = \\frac1N \\sum_i \\log \\sum_m w_m e^{s_{mi}}`
    over :math:`w \\ge 0, \\sum_m w_m = 1` (Yao et al. 2018, eq. 4). With
    :math:`r_{mi} = e^{s_{mi}} / \\sum_k w_k e^{s_{ki}}` the gradient is
    :math:`g_m = \\frac1N \\sum_i r_{mi}` (so :math:`w^\\top g = 1`) and the Hessian
    :math:`-\\frac1N R R^\\top`. Each step maximises the quadratic model of f over the
    simplex exactly (:func:`_simplex_qp`, a primal active-set method) and backtracks until f
    rises enough (Armijo), as mix-SQP does for the same problem (Kim et al. 2020); near the
    maximum the steps are Newton steps, so a few suffice. By concavity
    :math:`f(w^*) \\le f(w) + g^\\top (w^* - w) \\le f(w) + \\max_m g_m - 1`, which
    certifies convergence. The textbook EM update :math:`w_m \\leftarrow w_m g_m`
    converges linearly at a rate that tends to 1 when the maximum has zero weights, as it
    usually does here: on 20,000 simulated items it stopped after 5,000 iterations,
    3e-5 nats from the maximum, where these steps reach 1e-9 in five.

    References
    ----------
    Kim, Y., Carbonetto, P., Stephens, M. and Anitescu, M. (2020). A fast algorithm for
    maximum likelihood estimation of mixture proportions using sequential quadratic
    programming. *Journal of Computational and Graphical Statistics* 29(2), 261-273.

    Examples
    --------
    >>> w, *_ = stacking_weights(np.log([[0.9, 0.9], [0.1, 0.1]]))
    >>> w.round(3).tolist()
    [1.0, 0.0]
    """
    s = _check_scores(scores)
    m, n = s.shape
    top = s.max(axis=0)
    e = np.exp(s - top)  # per-unit scale: a constant in f, cancels in r
    shift = float(top.mean())

    def score(w: np.ndarray) -> float:
        with np.errstate(divide="ignore"):
            return float(np.mean(np.log(w @ e))) + shift

    w = np.full(m, 1.0 / m)
    trace = [score(w)]
    for n_iter in range(1, max_iter + 1):
        r = e / (w @ e)
        g = r.mean(axis=1)
        if g.max() - 1.0 <= tol:
            return w, np.asarray(trace), n_iter - 1, True
        hessian = r @ r.T / n
        step = _simplex_qp(hessian, g + hessian @ w, w) - w
        slope = float(g @ step)
        if slope <= 0:  # an inexact quadratic step: fall back on the EM update's direction
            step = w * g / (w @ g) - w
            slope = float(g @ step)
        t, improved = 1.0, False
        while t > 1e-12:
            candidate = np.maximum(w + t * step, 0.0)
            candidate /= candidate.sum()
            value = score(candidate)
            if value >= trace[-1] + 1e-4 * t * slope:
                improved = True
                break
            t /= 2
        if not improved:  # within rounding of the maximum: no step can show a rise
            break
        w = candidate
        trace.append(value)
    r = e / (w @ e)
    return w, np.asarray(trace), len(trace) - 1, bool(r.mean(axis=1).max() - 1.0 <= tol)


def _check_scores(scores: np.ndarray) -> np.ndarray:
    """:func:`stacking_weights`' scores as an M x N float array, M, N >= 1, checked."""
    hint = "Pass one row of held-out log scores per model, one column per held-out unit."
    try:
        s = np.asarray(scores, float)
    except (TypeError, ValueError):
        raise AnnotationDataError("scores must be numbers (log scores).", hint=hint) from None
    if s.ndim != 2 or 0 in s.shape:
        raise AnnotationDataError(
            f"scores must be a models x units table with at least one of each; got shape "
            f"{s.shape}.",
            hint=hint,
        )
    if np.isnan(s).any() or np.isposinf(s).any():
        raise AnnotationDataError("scores must not hold NaN or +inf.", hint=hint)
    if np.isneginf(s).all(axis=0).any():
        raise AnnotationDataError(
            "every model gives some held-out unit probability 0 (log score -inf): no "
            "mixture can predict it.",
            hint="Fit the models with smoothing > 0.",
        )
    return s


def _simplex_qp(h: np.ndarray, b: np.ndarray, start: np.ndarray) -> np.ndarray:
    """The maximum of :math:`b^\\top x - \\tfrac12 x^\\top h x` over the simplex, h
    positive semidefinite: the primal active-set method (Nocedal & Wright 2006, algorithm
    16.3) from the feasible ``start``; singular h (two models scoring alike) is solved in
    least squares."""
    m = len(b)
    x = start.copy()
    free = x > 0
    for _ in range(4 * m + 10):  # each pass frees or fixes one weight
        f = np.flatnonzero(free)
        k = len(f)
        kkt = np.zeros((k + 1, k + 1))
        kkt[:k, :k] = h[np.ix_(f, f)]
        kkt[:k, k] = kkt[k, :k] = 1.0
        solution = np.linalg.lstsq(kkt, np.r_[b[f], 1.0], rcond=None)[0]
        move = np.zeros(m)
        move[f] = solution[:k] - x[f]
        shrinking = move < 0
        reach = min(1.0, float((-x[shrinking] / move[shrinking]).min())) if shrinking.any() else 1.0
        x = np.maximum(x + reach * move, 0.0)
        if reach < 1.0:  # a weight reached 0 on the way: fix it there, solve again
            free &= x > 0
            x[~free] = 0.0
            continue
        fixed = np.flatnonzero(~free)
        multipliers = h @ x - b + solution[k]  # of the bounds x_m >= 0 held at 0
        if not len(fixed) or multipliers[fixed].min() >= -1e-13:
            return x
        free[fixed[np.argmin(multipliers[fixed])]] = True
    return x


def stack(
    coded: Coded,
    components: Mapping[str, ModelResult],
    weights: pd.Series,
    trace: np.ndarray,
    n_iter: int,
    converged: bool,
) -> ModelResult:
    """The stacked model: each component's posteriors and parameters, weighted.

    Parameters
    ----------
    coded : Coded
    components : mapping of str to ModelResult
        Full fits of the models with a weight.
    weights : pandas.Series
        Model -> weight (summing to 1, same models as ``components``).
    trace, n_iter, converged
        From :func:`stacking_weights`.

    Returns
    -------
    ModelResult
        ``model="stacked"``; ``posteriors`` :math:`\\sum_m w_m q^{(m)}`, ``prevalence``
        and ``confusion_array`` the same weighted averages (GLAD's at its per-annotator
        accuracy), ``log_likelihood`` the ``trace`` given (``fit(model="auto")`` passes the
        mixture's held-out log score in nats per held-out judgement, per weight iteration); ``parameters["weights"]`` and ``parameters["components"]`` (the fits).
    """
    names = list(weights.index)
    w = weights.to_numpy()
    q = sum(wm * components[m].posteriors.to_numpy() for m, wm in zip(names, w, strict=True))
    pi = sum(wm * components[m].prevalence.to_numpy() for m, wm in zip(names, w, strict=True))
    theta = sum(wm * components[m].confusion_array for m, wm in zip(names, w, strict=True))
    own = set(data_notes(coded.ann))
    notes = tuple(f"{m}: {note}" for m in names for note in components[m].notes if note not in own)
    # a part whose labels these data do not settle passes that on to the mixture, in
    # proportion to its weight: said once for the mixture, where scripts look for it
    loose = [m for m in names if any(n.startswith("Not identified") for n in components[m].notes)]
    if loose:
        share = float(weights[loose].sum())
        notes = (
            f"Not identified{'' if share >= 0.995 else ', in part'}: {', '.join(loose)} "
            f"({share:.0%} of the mixture's "
            "weight) sit at a saddle between equally likely fits that label some items "
            "differently (see their notes); the mixture's labels and confidence carry "
            "that weight, so do not read them as settled.",
            *notes,
        )
    return make_result(
        coded,
        "stacked",
        np.asarray(q),
        np.asarray(pi),
        np.asarray(theta),
        trace,
        n_iter,
        converged,
        settings={"weights": weights.round(6).to_dict()},
        notes=data_notes(coded.ann) + notes,
        parameters={"weights": weights, "components": dict(components)},
    )
