"""Set distances (Poesio & Artstein 2005, section 3.2; Passonneau 2006) against NLTK."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.metrics.distance import jaccard_distance, masi_distance

from analytics import AnnotationDataError
from analytics.agreement.set_distances import (
    SET_DISTANCES,
    dice,
    distance_matrix,
    jaccard,
    masi,
    passonneau,
)

CATS = "abcdef"


def row(s: str) -> np.ndarray:
    return np.array([c in s for c in CATS])


@pytest.mark.parametrize(
    ("a", "b", "expect"),
    [
        # identical: 0 everywhere
        ("ab", "ab", {"passonneau": 0, "jaccard": 0, "dice": 0, "masi": 0}),
        # {a} inside {a,b}: Jaccard 1 - 1/2; Dice 1 - 2*1/(1+2) = 1/3; MASI 1 - 1/2 * 2/3
        ("a", "ab", {"passonneau": 1 / 3, "jaccard": 0.5, "dice": 1 / 3, "masi": 2 / 3}),
        # {a,b} and {a,c} overlap: Jaccard 1 - 1/3; Dice 1 - 2/4; MASI 1 - 1/3 * 1/3 = 8/9
        ("ab", "ac", {"passonneau": 2 / 3, "jaccard": 2 / 3, "dice": 0.5, "masi": 8 / 9}),
        # disjoint: 1 everywhere
        ("ab", "cd", {"passonneau": 1, "jaccard": 1, "dice": 1, "masi": 1}),
        # two empty sets ("none of these" twice): 0 by our convention
        ("", "", {"passonneau": 0, "jaccard": 0, "dice": 0, "masi": 0}),
        # empty against non-empty: 1 (disjoint) under every measure
        ("", "a", {"passonneau": 1, "jaccard": 1, "dice": 1, "masi": 1}),
    ],
)
def test_worked_values(a, b, expect):
    for name, value in expect.items():
        fn = SET_DISTANCES[name]
        assert float(fn(row(a), row(b))) == pytest.approx(value)
        assert float(fn(row(b), row(a))) == pytest.approx(value)


sets = st.frozensets(st.sampled_from(CATS), min_size=1)


@settings(max_examples=200, deadline=None)
@given(a=sets, b=sets)
def test_masi_and_jaccard_equal_nltk_on_non_empty_sets(a, b):
    ra, rb = row("".join(a)), row("".join(b))
    assert float(masi(ra, rb)) == pytest.approx(masi_distance(set(a), set(b)), abs=1e-12)
    assert float(jaccard(ra, rb)) == pytest.approx(jaccard_distance(set(a), set(b)), abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(a=st.frozensets(st.sampled_from(CATS)), b=st.frozensets(st.sampled_from(CATS)))
def test_bounds_and_orderings(a, b):
    ra, rb = row("".join(a)), row("".join(b))
    values = {name: float(fn(ra, rb)) for name, fn in SET_DISTANCES.items()}
    assert all(0 <= v <= 1 for v in values.values())
    assert values["dice"] <= values["jaccard"] + 1e-12  # Poesio & Artstein: Dice never larger
    assert values["masi"] >= values["jaccard"] - 1e-12  # the monotonicity weight is <= 1
    assert values["masi"] >= values["passonneau"] - 1e-12  # 1 - J*2/3 > 1/3, 1 - J/3 > 2/3
    assert (values["jaccard"] == 0) == (a == b)
    if a and b and a < b:
        assert values["passonneau"] == pytest.approx(1 / 3)


def test_distance_matrix_equals_pairwise_calls():
    rng = np.random.default_rng(0)
    table = np.unique(rng.random((40, 6)) < 0.4, axis=0)
    for name, fn in SET_DISTANCES.items():
        mat = distance_matrix(table, name)
        slow = fn(table[:, None, :], table[None, :, :])
        np.testing.assert_allclose(mat, slow, atol=1e-12)
        np.testing.assert_allclose(mat, mat.T, atol=1e-12)
        assert (np.diag(mat) == 0).all()
        np.testing.assert_allclose(distance_matrix(table, fn), slow)  # callables too


def test_unknown_distance_is_an_error_a_person_can_act_on():
    with pytest.raises(AnnotationDataError, match="masi"):
        distance_matrix(np.zeros((2, 3), bool), "hamming")


def test_dice_is_documented_alias_free():
    assert set(SET_DISTANCES) == {"passonneau", "masi", "jaccard", "dice"}
    assert float(dice(row("abc"), row("a"))) == pytest.approx(1 - 2 / 4)
    assert float(passonneau(row("abc"), row("a"))) == pytest.approx(1 / 3)
