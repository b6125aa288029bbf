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

__all__ = ["SparkRunner", "java_found", "spark_error", "spark_scan"]

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
    source: str | None = None
    """The file read, named in error messages (set by :func:`spark_scan`)."""

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
        try:
            schema = self.spark.table(self._named(scan)).schema
        except Exception as exc:  # py4j and pyspark raise their own types
            raise spark_error(exc, self.source) from exc
        return {f.name: f.dataType.simpleString() for f in schema.fields}

    def view(self, name: str, query: str) -> None:
        try:
            self.spark.sql(self._named(query)).createOrReplaceTempView(self._named(name))
        except Exception as exc:
            raise spark_error(exc, self.source) from exc

    def table(self, name: str, query: str) -> None:
        try:
            frame = self.spark.sql(self._named(query)).persist()
            frame.count()  # materialise now, before the previous version is dropped
        except Exception as exc:  # the source is read here: a malformed row fails now
            raise spark_error(exc, self.source) from exc
        old = self.cached.pop(name, None)
        frame.createOrReplaceTempView(self._named(name))
        if old is not None:
            old.unpersist()
        self.cached[name] = frame

    def register(self, name: str, frame: pd.DataFrame) -> None:
        self.spark.createDataFrame(frame).createOrReplaceTempView(self._named(name))

    def fetch(self, query: str) -> pd.DataFrame:
        try:
            return self.spark.sql(self._named(query)).toPandas()
        except Exception as exc:
            raise spark_error(exc, self.source) from exc

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
        runner.source = "<Spark DataFrame>"
        source.createOrReplaceTempView(runner._named(view))
        return view, "<Spark DataFrame>"
    if isinstance(source, pd.DataFrame):
        runner.source = "<DataFrame>"
        runner.register(view, source)
        return view, "<DataFrame>"
    path = str(os.fspath(source))
    name = runner.source = Path(path).name
    suffix = Path(path).suffix.lower()
    reader = runner.spark.read
    csv = suffix in (".csv", ".tsv", ".txt")
    if not csv and suffix not in (".parquet", ".pq", ""):
        raise AnnotationDataError(
            f"the spark engine reads Parquet and CSV/TSV, not {suffix}.", source=name
        )
    if csv and Path(path).is_file() and Path(path).stat().st_size == 0:
        raise AnnotationDataError(
            "the file is empty.", source=name, hint="Give a file with a header row and data rows."
        )
    try:
        if csv:
            # every column as text, as the in-memory loader reads a CSV (ids "007" and "7"
            # differ); a row with more or fewer fields than the header fails the read
            sep = "\t" if suffix == ".tsv" else ","
            frame = reader.options(header=True, inferSchema=False, sep=sep, mode="FAILFAST")
            frame = frame.csv(path)
        else:
            frame = reader.parquet(path)
            _same_columns(reader, frame, name, path)
    except AnnotationDataError:
        raise
    except Exception as exc:  # Spark's AnalysisException (path not found, bad file)
        raise spark_error(exc, name) from exc
    frame.createOrReplaceTempView(runner._named(view))
    return view, name


def _same_columns(reader: Any, first: Any, name: str, path: str) -> None:
    """Refuse a folder whose files differ in columns or in a column's type.

    Spark takes one file's schema and reads a column another file lacks as NULL, so a
    renamed (or missing) label column would silently drop that file's judgements as
    missing. A local folder's files are compared one by one from their footers (the
    merged schema cannot see a file that lacks a column the others have when Spark took
    its schema from one with it); a local file needs no check; any other path is checked
    by merging the schemas in Spark (which also refuses differing types).
    """
    local = Path(path)
    if local.is_file():
        return
    if not local.is_dir():
        merged = reader.option("mergeSchema", True).parquet(path)
        extra = [c for c in merged.columns if c not in set(first.columns)]
        if extra:
            _refuse_columns(f"{', '.join(map(repr, extra))} not in every file", name)
        return
    import pyarrow.parquet as pq

    files = sorted(
        f
        for f in local.rglob("*")
        if f.is_file() and not f.name.startswith(("_", ".")) and f.suffix in (".parquet", ".pq")
    )
    schemas = {f.relative_to(local): pq.read_schema(f) for f in files}
    every = set().union(*(sch.names for sch in schemas.values()))
    types: dict[str, tuple[Any, Any]] = {}  # column -> (file, type) where first seen
    for f, sch in schemas.items():
        if lacking := every - set(sch.names):
            _refuse_columns(f"{', '.join(map(repr, sorted(lacking)))} not in {f}", name)
        for field in sch:
            seen = types.setdefault(field.name, (f, field.type))
            if seen[1] != field.type:
                raise AnnotationDataError(
                    f"the Parquet files of the folder give a column different types: "
                    f"{field.name!r} is {seen[1]} in {seen[0]} and {field.type} in {f}.",
                    source=name,
                    hint="Write every file with the same column types (or open the files one "
                    "at a time).",
                )


def _refuse_columns(where: str, name: str) -> None:
    raise AnnotationDataError(
        f"the Parquet files of the folder do not have the same columns: {where}.",
        source=name,
        hint="Give every file the same column names (rename the odd ones), or open the files "
        "one at a time.",
    )


def spark_error(exc: Exception, source: str | None) -> AnnotationDataError:
    """What Spark raised, as one line naming the file, with what to do.

    Parameters
    ----------
    exc : Exception
        A pyspark or py4j error.
    source : str or None
        The file read.

    Returns
    -------
    AnnotationDataError
    """
    text = str(exc).strip()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    first = lines[0] if lines else type(exc).__name__
    cause = next((ln for ln in lines if "Exception:" in ln and "py4j" not in ln), first)
    hint = "Check that the source is a complete Parquet or CSV file with a header row."
    if "CANNOT_INFER_EMPTY_SCHEMA" in text or "UNABLE_TO_INFER_SCHEMA" in text:
        problem = "the source holds no data (no header or no rows)."
        hint = "Give a file with a header row and data rows."
    elif "Malformed" in text or "MALFORMED" in text:
        problem = "a row does not have the fields of the header (Spark read it as malformed)."
        hint = "Quote cells that contain the delimiter, or fix that row."
    elif ("merge" in text.lower() and "incompatible" in text.lower()) or "CANNOT_MERGE" in text:
        problem = "the Parquet files of the folder give a column different types."
        hint = "Write every file with the same column types (or open the files one at a time)."
    else:
        problem = f"Spark cannot read the data: {cause[:300]}"
    return AnnotationDataError(problem, source=source, hint=hint)
