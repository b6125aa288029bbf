"""Several EM starts: run them, keep the most likely, and say when they disagree.

EM climbs to a local optimum, and Dawid-Skene's likelihood cannot tell permuted categories
apart, so the answer can depend on where EM starts. :func:`best_run` runs the starts
``init`` asks for and keeps the most likely; :func:`starts_disagree` turns runs that label
items differently into plain-language notes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analytics._core.formatting import format_count
from analytics._core.ids import name_order
from analytics.dawid_skene.em import N_RANDOM_STARTS, EMEngine, EMRun, initial_posteriors

__all__ = ["FEW_ITEMS", "SAME_OPTIMUM", "best_run", "saddle_notes", "starts_disagree"]


def best_run(
    engine: EMEngine,
    votes: np.ndarray,
    init: str,
    seed: int,
    max_iter: int,
    tol: float,
    *,
    names: tuple[pd.Index, pd.Index] | None = None,
    **run_options: Any,
) -> tuple[EMRun, str, int, tuple[str, ...]]:
    """Run EM from the start(s) ``init`` asks for; keep the most likely run.

    Parameters
    ----------
    engine : EMEngine
        The coded data, priors and clamped gold items.
    votes : ndarray, shape (n_items, n_categories)
        Raw judgement counts per item and category.
    init : str
        One of :data:`INIT_METHODS`; ``"best"`` runs from majority, soft,
        :data:`N_RANDOM_STARTS` jittered vote starts and, with clamped gold items, from
        parameters estimated on those items alone.
    seed : int
        Seed of the random starts (jittered start r uses ``seed + r``).
    max_iter : int
        Most M-steps per run.
    tol : float
        Relative change of the objective that stops a run.
    names : (pandas.Index, pandas.Index), default None
        The item and category names (``ann.items``, ``ann.categories``): every random
        start and nudge is then drawn in their sorted order
        (:func:`analytics._core.ids.name_order`), so the same judgements in another row
        order give the same fit. None: drawn in code (first-seen) order, which the row
        order changes.
    **run_options
        ``initial_error`` and ``finish``, passed to every run (:meth:`EMEngine.run`).

    Returns
    -------
    tuple of (EMRun, str, int, tuple of str)
        The run with the highest penalised log-likelihood, the name of its start, how
        many runs were made, and notes when runs disagree (:func:`starts_disagree`) or,
        for ``"best"``, when restarts nudged off the kept fit climb higher
        (:func:`saddle_notes`; they are not counted and never kept).
    """
    order = None
    if names is not None and init in ("best", "random"):  # only random starts need it
        order = (name_order(names[0]), name_order(names[1]))
    starts = [(init, seed)]
    if init == "best":
        starts = [("majority", seed), ("soft", seed)]
        starts += [("jittered", seed + r) for r in range(N_RANDOM_STARTS)]
        if len(engine.gold_rows):
            starts.append(("gold", seed))
    runs = [
        engine.run(_start(votes, how, s, order), max_iter, tol, **run_options) for how, s in starts
    ]
    best = max(range(len(runs)), key=lambda r: runs[r].trace[-1])
    notes = starts_disagree(runs, best)
    if init == "best":
        nudged = [
            engine.run(_nudged(runs[best].q, seed, r, order), max_iter, tol, **run_options)
            for r in range(N_PERTURBED)
        ]
        notes = (*notes, *saddle_notes(runs[best], nudged))
    return runs[best], starts[best][0], len(runs), notes


def _start(
    votes: np.ndarray, init: str, seed: int, order: tuple[np.ndarray, np.ndarray] | None
) -> np.ndarray:
    """:func:`initial_posteriors`, its random numbers drawn in the names' sorted order.

    ``order`` (the item and the category codes in the sorted order of their names): the
    start is made for the votes in that order and put back in code order, so that item
    and category codes, first-seen in the rows, do not decide who gets which draw.
    """
    if order is None or init not in ("jittered", "random"):
        return initial_posteriors(votes, init, seed)
    return _in_code_order(initial_posteriors(votes[np.ix_(*order)], init, seed), order)


def _in_code_order(by_name: np.ndarray, order: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Items x categories in the names' sorted order, put in code order."""
    out = np.empty_like(by_name)
    out[np.ix_(*order)] = by_name
    return out


