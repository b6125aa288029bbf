"""A review of how cells are read: nothing dropped, stringified or merged without a word.

Each test is one finding of the loader review: a count-table row of zeros, Parquet
decimals, booleans beside text, numbers written two ways beside text, blank parts of
label lists, ids that look alike on screen, and a Parquet column with no name.
"""

from __future__ import annotations

import io
import json
from decimal import Decimal

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from openpyxl import Workbook

from analytics import AnnotationDataError, load_annotations
from analytics.data.cells import label_set
from analytics.data.count_tables import from_count_table
from analytics.data.encode import look_alike_ids


def _upload(data: bytes | str, name: str) -> io.BytesIO:
    buf = io.BytesIO(data.encode() if isinstance(data, str) else data)
    buf.name = name
    return buf


def _parquet(table: pa.Table) -> io.BytesIO:
    buf = io.BytesIO()
    pq.write_table(table, buf)
    return _upload(buf.getvalue(), "x.parquet")


def _xlsx(rows: list[list]) -> io.BytesIO:
    book = Workbook()
    for row in rows:
        book.active.append(row)
    buf = io.BytesIO()
    book.save(buf)
    return _upload(buf.getvalue(), "x.xlsx")


def _json(records: list[dict]) -> io.BytesIO:
    return _upload(json.dumps(records), "x.json")


# ------------------------------------------------------------ 1. count-table rows of zeros
def test_a_count_table_row_of_zeros_is_counted_and_skipped_with_its_reason():
    ann = load_annotations(io.StringIO("item,a,b\ni1,0,0\ni2,2,1\n"), format="csv", layout="counts")
    rep = ann.report
    assert list(ann.items) == ["i2"]
    assert rep.n_rows == 2 and rep.n_skipped == 1
    (note,) = rep.skipped
    assert "counts no rater" in note.reason and note.rows == (2,)
    assert rep.layout_reason.startswith("Count table: 1 item x 2 categories (2 rows, 1 of them")
    assert str(note) in rep.warnings()


def test_a_count_table_of_arrays_names_the_zero_row_by_its_position():
    ann = from_count_table(np.array([[1, 2], [0, 0], [3, 0]]))
    assert list(ann.items) == ["1", "3"] and ann.n_judgements == 6
    assert ann.report.skipped[0].rows == (2,)


def test_a_count_table_without_zero_rows_reports_no_skip():
    ann = from_count_table(pd.DataFrame({"yes": [2, 0], "no": [1, 3]}))
    assert ann.report.skipped == () and "2 items x 2 categories;" in ann.report.layout_reason


# ------------------------------------------------------------ 2. Parquet decimals
def test_parquet_decimal_labels_are_numbers_as_in_csv():
    dec = pa.array([Decimal(v) for v in ("1.00", "1.50", "2.00", "1.00")], pa.decimal128(5, 2))
    table = pa.table({"item": ["1", "1", "2", "2"], "annotator": list("abab"), "label": dec})
    from_parquet = load_annotations(_parquet(table))
    from_csv = load_annotations(
        io.StringIO("item,annotator,label\n1,a,1.00\n1,b,1.50\n2,a,2.00\n2,b,1.00\n"), format="csv"
    )
    assert list(from_parquet.categories) == list(from_csv.categories) == [1.0, 1.5, 2.0]
    assert from_parquet.kind == from_csv.kind
    assert not any("decimals" in n for n in from_parquet.report.notes)


def test_parquet_decimal_ids_read_as_written_and_long_decimals_get_a_note():
    table = pa.table(
        {
            "item": pa.array(
                [Decimal("1.00"), Decimal("1.00"), Decimal("2.50"), None], pa.decimal128(5, 2)
            ),
            "annotator": list("abab"),
            "label": pa.array([Decimal("1.5")] * 4, pa.decimal128(20, 1)),
        }
    )
    ann = load_annotations(_parquet(table))
    assert list(ann.items) == ["1.00", "2.50"]
    assert ann.report.n_skipped == 1  # the null item id: a counted skip, as an empty cell
    assert any("decimals of up to 20 digits" in n for n in ann.report.notes)


def test_decimal_objects_in_a_dataframe_are_numbers():
    df = pd.DataFrame(
        {"item": [1, 1, 2], "annotator": list("aba"), "label": [Decimal("0.5"), Decimal("1"), None]}
    )
    assert list(load_annotations(df).categories) == [0.5, 1.0]


