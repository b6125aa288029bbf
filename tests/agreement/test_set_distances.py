"""Set distances (Poesio & Artstein 2005, section 3.2; Passonneau 2006) against NLTK."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.metrics.distance import jaccard_distance, masi_distance

from analytics import AnnotationDataError, load_annotations
from analytics.agreement import krippendorff_alpha
from analytics.agreement.set_distances import (
    DKPRO_SET_DISTANCES,
    SET_DISTANCES,
    dice,
    distance_matrix,
    jaccard,
    masi,
    masi_dkpro,
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
    # the same sets passed as Python sets (they had been read as one True each: 0.0)
    assert float(masi(set(a), b)) == pytest.approx(masi_distance(set(a), set(b)), abs=1e-12)
    assert float(jaccard(a, set(b))) == pytest.approx(jaccard_distance(set(a), set(b)), abs=1e-12)


@pytest.mark.parametrize("fn", [jaccard, dice, masi, masi_dkpro, passonneau])
def test_names_and_mixed_arguments_are_refused_not_read_as_booleans(fn):
    for a, b in [(["a", "b"], ["a"]), ({"a"}, [True, False]), ([2, 0], [1, 0])]:
        with pytest.raises(AnnotationDataError, match="boolean category rows"):
            fn(a, b)
    assert float(fn([1, 0], [1, 0])) == 0.0  # 0/1 integers are rows


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


# DKPro Agreement, SetAnnotationsTest (dkpro-statistics-agreement/src/test/.../coding/
# SetAnnotationsTest.java): 2 raters x 9 items of label sets, alpha with
# SetAnnotationDistanceFunction 0.186 (D_o 0.333, D_e 0.409) and with
# MASISetAnnotationDistanceFunction 0.252 (D_o 0.253, D_e 0.338), to 0.001.
DKPRO_SETS = [
    ("", ""),
    ("A", ""),
    ("A", "A"),
    ("A", "B"),
    ("AB", "A"),
    ("AB", "AC"),
    ("ABC", "ABC"),
    ("C", "AC"),
    ("C", "AC"),
]


def dkpro_study():
    records = [
        (i, rater, list(labels))
        for i, pair in enumerate(DKPRO_SETS)
        for rater, labels in zip(("r1", "r2"), pair, strict=True)
    ]
    frame = pd.DataFrame(records, columns=["item", "annotator", "label"])
    return load_annotations(frame, kind="multilabel")


def test_dkpro_published_alphas_are_reachable_by_name():
    ann = dkpro_study()
    assert krippendorff_alpha(ann, "passonneau_dkpro") == pytest.approx(0.186, abs=0.001)
    assert krippendorff_alpha(ann, "masi_dkpro") == pytest.approx(0.252, abs=0.001)
    # Concord's default reading (the empty set disjoint from {A}) gives a different value
    assert krippendorff_alpha(ann, "passonneau") == pytest.approx(0.3273, abs=1e-4)


def test_empty_set_readings_differ_only_on_the_empty_set():
    empty, a, ab = row(""), row("a"), row("ab")
    assert float(passonneau(empty, a)) == 1.0
    assert float(passonneau(empty, a, empty_set="subset")) == pytest.approx(1 / 3)
    assert float(passonneau(empty, empty, empty_set="subset")) == 0.0
    assert float(passonneau(a, ab, empty_set="subset")) == pytest.approx(1 / 3)
    with pytest.raises(AnnotationDataError, match="empty set"):
        passonneau(empty, a, empty_set="overlap")


@pytest.mark.parametrize(
    ("a", "b", "expect"),
    [  # DKPro's MASISetAnnotationDistanceFunctionTest: subset 1/6, overlap 4/9
        ("a", "ab", 1 / 6),
        ("ab", "bc", 4 / 9),
        ("a", "b", 1.0),
        ("ab", "ab", 0.0),
        ("", "", 0.0),
        ("", "a", 1 / 3),
    ],
)
def test_masi_dkpro_values(a, b, expect):
    assert float(masi_dkpro(row(a), row(b))) == pytest.approx(expect)
    assert float(masi_dkpro(row(b), row(a))) == pytest.approx(expect)


def test_dkpro_distance_matrix_equals_pairwise_calls():
    rng = np.random.default_rng(1)
    table = np.unique(rng.random((30, 5)) < 0.4, axis=0)
    for name, fn in DKPRO_SET_DISTANCES.items():
        np.testing.assert_allclose(
            distance_matrix(table, name), fn(table[:, None, :], table[None, :, :]), atol=1e-12
        )
