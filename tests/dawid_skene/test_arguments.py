"""Argument checks of the Dawid-Skene readers (issue 12): a bad value raises
:class:`AnnotationDataError` naming the argument, never a plain ValueError or numpy error."""

from __future__ import annotations

import numpy as np
import pytest

from analytics import AnnotationDataError
from analytics import dawid_skene as ds
from analytics.data import load_sample
from analytics.dawid_skene.information import conditional_entropy, entropy
from analytics.dawid_skene.reports import confident_share, fit_summary, spammer_scores

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
