"""Argument checks of the Dawid-Skene readers (issue 12): a bad value raises
:class:`AnnotationDataError` naming the argument, never a plain ValueError or numpy error."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError
from analytics import dawid_skene as ds
from analytics._core.errors import ArgumentTypeError
from analytics.data import load_sample
from analytics.dawid_skene.information import conditional_entropy, entropy
from analytics.dawid_skene.reports import confident_share, fit_summary, spammer_scores
from tests.helpers.paths import SAMPLE_DATA

PI = [0.2, 0.8]
THETA = [[0.75, 0.25], [0.40, 0.60]]


@pytest.fixture(scope="module")
def res():
    return ds.fit(load_sample("crowd_intents"))


@pytest.mark.parametrize("function", [ds.mutual_information, conditional_entropy])
@pytest.mark.parametrize(
    ("confusion", "prevalence", "name"),
    [
        ([[0.5, 0.2], [0.5, 0.5]], PI, "confusion"),  # a row does not sum to 1
        ([[1.2, -0.2], [0.4, 0.6]], PI, "confusion"),  # negative entry
        ([[0.5, 0.5, 0.0], [0.5, 0.5, 0.0]], PI, "confusion"),  # not square
        ([[np.nan, 1.0], [0.4, 0.6]], PI, "confusion"),
        ([["a", "b"], ["c", "d"]], PI, "confusion"),
        ([0.5, 0.5], PI, "confusion"),  # one row, not a matrix
        (THETA, [0.2, 0.3, 0.5], "prevalence"),  # wrong length
        (THETA, [0.3, 0.3], "prevalence"),  # does not sum to 1
        (THETA, [1.2, -0.2], "prevalence"),
        (THETA, ["x", "y"], "prevalence"),
    ],
)
def test_information_refuses_bad_parameters(function, confusion, prevalence, name):
    with pytest.raises(AnnotationDataError, match=name):
        function(confusion, prevalence)


@pytest.mark.parametrize("p", [[0.5, 0.2], [1.5, -0.5], [np.nan, 1.0], ["a"], []])
def test_entropy_refuses_a_non_distribution(p):
    with pytest.raises(AnnotationDataError, match=r"\bp\b"):
        entropy(p)


def test_information_good_values_still_pass():
    assert entropy([0.25, 0.25, 0.5]) == pytest.approx(1.5)
    assert ds.mutual_information(np.eye(2), [0.5, 0.5]) == pytest.approx(1.0)
    assert ds.mutual_information(np.array([THETA, THETA]), PI).shape == (2,)


@pytest.mark.parametrize("threshold", [1.5, -0.1, float("nan"), "0.99", None, True])
def test_confident_share_and_fit_summary_check_threshold(res, threshold):
    with pytest.raises(AnnotationDataError, match="threshold"):
        confident_share(res, threshold)
    with pytest.raises(AnnotationDataError, match="threshold"):
        fit_summary(res, threshold)


def test_threshold_bounds_are_allowed(res):
    assert fit_summary(res, 0).confident_share == pytest.approx(1.0)
    assert 0.0 <= fit_summary(res, 1.0).confident_share <= 1.0


@pytest.mark.parametrize(
    "confusion",
    [
        [[[0.5, 0.2], [0.5, 0.5]]],  # a row does not sum to 1
        [[[2.0, 0.0], [0.0, 1.0]]],
        [[[-0.5, 1.5], [0.0, 1.0]]],
        [[0.5, 0.5], [0.5, 0.5]],  # one matrix without the annotator axis
        [[[np.inf, 0.0], [0.0, 1.0]]],
        "spam",
    ],
)
def test_spammer_scores_refuse_non_stochastic_input(confusion):
    with pytest.raises(AnnotationDataError, match="confusion"):
        spammer_scores(confusion)


# ---------------------------------------------------------------------- refused kinds and values
# (each of these reached the user as a bare ValueError, KeyError or AttributeError, or was
# accepted and answered wrongly)
TRUTH = SAMPLE_DATA / "crowd_intents_truth.csv"


@pytest.fixture(scope="module")
def ann():
    return load_sample("crowd_intents")


def test_fit_refuses_initial_error_that_is_not_counts(ann):
    with pytest.raises(ArgumentTypeError, match="initial_error as confusion counts"):
        ds.fit(ann, initial_error="x")  # was "could not convert string to float"
    k = ann.n_categories
    with pytest.raises(AnnotationDataError, match="must hold numbers"):
        ds.fit(ann, initial_error={ann.annotators[0]: [["a"] * k] * k})
    with pytest.raises(AnnotationDataError, match="must hold numbers"):
        ds.fit(ann, initial_error=np.full((ann.n_annotators, k, k), "a"))


def test_pick_annotators_checks_how_n_and_chosen(res):
    with pytest.raises(AnnotationDataError, match="unknown pick 'foo'"):
        ds.pick_annotators(res, how="foo")  # was a plain ValueError
    with pytest.raises(AnnotationDataError, match="n must be at least 0"):
        ds.pick_annotators(res, n=-1)  # was []
    with pytest.raises(AnnotationDataError, match="n must be a whole number"):
        ds.pick_annotators(res, n=2.5)
    with pytest.raises(AnnotationDataError, match="not in the fit: 'zz'"):
        ds.pick_annotators(res, how="chosen", chosen=["zz"])  # was []
    with pytest.raises(AnnotationDataError, match="needs the annotators"):
        ds.pick_annotators(res, how="chosen")
    first = res.annotators[0]
    assert ds.pick_annotators(res, how="chosen", chosen=[first]) == [first]
    assert len(ds.pick_annotators(res, n=0)) == 0


def test_confusion_heatmaps_names_an_unknown_annotator(res):
    with pytest.raises(AnnotationDataError, match="not in the fit: 'zzz'"):
        ds.confusion_heatmaps(res, ["zzz"])  # was KeyError


@pytest.mark.parametrize(
    "function",
    [
        ds.fit_summary,
        ds.confident_share,
        ds.majority_agreement,
        ds.prevalence_comparison,
        ds.annotator_information,
        ds.confidence_histogram,
        ds.log_likelihood_figure,
        ds.prevalence_figure,
        ds.mutual_information_figure,
        ds.pick_annotators,
        ds.confusion_heatmaps,
    ],
)
def test_functions_of_a_fit_refuse_annotations(ann, function):
    with pytest.raises(ArgumentTypeError, match="expected a fitted model") as info:
        function(ann)  # fit_summary's was AttributeError 'Annotations' has no 'posteriors'
    assert f"{function.__name__}(fit(ann))" in str(info.value)


@pytest.mark.parametrize("below", [2, 1.5, 0, -0.5, float("nan")])
def test_uncertain_items_takes_a_share_in_zero_one(res, below):
    with pytest.raises(AnnotationDataError, match=r"below must be a posterior in \(0, 1\]"):
        ds.uncertain_items(res, below=below)  # 2 was accepted


def test_uncertain_items_at_one_keeps_every_item_not_certain(res):
    assert len(ds.uncertain_items(res, below=1)) == int((res.confidence < 1).sum())


@pytest.mark.parametrize("gold", [str(TRUTH), TRUTH, "path/to/file.csv"])
def test_fit_refuses_a_gold_file_name_and_names_the_reader(ann, gold):
    with pytest.raises(ArgumentTypeError, match="read_gold_labels") as info:
        ds.fit(ann, gold=gold)  # was "Gold items look like [0]"
    assert "expected gold labels as a pandas Series or a mapping" in str(info.value)


def test_fit_refuses_a_gold_table_and_says_how_to_make_a_series(ann):
    table = pd.read_csv(TRUTH)
    with pytest.raises(ArgumentTypeError, match="not one label per item") as info:
        ds.fit(ann, gold=table)  # was pandas' "Cannot construct a Series from a DataFrame"
    assert "set_index('item')['label']" in str(info.value)
    with pytest.raises(ArgumentTypeError, match="mapping item -> label"):
        ds.fit(ann, gold=[("msg001", "question")])  # a list read as items 0, 1, ...
    assert len(ds.fit(ann, gold=table.set_index("item")["label"]).gold_items) == len(table)


def test_fit_refuses_a_gold_item_listed_twice(ann):
    gold = pd.Series(["question", "request"], index=["msg001", "msg001"])
    with pytest.raises(AnnotationDataError, match="'msg001' more than once"):
        ds.fit(ann, gold=gold)  # was accepted silently
    with pytest.raises(AnnotationDataError, match="'msg001' more than once"):
        ds.gold_accuracy(ds.fit(ann), gold)


def test_gold_accuracy_refuses_a_path(res):
    with pytest.raises(ArgumentTypeError, match="read_gold_labels"):
        ds.gold_accuracy(res, str(TRUTH))
