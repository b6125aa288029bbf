"""Evaluation against partial gold: model and annotator accuracy, calibration, bad gold."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError, Annotations
from analytics.models import (
    annotator_gold_accuracy,
    calibration,
    expected_calibration_error,
    fit,
    gold_table,
)
from tests.models.helpers import public, simulate


def frame(rows):
    return Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))


def test_ece_by_hand():
    conf = np.array([0.95, 0.95, 0.65, 0.65, 0.65, 0.65])
    right = np.array([True, True, True, True, False, False])
    # bin (0.9, 1]: acc 1 vs 0.95; bin (0.6, 0.7]: acc 0.5 vs 0.65
    assert expected_calibration_error(conf, right) == pytest.approx((2 * 0.05 + 4 * 0.15) / 6)
    assert np.isnan(expected_calibration_error(np.zeros(0), np.zeros(0, bool)))


def test_calibrated_model_on_its_own_data():
    # data simulated from Dawid-Skene: its posteriors should be close to calibrated
    theta = np.array(
        [[[0.8, 0.2], [0.3, 0.7]], [[0.7, 0.3], [0.2, 0.8]], [[0.75, 0.25], [0.25, 0.75]]] * 2
    )
    ann, truth = simulate(theta, [0.5, 0.5], 4000, 3, seed=3)
    gold = pd.Series(truth, index=[f"i{i}" for i in range(4000)])
    r = fit(ann, "dawid_skene")
    table = calibration(r, gold)
    assert table["items"].sum() == 4000
    assert table.attrs["ece"] < 0.03
    full = table.dropna()
    assert (full["low"] <= full["mean_confidence"]).all() and (
        full["mean_confidence"] <= full["high"]
    ).all()


def test_gold_table_and_clamped_items_left_out():
    ann, gold = public("welinder_bluebirds")
    ds, mv = fit(ann, "dawid_skene"), fit(ann, "majority")
    table = gold_table({"dawid_skene": ds, "majority": mv}, gold)
    assert table.loc["dawid_skene", "correct"] == 97 and table.loc["majority", "correct"] == 82
    assert (
        table.loc["dawid_skene", "accuracy_low"]
        < 97 / 108
        < table.loc["dawid_skene", "accuracy_high"]
    )
    clamped = fit(ann, "dawid_skene", gold=gold.iloc[:40])
    assert gold_table({"ds": clamped}, gold).loc["ds", "gold_items"] == 68


def test_annotator_accuracy_on_gold():
    ann = frame(
        [
            ("i1", "a", "x"),
            ("i2", "a", "y"),
            ("i1", "b", "y"),
            ("i2", "b", "y"),
            ("i3", "b", "x"),
            ("i3", "c", "x"),
        ]
    )
    table = annotator_gold_accuracy(ann, {"i1": "x", "i2": "y"})
    assert table.loc["a", "accuracy"] == 1.0 and table.loc["b", "accuracy"] == 0.5
    assert table.loc["b", "gold_judgements"] == 2 and np.isnan(table.loc["c", "accuracy"])


def test_bad_gold_is_refused_by_name():
    ann = frame([("i1", "a", "x"), ("i1", "b", "y"), ("i2", "a", "x")])
    with pytest.raises(AnnotationDataError, match="not in the data set: 'i9'"):
        fit(ann, "majority", gold={"i1": "x", "i9": "y"})
    with pytest.raises(AnnotationDataError, match="more than once"):
        fit(ann, "majority", gold=pd.Series(["x", "y"], index=["i1", "i1"]))
    with pytest.raises(AnnotationDataError, match="not among the categories"):
        annotator_gold_accuracy(ann, {"i1": "z"})
    r = fit(ann, "majority")
    with pytest.raises(AnnotationDataError, match="not in the fit"):
        calibration(r, {"i7": "x"})
    with pytest.raises(AnnotationDataError, match="bins"):
        calibration(r, {"i1": "x"}, bins=0)


def test_majority_vote_ties_share_their_credit_as_on_the_dawid_skene_page():
    """Both pages score majority vote alike: a t-way tie earns 1/t, not the first category."""
    from analytics import models
    from analytics.data import load_sample, sample_truth
    from analytics.dawid_skene import fit as ds_fit
    from analytics.dawid_skene import gold_accuracy
    from analytics.models.evaluation import gold_table, tie_split_credit

    ann, gold = load_sample("crowd_intents"), sample_truth("crowd_intents")
    ours = gold_table({"majority": models.fit(ann, "majority")}, gold).loc["majority"]
    page = gold_accuracy(ds_fit(ann), gold).loc["majority vote"]
    assert ours["correct"] == page["correct"] and ours["accuracy"] == page["accuracy"]
    credit = tie_split_credit(np.array([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5]]), np.array([1, 1]))
    assert credit.tolist() == [0.5, 0.0]


def test_best_calibrated_passes_over_majority_vote():
    # majority vote's posteriors are 1 for any clear winner: on the intents sample its ECE
    # (0.017) beat MACE's, GLAD's and Dawid-Skene's: the page could draw it as the best
    from analytics.models import best_calibrated

    tables = {m: pd.DataFrame() for m in ("majority", "dawid_skene", "mace")}
    for m, ece in zip(tables, (0.017, 0.07, 0.04), strict=True):
        tables[m].attrs["ece"] = ece
    assert best_calibrated(tables) == "mace"
    assert best_calibrated({"majority": tables["majority"]}) == "majority"  # nothing else
    assert best_calibrated({}) is None


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (([1.5], [1]), "confidence value must be a number from 0 to 1, not 1.5"),
        (([float("nan"), 0.9], [1, 1]), "not nan"),
        (([0.9], [1, 0]), "1 confidences but 2 correct values"),
        (([0.9, 0.8], [1, 0], 0), "bins must be at least 1"),
        (([0.9], [1], 2.5), "bins must be a whole number"),
    ],
)
def test_calibration_error_checks_its_inputs(args, said):
    """A confidence of 1.5 had given 0.5, a NaN had been binned, bad bins a numpy error."""
    from analytics.models import expected_calibration_error

    with pytest.raises(AnnotationDataError, match=said):
        expected_calibration_error(*args)


def test_accuracy_interval_is_wilsons_against_statsmodels():
    from statsmodels.stats.proportion import proportion_confint

    from analytics.models import accuracy_interval

    for right, n in [(0, 1), (1, 1), (20, 20), (0, 20), (19, 20), (90, 100), (3, 7), (500, 800)]:
        for confidence in (0.9, 0.95, 0.99):
            acc, low, high = accuracy_interval(right, n, confidence)
            ref = proportion_confint(right, n, alpha=1 - confidence, method="wilson")
            assert acc == right / n
            np.testing.assert_allclose([low, high], ref, atol=1e-12)
    # arrays, and NaN (not a crash) for no gold item
    acc, low, high = accuracy_interval(np.array([3, 0]), np.array([4, 0]))
    assert np.isnan([acc[1], low[1], high[1]]).all() and 0 < low[0] < 0.75 < high[0] < 1


def test_accuracy_interval_reaches_exactly_one_and_zero_at_the_ends():
    """All right: the upper bound is 1, not 0.9999999999999999 (10 of 10 had read so)."""
    from analytics.models import accuracy_interval

    n = np.arange(1, 501)
    _, low, high = accuracy_interval(n, n)
    assert (high == 1.0).all() and (low < 1).all()
    _, low, high = accuracy_interval(np.zeros(500), n)
    assert (low == 0.0).all() and (high > 0).all()
    _, low, high = accuracy_interval(n - 0.5, n)  # a tie's half credit is not all right
    assert (high < 1).all()


def test_accuracy_interval_covers_near_one_where_the_bootstrap_does_not():
    """Coverage by simulation at n = 20 gold items: an accurate model (p = 0.95) is often
    right on all 20, where the binomial bootstrap reads [1, 1] and misses p."""
    from scipy.stats import binom

    from analytics.models import accuracy_interval, bootstrap_accuracy

    n = 20
    for p in (0.8, 0.95, 0.99):
        k = np.arange(n + 1)
        weight = binom.pmf(k, n, p)
        _, low, high = accuracy_interval(k, n)
        wilson = weight[(low <= p) & (p <= high)].sum()
        boot = sum(
            w
            for kk, w in zip(k, weight, strict=True)
            if (lambda a: a[1] <= p <= a[2])(
                bootstrap_accuracy(np.r_[np.ones(kk, bool), np.zeros(n - kk, bool)], n_boot=400)
            )
        )
        assert wilson >= 0.92, (p, wilson)
        if p >= 0.95:
            assert boot < 0.70 and wilson > boot + 0.2, (p, boot, wilson)


def test_gold_tables_never_read_a_zero_width_interval_from_a_perfect_score():
    rows = [(f"i{i}", a, "x" if i % 2 else "y") for i in range(12) for a in "abc"]
    ann = frame(rows)
    gold = pd.Series({f"i{i}": "x" if i % 2 else "y" for i in range(12)})
    one = gold_table({"ds": fit(ann, "dawid_skene")}, gold.iloc[:1]).iloc[0]
    assert one["accuracy"] == 1.0 and one["accuracy_low"] < 0.25 and one["accuracy_high"] == 1.0
    per = annotator_gold_accuracy(ann, gold)
    assert (per["accuracy"] == 1.0).all()
    np.testing.assert_allclose(per["accuracy_low"], 0.7575, atol=1e-4)  # 12 of 12


def test_a_gold_table_row_with_every_gold_item_clamped_says_why_it_is_nan():
    rows = [(f"i{i}", a, "x" if i % 2 else "y") for i in range(12) for a in "abc"]
    ann = frame(rows)
    gold = pd.Series({f"i{i}": "x" if i % 2 else "y" for i in range(12)})
    table = gold_table({"ds": fit(ann, "dawid_skene", gold=gold)}, gold)
    assert table.loc["ds"].drop("gold_items").isna().all() or np.isnan(table.loc["ds", "accuracy"])
    assert table.attrs["notes"] == (
        "ds: every gold item was clamped to its gold label in the fit, so none is left to "
        "score it on (fit without gold=, or clamp only some items).",
    )
    assert gold_table({"ds": fit(ann, "dawid_skene")}, gold).attrs["notes"] == ()


def test_another_data_sets_gold_file_is_named_as_such():
    """RTE's gold file beside the temporal-ordering judgements read only '800 gold items
    are not in the fit: ...', as if the fit had dropped them: the hint says that none is
    in the data set, and how the ids of each look."""
    from analytics.models import gold_table

    ann = frame([("42_0", "a", "1"), ("42_0", "b", "2"), ("11_1", "a", "1")])
    r = fit(ann, "majority")
    with pytest.raises(AnnotationDataError, match="not in the fit") as info:
        gold_table({"m": r}, {"1000": "1", "1004": "0"})
    said = str(info.value)
    assert "None of the gold items is in this data set" in said
    assert "'1000'" in said and "'42_0'" in said
    with pytest.raises(AnnotationDataError) as some:  # some inside: no such hint
        gold_table({"m": r}, {"42_0": "1", "1004": "0"})
    assert "None of the gold items" not in str(some.value)


def test_gold_labels_none_of_which_is_a_category_name_the_categories():
    """'gold labels ['7'] are not among the categories.' named neither the categories nor
    what to do. (Some unknown gold labels among known ones are scored as wrong, below.)"""
    from analytics.models import gold_table

    ann = frame([("i1", "a", "x"), ("i1", "b", "y"), ("i2", "a", "x")])
    with pytest.raises(AnnotationDataError, match="not among the categories") as info:
        gold_table({"m": fit(ann, "majority")}, {"i1": "8", "i2": "7"})
    said = str(info.value)
    assert "'x', 'y'" in said and "same category names" in said


def test_gold_written_as_decimals_matches_whole_number_categories_everywhere():
    """A gold file written by pandas from a float column says "1.0" for the category 1.

    ``dawid_skene.gold_accuracy``, clamping (``fit(gold=)``) and ``annotator_gold_accuracy``
    matched it by number; ``gold_table`` and ``calibration`` (and so the Overview) refused
    it as "not among the categories": the same gold file scored on one page and failed on
    the next.
    """
    ann = Annotations.from_frame(
        pd.DataFrame(
            [(i, a, (i + (a == "c")) % 2) for i in range(6) for a in "abc"],
            columns=["item", "annotator", "label"],
        )
    )
    as_text = {i: f"{i % 2}.0" for i in range(6)}
    r = fit(ann, "majority")
    table = gold_table({"majority": r}, as_text)
    assert table.loc["majority", "gold_items"] == 6
    assert table.loc["majority", "accuracy"] == 1.0
    assert calibration(r, as_text)["items"].sum() == 6
    assert annotator_gold_accuracy(ann, as_text).loc["c", "accuracy"] == 0.0


def test_a_gold_category_no_annotator_used_counts_as_wrong_as_gold_accuracy_counts_it():
    """An expert's category that no annotator chose (10 of RTE's 800 gold labels set to
    '2'): dawid_skene.gold_accuracy and the report's gold section count those items as
    wrong and say so, but gold_table and calibration refused the whole gold file, so the
    Overview (and the report's overview section) was 'not computed' for it."""
    from analytics.dawid_skene import gold_accuracy
    from analytics.overview import overview

    ann, gold = public("snow_rte")
    gold = gold.astype(object).copy()
    gold.iloc[:10] = "2"
    r = fit(ann, "dawid_skene")
    table = gold_table({"dawid_skene": r}, gold)
    expected = gold_accuracy(r, gold).iloc[-1]  # the model row
    assert table.loc["dawid_skene", "gold_items"] == 800
    assert table.loc["dawid_skene", "correct"] == pytest.approx(expected["correct"])
    assert "not among the categories" in " ".join(table.attrs["notes"])
    assert calibration(r, gold)["items"].sum() == 800
    per_annotator = annotator_gold_accuracy(ann, gold)  # refused the whole file too
    assert per_annotator["gold_judgements"].sum() == 8000
    answers = {a.key: a for a in overview(ann, gold=gold).answers}
    assert "800" in answers["gold"].sentence
    with pytest.raises(AnnotationDataError, match="not among the categories"):
        gold_table({"dawid_skene": r}, gold.map(lambda _: "2"))  # none matches: refused
