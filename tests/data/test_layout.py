"""analytics.data.layout: which column is which, long or wide form, label-set separators."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError
from analytics.data import ROLE_SYNONYMS, LoadReport, detect_columns
from analytics.data.layout import detect_separator, to_long


def test_every_role_has_synonyms_including_its_own_name():
    assert set(ROLE_SYNONYMS) == {"item", "annotator", "label"}
    assert all(role in names for role, names in ROLE_SYNONYMS.items())


def test_detect_columns_by_synonym_and_by_name():
    assert detect_columns(["Task ID", "worker", "OUTPUT:answer"]) == {
        "item": "Task ID",
        "annotator": "worker",
        "label": "OUTPUT:answer",
    }
    assert detect_columns(["a", "b", "c"], item="a", annotator="b", label="c") == {
        "item": "a",
        "annotator": "b",
        "label": "c",
    }
    # the role's own name wins over another synonym; a golden column is never the label
    assert detect_columns(["id", "item", "GOLDEN:label"])["item"] == "item"
    assert detect_columns(["id", "item", "GOLDEN:label"])["label"] is None


def test_detect_columns_errors_name_the_problem():
    with pytest.raises(AnnotationDataError, match="there is no column 'who'"):
        detect_columns(["item", "label"], annotator="who")
    with pytest.raises(AnnotationDataError, match="several columns could hold the annotator"):
        detect_columns(["item", "worker", "rater", "label"])


def _long(df, **named):
    args = {"item": None, "annotator": None, "label": None, "layout": None, **named}
    return to_long(df, np.arange(2, len(df) + 2), LoadReport(source="t.csv"), **args)


def test_to_long_keeps_long_data_and_says_why():
    df = pd.DataFrame({"item": [1, 2], "annotator": ["a", "b"], "label": ["x", "y"]})
    long, rows, columns, layout, why, cautions = _long(df)
    assert layout == "long" and rows.tolist() == [2, 3] and cautions == []
    assert list(long.columns) == ["item", "annotator", "label"]
    assert columns == {"item": "item", "annotator": "annotator", "label": "label"}
    assert why.startswith("Long form")


def test_to_long_melts_wide_data_row_by_row():
    df = pd.DataFrame({"item": ["q1", "q2"], "r1": ["x", None], "r2": ["y", "x"]})
    long, rows, columns, layout, _, _ = _long(df)
    assert layout == "wide" and columns == {"item": "item", "annotators": ["r1", "r2"]}
    assert long["item"].tolist() == ["q1", "q1", "q2", "q2"]
    assert long["annotator"].tolist() == ["r1", "r2", "r1", "r2"]
    assert rows.tolist() == [2, 2, 3, 3]


def test_to_long_refuses_repeated_ids_in_wide_data_and_unknown_layouts():
    df = pd.DataFrame({"item": ["q1", "q1"], "r1": ["x", "y"]})
    with pytest.raises(AnnotationDataError, match="item ids repeat"):
        _long(df, layout="wide")
    with pytest.raises(AnnotationDataError, match="unknown layout"):
        _long(df, layout="diagonal")


def test_detect_separator_needs_a_fifth_of_text_cells():
    # issue 13: the share was 2%, so two "A|B" cells in 100 made a file multi-label
    cells = np.array(["a;b"] * 10 + ["a"] * 40 + [None, "NA"], dtype=object)
    assert detect_separator(cells) == ";"  # 10 of 50 text cells (missing ones not counted)
    assert detect_separator(np.array(["a;b"] * 9 + ["a"] * 41, dtype=object)) is None
    assert detect_separator(np.array(["A|B"] * 2 + ["A", "B", "C"] * 33, dtype=object)) is None
    assert detect_separator(np.array([1, 2], dtype=object)) is None


def test_detect_separator_needs_parts_that_are_labels_themselves():
    # parts seen alone, or in two different multi-part cells, are labels: split
    assert detect_separator(np.array(["a|b", "b|c", "a", "d"], dtype=object)) == "|"
    assert detect_separator(np.array(["x;y", "x;z", "w;y"], dtype=object)) == ";"
    # free text whose pieces never recur is not a label set
    prose = np.array(["see above; unclear", "fine; I think", "yes", "no"], dtype=object)
    assert detect_separator(prose) is None
    assert detect_separator(np.array(["a|b", "c"], dtype=object)) is None


def test_an_explicit_empty_set_is_signal_enough_for_a_rare_separator():
    cells = np.array(["a;b"] + ["a", "b"] * 10 + ["{}"], dtype=object)
    assert detect_separator(cells) == ";"  # 1 of 22 cells, but '{}' says: label sets
    assert detect_separator(cells[:-1]) is None


def test_detect_separator_ignores_the_chosen_missing_tokens():
    cells = np.array(["a;b", "a", "b"] + ["none"] * 20, dtype=object)
    assert detect_separator(cells) == ";"  # 'none' is missing: 1 of 3 text cells
    assert detect_separator(cells, frozenset({""})) is None  # 'none' a label: 1 of 23


def test_a_wide_annotator_column_with_no_label_is_named_not_silently_dropped():
    from analytics import load_annotations

    wide = pd.DataFrame(
        {
            "item": ["i1", "i2", "i3"],
            "r1": ["a", "a", "b"],
            "r2": ["b", "a", "b"],
            "r3": [None, "", "NA"],
        }
    )
    ann = load_annotations(wide)
    assert list(ann.annotators) == ["r1", "r2"]
    said = " ".join(ann.report.cautions)
    assert "1 annotator column holds no label at all ('r3')" in said
    full = load_annotations(wide.assign(r3=["a", "b", "b"]))
    assert not any("no label at all" in c for c in full.report.cautions)


def test_a_load_that_leaves_one_annotator_says_what_cannot_be_computed():
    from analytics import load_annotations

    one = load_annotations(pd.DataFrame({"item": [1, 2], "annotator": "a", "label": ["x", "y"]}))
    assert any("Only one annotator ('a')" in w for w in one.report.warnings())
    two = load_annotations(pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": "x"}))
    assert not any("Only one annotator" in w for w in two.report.warnings())


def test_a_skip_note_names_each_row_once():
    """Three skipped entries of two Label Studio tasks read "(rows 1, 1, 2)"."""
    from analytics.data.load_report import SkipNote

    assert str(SkipNote("entries", 3, (1, 1, 2))) == "3 skipped: entries (rows 1, 2)"
    assert str(SkipNote("one", 2, (4, 4))) == "2 skipped: one (row 4)"


def test_a_contingency_table_read_as_wide_form_is_named():
    import io

    from analytics import load_annotations

    text = "rater1,pos,neg\npos,10,2\nneg,3,5\n"
    wide = load_annotations(io.StringIO(text), format="csv")
    assert any("two-rater contingency table" in w for w in wide.report.warnings())
    assert load_annotations(io.StringIO(text), format="csv", layout="contingency").n_items == 20
    # a wide table whose annotators are not its row names is not one
    plain = load_annotations(io.StringIO("item,a,b\ni1,1,2\ni2,3,5\n"), format="csv")
    assert not any("contingency" in w for w in plain.report.warnings())
