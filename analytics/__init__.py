"""Concord's analytics library: from raw annotation labels to a gold standard you can trust.

Pure Python (numpy, scipy, pandas, plotly); it never imports streamlit.

>>> from analytics import load_annotations
>>> ann = load_annotations("sample_data/crowd_4class.csv")  # doctest: +SKIP
"""

from .annotations import Annotations, LabelKind, LoadReport, SkipNote, as_annotations
from .errors import AnnotationDataError
from .loading import load_annotations

__all__ = [
    "AnnotationDataError",
    "Annotations",
    "LabelKind",
    "LoadReport",
    "SkipNote",
    "as_annotations",
    "load_annotations",
]