# ------------------------------------------------------------ 3. booleans beside other values
def test_excel_booleans_beside_text_are_kept_apart_with_a_caution():
    ann = load_annotations(
        _xlsx([["item", "annotator", "label"], [1, "a", True], [1, "b", "TRUE"], [2, "a", False]])
    )
    assert list(ann.categories) == ["True", "TRUE", "False"]
    (caution,) = [c for c in ann.report.cautions if "booleans" in c]
    assert "'TRUE'" in caution and "one type" in caution


def test_json_booleans_beside_numbers_get_a_caution_and_booleans_alone_none():
    mixed = [
        {"item": 1, "annotator": "a", "label": True},
        {"item": 1, "annotator": "b", "label": 1},
        {"item": 2, "annotator": "a", "label": False},
        {"item": 2, "annotator": "b", "label": 0},
    ]
    ann = load_annotations(_json(mixed))
    assert any("booleans" in c and "'1'" in c for c in ann.report.cautions)
    alone = [{**r, "label": bool(r["label"])} for r in mixed]
    assert not any("booleans" in c for c in load_annotations(_json(alone)).report.cautions)


# ------------------------------------------------------------ 4. one number written two ways
def test_one_number_written_two_ways_beside_text_is_named():
    csv = "item,annotator,label\n1,a,1\n1,b,1.0\n2,a,2\n2,b,2\n3,a,other\n3,b,other\n"
    ann = load_annotations(io.StringIO(csv), format="csv")
    assert list(ann.categories) == ["1", "1.0", "2", "other"]
    (caution,) = ann.report.cautions
    assert "'1', '1.0'" in caution and "'other'" in caution and "kept apart" in caution


def test_numbers_written_one_way_beside_text_get_no_caution():
    csv = "item,annotator,label\n1,a,1\n1,b,2\n2,a,other\n2,b,1\n"
    ann = load_annotations(io.StringIO(csv), format="csv")
    assert ann.report.cautions == ()
    declared = load_annotations(
        io.StringIO("item,annotator,label\n1,a,1\n1,b,1.0\n2,a,x\n"),
        format="csv",
        categories=["1", "1.0", "x"],
    )
    assert declared.report.cautions == ()  # the user wrote both: nothing to say


# ------------------------------------------------------------ 5. blank parts of label sets
def test_a_blank_element_of_a_label_list_is_dropped_as_the_csv_split_drops_it():
    records = [
        {"item": 1, "annotator": "a", "label": ["", "x"]},
        {"item": 1, "annotator": "b", "label": ["x"]},
        {"item": 2, "annotator": "a", "label": [" ", "y"]},
        {"item": 2, "annotator": "b", "label": ["y"]},
    ]
    from_json = load_annotations(_json(records))
    from_csv = load_annotations(
        io.StringIO("item,annotator,label\n1,a,;x\n1,b,x\n2,a,y;\n2,b,y\n"), format="csv"
    )
    assert list(from_json.categories) == list(from_csv.categories) == ["x", "y"]
    assert any(n.startswith("2 empty parts of label sets") for n in from_json.report.notes)
    assert any(n.startswith("2 empty parts of label sets") for n in from_csv.report.notes)
    assert (from_json.label_matrix == from_csv.label_matrix).all()


def test_label_set_drops_blank_and_null_elements():
    assert label_set(["", " x ", None, float("nan")], None) == frozenset({"x"})
    assert label_set(";x", ";") == label_set(["", "x"], ";") == frozenset({"x"})


# ------------------------------------------------------------ 6. ids that look alike
@pytest.mark.parametrize(
    ("twin", "shown"),
    [("q1\u200b", "'q1\\u200b'"), ("\ufeffq1", "'\\ufeffq1'"), ("q1\u00ad", "'q1\\xad'")],
)
def test_an_id_with_an_invisible_character_is_named_in_a_caution(twin, shown):
    ann = load_annotations(
        io.StringIO(f"item,annotator,label\nq1,a,x\n{twin},b,y\nq2,a,x\n"), format="csv"
    )
    assert ann.n_items == 3  # kept apart: nothing guessed
    (caution,) = [c for c in ann.report.cautions if "look" in c]
    assert caution.startswith("1 item id looks the same") and shown in caution


