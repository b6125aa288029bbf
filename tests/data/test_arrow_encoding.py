"""The Arrow fast paths of CellColumn agree with the pandas paths they replace."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics.data.cells import CellColumn, arrow_factorize, missing_tokens, unguard
from analytics.data.codes import (
    few_dictionary_encode,
    first_positions,
    first_seen,
    first_seen_kept,
    run_dictionary_encode,
)
from analytics.data.encode import one_per_pair
from analytics.data.text_index import strip_leaves, text_missing

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
    assert got[1].tolist() == want[1].tolist()
    # text ids stay Arrow strings (no object Index of every id is built); others are objects
    assert isinstance(got[1].dtype, pd.StringDtype) or got[1].dtype == object
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


# ---------------------------------------------------------------- encoding by runs
RUN_CELLS = st.lists(
    st.one_of(st.none(), st.sampled_from(["a", "b", "c", "d", "", " a", "é"])), max_size=60
)


def _plain_encode(values: pa.ChunkedArray) -> tuple[list[int], list]:
    encoded = pc.dictionary_encode(values.combine_chunks())
    return encoded.indices.fill_null(-1).to_pylist(), encoded.dictionary.to_pylist()


def _runs(cells: list, lengths: list[int]) -> list:
    return [c for c, k in zip(cells, lengths, strict=False) for _ in range(k)]


@settings(max_examples=300, deadline=None)
@given(RUN_CELLS, st.lists(st.integers(1, 6), max_size=60), st.integers(1, 7), st.booleans())
def test_run_encoding_equals_plain_dictionary_encoding(cells, lengths, n_chunks, large):
    """Random orders, nulls, runs or none, chunked arrays, string and large_string."""
    flat = _runs(cells, lengths + [1] * len(cells))
    typ = pa.large_string() if large else pa.string()
    cut = np.linspace(0, len(flat), n_chunks + 1).astype(int)
    values = pa.chunked_array([pa.array(flat[a:b], typ) for a, b in itertools.pairwise(cut)], typ)
    got = run_dictionary_encode(values)
    if got is None:  # too short, or runs too short to pay: the caller hashes every cell
        return
    codes, dictionary, (starts, lengths) = got
    assert codes.dtype == np.int32 and dictionary.type == typ
    assert (codes.tolist(), dictionary.to_pylist()) == _plain_encode(values)
    _assert_first_runs(codes, starts, lengths)


def _assert_first_runs(codes: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> None:
    """Each code's first run: starts where the code first appears, as long as the run."""
    for code in range(len(starts)):
        first = int(np.flatnonzero(codes == code)[0])
        end = first
        while end < len(codes) and codes[end] == code:
            end += 1
        assert (starts[code], lengths[code]) == (first, end - first)


@pytest.mark.parametrize(
    ("cells", "by_runs"),
    [
        (["x"], False),  # a single row: no runs to find
        (["x"] * 50, True),  # all equal: one run
        ([None] * 20, True),  # all null: one run of nulls
        ([f"id{i:03d}" for i in range(100) for _ in range(3)], True),  # sorted: no hash
        ([f"id{i:03d}" for i in range(100, 0, -1) for _ in range(3)], True),  # descending
        ([f"id{i % 7}" for i in range(300) for _ in range(3)], True),  # ids that come back
        ([f"id{i:03d}" for i in range(100)], False),  # no runs at all
        (["a", "a", None, None, "b", "b", "a", "a", "a"], True),
        (["a", "a", None, None, "b", "b", "a", "a"], False),  # heads: half the cells
    ],
)
def test_run_encoding_on_the_edge_cases(cells, by_runs):
    values = pa.chunked_array([pa.array(cells, pa.string())])
    got = run_dictionary_encode(values)
    assert (got is not None) == by_runs
    if by_runs:
        assert (got[0].tolist(), got[1].to_pylist()) == _plain_encode(values)
        _assert_first_runs(got[0], *got[2])


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.integers(0, 6), min_size=1, max_size=40),
    st.lists(st.integers(1, 4), max_size=40),
    st.data(),
)
def test_first_seen_kept_equals_renumbering_the_kept_cells(values, lengths, data):
    """Random runs and random drops (whole runs, first cells, nothing), used known or not."""
    cells = _runs(values, lengths + [1] * len(values))
    n_cells = len(cells)
    codes, _ = pd.factorize(np.array(cells))  # first-seen order, as Arrow's
    n = int(codes.max()) + 1
    runs = pa.chunked_array([pa.array([str(c) for c in cells])])
    encoded = run_dictionary_encode(runs)
    firsts = encoded[2] if encoded is not None else None
    if firsts is None or data.draw(st.booleans()):
        found = first_positions(codes, n)
        firsts = (found, np.ones(n, np.int64))
    keep = np.array(data.draw(st.lists(st.booleans(), min_size=n_cells, max_size=n_cells)))
    if data.draw(st.booleans()):
        keep |= data.draw(st.booleans())  # all kept, or the random mask
    codes = np.where(keep | data.draw(st.booleans()), codes, -1)  # dropped cells may be -1
    used = None
    if data.draw(st.booleans()):
        used = np.zeros(n, bool)
        used[codes[keep]] = True
    given = codes[keep] if data.draw(st.booleans()) else None  # the caller's gather
    got = first_seen_kept(codes, keep, n, firsts, used, given)
    want = first_seen(codes[keep], n)
    assert got[0].tolist() == want[0].tolist() and got[0].dtype == np.int64
    assert got[1].tolist() == want[1].tolist()


