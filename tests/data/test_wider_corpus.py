"""Inputs found by a fuzz campaign outside the repository (issue 13's "wider corpus"):
each crashed with another exception type, or loaded something the file does not say."""

from __future__ import annotations

import io
import json

import pandas as pd
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
    with pytest.raises(AnnotationDataError, match="1 cell holds JSON, not a label"):
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


@pytest.mark.parametrize(
    ("text", "layout"),
    [("item,a,b\ni1,1000000000,1\n", "counts"), (f"r,a,b\na,{2**63},0\nb,0,1\n", "contingency")],
)
def test_a_tiny_count_table_cannot_ask_for_gigabytes(text, layout):
    """A count of 10**9 asked for 7.5 GiB; 2**63 overflowed to a negative repeat."""
    with pytest.raises(AnnotationDataError, match="max_cells"):
        load_annotations(upload(text.encode(), "t.csv"), layout=layout)


def _parquet(table) -> io.BytesIO:
    import pyarrow.parquet as pq

    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    return upload(buffer.getvalue(), "x.parquet")


def test_a_stored_pandas_index_is_read_as_columns_and_repeated_names_are_named():
    import pyarrow as pa

    df = pd.DataFrame({"item": ["i1", "i1", "i2", "i2"], "annotator": ["a", "b"] * 2,
                       "label": ["x", "y", "x", "y"], "id": [1, 2, 3, 4]})  # fmt: skip
    buffer = io.BytesIO()
    df.set_index("item").to_parquet(buffer)
    ann = load_annotations(upload(buffer.getvalue(), "x.parquet"))
    assert list(ann.items) == ["i1", "i2"]  # not the id column, 4 items
    table = pa.table([pa.array(["i1"]), pa.array(["a"]), pa.array(["x"]), pa.array(["y"])],
                     names=["item", "annotator", "label", "label"])  # fmt: skip
    with pytest.raises(AnnotationDataError, match="more than one column named 'label'"):
        load_annotations(_parquet(table))


def test_parquet_text_that_is_not_utf8_names_its_column():
    import pyarrow as pa

    good = pa.array(["x", "y"], pa.string())
    data, offsets = b"x\xff", good.buffers()[1]
    bad = pa.Array.from_buffers(pa.string(), 2, [None, offsets, pa.py_buffer(data)])
    table = pa.table({"item": ["i1", "i1"], "annotator": ["a", "b"], "label": bad})
    with pytest.raises(AnnotationDataError, match="not valid UTF-8") as info:
        load_annotations(_parquet(table))
    assert "column 'label'" in str(info.value)


BIG = 1234567890123456789


@pytest.mark.parametrize("fmt", ["json", "jsonl", "parquet"])
def test_big_integer_ids_beside_an_empty_cell_stay_distinct(fmt):
    """float64 merged 1234567890123456789 and ...788 into one item named neither."""
    import pyarrow as pa

    records = [{"item": BIG, "annotator": "a", "label": "x"},
               {"item": BIG - 1, "annotator": "a", "label": "y"},
               {"item": None, "annotator": "b", "label": "y"}]  # fmt: skip
    if fmt == "parquet":
        source = _parquet(pa.Table.from_pylist(records))
    elif fmt == "json":
        source = upload(json.dumps(records).encode(), "x.json")
    else:
        lines = "\n".join(json.dumps(r) for r in records) + "\n"
        source = upload(lines.encode(), "x.jsonl")
    ann = load_annotations(source)
    assert sorted(ann.items) == sorted([str(BIG), str(BIG - 1)])


def test_unsigned_labels_past_int64_are_not_wrapped_to_negative():
    import pyarrow as pa

    table = pa.table({"item": ["i1", "i1", "i2"], "annotator": ["a", "b", "a"],
                      "label": pa.array([1, 2**64 - 1, 1], pa.uint64())})  # fmt: skip
    ann = load_annotations(_parquet(table))
    assert min(float(c) for c in ann.categories) >= 0


