"""Dawid-Skene parity with crowd-kit: the step-by-step state and ``initial_error``.

Published figures: crowd-kit's own test suite, ``tests/aggregation/test_ds_aggregation.py``
(``test_dawid_skene_step_by_step``, 5 tasks x 5 workers, yes/no): after ``n_iter=0`` the
probabilities are the majority-vote shares (t1 0.5/0.5, t2 0.4/0.6, t3 0.6/0.4, t4 0/1,
t5 0.8/0.2), priors no 0.46 / yes 0.54, and the error matrices printed there; after
``n_iter=1`` t1 0.35/0.65 ... and priors 0.49/0.51 (all to 0.005). crowd-kit's state after
``n_iter`` iterations is the posteriors the last M-step was made from with that M-step's
parameters: Concord's ``fit(..., init="soft", smoothing=0, finish="m_step")``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError, load_annotations
from analytics.dawid_skene import fit

DATA = [
    ("t1", "w1", "no"), ("t1", "w2", "yes"), ("t1", "w4", "yes"), ("t1", "w5", "no"),
    ("t2", "w1", "yes"), ("t2", "w2", "yes"), ("t2", "w3", "yes"), ("t2", "w4", "no"),
    ("t2", "w5", "no"),
    ("t3", "w1", "yes"), ("t3", "w2", "no"), ("t3", "w3", "no"), ("t3", "w4", "yes"),
    ("t3", "w5", "no"),
    ("t4", "w1", "yes"), ("t4", "w2", "yes"), ("t4", "w3", "yes"), ("t4", "w4", "yes"),
    ("t4", "w5", "yes"),
    ("t5", "w1", "yes"), ("t5", "w2", "no"), ("t5", "w3", "no"), ("t5", "w4", "no"),
    ("t5", "w5", "no"),
]  # fmt: skip
# crowd-kit's fixtures: probas (no, yes) per task, priors (no, yes), errors per worker as
# [P(no | true no), P(no | true yes)] (the "no" row of crowd-kit's worker x observed table)
PUBLISHED = {
    0: {
        "probas": [[0.5, 0.5], [0.4, 0.6], [0.6, 0.4], [0.0, 1.0], [0.8, 0.2]],
        "priors": [0.46, 0.54],
        "labels": ["no", "yes", "no", "yes", "no"],
        "errors_no": {
            "w1": [0.22, 0.19], "w2": [0.61, 0.22], "w3": [0.78, 0.27],
            "w4": [0.52, 0.30], "w5": [1.00, 0.63],
        },
    },
    1: {
        "probas": [[0.35, 0.65], [0.26, 0.74], [0.87, 0.13], [0.0, 1.0], [0.95, 0.05]],
        "priors": [0.49, 0.51],
        "labels": ["yes", "yes", "no", "yes", "no"],
        "errors_no": {
            "w1": [0.14, 0.25], "w2": [0.75, 0.07], "w3": [0.87, 0.09],
            "w4": [0.50, 0.31], "w5": [1.00, 0.61],
        },
    },
}  # fmt: skip


def frame() -> pd.DataFrame:
    return pd.DataFrame(DATA, columns=["item", "annotator", "label"])


def crowdkit_settings(n_iter: int) -> dict:
    return {"max_iter": n_iter, "tol": 0.0, "init": "soft", "smoothing": 0.0, "finish": "m_step"}


@pytest.mark.parametrize("n_iter", [0, 1])
def test_step_by_step_figures_of_crowdkits_tests(n_iter):
    res = fit(load_annotations(frame()), **crowdkit_settings(n_iter))
    pub = PUBLISHED[n_iter]
    post = res.posteriors.loc[["t1", "t2", "t3", "t4", "t5"], ["no", "yes"]]
    np.testing.assert_allclose(post.to_numpy(), pub["probas"], atol=0.005)
    np.testing.assert_allclose(res.prevalence[["no", "yes"]], pub["priors"], atol=0.005)
    assert res.labels.loc[["t1", "t2", "t3", "t4", "t5"]].tolist() == pub["labels"]
    for worker, (no_no, no_yes) in pub["errors_no"].items():
        conf = res.confusion[worker]  # true x given
        assert conf.loc["no", "no"] == pytest.approx(no_no, abs=0.005)
        assert conf.loc["yes", "no"] == pytest.approx(no_yes, abs=0.005)
    assert res.n_iter == n_iter


@pytest.fixture(scope="module")
def crowdkit():
    return pytest.importorskip("crowdkit.aggregation")


def random_crowd(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, 40)
    rows = []
    for w in range(6):
        for t in range(40):
            if rng.random() < 0.7:
                label = truth[t] if rng.random() < 0.7 else rng.integers(0, 3)
                rows.append((f"t{t}", f"w{w}", f"c{label}"))
    return pd.DataFrame(rows, columns=["task", "worker", "label"])


def compare(res, ds, data):
    tasks = list(ds.probas_.index)
    cats = list(ds.probas_.columns)
    np.testing.assert_allclose(
        res.posteriors.loc[tasks, cats].to_numpy(), ds.probas_.to_numpy(), atol=1e-6
    )
    np.testing.assert_allclose(res.prevalence[cats].to_numpy(), ds.priors_[cats], atol=1e-6)
    for worker in data["worker"].unique():
        theirs = ds.errors_.loc[worker].reindex(index=cats, columns=cats)  # observed x true
        ours = res.confusion[worker].loc[cats, cats].T
        np.testing.assert_allclose(ours.to_numpy(), theirs.to_numpy(), atol=1e-6)


@pytest.mark.parametrize("n_iter", [0, 1, 4])
@pytest.mark.parametrize("strategy", ["addition", "assign"])
def test_initial_error_matches_crowdkit(crowdkit, n_iter, strategy):
    data = random_crowd(n_iter)
    rng = np.random.default_rng(10 + n_iter)
    cats = ["c0", "c1", "c2"]
    workers = sorted(data["worker"].unique())
    given = workers if strategy == "assign" else workers[:3]  # addition: partial is fine
    index = pd.MultiIndex.from_product([given, cats], names=["worker", "label"])
    initial = pd.DataFrame(rng.integers(1, 10, (len(index), 3)), index=index, columns=cats)
    ds = crowdkit.DawidSkene(n_iter=n_iter, tol=-np.inf, initial_error_strategy=strategy)
    ds.fit(data, initial_error=initial.astype(float))
    ann = load_annotations(data.rename(columns={"task": "item", "worker": "annotator"}))
    res = fit(
        ann, initial_error=initial, initial_error_strategy=strategy, **crowdkit_settings(n_iter)
    )
    compare(res, ds, data)


def test_initial_error_as_a_mapping_or_array_means_the_same():
    ann = load_annotations(frame())
    prior = {"w1": pd.DataFrame([[9, 1], [1, 9]], index=["no", "yes"], columns=["no", "yes"])}
    a = fit(ann, initial_error=prior, **crowdkit_settings(0))
    arr = np.zeros((ann.n_annotators, 2, 2))
    w1 = list(ann.annotators).index("w1")
    order = [list(ann.categories).index(c) for c in ["no", "yes"]]
    arr[w1][np.ix_(order, order)] = [[9, 1], [1, 9]]
    b = fit(ann, initial_error=arr, **crowdkit_settings(0))
    np.testing.assert_allclose(a.confusion_array, b.confusion_array)
    plain = fit(ann, **crowdkit_settings(0))
    assert not np.allclose(a.confusion["w1"], plain.confusion["w1"])
    np.testing.assert_allclose(a.confusion["w2"], plain.confusion["w2"])  # only w1 moved


def test_bad_initial_error_is_refused_with_a_reason():
    ann = load_annotations(frame())
    with pytest.raises(AnnotationDataError, match="not in the data"):
        fit(ann, initial_error={"nobody": np.eye(2)})
    with pytest.raises(AnnotationDataError, match="missing"):
        fit(ann, initial_error={"w1": np.eye(2)}, initial_error_strategy="assign")
    with pytest.raises(AnnotationDataError, match="strategy"):
        fit(ann, initial_error={"w1": np.eye(2)}, initial_error_strategy="replace")
    with pytest.raises(AnnotationDataError, match="shape"):
        fit(ann, initial_error=np.eye(2))
    with pytest.raises(AnnotationDataError, match="finish"):
        fit(ann, finish="halfway")


@pytest.mark.parametrize("strategy", ["replace", None, True])
def test_an_unknown_initial_error_strategy_is_refused_without_initial_error_too(strategy):
    """Checked only when initial_error was given, so a misspelt strategy passed silently."""
    with pytest.raises(AnnotationDataError, match="initial_error_strategy"):
        fit(load_annotations(frame()), initial_error_strategy=strategy)


def test_default_fit_is_unchanged_by_the_new_options():
    ann = load_annotations(frame())
    assert np.allclose(
        fit(ann).posteriors, fit(ann, finish="e_step", initial_error=None).posteriors
    )


def test_boolean_labels_come_back_as_booleans(crowdkit):
    data = random_crowd(5)
    data["label"] = data["label"] != "c0"  # booleans, as crowd-kit's bool-label tests
    ann = load_annotations(data.rename(columns={"task": "item", "worker": "annotator"}))
    assert list(ann.categories) == [True, False] or list(ann.categories) == [False, True]
    res = fit(ann, **crowdkit_settings(5))
    assert {type(v) for v in res.labels} == {bool}
    assert set(res.posteriors.columns) == {True, False}
    ds = crowdkit.DawidSkene(n_iter=5, tol=-np.inf).fit(data)
    assert res.labels.loc[ds.labels_.index].tolist() == ds.labels_.tolist()


def test_text_that_reads_true_stays_text():
    df = pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": ["True", "False"]})
    assert list(load_annotations(df).categories) == ["True", "False"]