def test_first_positions_scans_a_prefix_and_gives_up_past_the_limit():
    codes = np.concatenate([np.zeros(100_000, np.int32), [1]])
    assert first_positions(codes, 2).tolist() == [0, 100_000]
    assert first_positions(codes, 2, limit=50_000) is None
    assert first_positions(np.array([-1, 1, 0, 1])[::-1].copy(), 2).tolist() == [1, 0]


def test_run_encoded_column_loads_like_a_shuffled_one():
    """Same judgements, grouped by item or not: the same codes per judgement and names."""
    rng = np.random.default_rng(3)
    items = np.repeat([f"i{k:04d}" for k in rng.permutation(400)], 5)
    df = pd.DataFrame(
        {
            "item": pd.array(items, dtype="str"),
            "annotator": pd.array([f"a{k}" for k in range(len(items))], dtype="str"),
            "label": pd.array(rng.choice(["x", "y", None], len(items)), dtype="str"),
        }
    )
    grouped = CellColumn.of(df["item"])
    plain = CellColumn.of(df["item"].astype(object))
    assert grouped.codes.tolist() == plain.codes.tolist()
    assert grouped.uniques.tolist() == plain.uniques.tolist()


@pytest.mark.parametrize("seed", range(12))
def test_first_seen_kept_finds_few_codes_first_kept_cells_in_a_prefix(seed):
    """Few codes, no runs: the first kept cells come from a prefix scan; the same result."""
    rng = np.random.default_rng(seed)
    n_cells = int(rng.integers(500, 40_000))
    codes, _ = pd.factorize(rng.integers(0, int(rng.integers(2, 8)), n_cells))
    n = int(codes.max()) + 1
    keep = rng.random(n_cells) < rng.choice([0.2, 0.9, 0.99])
    if seed % 3 == 0:
        keep[codes == n - 1] = False  # a code no kept cell has
    used = np.zeros(n, bool)
    used[codes[keep]] = True
    want = first_seen(codes[keep], n)
    for known in (None, used):
        got = first_seen_kept(codes, keep, n, None, known)
        assert got[0].tolist() == want[0].tolist()
        assert got[1].tolist() == want[1].tolist()


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(alphabet="naNAulLK/<>x \t\u00a0\u2003\u212a\u0130\u1e9e", max_size=8)),
    st.sampled_from([None, ("kk",), ("n/a", "x x"), ("\u1e9e",), ()]),
)
def test_missing_tokens_judged_on_few_texts_as_on_all(texts, missing):
    """Only texts that could be a token are stripped and lower-cased: the same answers."""
    tokens = missing_tokens(missing)
    index = pd.Index(pd.array(list(dict.fromkeys(texts)), dtype="str"))
    want = np.asarray(index.str.strip().str.lower().isin(list(tokens)), bool)
    miss, strip_free = text_missing(index, tokens)
    assert miss.tolist() == want.tolist()
    leaves = bool((index.str.strip() == index).all())
    assert strip_leaves(index) == leaves
    assert leaves or not strip_free  # known strip-free only when stripping changes nothing


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(st.none(), st.sampled_from(["a", "b", "c", "", " a", "é"])), max_size=60),
    st.integers(1, 5),
    st.booleans(),
    st.integers(2, 12),
)
def test_few_values_lookup_equals_plain_dictionary_encoding(cells, n_chunks, large, sample):
    """The first cells' values looked up for all: the same codes, or None (then hashed)."""
    import unittest.mock

    import analytics.data.codes as codes_module

    typ = pa.large_string() if large else pa.string()
    cut = np.linspace(0, len(cells), n_chunks + 1).astype(int)
    values = pa.chunked_array([pa.array(cells[a:b], typ) for a, b in itertools.pairwise(cut)], typ)
    with (
        unittest.mock.patch.object(codes_module, "FEW_SAMPLE", sample),
        unittest.mock.patch.object(codes_module, "FEW_SHARE", 0.5),
    ):
        got = few_dictionary_encode(values)
    first = [c for c in cells[:sample] if c is not None]
    later = {c for c in cells[sample:] if c is not None}
    if got is None:
        assert (
            not cells or len(set(first)) > min(len(cells), sample) * 0.5 or not later <= set(first)
        )
        return
    codes, dictionary = got
    assert codes.dtype == np.int32 and dictionary.type == typ
    assert (codes.tolist(), dictionary.to_pylist()) == _plain_encode(values)


def test_few_values_lookup_on_a_real_sized_column():
    rng = np.random.default_rng(5)
    names = np.array([f"annotator_{k:03d}" for k in range(300)], dtype=object)
    cells = names[rng.integers(0, 300, 50_000)].tolist()
    cells[7] = None
    values = pa.chunked_array([pa.array(cells[:20_000]), pa.array(cells[20_000:])])
    codes, dictionary = few_dictionary_encode(values)
    assert (codes.tolist(), dictionary.to_pylist()) == _plain_encode(values)
    late = pa.chunked_array([pa.array([*cells, "someone new"])])
    assert few_dictionary_encode(late) is None  # a value the first cells did not hold
    ids = pa.chunked_array([pa.array([f"item_{k}" for k in range(50_000)])])
    assert few_dictionary_encode(ids) is None  # too many distinct values to look up
