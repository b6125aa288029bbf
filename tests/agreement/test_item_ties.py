"""The items table shows ties: a 2-2 split is not won by the first category."""

from __future__ import annotations

import pandas as pd

from analytics import load_annotations
from analytics.agreement import item_agreement


def _split(item: str, labels: list) -> list[tuple]:
    return [(item, a, lab) for a, lab in zip("abcd", labels, strict=False)]


def _ann(rows: list[tuple[str, str, str]], **kw):
    return load_annotations(pd.DataFrame(rows, columns=["item", "annotator", "label"]), **kw)


def test_a_two_two_split_names_both_labels_in_category_order():
    rows = _split("it15", ["neu", "neu", "pos", "pos"])
    rows += _split("it16", ["neg", "neu", "neu", "neu"])
    rows += _split("it17", ["pos", "neg", "neu", "neg"])
    items = item_agreement(_ann(rows, categories=["neg", "neu", "pos"]))
    assert items.loc["it15", "top_label"] == "neu / pos" and items.loc["it15", "tied"]
    assert items.loc["it15", "top_votes"] == 2
    assert items.loc["it16", "top_label"] == "neu" and not items.loc["it16", "tied"]
    assert items.loc["it17", "top_label"] == "neg" and not items.loc["it17", "tied"]
    # category order, not the order of the judgements
    items = item_agreement(_ann(rows, categories=["pos", "neu", "neg"]))
    assert items.loc["it15", "top_label"] == "pos / neu"


def test_a_three_way_tie_numbers_and_label_sets():
    rows = _split("x", [3, 1, 2]) + _split("y", [2, 2])
    items = item_agreement(_ann(rows, categories=[1, 2, 3]))
    assert items.loc["x", "top_label"] == "1 / 2 / 3" and items.loc["x", "tied"]
    assert items.loc["y", "top_label"] == "2" and not items.loc["y", "tied"]
    ml = [("a", "x", "p|q"), ("a", "y", "{}"), ("b", "x", "q"), ("b", "y", "q")]
    items = item_agreement(_ann(ml, multilabel_sep="|"))
    assert items.loc["a", "tied"] and set(items.loc["a", "top_label"].split(" / ")) == {
        "p, q",
        "{}",
    }
    assert items.loc["b", "top_label"] == "q" and not items.loc["b", "tied"]
