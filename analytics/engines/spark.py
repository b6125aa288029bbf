"""Spark, for clusters: the same SQL (:mod:`analytics.engines.queries`) through Spark SQL.

A PySpark DataFrame, or a Parquet/CSV path read by Spark, becomes a temporary view; every
reduction runs as Spark SQL and only the small tables are collected to the driver
(``toPandas``). Works with any session: ``local[*]`` for tests, ``spark-submit`` or a
Databricks/EMR notebook on a cluster (docs/scale.md).
"""

from __future__ import annotations

import itertools
import os
import shutil
from pathlib import Path
from typing import Any

import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.engines.handle import Runner

__all__ = ["SparkRunner", "java_found", "spark_scan"]

_HANDLES = itertools.count()
LOCAL_CONF = {
    "spark.sql.shuffle.partitions": "8",
    "spark.ui.enabled": "false",
    "spark.sql.execution.arrow.pyspark.enabled": "true",
}
"""Settings of the local session started when none is running (small shuffles, no UI)."""


def java_found() -> bool:
    """Whether a Java runtime is reachable (``JAVA_HOME`` or ``java`` on the PATH)."""
    home = os.environ.get("JAVA_HOME")
    return bool((home and Path(home, "bin", "java").exists()) or shutil.which("java"))


class SparkRunner(Runner):
    """Spark SQL on a session; this handle's tables carry a name prefix of their own.

    Temporary views are per session, so two handles on one session would overwrite each
    other's ``concord_*`` tables; every ``concord_`` name is therefore rewritten to
    ``concord<n>_``.

    Parameters
    ----------
    spark : pyspark.sql.SparkSession
        The session to run on.
    """

    engine = "spark"
    text_type = "STRING"

    def __init__(self, spark: Any) -> None:
        self.spark = spark
        self.prefix = f"concord{next(_HANDLES)}_"
        self.cached: dict[str, Any] = {}

    @classmethod
    def for_source(cls, source: Any) -> SparkRunner:
        """The session of a PySpark DataFrame, else the active one, else a local one.

        Raises
        ------
        AnnotationDataError
            When pyspark is not installed or the session cannot start (no Java).
        """
        if hasattr(source, "sparkSession"):
            return cls(source.sparkSession)
        try:
            from pyspark.sql import SparkSession
        except ImportError as exc:
            raise AnnotationDataError(
                "the spark engine needs pyspark, which is not installed.",
                hint="pip install pyspark (and a Java 17+ runtime).",
            ) from exc
        active = SparkSession.getActiveSession()
        if active is not None:
            return cls(active)
        if not java_found():
            raise AnnotationDataError(
                "Spark cannot start: no Java runtime was found (JAVA_HOME or java on the PATH).",
                hint="Install Java 17+ (e.g. apt-get install openjdk-17-jre-headless).",
            )
        builder = SparkSession.builder.master("local[*]").appName("concord")
        for key, value in LOCAL_CONF.items():
            builder = builder.config(key, value)
        try:
            return cls(builder.getOrCreate())
        except Exception as exc:  # py4j/pyspark raise their own types for a failed JVM
            raise AnnotationDataError(f"Spark could not start: {exc}") from exc

    def _named(self, text: str) -> str:
        return text.replace("concord_", self.prefix)

    def quote(self, column: str) -> str:
        return "`" + column.replace("`", "``") + "`"

    def columns(self, scan: str) -> dict[str, str]:
        schema = self.spark.table(self._named(scan)).schema
        return {f.name: f.dataType.simpleString() for f in schema.fields}

    def view(self, name: str, query: str) -> None:
        self.spark.sql(self._named(query)).createOrReplaceTempView(self._named(name))

    def table(self, name: str, query: str) -> None:
        frame = self.spark.sql(self._named(query)).persist()
        frame.count()  # materialise now, before the previous version is dropped
        old = self.cached.pop(name, None)
        frame.createOrReplaceTempView(self._named(name))
        if old is not None:
            old.unpersist()
        self.cached[name] = frame

    def register(self, name: str, frame: pd.DataFrame) -> None:
        self.spark.createDataFrame(frame).createOrReplaceTempView(self._named(name))

    def fetch(self, query: str) -> pd.DataFrame:
        return self.spark.sql(self._named(query)).toPandas()

    def sorted_codes(self, column: str) -> str:
        return f"ARRAY_JOIN(ARRAY_SORT(COLLECT_LIST(CAST({column} AS STRING))), ',')"


def spark_scan(source: Any, runner: SparkRunner) -> tuple[str, str]:
    """Register ``source`` (a PySpark DataFrame, or a Parquet/CSV path or folder) as a view.

    Raises
    ------
    AnnotationDataError
        A path that does not exist or is neither Parquet nor CSV.
    """
    view = "concord_input"
    if hasattr(source, "sparkSession"):
        source.createOrReplaceTempView(runner._named(view))
        return view, "<Spark DataFrame>"
    if isinstance(source, pd.DataFrame):
        runner.register(view, source)
        return view, "<DataFrame>"
    path = str(os.fspath(source))
    name = Path(path).name
    suffix = Path(path).suffix.lower()
    reader = runner.spark.read
    csv = suffix in (".csv", ".tsv", ".txt")
    if not csv and suffix not in (".parquet", ".pq", ""):
        raise AnnotationDataError(
            f"the spark engine reads Parquet and CSV/TSV, not {suffix}.", source=name
        )
    try:
        if csv:
            sep = "\t" if suffix == ".tsv" else ","
            frame = reader.options(header=True, inferSchema=True, sep=sep).csv(path)
        else:
            frame = reader.parquet(path)
    except Exception as exc:  # Spark's AnalysisException (path not found, bad file)
        raise AnnotationDataError(f"Spark cannot read the source: {exc}", source=name) from exc
    frame.createOrReplaceTempView(runner._named(view))
    return view, name