def test_a_repeated_header_row_is_refused_with_its_row():
    data = b"item,annotator,label\ni1,a,x\ni1,b,y\nitem,annotator,label\ni2,a,x\ni2,b,x\n"
    with pytest.raises(AnnotationDataError, match="1 row repeats the header row") as info:
        load_annotations(upload(data, "joined.csv"))
    assert "row 4" in str(info.value)
    # a real item named "item" with other cells is data
    ann = load_annotations(upload(b"item,annotator,label\nitem,a,x\nitem,b,y\n", "ok.csv"))
    assert list(ann.items) == ["item"]


OPTIONS_DATA = b"item,annotator,label\ni1,a,1\ni1,b,2\ni2,a,1\ni2,b,3\n"


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"categories": [1, 2, None, 3]}, "not a category name"),
        ({"categories": [1, 2, 3, 10**400]}, "too large"),
        ({"categories": "123"}, "list of category names"),
        ({"missing": "NA"}, "list of texts"),
        ({"multilabel_sep": 5}, "multilabel_sep= must be text"),
        ({"format": 5}, "format= must be text"),
        ({"limits": 5}, r"Limits\(\.\.\.\)"),
        ({"tool_options": [1]}, "dict of option names"),
        ({"item": "item", "annotator": "item"}, "name the same column"),
        ({"max_bytes": 0}, "max_bytes="),
    ],
)
def test_an_option_of_the_wrong_kind_is_named(options, match):
    """Each crashed deep inside (TypeError, AttributeError, OverflowError) or, for text
    given where a list belongs, was read one character at a time."""
    with pytest.raises(AnnotationDataError, match=match):
        load_annotations(upload(OPTIONS_DATA, "t.csv"), **options)


def test_categories_do_not_apply_to_a_contingency_table():
    with pytest.raises(AnnotationDataError, match="contingency"):
        load_annotations(
            upload(b"r,x,y\nx,1,0\ny,0,2\n", "t.csv"), layout="contingency", categories=["z"]
        )


@pytest.mark.parametrize(
    ("data", "match"),
    [
        (b"item,annotator,start,end,label\nd1,a,1e20,1e21,PER\nd1,b,0,4,PER\n", "2\\*\\*53"),
        (b"item,annotator,start,end,label,label\nd1,a,0,4,PER,LOC\nd1,b,0,4,PER,LOC\n",
         "names the column 'label' more than once"),
        (b"item,annotator,start,end,label\nd1,a,0,4,P\x00ER\nd1,b,0,4,PER\n", "NUL byte"),
    ],
)  # fmt: skip
def test_a_span_table_that_would_load_wrong_is_refused(data, match):
    """A start of 1e29 became -9223372036854775808; a second label column vanished as
    'label.1'; a NUL byte stayed inside a label."""
    with pytest.raises(AnnotationDataError, match=match):
        load_spans(upload(data, "s.csv"))


def test_many_sheets_with_one_cell_far_down_are_named_quickly():
    """openpyxl yields every empty row of a gap: 100 such sheets took 28 s. Only the
    first 10,000 rows of another sheet are walked; a sheet with values further down is
    named all the same (its speed is not timed here)."""
    from openpyxl import Workbook

    book = Workbook()
    first = book.active
    for row in (["item", "annotator", "label"], ["i1", "a", "x"], ["i1", "b", "y"]):
        first.append(row)
    for k in range(3):
        book.create_sheet(f"far {k}")["A1048576"] = "z"
    buffer = io.BytesIO()
    book.save(buffer)
    ann = load_annotations(upload(buffer.getvalue(), "far.xlsx"))
    assert "far 0" in " ".join(ann.report.cautions)  # named, not taken for empty


