"""The models :func:`analytics.models.fit` knows: names, settings and fitters."""

from __future__ import annotations

import inspect
from typing import Any

import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics._core.validation import check_settings
from analytics.data import Annotations, anonymous_annotators, as_annotations
from analytics.dawid_skene import INIT_METHODS
from analytics.models.glad import fit_glad
from analytics.models.hierarchical import fit_hierarchical
from analytics.models.mace import fit_mace
from analytics.models.result import ModelResult
from analytics.models.simple import fit_dawid_skene, fit_majority, fit_one_coin

__all__ = [
    "MODELS",
    "applicable_models",
    "check_model",
    "check_options",
    "fit_model",
    "refuse_anonymous",
]

#: The models :func:`fit` knows, simplest first.
MODELS = ("majority", "one_coin", "mace", "glad", "dawid_skene", "hierarchical")

_FITTERS = {
    "majority": fit_majority,
    "one_coin": fit_one_coin,
    "hierarchical": fit_hierarchical,
    "mace": fit_mace,
    "glad": fit_glad,
}


def check_model(model: Any) -> str:
    """``model`` if it is a name in :data:`MODELS`; otherwise an AnnotationDataError."""
    if not isinstance(model, str) or model not in MODELS:
        raise AnnotationDataError(
            f"unknown model {model!r}.",
            hint=f"Choose one of {', '.join(MODELS)}.",
        )
    return model


# the settings each model takes besides gold and seed (Dawid-Skene: analytics.dawid_skene.fit)
_OPTIONS = {
    "majority": ("smoothing",),
    "one_coin": ("max_iter", "tol", "smoothing", "init"),
    "dawid_skene": ("max_iter", "tol", "smoothing", "prior", "init"),
    "hierarchical": ("max_iter", "tol", "init"),
    "mace": (
        "method",
        "max_iter",
        "tol",
        "smoothing",
        "prevalence",
        "trust_prior",
        "spam_prior",
        "init",
        "initial",
    ),
    "glad": ("max_iter", "tol", "smoothing", "prevalence", "init"),
}


def _dawid_skene_settings() -> tuple[str, ...]:
    """The keywords :func:`analytics.dawid_skene.fit` takes besides the data, gold and seed."""
    from analytics.dawid_skene import fit

    skip = {"ann", "gold", "seed"}
    return tuple(
        name
        for name, p in inspect.signature(fit).parameters.items()
        if p.kind is p.KEYWORD_ONLY and name not in skip
    )


def check_options(model: str, seed: Any, options: dict[str, Any]) -> dict[str, Any]:
    """Refuse settings a model does not take; check the common ones (seed included)."""
    known = _dawid_skene_settings() if model == "dawid_skene" else _OPTIONS[model]
    unknown = sorted(set(options) - set(known))
    if unknown:  # max_iters for max_iter: said here, not a TypeError from inside the fit
        raise AnnotationDataError(
            f"the {model} model takes no setting {unknown[0]!r}.",
            hint=f"Its settings are: {', '.join(known)}.",
        )
    max_iter, tol, smoothing, init, _ = check_settings(
        max_iter=options.get("max_iter", 500),
        tol=options.get("tol", 1e-7),
        smoothing=options.get("smoothing", 0.01),
        init=options.get("init", "best"),
        seed=seed,
        init_methods=INIT_METHODS,
    )
    if model == "dawid_skene":
        return options  # analytics.dawid_skene.fit checks its own settings
    checked = {"max_iter": max_iter, "tol": tol, "smoothing": smoothing, "init": init}
    # the model checks its own choices and priors
    return {name: checked.get(name, options[name]) for name in options}


def fit_model(coded: Any, model: str, *, gold: Any, seed: int, **options: Any) -> ModelResult:
    """Fit one named model on coded data (no checks beyond the model's own)."""
    if model == "dawid_skene":
        return fit_dawid_skene(coded, gold=gold, seed=seed, **options)
    if model == "majority":
        return fit_majority(coded, **options)
    return _FITTERS[model](coded, seed=seed, **options)


def applicable_models(ann: Annotations | pd.DataFrame) -> tuple[str, ...]:
    """The models that can be fitted to a data set: every one of :data:`MODELS`, but GLAD
    only with at least two annotators and two categories, and majority vote alone on a
    count table (its raters are anonymous: :func:`refuse_anonymous`).

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        Single-label annotations.

    Returns
    -------
    tuple of str
        Names from :data:`MODELS`, in its order (simplest first); ``"auto"`` compares
        exactly these.

    Notes
    -----
    With one annotator or one category GLAD's annotator ability and item difficulty
    (Whitehill et al. 2009) cannot be told apart, and
    :func:`~analytics.models.glad.fit_glad` refuses the data.

    Examples
    --------
    >>> import pandas as pd
    >>> one = pd.DataFrame({"item": ["i1", "i2"], "annotator": ["a", "a"], "label": ["x", "y"]})
    >>> "glad" in applicable_models(one)
    False
    """
    ann = as_annotations(ann)
    if anonymous_annotators(ann):
        return ("majority",)
    if ann.n_categories < 2 or ann.n_annotators < 2:
        return tuple(m for m in MODELS if m != "glad")
    return tuple(MODELS)


def refuse_anonymous(ann: Annotations, model: str) -> None:
    """Refuse a model that estimates each annotator on a count table's anonymous raters.

    Parameters
    ----------
    ann : Annotations
        The data to fit.
    model : str
        A name from :data:`MODELS`.

    Raises
    ------
    AnnotationDataError
        ``ann`` came from an items x categories count table and ``model`` is not
        ``"majority"``: its "rater 1..k" are slots the counts were unrolled into, not
        people, so per-annotator accuracies (which every other model estimates, and on
        which its labels rest) would describe the unrolling. Dawid-Skene refuses the same
        data in the same words.

    Examples
    --------
    >>> import pandas as pd
    >>> refuse_anonymous(as_annotations(pd.DataFrame(
    ...     {"item": [1, 1], "annotator": ["a", "b"], "label": ["x", "y"]})), "mace")
    """
    if model != "majority" and anonymous_annotators(ann):
        raise AnnotationDataError(
            f"the {model} model needs to know who gave which label: a count table's raters "
            "are anonymous (load the judgements instead).",
            hint="On a count table only the majority model applies (auto chooses it).",
        )