def _nudged(
    q: np.ndarray, seed: int, r: int, order: tuple[np.ndarray, np.ndarray] | None = None
) -> np.ndarray:
    """The kept fit's posteriors mixed with random ones (weight :data:`PERTURBATION`),
    drawn in the names' sorted order when ``order`` is given (as :func:`_start`)."""
    rng = np.random.default_rng([seed, r, 0xC0FFEE])
    if not q.shape[1]:
        return q
    noise = rng.dirichlet(np.ones(q.shape[1]), size=q.shape[0])
    if order is not None:
        noise = _in_code_order(noise, order)
    return (1 - PERTURBATION) * q + PERTURBATION * noise


def saddle_notes(kept: EMRun, nudged: list[EMRun]) -> tuple[str, ...]:
    """A note when EM restarted near the kept fit climbs to a more likely one.

    Every usual start can stop at the same point that is not a local optimum: on
    symmetric data (every item judged alike) EM from the votes stays on the symmetric
    point, a saddle of the likelihood, and reports its labels with near-certain
    confidence while more likely fits, equally good copies of one another, label the
    items differently (crowd-kit's ``test_dawid_skene_overlap`` is such a case).
    Restarts from the kept posteriors mixed with random ones leave a saddle and climb.
    They never replace the kept fit (its labels stay those of the usual starts); they
    only say that it is not settled.

    Parameters
    ----------
    kept : EMRun
        The run kept.
    nudged : list of EMRun
        Runs started near it.

    Returns
    -------
    tuple of str
        Empty when no nudged run ends more likely (by more than :data:`SAME_OPTIMUM`)
        with other labels. Else one note: a remark when they relabel at most
        :data:`FEW_ITEMS` of the items; otherwise "Not identified" when two of them reach
        equally likely fits that label items differently (the symmetric copies a saddle
        sits between), else "The starts disagree".
    """
    top = kept.q.argmax(axis=1)
    scale = _scale(kept)
    higher = [
        run
        for run in nudged
        if run.trace[-1] - kept.trace[-1] > SAME_OPTIMUM * scale
        and (run.q.argmax(axis=1) != top).any()
    ]
    if not higher:
        return ()
    n = max(int((run.q.argmax(axis=1) != top).sum()) for run in higher)
    gap = max(run.trace[-1] for run in higher) - kept.trace[-1]
    restarts = f"{len(higher)} of {len(nudged)} restarts from the kept fit, nudged at random,"
    copies = any(
        abs(a.trace[-1] - b.trace[-1]) <= SAME_OPTIMUM * scale
        and (a.q.argmax(axis=1) != b.q.argmax(axis=1)).any()
        for i, a in enumerate(higher)
        for b in higher[i + 1 :]
    )
    if n <= FEW_ITEMS * len(top):
        return (
            f"{restarts} climbed to a fit more likely by {gap:.3g} that labels {n:,} of "
            f"{len(top):,} items differently; the usual starts' fit is kept, so those "
            "items' labels depend on where EM starts.",
        )
    if copies:
        return (
            f"Not identified: {restarts} climbed to equally likely fits (log-likelihood "
            f"higher than the kept fit's by {gap:.3g}) that label up to "
            f"{format_count(n, 'item')} differently from it and from one another: the kept "
            "fit sits at a saddle between them, so these data do not settle those labels; do "
            "not read them, or their confidence, as the model's answer. More judgements, "
            "known gold labels or a prior break the tie.",
        )
    return (
        f"The starts disagree: {restarts} climbed to a fit more likely by up to {gap:.3g} "
        f"that labels up to {format_count(n, 'item')} differently; the usual starts' fit is "
        "kept, so those labels depend on where EM starts: read their confidence with care.",
    )


