"""The noise bound on the DuckDB engine equals the in-memory one (issue 18)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analytics import AnnotationDataError
from analytics import load_annotations as load
from analytics.data import Annotations
from analytics.noise import noise_from_annotations
from tests.engines.test_duckdb_agreement import random_frame

pytest.importorskip("duckdb")

FIELDS = ("n_items", "n_disagreed", "p", "p_min", "p_max", "uneven", "n_excluded")


def same_noise(x, y) -> None:
    for f in FIELDS:
        a, b = getattr(x, f), getattr(y, f)
        if isinstance(b, float) and np.isnan(b):
            assert np.isnan(a), f
        else:
            assert a == pytest.approx(b, abs=1e-9), f
    for f in ("gamma", "upper") if hasattr(y, "upper") else ("gamma",):
        a, b = float(getattr(x, f)), float(getattr(y, f))
        assert (np.isnan(a) and np.isnan(b)) or abs(a - b) < 1e-9, f
    assert x.reason == y.reason
    assert x.notes == y.notes
    assert set(x.annotators) == set(y.annotators)
    if not y.rates.empty:
        pd.testing.assert_frame_equal(x.rates.sort_index(), y.rates.sort_index(), atol=1e-12)
    key = ["item", "status", "label", "annotators"]
    if not y.items.empty:
        got = x.items.sort_values("item", ignore_index=True)
        want = y.items.sort_values("item", ignore_index=True)
        pd.testing.assert_frame_equal(got[key], want[key], check_dtype=False)
        np.testing.assert_allclose(got["p"], want["p"], atol=1e-12)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    n_items=st.integers(1, 40),
    n_annotators=st.integers(1, 5),
    q=st.integers(1, 4),
    p_missing=st.sampled_from([0.0, 0.3, 0.6]),
)
def test_noise_equals_the_memory_engine(seed, n_items, n_annotators, q, p_missing):
    df = random_frame(seed, n_items, n_annotators, q, p_missing)
    if df.empty:
        return
    mem = Annotations.from_frame(df)
    lazy = load(df, engine="duckdb")
    same_noise(noise_from_annotations(lazy), noise_from_annotations(mem))


def test_a_subset_of_annotators_and_unknown_ones():
    df = random_frame(11, 50, 4, 3, 0.3)
    mem, lazy = Annotations.from_frame(df), load(df, engine="duckdb")
    chosen = ["a3", "a1", "a2"]
    same_noise(noise_from_annotations(lazy, 0.9, chosen), noise_from_annotations(mem, 0.9, chosen))
    with pytest.raises(AnnotationDataError, match="unknown annotator"):
        noise_from_annotations(lazy, annotators=["zz"])
