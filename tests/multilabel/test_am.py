"""A_m (Bhowmick, Mitra & Basu 2008, equations 1-8): worked examples, loop oracle, properties."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse

from analytics import AnnotationDataError, Annotations
from analytics.multilabel import (
    am_agreement,
    am_agreement_unclubbed,
    am_bootstrap,
    am_summary,
    pairwise_am,
)
from analytics.multilabel.am import am_statistic
from analytics.multilabel.engine import AmEngine
from tests.helpers.builders import from_array, random_data
from tests.helpers.multilabel_loops import loop_am


def _worked() -> Annotations:
    """Two annotators, categories a, b, c; item 1: {a} vs {a, b}; item 2: {c} vs {c}."""
    df = pd.DataFrame(
        {
            "item": ["1", "1", "2", "2"],
            "annotator": ["u0", "u1", "u0", "u1"],
            "label": [{"a"}, {"a", "b"}, {"c"}, {"c"}],
        }
    )
    return Annotations.from_frame(df, kind="multilabel", categories=["a", "b", "c"])


def test_worked_example_clubbed():
    # P_o: item 1 differs on b only, so of the 3 category pairs only <a, c> agrees: 1/3;
    # item 2 agrees on all 3.  P_o = (1 + 3) / (I=2 * C(3,2)=3 * C(2,2)=1) = 4/6 = 2/3.
    # P_e, clubbed G = {[00], [01]=[10], [11]}, proportions over the 2 items:
    #   <a,b>: u0 [10],[00] -> 00 1/2, mix 1/2;  u1 [11],[00] -> 00 1/2, 11 1/2
    #          P = 1/2*1/2 + 1/2*0 + 0*1/2 = 1/4
    #   <a,c>: u0 [10],[01] -> mix 1;  u1 [10],[01] -> mix 1;        P = 1
    #   <b,c>: u0 [00],[01] -> 00 1/2, mix 1/2;  u1 [10],[01] -> mix 1;  P = 1/2
    #   P_e = (1/4 + 1 + 1/2) / 3 = 7/12;  A_m = (2/3 - 7/12) / (5/12) = 1/5.
    res = am_agreement(_worked())
    assert res.p_o == pytest.approx(2 / 3)
    assert res.p_e == pytest.approx(7 / 12)
    assert res.a_m == pytest.approx(0.2)
    assert res.reason == ""
    assert (res.n_items, res.n_units, res.n_annotator_pairs, res.n_categories) == (2, 2, 1, 3)


def test_worked_example_four_combinations():
    # Same data, [01] and [10] apart:
    #   <a,b>: 00 1/2*1/2 = 1/4 (u0's [10] meets no [10] of u1)            -> 1/4
    #   <a,c>: 10 1/2*1/2 + 01 1/2*1/2                                     -> 1/2
    #   <b,c>: u0 00 1/2, 01 1/2; u1 10 1/2, 01 1/2 -> 01 1/2*1/2          -> 1/4
    #   P_e = (1/4 + 1/2 + 1/4) / 3 = 1/3;  A_m = (2/3 - 1/3) / (2/3) = 1/2.
    # The clubbed P_e (7/12) counts u0's [10] meeting u1's [01] on <a,c> as agreement.
    res = am_agreement_unclubbed(_worked())
    assert res.combinations == "four"
    assert res.p_o == pytest.approx(2 / 3)
    assert res.p_e == pytest.approx(1 / 3)
    assert res.a_m == pytest.approx(0.5)


def test_pairwise_worked_example():
    table = pairwise_am(_worked())
    assert list(table.columns) == [
        "annotator_a",
        "annotator_b",
        "n_items",
        "p_o",
        "p_e",
        "a_m",
        "note",
    ]
    row = table.iloc[0]
    assert (row.annotator_a, row.annotator_b, row.n_items) == ("u0", "u1", 2)
    assert row.a_m == pytest.approx(0.2)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("combinations", ["clubbed", "four"])
def test_equals_plain_loop_on_complete_random_data(seed, combinations):
    x, judged = random_data(seed, n_i=20, n_u=3 + seed % 3, n_c=3 + seed % 4)
    p_o, p_e, a_m, per_pair = loop_am(x, judged, combinations)
    ann = from_array(x, judged)
    res = am_agreement(ann, combinations=combinations)
    assert res.p_o == pytest.approx(p_o, abs=1e-12)
    assert res.p_e == pytest.approx(p_e, abs=1e-12)
    assert res.a_m == pytest.approx(a_m, abs=1e-12)
    table = pairwise_am(ann, combinations=combinations)
    for row in table.itertuples():
        n, po, pe = per_pair[(int(row.annotator_a[1:]), int(row.annotator_b[1:]))]
        assert (row.n_items, row.p_o, row.p_e) == (n, pytest.approx(po), pytest.approx(pe))
    # Complete data: overall P_o and P_e are the plain means of the pairwise ones (eq. 4 and
    # eq. 6-8 both average over annotator pairs). The paper's printed tables break this:
    # table 2 gives P_o 0.858, 0.868, 0.884 (mean 0.870) and P_e 0.526, 0.54, 0.531 (mean
    # 0.532), table 1 gives P_o 0.878 and P_e 0.534. Its A_m 0.738 does follow from its own
    # table 1 ((0.878 - 0.534) / (1 - 0.534) = 0.738), and the conclusion's 0.72 is the mean
    # of table 2's A_m values (0.702 + 0.713 + 0.752) / 3 = 0.722.
    assert res.p_o == pytest.approx(table["p_o"].mean())
    assert res.p_e == pytest.approx(table["p_e"].mean())


@pytest.mark.parametrize("seed", range(4))
def test_missing_judgements_pair_over_items_both_judged(seed):
    x, judged = random_data(seed, n_i=30, n_u=4, n_c=4, p_missing=0.3)
    p_o, p_e, a_m, _ = loop_am(x, judged)
    res = am_agreement(from_array(x, judged))
    assert (res.p_o, res.p_e, res.a_m) == (
        pytest.approx(p_o),
        pytest.approx(p_e),
        pytest.approx(a_m),
    )


def test_empty_set_is_a_judgement_not_a_missing_one():
    x = np.zeros((3, 2, 2), bool)
    x[0, :, 0] = True  # both {c0}
    x[1, 0, 1] = True  # {c1} vs {} (empty, judged)
    judged = np.ones((3, 2), bool)
    with_empty = am_agreement(from_array(x, judged))
    judged[1, 1] = False  # now u1 did not judge item 1 at all
    without = am_agreement(from_array(x, judged))
    assert with_empty.n_units == 3 and without.n_units == 2
    assert with_empty.p_o < without.p_o


def test_long_dataframe_input():
    df = pd.DataFrame(
        {
            "item": ["1", "1", "2", "2"],
            "annotator": ["u0", "u1"] * 2,
            "label": ["a", "a;b", "c", "c"],
        }
    )
    from analytics.data.loading import load_annotations

    ann = load_annotations(df, multilabel_sep=";")
    assert am_agreement(df.assign(label=[{"a"}, {"a", "b"}, {"c"}, {"c"}])).p_o == pytest.approx(
        am_agreement(ann).p_o
    )
    assert am_agreement(ann).p_o == pytest.approx(2 / 3)  # the worked example's P_o


def test_repeated_judgements_use_the_last():
    df = pd.DataFrame(
        {
            "item": ["1", "1", "1", "2", "2"],
            "annotator": ["u0", "u1", "u1", "u0", "u1"],
            "label": [{"a"}, {"b"}, {"a", "b"}, {"c"}, {"c"}],
        }
    )
    kept = Annotations.from_frame(
        df, kind="multilabel", categories=["a", "b", "c"], duplicates="keep"
    )
    assert am_agreement(kept).a_m == pytest.approx(am_agreement(_worked()).a_m)


def test_clubbed_chance_is_never_below_four_combinations():
    for seed in range(10):
        x, judged = random_data(seed, n_i=15, n_u=3, n_c=5, p_missing=0.1)
        ann = from_array(x, judged)
        assert am_agreement(ann).p_e >= am_agreement_unclubbed(ann).p_e - 1e-12


def test_independent_annotators_four_combinations_near_zero_but_clubbed_negative():
    # The consequence of clubbing: independent annotators score below zero.
    x, judged = random_data(7, n_i=4000, n_u=3, n_c=5, p=0.3)
    ann = from_array(x, judged)
    assert abs(am_agreement_unclubbed(ann).a_m) < 0.02
    assert am_agreement(ann).a_m < -0.1


def test_single_label_data_is_the_one_hot_case():
    df = pd.DataFrame(
        {"item": ["1", "1", "2", "2"], "annotator": ["a", "b"] * 2, "label": ["x", "y", "z", "z"]}
    )
    ann = Annotations.from_frame(df, kind="nominal")
    # item 1: {x} vs {y} differ on d=2 of C=3 categories, so C(1,2) = 0 of the 3 category
    # pairs agree (each contains x or y); item 2: {z} vs {z}, 3 of 3.  P_o = 3/6.
    assert am_agreement(ann).p_o == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("frame", "why"),
    [
        (
            pd.DataFrame({"item": ["1", "1"], "annotator": ["a", "b"], "label": [{"x"}, set()]}),
            "two categories",
        ),
        (
            pd.DataFrame({"item": ["1", "2"], "annotator": ["a", "a"], "label": [{"x"}, {"y"}]}),
            "two or more",
        ),
        (
            pd.DataFrame({"item": ["1", "2"], "annotator": ["a", "b"], "label": [{"x"}, {"y"}]}),
            "two or more",
        ),
        (
            pd.DataFrame(
                {"item": ["1", "1", "2", "2"], "annotator": ["a", "b"] * 2, "label": [{"x"}] * 4}
            ),
            "P_e is 1",
        ),
    ],
)
def test_degenerate_data_give_nan_with_a_reason(frame, why):
    cats = ["x"] if why == "two categories" else ["x", "y"]
    ann = Annotations.from_frame(frame, kind="multilabel", categories=cats)
    res = am_agreement(ann)
    assert np.isnan(res.a_m)
    assert why in res.reason
    assert isinstance(pairwise_am(ann), pd.DataFrame)
    interval = am_bootstrap(ann, n_boot=20)
    assert np.isnan(interval.low) and interval.reason


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), perm_seed=st.integers(0, 10_000))
def test_invariant_to_renaming_categories_and_reordering(seed, perm_seed):
    x, judged = random_data(seed, n_i=12, n_u=4, n_c=4, p_missing=0.2)
    base = am_agreement(from_array(x, judged))
    rng = np.random.default_rng(perm_seed)
    cat_perm, ann_perm, item_perm = rng.permutation(4), rng.permutation(4), rng.permutation(12)
    moved = from_array(
        x[item_perm][:, ann_perm][:, :, cat_perm],
        judged[item_perm][:, ann_perm],
        categories=["joy", "fear", "anger", "awe"],
        annotators=["zed", "amy", "bo", "cy"],
    )
    other = am_agreement(moved)
    if np.isnan(base.a_m):
        assert np.isnan(other.a_m)
    else:
        assert other.a_m == pytest.approx(base.a_m, abs=1e-12)
        assert other.p_o == pytest.approx(base.p_o, abs=1e-12)
    assert -1e-12 <= base.p_o <= 1 + 1e-12 or np.isnan(base.p_o)
    assert base.a_m <= 1 + 1e-12 or np.isnan(base.a_m)


def test_bootstrap_replicate_equals_recomputing_on_resampled_items():
    x, judged = random_data(3, n_i=15, n_u=3, n_c=4, p_missing=0.2)
    ann = from_array(x, judged)
    engine = AmEngine(ann, "clubbed")
    counts = np.random.default_rng(0).multinomial(15, np.full(15, 1 / 15))
    a_m = engine.overall(counts[None, :].astype(float))[2][0]
    pick = np.repeat(np.arange(15), counts)  # item k drawn counts[k] times, as copies
    copies = from_array(x[pick], judged[pick])
    assert a_m == pytest.approx(am_agreement(copies).a_m, abs=1e-12)
    assert sparse.issparse(engine.m)


def test_bootstrap_interval():
    x, judged = random_data(11, n_i=200, n_u=3, n_c=5, p=0.3)
    x[:, 1] = x[:, 0]  # annotators 0 and 1 agree perfectly: A_m clearly above zero
    ann = from_array(x, judged)
    a = am_bootstrap(ann, n_boot=300, seed=1)
    b = am_bootstrap(ann, n_boot=300, seed=1)
    assert a.low == b.low and a.high == b.high
    assert a.low < a.a_m < a.high
    assert a.n_boot == 300 and a.n_valid == 300 and len(a.replicates) == 300
    assert a.a_m == pytest.approx(am_agreement(ann).a_m)


def _single_label_perfect() -> Annotations:
    """Two annotators agree perfectly on {x} then {y}: two categories, one label each."""
    df = pd.DataFrame(
        {
            "item": ["1", "1", "2", "2"],
            "annotator": ["a", "b"] * 2,
            "label": [{"x"}, {"x"}, {"y"}, {"y"}],
        }
    )
    return Annotations.from_frame(df, kind="multilabel", categories=["x", "y"])


def test_pe_one_from_the_clubbing_says_so_and_points_to_four_combinations():
    ann = _single_label_perfect()
    res = am_agreement(ann)
    # category pair <x, y>: [1 0] on item 1 and [0 1] on item 2 for both annotators, one
    # clubbed combination, so P_e = 1 * 1 = 1; with the four apart P_e = 1/2 * 1/2 * 2 = 1/2
    assert res.p_o == 1.0 and res.p_e == 1.0 and np.isnan(res.a_m)
    assert "same label set" not in res.reason  # untrue: they gave {x}, then {y}
    assert "clubbing" in res.reason and "[1 0] and [0 1]" in res.reason
    assert "two categories" in res.reason and "am_agreement_unclubbed" in res.reason
    four = am_agreement_unclubbed(ann)
    assert four.p_e == pytest.approx(0.5) and four.a_m == pytest.approx(1.0)
    assert "A_m = 1.000" in res.reason
    note = pairwise_am(ann)["note"].iloc[0]
    assert "clubbed" in note and "same label set" not in note
    interval = am_bootstrap(ann, n_boot=20)
    assert np.isnan(interval.low) and "clubbing" in interval.reason


def test_pe_one_from_constant_sets_keeps_the_same_set_reason():
    df = pd.DataFrame(
        {"item": ["1", "1", "2", "2"], "annotator": ["a", "b"] * 2, "label": [{"x"}] * 4}
    )
    ann = Annotations.from_frame(df, kind="multilabel", categories=["x", "y"])
    for res in (am_agreement(ann), am_agreement_unclubbed(ann)):
        assert np.isnan(res.a_m) and "same label set" in res.reason and "clubbing" not in res.reason
    assert "same label set" in pairwise_am(ann)["note"].iloc[0]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), n_c=st.integers(2, 3))
def test_clubbed_pe_one_blames_the_clubbing_only_when_four_combinations_differ(seed, n_c):
    """With three or more categories a clubbed P_e of 1 forces the four-combination P_e to 1."""
    rng = np.random.default_rng(seed)
    x = rng.random((3, 2, n_c)) < 0.5
    if rng.random() < 0.5:  # often one label each, where the clubbing bites
        x = np.eye(n_c, dtype=bool)[rng.integers(0, n_c, size=(3, 2))]
    ann = from_array(x, np.ones((3, 2), bool))
    res, four = am_agreement(ann), am_agreement_unclubbed(ann)
    if not res.p_e < 1:
        assert ("clubbing" in res.reason) == (four.p_e < 1)
        if four.p_e < 1:
            assert n_c == 2


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"n_boot": 0}, "n_boot"),
        ({"n_boot": 2.5}, "n_boot"),
        ({"n_boot": "100"}, "n_boot"),
        ({"confidence": 1.0}, "confidence"),
        ({"confidence": 95}, "confidence"),
        ({"confidence": "0.95"}, "confidence"),
        ({"seed": -1}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"combinations": "three"}, "combinations"),
    ],
)
def test_bootstrap_arguments_are_checked_and_named(kwargs, name):
    x, judged = random_data(1, n_i=10, n_u=3, n_c=3)
    with pytest.raises(AnnotationDataError, match=name):
        am_bootstrap(from_array(x, judged), **kwargs)


def test_bootstrap_confidence_sets_the_coverage():
    x, judged = random_data(11, n_i=100, n_u=3, n_c=4, p=0.3)
    ann = from_array(x, judged)
    wide = am_bootstrap(ann, n_boot=200, confidence=0.99, seed=2)
    narrow = am_bootstrap(ann, n_boot=200, confidence=0.5, seed=2)
    assert wide.confidence == 0.99 and narrow.confidence == 0.5
    assert wide.low <= narrow.low <= narrow.high <= wide.high
    np.testing.assert_array_equal(wide.replicates, narrow.replicates)  # same seed, same draws


def test_bootstrap_replicates_are_am_of_the_resampled_items():
    """A replicate from the shared _core bootstrap equals A_m on copies of the drawn items."""
    x, judged = random_data(4, n_i=12, n_u=3, n_c=3, p_missing=0.2)
    ann = from_array(x, judged)
    statistic, n = am_statistic(ann)
    assert n == int((judged.sum(axis=1) >= 2).sum())
    assert statistic.value() == pytest.approx(am_agreement(ann).a_m, abs=1e-12)
    counts = np.random.default_rng(5).multinomial(n, np.full(n, 1 / n))
    eligible = np.flatnonzero(judged.sum(axis=1) >= 2)
    pick = np.repeat(eligible, counts)
    expect = am_agreement(from_array(x[pick], judged[pick])).a_m
    got = statistic.finish(statistic.totals(counts[None, :].astype(float)))[0]
    assert got == pytest.approx(expect, abs=1e-12) or (np.isnan(got) and np.isnan(expect))


def test_the_summary_takes_its_example_from_the_data_s_categories():
    """The reading said "[anger, not disgust]" whatever the categories were."""
    df = pd.DataFrame(
        {
            "item": ["1", "1", "2", "2", "3", "3"],
            "annotator": ["u", "v"] * 3,
            "label": [{"a"}, {"a", "b"}, {"b", "c"}, {"b"}, {"c"}, {"a", "c"}],
        }
    )
    am = am_agreement(df)
    assert am.categories == ("a", "b", "c")
    text = am_summary(am, am_agreement_unclubbed(df))
    assert "[a, not b] meeting another's [b, not a] as chance agreement" in text
    assert "anger" not in text and "*" not in text  # plain text: the page escapes it
    renamed = df.assign(label=df["label"].map(lambda s: {c.upper() for c in s}))
    assert am_agreement(renamed) == am  # the names do not change the result's equality
