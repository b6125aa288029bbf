"""Held-out predictive likelihood: how well a model predicts judgements it did not see.

Item-grouped cross-validation: the items are split at random into ``folds`` groups; in
fold f, about half of the judgements of every item of group f (at least one, never all)
are held out, the model is fitted on the rest, and the held-out judgements of each item
are scored jointly by the model's posterior predictive distribution

.. math::

    p(y_{i,\\mathrm{out}} \\mid y_{\\mathrm{in}}) = \\sum_k q_{ik}
        \\prod_{n \\in \\mathrm{out}(i)} \\theta_{jj[n], k, y[n]}

with :math:`q_{ik}` the posterior of item i given its remaining judgements (and
everything else) and :math:`\\theta` the fitted confusion matrices (GLAD: per item).
The score is the total log predictive probability divided by the number of held-out
judgements (nats per judgement; higher is better).

References
----------
Paun, S., Carpenter, B., Chamberlain, J., Hovy, D., Kruschwitz, U. and Poesio, M. (2018).
Comparing Bayesian models of annotation. *TACL* 6, 571-585, section 5.2 (posterior
predictive checks and held-out likelihood to compare annotation models).

Vehtari, A., Gelman, A. and Gabry, J. (2017). Practical Bayesian model evaluation using
leave-one-out cross-validation and WAIC. *Statistics and Computing* 27, 1413-1432.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any

import numpy as np
from scipy.special import log_expit

from analytics._core.ids import name_ranks
from analytics.data import Annotations
from analytics.models.result import Coded, ModelResult

__all__ = ["FoldScore", "fold_masks", "heldout_log_likelihood", "predictive_log_terms"]


def fold_masks(coded: Coded, folds: int, seed: int) -> list[np.ndarray]:
    """Boolean masks of the judgements held out in each fold (item-grouped).

    Parameters
    ----------
    coded : Coded
    folds : int
        Number of item groups (>= 2).
    seed : int

    Returns
    -------
    list of ndarray of bool, one per fold, shape (n_judgements,)
        In fold f, items of group f with n >= 2 judgements have floor(n / 2) of them
        held out (chosen at random); nothing else. The draws are made in the sorted
        order of the item, annotator and category names, so the folds do not depend on
        the order of the rows.
    """
    rng = np.random.default_rng(seed)
    n = len(coded.ii)
    # the draws follow the names' sorted order, not the codes' first-seen order, so the
    # same judgements in another row order get the same folds (and auto the same labels)
    item_rank = name_ranks(coded.ann.items)
    group = rng.integers(0, folds, coded.n_items)[item_rank]
    per_item = np.bincount(coded.ii, minlength=coded.n_items)
    ann_rank = name_ranks(coded.ann.annotators)
    label_rank = name_ranks(coded.ann.categories)
    canonical = np.lexsort((label_rank[coded.yy], ann_rank[coded.jj], item_rank[coded.ii]))
    draw = np.empty(n)
    draw[canonical] = rng.random(n)
    # rank of every judgement within its item, in a random order
    order = np.lexsort((draw, coded.ii))
    starts = np.concatenate(([0], np.cumsum(per_item)[:-1]))
    rank = np.empty(n, np.int64)
    rank[order] = np.arange(n) - starts[coded.ii[order]]
    out = rank < per_item[coded.ii] // 2
    return [out & (group[coded.ii] == f) for f in range(folds)]


def predictive_log_terms(result: ModelResult, coded: Coded, held: np.ndarray) -> np.ndarray:
    """log p(y_n | z = k) of every held-out judgement under a fitted model, shape (n, K)."""
    jj, yy = coded.jj[held], coded.yy[held]
    k = coded.k
    if result.model == "glad":
        x = result.parameters["alpha"][jj] * result.parameters["beta"][coded.ii[held]]
        right, wrong = log_expit(x), log_expit(-x) - np.log(max(k - 1, 1))
        terms = np.repeat(wrong[:, None], k, axis=1)
        terms[np.arange(len(yy)), yy] = right
        return terms
    with np.errstate(divide="ignore"):
        return np.log(result.confusion_array[jj, :, yy])


def heldout_log_likelihood(result: ModelResult, coded: Coded, held: np.ndarray) -> np.ndarray:
    """Log predictive probability of each item's held-out judgements (jointly), one value
    per item with a held-out judgement, in item order."""
    n_i, k = coded.n_items, coded.k
    terms = predictive_log_terms(result, coded, held)
    ii = coded.ii[held]
    per_item = np.zeros((n_i, k))
    for col in range(k):
        per_item[:, col] = np.bincount(ii, terms[:, col], n_i)
    rows = np.unique(ii)
    with np.errstate(divide="ignore"):
        s = np.log(result.posteriors.to_numpy()[rows]) + per_item[rows]
    top = s.max(axis=1)
    top[~np.isfinite(top)] = 0.0
    return top + np.log(np.exp(s - top[:, None]).sum(axis=1))


class FoldScore:
    """Cross-validated held-out log-likelihood of models on one data set.

    Every model is scored on the same folds, so per-item values can be compared pairwise.
    """

    def __init__(self, coded: Coded, folds: int, seed: int) -> None:
        self.coded = coded
        self.masks = fold_masks(coded, folds, seed)
        self.n_held = int(sum(m.sum() for m in self.masks))

    def training(self, held: np.ndarray) -> Annotations:
        """The data without the held-out judgements (same items, annotators, categories)."""
        ann, keep = self.coded.ann, ~held
        return Annotations(
            ann.item_codes[keep],
            ann.annotator_codes[keep],
            ann.label_codes[keep],
            ann.items,
            ann.annotators,
            ann.categories,
            kind=ann.kind,
            name=ann.name,
        )

    def item_scores(
        self,
        fit_one: Callable[[Annotations], ModelResult],
        progress: Callable[[], Any] | None = None,
    ) -> np.ndarray:
        """Fit on every fold's training data; the log predictive probability of every
        item's held-out judgements (folds in order; empty when nothing can be held out).

        ``progress()`` is called after every fold, from the calling thread.

        The folds' fits are independent, so they run in a pool of threads, one per core
        (at most one per fold): numpy releases the GIL in its array loops, and on two cores
        5-fold cross-validation of a million judgements takes about 0.6 of the serial time.
        Each running fold holds its own training copy of the judgements (about 20 bytes per
        judgement). The result does not depend on the order the folds finish in."""
        todo = [i for i, held in enumerate(self.masks) if held.any()]
        parts: dict[int, np.ndarray] = {}

        def score(i: int) -> np.ndarray:
            held = self.masks[i]
            return heldout_log_likelihood(fit_one(self.training(held)), self.coded, held)

        workers = max(1, min(len(todo), os.cpu_count() or 1))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(score, i): i for i in todo}
            for future in as_completed(futures):
                parts[futures[future]] = future.result()
                if progress is not None:
                    progress()
        if progress is not None:
            for _ in range(len(self.masks) - len(todo)):
                progress()  # folds with nothing to hold out
        return np.concatenate([parts[i] for i in todo]) if todo else np.zeros(0)
