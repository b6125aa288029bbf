"""Uncertainty of a fitted model itself: an item bootstrap of the whole fit.

Passonneau & Carpenter (2014, section 2.2.3) note that estimation uncertainty is
"substantial for the data sizes discussed here". :func:`bootstrap` measures it by
refitting the model on data sets resampled item by item (each resampled item keeps all
its judgements), so the intervals cover everything the fit estimates: each annotator's
accuracy, each confusion entry, the prevalence, and each item's label.

References
----------
Efron, B. and Tibshirani, R. J. (1993). *An Introduction to the Bootstrap*. Chapman &
Hall, chapters 6 and 13 (nonparametric bootstrap, percentile intervals).

Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
*TACL* 2, 311-326, section 2.2.3.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.bootstrap import check_resampling
from analytics._core.errors import AnnotationDataError, require
from analytics._core.ids import name_order, top_codes
from analytics.data import Annotations, as_annotations
from analytics.dawid_skene import DawidSkeneResult
from analytics.models.registry import check_model, fit_model
from analytics.models.result import ModelResult, code
from analytics.models.selection import quick

__all__ = ["Uncertainty", "bootstrap", "resample_items"]


@dataclass(frozen=True)
class Uncertainty:
    """What :func:`bootstrap` returns.

    Attributes
    ----------
    method : str
        How the intervals were made, in words.
    n_boot : int
        Bootstrap fits made.
    confidence : float
        Coverage of the intervals.
    annotator_accuracy : pandas.DataFrame
        Index annotator; ``estimate`` (the full fit), ``low``, ``high``, ``fits`` (bootstrap
        fits in which the annotator had a judgement; the interval uses those only),
        ``note`` (:data:`WITHHELD` where the interval would exclude the estimate and is
        left out, NaN ends; else empty).
    prevalence : pandas.DataFrame
        Index category; ``estimate``, ``low``, ``high``, ``note`` (as above).
    confusion_low, confusion_high : ndarray, shape (J, K, K)
        Percentile interval of every confusion entry (NaN for an annotator absent from
        every resample).
    label_changes : pandas.Series
        Item -> share of the bootstrap fits containing the item whose label differs from
        the full fit's (NaN for an item no resample drew).
    """

    method: str
    n_boot: int
    confidence: float
    annotator_accuracy: pd.DataFrame
    prevalence: pd.DataFrame
    confusion_low: np.ndarray
    confusion_high: np.ndarray
    label_changes: pd.Series

    @property
    def share_changed(self) -> float:
        """Share of items whose label changes in at least one bootstrap fit."""
        seen = self.label_changes.dropna()
        return float((seen > 0).mean()) if len(seen) else float("nan")


def resample_items(
    ann: Annotations, rng: np.random.Generator, by_name: np.ndarray | None = None
) -> tuple[Annotations, np.ndarray]:
    """One item bootstrap sample: I items drawn with replacement, each with all its
    judgements; a drawn twice item becomes two items.

    ``by_name`` (the item codes in the sorted order of the item names, computed once per
    bootstrap) makes the draws follow the data's own order, not the file's: the same
    judgements in another row order then give the same resamples.

    Returns
    -------
    tuple of (Annotations, ndarray)
        The resample (items named by their position in the draw) and the original item
        code of each of its items.
    """
    n_i = ann.n_items
    drawn = rng.integers(0, n_i, n_i)
    if by_name is not None:
        drawn = by_name[drawn]
    order = np.argsort(ann.item_codes, kind="stable")
    per_item = np.bincount(ann.item_codes, minlength=n_i)
    starts = np.concatenate(([0], np.cumsum(per_item)[:-1]))
    sizes = per_item[drawn]
    copy = np.repeat(np.arange(n_i), sizes)  # new item code of every judgement
    offset = np.arange(sizes.sum()) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    rows = order[starts[drawn][copy] + offset]
    sample = Annotations(
        copy,
        ann.annotator_codes[rows],
        ann.label_codes[rows],
        pd.RangeIndex(n_i),
        ann.annotators,
        ann.categories,
        kind=ann.kind,
        name=ann.name,
    )
    return sample, drawn


def _refit(result: ModelResult, name: str, coded: Any, seed: int) -> tuple[np.ndarray, ...]:
    """Confusions, prevalence and posteriors of the model ``name`` (of ``result``) refitted to
    ``coded`` from one start; a stacked model refits each component and keeps its
    weights."""
    weights = result.parameters["weights"] if name == "stacked" else pd.Series([1.0], index=[name])
    theta = pi = post = 0.0
    for model, w in weights.items():
        fitted = fit_model(coded, model, gold=None, seed=seed, **quick(model))
        theta = theta + w * fitted.confusion_array
        pi = pi + w * fitted.prevalence.to_numpy()
        post = post + w * fitted.posteriors.to_numpy()
    return theta, pi, post


#: Why an interval is left out (:func:`_withhold`).
WITHHELD = (
    "interval withheld: the full fit's estimate lies outside it (the model's estimate "
    "moves when the items are resampled; do not read a range from these refits)"
)


def _withhold(table: pd.DataFrame) -> pd.DataFrame:
    """Leave out intervals that exclude their own estimate, saying so in ``note``.

    A percentile interval can miss the estimate when the fit is biased under resampling
    (a hierarchical model's shrinkage differs on resamples that repeat items; a fit that
    is not identified). Such an interval does not describe the estimate's uncertainty;
    the agreement report withholds its bootstrap intervals by the same rule.
    """
    est, low, high = table["estimate"], table["low"], table["high"]
    outside = low.notna() & high.notna() & ~((low - 1e-12 <= est) & (est <= high + 1e-12))
    table.loc[outside, ["low", "high"]] = np.nan
    table["note"] = np.where(outside, WITHHELD, "")
    return table


def bootstrap(
    ann: Annotations | pd.DataFrame,
    result: ModelResult,
    *,
    n_boot: int = 50,
    confidence: float = 0.95,
    seed: int | None = 0,
    progress: Callable[[float], Any] | None = None,
) -> Uncertainty:
    """Item-bootstrap intervals for a fitted model's parameters and labels.

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        The data ``result`` was fitted to.
    result : ModelResult or DawidSkeneResult
        The fit (from :func:`analytics.models.fit`); its model is refitted (a
        :func:`analytics.dawid_skene.fit` result as the family's ``"dawid_skene"``).
    n_boot : int, default 50
        Bootstrap fits (a whole number >= 2); each is one start (majority vote), no gold;
        a stacked fit (``fit(ann)``) refits each of its models and keeps the weights.
    confidence : float, default 0.95
        Interval coverage, strictly between 0 and 1.
    seed : int, default 0
        Seed of the resampling (None: a fresh random stream).
    progress : callable, default None
        Called with the share done after every fit.

    Returns
    -------
    Uncertainty

    Notes
    -----
    Each bootstrap fit b gives :math:`\\hat\\pi^{(b)}`, :math:`\\hat\\theta^{(b)}` and
    annotator accuracies :math:`\\sum_k \\hat\\pi^{(b)}_k \\hat\\theta^{(b)}_{jkk}`; the
    interval is their :math:`(1 \\pm \\mathrm{confidence})/2` percentiles. An item's label
    change rate is the share of fits containing it whose top posterior category differs
    from the full fit's. Starting every refit from majority vote keeps the categories
    aligned with the full fit (no relabelling); known gold is not clamped in the refits.

    References
    ----------
    Efron & Tibshirani (1993), *An Introduction to the Bootstrap*, chapter 13.
    """
    ann = as_annotations(ann)
    require(
        result,
        isinstance(result, DawidSkeneResult),
        "a fitted model (what models.fit or dawid_skene.fit returns)",
        hint="Fit the annotations first: bootstrap(ann, fit(ann)).",
    )
    for what, ours, theirs in (
        ("items", ann.items, result.items),
        ("annotators", ann.annotators, result.annotators),
        ("categories", ann.categories, result.categories),
    ):
        if len(ours) != len(theirs) or not (pd.Index(ours) == pd.Index(theirs)).all():
            raise AnnotationDataError(
                f"the fit was not made on these annotations: its {what} differ "
                f"({len(theirs):,} in the fit, {len(ours):,} in the data).",
                hint="Pass the annotations the model was fitted on: bootstrap(ann, fit(ann)).",
            )
    # a dawid_skene.fit result has no model name: it is the family's Dawid-Skene
    name = getattr(result, "model", "") or "dawid_skene"
    model = name if name == "stacked" else check_model(name)
    confidence, n_boot, seed = check_resampling(confidence, n_boot, seed, min_boot=2)
    seed = 0 if seed is None else seed
    rng = np.random.default_rng(seed)
    j, k = ann.n_annotators, ann.n_categories
    thetas = np.full((n_boot, j, k, k), np.nan)
    pis = np.empty((n_boot, k))
    accs = np.full((n_boot, j), np.nan)
    changed = np.zeros(ann.n_items)
    counted = np.zeros(ann.n_items)
    full_top = result.categories.get_indexer(result.labels)  # a tie broken as the labels are
    by_name = name_order(ann.items)  # draws in the data's order
    for b in range(n_boot):
        sample, drawn = resample_items(ann, rng, by_name)
        theta, pi, post = _refit(result, model, code(sample), seed)
        present = np.bincount(sample.annotator_codes, minlength=j) > 0
        thetas[b, present] = theta[present]
        pis[b] = pi
        accs[b, present] = (np.diagonal(theta, axis1=1, axis2=2) @ pi)[present]
        first = np.unique(drawn, return_index=True)[1]  # first copy of each drawn item
        items = drawn[first]
        top = top_codes(post[first], result.categories)
        changed[items] += top != full_top[items]
        counted[items] += 1
        if progress is not None:
            progress((b + 1) / n_boot)
    tail = (1 - confidence) / 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an annotator in no resample
        lo_t, hi_t = np.nanquantile(thetas, [tail, 1 - tail], axis=0)
        lo_a, hi_a = np.nanquantile(accs, [tail, 1 - tail], axis=0)
    lo_p, hi_p = np.quantile(pis, [tail, 1 - tail], axis=0)
    acc_table = _withhold(
        pd.DataFrame(
            {
                "estimate": result.annotator_accuracy.to_numpy(),
                "low": lo_a,
                "high": hi_a,
                "fits": np.isfinite(accs).sum(axis=0),
            },
            index=ann.annotators,
        )
    )
    prev = _withhold(
        pd.DataFrame(
            {"estimate": result.prevalence.to_numpy(), "low": lo_p, "high": hi_p},
            index=ann.categories,
        )
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(counted > 0, changed / np.where(counted > 0, counted, 1), np.nan)
    return Uncertainty(
        method=(
            f"item bootstrap: {n_boot} refits of the {model} model on items resampled with "
            f"replacement (each with all its judgements), {confidence:.0%} percentile intervals"
        ),
        n_boot=n_boot,
        confidence=confidence,
        annotator_accuracy=acc_table,
        prevalence=prev,
        confusion_low=lo_t,
        confusion_high=hi_t,
        label_changes=pd.Series(rate, index=ann.items, name="label change rate"),
    )
