"""analytics.data.cells: what one cell means (missing, number, label set, id)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics.data import MISSING_TOKENS, is_missing, looks_numeric
from analytics.data.cells import EMPTY_SET_TOKENS, id_text, label_set, label_text, to_number


@pytest.mark.parametrize("token", sorted(MISSING_TOKENS))
def test_missing_tokens_in_any_case_and_padding(token):
    assert is_missing(token) and is_missing(f"  {token.upper()} ")


@pytest.mark.parametrize("value", [None, float("nan"), np.nan, pd.NA, pd.NaT])
def test_missing_values(value):
    assert is_missing(value)


@pytest.mark.parametrize("value", [0, 0.0, "0", "x", False, "{}", []])
def test_not_missing(value):
    assert not is_missing(value)


def test_looks_numeric_is_strict():
    assert looks_numeric(["1", " -2.5 ", "1e3", ".5", 4, np.int64(2), np.float32(1.5)])
    assert not looks_numeric([])
    assert not looks_numeric(["4_20"])
    assert not looks_numeric([True, 1])
    assert not looks_numeric(["1", "x"])
    assert not looks_numeric(["inf"])


def test_to_number_keeps_whole_numbers_whole():
    assert to_number("3.0") == 3 and isinstance(to_number("3.0"), int)
    assert to_number(np.int64(7)) == 7 and isinstance(to_number(np.int64(7)), int)
    assert to_number("2.5") == 2.5
    assert isinstance(to_number(2.0**60), float)


def test_label_set_from_text_and_containers():
    assert label_set("anger; fear ;", ";") == frozenset({"anger", "fear"})
    assert label_set("anger;fear", None) == frozenset({"anger;fear"})
    assert label_set("   ", None) == frozenset()
    for token in EMPTY_SET_TOKENS:
        assert label_set(token, ";") == frozenset()
    assert label_set([" a", "b", 3], None) == frozenset({"a", "b", "3"})
    assert label_set(np.array(["x"]), ";") == frozenset({"x"})
    assert label_set(5, ";") == frozenset({"5"})


def test_ids_and_labels_as_text():
    assert id_text(12.0) == "12" and id_text(np.float64(3.0)) == "3"
    assert id_text(" w1 ") == "w1" and id_text(1.5) == "1.5" and id_text(7) == "7"
    assert label_text(" yes ") == "yes" and label_text(2.0) == "2" and label_text(2.5) == "2.5"
