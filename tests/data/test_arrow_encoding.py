"""The Arrow fast paths of CellColumn agree with the pandas paths they replace."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics.data.cells import CellColumn, arrow_factorize, unguard
from analytics.data.encode import one_per_pair

TEXT = st.one_of(
    st.sampled_from(["a", " a", "a ", "NA", " null ", "", "'=x", "''+1", "'plain", "b|c"]),
    st.text(alphabet=" ab'=\t\u00a0\u2003", max_size=4),
)
CELLS = st.lists(st.one_of(st.none(), TEXT), min_size=1, max_size=40)


@settings(max_examples=150, deadline=None)
@given(CELLS)
def test_arrow_factorize_matches_pandas_factorize(cells):
    s = pd.Series(cells, dtype="str")
    codes, uniques = arrow_factorize(s)
    expected_codes, expected_uniques = pd.factorize(s, use_na_sentinel=True)
    assert codes.dtype == np.int32  # Arrow's indices, half the memory of int64
    assert codes.tolist() == expected_codes.tolist()
    assert uniques.tolist() == list(expected_uniques)
    assert uniques.dtype == s.dtype


@settings(max_examples=150, deadline=None)
@given(CELLS, st.data())
def test_arrow_cell_column_judges_and_names_like_the_object_path(cells, data):
    arrow = CellColumn.of(pd.Series(cells, dtype="str"))
    plain = CellColumn.of(pd.Series(cells, dtype=object))
    assert arrow.codes.tolist() == plain.codes.tolist()
    assert arrow.uniques.tolist() == plain.uniques.tolist()
    assert arrow.missing.tolist() == plain.missing.tolist()
    assert arrow.cell_missing().tolist() == plain.cell_missing().tolist()
    keep = np.array(data.draw(st.lists(st.booleans(), min_size=len(cells), max_size=len(cells))))
    keep &= ~plain.cell_missing()
    got, want = arrow.id_codes(keep), plain.id_codes(keep)
    assert got[0].tolist() == want[0].tolist()
    assert got[1].tolist() == want[1].tolist() and got[1].dtype == object
    assert got[2] == want[2]


def test_unguard_of_arrow_texts_with_and_without_a_guard():
    plain = pd.Index(["x", "=y"], dtype="str")
    assert unguard(plain) is plain
    assert unguard(pd.Index(["'=y", "x"], dtype="str")).tolist() == ["=y", "x"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), max_size=30))
def test_one_per_pair_keeps_the_first_or_the_last_of_each_pair(pairs):
    items = np.array([p[0] for p in pairs], np.int64)
    annotators = np.array([p[1] for p in pairs], np.int64)
    first, last = {}, {}
    for i, p in enumerate(pairs):
        first.setdefault(p, i)
        last[p] = i
    for keep, chosen in (("first", first), ("last", last)):
        mask = one_per_pair(items, annotators, 3, keep)
        assert mask.dtype == bool and len(mask) == len(pairs)
        assert np.flatnonzero(mask).tolist() == sorted(chosen.values())
