"""Concord's analytics library: from raw annotation labels to a gold standard you can trust.

Pure Python (numpy, scipy, pandas, plotly, pyarrow); it never imports streamlit. Six
ideas, six subpackages, each with its ``__init__`` as its only public face:

- :mod:`analytics.data`: the canonical data model :class:`Annotations` and the loader;
- :mod:`analytics.agreement`: chance-corrected agreement coefficients;
- :mod:`analytics.multilabel`: agreement on label sets and the expert gold standard;
- :mod:`analytics.noise`: how noisy the agreed subset is;
- :mod:`analytics.dawid_skene`: annotator models and each item's most likely label;
- :mod:`analytics.models`: a family of annotator models behind one ``fit``, chosen without
  gold, evaluated against partial gold, bootstrapped.

:mod:`analytics.report` builds the HTML report and :mod:`analytics.cli` the command line.

Resources are bounded: :class:`Limits` holds what one file may ask of the loader
(``load_annotations(..., limits=Limits(...))``) and :func:`memory_budget` the memory an
analysis may use (``with memory_budget("8G"): ...``; default 2 GiB).

>>> from analytics import load_annotations
>>> ann = load_annotations("sample_data/crowd_4class.csv")  # doctest: +SKIP
"""

from analytics._core.budget import memory_budget
from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import (
    format_confidence,
    format_count,
    format_number,
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
    "LabelKind",
    "Limits",
    "LoadReport",
    "SkipNote",
    "as_annotations",
    "format_confidence",
    "format_count",
    "format_number",
    "format_percent",
    "load_annotations",
    "memory_budget",
]
