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
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from analytics.dawid_skene import data_notes
from analytics.models.result import Coded, ModelResult, make_result

__all__ = ["MIN_WEIGHT", "stack", "stacking_weights"]

#: Components below this weight are dropped (and the others renormalised).
MIN_WEIGHT = 0.01


def stacking_weights(
    scores: np.ndarray, *, max_iter: int = 5000, tol: float = 1e-9
) -> tuple[np.ndarray, np.ndarray, int, bool]:
    """Weights on the simplex maximising the mixture's held-out log score.

    Parameters
    ----------
    scores : ndarray, shape (M, N)
        :math:`\\log p_m(y_{i,\\mathrm{out}} \\mid y_{\\mathrm{in}})` of model m on held-out
        unit i (``compare``'s per-item scores).
    max_iter : int, default 5000
    tol : float, default 1e-9
        Stop when the mean log score changes by less than this.

    Returns
    -------
    tuple of (ndarray, ndarray, int, bool)
        Weights (sum 1), the mean log score at each iteration (never decreasing),
        iterations, converged.

    Notes
    -----
    Maximises :math:`\\frac1N \\sum_i \\log \\sum_m w_m e^{s_{mi}}` over
    :math:`w \\ge 0, \\sum_m w_m = 1` (Yao et al. 2018, eq. 4), a concave problem, by the
    EM update for mixture weights :math:`w_m \\leftarrow \\frac1N \\sum_i r_{mi}`,
    :math:`r_{mi} \\propto w_m e^{s_{mi}}`, which converges to the global maximum.

    Examples
    --------
    >>> w, *_ = stacking_weights(np.log([[0.9, 0.9], [0.1, 0.1]]))
    >>> w.round(3).tolist()
    [1.0, 0.0]
    """
    s = np.asarray(scores, float)
    m = s.shape[0]
    w = np.full(m, 1.0 / m)
    top = s.max(axis=0)
    e = np.exp(s - top)  # per-item scale cancels in the responsibilities
    trace: list[float] = []
    converged = False
    n_iter = 0
    for n_iter in range(1, max_iter + 1):  # noqa: B007 (n_iter is returned)
        mix = w @ e
        trace.append(float(np.mean(np.log(mix) + top)))
        if len(trace) > 1 and trace[-1] - trace[-2] < tol:
            converged = True
            break
        w = w * (e / mix).mean(axis=1)
        w /= w.sum()
    return w, np.asarray(trace), n_iter, converged


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
