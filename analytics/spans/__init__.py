"""Span annotations (named entities, aspects, evidence): agreement, gold and disagreement.

The family's public face: import from here, not from the modules.

- the data model: :class:`SpanAnnotations` (spans as ``item, annotator, start, end,
  label`` character offsets, the documents each annotator completed, the texts) and its
  loader :func:`load_spans` (:class:`SpanLoadReport`);

>>> import pandas as pd
>>> from analytics.spans import load_spans
>>> df = pd.DataFrame({"item": ["d1"], "annotator": ["ann"], "start": [0], "end": [5],
...                    "label": ["PER"]})
>>> load_spans(df).n_spans
1
"""

from __future__ import annotations

from analytics.spans.loading import SPAN_FORMATS, load_spans
from analytics.spans.model import SPAN_COLUMNS, SpanAnnotations, SpanLoadReport

__all__ = [
    "SPAN_COLUMNS",
    "SPAN_FORMATS",
    "SpanAnnotations",
    "SpanLoadReport",
    "load_spans",
]
