"""Concord's analytics library: from raw annotation labels to a gold standard you can trust.

Pure Python (numpy, scipy, pandas, plotly, pyarrow); it never imports streamlit. Ten
ideas, ten subpackages, each with its ``__init__`` as its only public face:

- :mod:`analytics.data`: the canonical data model :class:`Annotations` and the loader;
- :mod:`analytics.agreement`: chance-corrected agreement coefficients;
- :mod:`analytics.multilabel`: agreement on label sets and the expert gold standard;
- :mod:`analytics.spans`: agreement, gold and disagreement on text spans (named entities);
- :mod:`analytics.noise`: how noisy the agreed subset is;
- :mod:`analytics.dawid_skene`: annotator models and each item's most likely label;
- :mod:`analytics.models`: a family of annotator models behind one ``fit``, chosen without
  gold, evaluated against partial gold, bootstrapped;
- :mod:`analytics.next_labels`: which items to send for another judgement, and how many
  labels are enough;
- :mod:`analytics.overview`: can we benchmark on this? The answers at a glance;
- :mod:`analytics.engines`: the same analyses on DuckDB or Spark, for data past one machine.

:mod:`analytics.report` builds the HTML report and :mod:`analytics.cli` the command line
(``python -m analytics``); :mod:`analytics._core` holds shared internals.

Resources are bounded: :class:`Limits` holds what one file may ask of the loader
(``load_annotations(..., limits=Limits(...))``) and :func:`memory_budget` the memory an
analysis may use (``with memory_budget("8G"): ...``; default 2 GiB).

>>> from analytics import load_annotations
>>> load_annotations("sample_data/crowd_intents.csv")
Annotations('crowd_intents.csv': 300 items, 20 annotators, 1500 judgements, 4 categories, nominal)
"""

from analytics._core.budget import memory_budget
from analytics._core.errors import AnnotationDataError, ArgumentTypeError
from analytics._core.figure_data import figure_table
from analytics._core.formatting import (
    format_confidence,
    format_count,
    format_number,
    format_p_value,
    format_percent,
)
from analytics.data import (
    Annotations,
    LabelKind,
    Limits,
    LoadReport,
    SkipNote,
    as_annotations,
)
from analytics.engines import load_annotations

__all__ = [
    "AnnotationDataError",
    "Annotations",
    "ArgumentTypeError",
    "LabelKind",
    "Limits",
    "LoadReport",
    "SkipNote",
    "as_annotations",
    "figure_table",
    "format_confidence",
    "format_count",
    "format_number",
    "format_p_value",
    "format_percent",
    "load_annotations",
    "memory_budget",
]
