"""Which engine for which file, a typed path checked, and what each engine computes (issue 18)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError, load_annotations
from analytics.engines import (
    ENGINE_THRESHOLD_BYTES,
    default_engine,
    engine_summary,
    engine_support,
    local_source,
    open_on_engine,
    sampled_note,
    source_columns,
)
from analytics.engines.scale import ANALYSES
from tests.engines.test_duckdb_agreement import random_frame

pytest.importorskip("duckdb")


@pytest.fixture
def frame() -> pd.DataFrame:
    return random_frame(3, n_items=40, n_annotators=4, q=3, p_missing=0.2)


def test_the_threshold_is_where_the_memory_loader_stops():
    from analytics.data import DEFAULT_MAX_BYTES

    assert ENGINE_THRESHOLD_BYTES == DEFAULT_MAX_BYTES
    assert default_engine(ENGINE_THRESHOLD_BYTES - 1) == "memory"
    assert default_engine(ENGINE_THRESHOLD_BYTES, ".csv") == "duckdb"
    assert default_engine(ENGINE_THRESHOLD_BYTES, ".json") == "memory"  # DuckDB is not asked


def test_a_folder_of_parquet_files_is_measured_and_opened(tmp_path, frame):
    (tmp_path / "part").mkdir()
    half = len(frame) // 2
    frame.iloc[:half].to_parquet(tmp_path / "a.parquet")
    frame.iloc[half:].to_parquet(tmp_path / "part" / "b.parquet")
    (tmp_path / "notes.txt").write_text("not read")
    src = local_source(f"  '{tmp_path}'  ")  # blanks and quotes of a pasted path dropped
    assert (src.kind, src.n_files) == ("parquet folder", 2)
    assert src.n_bytes == sum(p.stat().st_size for p in tmp_path.rglob("*.parquet"))
    assert "2 files" in src.describe()
    lazy = open_on_engine(src, "duckdb")
    assert lazy.n_judgements == len(frame)


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda d: "", "no path was given"),
        (lambda d: str(d / "missing.parquet"), "no file or folder at this path"),
        (lambda d: str(d), "holds no Parquet files"),
        (lambda d: _touch(d / "book.xlsx"), "not .xlsx"),
    ],
)
def test_bad_paths_are_said_in_plain_words(tmp_path, make, said):
    with pytest.raises(AnnotationDataError, match=said):
        local_source(make(tmp_path))


def _touch(path):
    path.write_bytes(b"x")
    return str(path)


def test_a_damaged_parquet_file_is_an_error_without_sql(tmp_path):
    path = tmp_path / "bad.parquet"
    path.write_bytes(b"not parquet at all, but long enough to be looked at" * 10)
    with pytest.raises(AnnotationDataError, match="DuckDB cannot read") as caught:
        source_columns(local_source(str(path)))
    assert "SELECT" not in str(caught.value)


def test_a_folder_opens_on_duckdb_only(tmp_path, frame):
    frame.to_parquet(tmp_path / "a.parquet")
    with pytest.raises(AnnotationDataError, match="DuckDB only"):
        open_on_engine(local_source(str(tmp_path)), "memory")


def test_the_summary_tables_equal_the_in_memory_counts(tmp_path, frame):
    frame.to_parquet(tmp_path / "x.parquet")
    lazy = open_on_engine(local_source(str(tmp_path / "x.parquet")), "duckdb")
    mem = load_annotations(frame)
    tables = engine_summary(lazy)
    labels = tables["labels"].set_index("category")["judgements"]
    want = mem.to_frame()["label"].astype(str).value_counts()
    assert labels.to_dict() == want.reindex(labels.index).to_dict()
    per = tables["annotators"]["judgements"]
    assert per.to_dict() == mem.to_frame()["annotator"].astype(str).value_counts().to_dict()
    assert per.is_monotonic_decreasing
    shares = tables["annotators"].filter(like="share ").sum(axis=1)
    assert np.allclose(shares, 1.0)


def test_every_page_is_classified_and_memory_supports_all():
    pages = {"overview", "agreement", "noise", "dawid_skene", "gold_labels"}
    assert {k for k, s in ANALYSES.items() if s.on_engine} == pages
    for key, support in ANALYSES.items():
        assert support.what
        assert support.on_engine or support.todo  # never "no" without what to do
        assert engine_support(key, "memory").on_engine


def test_the_sampled_note_names_both_counts():
    note = sampled_note(10_000, 10_000_000)
    assert "10,000 of 10,000,000 items, sampled" in note
    assert sampled_note(10, 10) == ""


def test_a_csv_path_opens_on_duckdb_and_in_memory_alike(tmp_path, frame):
    path = tmp_path / "judgements.csv"
    frame.to_csv(path, index=False)
    src = local_source(str(path))
    assert (src.kind, src.default_engine) == ("csv", "memory")
    assert source_columns(src) == ["item", "annotator", "label"]
    lazy = open_on_engine(src, "duckdb")
    mem = open_on_engine(src, "memory")
    assert (lazy.n_items, lazy.n_judgements) == (mem.n_items, mem.n_judgements)
    assert list(map(str, lazy.categories)) == list(map(str, mem.categories))


def test_the_overview_on_an_engine_points_only_at_pages_that_run_there(tmp_path):
    # a fresh-clone review found the Overview sending DuckDB users to Next labels (not
    # defined on an engine) and promising five other models on Gold labels (DS only there)
    from analytics.engines import load_annotations as load
    from analytics.overview import overview

    rng = np.random.default_rng(0)
    n_items, k = 300, 3
    truth = rng.integers(0, k, n_items)
    rows = []
    for i in range(n_items):
        for j in rng.choice(12, size=3, replace=False):
            right = rng.random() < 0.6
            rows.append((f"i{i}", f"a{j}", f"c{truth[i] if right else rng.integers(0, k)}"))
    path = tmp_path / "crowd.parquet"
    pd.DataFrame(rows, columns=["item", "annotator", "label"]).to_parquet(path)
    lazy = load(str(path), engine="duckdb")
    memory = load(str(path))
    on_engine, in_memory = overview(lazy), overview(memory)
    pages = {a.key: a.page for a in on_engine.answers}
    assert pages["more_labels"] == "pages/gold_labels.py"
    assert {a.key: a.page for a in in_memory.answers}["more_labels"] == "pages/next_labels.py"
    gold = next(a.sentence for a in on_engine.answers if a.key == "gold")
    assert "Dawid-Skene only" in gold and "five other" not in gold
    text = " ".join(a.sentence for a in on_engine.answers) + on_engine.recommendation.text
    assert "Next labels page picks" not in text and "plans the batch that settles" not in text
    assert on_engine.recommendation.page != "pages/next_labels.py"
