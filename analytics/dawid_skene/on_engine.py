"""The Dawid-Skene fit of judgements held by an engine (DuckDB, Spark), EM as SQL.

The E-step is a join of the judgements with the log confusion matrices grouped by item
(Bayes' rule per item, with the log-sum-exp trick, written into a posterior table the
engine keeps); the M-step is a join of the judgements with those posteriors grouped by
annotator and given label. Only the annotator x K x K sums and the K prevalence sums come
back; the updates, the convergence test and the iteration loop are the in-memory
:class:`~analytics.dawid_skene.em.EMEngine`'s own (:class:`EngineEM` only replaces where
the sums come from), so the trace, the parameters and the stopping iteration are the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from analytics._core.errors import AnnotationDataError
from analytics._core.ids import top_codes
from analytics._core.lazy import LazyAnnotations, on_engine
from analytics._core.validation import check_settings
from analytics.dawid_skene.em import (
    INIT_METHODS,
    EMEngine,
    penalty,
    pseudo_counts,
    sizes_notes,
)
from analytics.dawid_skene.model import DawidSkeneResult, check_param_tol

__all__ = ["ENGINE_STARTS", "ITEMS_SHOWN", "EngineEM", "engine_fit"]

ENGINE_STARTS = ("majority", "soft")
"""The starts an engine runs (the random ones would need a random number per item)."""
ITEMS_SHOWN = 10_000
"""Items whose posteriors come back from an engine (the first, in item order)."""
CURRENT = "engine posteriors"
"""What stands for the posteriors in the EM loop: they stay in the engine's table."""


class EngineEM(EMEngine):
    """:class:`~analytics.dawid_skene.em.EMEngine` whose sums the engine computes.

    Parameters
    ----------
    lazy : LazyAnnotations
        The judgements.
    alpha, beta : ndarray
        Pseudo-counts of the confusion matrices (K x K) and the prevalence (K).
    """

    def __init__(self, lazy: LazyAnnotations, alpha: np.ndarray, beta: np.ndarray) -> None:
        self.lazy = lazy
        self.n_items, self.n_annotators, self.k = lazy.n_items, lazy.n_annotators, lazy.n_categories
        self.alpha, self.beta = alpha, beta
        self.gold_rows = np.zeros(0, np.int64)
        self.gold_codes = np.zeros(0, np.int64)

    def clamp(self, q: Any) -> Any:
        """No gold items on an engine: the posteriors are left as they are."""
        return q

    def m_step(
        self, q: Any, initial_error: None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The in-memory MAP update, from the engine's sums of its current posteriors."""
        counts, q_totals, _ = self.lazy.ds_expected()
        return self.parameters(counts, q_totals)

    def e_step(self, pi: np.ndarray, theta: np.ndarray) -> tuple[Any, float]:
        """Bayes' rule per item in the engine; the penalised log-likelihood."""
        with np.errstate(divide="ignore"):
            log_theta = np.log(theta)
            log_pi = np.log(pi)
        items_ll = self.lazy.ds_e_step(log_pi, log_theta)
        return CURRENT, items_ll + penalty(self.alpha, log_theta) + penalty(self.beta, log_pi)


@on_engine("dawid_skene.fit")
def engine_fit(
    lazy: LazyAnnotations,
    *,
    max_iter: int = 500,
    tol: float = 1e-7,
    smoothing: float = 0.01,
    prior: ArrayLike | pd.DataFrame | None = None,
    init: str = "majority",
    gold: Mapping[Any, Any] | pd.Series | None = None,
    seed: int = 0,
    param_tol: float | None = None,
) -> DawidSkeneResult:
    """:func:`~analytics.dawid_skene.fit` of judgements held by an engine.

    Same arguments and result type. The posteriors, labels, confidence and votes hold the
    first :data:`ITEMS_SHOWN` items (in item order; ``notes`` says so when there are
    more); everything else (prevalence, confusion matrices, expected counts, trace) is
    complete.

    Raises
    ------
    AnnotationDataError
        As in memory; and, on an engine, for ``gold`` (clamping needs a per-item table
        sent to the engine), a start other than :data:`ENGINE_STARTS`, or
        ``smoothing=0`` without a positive prior everywhere (a zero confusion cell has
        log 0, which SQL cannot carry through the sums).
    """
    max_iter, tol, smoothing, init, seed = check_settings(
        max_iter=max_iter,
        tol=tol,
        smoothing=smoothing,
        init=init,
        seed=seed,
        init_methods=INIT_METHODS,
    )
    param_tol = check_param_tol(param_tol)
    where = f"on the {lazy.engine} engine"
    if gold is not None:
        raise AnnotationDataError(
            f"known gold labels are not clamped {where}.",
            source=lazy.name,
            hint="Fit in memory (engine='memory') on the gold-bearing subset.",
        )
    if init not in ENGINE_STARTS:
        raise AnnotationDataError(
            f"init={init!r} is not run {where}: its random starts need a random number per item.",
            source=lazy.name,
            hint=f"Use one of {', '.join(ENGINE_STARTS)}.",
        )
    k = lazy.n_categories
    alpha = pseudo_counts(smoothing, prior, k, lazy.categories)
    beta = np.full(k, float(smoothing))
    if (alpha <= 0).any() or (beta <= 0).any():
        raise AnnotationDataError(
            f"smoothing must be positive {where} (a zero confusion cell has log 0).",
            source=lazy.name,
            hint="Keep the default smoothing=0.01.",
        )
    lazy.ds_start(init)
    run = EngineEM(lazy, alpha, beta).run(CURRENT, max_iter, tol, param_tol=param_tol)
    single, per_annotator = lazy.ds_sizes()
    notes = sizes_notes(k, lazy.n_annotators, lazy.n_items, single, lazy.kind.value)
    items, q, votes = lazy.ds_sample(ITEMS_SHOWN)
    if lazy.n_items > len(items):
        notes += (
            f"Posteriors, labels and votes are shown for the first {len(items):,} of "
            f"{lazy.n_items:,} items (in item order): the {lazy.engine} engine keeps the rest.",
        )
    cats = lazy.categories
    top = top_codes(q, cats)  # a tie: the first name, not the first seen
    return DawidSkeneResult(
        prevalence=pd.Series(run.pi, index=cats, name="prevalence"),
        posteriors=pd.DataFrame(q, index=items, columns=cats),
        labels=pd.Series(np.asarray(cats, dtype=object)[top], index=items, name="label"),
        confidence=pd.Series(q.max(axis=1), index=items, name="confidence"),
        log_likelihood=run.trace,
        n_iter=run.n_iter,
        converged=run.converged,
        confusion_array=run.theta,
        expected_counts=run.counts,
        votes=votes,
        judgements=pd.Series(per_annotator, index=lazy.annotators, name="judgements"),
        gold_items=pd.Index([]),
        settings={
            "max_iter": max_iter,
            "tol": tol,
            "param_tol": param_tol,
            "smoothing": smoothing,
            "prior": None if prior is None else np.asarray(prior).tolist(),
            "init": init,
            "n_gold": 0,
            "seed": seed,
        },
        notes=notes,
        parameter_change=run.parameter_change,
    )
