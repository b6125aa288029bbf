""":func:`next_batch`: the items (and annotators) to ask for the next judgements."""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics._core.validation import check_whole
from analytics.data import Annotations
from analytics.next_labels.batch import MAX_BRANCHES, STRATEGIES, Planner
from analytics.next_labels.gain import pool_gains
from analytics.next_labels.parameters import annotator_codes, model_view, view_in_name_order
from analytics.next_labels.pruning import best_available, mean_bounds
from analytics.next_labels.shortfall import excluded_counts, shortfall_note

__all__ = ["BATCH_COLUMNS", "check_batch_settings", "next_batch"]

#: The reason columns of a batch, after ``item`` (and ``annotator`` when assigned).
BATCH_COLUMNS = ("current_confidence", "expected_gain", "expected_confidence")


def check_batch_settings(
    budget: Any, per_item_cap: Any, stop_at: Any, strategy: Any, k: int
) -> None:
    """Refuse settings :func:`next_batch` cannot honour, saying what to pass.

    Raises
    ------
    AnnotationDataError
        ``budget`` or ``per_item_cap`` is not a whole number >= 1, the cap would keep more
        than :data:`~analytics.next_labels.batch.MAX_BRANCHES` answer branches per item,
        ``stop_at`` is not in (0, 1], or ``strategy`` is unknown.
    """
    for name, value in (("budget", budget), ("per_item_cap", per_item_cap)):
        if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
            raise AnnotationDataError(
                f"{name} must be a whole number of judgements >= 1; got {value!r}.",
                hint=f"Pass e.g. {name}=100." if name == "budget" else "Pass e.g. per_item_cap=2.",
            )
    if k ** (int(per_item_cap) - 1) > MAX_BRANCHES:
        raise AnnotationDataError(
            f"per_item_cap={per_item_cap} is too many judgements of one item in one batch "
            f"with {k} categories (the exact expectation would follow {k}^{per_item_cap - 1} "
            "answer branches).",
            hint="Send a smaller batch, refit, and plan the next one.",
        )
    if isinstance(stop_at, bool) or not isinstance(stop_at, Real) or not 0 < stop_at <= 1:
        raise AnnotationDataError(
            f"stop_at must be a confidence in (0, 1]; got {stop_at!r}.",
            hint="Pass e.g. stop_at=0.99 (1 never stops).",
        )
    if strategy not in STRATEGIES:
        raise AnnotationDataError(
            f"strategy must be one of {', '.join(STRATEGIES)}; got {strategy!r}.",
            hint='"gain" is the model\'s choice; the others are for comparison.',
        )


