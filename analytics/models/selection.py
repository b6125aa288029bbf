"""Comparing annotator models without gold, and choosing one: :func:`compare`, :func:`choose`.

The criterion is the held-out predictive log-likelihood per judgement from item-grouped
cross-validation (:mod:`analytics.models.heldout`): how well a model fitted to the rest
predicts judgements it did not see. It never looks at gold labels. When gold labels are
given, :func:`compare` adds each model's accuracy on them (with a 95% Wilson interval),
for the reader, not for the choice.

References
----------
Paun, S., Carpenter, B., Chamberlain, J., Hovy, D., Kruschwitz, U. and Poesio, M. (2018).
Comparing Bayesian models of annotation. *TACL* 6, 571-585, section 5.

"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError, require
from analytics._core.validation import check_whole
from analytics.data import Annotations
from analytics.models.evaluation import check_scoring_gold, gold_table
from analytics.models.heldout import FoldScore
from analytics.models.registry import MODELS, applicable_models, check_model, fit_model
from analytics.models.result import code

__all__ = ["choose", "compare", "n_parameters", "quick"]


def n_parameters(model: str, n_annotators: int, n_items: int, k: int) -> int:
    """Free parameters of a model (prevalence included where it is estimated).

    Majority vote: 0. One-coin: J + K - 1. MACE: J K + K - 1 (trust and K - 1 spam
    probabilities per annotator). GLAD: J + I (uniform prevalence). Dawid-Skene:
    J K (K - 1) + K - 1. Hierarchical: the population's K^2 plus K - 1 (the annotators'
    matrices are partially pooled, so their effective number lies between one-coin's and
    Dawid-Skene's).

    Raises
    ------
    AnnotationDataError
        A model name not in :data:`~analytics.models.MODELS`, or counts that are not
        whole numbers >= 0.
    """
    check_model(model)
    j = check_whole(n_annotators, "n_annotators", 0)
    i = check_whole(n_items, "n_items", 0)
    k = check_whole(k, "k", 0)
    return {
        "majority": 0,
        "one_coin": j + k - 1,
        "mace": j * k + k - 1,
        "glad": j + i,
        "dawid_skene": j * k * (k - 1) + k - 1,
        "hierarchical": k * k + k - 1,
    }[model]


def compare(
    ann: Annotations | pd.DataFrame,
    models: Sequence[str] | None = None,
    *,
    gold: Mapping[Any, Any] | pd.Series | None = None,
    folds: int = 5,
    seed: int = 0,
    progress: Callable[[float], Any] | None = None,
) -> pd.DataFrame:
    """Compare annotator models on one data set: a tidy table, one row per model.

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        Single-label annotations.
    models : str, sequence of str or None, default None
        Models to compare (names from :data:`~analytics.models.MODELS`; one name is a list
        of one); None: all that apply to the data (:func:`applicable_models`; GLAD needs
        two annotators and two categories).
    gold : mapping or pandas.Series, default None
        Known gold labels (item -> label). Used only for the accuracy columns; never in
        the fits and never in the held-out criterion.
    folds : int, default 5
        Cross-validation folds (a whole number >= 2).
    seed : int, default 0
        Seed of the fold split.
    progress : callable, default None
        Called with the share of the work done (0 to 1) after every fit.

    Returns
    -------
    pandas.DataFrame
        Index ``model``; columns ``heldout_ll`` (held-out log predictive probability per
        judgement, nats; higher is better), ``heldout_se`` (standard error of its
        difference from the best model's, paired by item), ``n_parameters``,
        ``seconds`` (time of the full fit), ``log_likelihood`` (the fit's final
        objective), ``converged``, ``iterations``; with gold also ``accuracy``,
        ``accuracy_low``, ``accuracy_high`` (95% Wilson interval over the gold items) and
        ``gold_items``. Sorted by ``heldout_ll``, best first. ``attrs``: ``n_heldout``,
        ``folds``, ``labels`` (items x models, each full fit's category codes) and
        ``item_scores`` (model -> the log predictive probability of every held-out item's
        judgements, the same items in the same order for every model) and ``notes`` (what
        the gold check noticed: gold labels no annotator used, scored as wrong).

    Raises
    ------
    AnnotationDataError
        Unknown model names, a bad ``folds``, data no model can fit, or gold that cannot
        be scored (items not in the data, an item listed twice, no gold label among the
        categories; :func:`~analytics.models.evaluation.check_scoring_gold`).

    Notes
    -----
    Every fit here (the cross-validation fits and the full fit behind ``seconds``,
    ``log_likelihood`` and ``accuracy``) starts from majority vote only
    (:func:`quick`), so the comparison costs about (folds + 1) fits per model;
    :func:`~analytics.models.fit` then fits the chosen model from several starts. The
    held-out score of model m is
    :math:`\\frac{1}{N_{\\mathrm{out}}} \\sum_i \\log p_m(y_{i,\\mathrm{out}} \\mid
    y_{\\mathrm{in}})` (see :mod:`analytics.models.heldout`). Its standard error against
    the best model b is :math:`\\sqrt{I_{\\mathrm{out}}}\\, \\mathrm{sd}_i(d_i) /
    N_{\\mathrm{out}}` with :math:`d_i` the per-item difference of log predictive
    probabilities.

    References
    ----------
    Paun et al. (2018). Comparing Bayesian models of annotation. *TACL* 6, section 5.
    """
    if isinstance(models, str):  # one name, not its letters ("unknown model 'm'")
        models = [models]
    names = None if models is None else [check_model(m) for m in models]
    if names == []:
        raise AnnotationDataError("no model to compare.", hint=f"Name some of {MODELS}.")
    folds = check_whole(folds, "folds", 2)
    seed = check_whole(seed, "seed", 0)  # not numpy's "expected non-negative integer"
    coded = code(ann)
    if names is None:  # all that apply: GLAD needs two annotators and two categories
        names = list(applicable_models(coded.ann))
    gold_s, notes = check_scoring_gold(coded.ann, gold)  # an unused gold category: wrong
    cv = FoldScore(coded, folds, seed)
    total, done = len(names) * (folds + 1), [0]

    def tick() -> None:
        done[0] += 1
        if progress is not None:
            progress(done[0] / total)

    rows, per_item, labels = [], {}, {}
    for name in names:
        start = time.perf_counter()
        result = fit_model(coded, name, gold=None, seed=seed, **quick(name))
        seconds = time.perf_counter() - start
        tick()
        per_item[name] = cv.item_scores(
            lambda a, name=name: fit_model(code(a), name, gold=None, seed=seed, **quick(name)),
            tick,
        )
        row = {
            "model": name,
            "heldout_ll": per_item[name].sum() / cv.n_held if cv.n_held else float("nan"),
            "n_parameters": n_parameters(name, coded.n_annotators, coded.n_items, coded.k),
            "seconds": seconds,
            "log_likelihood": result.final_log_likelihood,
            "converged": result.converged,
            "iterations": result.n_iter,
        }
        if gold_s is not None:
            scored = gold_table({name: result}, gold_s, seed=seed).iloc[0]
            row |= scored[["accuracy", "accuracy_low", "accuracy_high", "gold_items"]].to_dict()
        rows.append(row)
        labels[name] = result.categories.get_indexer(result.labels)  # ties as the labels
    table = pd.DataFrame(rows).set_index("model")
    table = table.sort_values("heldout_ll", ascending=False, kind="stable")
    best = per_item[table.index[0]]
    table.insert(
        1,
        "heldout_se",
        [
            float(np.std(per_item[m] - best, ddof=1) * np.sqrt(len(best)) / cv.n_held)
            if len(best) > 1
            else float("nan")
            for m in table.index
        ],
    )
    table.attrs["n_heldout"] = cv.n_held
    table.attrs["notes"] = tuple(notes)
    table.attrs["folds"] = folds
    table.attrs["labels"] = pd.DataFrame(labels, index=coded.ann.items)
    table.attrs["item_scores"] = per_item
    return table


def quick(model: str) -> dict[str, Any]:
    """Settings of the cross-validation fits: one start (majority vote), not the best of
    several, so that the comparison costs about as many fits as it has folds."""
    return {} if model == "majority" else {"init": "majority"}


#: Held-out log-likelihoods closer than this (nats per judgement) are called too close to
#: matter in auto's sentence, however many standard errors apart (near-perfect crowds give
#: tiny standard errors).
PRACTICAL_GAP = 1e-3


def choose(table: pd.DataFrame) -> tuple[str, str]:
    """The model :func:`compare`'s table recommends, and why, in one sentence.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`compare`'s output (gold columns, if any, are ignored).

    Returns
    -------
    tuple of (str, str)
        The model with the highest held-out log-likelihood per judgement, and a sentence
        naming the runner-up, the margin in standard errors and the share of items the
        two label differently (how much the choice matters; when they give every item
        the same label, it says so, and does not ask to compare their labels even when
        they are within noise of each other). When nothing could be held out (every item
        has one judgement), majority vote, saying so.

    Raises
    ------
    ArgumentTypeError
        ``table`` is not :func:`compare`'s table (no ``heldout_ll`` and ``heldout_se``
        columns).
    AnnotationDataError
        The table has no rows.
    """
    require(
        table,
        isinstance(table, pd.DataFrame) and {"heldout_ll", "heldout_se"} <= set(table.columns),
        "the table compare returns (columns heldout_ll and heldout_se)",
        hint="Choose from a comparison: choose(compare(ann)).",
    )
    if table.empty:
        raise AnnotationDataError(
            "the comparison table has no models to choose from.",
            hint="Compare at least one model: choose(compare(ann)).",
        )
    scores = table["heldout_ll"]
    if not np.isfinite(scores.to_numpy(dtype=float)).any():
        return "majority", (
            "auto chose majority vote: no item has two judgements, so no model can be "
            "checked on judgements it did not see."
        )
    best = str(scores.idxmax())

    def nats(x: float) -> str:
        return f"{round(float(x), 4) + 0.0:.4f}"  # + 0.0: no "-0.0000"

    reason = (
        f"auto chose {best}: the highest held-out predictive log-likelihood "
        f"({nats(scores[best])} nats per judgement, {table.attrs.get('folds', '?')}-fold "
        "item-grouped cross-validation, chosen without the gold labels)"
    )
    if len(scores) > 1:
        second = str(scores.drop(best).idxmax())
        gap = scores[best] - scores[second]
        se = table.loc[second, "heldout_se"]
        margin = (
            f"{gap / se:.1f} standard errors behind"
            if se > 0
            else "an exact tie"
            if gap == 0
            else f"{gap:.3g} nats behind, with no standard error (too few items held out)"
        )
        reason += f"; next best {second} ({nats(scores[second])}), {margin}."
        if 0 < gap < PRACTICAL_GAP:
            reason += f" That is {gap:.1g} nats per judgement, too small to matter."
        noise = bool(se > 0 and gap < 2 * se)
        codes = table.attrs.get("labels")
        differ = None
        if codes is not None and best in codes and second in codes:
            differ = int((codes[best] != codes[second]).sum())
            share = differ / len(codes) if len(codes) else 0.0
            if differ == 0:  # nothing to compare, however close the two score
                within = " are within noise of each other and" if noise else ""
                reason += f" The two{within} agree on every item."
            elif share < 0.0005:  # not "0.0%"
                reason += f" The two label {differ:,} of {len(codes):,} items differently."
            else:
                reason += f" The two label {share:.1%} of the items differently."
        if noise and differ != 0:
            reason += " The two are within noise of each other: compare their labels."
    else:
        reason += "."
    return best, reason
