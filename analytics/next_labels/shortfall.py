"""Why a batch is shorter than its budget: the items left out, counted by reason, in words.

:func:`~analytics.next_labels.next_batch` puts the counts in ``.attrs["excluded"]`` and
the sentence :func:`shortfall_note` makes of them in ``.attrs["notes"]``, so the page, the
command line and a script all say which reason applies and to how many items.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from analytics._core.formatting import format_count
from analytics.next_labels.batch import Planner

__all__ = ["EXCLUSIONS", "excluded_counts", "shortfall_note"]

#: The reasons an item takes no (further) judgement in a batch, in the order they are
#: checked (an item is counted under the first that applies), with their meaning.
EXCLUSIONS = {
    "judged_by_all": "every annotator who may judge it already has",
    "confident": "its confidence was already at the stop-at confidence",
    "at_item_cap": "it has the per-item cap of judgements in this batch",
    "reached_stop_at": "this batch's judgements are expected to bring it to the stop-at confidence",
    "nobody_left": "every annotator left for it is already planned for it in this batch",
    "annotators_at_cap": "the annotators left for it are at their per-annotator cap",
    "no_gain": "another judgement is expected to tell nothing about it (0 bits)",
}
_CHUNK = 4_096  # items per block of the annotator-cap check (items x annotators booleans)


def excluded_counts(
    planner: Planner,
    n_free: np.ndarray,
    conf: np.ndarray,
    first: np.ndarray,
    planned: np.ndarray,
    available_mask: Callable[[np.ndarray], np.ndarray],
) -> dict[str, int]:
    """Items that can take no further judgement after a batch, counted by reason.

    Parameters
    ----------
    planner : Planner
        The planner after :meth:`~analytics.next_labels.batch.Planner.run`.
    n_free : ndarray of int
        Annotators of the pool who have not judged each item (before the batch).
    conf : ndarray
        Each item's confidence (top posterior) before the batch.
    first : ndarray
        Each item's first score (NaN: never scored; 0 or less: worth nothing).
    planned : ndarray of int
        Codes of the items with a judgement in the batch.
    available_mask : callable
        ``available_mask(items)`` -> items x annotators, True where the annotator is in
        the pool and has not judged the item.

    Returns
    -------
    dict
        Reason (a key of :data:`EXCLUSIONS`, in that order) -> number of items, each item
        counted once under the first reason that applies; items that could still take a
        judgement (the budget ran out first) are not counted.
    """
    keys = list(EXCLUSIONS)  # codes: 1 + position; 0: not excluded
    code = {key: k + 1 for k, key in enumerate(keys)}
    reason = np.zeros(len(conf), np.int8)
    reason[conf >= planner.stop_at] = code["confident"]
    reason[n_free <= 0] = code["judged_by_all"]
    for i in planned.tolist():  # the batch's items: at most the budget
        if not reason[i]:
            reason[i] = code.get(planner.why_stopped(i), 0)
    rest = np.flatnonzero(reason == 0)
    if planner.assign and planner.full.any() and len(rest):
        for a in range(0, len(rest), _CHUNK):
            block = rest[a : a + _CHUNK]
            free = (available_mask(block) & ~planner.full[None, :]).any(1)
            reason[block[~free]] = code["annotators_at_cap"]
        rest = np.flatnonzero(reason == 0)
    last = np.full(len(conf), np.nan)  # re-scored items only (planned ones)
    if planner.last_score:
        last[np.fromiter(planner.last_score, np.int64)] = list(planner.last_score.values())
    with np.errstate(invalid="ignore"):
        worthless = (first[rest] <= 0) | (last[rest] <= 0)
    reason[rest[worthless]] = code["no_gain"]
    counts = np.bincount(reason, minlength=len(keys) + 1)[1:]
    return {key: int(n) for key, n in zip(keys, counts, strict=True) if n}


def _phrase(key: str, n: int, n_items: int, settings: dict) -> str:
    """One reason with its count, in words."""
    if n == n_items:
        items = "the only item" if n == 1 else f"all {n_items:,} items"
    else:
        items = f"{n:,} item{'s' if n != 1 else ''}"
    pool = settings["pool"]
    named = "" if pool == settings["n_annotators"] else " named"
    who = f"the only annotator{named}" if pool == 1 else f"each of the {pool:,} annotators{named}"

    def verb(plural: str, single: str) -> str:
        return single if n == 1 else plural

    def judgements(cap: int | None) -> str:  # None: no cap, so its reason never comes up
        return "" if cap is None else format_count(cap, "judgement")

    stop = f"the stop-at confidence ({settings['stop_at']:g})"
    everyone = {1: "the only annotator", 2: "both annotators"}.get(pool, f"all {pool:,} annotators")
    return {
        "judged_by_all": f"{who} has already judged {items}"
        if n == n_items
        else f"{items} {verb('have', 'has')} been judged by {everyone}{named} already",
        "confident": f"{items} {verb('are', 'is')} already at {stop}",
        "at_item_cap": f"{items} {verb('get', 'gets')} the per-item cap of "
        f"{judgements(settings['per_item_cap'])} in this batch",
        "reached_stop_at": f"{items} {verb('reach', 'reaches')} {stop} with this batch",
        "nobody_left": f"{items} {verb('have', 'has')} every annotator left planned in this batch",
        "annotators_at_cap": f"{items} {verb('are', 'is')} left only to annotators at their "
        f"cap of {judgements(settings['per_annotator_cap'])}",
        "no_gain": f"another judgement of {items} would tell nothing (0 bits expected)",
    }[key]


def _advice(key: str, settings: dict) -> str:
    """What would let more judgements through, for one reason."""
    if key in ("judged_by_all", "nobody_left"):
        if settings["pool"] < settings["n_annotators"]:
            return "name more of the data's annotators (the annotators option)"
        return (
            "bring in new annotators (the model plans only for annotators it has seen: "
            "have them judge some items, then refit)"
        )
    return {
        "confident": "raise the stop-at confidence",
        "at_item_cap": "raise the per-item cap",
        "reached_stop_at": "raise the stop-at confidence",
        "annotators_at_cap": "raise the per-annotator cap",
        "no_gain": "",
    }[key]


def shortfall_note(
    excluded: dict[str, int], n_rows: int, budget: int, n_items: int, settings: dict
) -> str:
    """The sentence that says why a batch has fewer judgements than its budget.

    Parameters
    ----------
    excluded : dict
        :func:`excluded_counts`'s answer.
    n_rows, budget, n_items : int
        Judgements in the batch, judgements asked for, items in the data.
    settings : dict
        ``pool`` (annotators who may judge), ``n_annotators`` (in the data), ``stop_at``,
        ``per_item_cap`` and ``per_annotator_cap``.

    Returns
    -------
    str
        Empty when the batch is full; otherwise e.g. "No judgement is worth asking for:
        each of the 2 annotators has already judged all 30 items. To get more: bring in
        new annotators ...".

    Examples
    --------
    >>> s = {"pool": 2, "n_annotators": 2, "stop_at": 0.99, "per_item_cap": 2,
    ...      "per_annotator_cap": None}
    >>> shortfall_note({"judged_by_all": 30}, 0, 10, 30, s).split(". ")[0]
    'No judgement is worth asking for: each of the 2 annotators has already judged all 30 items'
    """
    if n_rows >= budget:
        return ""
    head = (
        "No judgement is worth asking for: "
        if n_rows == 0
        else f"Only {n_rows:,} of the {budget:,} judgements are worth asking for: "
    )
    if not excluded:
        return head + "no item can take another judgement."
    parts = [_phrase(key, n, n_items, settings) for key, n in excluded.items()]
    advice = list(dict.fromkeys(a for key in excluded if (a := _advice(key, settings))))
    text = head + "; ".join(parts) + "."
    if n_rows and set(excluded) <= {"judged_by_all", "confident", "at_item_cap"}:
        # each item left got its cap: the set of items cannot depend on the strategy
        text += (
            " Every item the settings leave got as many judgements as it may take, so every "
            "strategy asks for the same items, as many times each, and differs only in their "
            "order."
        )
    if advice:
        text += " To get more: " + "; or ".join(advice) + "."
    return text
