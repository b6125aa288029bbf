"""Inputs found by a fuzz campaign outside the repository (issue 13's "wider corpus"):
each crashed with another exception type, or loaded something the file does not say."""

from __future__ import annotations

import io
import json

import pytest

from analytics import AnnotationDataError, load_annotations
from analytics.data import read_gold_labels
from analytics.spans import load_spans


def upload(data: bytes, name: str) -> io.BytesIO:
    buffer = io.BytesIO(data)
    buffer.name = name
    return buffer


LONE = b'"\\ud800"'


@pytest.mark.parametrize(
    ("data", "name", "read"),
    [
        (b'[{"item":"i1","annotator":"a","label":' + LONE + b"}]", "x.json", load_annotations),
        (b'{"item":"i1","annotator":"a","label":"y"}\n{"item":"i1","annotator":"b","label":'
         + LONE + b"}\n", "x.jsonl", load_annotations),
        (b'{"item":["i1"],"annotator":["a"],"label":[' + LONE + b"]}", "x.json", load_annotations),
        (b'[{"item":"i1","label":' + LONE + b"}]", "gold.json", read_gold_labels),
        (b'{"text":"ab\\udc00c","spans":[{"start":0,"end":2,"label":"X"}],"answer":"accept",'
         b'"_input_hash":1,"_annotator_id":"a"}\n', "s.jsonl", load_spans),
    ],
)  # fmt: skip
def test_half_a_surrogate_pair_is_refused_with_its_line(data, name, read):
    """json.loads accepts "\\ud800" alone; pandas and Arrow then raised UnicodeEncodeError."""
    with pytest.raises(AnnotationDataError, match="surrogate") as info:
        read(upload(data, name))
    assert name in str(info.value) and "row" in str(info.value)


def test_a_whole_surrogate_pair_and_an_escaped_backslash_load():
    data = (
        b'[{"item":"i1","annotator":"a","label":"\\ud83d\\ude00"},'
        b'{"item":"i1","annotator":"b","label":"\\\\ud800"}]'
    )
    ann = load_annotations(upload(data, "x.json"))
    assert set(ann.categories) == {"\U0001f600", "\\ud800"}


def test_a_toloka_output_nested_past_pythons_parser_is_structured_data():
    deep = "[" * 3000 + "]" * 3000
    data = (
        "INPUT:image\tOUTPUT:result\tASSIGNMENT:assignment_id\tASSIGNMENT:worker_id\n"
        f"img1\t{deep}\ta1\tw1\nimg1\tcat\ta2\tw2\nimg2\tdog\ta3\tw1\nimg2\tdog\ta4\tw2\n"
    ).encode()
    with pytest.raises(AnnotationDataError, match="hold JSON, not a label"):
        load_annotations(upload(data, "toloka.tsv"))


def _label_studio_spans(task_id, labels) -> bytes:
    region = {"from_name": "l", "to_name": "t", "type": "labels",
              "value": {"start": 0, "end": 2, "labels": labels}}  # fmt: skip
    task = {"id": task_id, "data": {"text": "ab cd"},
            "annotations": [{"completed_by": 1, "result": [region]}]}  # fmt: skip
    return json.dumps([task]).encode()


@pytest.mark.parametrize(
    ("data", "what"),
    [
        (_label_studio_spans([1], ["X"]), "document id"),
        (_label_studio_spans(1, [["X"]]), "label"),
        (b'{"text":"ab","spans":[{"start":0,"end":2,"label":"X"}],"answer":"accept",'
         b'"_input_hash":{"a":1},"_annotator_id":"a"}\n', "document id"),
    ],
)  # fmt: skip
def test_a_span_export_with_a_list_for_an_id_or_a_label_names_it(data, what):
    name = "s.jsonl" if data.startswith(b"{") else "s.json"
    with pytest.raises(AnnotationDataError, match=f"a {what} is a list or an object"):
        load_spans(upload(data, name))


@pytest.mark.parametrize(
    ("data", "name"),
    [(b'{"text":"' + b"[" * 100_000 + b'"}\n' + b"[" * 100_000 + b"]" * 100_000, "s.jsonl"),
     (b'[{"id": 1' + b"1" * 5000 + b"}]", "s.json")],
)  # fmt: skip
def test_span_json_is_held_to_the_loaders_limits(data, name):
    with pytest.raises(AnnotationDataError, match=r"max_depth|max_digits"):
        load_spans(upload(data, name))


def test_gold_files_are_read_by_the_loaders_rules():
    # whole numbers without ".0" (JSON 1.0; an integer column with an empty cell), the
    # spreadsheet guard undone, ids stripped, missing tokens missing
    gold = read_gold_labels(upload(b'[{"item":1.0,"label":"x"},{"item":3,"label":null}]', "g.json"))
    assert gold.to_dict() == {"1": "x"}
    data = b"item,label\n q1 ,x\nq2,NA\n'=q4,y\n"
    assert read_gold_labels(upload(data, "g.csv")).to_dict() == {"q1": "x", "=q4": "y"}
    ann = load_annotations(upload(b'[{"item":1,"annotator":"a","label":"x"}]', "d.json"))
    assert list(ann.items) == list(gold.index)


@pytest.mark.parametrize(
    ("data", "match"),
    [
        (b"[{}]", "two columns"),
        (b'[{"item":"q1","label":["x","y"]}]', "label cells hold lists"),
        (b'[{"item":{"a":1},"label":"x"}]', "item cells hold lists"),
        (b'[{"item":1,"label":"x"},{"item":null,"label":"y"}]', "gold label but no item"),
    ],
)
def test_a_gold_file_that_says_nothing_clear_is_refused(data, match):
    with pytest.raises(AnnotationDataError, match=match):
        read_gold_labels(upload(data, "g.json"))


def test_binary_gold_labels_are_refused():
    import pyarrow as pa
    import pyarrow.parquet as pq

    buffer = io.BytesIO()
    pq.write_table(pa.table({"item": ["q1"], "label": pa.array([b"x"])}), buffer)
    with pytest.raises(AnnotationDataError, match="bytes"):
        read_gold_labels(upload(buffer.getvalue(), "g.parquet"))
