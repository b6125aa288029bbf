"""Dawid-Skene EM as SQL on the DuckDB engine: the in-memory fit to 1e-9 (issue 18)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analytics import AnnotationDataError
from analytics import load_annotations as load
from analytics.data import Annotations
from analytics.dawid_skene import fit
from tests.engines.test_duckdb_agreement import random_frame

pytest.importorskip("duckdb")


def same_fit(x, y) -> None:
    assert (x.n_iter, x.converged) == (y.n_iter, y.converged)
    np.testing.assert_allclose(x.parameter_change, y.parameter_change, atol=1e-9)
    np.testing.assert_allclose(x.log_likelihood, y.log_likelihood, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(x.prevalence.to_numpy(), y.prevalence.to_numpy(), atol=1e-9)
    # annotators: the engine sorts them by name; memory keeps first-seen order
    order = y.judgements.index.get_indexer(x.judgements.index)
    np.testing.assert_allclose(x.confusion_array, y.confusion_array[order], atol=1e-9)
    np.testing.assert_allclose(x.expected_counts, y.expected_counts[order], atol=1e-9)
    assert (x.judgements.to_numpy() == y.judgements.to_numpy()[order]).all()
    post = y.posteriors.loc[x.posteriors.index]
    np.testing.assert_allclose(x.posteriors.to_numpy(), post.to_numpy(), atol=1e-9)
    # labels agree wherever the top posterior is not an exact tie (a tie within rounding
    # may fall either way: the engine sums in its own order)
    top2 = np.sort(post.to_numpy(), axis=1)[:, -2:] if post.shape[1] > 1 else None
    clear = np.ones(len(post), bool) if top2 is None else top2[:, 1] - top2[:, 0] > 1e-9
    assert (x.labels[clear] == y.labels.loc[x.labels.index][clear]).all()
    assert x.notes == y.notes


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    n_items=st.integers(1, 40),
    n_annotators=st.integers(1, 5),
    q=st.integers(1, 4),
    p_missing=st.sampled_from([0.0, 0.3, 0.6]),
    init=st.sampled_from(["majority", "soft"]),
    param_tol=st.sampled_from([None, 1e-3, 0.0]),
)
def test_fit_equals_the_memory_engine(seed, n_items, n_annotators, q, p_missing, init, param_tol):
    df = random_frame(seed, n_items, n_annotators, q, p_missing)
    if df.empty:
        return
    kw = {"init": init, "param_tol": param_tol, "max_iter": 60}
    same_fit(fit(load(df, engine="duckdb"), **kw), fit(Annotations.from_frame(df), **kw))


def test_repeats_count_as_independent_draws_and_settings_pass_through(tmp_path):
    df = random_frame(7, 80, 4, 3, 0.2)
    df = pd.concat([df, df.iloc[::7]], ignore_index=True)
    df.to_parquet(tmp_path / "r.parquet")
    lazy = load(tmp_path / "r.parquet", engine="duckdb", duplicates="keep")
    mem = Annotations.from_frame(df, duplicates="keep")
    kw = {"max_iter": 7, "tol": 0.0, "smoothing": 0.5, "prior": 2 * np.eye(3)}
    same_fit(fit(lazy, **kw), fit(mem, **kw))


def test_what_the_engine_refuses_it_says():
    lazy = load(random_frame(2, 10, 3, 2, 0.0), engine="duckdb")
    with pytest.raises(AnnotationDataError, match="gold"):
        fit(lazy, gold={"i1": 1})
    with pytest.raises(AnnotationDataError, match="random starts"):
        fit(lazy, init="best")
    with pytest.raises(AnnotationDataError, match="smoothing must be positive"):
        fit(lazy, smoothing=0)
    with pytest.raises(AnnotationDataError, match="initial_error= and finish="):
        fit(lazy, finish="m_step")  # never silently dropped


def coded_types(lazy) -> dict[str, str]:
    rows = lazy.runner.con.execute("DESCRIBE concord_j").fetchall()
    return {r[0]: r[1] for r in rows}


def test_the_coded_table_takes_the_narrowest_integer_types():
    df = random_frame(3, 30, 4, 3, 0.0)
    wide = df.assign(item=df["item"].str[1:].astype(np.int64) * 1_000)  # 0 .. 29,000
    lazy = load(wide, engine="duckdb")
    assert coded_types(lazy) == {
        "item": "USMALLINT",
        "annotator": "UTINYINT",
        "label": "UTINYINT",
        "al": "UTINYINT",
    }
    # negative items take a signed type; text items stay text; the fit is unchanged
    signed = wide.assign(item=-wide["item"] - 1)
    assert coded_types(load(signed, engine="duckdb"))["item"] == "SMALLINT"
    assert coded_types(load(df, engine="duckdb"))["item"] == "VARCHAR"
    same_fit(fit(lazy), fit(Annotations.from_frame(wide)))


def test_the_signed_types_both_dialects_know():
    from analytics.engines.handle import Runner

    def signed(lo, hi):
        return Runner.int_type(None, lo, hi)  # Spark's answer: no unsigned types

    assert signed(0, 127) == "TINYINT" and signed(-129, 0) == "SMALLINT"
    assert signed(0, 49_999) == "INTEGER" and signed(0, 2**31) == "BIGINT"
