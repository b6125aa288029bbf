"""JSON and JSON Lines are held to ``max_columns`` before a parser builds the columns.

Found by hand: one 3 MB line of 100,000 keys took 42 s to load (Arrow's schema inference
slows with every field), and 20,000 lines of five new keys each (2 MB) did not finish in
five minutes; a CSV of that width is refused from its header.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics import AnnotationDataError, load_annotations
from analytics.data import Limits
from analytics.data.json_keys import record_keys

LIMIT = Limits(max_columns=50)


def judgement(i: int) -> dict:
    return {"item": f"i{i % 7}", "annotator": f"a{i % 3}", "label": "yes" if i % 2 else "no"}


def lines(records) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def test_one_line_with_too_many_keys_is_refused(tmp_path):
    path = tmp_path / "wide.jsonl"
    path.write_text(lines([{"item": "i1", **{f"a{j}": "x" for j in range(60)}}]))
    with pytest.raises(AnnotationDataError, match="over the limit max_columns=50") as err:
        load_annotations(path, limits=LIMIT)
    assert "different keys" in str(err.value) and "wide.jsonl" in str(err.value)
    assert "row 1" not in str(err.value)  # no header row in JSON to point at


def test_new_keys_after_a_plain_first_mebibyte_are_refused(tmp_path):
    # the head (read against Arrow's inferred schema) is fine; the keys come later
    plain = [judgement(i) for i in range(30_000)]
    late = [{"item": f"j{r}", f"k{r}": "x"} for r in range(60)]
    path = tmp_path / "late.jsonl"
    path.write_text(lines(plain + late))
    assert path.stat().st_size > 1 << 20
    with pytest.raises(AnnotationDataError, match="max_columns=50"):
        load_annotations(path, limits=LIMIT)


@pytest.mark.parametrize("shape", ["records", "columns", "lines saved as .json"])
def test_json_documents_are_refused_before_the_table_is_built(tmp_path, shape):
    wide = {"item": "i1", **{f"a{j}": "x" for j in range(60)}}
    path = tmp_path / "wide.json"
    if shape == "records":
        path.write_text(json.dumps([wide, {**wide, "item": "i2"}]))
    elif shape == "columns":
        path.write_text(json.dumps({k: [v, v] for k, v in wide.items()}))
    else:
        path.write_text(lines([wide, {**wide, "item": "i2"}]))
    with pytest.raises(AnnotationDataError, match="max_columns=50"):
        load_annotations(path, limits=LIMIT)


@pytest.mark.parametrize("suffix", ["jsonl", "json"])
def test_a_table_at_the_limit_loads(tmp_path, suffix):
    wide = {"item": "i1", **{f"a{j}": "yes" for j in range(49)}}  # 50 columns
    records = [wide, {**wide, "item": "i2"}]
    path = tmp_path / f"at_limit.{suffix}"
    path.write_text(lines(records) if suffix == "jsonl" else json.dumps(records))
    assert load_annotations(path, limits=LIMIT).n_annotators == 49


key_text = st.text(
    alphabet=st.sampled_from([*'ab:"\\{}[], \t', "é", "\u2028"]), min_size=0, max_size=20
)
value = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | key_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(key_text, inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.dictionaries(key_text, value, max_size=6), min_size=1, max_size=12),
    st.booleans(),
)
def test_record_keys_equals_the_keys_a_parser_finds(records, spaced):
    # escaped quotes and backslashes, colons and braces inside strings, nested objects
    # and white space before the colon: the count is exactly the parsed records' keys
    separators = (", ", " :  ") if spaced else (",", ":")
    data = "".join(json.dumps(r, separators=separators) + "\n" for r in records).encode()
    expected = len({json.dumps(k) for r in records for k in r})
    assert record_keys(data, 10**6) == expected
    if expected > 1:
        assert record_keys(data, expected - 1) == expected  # stops just past the limit


def test_record_keys_packs_keys_of_every_length_apart():
    # keys of 0 to 40 bytes, each with a twin differing in its last byte, and a key that is
    # a prefix of another: the NumPy packing of short keys keeps each one distinct
    keys = [("x" * n) + c for n in range(40) for c in "ab"] + [""]
    rng = np.random.default_rng(0)
    records = [{k: 1 for k in rng.permutation(keys)[:30].tolist()} for _ in range(40)]
    data = lines(records).encode()
    assert record_keys(data, 10**6) == len({k for r in records for k in r})
