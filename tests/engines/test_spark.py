"""The Spark engine runs the same SQL as DuckDB and gives the in-memory numbers (issue 18).

One local SparkSession for the whole file (session-scoped). Skipped, saying why, only
when pyspark is not installed or no Java runtime can be found.
"""

from __future__ import annotations

import numpy as np
import pytest

from analytics import AnnotationDataError, agreement
from analytics import load_annotations as load
from analytics.data import Annotations
from analytics.dawid_skene import fit
from analytics.noise import noise_from_annotations
from tests.engines.test_duckdb_agreement import COEFFS, random_frame, same
from tests.engines.test_duckdb_dawid_skene import same_fit
from tests.engines.test_duckdb_noise import same_noise

pyspark = pytest.importorskip("pyspark", reason="pyspark is not installed")
# pyspark 4.x warns about pandas 3 on every conversion; what it converts here is checked
pytestmark = [
    pytest.mark.filterwarnings("ignore::FutureWarning:pyspark"),
    pytest.mark.filterwarnings("ignore:The copy keyword is deprecated"),
]

from analytics.engines.spark import LOCAL_CONF, java_found  # noqa: E402

if not java_found():
    pytest.skip(
        "no Java runtime (JAVA_HOME or java on the PATH): Spark cannot start",
        allow_module_level=True,
    )


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.master("local[2]").appName("concord-tests")
    for key, value in {**LOCAL_CONF, "spark.sql.shuffle.partitions": "2"}.items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    yield session
    session.stop()


@pytest.fixture(scope="module")
def data():
    df = random_frame(21, 60, 4, 3, 0.3)
    return df, Annotations.from_frame(df, categories=[1, 2, 3], kind="ordinal")


def test_a_spark_dataframe_gives_every_memory_coefficient(spark, data):
    df, mem = data
    lazy = load(spark.createDataFrame(df), categories=[1, 2, 3], kind="ordinal")
    assert lazy.engine == "spark"
    for name, kw in COEFFS:
        same(getattr(agreement, name)(lazy, **kw), getattr(agreement, name)(mem, **kw))
    got = agreement.agreement_report(lazy, n_boot=0)
    want = agreement.agreement_report(mem, n_boot=0)
    np.testing.assert_allclose(got["value"], want["value"], atol=1e-9)


def test_noise_and_dawid_skene_on_spark_from_parquet(spark, data, tmp_path):
    df, _ = data
    df.to_parquet(tmp_path / "j.parquet")
    lazy = load(str(tmp_path / "j.parquet"), engine="spark")
    mem = Annotations.from_frame(df)
    same_noise(noise_from_annotations(lazy), noise_from_annotations(mem))
    same_fit(fit(lazy, max_iter=4), fit(mem, max_iter=4))


def test_two_handles_on_one_session_keep_their_own_tables(spark):
    a = load(random_frame(1, 30, 3, 2, 0.0), engine="spark")
    b = load(random_frame(2, 30, 3, 3, 0.0), engine="spark")
    mem_a = Annotations.from_frame(random_frame(1, 30, 3, 2, 0.0))
    same(agreement.fleiss_kappa(a), agreement.fleiss_kappa(mem_a))
    assert b.n_categories == 3


def test_spark_faults_name_their_cause(spark, tmp_path):
    with pytest.raises(AnnotationDataError, match="cannot read"):
        load(str(tmp_path / "missing.parquet"), engine="spark")
    df = random_frame(3, 10, 2, 2, 0.0).rename(columns={"annotator": "person"})
    with pytest.raises(AnnotationDataError, match="column 'annotator'"):
        load(spark.createDataFrame(df))
