"""Parquet text columns of few values are read as dictionaries: same data, same result."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics import AnnotationDataError, load_annotations
from analytics.data.codes import category_codes
from analytics.data.parquet_file import few_valued_text, read_parquet


def _bytes(table: pa.Table, **options) -> bytes:
    buf = io.BytesIO()
    pq.write_table(table, buf, **options)
    return buf.getvalue()


def _upload(data: bytes) -> io.BytesIO:
    buf = io.BytesIO(data)
    buf.name = "x.parquet"
    return buf


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-1, 6), max_size=60), st.integers(0, 3))
def test_category_codes_are_factorize_of_the_values(codes, spare):
    n = max(codes, default=-1) + 1 + spare
    codes = np.array(codes, np.int8)
    values = pd.Categorical.from_codes(codes, [f"c{k}" for k in range(n)])
    expected_codes, expected_uniques = pd.factorize(np.asarray(values, object))
    new, order = category_codes(codes, n)
    assert new.tolist() == expected_codes.tolist()
    assert [f"c{k}" for k in order] == list(expected_uniques)


def test_only_top_level_text_with_small_dictionaries_is_chosen():
    n = 60_000
    table = pa.table(
        {
            "item": [f"item_{k:06d}" for k in range(n)],  # dictionary outgrows a small page
            "annotator": [f"a{k % 7}" for k in range(n)],
            "label": ["x", "y", None] * (n // 3),
            "score": list(range(n)),
            "tags": [["p"]] * n,
        }
    )
    data = _bytes(table, dictionary_pagesize_limit=4096)
    assert few_valued_text(pq.ParquetFile(io.BytesIO(data))) == ["annotator", "label"]
    plain = _bytes(table, use_dictionary=False)
    assert few_valued_text(pq.ParquetFile(io.BytesIO(plain))) == []
    df, _, _ = read_parquet(data, "x.parquet")
    assert isinstance(df["annotator"].dtype, pd.CategoricalDtype)
    assert not isinstance(df["item"].dtype, pd.CategoricalDtype)


CELL = st.sampled_from(["x", "y", " x ", "NA", "", "é", "1", "1.0", "None"]) | st.none()
ID = st.sampled_from(["a", "b", " b", "c", ""]) | st.none()


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(["i1", "i2", "i3"]), ID, CELL), min_size=1, max_size=30),
    st.integers(1, 4),
)
def test_dictionary_and_string_reads_load_the_same(rows, row_group):
    items, annotators, labels = (list(c) for c in zip(*rows, strict=True))
    table = pa.table(
        {"item": items, "annotator": annotators, "label": labels},
        schema=pa.schema([(c, pa.string()) for c in ("item", "annotator", "label")]),
    )
    as_dict = _bytes(table, row_group_size=row_group)
    as_text = _bytes(table, use_dictionary=False)
    assert "label" in few_valued_text(pq.ParquetFile(io.BytesIO(as_dict)))
    results = []
    for data in (as_dict, as_text):
        try:
            ann = load_annotations(_upload(data), duplicates="first")
        except AnnotationDataError as exc:
            results.append(("error", exc.problem, exc.column, exc.rows))
            continue
        results.append(
            (
                ann.item_codes.tolist(),
                ann.annotator_codes.tolist(),
                ann.label_codes.tolist(),
                list(map(str, ann.items)),
                list(map(str, ann.annotators)),
                list(map(str, ann.categories)),
                ann.kind,
                repr(ann.report),
            )
        )
    assert results[0] == results[1]


def test_dictionary_of_text_that_is_not_utf8_is_named_not_called_damaged():
    good = pa.array(["x", "y"], pa.string())
    bad = pa.Array.from_buffers(pa.string(), 2, [None, good.buffers()[1], pa.py_buffer(b"x\xff")])
    table = pa.table({"item": ["i1", "i2"], "annotator": ["a", "a"], "label": bad})
    data = _bytes(table)
    assert "label" in few_valued_text(pq.ParquetFile(io.BytesIO(data)))
    with pytest.raises(AnnotationDataError, match="not valid UTF-8") as info:
        load_annotations(_upload(data))
    assert info.value.column == "label"


def test_many_small_row_group_dictionaries_are_not_few_values():
    """Row groups of 10,000 rows each hold a small dictionary of item ids; 40,000 ids in
    all would make Arrow unify the groups' dictionaries, slower than reading strings."""
    n = 200_000
    table = pa.table(
        {
            "item": [f"item_{k // 5:07d}" for k in range(n)],
            "annotator": [f"a{k % 7}" for k in range(n)],
        }
    )
    data = _bytes(table, row_group_size=10_000)
    assert few_valued_text(pq.ParquetFile(io.BytesIO(data))) == ["annotator"]


@pytest.mark.parametrize("categories_dtype", ["str", object])
def test_a_category_column_reads_as_its_text_would(categories_dtype):
    """A pandas category column is judged as the same text cells: "NA" is a missing
    token in both (it had stayed a label in a category column, whatever its dtype)."""
    cells = ["x", "NA", "y", None, "x", "y"]
    rows = {"item": ["1", "1", "2", "2", "3", "3"], "annotator": ["a", "b"] * 3}
    as_text = load_annotations(pd.DataFrame({**rows, "label": cells}))
    codes, uniques = pd.factorize(pd.Series(cells, dtype=object))
    category = pd.Categorical.from_codes(codes, pd.Index(list(uniques), dtype=categories_dtype))
    as_category = load_annotations(pd.DataFrame({**rows, "label": category}))
    assert list(map(str, as_category.categories)) == list(map(str, as_text.categories))
    assert as_category.n_judgements == as_text.n_judgements == 4
