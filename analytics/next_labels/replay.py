"""An honest offline test of the strategies: replay a data set that has many judgements.

Start from ``start`` random judgements per item, then repeatedly let a strategy choose
``step`` more among the judgements that exist in the data (nothing can be "bought" that
nobody gave), refit, and score the model's labels against the gold (or, without gold,
against the labels of the model fitted on every judgement). Every strategy starts from the
same judgements, so the curves differ only by what each strategy chose.

References
----------
Sheng, V. S., Provost, F. and Ipeirotis, P. G. (2008). Get another label? *KDD 2008*,
section 5 (the same protocol on simulated labelers).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from numbers import Integral, Real
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError, require
from analytics._core.formatting import format_count
from analytics._core.validation import check_probability, check_whole
from analytics.data import Annotations
from analytics.dawid_skene import category_codes, fit, gold_series
from analytics.next_labels.batch import STRATEGIES, Planner
from analytics.next_labels.gain import information
from analytics.next_labels.parameters import in_name_order, model_view
from analytics.next_labels.scoring_variants import (
    contaminated,
    crowd_for_unseen,
    error_reduction,
    gain_over_draws,
    pooled_confusion,
    tempered,
)
from analytics.next_labels.selection import check_batch_settings

__all__ = [
    "CONFUSIONS",
    "REPLAY_COLUMNS",
    "contaminated",
    "error_reduction",
    "gain_over_draws",
    "judgements_needed",
    "pooled_confusion",
    "replay",
    "tempered",
]

#: The columns of :func:`replay`'s table.
REPLAY_COLUMNS = ("strategy", "judgements", "accuracy")
#: The confusion matrices :func:`replay`'s ``"gain"`` can be computed with.
CONFUSIONS = ("fitted", "pooled", "unseen_crowd")


def _rows(ann: Annotations, keep: np.ndarray) -> Annotations:
    """The judgements in ``keep`` with every name kept (codes stay aligned with ``ann``)."""
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


def _truth(ann: Annotations, gold: Any, fitter: Callable[[Annotations], Any]) -> np.ndarray:
    """Category code of every item's reference label (-1: none)."""
    if gold is None:
        res = fitter(ann)
        return model_view(res, ann).posteriors.argmax(1)
    g = gold_series(gold)  # the one check of gold= (dawid_skene's): paths, tables, repeats
    rows = ann.items.get_indexer(pd.Index(g.index, dtype=object))
    miss = rows < 0
    if miss.any():
        as_text = ann.items.astype(str).get_indexer([str(i).strip() for i in g.index])
        rows = np.where(miss, as_text, rows)
    codes = category_codes(ann.categories, g.to_numpy())
    truth = np.full(ann.n_items, -1, np.int64)
    ok = (rows >= 0) & (codes >= 0)
    truth[rows[ok]] = codes[ok]
    if not ok.any():
        raise AnnotationDataError(
            "none of the gold labels is for an item of these annotations with a known category.",
            hint="Check that gold is indexed by the same item ids and uses the same labels.",
        )
    return truth


