"""Refusals that name the place to fix, and cautions for what is read but doubtful.

Beside the corpus (tests/data/hostile/): the row where an unclosed quote opens, NUL bytes
anywhere in a text file, JSON in a Toloka output cell, MTurk results without WorkerId,
repeated or nested columns in a DataFrame, and a free-text column in wide form.
"""

from __future__ import annotations

import io

import pandas as pd
import pytest

from analytics import AnnotationDataError, load_annotations
from analytics.data.free_text import free_text_cautions


def upload(data: bytes, name: str) -> io.BytesIO:
    buf = io.BytesIO(data)
    buf.name = name
    return buf


# ------------------------------------------------------------------ delimited text
def test_an_unclosed_quote_is_named_where_it_opens_not_where_the_file_ends():
    data = b'item,annotator,label\nq1,a,x\nq1,b,y\nq2,a,"x\nq2,b,y\nq3,a,x\nq3,b,y\n'
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(upload(data, "q.csv"))
    assert err.value.rows == [4]
    assert "to row 7" in str(err.value) and err.value.hint


def test_a_nul_byte_past_the_first_8_kb_is_named_by_its_row():
    body = b"".join(b"q%d,a,x\n" % i for i in range(2000))  # about 16 KB
    data = b"item,annotator,label\n" + body + b"q9999,b,y\x00\n"
    with pytest.raises(AnnotationDataError, match="NUL byte") as err:
        load_annotations(upload(data, "n.csv"))
    assert err.value.rows == [2002]


def test_a_file_of_many_nul_bytes_is_still_binary():
    data = b"item,annotator,label\n" + b"\x00" * 200
    with pytest.raises(AnnotationDataError, match="binary data, not text"):
        load_annotations(upload(data, "b.csv"))


# ------------------------------------------------------------------ tool exports
TOLOKA = "INPUT:text\tOUTPUT:result\tASSIGNMENT:worker_id\tASSIGNMENT:status\n"


def test_a_json_array_in_a_toloka_output_cell_is_refused_at_its_row():
    data = (TOLOKA + "one\tcat\tw1\tAPPROVED\none\t[1, 2]\tw2\tAPPROVED\n").encode()
    with pytest.raises(AnnotationDataError, match="1 cell holds JSON, not a label") as err:
        load_annotations(upload(data, "t.tsv"))
    assert err.value.rows == [3] and err.value.column == "OUTPUT:result"


def test_a_toloka_label_in_brackets_that_is_not_json_stays_a_label():
    data = (TOLOKA + "one\t[x]\tw1\tAPPROVED\none\tcat\tw2\tAPPROVED\n").encode()
    ann = load_annotations(upload(data, "t.tsv"))
    assert sorted(map(str, ann.categories)) == ["[x]", "cat"]


def test_mturk_results_without_worker_ids_say_which_column_is_missing():
    data = b"HITId,AssignmentId,AssignmentStatus,Answer.x\nH1,A1,Approved,a\nH1,A2,Approved,b\n"
    with pytest.raises(AnnotationDataError, match="no 'WorkerId' column") as err:
        load_annotations(upload(data, "m.csv"))
    assert err.value.hint


# ------------------------------------------------------------------ tables
def test_repeated_column_names_in_a_dataframe_are_refused():
    frame = pd.DataFrame([["q1", "a", "x"], ["q1", "b", "y"]], columns=["item", "label", "label"])
    with pytest.raises(AnnotationDataError, match="appears more than once") as err:
        load_annotations(frame)
    assert err.value.column == "label"


def test_json_keys_that_differ_only_by_blanks_are_one_name_used_twice():
    data = b'[{"item": "q1", "a": "x", "a ": "y"}, {"item": "q2", "a": "x", "a ": "x"}]'
    with pytest.raises(AnnotationDataError, match="appears more than once"):
        load_annotations(upload(data, "k.json"))


def test_lists_in_the_first_column_of_a_wide_table_are_not_item_ids():
    frame = pd.DataFrame({"q": [["x"], "q2", "q3"], "r1": ["a", "b", "a"], "r2": ["a", "a", "b"]})
    with pytest.raises(AnnotationDataError, match="not item ids") as err:
        load_annotations(frame)
    assert err.value.rows == [1] and err.value.column == "q"


# ------------------------------------------------------------------ free text in wide form
def test_a_notes_column_in_wide_form_is_named_in_a_caution():
    frame = pd.DataFrame(
        {
            "item": ["q1", "q2", "q3", "q4"],
            "ann1": ["pos", "neg", "neg", "pos"],
            "ann2": ["pos", "pos", "neg", "pos"],
            "Comments": ["fine by me", "ask Sam", "second pass", "unsure"],
        }
    )
    ann = load_annotations(frame)
    [caution] = [w for w in ann.report.warnings() if "free text" in w]
    assert "'Comments'" in caution and "'ann1'" not in caution


@pytest.mark.parametrize(
    "notes",
    [
        ["fine", "odd", "ok", "hmm"],  # one word each: labels, not notes
        ["pos", "neg", "pos", "neg"],  # repeated values: an annotator
        ["pos x", "neg y", "pos", "neg"],  # half are other columns' labels
    ],
)
def test_columns_that_may_be_labels_raise_no_caution(notes):
    frame = pd.DataFrame(
        {
            "ann1": ["pos", "neg", "neg", "pos"],
            "ann2": ["pos", "pos", "neg", "pos"],
            "ann3": notes,
        }
    )
    assert free_text_cautions(frame, ["ann1", "ann2", "ann3"]) == []


def test_a_single_annotator_column_is_never_called_free_text():
    frame = pd.DataFrame({"Notes": ["fine by me", "ask Sam", "second pass"]})
    assert free_text_cautions(frame, ["Notes"]) == []