#: Runs ``init="best"`` adds from the kept fit's posteriors mixed with random ones, to see
#: whether EM climbs away from it (:func:`saddle_notes`).
N_PERTURBED = 3
#: The weight of the random posteriors in those starts.
PERTURBATION = 0.5


def _scale(run: EMRun) -> float:
    """The size against which two runs' objectives are compared (:data:`SAME_OPTIMUM`)."""
    return max(abs(run.trace[-1]), 1.0)


#: Two runs whose objectives differ by less than this (relative) reached equally likely fits.
SAME_OPTIMUM = 1e-6

#: Less likely fits that label at most this share of the items differently get a remark
#: instead of the warning that the labels depend on the start.
FEW_ITEMS = 0.01


def starts_disagree(runs: list[EMRun], best: int) -> tuple[str, ...]:
    """Plain-language notes when EM's starts end at fits that label items differently.

    Parameters
    ----------
    runs : list of EMRun
        Every run made (one per start).
    best : int
        The index of the run kept (highest penalised log-likelihood).

    Returns
    -------
    tuple of str
        Empty when every run labels every item as the kept run does. Otherwise a note
        for equally likely fits that disagree (the labels are not identified by the data:
        symmetric data, or categories that can be swapped) and one for lower optima that
        disagree (EM's result depends on where it starts): a warning, or a remark without
        the word "disagree" when they change at most :data:`FEW_ITEMS` of the items.

    Notes
    -----
    EM climbs to a local optimum of the likelihood; Dawid-Skene's likelihood is also
    unchanged when the true categories are permuted together with every confusion
    matrix's rows, so data that do not break that symmetry have several equally likely
    answers.

    References
    ----------
    Dawid, A. P., & Skene, A. M. (1979). Maximum likelihood estimation of observer
    error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28, section 3.
    Passonneau, R. J., & Carpenter, B. (2014). The benefits of a model of annotation.
    *TACL* 2, 311-326, section 2.2.3 (identifiability and estimation uncertainty).
    """
    if len(runs) < 2:
        return ()
    top = runs[best].q.argmax(axis=1)
    top_ll = runs[best].trace[-1]
    scale = _scale(runs[best])
    same, lower = [], []
    for r, run in enumerate(runs):
        if r == best:
            continue
        n_diff = int((run.q.argmax(axis=1) != top).sum())
        if n_diff:
            gap = top_ll - run.trace[-1]
            (same if gap <= SAME_OPTIMUM * scale else lower).append((n_diff, gap))
    notes = []
    if same and max(d for d, _ in same) <= FEW_ITEMS * len(top):
        # a handful of items tied between equally likely fits: a remark, not an alarm
        n = max(d for d, _ in same)
        notes.append(
            f"{len(same)} of {len(runs)} starts reached an equally likely fit labelling {n:,} "
            f"of {len(top):,} items differently: those items' labels are a toss-up."
        )
    elif same:
        n = max(d for d, _ in same)
        notes.append(
            f"Not identified: {len(same)} of {len(runs)} starts reached an equally likely fit "
            f"that labels {format_count(n, 'item')} differently (for example with categories "
            "swapped), "
            "so these data cannot decide those labels; do not read them as the model's "
            "answer. More judgements, known gold labels or a prior break the tie."
        )
    if lower:
        n = max(d for d, _ in lower)
        gap = min(g for _, g in lower)
        if n <= FEW_ITEMS * len(top):
            # a local optimum that moves a handful of near-tied items is a remark, not an
            # alarm (the page shows notes with "disagree" in a warning box)
            notes.append(
                f"{len(lower)} of {len(runs)} starts ended at a less likely fit "
                f"(log-likelihood lower by {gap:.3g} or more) labelling {n:,} of "
                f"{len(top):,} items differently; the most likely fit is kept."
            )
        else:
            notes.append(
                f"The starts disagree: {len(lower)} of {len(runs)} starts ended at a less "
                f"likely fit (log-likelihood lower by {gap:.3g} or more) labelling up to "
                f"{format_count(n, 'item')} differently; the most likely fit is kept, but its labels "
                "depend on where EM starts."
            )
    return tuple(notes)
