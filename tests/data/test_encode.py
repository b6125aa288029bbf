"""analytics.data.encode: a long table into codes, the ingestion behind Annotations.from_frame."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics import AnnotationDataError, Annotations
from analytics.data import DUPLICATE_POLICIES, LabelKind, LoadReport
from analytics.data.encode import encode_frame, one_per_pair, set_codes

ROWS = pd.DataFrame(
    {
        "item": ["i1", "i1", "i2", "i2", "i2", None],
        "annotator": ["a", "b", "a", "b", "a", "c"],
        "label": ["x", "y", "x", None, "y", "x"],
    }
)


def test_from_frame_is_encode_frame_in_a_model():
    enc = encode_frame(ROWS, duplicates="last", name="demo")
    ann = Annotations.from_frame(ROWS, duplicates="last", name="demo")
    for field in ("item_codes", "annotator_codes", "label_codes"):
        np.testing.assert_array_equal(getattr(enc, field), getattr(ann, field))
    for field in ("items", "annotators", "categories"):
        assert list(getattr(enc, field)) == list(getattr(ann, field))
    assert enc.kind is ann.kind is LabelKind.NOMINAL
    assert enc.report == ann.report and ann.name == "demo"


def test_skipped_rows_missing_labels_and_duplicates_are_reported():
    enc = encode_frame(ROWS, duplicates="last")
    assert enc.report.n_missing == 1 and enc.report.n_duplicates == 1
    assert [s.count for s in enc.report.skipped] == [1]
    assert enc.report.skipped[0].rows == (7,)
    # the last of a's two judgements of i2 is kept
    assert enc.label_codes.tolist() == [0, 1, 1]


def test_report_is_completed_not_replaced():
    given = LoadReport(source="f.csv", format="csv", n_rows=9, notes=("read it",), n_missing=2)
    enc = encode_frame(ROWS, duplicates="keep", report=given)
    assert (enc.report.source, enc.report.format, enc.report.n_rows) == ("f.csv", "csv", 9)
    assert enc.report.notes == ("read it",) and enc.report.n_missing == 3


def test_policies_are_listed_and_checked():
    assert DUPLICATE_POLICIES == ("error", "first", "last", "keep")
    with pytest.raises(AnnotationDataError, match="unknown duplicates policy"):
        encode_frame(ROWS, duplicates="mean")
    with pytest.raises(AnnotationDataError, match="there is no label column 'tag'"):
        encode_frame(ROWS, label="tag")


def test_set_codes_number_distinct_rows_in_sorted_order():
    m = np.array([[1, 0], [0, 0], [1, 1], [1, 0]], bool)
    assert set_codes(m).tolist() == [1, 0, 2, 1]
    assert set_codes(np.zeros((0, 3), bool)).tolist() == []


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), max_size=25),
    st.sampled_from(["first", "last"]),
)
def test_one_per_pair_keeps_the_first_or_last_of_each_pair(pairs, keep):
    items = np.array([p[0] for p in pairs], np.int64)
    anns = np.array([p[1] for p in pairs], np.int64)
    mask = one_per_pair(items, anns, 3, keep)
    expected: dict[tuple[int, int], int] = {}
    for i, p in enumerate(pairs):
        if keep == "last" or p not in expected:
            expected[p] = i
    assert np.flatnonzero(mask).tolist() == sorted(expected.values())
