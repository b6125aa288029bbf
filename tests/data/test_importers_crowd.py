"""Crowd platforms: MTurk batch results, Toloka results, crowd-kit style tables.

Expected judgements are re-derived with the csv module in plain loops (independent of
the readers); detection is checked not to fire on plain item/annotator/label tables.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics import AnnotationDataError, load_annotations
from analytics.data import ROLE_SYNONYMS, read_table
from analytics.data.importers import convert_tool_export, describe_tool_export
from analytics.data.model import LabelKind
from tests.helpers.importers import (
    CROWD_HTML,
    FIX,
    MTURK,
    RADIO,
    TOLOKA,
    convert,
    crowd_csv,
    csv_rows,
    edit_csv,
    triples,
    upload,
)
from tests.helpers.paths import DATASETS


# ============================================================================ MTurk
def test_mturk_answer_column_counts_and_rejections():
    ann = load_annotations(MTURK)
    assert ann.report.tool == "Mechanical Turk"
    assert (ann.n_items, ann.n_annotators, ann.n_judgements) == (4, 5, 9)
    assert ann.kind is LabelKind.NOMINAL
    expected = {
        (r["HITId"], r["WorkerId"], r["Answer.sentiment"])
        for r in csv_rows(MTURK)
        if r["AssignmentStatus"] != "Rejected"
    }
    assert triples(ann) == expected
    (skip,) = ann.report.skipped
    assert "Rejected" in skip.reason and skip.count == 1 and skip.rows == (6,)


def test_mturk_items_from_input_columns():
    ann = convert(MTURK, item_columns=["Input.text"])
    assert (ann.n_items, ann.n_judgements) == (3, 9)  # HIT 4 republished HIT 1's headline
    assert "Local team wins the regional cup after twenty years" in set(ann.items)
    with pytest.raises(AnnotationDataError, match=r"no column 'Input\.url'"):
        convert(MTURK, item_columns="Input.url")


def test_mturk_several_answer_columns_need_a_choice():
    def add_comment(header, rows):
        for r in rows:
            r["Answer.comment"] = "ok"
        return [*header, "Answer.comment"], rows

    data = edit_csv(MTURK, add_comment)
    with pytest.raises(AnnotationDataError, match=r"answer 2 questions") as err:
        load_annotations(upload(data, "batch.csv"))
    # the hint is what load_annotations takes (there is no answer= argument)
    assert "tool_options={'answer': '...'}" in str(err.value)
    assert "--tool-option answer=" in str(err.value)
    chosen = load_annotations(
        upload(data, "batch.csv"), tool_options={"answer": "Answer.sentiment"}
    )
    assert chosen.n_judgements == 9
    ann = convert(upload(data, "batch.csv"), answer="Answer.sentiment")
    assert ann.n_judgements == 9
    with pytest.raises(AnnotationDataError, match=r"no question 'Answer\.mood'"):
        convert(upload(data, "batch.csv"), answer="Answer.mood")


def test_mturk_crowd_multi_select_is_multilabel():
    ann = load_annotations(CROWD_HTML)
    assert (ann.n_items, ann.n_annotators, ann.n_judgements) == (2, 2, 4)
    assert ann.kind is LabelKind.MULTILABEL
    expected = set()
    for r in csv_rows(CROWD_HTML):
        if r["AssignmentStatus"] == "Rejected":
            continue
        (form,) = json.loads(r["Answer.taskAnswers"])
        expected.add((r["HITId"], r["WorkerId"], frozenset(form["topics"]["labels"])))
    assert triples(ann) == expected
    assert frozenset() in {lab for _, _, lab in expected}  # an explicit empty selection
    assert ann.report.skipped[0].rows == (4,)


def test_mturk_radio_buttons_and_free_text_fields():
    with pytest.raises(
        AnnotationDataError, match=r"Answer.taskAnswers.comment, Answer.taskAnswers"
    ):
        load_annotations(RADIO)
    ann = convert(RADIO, answer="Answer.taskAnswers")
    assert ann.kind is LabelKind.NOMINAL  # one button per worker: single labels
    expected = set()
    for r in csv_rows(RADIO):
        (form,) = json.loads(r["Answer.taskAnswers"])
        (on,) = [k for k, v in form.items() if isinstance(v, dict) and v["on"]]
        expected.add((r["HITId"], r["WorkerId"], on))
    assert triples(ann) == expected
    comment = convert(RADIO, answer="Answer.taskAnswers.comment")
    assert comment.n_judgements == 1  # the three empty comments are missing, not a category
    assert comment.report.n_missing == 3


def test_mturk_crowd_classifier_label_and_checkbox_groups():
    forms = [{"s": {"label": "pos"}}, {"s": {"label": "neg"}}, {"s": {"label": "pos"}}]
    ann = load_annotations(upload(crowd_csv(forms), "c.csv"))
    assert ann.kind is LabelKind.NOMINAL and ann.n_judgements == 3
    # a group of options in one field: several true -> label sets
    forms = [{"t": {"a": True, "b": True}}, {"t": {"a": False, "b": False}}]
    ann = load_annotations(upload(crowd_csv(forms), "c.csv"))
    assert ann.kind is LabelKind.MULTILABEL
    assert {lab for _, _, lab in triples(ann)} == {frozenset({"a", "b"}), frozenset()}
    # a lone checkbox is a yes/no question
    forms = [{"agree": {"on": True}}, {"agree": {"on": False}}]
    ann = load_annotations(upload(crowd_csv(forms), "c.csv"))
    assert {lab for _, _, lab in triples(ann)} == {"true", "false"}


def test_mturk_malformed_task_answers():
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(FIX / "mturk_malformed.csv")
    msg = str(err.value)
    assert "Answer.taskAnswers" in msg and "row 3" in msg and "JSON" in msg
    with pytest.raises(AnnotationDataError, match="not a label"):
        load_annotations(upload(crowd_csv([{"s": [1, 2]}, {"s": [3]}]), "c.csv"))


def test_mturk_describe():
    table, _, _ = read_table(RADIO)
    info = describe_tool_export(table)
    assert info.tool == "Mechanical Turk"
    assert info.choices["answer"] == ["Answer.taskAnswers.comment", "Answer.taskAnswers"]
    assert info.defaults["answer"] is None  # must be chosen
    assert info.choices["item_columns"] == [None, "Input.review"]


# ============================================================================ Toloka
def test_toloka_results_tsv():
    ann = load_annotations(TOLOKA)
    assert ann.report.tool == "Toloka"
    assert (ann.n_items, ann.n_annotators, ann.n_judgements) == (3, 3, 8)
    expected = {
        (r["INPUT:image"], r["ASSIGNMENT:worker_id"], r["OUTPUT:result"])
        for r in csv_rows(TOLOKA, "\t")
        if r["ASSIGNMENT:status"] != "REJECTED"
    }
    assert triples(ann) == expected
    (skip,) = ann.report.skipped
    assert skip.count == 2 and skip.rows == (8, 9)
    assert any("GOLDEN:result" in n for n in ann.report.notes)


def test_toloka_several_outputs_need_a_choice():
    text = TOLOKA.read_text().splitlines()
    text = [text[0] + "\tOUTPUT:confidence"] + [line + "\thigh" for line in text[1:]]
    data = "\n".join(text).encode()
    with pytest.raises(AnnotationDataError, match="2 output fields"):
        load_annotations(upload(data, "pool.tsv"))
    ann = convert(upload(data, "pool.tsv"), answer="OUTPUT:confidence")
    assert set(ann.categories) == {"high"}


# ============================================================================ crowd-kit
def test_crowdkit_worker_task_label_table_needs_no_reader():
    ann = load_annotations(FIX / "crowdkit_labels.csv")
    assert ann.report.tool is None
    assert (ann.n_items, ann.n_annotators, ann.n_judgements) == (4, 4, 10)
    expected = {
        (r["task"], r["worker"], int(r["label"])) for r in csv_rows(FIX / "crowdkit_labels.csv")
    }
    assert triples(ann) == expected


def test_crowdkit_prefixed_columns_need_no_reader():
    ann = load_annotations(FIX / "crowdkit_prefixed.tsv")
    assert ann.report.tool is None
    assert (ann.n_items, ann.n_annotators, ann.n_judgements) == (3, 3, 7)
    assert ann.report.columns == {
        "item": "INPUT:task",
        "annotator": "worker",
        "label": "OUTPUT:label",
    }


# ============================================================================ no misfire
@pytest.mark.parametrize("name", ["snow_rte", "welinder_bluebirds", "act_MS"])
def test_no_reader_fires_on_the_public_long_tables(name):
    table, rows, report = read_table(DATASETS / name / "labels.csv")
    assert convert_tool_export(table, rows, report) is None
    assert describe_tool_export(table) is None


def test_hitid_workerid_table_without_answer_columns_is_plain_long_data():
    data = b"HITId,WorkerId,label\nh1,w1,a\nh1,w2,b\nh2,w1,a\n"
    ann = load_annotations(upload(data, "plain.csv"))
    assert ann.report.tool is None and ann.n_judgements == 3


@settings(max_examples=40, deadline=None)
@given(
    item=st.sampled_from(ROLE_SYNONYMS["item"]),
    annotator=st.sampled_from(ROLE_SYNONYMS["annotator"]),
    label=st.sampled_from(ROLE_SYNONYMS["label"]),
    extra=st.lists(
        st.sampled_from(["text", "data", "meta", "score", "Input.text", "created_at"]),
        max_size=3,
        unique=True,
    ),
    values=st.lists(
        st.tuples(st.text(min_size=1, max_size=4), st.text(min_size=1, max_size=4)),
        min_size=1,
        max_size=6,
    ),
)
def test_detection_never_fires_on_plain_tables(item, annotator, label, extra, values):
    cols = list(dict.fromkeys([item, annotator, label, *extra]))
    table = pd.DataFrame({c: [v[k % 2] for v in values] for k, c in enumerate(cols)}, dtype=object)
    from analytics.data import LoadReport

    assert convert_tool_export(table, np.arange(1, len(table) + 1), LoadReport()) is None
    assert describe_tool_export(table) is None


def test_toloka_without_input_columns_is_an_error():
    text = TOLOKA.read_text().splitlines()
    data = "\n".join(line.split("\t", 1)[1] for line in text).encode()  # drop INPUT:image
    with pytest.raises(AnnotationDataError, match="no INPUT: columns"):
        load_annotations(upload(data, "pool.tsv"))


def test_crowdkit_malformed_row_names_the_row():
    data = (FIX / "crowdkit_labels.csv").read_bytes() + b"w9,t9\n"
    with pytest.raises(AnnotationDataError, match=r"row 12 has 2"):
        load_annotations(upload(data, "crowd.csv"))


def test_options_may_be_pairs_as_the_app_caches_them():
    table, rows, report = read_table(RADIO)
    long, _, _ = convert_tool_export(
        table, rows, report, options=[("answer", "Answer.taskAnswers")]
    )
    assert len(long) == 4


def test_a_skipped_row_of_a_tool_export_names_the_export_not_an_inner_column():
    """It read "no annotator id (column 'annotator' empty)" of an MTurk file whose worker
    column is WorkerId."""
    from analytics import load_annotations
    from tests.helpers.paths import FIXTURES

    said = load_annotations(FIXTURES / "mturk_junk.csv").report.warnings()
    assert any("no annotator id (empty in the Mechanical Turk export)" in w for w in said)
    assert not any("column 'annotator'" in w for w in said)
