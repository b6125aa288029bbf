"""Noise-model input validation: impossible inputs raise an AnnotationDataError that names
the argument and says what it must be; undefined-but-legal situations return NaN with a
reason. Also: multi-label results say in plain words that label sets are categories."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError, Annotations
from analytics.noise import (
    adding_annotators,
    agreement_probability,
    chance_difference,
    equation1_posterior,
    hidden_hard_posterior,
    kappa_noise_estimate,
    max_disagreements,
    noise_bound,
    noise_from_annotations,
)
from analytics.noise.poisson_binomial import pb_moments, poisson_binomial_pmf


# ---------------------------------------------------------------------- agreement_probability
@pytest.mark.parametrize("rates", [[[0.5, 0.5]], [[0.2, 0.3, 0.5]], np.ones((1, 1))])
def test_one_annotator_has_no_chance_agreement(rates):
    # nobody to agree with: p is undefined, not 1
    with pytest.raises(AnnotationDataError, match="at least two annotators"):
        agreement_probability(rates)


@pytest.mark.parametrize(
    "rates, needle",
    [
        ([[0.5, 0.6], [0.5, 0.5]], "annotator 1 add up to 1.1"),
        ([[0.5, 0.5], [0.0, 0.0]], "annotator 2 add up to 0"),
        ([[0.5, 0.5], [1.5, -0.5]], "non-negative"),
        ([[0.5, 0.5], [np.nan, 1.0]], "non-negative numbers"),
        ([[0.5, 0.5], [np.inf, 0.0]], "non-negative numbers"),
        ([["a", "b"], ["c", "d"]], "numbers"),
        ([[0.5, 0.5], [1.0]], "one row per annotator"),  # ragged
        ([0.5, 0.5], "one row per annotator"),
        (np.zeros((2, 0)), "one row per annotator"),
    ],
)
def test_rates_must_be_probability_vectors(rates, needle):
    with pytest.raises(AnnotationDataError, match=needle):
        agreement_probability(rates)


# ---------------------------------------------------------------------- kappa_noise_estimate
@pytest.mark.parametrize(
    "args, needle",
    [
        ((0.5, 100, 900), "n_agreed \\(900\\) cannot exceed n_items \\(100\\)"),
        ((0.5, 100, -1), "n_agreed must be at least 0"),
        ((0.5, -100, 0), "n_items must be at least 1"),
        ((0.5, 0, 0), "n_items must be at least 1"),
        ((0.5, 100.5, 90), "n_items must be a whole number"),
        ((0.5, 100, 89.5), "n_agreed must be a whole number"),
        ((0.5, "100", 90), "n_items must be a whole number"),
        ((1.5, 100, 90), "kappa must lie between -1 and 1"),
        ((-1.5, 100, 90), "kappa must lie between -1 and 1"),
        (("high", 100, 90), "kappa must be a number"),
        ((None, 100, 90), "kappa must be a number"),
    ],
)
def test_kappa_noise_estimate_refuses_impossible_inputs(args, needle):
    with pytest.raises(AnnotationDataError, match=needle):
        kappa_noise_estimate(*args)


def test_kappa_noise_estimate_legal_but_unreadable_kappa_gives_nan_with_reason():
    neg = kappa_noise_estimate(-0.5, 100, 50)
    assert math.isnan(neg.noise) and "below chance" in neg.reason
    undefined = kappa_noise_estimate(float("nan"), 100, 50)
    assert math.isnan(undefined.noise) and "undefined" in undefined.reason
    edge = kappa_noise_estimate(1.0, 100, 100)
    assert edge.noise == 0.0 and not edge.reason


# ---------------------------------------------------------------------- noise_bound & co
@pytest.mark.parametrize(
    "args, needle",
    [
        ((10, 11, 0.5), "n_disagreed \\(d = 11\\) cannot exceed n_items \\(n = 10\\)"),
        ((10, -1, 0.5), "n_disagreed must be at least 0"),
        ((0, 0, 0.5), "n_items must be at least 1"),
        ((10.5, 2, 0.5), "n_items must be a whole number"),
        ((10, 2.5, 0.5), "n_disagreed must be a whole number"),
        ((10, 2, 1.5), "p must lie between 0 and 1"),
        ((10, 2, -0.1), "p must lie between 0 and 1"),
        ((10, 2, float("nan")), "p must lie between 0 and 1"),
        ((10, 2, "half"), "p must be a number"),
        ((10, 2, 0.5, "95%"), "confidence must be a number"),
        ((10, 2, 0.5, 1.0), "confidence must lie strictly between 0 and 1"),
        ((10, 2, 0.5, float("nan")), "confidence must lie strictly between 0 and 1"),
    ],
)
def test_noise_bound_refuses_impossible_inputs(args, needle):
    with pytest.raises(AnnotationDataError, match=needle):
        noise_bound(*args)


def test_noise_bound_prior_must_be_numbers():
    with pytest.raises(AnnotationDataError, match="prior"):
        noise_bound(3, 1, 0.5, prior=["a", "b", "c", "d"])
    with pytest.raises(AnnotationDataError, match="4 values"):
        noise_bound(3, 1, 0.5, prior=[1, 1])


@pytest.mark.parametrize(
    "args, needle",
    [
        ((10, 11, 0.5), "cannot exceed"),
        ((10, 2, 1.5), "p must lie"),
        ((10, 2, "x"), "p must be a number"),
    ],
)
def test_equation1_posterior_checks_its_inputs(args, needle):
    with pytest.raises(AnnotationDataError, match=needle):
        equation1_posterior(*args)


@pytest.mark.parametrize(
    "args, needle",
    [
        ((0, 0.5, 0.05), "n_items must be at least 1"),
        ((100, 1.5, 0.05), "p must lie between 0 and 1"),
        ((100, 0.5, 1.5), "gamma must lie between 0 and 1"),
        ((100, 0.5, -0.1), "gamma must lie between 0 and 1"),
        ((100, 0.5, 0.05, 0.0), "confidence"),
    ],
)
def test_max_disagreements_refuses_impossible_inputs(args, needle):
    with pytest.raises(AnnotationDataError, match=needle):
        max_disagreements(*args)


@pytest.mark.parametrize(
    "kwargs, needle",
    [
        ({"easy_share": 1.5}, "share of easy items must lie between 0 and 1"),
        ({"easy_share": 0.5, "k_values": [2, 2.5]}, "whole number"),
        ({"easy_share": 0.5, "k_values": [1, 2]}, "at least 2"),
        ({"easy_share": 0.5, "k_values": []}, "at least one number of annotators"),
        ({"easy_share": 0.5, "hard_rates": [0.5, 0.6]}, "add up to 1.1"),
        ({"easy_share": 0.5, "hard_rates": ["a", "b"]}, "numbers"),
        ({"easy_share": 0.5, "k_values": [2, 3], "p": ["x", 0.5]}, "p must be a number"),
        ({"easy_share": 0.5, "k_values": [2, 3], "p": [0.5, 1.2]}, "p must lie between 0 and 1"),
        ({"easy_share": 0.5, "confidence": 95}, "confidence"),
    ],
)
def test_adding_annotators_refuses_impossible_inputs(kwargs, needle):
    with pytest.raises(AnnotationDataError, match=needle):
        adding_annotators(100, **kwargs)


@pytest.mark.parametrize(
    "args, needle",
    [
        ((100, 200), "n_noisy \\(R = 200\\) must lie between 0 and n_gold \\(L = 100\\)"),
        ((100, -1), "n_noisy"),
        ((100, float("nan")), "n_noisy"),
        ((100.5, 10), "n_gold must be a whole number"),
        ((0, 0), "n_gold must be at least 1"),
        (("many", 10), "n_gold must be a whole number"),
        ((100, "ten"), "n_noisy must be a number"),
        ((100, 10, "chebyshev", 1.0), "confidence"),
    ],
)
def test_chance_difference_refuses_impossible_inputs(args, needle):
    with pytest.raises(AnnotationDataError, match=needle):
        chance_difference(*args)


# ---------------------------------------------------------------------- per-item p
@pytest.mark.parametrize(
    "args, kwargs, needle",
    [
        (([0.5, 1.2], 3), {}, "between 0 and 1"),
        (([0.5, np.nan], 3), {}, "between 0 and 1"),
        (([0.5, 0.4], -1), {}, "n_disagreed must be at least 0"),
        (([0.5, 0.4], 2.5), {}, "n_disagreed must be a whole number"),
        (([0.5, 0.4], 3), {"method": "magic"}, "unknown method"),
        (([0.5, 0.4], 3), {"n_nodes": 0}, "n_nodes must be at least 1"),
    ],
)
def test_hidden_hard_posterior_refuses_impossible_inputs(args, kwargs, needle):
    with pytest.raises(AnnotationDataError, match=needle):
        hidden_hard_posterior(*args, **kwargs)


@pytest.mark.parametrize("probs", [[0.5, np.nan], [0.5, 1.5], [-0.1]])
def test_poisson_binomial_refuses_bad_probabilities(probs):
    with pytest.raises(AnnotationDataError, match="between 0 and 1"):
        poisson_binomial_pmf(np.array(probs))
    with pytest.raises(AnnotationDataError, match="between 0 and 1"):
        pb_moments(np.array(probs))


def _two_annotators() -> Annotations:
    df = pd.DataFrame(
        {
            "item": ["i1", "i1", "i2", "i2", "i3", "i3"],
            "annotator": ["A", "B"] * 3,
            "label": ["x", "x", "x", "y", "y", "y"],
        }
    )
    return Annotations.from_frame(df)


@pytest.mark.parametrize(
    "kwargs, needle",
    [
        ({"confidence": 1.5}, "confidence"),
        ({"method": "magic"}, "unknown method"),  # refused even when coverage is even
        ({"n_nodes": -3}, "n_nodes must be at least 1"),
    ],
)
def test_noise_from_annotations_checks_options_up_front(kwargs, needle):
    with pytest.raises(AnnotationDataError, match=needle):
        noise_from_annotations(_two_annotators(), **kwargs)


# ---------------------------------------------------------------------- multi-label
def _multilabel() -> Annotations:
    df = pd.DataFrame(
        {
            "item": ["i1", "i1", "i2", "i2", "i3", "i3", "i4", "i4", "i5", "i5"],
            "annotator": ["A", "B"] * 5,
            "label": [
                "joy|anger",
                "anger|joy",
                "joy",
                "joy|anger",
                "{}",
                "{}",
                "fear",
                "joy",
                "joy",
                "joy",
            ],
        }
    )
    return Annotations.from_frame(df, multilabel_sep="|")


def test_multilabel_notes_say_label_sets_are_categories_in_plain_words():
    r = noise_from_annotations(_multilabel())
    assert r.ok
    note = next(n for n in r.notes if n.startswith("Multi-label"))
    assert "exactly the same set" in note
    assert "overlap" in note  # partly overlapping sets count as a disagreement
    # the one sentence the HTML report shows says it too
    assert "label set" in r.explain()


def test_multilabel_note_survives_degenerate_results():
    df = pd.DataFrame({"item": ["i1", "i1"], "annotator": ["A", "B"], "label": ["a|b", "b|a"]})
    r = noise_from_annotations(Annotations.from_frame(df, multilabel_sep="|"))
    assert not r.ok and any(n.startswith("Multi-label") for n in r.notes)
    assert "label set" in r.explain()


def test_single_label_explain_does_not_mention_label_sets():
    assert "label set" not in noise_from_annotations(_two_annotators()).explain()


# ---------------------------------------------------------------------- shared checks
@pytest.mark.parametrize("bound", ["magic", "", None, 3])
def test_chance_difference_refuses_an_unknown_bound(bound):
    with pytest.raises(AnnotationDataError, match=r"unknown bound .*use one of chebyshev"):
        chance_difference(100, 10, bound)


def test_chance_difference_bound_ignores_case():
    assert chance_difference(100, 10, "Normal").bound == "normal"


@pytest.mark.parametrize("budget", [0, -1.0, float("nan")])
def test_hidden_hard_posterior_refuses_a_budget_that_is_not_positive(budget):
    with pytest.raises(AnnotationDataError, match="budget must be a positive number"):
        hidden_hard_posterior([0.5, 0.4], 3, budget=budget)


@pytest.mark.parametrize("budget", ["a lot", None, True])
def test_hidden_hard_posterior_refuses_a_budget_that_is_not_a_number(budget):
    with pytest.raises(AnnotationDataError, match="budget must be a number"):
        hidden_hard_posterior([0.5, 0.4], 3, budget=budget)
