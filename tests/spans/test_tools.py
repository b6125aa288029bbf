"""Label Studio and Prodigy span exports: read, skipped records, errors, round trips."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analytics import AnnotationDataError
from analytics.spans import gold_spans, load_spans, to_label_studio, to_prodigy

TEXT = "Anna flew to Rome."


def _ls_task(tid, annotations, text=TEXT):
    return {"id": tid, "data": {"text": text}, "annotations": annotations}


def _ls_ann(who, spans, cancelled=False):
    result = [
        {
            "from_name": "label",
            "to_name": "text",
            "type": "labels",
            "value": {"start": s, "end": e, "text": TEXT[s:e], "labels": labs},
        }
        for s, e, labs in spans
    ]
    return {"completed_by": who, "was_cancelled": cancelled, "result": result}


def _write(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    return path


def test_label_studio_reads_spans_empty_annotations_and_skips(tmp_path):
    tasks = [
        _ls_task(1, [_ls_ann(10, [(0, 4, ["PER"]), (13, 17, ["LOC", "GPE"])]), _ls_ann(11, [])]),
        _ls_task(2, [_ls_ann(10, [(0, 4, ["PER"])], cancelled=True)]),
        _ls_task(3, []),
    ]
    tasks[0]["predictions"] = [{"model_version": "v1", "result": []}]
    spans = load_spans(_write(tmp_path, "ner.json", json.dumps(tasks)))
    assert spans.report.format == "label-studio"
    assert spans.spans[["item", "annotator", "label"]].values.tolist() == [
        [1, 10, "GPE"], [1, 10, "LOC"], [1, 10, "PER"]
    ]  # fmt: skip
    # annotator 11 finished task 1 without spans; the cancelled one did not finish task 2
    assert list(spans.items) == [1] and spans.completed.tolist() == [[True, True]]
    reasons = {note.reason: note.count for note in spans.report.skipped}
    assert reasons == {"cancelled (skipped) annotations": 1, "tasks nobody annotated": 1}
    assert spans.texts[1] == TEXT
    assert spans.report.notes == (
        "model predictions on 1 task were left out (a model is not an annotator)",
    )


def test_label_studio_keeps_one_annotation_per_user_and_task_and_says_what_it_skipped(tmp_path):
    """Two annotations of a task by one user had been merged (an annotation overlapping
    itself); HTML and dialogue span results had vanished without a word."""
    html = {"type": "hypertextlabels", "value": {"startOffset": 0, "endOffset": 4}}
    late = _ls_ann(10, [(0, 4, ["PER"]), (13, 17, ["LOC"])])
    other = _ls_ann(11, [(0, 4, ["PER"])])
    other["result"].append(html)
    tasks = [_ls_task(1, [_ls_ann(10, [(0, 4, ["PER"])]), late, other])]
    spans = load_spans(_write(tmp_path, "twice.json", json.dumps(tasks)))
    assert spans.spans[["annotator", "label"]].values.tolist() == [
        [10, "LOC"], [10, "PER"], [11, "PER"]
    ]  # fmt: skip
    reasons = {note.reason: note.count for note in spans.report.skipped}
    assert reasons == {
        "earlier annotations of a task by the same annotator (the last is kept)": 1,
        "'hypertextlabels' results (spans of HTML or dialogue, not plain text)": 1,
    }
    # a list as the user is still refused in words, with its row
    tasks = [_ls_task(1, [{"completed_by": [1, 2], "result": []}])]
    with pytest.raises(AnnotationDataError, match=r"row 1: an annotator is a list"):
        load_spans(_write(tmp_path, "list.json", json.dumps(tasks)))


def test_label_studio_quoted_text_must_match_and_utf16_offsets_are_converted():
    bad = [_ls_task(1, [_ls_ann(1, [(0, 4, ["PER"])])])]
    bad[0]["annotations"][0]["result"][0]["value"]["text"] = "Rome"
    with pytest.raises(AnnotationDataError, match="not the span's text") as info:
        load_spans(json.dumps(bad).encode(), format="label-studio")
    assert info.value.rows == [1]
    emoji = "\U0001f600 Anna"  # the emoji is 2 UTF-16 units, 1 character
    task = {"id": 1, "data": {"text": emoji}, "annotations": [{"completed_by": 1, "result": [
        {"type": "labels", "value": {"start": 3, "end": 7, "text": "Anna", "labels": ["PER"]}}
    ]}]}  # fmt: skip
    spans = load_spans(json.dumps([task]).encode(), format="label-studio")
    assert spans.spans[["start", "end"]].values.tolist() == [[2, 6]]
    assert any("UTF-16" in n for n in spans.report.notes)
    task["annotations"][0]["result"][0]["value"].update(start=1, end=7)  # inside the pair
    with pytest.raises(AnnotationDataError, match="cut a character"):
        load_spans(json.dumps([task]).encode(), format="label-studio")


def test_label_studio_bad_json_is_named():
    with pytest.raises(AnnotationDataError, match="not valid JSON"):
        load_spans(b"[{", format="label-studio")


def test_a_key_given_twice_is_refused_not_read_as_its_last_value():
    """Python's JSON reader keeps the last of two equal keys: a span's "end" given twice
    had been read as the second one without a word."""
    task = b'[{"id": 1, "data": {"text": "x"}, "id": 2, "annotations": []}]'
    with pytest.raises(AnnotationDataError, match="gives the key 'id' twice"):
        load_spans(task, format="label-studio")
    line = b'{"text": "Anna", "_input_hash": 7, "_annotator_id": "a", "answer": "accept", '
    line += b'"answer": "reject", "spans": []}\n'
    with pytest.raises(AnnotationDataError, match="gives the key 'answer' twice") as info:
        load_spans(_prodigy([{"text": "Bo", "_input_hash": 8, "_annotator_id": "a"}]) + line,
                   format="prodigy")  # fmt: skip
    assert info.value.rows == [2]


def _prodigy(lines):
    return ("\n".join(json.dumps(x) for x in lines) + "\n").encode()


def test_prodigy_reads_accepts_and_skips_rejects():
    lines = [
        {"text": TEXT, "_input_hash": 7, "_annotator_id": "s-ann", "answer": "accept",
         "spans": [{"start": 0, "end": 4, "label": "PER", "token_start": 0, "token_end": 0}]},
        {"text": TEXT, "_input_hash": 7, "_session_id": "s-bob", "answer": "accept", "spans": []},
        {"text": "Other.", "_input_hash": 8, "_annotator_id": "s-ann", "answer": "reject"},
    ]  # fmt: skip
    spans = load_spans(_prodigy(lines), format="prodigy")
    assert spans.n_spans == 1 and list(spans.annotators) == ["s-ann", "s-bob"]
    assert spans.completed.tolist() == [[True, True]]
    assert spans.report.skipped[0].rows == (3,)


def test_prodigy_errors_name_the_line():
    no_one = [{"text": TEXT, "_input_hash": 7, "spans": []}]
    with pytest.raises(AnnotationDataError, match="no annotator") as info:
        load_spans(_prodigy(no_one), format="prodigy")
    assert info.value.rows == [1]
    two_texts = [
        {"text": TEXT, "_input_hash": 7, "_annotator_id": "a", "spans": []},
        {"text": "Anna flew to Paris.", "_input_hash": 7, "_annotator_id": "b", "spans": []},
    ]
    with pytest.raises(AnnotationDataError, match="differs") as info:
        load_spans(_prodigy(two_texts), format="prodigy")
    assert info.value.rows == [2]
    past = [{"text": TEXT, "_input_hash": 7, "_annotator_id": "a",
             "spans": [{"start": 10, "end": 40, "label": "X"}]}]  # fmt: skip
    with pytest.raises(AnnotationDataError, match="past the end"):
        load_spans(_prodigy(past), format="prodigy")
    with pytest.raises(AnnotationDataError, match=r"row 2"):
        load_spans(b'{"text": "a"}\n{oops\n', format="prodigy")


def _sample():
    rows = [
        ("d1", "ann", 0, 4, "PER"), ("d1", "ann", 13, 17, "LOC"), ("d1", "bob", 0, 4, "PER"),
        ("d2", "bob", 0, 5, "ORG"),
    ]  # fmt: skip
    df = pd.DataFrame(rows, columns=["item", "annotator", "start", "end", "label"])
    return load_spans(df, text={"d1": TEXT, "d2": "Acme hired Bo."}, completed={"d2": ["ann"]})


def _same(one, two):
    pd.testing.assert_frame_equal(one.spans, two.spans)
    assert list(one.items) == list(two.items) and list(one.annotators) == list(two.annotators)
    assert np.array_equal(one.completed, two.completed)
    assert one.texts.tolist() == two.texts.tolist()


@pytest.mark.parametrize(
    ("write", "fmt"), [(to_label_studio, "label-studio"), (to_prodigy, "prodigy")]
)
def test_round_trip_through_the_tool_format(write, fmt):
    spans = _sample()
    again = load_spans(write(spans).encode("utf-8"), format=fmt)
    _same(spans, again)
    assert again.report.format == fmt


@pytest.mark.parametrize(
    ("write", "fmt"), [(to_label_studio, "label-studio"), (to_prodigy, "prodigy")]
)
def test_gold_exports_import_back(write, fmt):
    spans = _sample()
    gold = gold_spans(spans, quorum=1)
    texts = dict(spans.texts.items())
    back = load_spans(write(gold, texts).encode("utf-8"), format=fmt)
    assert list(back.annotators) == ["gold"]
    cols = ["item", "start", "end", "label"]
    assert sorted(back.spans[cols].values.tolist()) == sorted(gold[cols].values.tolist())


_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 50), st.floats(allow_nan=True), st.text(max_size=5)
)
_value = st.fixed_dictionaries(
    {},
    optional={
        "start": _leaf,
        "end": _leaf,
        "text": _leaf,
        "labels": st.one_of(_leaf, st.lists(_leaf, max_size=2)),
    },
)
_result = st.fixed_dictionaries(
    {}, optional={"type": st.sampled_from(["labels", "choices"]), "value": st.one_of(_leaf, _value)}
)
_annotation = st.fixed_dictionaries(
    {},
    optional={
        "completed_by": _leaf,
        "was_cancelled": _leaf,
        "result": st.one_of(_leaf, st.lists(st.one_of(_leaf, _result), max_size=3)),
    },
)
_task = st.fixed_dictionaries(
    {},
    optional={
        "id": _leaf,
        "data": st.one_of(_leaf, st.dictionaries(st.sampled_from(["text", "x"]), _leaf)),
        "annotations": st.one_of(_leaf, st.lists(st.one_of(_leaf, _annotation), max_size=3)),
    },
)
_line = st.fixed_dictionaries(
    {},
    optional={
        "text": _leaf,
        "spans": st.one_of(
            _leaf,
            st.lists(
                st.one_of(
                    _leaf,
                    st.fixed_dictionaries(
                        {}, optional={"start": _leaf, "end": _leaf, "label": _leaf}
                    ),
                ),
                max_size=3,
            ),
        ),
        "_input_hash": _leaf,
        "_annotator_id": _leaf,
        "answer": st.sampled_from(["accept", "reject", None]),
    },
)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.one_of(_leaf, _task), max_size=4), st.lists(st.one_of(_leaf, _line), max_size=4))
def test_malformed_exports_give_a_named_error_never_a_crash(tasks, lines):
    for data, fmt in (
        (json.dumps(tasks), "label-studio"),
        ("\n".join(map(json.dumps, lines)), "prodigy"),
    ):
        try:
            load_spans(data.encode(), format=fmt)
        except AnnotationDataError:
            pass


def test_a_json_true_is_not_the_offset_1(tmp_path):
    line = {
        "text": "Anna met Bob",
        "spans": [{"start": True, "end": 4, "label": "PER"}],
        "answer": "accept",
        "_annotator_id": "a",
    }
    path = _write(tmp_path, "bool.jsonl", json.dumps(line) + "\n")
    with pytest.raises(AnnotationDataError, match=r"column 'start', row 1: start must be a whole"):
        load_spans(path)
