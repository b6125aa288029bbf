"""Span annotations (named entities, aspects, evidence): agreement, gold and disagreement.

The family's public face: import from here, not from the modules.

- the data model: :class:`SpanAnnotations` (spans as ``item, annotator, start, end,
  label`` character offsets, the documents each annotator completed, the texts) and its
  loader :func:`load_spans` (:class:`SpanLoadReport`) for long tables, DataFrames, Label
  Studio and Prodigy exports and CoNLL BIO/BILOU token files; :func:`to_label_studio`,
  :func:`to_prodigy` and :func:`to_conll` write them back (the first two also a gold table);
- pairwise agreement: :func:`pairwise_f1` (precision, recall, F1 per annotator pair with
  exact, overlap or token matching) and :func:`span_f1` (their mean, with a document
  bootstrap interval, :class:`SpanF1`);
- chance-corrected agreement on where spans are: :func:`unitizing_alpha`
  (Krippendorff's alpha_U, overall or per label);
- where annotators disagree: :func:`label_confusion` (which labels get swapped),
  :func:`document_agreement` (the worst documents), :func:`span_support` and
  :func:`document_segments` (a document's text cut at the spans, per annotator);
- figures: :func:`pair_f1_heatmap`, :func:`label_confusion_heatmap`;
- token level: :func:`token_agreement` (Cohen's, Fleiss' kappa and alpha with spans
  projected onto tokens, with :data:`TOKEN_CAVEAT`) and :func:`token_annotations`;
- the gold standard: :func:`gold_spans` (spans a quorum of annotators share, with their
  support and stated rules for boundary and label disagreement);

>>> import pandas as pd
>>> from analytics.spans import load_spans
>>> df = pd.DataFrame({"item": ["d1"], "annotator": ["ann"], "start": [0], "end": [5],
...                    "label": ["PER"]})
>>> load_spans(df).n_spans
1
"""

from __future__ import annotations

from analytics.spans.conll import to_conll
from analytics.spans.disagreement import (
    NONE_LABEL,
    document_agreement,
    document_segments,
    label_confusion,
    span_support,
)
from analytics.spans.figures import label_confusion_heatmap, pair_f1_heatmap
from analytics.spans.gold import GOLD_COLUMNS, gold_spans
from analytics.spans.label_studio import to_label_studio
from analytics.spans.loading import MAX_BYTES, SPAN_FORMATS, load_spans
from analytics.spans.matching import MATCHES, pairwise_f1
from analytics.spans.model import SPAN_COLUMNS, SpanAnnotations, SpanLoadReport
from analytics.spans.prodigy import to_prodigy
from analytics.spans.summary import FEW_DOCUMENTS, SpanF1, span_f1
from analytics.spans.tokens import TOKEN_CAVEAT, token_agreement, token_annotations
from analytics.spans.unitizing import unitizing_alpha

__all__ = [
    "FEW_DOCUMENTS",
    "GOLD_COLUMNS",
    "MATCHES",
    "MAX_BYTES",
    "NONE_LABEL",
    "SPAN_COLUMNS",
    "SPAN_FORMATS",
    "TOKEN_CAVEAT",
    "SpanAnnotations",
    "SpanF1",
    "SpanLoadReport",
    "document_agreement",
    "document_segments",
    "gold_spans",
    "label_confusion",
    "label_confusion_heatmap",
    "load_spans",
    "pair_f1_heatmap",
    "pairwise_f1",
    "span_f1",
    "span_support",
    "to_conll",
    "to_label_studio",
    "to_prodigy",
    "token_agreement",
    "token_annotations",
    "unitizing_alpha",
]
