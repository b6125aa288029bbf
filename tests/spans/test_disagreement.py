"""Where span annotators disagree: label swaps, worst documents, support, segments, figures."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError
from analytics.spans import (
    NONE_LABEL,
    document_agreement,
    document_segments,
    label_confusion,
    label_confusion_heatmap,
    load_spans,
    pair_f1_heatmap,
    pairwise_f1,
    span_support,
)

TEXT = "Anna met Acme in Oslo."
ROWS = [
    ("d", "a", 0, 4, "PER"), ("d", "a", 9, 13, "ORG"), ("d", "a", 17, 21, "LOC"),
    ("d", "b", 0, 4, "PER"), ("d", "b", 9, 13, "LOC"),
    ("e", "a", 0, 3, "PER"), ("e", "b", 0, 3, "PER"),
]  # fmt: skip


def _spans(rows=ROWS):
    df = pd.DataFrame(rows, columns=["item", "annotator", "start", "end", "label"])
    return load_spans(df, text={"d": TEXT, "e": "Bo."})


def test_label_confusion_by_hand():
    conf = label_confusion(_spans())
    assert list(conf.columns) == ["LOC", "ORG", "PER", NONE_LABEL]
    assert conf.loc["ORG", "LOC"] == 1 and conf.loc["LOC", "ORG"] == 1  # the swap, both ways
    assert conf.loc["LOC", NONE_LABEL] == 1  # Oslo: b marked nothing there
    assert conf.loc["PER", "PER"] == 4  # two documents, two directions
    assert conf.to_numpy().sum() == 7  # every span of a against b and of b against a


def test_label_confusion_counts_nested_spans_of_the_other():
    rows = [("d", "a", 0, 13, "ORG"), ("d", "b", 0, 4, "PER"), ("d", "b", 9, 13, "ORG")]
    conf = label_confusion(_spans(rows))
    assert conf.loc["ORG", "PER"] == 1 and conf.loc["ORG", "ORG"] == 2
    assert conf.loc["PER", "ORG"] == 1 and conf.loc["ORG", NONE_LABEL] == 0


def test_worst_documents_first():
    docs = document_agreement(_spans(), match="exact")
    assert docs["item"].tolist() == ["d", "e"]
    assert docs.loc[0, "f1"] == pytest.approx(2 * 1 / 5) and docs.loc[1, "f1"] == 1.0
    assert docs["spans"].tolist() == [5, 2]


def test_support_and_segments():
    sup = span_support(_spans())
    anna = sup[(sup["item"] == "d") & (sup["start"] == 0)]
    assert anna["agreed"].all() and anna["support"].tolist() == [2, 2]
    assert not sup[sup["label"] == "LOC"]["agreed"].any()
    seg = document_segments(_spans(), "d")
    a = seg[seg["annotator"] == "a"]
    assert "".join(a["text"]) == TEXT
    assert a[a["text"] == "Anna"]["agreed"].tolist() == [True]
    assert a[a["text"] == "Acme"]["labels"].tolist() == [("ORG",)]
    assert a[a["text"] == "Acme"]["agreed"].tolist() == [False]
    with pytest.raises(AnnotationDataError):
        document_segments(_spans(), "nope")


def test_figures_draw_and_explain_when_empty():
    spans = _spans()
    fig = pair_f1_heatmap(pairwise_f1(spans))
    assert fig.data[0].z.shape == (2, 2) and np.isnan(fig.data[0].z[0, 0])
    assert label_confusion_heatmap(label_confusion(spans)).data[0].z.shape == (3, 4)
    hostile = pair_f1_heatmap(pairwise_f1(spans), label="<b>x</b>").layout.title.text
    assert "<b>" not in hostile and hostile.startswith("Span F1")
    alone = _spans([("d", "a", 0, 4, "PER")])
    assert "no pair" in pair_f1_heatmap(pairwise_f1(alone)).layout.annotations[0].text