def next_batch(
    result: Any,
    ann: Annotations,
    budget: int,
    *,
    per_item_cap: int = 2,
    annotators: Any = None,
    stop_at: float = 0.99,
    strategy: str = "gain",
    seed: int = 0,
    per_annotator_cap: int | None = None,
) -> pd.DataFrame:
    """The judgements to ask for next: greedily by expected gain, batch effect included.

    Every step gives one more judgement to the item whose next judgement is worth most,
    then re-scores that item as if the judgement were planned (the exact expectation over
    its possible answers, :mod:`analytics.next_labels.batch`), so a second judgement of
    the same item is weighed against first judgements of others.

    Parameters
    ----------
    result : fitted annotator model
        :func:`analytics.dawid_skene.fit`'s result, or any model result with
        ``posteriors``, ``prevalence`` and confusion matrices.
    ann : Annotations
        The annotations the model was fitted on.
    budget : int
        Judgements to ask for: a whole number >= 1.
    per_item_cap : int, default 2
        Most judgements of one item in this batch.
    annotators : None or list of names, default None
        None: the work goes to a platform that picks a random annotator among those who
        have not judged the item (no ``annotator`` column). Names: every judgement is
        assigned to one of them who has not judged the item yet (the one with the largest
        expected gain for ``"gain"``, a random one otherwise).
    stop_at : float, default 0.99
        Items whose confidence (top posterior) is already at least this get nothing, and
        an item stops receiving judgements once its expected confidence reaches it.
    strategy : {"gain", "uncertainty", "random"}, default "gain"
        ``"gain"``: largest expected gain in bits; ``"uncertainty"``: lowest (expected)
        top posterior; ``"random"``: random items (for comparison).
    seed : int, default 0
        Seed of the random choices (random strategy, random annotators).
    per_annotator_cap : int or None, default None
        With ``annotators``: most judgements one annotator gets in this batch (None: no
        limit). Without it the model's favourite takes everything it can: on the RTE
        sample one worker got all 57 judgements of a batch of 100 (the model puts them at
        99.96% accurate, gold at 90%).

    Returns
    -------
    pandas.DataFrame
        One row per judgement to ask for, in the order chosen: ``item``, ``annotator``
        (only when ``annotators`` are named), ``current_confidence`` (top posterior
        now), ``expected_gain`` (bits this judgement is expected to add, given the ones
        before it in the batch) and ``expected_confidence`` (expected top posterior of the
        item after it). Fewer rows than ``budget`` when no more judgement is worth
        anything; ``.attrs["notes"]`` then says why, with counts. ``.attrs["excluded"]``
        counts the items that can take no further judgement after this batch by reason
        (:data:`~analytics.next_labels.shortfall.EXCLUSIONS`, each item under the first
        that applies: ``judged_by_all``, ``confident``, ``at_item_cap``,
        ``reached_stop_at``, ``nobody_left``, ``annotators_at_cap``, ``no_gain``); items
        that could take more when the budget ran out are not counted.

    Raises
    ------
    AnnotationDataError
        ``result`` was not fitted on ``ann``; a setting is invalid (budget below 1, ...);
        an annotator is unknown.

    Notes
    -----
    The gain of the :math:`m`-th judgement of an item in the batch is
    :math:`I[Z; Y_m \\mid Y_1, \\ldots, Y_{m-1}]`, averaged exactly over the
    :math:`K^{m-1}` answers of the earlier ones. Without named annotators the earlier
    judgements act through the mean confusion matrix of the available annotators (who
    answers is not known when the batch is sent): the first judgement's gain is the mean
    over the annotators (the answer will come back with its annotator's name), but the
    item's posterior after it is the mixture's, flatter than any named annotator's answer
    leaves it. The second judgement's gain and the expected confidence are then those of
    the mixture: close when the annotators' confusion matrices are alike, far off when
    they are not (three annotators, one swapping two labels: 0.35 bits for a second
    judgement worth 0.089, the item's two gains summing past its entropy). Name the
    annotators (``annotators=``) for exact figures.

    References
    ----------
    Sheng, V. S., Provost, F. and Ipeirotis, P. G. (2008). Get another label? *KDD 2008*.

    Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, section 6.

    Examples
    --------
    >>> from analytics.data import load_sample
    >>> from analytics.dawid_skene import fit
    >>> ann = load_sample("crowd_intents")
    >>> list(next_batch(fit(ann), ann, 5).columns)
    ['item', 'current_confidence', 'expected_gain', 'expected_confidence']
    """
    # items and annotators numbered by name: draws and ties do not follow the row order
    view, judged = view_in_name_order(model_view(result, ann), ann)
    check_batch_settings(budget, per_item_cap, stop_at, strategy, len(view.categories))
    seed = check_whole(seed, "seed", 0)  # not numpy's "expected non-negative integer"
    n_ann = len(view.annotators)
    assign = annotators is not None
    if per_annotator_cap is not None:
        cap = per_annotator_cap
        if isinstance(cap, bool) or not isinstance(cap, Integral) or cap < 1:
            raise AnnotationDataError(
                f"per_annotator_cap must be a whole number of judgements >= 1; got {cap!r}.",
                hint="Pass e.g. per_annotator_cap=10, or None for no limit.",
            )
        if not assign:
            raise AnnotationDataError(
                "per_annotator_cap limits named annotators, and none are named.",
                hint="Pass annotators=[...] (who may judge), or leave per_annotator_cap out.",
            )
    pool = np.arange(n_ann) if not assign else np.unique(annotator_codes(view, annotators))
    bounds = np.searchsorted(judged // n_ann, np.arange(ann.n_items + 1))
    in_pool = np.zeros(n_ann, bool)
    in_pool[pool] = True

    def available(i: int) -> np.ndarray:
        free = in_pool.copy()
        free[judged[bounds[i] : bounds[i + 1]] % n_ann] = False
        return np.flatnonzero(free)

    def available_mask(items: np.ndarray) -> np.ndarray:
        mask = np.repeat(in_pool[None, :], len(items), axis=0)
        lo, hi = bounds[items], bounds[items + 1]
        row = np.repeat(np.arange(len(items)), hi - lo)
        at = np.repeat(lo - np.r_[0, np.cumsum(hi - lo)[:-1]], hi - lo) + np.arange(len(row))
        mask[row, judged[at] % n_ann] = False
        return mask

    rng = np.random.default_rng(seed)
    q = view.posteriors
    conf = q.max(1)
    n_free = len(pool) - np.bincount(
        judged // n_ann, weights=in_pool[judged % n_ann], minlength=ann.n_items
    )
    first_who = np.full(ann.n_items, -1, np.int64)
    exact = None
    scored = np.full(ann.n_items, np.nan)  # exact first scores, where bounds were refined
    if strategy == "gain" and assign:
        first, first_who = best_available(q, view.confusion, pool, judged)
    elif strategy == "gain":
        # bounds first; the planner scores exactly only the items that can come first
        first = mean_bounds(q, view.confusion, pool, judged)

        def exact(items: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            mean = pool_gains(q, view.confusion, pool, judged, items)[2]
            scored[items] = mean
            return mean, np.full(len(items), -1, np.int64)

    elif strategy == "uncertainty":
        first = 1.0 - conf
    else:
        first = rng.random(ann.n_items)
    first = np.where((conf < stop_at) & (n_free > 0), first, np.nan)
    planner = Planner(
        q,
        view.confusion,
        available,
        assign,
        strategy,
        float(stop_at),
        int(per_item_cap),
        rng,
        available_mask=available_mask,
        annotator_cap=None if per_annotator_cap is None else int(per_annotator_cap),
    )
    rows = planner.run(int(budget), first, first_who, exact)
    codes = np.array([r[0] for r in rows], np.int64)
    out = pd.DataFrame({"item": view.items[codes]})
    if assign:
        out["annotator"] = view.annotators[np.array([r[1] for r in rows], np.int64)]
    out["current_confidence"] = conf[codes]
    out["expected_gain"] = np.array([r[2] for r in rows], float)
    out["expected_confidence"] = np.array([r[3] for r in rows], float)
    excluded = excluded_counts(
        planner, n_free, conf, np.fmin(scored, first), np.unique(codes), available_mask
    )
    note = shortfall_note(
        excluded,
        len(out),
        int(budget),
        ann.n_items,
        {
            "pool": len(pool),
            "n_annotators": n_ann,
            "stop_at": float(stop_at),
            "per_item_cap": int(per_item_cap),
            "per_annotator_cap": per_annotator_cap,
        },
    )
    notes = (note,) if note else ()
    out.attrs["excluded"] = excluded
    out.attrs["notes"] = notes
    return out
