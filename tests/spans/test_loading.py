"""The span data model and the long-table / DataFrame loader: what is kept, what is refused."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics import AnnotationDataError
from analytics.spans import SpanAnnotations, load_spans


def _frame(**extra):
    base = {
        "item": ["d1", "d1", "d1", "d2"],
        "annotator": ["ann", "ann", "bob", "bob"],
        "start": [0, 10, 0, 3],
        "end": [5, 14, 5, 7],
        "label": ["PER", "LOC", "PER", "ORG"],
    }
    base.update(extra)
    return pd.DataFrame(base)


def test_dataframe_keeps_every_span_sorted_with_codes():
    spans = load_spans(_frame())
    assert isinstance(spans, SpanAnnotations)
    assert spans.n_spans == 4 and list(spans.labels) == ["LOC", "ORG", "PER"]
    assert list(spans.spans.columns) == ["item", "annotator", "start", "end", "label"]
    assert spans.spans["start"].dtype == np.int64
    assert spans.items[spans.item_code].tolist() == spans.spans["item"].tolist()
    assert spans.labels[spans.label_code].tolist() == spans.spans["label"].tolist()
    # ann never touched d2: not completed; the report says completion was guessed
    assert spans.completed.tolist() == [[True, True], [False, True]]
    assert any("completed=" in c for c in spans.report.cautions)


def test_completed_adds_documents_left_without_spans():
    spans = load_spans(_frame(), completed={"d2": ["ann"], "d3": ["ann", "bob"]})
    assert list(spans.items) == ["d1", "d2", "d3"]
    assert spans.completed.tolist() == [[True, True], [True, True], [True, True]]
    assert spans.report.cautions == ()


def test_completed_as_frame_and_an_annotator_who_marked_nothing():
    done = pd.DataFrame({"item": ["d2"], "annotator": ["ann"]})
    assert load_spans(_frame(), completed=done).completed[1, 0]
    spans = load_spans(_frame(), completed={"d1": ["eve"]})
    assert list(spans.annotators) == ["ann", "bob", "eve"]
    assert spans.completed[:, 2].tolist() == [True, False]
    with pytest.raises(AnnotationDataError, match="empty"):
        load_spans(_frame(), completed={"d1": [None]})


def test_table_with_empty_rows_records_completion(tmp_path):
    path = tmp_path / "spans.csv"
    path.write_text(
        "item,annotator,start,end,label\nd1,ann,0,5,PER\nd1,bob,,,\nd2,ann,,,\n", encoding="utf-8"
    )
    spans = load_spans(path)
    assert spans.n_spans == 1 and spans.report.format == "table"
    assert spans.completed.tolist() == [[True, True], [True, False]]
    assert spans.report.cautions == ()


@pytest.mark.parametrize(
    ("change", "column", "row"),
    [
        ({"start": [0, 10, "x", 3]}, "start", 4),
        ({"start": [0, 10, 1.5, 3]}, "start", 4),
        ({"end": [5, 14, 5, 3]}, "end", 5),
        ({"end": [5, 14, -1, 7]}, "end", 4),
        ({"label": ["PER", "", "PER", "ORG"]}, "label", 3),
        ({"annotator": ["ann", None, "bob", "bob"]}, "annotator", 3),
    ],
)
def test_bad_offsets_and_fields_are_named(change, column, row):
    with pytest.raises(AnnotationDataError) as info:
        load_spans(_frame(**change))
    assert info.value.column == column and row in info.value.rows


def test_overlapping_spans_of_one_label_by_one_annotator_are_refused():
    df = _frame(start=[0, 3, 0, 3], end=[5, 8, 5, 7], label=["PER", "PER", "PER", "ORG"])
    with pytest.raises(AnnotationDataError, match="overlapping") as info:
        load_spans(df)
    assert info.value.rows == [2, 3]
    # different labels may overlap (nested entities)
    ok = _frame(start=[0, 3, 0, 3], end=[5, 8, 5, 7], label=["PER", "LOC", "PER", "ORG"])
    assert load_spans(ok).n_spans == 4


def test_offsets_are_checked_against_the_text():
    texts = {"d1": "Anna went to Rome.", "d2": "The UN met."}
    assert load_spans(_frame(), text=texts).texts_known
    with pytest.raises(AnnotationDataError, match="past the end") as info:
        load_spans(_frame(end=[5, 14, 5, 70]), text=texts)
    assert info.value.rows == [5]


def test_an_offset_inside_a_character_is_named():
    # 'e' + combining acute: offset 2 would cut the accent from its letter
    texts = {"d1": "Ine\u0301s and Rome", "d2": "The UN met."}
    with pytest.raises(AnnotationDataError, match="cuts a character"):
        load_spans(_frame(start=[0, 10, 0, 3], end=[3, 14, 5, 7]), text=texts)


def test_text_that_differs_between_annotators_is_named():
    df = _frame(text=["Anna went to Rome.", "Anna went to Rome.", "Anna went to Rome!", "x" * 9])
    with pytest.raises(AnnotationDataError, match="differs") as info:
        load_spans(df)
    assert info.value.rows == [4] and info.value.column == "text"


def test_missing_column_is_named():
    with pytest.raises(AnnotationDataError, match="'label'"):
        load_spans(_frame().drop(columns="label"))


def test_lengths_use_text_else_last_end():
    spans = load_spans(_frame(), text={"d1": "Anna went to Rome."})
    assert spans.lengths().tolist() == [18, 7]


def test_table_round_trip(tmp_path):
    spans = load_spans(
        _frame(),
        completed={"d2": ["ann"], "d3": ["bob"]},
        text={"d1": "Anna went to Rome.", "d2": "The UN met.", "d3": "Nothing."},
    )
    path = tmp_path / "out.csv"
    spans.to_frame(with_text=True).to_csv(path, index=False)
    again = load_spans(path)
    pd.testing.assert_frame_equal(spans.spans, again.spans)
    assert np.array_equal(spans.completed, again.completed)
    assert spans.texts.tolist() == again.texts.tolist() and again.report.cautions == ()


def test_an_empty_table_gives_undefined_measures_with_reasons():
    from analytics.spans import gold_spans, span_f1, unitizing_alpha

    spans = load_spans(b"item,annotator,start,end,label,text\n", format="table")
    assert spans.n_items == 0
    assert np.isnan(span_f1(spans).f1) and span_f1(spans).f1.reason
    assert np.isnan(unitizing_alpha(spans)) and unitizing_alpha(spans).reason
    assert gold_spans(spans).empty


_cell = st.sampled_from(
    ["", "d1", "a", "0", "3", "-1", "1.5", "x", "PER", "  ", "nan", "NA", "9999"]
)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(_cell, min_size=6, max_size=6), max_size=6), st.booleans())
def test_any_table_loads_or_gives_a_named_error(rows, with_text):
    head = "item,annotator,start,end,label" + (",text" if with_text else "")
    body = "\n".join(",".join(r[: 6 if with_text else 5]) for r in rows)
    try:
        load_spans((head + "\n" + body).encode(), format="table")
    except AnnotationDataError as exc:
        assert exc.source == "<bytes>"


def test_bytes_are_named_by_name_and_an_empty_file_is_called_empty():
    for data in (b"", b" \n\n"):
        with pytest.raises(AnnotationDataError) as info:
            load_spans(data, name="mine.csv")
        assert str(info.value) == (
            "file 'mine.csv': the file is empty. Give a file with a header row and data rows, "
            "or a tool's export."
        )
    with pytest.raises(AnnotationDataError) as info:
        load_spans(b"a,b\n1,2\n", name="mine.csv")
    assert str(info.value).startswith("file 'mine.csv': no column 'item'")
    assert str(info.value).endswith(
        "label. Rename the columns, or choose the tool's export format."
    )


def test_an_empty_document_is_a_known_empty_text_not_an_unknown_one():
    """One document with text "" and no span turned off every text feature for the file."""
    import io

    csv = (
        "item,annotator,start,end,label,text\n"
        'd1,a,0,5,PER,"Alice met Bob."\n'
        'd1,b,0,5,PER,"Alice met Bob."\n'
        'd2,a,,,,""\n'
        'd2,b,,,,""\n'
    )
    spans = load_spans(io.StringIO(csv))
    assert spans.texts_known and spans.texts.tolist() == ["Alice met Bob.", ""]
    # a blank text cell on a row with a span still means "not given on this row"
    partial = "item,annotator,start,end,label,text\nd1,a,0,5,PER,Alice met Bob.\nd1,b,0,5,PER,\n"
    assert load_spans(io.StringIO(partial)).texts.tolist() == ["Alice met Bob."]


def test_ids_in_completed_and_texts_match_the_table_s_text_ids():
    """A CSV's ids are text: completed={2: ...} and text={1: ...} name '2' and '1'."""
    from analytics.spans import span_f1

    csv = b"item,annotator,start,end,label\n1,a,0,3,X\n1,b,0,3,X\n2,a,0,3,X\n"
    spans = load_spans(
        csv, format="table", text={1: "abc def", 2: "xyz uvw"}, completed={2: ["a", "b"]}
    )
    assert spans.items.tolist() == ["1", "2"]  # no phantom document 2 beside '2'
    assert spans.texts.tolist() == ["abc def", "xyz uvw"]
    # b finished document 2 and marked nothing there: one of a's two spans is unmatched
    assert float(span_f1(spans).f1) == pytest.approx(2 / 3)
    with pytest.raises(AnnotationDataError, match=r"texts= names no document of the table"):
        load_spans(csv, format="table", text={7: "abc"})


def test_spaces_around_ids_and_labels_are_removed_and_said():
    from analytics.spans import span_f1

    csv = b"item,annotator,start,end,label\nd,a,0,3,PER\nd,b,0,3, PER\nd,a ,4,7,LOC\nd,b,4,7,LOC\n"
    spans = load_spans(csv, format="table")
    assert spans.annotators.tolist() == ["a", "b"] and spans.labels.tolist() == ["LOC", "PER"]
    assert float(span_f1(spans).f1) == 1.0  # had been 0 for every pair
    (said,) = [c for c in spans.report.cautions if c.startswith("Spaces around names")]
    assert "1 annotator name: 'a '" in said and "1 label: ' PER'" in said
    assert repr(spans).endswith("1 document, 2 annotators, 4 spans, 2 labels)")