def test_csv_labels_of_more_than_15_digits_stay_text():
    """Through float64, 12345678901234567891 and ...892 became one category."""
    data = (
        b"item,annotator,label\ni1,a,12345678901234567891\ni1,b,12345678901234567892\n"
        b"i2,a,3\ni2,b,3\n"
    )
    ann = load_annotations(upload(data, "t.csv"))
    assert ann.n_categories == 3
    assert "12345678901234567891" in set(map(str, ann.categories))
    small = load_annotations(upload(b"item,annotator,label\ni1,a,1\ni1,b,2\n", "s.csv"))
    assert small.n_categories == 2 and "whole-number codes" in small.report.kind_reason


def test_parquet_row_positions_are_dropped_and_an_index_of_ids_is_kept():
    """A filtered frame stores its row positions as an unnamed integer index (not data);
    an unnamed index of text ids is the items, read as the column "index"."""
    df = pd.DataFrame({"item": ["a", "b", "c"], "w1": ["x", "y", "x"], "w2": ["x", "x", "y"]})
    buffer = io.BytesIO()
    df[df["item"] != "b"].to_parquet(buffer)  # index [0, 2]
    ann = load_annotations(upload(buffer.getvalue(), "f.parquet"))
    assert list(ann.annotators) == ["w1", "w2"]
    ids = df.set_index("item")
    ids.index.name = None
    buffer = io.BytesIO()
    ids.to_parquet(buffer)
    ann = load_annotations(upload(buffer.getvalue(), "i.parquet"))
    assert sorted(ann.items) == ["a", "b", "c"]
    assert any("pandas index" in note for note in ann.report.notes)


def test_categories_and_missing_may_be_generators():
    """The option check used a generator up, leaving the loader an empty list."""
    data = b"item,annotator,label\ni1,a,x\ni1,b,y\ni2,a,NA\n"
    ann = load_annotations(
        upload(data, "t.csv"), categories=(c for c in ["x", "y"]), missing=(m for m in ["NA"])
    )
    assert list(ann.categories) == ["x", "y"] and ann.report.n_missing == 1


def test_a_repeated_column_a_span_table_does_not_use_is_left_alone():
    data = b"item,annotator,start,end,label,notes,notes\nd1,a,0,4,PER,,\nd1,b,0,4,PER,,\n"
    spans = load_spans(upload(data, "s.csv"))
    assert spans.n_spans == 2


def _with_slash_path(fmt: str) -> io.BytesIO:
    """The Label Studio fixture with task 101's ["Sports", "Football"] answered once as the
    one-name path ["Sports/Football"]."""
    from tests.helpers.paths import FIXTURES

    name = "label_studio_export.json" if fmt == "full" else "label_studio_export_min.json"
    records = json.loads((FIXTURES / name).read_text())
    if fmt == "full":
        records[0]["annotations"][2]["result"][-1]["value"]["taxonomy"] = [["Sports/Football"]]
    else:
        records[2]["category"] = [{"taxonomy": [["Sports/Football"]]}]
    return upload(json.dumps(records).encode(), "project.json")


@pytest.mark.parametrize("fmt", ["full", "min"])
def test_taxonomy_paths_that_join_to_one_name_are_refused(fmt):
    """Paths are joined with "/": ["Sports/Football"] and ["Sports", "Football"] were both
    the category Sports/Football, two answers merged without a word."""
    with pytest.raises(AnnotationDataError, match="both read as the category 'Sports/Football'"):
        load_annotations(_with_slash_path(fmt), tool_options={"from_name": "category"})
    # a name holding "/" that no other path joins to is read as it is
    records = json.loads(_with_slash_path(fmt).getvalue())
    text = json.dumps(records).replace('"Business", "Markets"', '"Business/Markets"')
    text = text.replace('"Sports/Football"', '"Sports", "Football"')
    ann = load_annotations(upload(text.encode(), "p.json"), tool_options={"from_name": "category"})
    assert "Business/Markets" in list(ann.categories)
