"""Results shared by several pages, computed once per data set and settings.

The Noise calculator, the Gold labels page (its per-category models on multi-label data) and
the Overview need the same noise bound and the same fitted model: each is cached here,
keyed by the data set's fingerprint and the settings, so whichever page asks first pays
and the others reuse it (issue 17.10: at 1,000,000 judgements a fit takes seconds).
They are resources, not data: every rerun gets the same (never modified) result object
instead of an unpickled copy, which at 200,000 items cost a good part of a rerun.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from analytics import Annotations
from analytics.dawid_skene import DawidSkeneResult, fit, fit_per_category
from analytics.engines import is_lazy
from analytics.noise import AnnotationNoise, noise_from_annotations


@st.cache_resource(max_entries=8, show_spinner=False)
def _engine_lock(fingerprint: str) -> threading.Lock:
    return threading.Lock()


@contextlib.contextmanager
def busy(ann: Any) -> Iterator[None]:
    """Hold a data set on an engine for one computation at a time.

    A handle is one engine connection, and the Dawid-Skene fit keeps its posteriors in a
    table of it: two reruns computing at once would interleave their queries.
    """
    if not is_lazy(ann):
        yield
        return
    with _engine_lock(ann.fingerprint):
        yield


def _all_or_some(ann: Annotations, annotators: Sequence[Any] | None) -> tuple | None:
    """None when the choice is every annotator (one cache entry for 'all')."""
    if annotators is None:
        return None
    chosen = tuple(str(a) for a in annotators)
    return None if set(chosen) >= {str(a) for a in ann.annotators} else chosen


#: The confidence the estimate is made at; any other is read off the same posterior.
BASE_CONFIDENCE = 0.95


@st.cache_resource(max_entries=8, show_spinner=False)
def _noise(fingerprint: str, _ann, annotators: tuple | None) -> AnnotationNoise:
    with busy(_ann):
        return noise_from_annotations(
            _ann, BASE_CONFIDENCE, annotators=None if annotators is None else list(annotators)
        )


def noise_result(
    ann: Annotations, annotators: Sequence[Any] | None, confidence: float
) -> AnnotationNoise:
    """The noise bound of the agreed items, estimated once per data set and annotators.

    A change of confidence only moves where the posterior's tail is cut
    (:meth:`AnnotationNoise.at_confidence`), so it costs no new estimate.
    """
    base = _noise(ann.fingerprint, ann, _all_or_some(ann, annotators))
    return base if float(confidence) == BASE_CONFIDENCE else base.at_confidence(confidence)


@st.cache_resource(max_entries=8, show_spinner=False)
def _fit(
    fingerprint: str,
    _ann,
    smoothing: float,
    init: str,
    max_iter: int,
    tol: float,
    gold_key: str,
    _gold: pd.Series | None,
) -> tuple[DawidSkeneResult, float]:
    start = time.perf_counter()
    with busy(_ann):
        result = fit(_ann, smoothing=smoothing, init=init, max_iter=max_iter, tol=tol, gold=_gold)
    return result, time.perf_counter() - start


def ds_fit(
    ann: Annotations,
    *,
    smoothing: float,
    init: str,
    max_iter: int,
    tol: float,
    gold_key: str = "",
    gold: pd.Series | None = None,
) -> tuple[DawidSkeneResult, float]:
    """The fitted Dawid-Skene model and the seconds the fit took (cached per settings)."""
    return _fit(
        ann.fingerprint,
        ann,
        float(smoothing),
        str(init),
        int(max_iter),
        float(tol),
        gold_key if gold is not None else "",
        gold,
    )


@st.cache_resource(max_entries=4, show_spinner=False)
def _per_category(fingerprint: str, _ann, options: tuple) -> dict:
    return fit_per_category(_ann, **dict(options))


def ds_fit_per_category(ann: Annotations, **options: Any) -> dict:
    """One yes/no model per category of multi-label data (cached per settings)."""
    return _per_category(ann.fingerprint, ann, tuple(sorted(options.items())))


#: How many results :func:`kept` holds per data set (the oldest goes first).
KEPT_PER_DATA_SET = 24


@st.cache_resource(max_entries=4, show_spinner=False)
def _kept_store(fingerprint: str) -> dict:
    return {}


def kept(ann: Annotations, key: Hashable, make: Callable[[], Any]) -> Any:
    """``make()`` once per data set and key, shared by every session (like cache_resource).

    For slow work that draws its own progress bar: a ``st.cache_data``/``cache_resource``
    function may not update an element made outside it (Streamlit replays the update on
    the next cache hit and fails with CacheReplayClosureError), so the work runs here,
    outside any cached function, and only its result is kept, in a store that is itself
    a cache resource keyed by the data set's fingerprint.
    """
    store = _kept_store(ann.fingerprint)
    if key not in store:
        value = make()
        while len(store) >= KEPT_PER_DATA_SET:
            store.pop(next(iter(store)))
        store[key] = value
    return store[key]
