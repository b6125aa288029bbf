"""``load_annotations(source, engine=...)``: in memory, or lazily on DuckDB or Spark."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from analytics._core.errors import AnnotationDataError
from analytics.data import load_annotations as load_in_memory
from analytics.engines.duck import DuckRunner, duckdb_scan
from analytics.engines.handle import EngineAnnotations, Runner
from analytics.engines.spark import SparkRunner, spark_scan

__all__ = ["ENGINES", "is_spark_frame", "load_annotations"]

ENGINES = ("memory", "duckdb", "spark")
"""The engines :func:`load_annotations` can read with."""


def load_annotations(
    source: Any,
    *,
    engine: str = "memory",
    item: str | None = None,
    annotator: str | None = None,
    label: str | None = None,
    categories: Sequence[Any] | None = None,
    kind: str | None = None,
    duplicates: str = "error",
    table: str | None = None,
    memory_limit: str | None = None,
    temp_directory: str | None = None,
    threads: int | None = None,
    **memory_options: Any,
) -> Any:
    """Load annotations in memory (the default) or as a lazy handle on DuckDB or Spark.

    Parameters
    ----------
    source : path, DataFrame, pyspark DataFrame or any source of the in-memory loader
        With ``engine="duckdb"``: a Parquet file, a folder of Parquet files, a CSV/TSV
        file, a DuckDB database file (with ``table``) or a pandas DataFrame. With
        ``engine="spark"``: a PySpark DataFrame, a Parquet or CSV path (any URL Spark
        reads) or a pandas DataFrame; a PySpark DataFrame is read by Spark by default.
    engine : {"memory", "duckdb", "spark"}, default "memory"
        Where the judgements are held and reduced.
    item, annotator, label : str or None, default None
        Column names (None: recognised by name, as the in-memory loader does).
    categories : sequence or None, default None
        Declared categories in order (engines: by default the labels used, sorted).
    kind : str, LabelKind or None, default None
        ``"nominal"``, ``"ordinal"``, ``"numeric"`` or (memory engine only, label sets)
        ``"multilabel"``; inferred if None: text and up to 12 whole-number codes are
        nominal, other numbers numeric.
    duplicates : str, default "error"
        One annotator judging one item more than once: ``"error"``, ``"first"``,
        ``"last"`` or ``"keep"`` (engines: ``"error"`` or ``"keep"``).
    table : str or None, default None
        The table of a DuckDB database file.
    memory_limit, temp_directory, threads : optional
        DuckDB's working-memory bound (e.g. ``"2GB"``), spill folder and threads
        (``engine="duckdb"`` only: Spark refuses them, its own come from its session).
    **memory_options
        Further options of the in-memory loader, :func:`analytics.data.load_annotations`
        (memory engine only; any other engine refuses them), which documents each:

        - ``format``: ``"csv"``, ``"tsv"``, ``"json"``, ``"jsonl"``, ``"excel"`` or
          ``"parquet"`` (default: from the extension, else the content);
        - ``layout``: ``"long"``, ``"wide"`` (detected when None), ``"counts"`` or
          ``"contingency"`` (count tables, never guessed);
        - ``multilabel_sep``: the separator that splits label cells into sets (detected
          when None; ``""`` never splits);
        - ``missing``: the cell texts read as not labelled (default ``NA``, ``N/A``,
          ``NaN``, ``None``, ``null``, ``<NA>``, ``NaT``; ``()``: empty cells only);
        - ``limits``: a :class:`~analytics.data.Limits` (file size, inflated size, cells,
          JSON depth, digits); ``max_bytes``: the file-size bound alone (default 200 MiB);
        - ``tool_options``: choices for annotation-tool exports (Label Studio
          ``from_name``, Mechanical Turk ``answer``, ...);
        - ``sheet``: the Excel sheet (default the first); ``name``: the display name.

    Returns
    -------
    Annotations or LazyAnnotations

    Raises
    ------
    AnnotationDataError
        An unknown engine, options that only the memory engine reads, or what the
        engine's loader refuses (missing columns, labels outside the categories, repeats).
    """
    if is_spark_frame(source) and engine == "memory":
        engine = "spark"
    if engine not in ENGINES:
        raise AnnotationDataError(
            f"unknown engine {engine!r}.", hint=f"Choose one of {', '.join(ENGINES)}."
        )
    if engine == "memory":
        return load_in_memory(
            source,
            item=item,
            annotator=annotator,
            label=label,
            categories=categories,
            kind=kind,
            duplicates=duplicates,
            **memory_options,
        )
    if memory_options:
        raise AnnotationDataError(
            f"options {sorted(memory_options)} are read by the memory engine only.",
            hint=f"Leave them out with engine={engine!r}.",
        )
    names = {"item": item, "annotator": annotator, "label": label}  # None: recognised by name
    if engine == "duckdb":
        runner: Runner = DuckRunner(memory_limit, temp_directory, threads)
        scan, name = duckdb_scan(source, runner, table)
    else:
        duck_only = {
            "memory_limit": memory_limit,
            "temp_directory": temp_directory,
            "threads": threads,
        }
        given = [k for k, v in duck_only.items() if v is not None]
        if given:  # Spark's own come from its session: never dropped without a word
            raise AnnotationDataError(
                f"{', '.join(given)} {'is a setting' if len(given) == 1 else 'are settings'} "
                "of DuckDB; Spark takes its memory, spill folder and cores from its session.",
                hint="Leave them out with engine='spark', or set spark.driver.memory, "
                "spark.local.dir and the master (local[N]) on the SparkSession.",
            )
        runner = SparkRunner.for_source(source)
        scan, name = spark_scan(source, runner)
    return EngineAnnotations(
        runner, scan, name, categories=categories, kind=kind, duplicates=duplicates, **names
    )


def is_spark_frame(source: Any) -> bool:
    """Whether ``source`` is a PySpark DataFrame (without importing pyspark)."""
    return type(source).__module__.startswith("pyspark.sql") and hasattr(source, "sparkSession")
