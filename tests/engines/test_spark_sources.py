"""Spark reads a path as the in-memory loader does, and refuses what it would misread.

A CSV is read as text (ids "007" and "7" differ) and a ragged row fails the read; an
empty file, a Parquet folder whose files differ in columns or in a column's type are an
AnnotationDataError, not a Spark traceback nor judgements silently dropped.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError, agreement
from analytics import load_annotations as load
from tests.engines.test_engine_sources import frame, same_report

pytest.importorskip("pyspark", reason="pyspark is not installed")
pytestmark = [
    pytest.mark.filterwarnings("ignore::FutureWarning:pyspark"),
    pytest.mark.filterwarnings("ignore:The copy keyword is deprecated"),
]

from analytics.engines.spark import LOCAL_CONF, java_found  # noqa: E402

if not java_found():
    pytest.skip("no Java runtime: Spark cannot start", allow_module_level=True)


@pytest.fixture(scope="module", autouse=True)
def spark():
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.master("local[2]").appName("concord-source-tests")
    for key, value in {**LOCAL_CONF, "spark.sql.shuffle.partitions": "2"}.items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    yield session
    session.stop()


def test_an_empty_or_header_only_csv_is_an_annotation_data_error(tmp_path):
    (tmp_path / "e.csv").write_text("")
    with pytest.raises(AnnotationDataError, match="the file is empty"):
        load(tmp_path / "e.csv", engine="spark")
    (tmp_path / "h.csv").write_text("item,annotator,label\n")
    with pytest.raises(AnnotationDataError, match="no judgements"):
        load(tmp_path / "h.csv", engine="spark")


def test_a_folder_whose_files_differ_in_columns_is_refused(tmp_path):
    df = frame()
    (tmp_path / "f").mkdir()
    df.iloc[:90].to_parquet(tmp_path / "f" / "a.parquet", index=False)
    df.iloc[90:].rename(columns={"label": "answer"}).to_parquet(tmp_path / "f" / "b.parquet")
    with pytest.raises(AnnotationDataError, match="not have the same columns"):
        load(str(tmp_path / "f"), engine="spark")


def test_a_folder_with_a_file_that_lacks_the_label_column_is_refused(tmp_path):
    """The merged schema cannot see it when Spark took its schema from a file with the
    column: the file's judgements had been dropped as missing labels (90 of 180)."""
    df = frame()
    (tmp_path / "f").mkdir()
    df.iloc[:90].to_parquet(tmp_path / "f" / "a.parquet", index=False)
    df.iloc[90:].drop(columns="label").to_parquet(tmp_path / "f" / "b.parquet", index=False)
    with pytest.raises(AnnotationDataError, match=r"'label' not in b\.parquet"):
        load(str(tmp_path / "f"), engine="spark")


def test_a_folder_whose_files_differ_in_a_type_is_refused(tmp_path):
    df = pd.DataFrame({"item": np.arange(20) // 2, "annotator": ["a", "b"] * 10})
    (tmp_path / "f").mkdir()
    df.iloc[:10].assign(label=np.arange(10) % 3).to_parquet(tmp_path / "f" / "a.parquet")
    df.iloc[10:].assign(label=["x"] * 10).to_parquet(tmp_path / "f" / "b.parquet")
    with pytest.raises(AnnotationDataError, match="different types"):
        load(str(tmp_path / "f"), engine="spark")


def test_a_ragged_csv_row_is_refused(tmp_path):
    path = tmp_path / "ragged.csv"
    path.write_text("item,annotator,label\n1,a,x\n1,b,x\n2,a,y,extra,fields\n2,b,y\n")
    with pytest.raises(AnnotationDataError, match="fields of the header"):
        load(path, engine="spark")


def test_csv_ids_and_labels_are_text_as_in_memory(tmp_path):
    path = tmp_path / "ids.csv"
    path.write_text("item,annotator,label\n007,a,x\n7,a,y\n007,b,x\n7,b,y\n08,a, x\n08,b,x\n")
    mem, lazy = load(path), load(path, engine="spark")
    assert lazy.n_items == mem.n_items == 3
    assert sorted(lazy.categories) == sorted(mem.categories) == ["x", "y"]
    same_report(mem, lazy)
    x = agreement.cohen_kappa(lazy)
    assert abs(float(x) - float(agreement.cohen_kappa(mem))) < 1e-12


def test_tabs_around_labels_are_stripped_as_in_memory(tmp_path):
    df = frame()
    df.loc[20, "label"] = "joy\t"
    df.loc[21, "label"] = "NA\u00a0"
    df.loc[22, "label"] = "\u3000sad\u1680"  # spaces past Spark's chr (it wraps at 256)
    df.loc[23, "item"] = "\u2003" + str(df.loc[23, "item"]) + "\u205f"
    df.to_parquet(tmp_path / "t.parquet")
    mem, lazy = load(tmp_path / "t.parquet"), load(tmp_path / "t.parquet", engine="spark")
    assert sorted(lazy.categories) == sorted(mem.categories) == ["anger", "joy", "sad"]
    assert lazy.n_judgements == mem.n_judgements
    assert lazy.n_items == mem.n_items == 60