def _first_scores(
    strategy: str,
    q: np.ndarray,
    theta: np.ndarray,
    items: np.ndarray,
    anns: np.ndarray,
    rng: np.random.Generator,
    pick: str = "best",
    g: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised first score (and best annotator for ``"gain"`` with ``pick="best"``) of
    every item, over the remaining judgements (``items``, ``anns``); NaN for items with
    none left. With ``pick="random"`` an item's gain is the mean over its remaining
    judgements (the expectation when any one of them may be the one bought). ``g``: the
    gain of every remaining judgement when already computed (None: under ``q`` and
    ``theta``)."""
    n = len(q)
    score = np.full(n, np.nan)
    who = np.full(n, -1, np.int64)
    has = np.zeros(n, bool)
    has[items] = True
    if strategy == "gain" and g is None:
        g = information(q[items], theta[anns])
    if strategy == "gain" and pick == "random":
        count = np.bincount(items, minlength=n)
        total = np.bincount(items, weights=g, minlength=n)
        score = np.where(has, total / np.maximum(count, 1), np.nan)
    elif strategy == "gain":
        order = np.lexsort((-g, items))  # by item, best gain first
        first = np.r_[True, items[order][1:] != items[order][:-1]]
        score[items[order][first]] = g[order][first]
        who[items[order][first]] = anns[order][first]
    elif strategy == "uncertainty":
        score = np.where(has, 1.0 - q.max(1), np.nan)
    else:
        score = np.where(has, rng.random(n), np.nan)
    return score, who


def replay(
    ann: Annotations,
    gold: pd.Series | Mapping[Any, Any] | None = None,
    *,
    strategies: Sequence[str] = STRATEGIES,
    start: int = 1,
    step: int | None = None,
    per_item_cap: int = 1,
    pick: str = "best",
    confusion: str = "fitted",
    seed: int = 0,
    fitter: Callable[[Annotations], Any] | None = None,
    progress: Callable[[float], None] | None = None,
    explore: float = 0.0,
    temper: float = 1.0,
    draws: int = 0,
    criterion: str = "entropy",
    chooser: Callable[[Annotations], Any] | None = None,
) -> pd.DataFrame:
    """Accuracy versus judgements used when each strategy chooses the judgements to buy.

    Parameters
    ----------
    ann : Annotations
        Single-label data with several judgements per item.
    gold : pandas.Series, mapping or None, default None
        Item -> true label; accuracy is over the items that have one. None: accuracy
        against the labels of the model fitted on every judgement.
    strategies : str or sequence of str, default ("gain", "uncertainty", "random")
        Among :data:`~analytics.next_labels.STRATEGIES` (one name is a list of one).
    start : int, default 1
        Judgements per item to start from (fewer where an item has fewer), drawn at random
        with ``seed``, the same for every strategy.
    step : int or None, default None
        Judgements bought between refits; None: a twentieth of the items (at least 1).
    per_item_cap : int, default 1
        Most judgements of one item bought in one step.
    pick : {"best", "random"}, default "best"
        ``"gain"`` only. ``"best"``: each item is scored by its best remaining judgement
        (the annotator with the highest expected gain), and that judgement is bought.
        ``"random"``: each item is scored by the mean expected gain over its remaining
        judgements (each with its own annotator's confusion matrix), and one of them is
        bought at random: the protocol when the team chooses the items but not who
        answers.
    confusion : {"fitted", "pooled"}, default "fitted"
        ``"gain"`` only: the annotators' confusion matrices the gain is computed with.
        ``"fitted"``: the refitted model's. ``"pooled"``: each annotator's expected
        counts shrunk toward the crowd's confusion matrix with the weight of :math:`K`
        judgements (:func:`pooled_confusion`), so that an annotator seen a few times is
        not taken for perfect. ``"unseen_crowd"``: the refitted model's, except that an
        annotator with no judgement kept yet answers like the crowd (the pooled
        confusion matrix of everyone seen) instead of with the fit's uniform rows, which
        would make every judgement of theirs worth nothing.
    seed : int, default 0
        Seed of the start and of the random choices.
    fitter : callable or None, default None
        ``fitter(annotations) -> fitted model`` (any model with posteriors, prevalence and
        confusion matrices); None: :func:`analytics.dawid_skene.fit` with its defaults.
    progress : callable or None, default None
        Called with the share done (0 to 1) after every refit.
    explore : float in [0, 1), default 0.0
        ``"gain"`` only: the gain is computed with every posterior mixed with the fitted
        prevalence, :math:`(1 - \\epsilon) q_i + \\epsilon \\pi`
        (:func:`contaminated`), as if the fit could be wrong about any item with
        probability :math:`\\epsilon`: an item the model is sure of keeps a small gain,
        so it can still be revisited once the uncertain items are settled. 0: the
        fitted posteriors.
    temper : float >= 1, default 1.0
        ``"gain"`` only: the gain is computed with every posterior's evidence divided by
        ``temper``, :math:`q_i^{1/T} \\pi^{1 - 1/T}` normalised (:func:`tempered`): the
        posterior when the judgements of an item count as :math:`1/T` independent
        judgements each (annotators who share their mistakes), so an item settled by two
        agreeing labels is not taken for settled for good. 1: the fitted posteriors.
    draws : int, default 0
        ``"gain"`` only: the gain of every remaining judgement averaged over ``draws``
        draws of the parameters from their posterior (:func:`gain_over_draws`: confusion
        rows from Dirichlet(1 + expected counts), the prevalence likewise, and every
        item's posterior recomputed under the draw), so a judgement is worth more where
        the labels hinge on parameters the data pin down poorly. 0: the fitted
        parameters.
    criterion : {"entropy", "error"}, default "entropy"
        ``"gain"`` only: what a judgement is expected to reduce. ``"entropy"``: the
        entropy of the item's true label (the expected gain in bits). ``"error"``: the
        expected error of its label, :math:`1 - \\max_k q_k`
        (:func:`error_reduction`).
    chooser : callable or None, default None
        ``chooser(annotations) -> fitted model``: the model ``"gain"`` and
        ``"uncertainty"`` choose with, fitted on the kept judgements at every step; the
        accuracy is still that of ``fitter``'s refit, the same for every strategy. None:
        they choose with the refit itself.

    Returns
    -------
    pandas.DataFrame
        Columns ``strategy``, ``judgements`` (used so far), ``accuracy``: one row per refit,
        the first at the start (the same for every strategy), the last with every
        judgement a strategy was willing to buy. ``.attrs`` holds ``full_accuracy`` (the
        model on every judgement), ``start_accuracy`` and ``reference`` ("gold" or "all
        judgements").

    Raises
    ------
    AnnotationDataError
        No item has more than ``start`` judgements (nothing to choose); a strategy or
        setting is invalid; gold matches no item or lists an item twice.
    ArgumentTypeError
        ``gold`` is a path, a table or a list (:func:`analytics.dawid_skene.gold_series`).

    Notes
    -----
    A strategy only ranks what exists: ``"gain"`` scores each remaining judgement by the
    expected gain of its annotator on its item under the current fit
    (:func:`~analytics.next_labels.expected_gain`), ``"uncertainty"`` prefers items with
    the lowest top posterior, ``"random"`` draws items at random; the last two take a
    random remaining judgement of the item. Within a step an item gets at most
    ``per_item_cap`` judgements; above 1, a second one is weighed with the batch effect of
    :func:`~analytics.next_labels.next_batch`.

    References
    ----------
    Sheng, V. S., Provost, F. and Ipeirotis, P. G. (2008). Get another label? *KDD 2008*.
    """
    if not isinstance(ann, Annotations) or ann.is_multilabel:
        raise AnnotationDataError(
            "replay needs single-label Annotations.",
            hint="Load them with analytics.load_annotations(...).",
        )
    if isinstance(strategies, str):
        strategies = (strategies,)  # one name, not its letters
    unknown = [s for s in strategies if s not in STRATEGIES]
    if unknown or not len(strategies):
        raise AnnotationDataError(
            f"strategies must be among {', '.join(STRATEGIES)}; got {list(strategies)!r}.",
            hint='Pass e.g. strategies=("gain", "random").',
        )
    step = max(1, ann.n_items // 20) if step is None else step
    for name, value in (("start", start), ("step", step)):
        if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
            raise AnnotationDataError(
                f"{name} must be a whole number of judgements >= 1; got {value!r}.",
                hint=f"Pass e.g. {name}=1" + (" (per item)." if name == "start" else "00."),
            )
    check_batch_settings(step, per_item_cap, 1.0, "gain", ann.n_categories)
    seed = check_whole(seed, "seed", 0)  # not numpy's "expected non-negative integer"
    if pick not in ("best", "random"):
        raise AnnotationDataError(
            f'pick must be "best" or "random"; got {pick!r}.',
            hint='Pass pick="best" (the best remaining annotator) or "random".',
        )
    if confusion not in CONFUSIONS:
        raise AnnotationDataError(
            f"confusion must be one of {', '.join(CONFUSIONS)}; got {confusion!r}.",
            hint='Pass confusion="fitted" (the model\'s own) or "pooled" (shrunk to the crowd).',
        )
    if isinstance(temper, bool) or not isinstance(temper, Real) or not 1 <= temper < np.inf:
        raise AnnotationDataError(
            f"temper must be a finite number >= 1; got {temper!r}.",
            hint="Pass e.g. temper=2 (1: the fitted posteriors).",
        )
    if criterion not in ("entropy", "error"):
        raise AnnotationDataError(
            f'criterion must be "entropy" or "error"; got {criterion!r}.',
            hint='Pass criterion="entropy" (bits) or "error" (expected label error).',
        )
    if isinstance(draws, bool) or not isinstance(draws, Integral) or draws < 0:
        raise AnnotationDataError(
            f"draws must be a whole number >= 0; got {draws!r}.",
            hint="Pass e.g. draws=20 (0: the fitted parameters).",
        )
    if isinstance(explore, bool) or not isinstance(explore, Real) or not 0 <= explore < 1:
        raise AnnotationDataError(
            f"explore must be a share in [0, 1); got {explore!r}.",
            hint="Pass e.g. explore=0.05 (0: the fitted posteriors).",
        )
    per_item = np.bincount(ann.item_codes, minlength=ann.n_items)
    if not (per_item > start).any():
        raise AnnotationDataError(
            f"a replay needs items with more than {format_count(start, 'judgement')}; every item "
            f"of {ann.name!r} has at most {int(per_item.max(initial=0))}.",
            hint="Replay data where items were judged several times"
            + (", or lower start." if start > 1 else "."),
        )
    fitter, ann = fit if fitter is None else fitter, in_name_order(ann)  # draws by name
    rng = np.random.default_rng(seed)
    truth = _truth(ann, gold, fitter)
    scored = truth >= 0

    def refit(keep: np.ndarray) -> tuple[Any, float]:
        """The model on the kept judgements, and the accuracy of its labels."""
        res = fitter(_rows(ann, keep))
        labels = model_view(res, ann).posteriors.argmax(1)
        return res, float(np.mean(labels[scored] == truth[scored]))

    rank = pd.Series(rng.random(ann.n_judgements)).groupby(ann.item_codes).rank(method="first")
    begin = rank.to_numpy() <= start
    full = refit(np.ones(ann.n_judgements, bool))[1]
    start_fit, first = refit(begin)
    rounds = int(np.ceil((~begin).sum() / step)) * len(strategies)
    done = 0
    out = []
    for strategy in strategies:
        keep = begin.copy()
        res = start_fit
        out.append((strategy, int(keep.sum()), first))
        srng = np.random.default_rng([seed, STRATEGIES.index(strategy)])
        while not keep.all():
            bought = _buy(
                ann,
                res if chooser is None else chooser(_rows(ann, keep)),
                keep,
                strategy,
                step,
                per_item_cap,
                srng,
                pick,
                confusion,
                explore,
                temper,
                draws,
                criterion,
            )
            if not len(bought):
                break
            keep[bought] = True
            res, acc = refit(keep)
            out.append((strategy, int(keep.sum()), acc))
            done += 1
            if progress is not None:
                progress(min(1.0, done / max(rounds, 1)))
    table = pd.DataFrame(out, columns=list(REPLAY_COLUMNS))
    table.attrs.update(
        full_accuracy=full,
        start_accuracy=first,
        reference="gold" if gold is not None else "all judgements",
    )
    return table


def _buy(
    ann: Annotations,
    result: Any,
    keep: np.ndarray,
    strategy: str,
    step: int,
    cap: int,
    rng: np.random.Generator,
    pick: str = "best",
    confusion: str = "fitted",
    explore: float = 0.0,
    temper: float = 1.0,
    draws: int = 0,
    criterion: str = "entropy",
) -> np.ndarray:
    """Row numbers of the judgements ``strategy`` buys next among those not kept."""
    view = model_view(result, ann)
    rest = np.flatnonzero(~keep)
    items, anns = ann.item_codes[rest], ann.annotator_codes[rest]
    order = np.argsort(items, kind="stable")
    rest, items, anns = rest[order], items[order], anns[order]
    bounds = np.searchsorted(items, np.arange(ann.n_items + 1))

    def available(i: int) -> np.ndarray:
        return anns[bounds[i] : bounds[i + 1]]

    q, theta = view.posteriors, view.confusion
    if confusion == "pooled":
        theta = pooled_confusion(ann, keep, q)
    elif confusion == "unseen_crowd":
        theta = crowd_for_unseen(ann, keep, q, theta)
    if strategy == "gain" and temper > 1:
        q = tempered(q, view.prevalence, temper)
    if strategy == "gain" and explore > 0:
        q = contaminated(q, view.prevalence, explore)
    g = None
    score_fn = information if criterion == "entropy" else error_reduction
    if strategy == "gain" and draws > 0:
        g = gain_over_draws(ann, keep, q, items, anns, draws, rng, score_fn)
    elif strategy == "gain" and criterion == "error":
        g = error_reduction(q[items], theta[anns])
    score, who = _first_scores(strategy, q, theta, items, anns, rng, pick, g)
    named = strategy != "gain" or pick == "best"
    planner = Planner(q, theta, available, named, strategy, 1.0, cap, rng)
    chosen = planner.run(step, score, who)
    taken = np.zeros(len(rest), bool)
    bought = []
    for i, a, _, _ in chosen:
        span = np.arange(bounds[i], bounds[i + 1])
        free = span[~taken[span]]
        row = free[anns[free] == a][0] if a >= 0 else rng.choice(free)
        taken[row] = True
        bought.append(rest[row])
    return np.asarray(bought, np.int64)


def _level(table: pd.DataFrame, level: float | None, call: str) -> float:
    """The accuracy to reach: ``level``, or the replay's full accuracy; checks the table."""
    ok = isinstance(table, pd.DataFrame) and {"strategy", "judgements", "accuracy"} <= {*table}
    hint = f"Pass the table replay returns, or the accuracy: {call}(table, level=0.9)."
    require(table, ok, "replay()'s table (columns strategy, judgements, accuracy)", hint=hint)
    if level is not None:
        return check_probability(level, "level")
    if "full_accuracy" not in table.attrs:
        raise AnnotationDataError(
            "without a level, this needs replay()'s table: its attrs['full_accuracy'] (the "
            "model on every judgement) is the accuracy to reach.",
            hint=hint,
        )
    return float(table.attrs["full_accuracy"])


def judgements_needed(table: pd.DataFrame, level: float | None = None) -> pd.Series:
    """Judgements each strategy of a replay needs to reach an accuracy, interpolated.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`replay`'s table (or any table with its columns, such as the mean of several
        replays over seeds).
    level : float or None, default None
        The accuracy to reach; None: ``table.attrs["full_accuracy"]`` (the model on every
        judgement).

    Returns
    -------
    pandas.Series
        Indexed by strategy (in the table's order): the fewest judgements at which the
        curve reaches ``level``, NaN where it never does.

    Notes
    -----
    The curve is read as straight lines between its points: where point :math:`t` is the
    first at or above the level and :math:`t-1` is below it, the answer is
    :math:`x_{t-1} + (x_t - x_{t-1}) (L - a_{t-1}) / (a_t - a_{t-1})`; a curve that starts
    at or above the level needs its first point. Reading between the points, rather than
    taking the first point at or above, keeps a coarse ``step`` from rounding every
    strategy up to the next refit.

    Raises
    ------
    ArgumentTypeError
        ``table`` lacks replay's columns.
    AnnotationDataError
        ``level`` is not a number in [0, 1], or is None and ``table`` has no
        ``attrs["full_accuracy"]``.

    Examples
    --------
    >>> t = pd.DataFrame({"strategy": ["gain"] * 3, "judgements": [10, 20, 30],
    ...                   "accuracy": [0.5, 0.75, 1.0]})
    >>> float(judgements_needed(t, 0.875)["gain"])
    25.0
    """
    level = _level(table, level, "judgements_needed")
    out = {}
    for strategy, rows in table.groupby("strategy", sort=False):
        x = rows["judgements"].to_numpy(float)
        a = rows["accuracy"].to_numpy(float)
        hit = np.flatnonzero(a >= level - 1e-12)
        if not len(hit):
            out[strategy] = np.nan
        elif hit[0] == 0:
            out[strategy] = x[0]
        else:
            t = hit[0]
            out[strategy] = x[t - 1] + (x[t] - x[t - 1]) * (level - a[t - 1]) / (a[t] - a[t - 1])
    return pd.Series(out, name="judgements", dtype=float)


def replay_summary(table: pd.DataFrame, level: float | None = None) -> pd.DataFrame:
    """What a replay says in one table: judgements each strategy needs, against random.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`replay`'s table (with its ``attrs``).
    level : float or None, default None
        The accuracy to reach; None: the model on every judgement
        (``table.attrs["full_accuracy"]``).

    Returns
    -------
    pandas.DataFrame
        Indexed by strategy: ``judgements`` needed (:func:`judgements_needed`; NaN where
        the curve never gets there), ``share_of_all`` (of the judgements in the data:
        the last point of the longest curve) and ``vs_random`` (the ratio to
        ``random``'s, NaN without a random strategy or where either never gets there).
        ``attrs["level"]`` holds the accuracy used.

    Raises
    ------
    ArgumentTypeError, AnnotationDataError
        As :func:`judgements_needed`.

    Examples
    --------
    >>> t = pd.DataFrame({"strategy": ["gain"] * 2 + ["random"] * 2,
    ...                   "judgements": [10, 20, 10, 40], "accuracy": [0.5, 0.9, 0.5, 0.9]})
    >>> replay_summary(t, 0.9)["vs_random"].round(2).tolist()
    [0.5, 1.0]
    """
    level = _level(table, level, "replay_summary")
    needed = judgements_needed(table, level)
    total = float(table["judgements"].max())
    random = needed.get("random", np.nan)
    out = pd.DataFrame(
        {
            "judgements": needed,
            "share_of_all": needed / total,
            "vs_random": needed / random if np.isfinite(random) else np.nan,
        }
    )
    out.index.name = "strategy"
    out.attrs["level"] = level
    return out
