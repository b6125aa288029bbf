"""One entry point for every annotator model: :func:`fit` (``model="auto"`` chooses)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.data import Annotations
from analytics.models.registry import MODELS, check_model, check_options, fit_model
from analytics.models.result import Coded, ModelResult, code
from analytics.models.selection import choose, compare

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
        gold labels) and fits the best; its ``notes`` say which and why, and
        ``settings["comparison"]`` holds the comparison table.
    gold : mapping or pandas.Series, default None
        Known gold labels (item -> label) for some items; those items are clamped in
        the final fit (``"auto"`` chooses without them).
    seed : int, default 0
        Seed of any random start and of the cross-validation split (a whole number >= 0).
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
        for items or categories not in the data, or a model that cannot apply (GLAD
        with one annotator or one category).

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
    table, reason = None, None
    if model == "auto":
        if options:
            raise AnnotationDataError(
                f"model='auto' takes no model settings (got {sorted(options)}).",
                hint="Name a model to pass it settings, e.g. fit(ann, 'dawid_skene', ...).",
            )
        coded = code(ann, gold)  # refuse bad data and gold before the comparison runs
        if np.bincount(coded.ii, minlength=coded.n_items).max() < 2:
            model, reason = choose(pd.DataFrame({"heldout_ll": [np.nan]}, index=["majority"]))
        else:
            table = compare(ann, _applicable(coded), folds=folds, seed=seed, progress=progress)
            model, reason = choose(table)
    model = check_model(model)
    options = check_options(model, seed, options)
    coded = code(ann, gold)
    start = time.perf_counter()
    result = fit_model(coded, model, gold=gold, seed=seed, **options)
    result.settings["seconds"] = time.perf_counter() - start
    result.settings["model"] = model
    if reason is not None:
        result.settings["comparison"] = table
        object.__setattr__(result, "notes", (reason, *result.notes))
    return result


def _applicable(coded: Coded) -> list[str]:
    """The models ``"auto"`` compares: all, but GLAD only where it can be fitted."""
    if coded.k < 2 or coded.n_annotators < 2:
        return [m for m in MODELS if m != "glad"]
    return list(MODELS)
