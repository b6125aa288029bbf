"""Reading a file of known gold labels (analytics.data.gold_labels.read_gold_labels)."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from analytics import AnnotationDataError, Annotations
from analytics.data.gold_labels import read_gold_labels
from analytics.dawid_skene import fit, gold_accuracy
from tests.helpers.paths import SAMPLE_DATA


def upload(text: str, name: str = "gold.csv") -> io.BytesIO:
    buffer = io.BytesIO(text.encode("utf-8"))
    buffer.name = name
    return buffer


def test_good_file_gives_item_to_label_as_text():
    gold = read_gold_labels(upload("item,label\nm1,question\nm2,request\n10,1\n"))
    assert gold.to_dict() == {"m1": "question", "m2": "request", "10": "1"}
    assert gold.index.name == "item" and gold.name == "label"


def test_columns_found_by_name_in_any_case_and_order():
    gold = read_gold_labels(upload("Label;note;ITEM\nx;ok;a\ny;ok;b\n"))
    assert gold.to_dict() == {"a": "x", "b": "y"}


def test_without_the_names_first_column_is_item_and_last_is_label():
    gold = read_gold_labels(upload("id,worker,truth\ni1,w1,x\ni2,w1,y\n"))
    assert gold.to_dict() == {"i1": "x", "i2": "y"}


def test_the_multilabel_gold_standard_download_reads_back_as_gold_with_its_empty_sets():
    """Its label column is called 'labels' (the last column had been taken: 'unresolved'),
    and an empty set is written '{}' (a blank had read as 'no gold label')."""
    from analytics.data import load_sample
    from analytics.dawid_skene import fit_per_category, per_category_gold
    from analytics.multilabel import gold_standard

    affect = load_sample("affect_multilabel")
    frame = gold_standard(affect).to_frame()
    assert (frame["labels"] == "{}").sum() == 28
    gold = read_gold_labels(upload(frame.to_csv(index=False)))
    assert len(gold) == 300 and gold.name == "labels"
    scored = per_category_gold(fit_per_category(affect), gold)
    assert scored.loc["whole set", "gold_items"] == 300
    # the names are found in this order: label, labels, gold, truth
    both = read_gold_labels(upload("item,truth,label\ni1,x,y\n"))
    assert both.to_dict() == {"i1": "y"}


def test_a_path_is_read_too():
    gold = read_gold_labels(SAMPLE_DATA / "crowd_intents_truth.csv")
    assert len(gold) == 300 and gold.index.name == "item"


def test_a_single_column_is_refused_naming_the_file():
    with pytest.raises(AnnotationDataError, match="needs two columns: item and label") as err:
        read_gold_labels(upload("item\na\nb\n", "mine.csv"))
    assert "mine.csv" in str(err.value)


def test_an_item_with_two_different_labels_names_file_column_and_rows():
    with pytest.raises(AnnotationDataError, match="more than one gold label") as err:
        read_gold_labels(upload("item,label\na,x\nb,y\na,z\n", "mine.csv"))
    assert err.value.source == "mine.csv"
    assert err.value.column == "label"
    assert err.value.rows == [2, 4]  # the header is row 1


def test_an_item_repeated_with_the_same_label_counts_once():
    gold = read_gold_labels(upload("item,label\na,x\na,x\nb,y\n"))
    assert gold.to_dict() == {"a": "x", "b": "y"} and len(gold) == 2


def test_rows_with_an_empty_label_are_left_out():
    gold = read_gold_labels(upload("item,label\na,x\nb,\nc,  \nd,y\n"))
    assert gold.to_dict() == {"a": "x", "d": "y"}


def test_an_empty_file_is_an_error_naming_it():
    with pytest.raises(AnnotationDataError, match="empty") as err:
        read_gold_labels(upload("", "blank.csv"))
    assert err.value.source == "blank.csv"


def test_unknown_items_are_kept_and_ignored_by_fit_and_accuracy():
    rows = [
        ("i1", "a", "x"),
        ("i1", "b", "x"),
        ("i2", "a", "y"),
        ("i2", "b", "y"),
        ("i3", "a", "x"),
        ("i3", "b", "y"),
    ]
    ann = Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))
    gold = read_gold_labels(upload("item,label\ni1,x\ni2,y\nnot-in-data,x\n"))
    assert "not-in-data" in gold.index
    acc = gold_accuracy(fit(ann), gold)
    assert list(acc["items"]) == [2, 2]
    clamped = fit(ann, gold=gold)
    assert list(clamped.gold_items) == ["i1", "i2"]
