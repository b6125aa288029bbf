"""The noise bound of judgements held by an engine (DuckDB, Spark).

The engine splits the items into agreed and disagreed (lowest label = highest label),
counts each annotator's categories on the disagreed items (footnote 3's rates), and,
given the log rates, each item's chance agreement :math:`p_i`; the values of
:math:`p_i` come back grouped (one float per distinct value), with a sample of the items
for the per-item table. The bound itself is :func:`~analytics.noise.from_annotations.
bound_from_chance`, exactly as in memory.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics._core.lazy import LazyAnnotations, on_engine
from analytics._core.validation import check_confidence, check_method
from analytics.noise.from_annotations import (
    AnnotationNoise,
    ChanceByItem,
    bound_from_chance,
    early_answer,
    input_notes,
    log_rates,
    rates_from_counts,
    split_answer,
)
from analytics.noise.mixture import DEFAULT_NODES

__all__ = ["ITEMS_SHOWN", "engine_noise"]

ITEMS_SHOWN = 10_000
"""Items of the per-item table brought back from an engine (the first, in item order)."""


def _chosen(lazy: LazyAnnotations, annotators: Iterable[Any] | None) -> list[int] | None:
    if annotators is None:
        return None
    names = list(annotators)
    codes = lazy.annotators.get_indexer([str(x) for x in names])
    if (codes < 0).any():
        missing = [x for x, c in zip(names, codes, strict=True) if c < 0][:5]
        noun = "annotator" if len(missing) == 1 else "annotators"
        raise AnnotationDataError(f"unknown {noun}: {missing}.", source=lazy.name)
    return sorted(set(codes.tolist()))


def _items(sample: pd.DataFrame, cats: list[str]) -> pd.DataFrame:
    lo, hi = sample["lo"].to_numpy(np.int64), sample["hi"].to_numpy(np.int64)
    agreed = lo == hi
    out = pd.DataFrame(
        {
            "item": sample["item"].astype(str).to_numpy(dtype=object),
            "status": np.where(agreed, "agreed", "disagreed"),
            "label": np.where(agreed, np.asarray(cats, dtype=object)[lo], ""),
            "annotators": sample["r"].to_numpy(np.int64),
        }
    )
    if "p" in sample:
        out["p"] = sample["p"].to_numpy(float)
    return out


@on_engine("noise_from_annotations")
def engine_noise(
    lazy: LazyAnnotations,
    confidence: float = 0.95,
    annotators: Iterable[Any] | None = None,
    *,
    n_nodes: int = DEFAULT_NODES,
    method: str = "auto",
) -> AnnotationNoise:
    """:func:`~analytics.noise.noise_from_annotations` of judgements held by an engine.

    Same arguments and result; ``items`` holds the first :data:`ITEMS_SHOWN` items taking
    part (in item order, said in ``notes`` when there are more), and the annotators are
    in the engine's order (sorted by name).

    Raises
    ------
    AnnotationDataError
        As in memory, and for repeated judgements (an engine keeps no input order to
        pick the last one).
    """
    confidence = check_confidence(confidence)
    method, n_nodes = check_method(method, n_nodes)
    if lazy.has_repeats:
        raise AnnotationDataError(
            "some annotator judged an item twice; an engine does not keep the input order that "
            "picks the last judgement.",
            source=lazy.name,
            hint="Load with duplicates='error' after removing the repeats.",
        )
    chosen = _chosen(lazy, annotators)
    codes = np.arange(lazy.n_annotators) if chosen is None else np.asarray(chosen, np.int64)
    notes = input_notes(lazy)
    excluded, n, d, counts = lazy.noise_split(chosen)
    base = {
        "annotators": tuple(lazy.annotators[codes]),
        "n_excluded": excluded,
        "multilabel": False,
    }
    early = early_answer(len(codes), n > 0, confidence, notes, base)
    if early is not None:
        return early
    cats = [str(c) for c in lazy.categories]
    if d in (0, n):
        return split_answer(
            n, d, confidence, notes, base, _items(lazy.noise_sample(ITEMS_SHOWN), cats)
        )
    rates, n_judged, fallback = rates_from_counts(counts[codes])
    logr = np.zeros((lazy.n_annotators, lazy.n_categories))
    logr[codes] = log_rates(rates)
    p_item, agreed, sample = lazy.noise_chance(chosen, logr, ITEMS_SHOWN)
    if n > ITEMS_SHOWN:
        notes.append(
            f"The per-item table shows the first {ITEMS_SHOWN:,} of the {n:,} items (in item "
            f"order): the {lazy.engine} engine does not bring every item back."
        )
    chance = ChanceByItem(
        n,
        d,
        p_item,
        agreed,
        lambda: lazy.noise_panels(chosen),
        rates,
        n_judged,
        fallback,
        cats,
        _items(sample, cats),
    )
    return bound_from_chance(chance, confidence, notes, base, n_nodes=n_nodes, method=method)
