"""Dawid-Skene input validation: every bad setting or parameter raises an
AnnotationDataError that says what was expected (never a raw numpy error, never a silent
truncation or broadcast)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError, Annotations
from analytics.dawid_skene import fit, log_likelihood, posterior

PI = [0.2, 0.8]
M = [[0.9, 0.1], [0.2, 0.8]]
THETA = [
    [[0.75, 0.25], [0.40, 0.60]],
    [[0.65, 0.35], [0.30, 0.70]],
    [[0.90, 0.10], [0.20, 0.80]],
]


def three_categories() -> Annotations:
    rows = [
        ("i1", "a", "x"),
        ("i1", "b", "x"),
        ("i1", "c", "y"),
        ("i2", "a", "y"),
        ("i2", "b", "y"),
        ("i2", "c", "z"),
        ("i3", "a", "z"),
        ("i3", "b", "z"),
        ("i3", "c", "z"),
    ]
    return Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))


def two_categories() -> Annotations:
    rows = [("i1", "a", "x"), ("i1", "b", "x"), ("i2", "a", "y"), ("i2", "b", "x")]
    return Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))


# ---------------------------------------------------------------- fit(): prior
@pytest.mark.parametrize(
    "prior",
    [
        [1, 2],  # K = 3: numpy cannot broadcast; K = 2 it would silently repeat the row
        [1, 2, 3],  # one row, not K x K
        np.ones((3, 1)),
        np.ones((2, 2)),
        np.ones((3, 3, 1)),
        [[1, 2], [3]],  # ragged
    ],
)
def test_prior_of_the_wrong_shape_names_the_expected_shape(prior):
    with pytest.raises(AnnotationDataError, match=r"3 x 3"):
        fit(three_categories(), prior=prior)


def test_prior_row_is_not_broadcast_for_two_categories():
    with pytest.raises(AnnotationDataError, match=r"2 x 2"):
        fit(two_categories(), prior=[1, 2])


@pytest.mark.parametrize(
    "prior",
    [
        "strong",
        -1.0,
        np.nan,
        np.inf,
        [[1, 0, 0], [0, -1, 0], [0, 0, 1]],
        [[1, 0, 0], [0, np.nan, 0], [0, 0, 1]],
    ],
)
def test_prior_must_be_finite_non_negative_numbers(prior):
    with pytest.raises(AnnotationDataError, match="prior"):
        fit(three_categories(), prior=prior)


def test_valid_priors_are_accepted():
    ann = three_categories()
    scalar = fit(ann, prior=1.0)
    full = fit(ann, prior=np.ones((3, 3)))
    np.testing.assert_allclose(scalar.posteriors, full.posteriors)
    frame = pd.DataFrame(2 * np.eye(3), index=ann.categories, columns=ann.categories)
    np.testing.assert_allclose(
        fit(ann, prior=frame).posteriors, fit(ann, prior=2 * np.eye(3)).posteriors
    )


def test_log_likelihood_validates_the_prior_too():
    ann = three_categories()
    pi = np.full(3, 1 / 3)
    theta = np.full((3, 3, 3), 1 / 3)
    with pytest.raises(AnnotationDataError, match=r"3 x 3"):
        log_likelihood(ann, pi, theta, prior=[1, 2])
    with pytest.raises(AnnotationDataError, match="smoothing"):
        log_likelihood(ann, pi, theta, smoothing=-0.5)


# ---------------------------------------------------------------- fit(): other settings
@pytest.mark.parametrize("smoothing", [-1, -1e-12, np.nan, np.inf, "light", None])
def test_smoothing_must_be_a_finite_non_negative_number(smoothing):
    with pytest.raises(AnnotationDataError, match="smoothing"):
        fit(two_categories(), smoothing=smoothing)


@pytest.mark.parametrize("max_iter", [-1, -2, 1.5, "many", None, np.nan])
def test_max_iter_must_be_a_whole_number_of_at_least_zero(max_iter):
    with pytest.raises(AnnotationDataError, match="max_iter"):
        fit(two_categories(), max_iter=max_iter)


@pytest.mark.parametrize("tol", [-1e-7, np.nan, np.inf, "small", None])
def test_tol_must_be_a_finite_non_negative_number(tol):
    with pytest.raises(AnnotationDataError, match="tol"):
        fit(two_categories(), tol=tol)


def test_tol_zero_runs_exactly_max_iter_iterations():
    res = fit(three_categories(), max_iter=4, tol=0.0)
    assert res.n_iter == 4 and not res.converged


def simulated(seed: int = 3, n_items: int = 300, n_annotators: int = 6) -> Annotations:
    """Judgements drawn from a Dawid-Skene model: 3 categories, annotators of 55-90 %."""
    rng = np.random.default_rng(seed)
    acc = rng.uniform(0.55, 0.9, n_annotators)
    truth = rng.choice(3, n_items, p=[0.5, 0.3, 0.2])
    rows = []
    for i, z in enumerate(truth):
        for j in rng.choice(n_annotators, 3, replace=False):
            right = rng.random() < acc[j]
            rows.append((f"i{i}", f"a{j}", int(z if right else (z + rng.integers(1, 3)) % 3)))
    return Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))


@pytest.mark.parametrize("param_tol", [-1e-4, np.nan, np.inf, "small"])
def test_param_tol_must_be_none_or_a_finite_non_negative_number(param_tol):
    with pytest.raises(AnnotationDataError, match="param_tol"):
        fit(two_categories(), param_tol=param_tol)


def test_parameter_change_is_the_largest_move_of_the_last_iteration():
    ann = simulated()
    before, after = fit(ann, max_iter=6, tol=0.0), fit(ann, max_iter=7, tol=0.0)
    moved = max(
        np.abs(after.confusion_array - before.confusion_array).max(),
        np.abs(after.prevalence.to_numpy() - before.prevalence.to_numpy()).max(),
    )
    assert after.parameter_change == pytest.approx(moved, abs=1e-15)
    assert np.isnan(fit(ann, max_iter=0).parameter_change)


def test_param_tol_waits_until_the_parameters_stop_moving():
    ann = simulated()
    loose = fit(ann, tol=1e-3)
    assert loose.converged and loose.parameter_change > 1e-6
    held = fit(ann, tol=1e-3, param_tol=1e-6)
    assert held.converged and held.n_iter > loose.n_iter and held.parameter_change < 1e-6
    assert held.settings["param_tol"] == 1e-6 and loose.settings["param_tol"] is None
    # without param_tol the fit is the log-likelihood rule alone, as before
    assert loose.n_iter == fit(ann, tol=1e-3, param_tol=None).n_iter


@pytest.mark.parametrize("init", ["nope", "Majority", None, 3])
def test_init_must_be_one_of_the_named_starts(init):
    with pytest.raises(AnnotationDataError, match="majority, soft, random, best"):
        fit(two_categories(), init=init)


@pytest.mark.parametrize("seed", [-1, 1.5, "seven", None])
def test_seed_must_be_a_non_negative_whole_number(seed):
    with pytest.raises(AnnotationDataError, match="seed"):
        fit(two_categories(), seed=seed)


def test_whole_number_settings_of_numpy_types_are_accepted():
    res = fit(
        two_categories(),
        max_iter=np.int64(3),
        tol=np.float32(1e-6),
        seed=np.int32(2),
        smoothing=np.float64(0.5),
    )
    assert res.settings["max_iter"] == 3 and res.settings["seed"] == 2


# ---------------------------------------------------------------- posterior(): observed
def test_minus_one_and_none_mean_not_labelled():
    assert posterior(PI, [M], [-1]) == pytest.approx(PI)
    assert posterior(PI, [M], [None]) == pytest.approx(PI)
    np.testing.assert_allclose(
        posterior(PI, THETA, [0, -1, 1]), posterior(PI, THETA, [0, None, 1]), rtol=0, atol=0
    )
    np.testing.assert_allclose(
        posterior(PI, THETA, np.array([0, -1, 1])), posterior(PI, THETA[::2], [0, 1])
    )


@pytest.mark.parametrize("bad", [-2, -100])
def test_other_negative_indices_raise(bad):
    with pytest.raises(AnnotationDataError, match="-1"):
        posterior(PI, [M], [bad])


@pytest.mark.parametrize("bad", [1.7, 0.5, -0.5, np.nan, np.inf, "1", "yes"])
def test_non_integer_indices_raise(bad):
    with pytest.raises(AnnotationDataError, match="whole number"):
        posterior(PI, [M], [bad])


def test_whole_float_indices_are_accepted():
    assert posterior(PI, THETA, np.array([0.0, 0.0, 1.0])) == pytest.approx(
        posterior(PI, THETA, [0, 0, 1])
    )
    assert posterior(PI, THETA, np.array([0, 0, 1], dtype=np.int32)) == pytest.approx(
        posterior(PI, THETA, [0, 0, 1])
    )


@pytest.mark.parametrize("bad", [2, 7])
def test_out_of_range_indices_raise(bad):
    with pytest.raises(AnnotationDataError, match=r"0 to 1"):
        posterior(PI, [M], [bad])


@pytest.mark.parametrize("observed", [[0, 0], [0, 0, 1, 1], [[0, 0, 1]], []])
def test_observed_needs_one_entry_per_annotator(observed):
    with pytest.raises(AnnotationDataError, match="3 entries"):
        posterior(PI, THETA, observed)


# ---------------------------------------------------------------- posterior(): parameters
@pytest.mark.parametrize(
    "prevalence, needle",
    [
        ([0.3, 0.8], "sum"),
        ([0.2, 0.8 + 1e-8], "sum"),
        ([-0.2, 1.2], "negative"),
        ([np.nan, 1.0], "finite"),
        ([[0.2, 0.8]], "vector of length K"),
        ([], "at least one"),
        (["a", "b"], "numbers"),
    ],
)
def test_prevalence_must_be_a_probability_vector(prevalence, needle):
    with pytest.raises(AnnotationDataError, match=needle):
        posterior(prevalence, [M], [0])


def test_prevalence_rounding_within_1e_9_is_accepted():
    p = posterior([0.2, 0.8 + 1e-10], [M], [0])
    assert p.sum() == pytest.approx(1.0)


@pytest.mark.parametrize(
    "confusions, obs, needle",
    [
        ([[0.9, 0.1], [0.2, 0.8]], [0], r"\(J, 2, 2\)"),  # one matrix, no annotator axis
        ([[[0.9, 0.1, 0.0], [0.2, 0.8, 0.0]]], [0], r"\(J, 2, 2\)"),
        ([[[0.9, 0.2], [0.2, 0.8]]], [0], "annotator 1.*row 1"),
        ([[[0.9, 0.1], [0.2, 0.8]], [[0.5, 0.5], [1.2, -0.2]]], [0, 0], "negative"),
        ([[[0.9, 0.1], [np.nan, 0.8]]], [0], "finite"),
        ([[[0.9, 0.1], [0.3]]], [0], r"\(J, 2, 2\)"),  # ragged
    ],
)
def test_confusion_rows_must_be_probability_vectors(confusions, obs, needle):
    with pytest.raises(AnnotationDataError, match=needle):
        posterior(PI, confusions, obs)


def test_impossible_labels_raise_a_data_error():
    # annotator never gives label 1 whatever the truth: observing it has probability zero
    with pytest.raises(AnnotationDataError, match="probability zero"):
        posterior(PI, [[[1.0, 0.0], [1.0, 0.0]]], [1])


def test_log_likelihood_parameters_are_probability_vectors():
    ann = three_categories()
    theta = np.full((3, 3, 3), 1 / 3)
    with pytest.raises(AnnotationDataError, match=r"prevalence.*sum"):
        log_likelihood(ann, [0.5, 0.5, 0.5], theta)
    bad = theta.copy()
    bad[1, 2] = [0.5, 0.5, 0.5]
    with pytest.raises(AnnotationDataError, match=r"annotator 2.*row 3"):
        log_likelihood(ann, np.full(3, 1 / 3), bad)
    with pytest.raises(AnnotationDataError, match=r"\(3, 3, 3\)"):
        log_likelihood(ann, np.full(3, 1 / 3), theta[:2])


@pytest.mark.parametrize(
    ("setting", "name"), [("smoothing", "smoothing"), ("prior", "prior pseudo-counts")]
)
def test_a_pseudo_count_too_large_to_compute_with_is_refused_naming_the_range(setting, name):
    # smoothing=1e308 overflowed a confusion row's sum: every posterior NaN, no error
    with pytest.raises(AnnotationDataError, match=rf"{name} must be a number from 0 to 1e12"):
        fit(two_categories(), **{setting: 1e308})
    result = fit(two_categories(), **{setting: 1e12})  # the largest allowed still computes
    assert np.isfinite(result.posteriors.to_numpy()).all()
