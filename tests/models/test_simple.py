"""Majority vote, the Dawid-Skene wrapper and one-coin Dawid-Skene in analytics.models."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError, Annotations
from analytics import dawid_skene as ds
from analytics.dawid_skene import DawidSkeneResult
from analytics.models import MODELS, ModelResult, fit, one_coin_confusion
from tests.models.helpers import accuracy, public, simulate


def frame(rows):
    return Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))


def test_majority_splits_ties_and_reads_off_confusions():
    ann = frame(
        [("i1", "a", "x"), ("i1", "b", "x"), ("i1", "c", "y"), ("i2", "a", "x"), ("i2", "b", "y")]
    )
    r = fit(ann, "majority", smoothing=0)
    assert r.posteriors.loc["i1"].tolist() == [1.0, 0.0]
    assert r.posteriors.loc["i2"].tolist() == [0.5, 0.5]
    # annotator c said y on an x item: that row of its confusion is all "y"
    assert r.confusion["c"].loc["x"].tolist() == [0.0, 1.0]
    assert r.prevalence.tolist() == [0.75, 0.25]
    assert len(r.log_likelihood) == 1 and r.model == "majority"


def test_every_result_is_a_dawid_skene_result_with_its_fields():
    ann = frame([("i1", "a", "x"), ("i1", "b", "x"), ("i2", "a", "y"), ("i2", "b", "y")])
    for model in MODELS:
        r = fit(ann, model)
        assert isinstance(r, ModelResult) and isinstance(r, DawidSkeneResult)
        assert r.model == model
        assert r.confusion_array.shape == (2, 2, 2)
        assert r.posteriors.shape == (2, 2)
        np.testing.assert_allclose(r.confusion_array.sum(axis=2), 1.0)
        np.testing.assert_allclose(r.posteriors.sum(axis=1), 1.0)
        assert r.settings["seconds"] >= 0


def test_dawid_skene_is_the_existing_fit():
    ann, _ = public("snow_temp")
    old = ds.fit(ann, smoothing=0.1, init="best")
    new = fit(ann, "dawid_skene", smoothing=0.1)
    np.testing.assert_array_equal(new.confusion_array, old.confusion_array)
    np.testing.assert_array_equal(new.posteriors.to_numpy(), old.posteriors.to_numpy())
    assert new.notes == old.notes


def test_one_coin_confusion_shape():
    theta = one_coin_confusion(np.array([0.7, 1.0]), 3)
    np.testing.assert_allclose(theta[0], [[0.7, 0.15, 0.15], [0.15, 0.7, 0.15], [0.15, 0.15, 0.7]])
    np.testing.assert_allclose(theta[1], np.eye(3))


def test_one_coin_recovers_simulated_accuracies_and_climbs():
    acc = np.array([0.55, 0.65, 0.75, 0.85, 0.95, 0.6, 0.9, 0.7])
    ann, truth = simulate(one_coin_confusion(acc, 3), [0.5, 0.3, 0.2], 3000, 4, seed=1)
    r = fit(ann, "one_coin")
    est = pd.Series(r.parameters["accuracy"], index=r.annotators)
    true = pd.Series(acc, index=[f"a{j}" for j in range(len(acc))])
    np.testing.assert_allclose(est[true.index], true, atol=0.04)
    np.testing.assert_allclose(r.prevalence.sort_index(), [0.5, 0.3, 0.2], atol=0.03)
    assert (np.diff(r.log_likelihood) >= -1e-9 * abs(r.log_likelihood[-1])).all()
    assert r.converged
    codes = r.categories.get_indexer(r.labels.reindex([f"i{i}" for i in range(3000)]))
    mv = fit(ann, "majority").labels.reindex([f"i{i}" for i in range(3000)])
    assert (codes == truth).mean() > (r.categories.get_indexer(mv) == truth).mean()


def test_one_coin_ignores_label_and_annotator_names():
    ann, _ = public("zheng_s4_Dog_data")
    base = fit(ann, "one_coin")
    f = ann.to_frame()
    rename = {c: f"L{c}!" for c in ann.categories}
    f = f.assign(label=f["label"].map(rename), annotator="w" + f["annotator"].astype(str))
    other = fit(Annotations.from_frame(f.iloc[::-1]), "one_coin")
    assert (base.labels.map(rename) == other.labels.reindex(base.items)).all()
    np.testing.assert_allclose(
        base.parameters["accuracy"],
        pd.Series(other.parameters["accuracy"], index=other.annotators)[
            "w" + base.annotators.astype(str)
        ],
        atol=1e-8,
    )


# crowd-kit 1.4.2 with defaults (issue 15's table): our majority vote (ties to the first
# category) and one-coin fits give the same accuracy on every public set
CROWDKIT = {
    "snow_rte": (0.919, 0.925),
    "snow_temp": (0.939, 0.939),
    "snow_wsd": (0.994, 0.994),
    "welinder_bluebirds": (0.759, 0.583),
    "zheng_s4_Dog_data": (0.818, 0.830),
    "act_MS": (0.710, 0.793),
}


@pytest.mark.parametrize("name", sorted(CROWDKIT))
def test_public_accuracy_matches_crowdkit_table(name):
    ann, gold = public(name)
    mv, one = CROWDKIT[name]
    assert accuracy(fit(ann, "majority"), gold) == pytest.approx(mv, abs=0.0006)
    assert accuracy(fit(ann, "one_coin"), gold) == pytest.approx(one, abs=0.0006)


def test_one_coin_matches_crowdkit():
    """Same start (majority vote), no smoothing: crowd-kit's OneCoinDawidSkene is the same
    EM, so the accuracies, prevalence and labels agree (to crowd-kit's convergence)."""
    aggregation = pytest.importorskip("crowdkit.aggregation")
    ann, _ = public("snow_rte")
    f = ann.to_frame().rename(columns={"item": "task", "annotator": "worker"})
    f["label"] = f["label"].astype(str)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = aggregation.OneCoinDawidSkene(n_iter=500, tol=1e-10).fit(f)
    ours = fit(ann, "one_coin", smoothing=0, tol=1e-12, init="majority")
    acc = pd.Series(ours.parameters["accuracy"], index=ours.annotators.astype(str))
    skills = theirs.skills_.set_axis(theirs.skills_.index.astype(str))
    np.testing.assert_allclose(skills.reindex(acc.index), acc, atol=1e-3)
    prior = theirs.priors_.set_axis(theirs.priors_.index.astype(str))
    np.testing.assert_allclose(prior[ours.categories.astype(str)], ours.prevalence, atol=1e-3)
    labels = ours.labels.astype(str)
    assert (theirs.labels_.reindex(labels.index) == labels).mean() >= 0.995


def test_bad_model_and_settings_are_refused():
    ann = frame([("i1", "a", "x"), ("i1", "b", "y")])
    with pytest.raises(AnnotationDataError, match="unknown model 'glados'"):
        fit(ann, "glados")
    with pytest.raises(AnnotationDataError, match="takes no setting 'prior'"):
        fit(ann, "one_coin", prior=1.0)
    with pytest.raises(AnnotationDataError, match="max_iter"):
        fit(ann, "one_coin", max_iter=-1)  # 0 is valid: the start itself (crowd-kit n_iter=0)
    with pytest.raises(AnnotationDataError, match="not among the categories"):
        fit(ann, "majority", gold={"i1": "z"})


def test_gold_is_clamped():
    ann = frame([("i1", "a", "x"), ("i1", "b", "y"), ("i2", "a", "x"), ("i2", "b", "x")])
    for model in ("majority", "one_coin"):
        r = fit(ann, model, gold={"i1": "y"})
        assert r.posteriors.loc["i1"].tolist() == [0.0, 1.0]
        assert list(r.gold_items) == ["i1"]


def test_symmetric_data_are_reported_as_not_identified():
    # a always says x, b always says y: "a is right" and "b is right" fit equally well
    rows = [(f"i{i}", "a", "x") for i in range(20)] + [(f"i{i}", "b", "y") for i in range(20)]
    rows += [(f"i{i}", "c", "x" if i % 2 else "y") for i in range(20)]
    ann = frame(rows)
    for model in ("one_coin", "glad"):
        r = fit(ann, model)
        assert any(n.startswith("Not identified") for n in r.notes), model
    # a single start cannot see it
    assert not any("Not identified" in n for n in fit(ann, "one_coin", init="majority").notes)


def test_multilabel_data_are_refused_by_every_model():
    from analytics.data import load_sample

    multi = load_sample("affect_multilabel")
    for model in (*MODELS, "auto"):
        with pytest.raises(AnnotationDataError, match="multi-label"):
            fit(multi, model)


@pytest.mark.parametrize("overlap", [3, 300])
def test_crowdkit_overlap_saddle_is_reported(overlap):
    # crowd-kit's test_dawid_skene_overlap: every worker says "no" on one of three tasks;
    # Dawid-Skene has equally likely fits with different labels: say so, do not just
    # report a confident label
    rows = [(t, p, "yes" if (p - t) % 3 else "no") for p in range(overlap) for t in range(3)]
    ann = frame(rows)
    r = fit(ann, "dawid_skene")
    assert any(n.startswith("Not identified") for n in r.notes)


@pytest.mark.parametrize("overlap", [30, 300])
@pytest.mark.parametrize("model", ["one_coin", "glad", "auto"])
def test_a_fit_left_on_the_symmetric_saddle_says_so(model, overlap):
    # the same data: every start near the votes stays on the symmetric point (all "yes",
    # confidence 1.0 for one-coin and GLAD), while restarts nudged off it climb to more
    # likely fits that label the three tasks differently (one-coin: -41.1 against -57.8)
    rows = [(t, p, "yes" if (p - t) % 3 else "no") for p in range(overlap) for t in range(3)]
    r = fit(frame(rows), model)
    flagged = any(n.startswith("Not identified") for n in r.notes)
    if model == "auto":  # three items are too few to cross-validate: majority vote, saying so
        assert r.model == "majority" and "too few to compare models" in r.notes[0]
    else:
        assert flagged


def test_nudged_restarts_raise_no_alarm_on_the_samples_models():
    from analytics.data import load_sample

    ann = load_sample("crowd_intents")
    for model in MODELS:
        notes = fit(ann, model).notes
        assert not [n for n in notes if n.startswith("Not identified")], (model, notes)


def test_a_mixture_of_unidentified_fits_says_so_for_the_mixture():
    """auto's weight on a part left at a saddle is named once, for the mixture, with the
    share of the weight it carries (the part's own note stays beside it)."""
    rows = [(t, p, "yes" if (p - t) % 3 else "no") for p in range(30) for t in range(15)]
    r = fit(frame(rows), "auto")
    weights = r.settings["weights"]
    loose = [m for m in weights if any(n.startswith(f"{m}: Not identified") for n in r.notes)]
    assert loose, r.notes
    first = next(n for n in r.notes if n.startswith("Not identified, in part: "))
    assert r.model == "stacked" and len(weights) > len(loose)
    share = sum(weights[m] for m in loose)
    assert f"{', '.join(loose)} ({share:.0%} of the mixture's weight)" in first
