"""Past one machine: the analyses run where the judgements live, on DuckDB or Spark.

``load_annotations(source, engine="duckdb")`` returns a lazy handle
(:class:`~analytics._core.lazy.LazyAnnotations`) that the agreement coefficients,
:func:`~analytics.agreement.agreement_report`, the noise estimate and the Dawid-Skene fit
accept in place of :class:`~analytics.Annotations`. The engine reduces the judgements to
small sufficient-statistic tables (:mod:`analytics.engines.queries`, one SQL definition per
reduction for both engines); only those come back to numpy. Modules:

- ``queries``: the SQL of every reduction;
- ``handle``: the engine-independent loader and the lazy handle;
- ``duck``: the DuckDB connection and file scans;
- ``loading``: :func:`load_annotations` with its ``engine=`` choice;
- ``scale``: which engine for which file (:func:`default_engine`), a typed path checked
  (:func:`local_source`), and which analyses an engine computes (:func:`engine_support`).
"""

from __future__ import annotations

from analytics._core.lazy import LazyAnnotations, is_lazy
from analytics.engines.handle import EngineAnnotations
from analytics.engines.loading import ENGINES, load_annotations
from analytics.engines.scale import (
    ENGINE_THRESHOLD_BYTES,
    LocalSource,
    Support,
    default_engine,
    engine_summary,
    engine_support,
    format_bytes,
    guess_columns,
    local_source,
    open_on_engine,
    sampled_note,
    source_columns,
)

__all__ = [
    "ENGINES",
    "ENGINE_THRESHOLD_BYTES",
    "EngineAnnotations",
    "LazyAnnotations",
    "LocalSource",
    "Support",
    "default_engine",
    "engine_summary",
    "engine_support",
    "format_bytes",
    "guess_columns",
    "is_lazy",
    "load_annotations",
    "local_source",
    "open_on_engine",
    "sampled_note",
    "source_columns",
]
