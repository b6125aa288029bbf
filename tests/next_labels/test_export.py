"""Batch exports: CSV round trip, Label Studio tasks, MTurk input, hostile item names."""

from __future__ import annotations

import io
import json

import pandas as pd
import pytest

from analytics import AnnotationDataError
from analytics.next_labels import batch_csv, label_studio_tasks, mturk_input_csv


@pytest.fixture
def batch():
    return pd.DataFrame(
        {
            "item": ["=cmd()", "b", "=cmd()", "c"],
            "annotator": ["w1", "w2", "w3", "w1"],
            "current_confidence": [0.6, 0.7, 0.6, 0.8],
            "expected_gain": [0.5, 0.4, 0.3, 0.2],
            "expected_confidence": [0.8, 0.85, 0.9, 0.9],
        }
    )


def test_csv_round_trip_and_formula_safety(batch):
    back = pd.read_csv(io.StringIO(batch_csv(batch)))
    assert list(back.columns) == list(batch.columns)
    assert back["item"].iloc[0] == "'=cmd()"  # a spreadsheet shows it, does not run it
    assert back["expected_gain"].tolist() == batch["expected_gain"].tolist()


def test_label_studio_tasks_one_per_item(batch):
    texts = pd.DataFrame({"text": ["first", "second", "third"]}, index=["=cmd()", "b", "c"])
    tasks = json.loads(label_studio_tasks(batch, data=texts))
    assert [t["data"]["item"] for t in tasks] == ["=cmd()", "b", "c"]
    assert tasks[0]["data"]["text"] == "first"
    assert tasks[0]["meta"]["assignments"] == 2
    assert tasks[0]["meta"]["annotators"] == "w1;w3"
    assert tasks[0]["meta"]["expected_gain"] == pytest.approx(0.8)
    assert tasks[0]["meta"]["expected_confidence"] == pytest.approx(0.9)
    with pytest.raises(AnnotationDataError, match="data has no row for item 'c'"):
        label_studio_tasks(batch, data=texts.drop(index="c"))


def test_mturk_input_has_one_row_per_hit_sorted_by_assignments(batch):
    text = mturk_input_csv(batch.drop(columns="annotator"))
    back = pd.read_csv(io.StringIO(text))
    assert list(back.columns) == ["item", "assignments"]
    assert back["assignments"].tolist() == [2, 1, 1]
    assert back["item"].tolist() == ["=cmd()", "b", "c"]  # MTurk reads it: verbatim
    texts = pd.DataFrame({"text": ["first", "second", "third"]}, index=["=cmd()", "b", "c"])
    with_text = pd.read_csv(io.StringIO(mturk_input_csv(batch, data=texts)))
    assert with_text["text"].tolist() == ["first", "second", "third"]
    # an item without its text was written with an empty field: a HIT with nothing to judge
    with pytest.raises(AnnotationDataError, match="data has no row for item 'c'"):
        mturk_input_csv(batch, data=texts.drop(index="c"))


def test_not_a_batch_is_refused():
    with pytest.raises(AnnotationDataError, match="must be the DataFrame next_batch returns"):
        batch_csv(pd.DataFrame({"x": [1]}))


def test_the_docs_name_the_label_studio_meta_keys():
    """docs/next_labels.md listed {assignments, annotators, confidence, gain}."""
    import json

    from analytics.next_labels import label_studio_tasks
    from tests.helpers.paths import ROOT

    batch = pd.DataFrame(
        {
            "item": ["i1", "i1", "i2"],
            "annotator": ["a", "b", "a"],
            "current_confidence": [0.6, 0.6, 0.7],
            "expected_gain": [0.5, 0.3, 0.4],
            "expected_confidence": [0.8, 0.9, 0.85],
        }
    )
    task = json.loads(label_studio_tasks(batch))[0]
    assert task["meta"]["expected_gain"] == pytest.approx(0.8)  # summed over the item
    docs = (ROOT / "docs" / "next_labels.md").read_text(encoding="utf-8")
    assert "{" + ", ".join(task["meta"]) + "}" in docs


@pytest.mark.parametrize(
    "item", ["+44 7700", "=x", "-1", "@SUM(A1)", 'say "hi", then\nleave', "\ttab", "a,b"]
)
def test_mturk_input_writes_hostile_ids_verbatim_in_well_formed_csv(item):
    """MTurk reads the file, not a spreadsheet: a guarded '=x would come back as Input.item."""
    import csv

    batch = pd.DataFrame({"item": [item, "plain", item]})
    texts = pd.DataFrame({"text": ['with "quotes", commas\nand lines', "p"]}, index=[item, "plain"])
    text = mturk_input_csv(batch, data=texts)
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows == [
        ["item", "text", "assignments"],
        [item, 'with "quotes", commas\nand lines', "2"],
        ["plain", "p", "1"],
    ]
    back = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    assert back["item"].tolist() == [item, "plain"]
    # the batch CSV, meant for a spreadsheet, stays guarded
    if item in ("=x", "+44 7700", "@SUM(A1)"):
        assert pd.read_csv(io.StringIO(batch_csv(batch)), dtype=str)["item"].iloc[0] == "'" + item


def test_label_studio_tasks_refuse_a_data_column_named_item(batch):
    texts = pd.DataFrame({"item": ["x", "y", "z"]}, index=["=cmd()", "b", "c"])
    with pytest.raises(AnnotationDataError, match="data has a column 'item'"):
        label_studio_tasks(batch, data=texts)


@pytest.mark.parametrize("export", [label_studio_tasks, mturk_input_csv])
def test_item_data_of_the_wrong_kind_is_refused_by_name(batch, export):
    """The loaded Annotations raised AttributeError ('no attribute reindex' or 'columns'),
    a Series of texts a ValueError ('No axis named 1')."""
    from analytics import load_annotations
    from analytics._core.errors import ArgumentTypeError

    frame = batch[["item", "annotator"]].assign(label="x")
    texts = pd.Series("some text", index=["=cmd()", "b", "c"], name="text")
    for data in (load_annotations(frame), texts, {"b": "text"}):
        with pytest.raises(ArgumentTypeError, match="data"):
            export(batch, data)
    assert "some text" in export(batch, texts.to_frame())
