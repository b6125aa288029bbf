"""One entry point for every annotator model: :func:`fit` (``model="auto"`` chooses)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_count
from analytics._core.validation import check_whole
from analytics.data import Annotations
from analytics.models.registry import (
    applicable_models,
    check_model,
    check_options,
    fit_model,
    refuse_anonymous,
)
from analytics.models.result import Coded, ModelResult, code
from analytics.models.selection import choose, compare
from analytics.models.stacking import MIN_WEIGHT, stack, stacking_weights

__all__ = ["fit"]


def fit(
    ann: Annotations | pd.DataFrame,
    model: str = "auto",
    *,
    gold: Mapping[Any, Any] | pd.Series | None = None,
    seed: int = 0,
    folds: int = 5,
    progress: Callable[[float], Any] | None = None,
    **options: Any,
) -> ModelResult:
    """Fit an annotator model; return each item's posterior and each annotator's confusion.

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        Single-label annotations.
    model : str, default "auto"
        ``"auto"`` or one of :data:`MODELS`: ``"majority"`` (majority vote, ties
        split), ``"one_coin"`` (one accuracy per annotator), ``"mace"`` (trust and a
        spam distribution per annotator), ``"glad"`` (ability per annotator, difficulty
        per item), ``"dawid_skene"`` (a full confusion matrix per annotator),
        ``"hierarchical"`` (Dawid-Skene whose confusion rows share a population
        Dirichlet estimated from all annotators). ``"auto"`` compares them all by
        held-out predictive likelihood (:func:`~analytics.models.compare`, without the
        gold labels) and stacks them: the weights that best predict the held-out
        judgements (:mod:`analytics.models.stacking`); models below 1% are dropped, and
        when one model takes all the weight it is returned as it is. ``notes[0]`` says
        which models, with which weights, and which single model would be chosen;
        ``settings["comparison"]`` holds the comparison table and ``settings["weights"]``
        the weights (``{model: 1.0}`` when one model is returned as it is). With fewer
        than ``2 * folds`` items judged twice, ``"auto"`` is majority vote, saying why.
    gold : mapping or pandas.Series, default None
        Known gold labels (item -> label) for some items; those items are clamped in
        the final fit (``"auto"`` chooses without them).
    seed : int, default 0
        Seed of any random start and of the cross-validation split (a whole number >= 0).
        Both are drawn in the sorted order of the names, not in the rows' order, so the
        same judgements in another row order give the same fit.
    folds : int, default 5
        ``"auto"`` only: cross-validation folds.
    progress : callable, default None
        ``"auto"`` only: called with the share of the comparison done (0 to 1).
    **options
        The chosen model's own settings (``max_iter``, ``tol``, ``smoothing``, ...): see
        the model's function (:func:`analytics.models.simple.fit_one_coin` and the
        others). Not with ``"auto"``.

    Returns
    -------
    ModelResult
        The fields of :class:`~analytics.dawid_skene.DawidSkeneResult` plus ``model``
        and ``parameters``; ``settings["seconds"]`` is the fit time.

    Raises
    ------
    AnnotationDataError
        An unknown model name or setting, multi-label data, no judgements, gold labels
        for items or categories not in the data (or an item listed twice), or a model
        that cannot apply (GLAD with one annotator or one category; any model but
        majority on a count table, whose raters are anonymous).
    ArgumentTypeError
        ``gold`` is a path, a table or a list rather than a Series or mapping
        (:func:`analytics.dawid_skene.gold_series`).

    Notes
    -----
    Each model's formula is in its own function's docstring (modules
    :mod:`analytics.models.simple`, :mod:`~analytics.models.mace`,
    :mod:`~analytics.models.glad`, :mod:`~analytics.models.hierarchical`); the
    selection rule is :func:`analytics.models.choose`.

    References
    ----------
    Dawid, A. P. and Skene, A. M. (1979). *Applied Statistics* 28(1), 20-28.

    Paun, S. et al. (2018). Comparing Bayesian models of annotation. *TACL* 6, 571-585.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = [("i1", "a", "x"), ("i1", "b", "x"), ("i2", "a", "y"), ("i2", "b", "y")]
    >>> frame = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    >>> fit(frame, "one_coin").labels.tolist()
    ['x', 'y']
    """
    if model == "auto":
        return _auto(ann, gold, seed, folds, progress, options)
    model = check_model(model)
    options = check_options(model, seed, options)
    coded = code(ann, gold)
    refuse_anonymous(coded.ann, model)  # one rule with dawid_skene.fit: no persons to fit
    return _timed(coded, model, gold, seed, **options)


def _auto(ann: Any, gold: Any, seed: int, folds: int, progress: Any, options: dict) -> ModelResult:
    """Compare the models without gold, stack them by held-out likelihood, fit the kept
    ones (with gold clamped, if given) and mix them."""
    if options:
        raise AnnotationDataError(
            f"model='auto' takes no model settings (got {sorted(options)}).",
            hint="Name a model to pass it settings, e.g. fit(ann, 'dawid_skene', ...).",
        )
    seed = check_whole(seed, "seed", 0)  # the majority fallback would not look at it
    coded = code(ann, gold)  # refuse bad data and gold before the comparison runs
    start = time.perf_counter()
    shared = int((np.bincount(coded.ii, minlength=coded.n_items) >= 2).sum())
    anonymous = _applicable(coded) == ["majority"]  # a count table: no annotators to model
    if anonymous or shared < 2 * folds:  # or too few items to hold out in every fold
        _, reason = choose(
            pd.DataFrame({"heldout_ll": [np.nan], "heldout_se": [np.nan]}, index=["majority"])
        )
        if anonymous:
            reason = (
                "auto chose majority vote: a count table's raters are anonymous, so the "
                "models that estimate each annotator do not apply (load the judgements to "
                "compare them)."
            )
        elif shared:
            reason = (
                f"auto chose majority vote: only {format_count(shared, 'item')} "
                f"{'has' if shared == 1 else 'have'} two judgements or more, too few to "
                f"compare models on judgements they did not see ({folds}-fold "
                f"cross-validation needs at least {2 * folds})."
            )
        result = fit_model(coded, "majority", gold=gold, seed=seed)
        result.settings["weights"] = {"majority": 1.0}
        table = None
    else:
        table = compare(coded.ann, _applicable(coded), folds=folds, seed=seed, progress=progress)
        scores = np.vstack([table.attrs["item_scores"][m] for m in table.index])
        w, trace, n_iter, converged = stacking_weights(scores)
        weights = pd.Series(w, index=table.index, name="weight")
        kept = weights[weights >= MIN_WEIGHT]
        kept = kept / kept.sum()
        # each kept model is timed and named like fit(ann, m) does: the app shows these
        # parts as the models' own fits (Fit details: "n iterations, converged (t s)")
        parts = {m: _timed(coded, m, gold, seed) for m in kept.index}
        if len(kept) == 1:  # auto's own copy: its settings must not overwrite the part's
            only = parts[kept.index[0]]
            result = dataclasses.replace(only, settings=dict(only.settings))
            result.settings["weights"] = {kept.index[0]: 1.0}  # as a stack's, for scripts
        else:
            # the trace is a mean per item; shown per held-out judgement, as the comparison
            # table and auto's note give it (the same objective, rescaled)
            n_held = table.attrs.get("n_heldout", 0)
            per_judgement = trace * scores.shape[1] / n_held if n_held else trace
            result = stack(coded, parts, kept, per_judgement, n_iter, converged)
        reason = _stack_reason(table, kept, trace[-1] * scores.shape[1])
    result.settings["seconds"] = time.perf_counter() - start
    result.settings["model"] = "auto"
    result.settings["comparison"] = table
    object.__setattr__(result, "notes", (reason, *result.notes))
    return result


def _timed(coded: Coded, model: str, gold: Any, seed: int, **options: Any) -> ModelResult:
    """``fit_model`` with the fit time and the model's name in its settings."""
    start = time.perf_counter()
    result = fit_model(coded, model, gold=gold, seed=seed, **options)
    result.settings["seconds"] = time.perf_counter() - start
    result.settings["model"] = model
    return result


def _stack_reason(table: pd.DataFrame, kept: pd.Series, mixture_total: float) -> str:
    """auto's sentence: what it fitted, with which weights, and why."""
    best, single = choose(table)
    if len(kept) == 1:
        return single
    n_held = table.attrs.get("n_heldout", 0)
    shares = ", ".join(f"{m} {w:.0%}" for m, w in kept.sort_values(ascending=False).items())
    mixture = mixture_total / n_held if n_held else float("nan")
    return (
        f"auto stacked {len(kept)} models with the weights that best predict held-out "
        f"judgements ({shares}; Yao et al. 2018), chosen without the gold labels: the mixture scores "
        f"{mixture:.4f} nats per held-out judgement against {table.loc[best, 'heldout_ll']:.4f} "
        f"for the best single model. "
        + single.replace("auto chose", "Alone, auto would choose")
        + (
            f" The mixture gives {best} no weight: with the others in it, {best} adds "
            "nothing to how well the held-out judgements are predicted."
            if best not in kept.index
            else ""
        )
    )


def _applicable(coded: Coded) -> list[str]:
    """The models ``"auto"`` compares (:func:`applicable_models`)."""
    return list(applicable_models(coded.ann))