def test_ids_in_nfc_and_nfd_are_named_for_annotators_too():
    csv = "item,annotator,label\n1,caf\u00e9,x\n1,cafe\u0301,y\n2,caf\u00e9,x\n"
    ann = load_annotations(io.StringIO(csv), format="csv")
    (caution,) = ann.report.cautions
    assert "annotator id" in caution and "'cafe\\u0301' and 'caf\\xe9'" in caution


def test_ascii_and_distinct_unicode_ids_give_no_caution():
    assert look_alike_ids(pd.Index(["q1", "q2", "q3"], dtype="str")) is None
    assert look_alike_ids(pd.Index(["caf\u00e9", "na\u00efve", "\u732b"], dtype="str")) is None
    both = pd.Index(["q1\u200b", "q1\ufeff", "z"], dtype=object)  # alike, neither plain
    assert look_alike_ids(both) == (2, ["q1\u200b", "q1\ufeff"])


def test_joined_emoji_and_scripts_that_join_are_not_look_alikes():
    """U+200D between two emoji draws one emoji (a family), U+200C in a Persian word
    changes the letters' shapes: both are seen, so no caution; beside ASCII they are not."""
    family, three = "\U0001f468\u200d\U0001f469\u200d\U0001f467", "\U0001f468\U0001f469\U0001f467"
    assert look_alike_ids(pd.Index([family, three], dtype="str")) is None
    persian = pd.Index(
        [
            "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
            "\u0645\u06cc\u062e\u0648\u0627\u0647\u0645",
        ],
        dtype="str",
    )
    assert look_alike_ids(persian) is None
    for lone in ("q1\u200d", "\u200dq1", "q\u200c1", "\u200d\u200cq1"):
        assert look_alike_ids(pd.Index(["q1", lone], dtype="str")) == (1, [lone, "q1"])
    assert look_alike_ids(pd.Index(["\u732b\u200d", "\u732b"], dtype="str")) == (
        1,
        ["\u732b\u200d", "\u732b"],
    )


# ------------------------------------------------------------ 7. a Parquet column with no name
def test_a_parquet_column_without_a_name_holding_data_is_refused_by_position():
    columns = [
        pa.array(["1", "1"]),
        pa.array(["a", "b"]),
        pa.array(["x", "y"]),
        pa.array(["p", None]),
    ]
    table = pa.Table.from_arrays(columns, names=["item", "annotator", "label", ""])
    with pytest.raises(AnnotationDataError, match="column number 4 has no name and holds data"):
        load_annotations(_parquet(table))


def test_an_empty_parquet_column_without_a_name_is_shown_as_no_name():
    columns = [
        pa.array(["1", "1"]),
        pa.array(["a", "b"]),
        pa.array(["x", "y"]),
        pa.nulls(2, pa.string()),
    ]
    table = pa.Table.from_arrays(columns, names=["item", "annotator", "label", " "])
    ann = load_annotations(_parquet(table))
    assert ann.report.layout_reason.endswith("Other columns ignored: (no name).")


def _json_upload(records):
    buf = io.BytesIO(json.dumps(records).encode())
    buf.name = "labels.json"
    return buf


@pytest.mark.parametrize(
    ("label", "match"),
    [([True, "x"], "holds True, a bool"), ([["a"], "x"], r"holds \['a'\], a list")],
)
def test_a_list_of_labels_names_the_element_that_is_no_label(label, match):
    """The message had been "the label cells hold lists or objects", though lists of
    labels are read: the fault is one element, which it now names."""
    records = [{"item": 1, "annotator": "a", "label": label},
               {"item": 1, "annotator": "b", "label": ["x"]}]  # fmt: skip
    with pytest.raises(AnnotationDataError, match=match) as info:
        load_annotations(_json_upload(records))
    assert info.value.column == "label" and info.value.rows == [1]


def test_a_null_in_a_list_of_labels_is_an_empty_part_as_in_csv():
    records = [{"item": 1, "annotator": "a", "label": ["x", None]},
               {"item": 1, "annotator": "b", "label": ["x"]}]  # fmt: skip
    ann = load_annotations(_json_upload(records))
    assert list(ann.categories) == ["x"]
    assert any("empty part" in n for n in ann.report.notes)


def test_an_unnamed_first_column_hints_at_pandas_and_r_tables():
    with pytest.raises(AnnotationDataError, match=r"R's write\.csv"):
        load_annotations(io.StringIO(",a,b\na,3,1\nb,0,4\n"), format="csv", layout="contingency")
