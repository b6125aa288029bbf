"""The span functions take :class:`~analytics.spans.SpanAnnotations`: a raw table of spans
raises an ArgumentTypeError saying to load it, never a bare AttributeError."""

from __future__ import annotations

import pandas as pd
import pytest

from analytics import spans as sp
from analytics._core.errors import ArgumentTypeError

TABLE = pd.DataFrame(
    {
        "item": ["d"] * 3,
        "annotator": ["a", "a", "b"],
        "start": [0, 6, 0],
        "end": [5, 9, 5],
        "label": ["X"] * 3,
    }
)


@pytest.mark.parametrize(
    "function",
    [
        sp.pairwise_f1,
        sp.span_f1,
        sp.label_confusion,
        sp.document_agreement,
        sp.span_support,
        sp.gold_spans,
        sp.token_annotations,
        sp.token_agreement,
        sp.unitizing_alpha,
        sp.to_conll,
    ],
)
def test_span_functions_refuse_a_raw_table(function):
    with pytest.raises(ArgumentTypeError, match="expected SpanAnnotations") as info:
        function(TABLE)  # pairwise_f1's was AttributeError: no attribute 'labels'
    assert f"{function.__name__}(load_spans(" in str(info.value)


def test_document_segments_refuses_a_raw_table():
    with pytest.raises(ArgumentTypeError, match="load_spans"):
        sp.document_segments(TABLE, "d")


def test_loaded_spans_still_pass():
    table = sp.pairwise_f1(sp.load_spans(TABLE))
    assert table["f1"].round(3).tolist() == [0.667]
