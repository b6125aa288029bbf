"""One entry point for every annotator model: :func:`fit`."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics._core.validation import check_settings
from analytics.data import Annotations
from analytics.models.glad import fit_glad
from analytics.models.hierarchical import fit_hierarchical
from analytics.models.mace import fit_mace
from analytics.models.result import ModelResult, code
from analytics.models.simple import fit_dawid_skene, fit_majority, fit_one_coin

__all__ = ["MODELS", "fit", "fit_model"]

#: The models :func:`fit` knows, simplest first.
MODELS = ("majority", "one_coin", "mace", "glad", "dawid_skene", "hierarchical")

_FITTERS = {
    "majority": fit_majority,
    "one_coin": fit_one_coin,
    "hierarchical": fit_hierarchical,
    "mace": fit_mace,
    "glad": fit_glad,
}


def _check_model(model: Any) -> str:
    if not isinstance(model, str) or model not in MODELS:
        raise AnnotationDataError(
            f"unknown model {model!r}.",
            hint=f"Choose one of {', '.join(MODELS)}.",
        )
    return model


# the settings each model takes besides gold and seed (Dawid-Skene: analytics.dawid_skene.fit)
_OPTIONS = {
    "majority": ("smoothing",),
    "one_coin": ("max_iter", "tol", "smoothing"),
    "dawid_skene": ("max_iter", "tol", "smoothing", "prior", "init"),
    "hierarchical": ("max_iter", "tol"),
    "mace": ("max_iter", "tol", "smoothing"),
    "glad": ("max_iter", "tol", "smoothing", "prevalence"),
}


def _check_options(model: str, seed: Any, options: dict[str, Any]) -> dict[str, Any]:
    """Refuse settings a model does not take; check the common ones (seed included)."""
    unknown = sorted(set(options) - set(_OPTIONS[model]))
    if unknown:
        raise AnnotationDataError(
            f"the {model} model takes no setting {unknown[0]!r}.",
            hint=f"Its settings are: {', '.join(_OPTIONS[model])}.",
        )
    max_iter, tol, smoothing, _, _ = check_settings(
        max_iter=options.get("max_iter", 500),
        tol=options.get("tol", 1e-7),
        smoothing=options.get("smoothing", 0.01),
        init="majority",
        seed=seed,
        init_methods=("majority",),
    )
    if model == "dawid_skene":
        return options  # analytics.dawid_skene.fit checks its own settings
    checked = {"max_iter": max_iter, "tol": tol, "smoothing": smoothing}
    checked["prevalence"] = options.get("prevalence")  # the model checks its choices
    return {name: checked[name] for name in options}


def fit_model(coded: Any, model: str, *, gold: Any, seed: int, **options: Any) -> ModelResult:
    """Fit one named model on coded data (no checks beyond the model's own)."""
    if model == "dawid_skene":
        return fit_dawid_skene(coded, gold=gold, seed=seed, **options)
    fitter = _FITTERS[model]
    return fitter(coded, **options)


def fit(
    ann: Annotations | pd.DataFrame,
    model: str = "dawid_skene",
    *,
    gold: Mapping[Any, Any] | pd.Series | None = None,
    seed: int = 0,
    **options: Any,
) -> ModelResult:
    """Fit an annotator model; return each item's posterior and each annotator's confusion.

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        Single-label annotations.
    model : str, default "dawid_skene"
        One of :data:`MODELS`: ``"majority"`` (majority vote, ties split),
        ``"one_coin"`` (one accuracy per annotator), ``"mace"`` (trust and a spam
        distribution per annotator), ``"glad"`` (ability per annotator, difficulty
        per item), ``"dawid_skene"`` (a full confusion
        matrix per annotator), ``"hierarchical"`` (Dawid-Skene whose confusion rows
        share a population Dirichlet estimated from all annotators).
    gold : mapping or pandas.Series, default None
        Known gold labels (item -> label) for some items; those items are clamped.
    seed : int, default 0
        Seed of any random start (a whole number >= 0).
    **options
        The model's own settings (``max_iter``, ``tol``, ``smoothing``, ...): see
        :func:`analytics.models.simple.fit_one_coin` and the others.

    Returns
    -------
    ModelResult
        The fields of :class:`~analytics.dawid_skene.DawidSkeneResult` plus ``model``
        and ``parameters``; ``settings["seconds"]`` is the fit time.

    Raises
    ------
    AnnotationDataError
        An unknown model name, multi-label data, no judgements, gold labels for items or
        categories not in the data, or a bad setting.

    Notes
    -----
    Each model's formula is in its own function's docstring (module
    :mod:`analytics.models.simple` and the others).

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
    model = _check_model(model)
    options = _check_options(model, seed, options)
    coded = code(ann, gold)
    start = time.perf_counter()
    result = fit_model(coded, model, gold=gold, seed=seed, **options)
    result.settings["seconds"] = time.perf_counter() - start
    result.settings["model"] = model
    return result
