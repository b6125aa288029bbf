"""plan: closed forms (majority of k equal annotators, spammers, perfect annotators), the
target answer, held-out reality on a public set, and bad input."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binom

from analytics import AnnotationDataError, Annotations
from analytics.dawid_skene import fit
from analytics.next_labels import plan
from tests.helpers.paths import load_public
from tests.next_labels.test_shortfall import small_crowd


def equal_annotators(accuracy: float, n: int = 7, pi=(0.5, 0.5), n_items: int = 40):
    """A result of another model family: n equal binary annotators, no expected counts."""
    a = accuracy
    theta = pd.DataFrame([[a, 1 - a], [1 - a, a]])
    q = pd.DataFrame(np.tile(pi, (n_items, 1)), columns=[0, 1])
    return SimpleNamespace(
        posteriors=q,
        prevalence=pd.Series(pi, index=[0, 1]),
        confusion={f"w{j}": theta for j in range(n)},
    )


def test_the_plan_is_the_same_whatever_order_the_names_come_in():
    """Draws are made in name order: items, annotators and categories coded in another
    order (the same file, rows shuffled) give the same curve, to the last digit."""
    rng = np.random.default_rng(3)
    cats, people = ["neg", "neu", "pos"], ["ann", "bo", "cy", "dee"]
    theta = {p: np.stack([rng.dirichlet(1 + 6 * np.eye(3)[r]) for r in range(3)]) for p in people}
    q = rng.dirichlet(np.ones(3), size=25)
    items = [f"i{n:02d}" for n in range(25)]

    def result(item_order, cat_order, people_order):
        c = [cats.index(x) for x in cat_order]
        return SimpleNamespace(
            posteriors=pd.DataFrame(
                q[item_order][:, c], index=[items[i] for i in item_order], columns=cat_order
            ),
            prevalence=pd.Series(q.mean(0)[c], index=cat_order),
            confusion={p: pd.DataFrame(theta[p][c][:, c]) for p in people_order},
        )

    plain = result(list(range(25)), cats, people)
    shuffled = result(list(rng.permutation(25)), ["pos", "neg", "neu"], ["dee", "bo", "ann", "cy"])
    for current in (False, True):
        a, b = (
            plan(r, max_k=4, n_draws=20, n_items=300, current=current) for r in (plain, shuffled)
        )
        pd.testing.assert_frame_equal(a.curve, b.curve)


def test_equal_annotators_give_the_majority_vote_binomial():
    """With pi = (1/2, 1/2) and equal symmetric annotators Bayes' rule is majority vote;
    a tie keeps the prior's first category, right half the time."""
    a = 0.7
    got = plan(equal_annotators(a), max_k=6, n_items=20_000, n_draws=5)
    assert got.notes  # no expected counts: simulation noise only
    for k in range(1, 7):
        exact = (
            binom.sf(k // 2, k, a) if k % 2 else binom.sf(k / 2, k, a) + binom.pmf(k / 2, k, a) / 2
        )
        assert got.accuracy_at(k) == pytest.approx(exact, abs=0.01)
        row = got.curve.loc[got.curve["k"] == k].iloc[0]
        assert row["low"] <= row["accuracy"] <= row["high"]


def test_spammers_never_beat_the_prevalence_and_experts_are_always_right():
    spam = equal_annotators(0.5, pi=(0.3, 0.7))
    flat = plan(spam, max_k=3, n_items=5000, n_draws=4).curve["accuracy"]
    assert flat.to_numpy() == pytest.approx(0.7, abs=0.02)
    perfect = plan(equal_annotators(1.0), max_k=3, n_items=500, n_draws=3).curve
    assert (perfect[["accuracy", "low", "high"]].to_numpy() == 1.0).all()


def test_target_answer_and_its_reason():
    res = equal_annotators(0.7)
    p = plan(res, 0.85, max_k=10, n_items=4000, n_draws=8)
    # majority of 7 at 0.7 is 0.874; of 5 is 0.837 (and 6 ties back to 5's level)
    assert p.needed == 7
    assert p.needed_surely is None or p.needed_surely >= 7
    assert "7 judgements per item" in p.reason
    # the target and the curve's own value at that k, never one read as the other
    at_7 = p.curve.loc[p.curve["k"] == 7, "accuracy"].iloc[0]
    assert f"reach the target expected accuracy of 85.0% (expected {at_7:.1%} at k = 7)" in p.reason
    far = plan(res, 0.999, max_k=3, n_items=500, n_draws=3)
    assert far.needed is None and "do not reach" in far.reason


def test_current_mode_starts_at_the_models_own_confidence():
    rng = np.random.default_rng(0)
    rows = [
        (f"i{i}", f"w{j}", int(rng.random() < 0.8) if i % 2 else int(rng.random() < 0.2))
        for i in range(60)
        for j in range(3)
    ]
    ann = Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))
    res = fit(ann)
    p = plan(res, current=True, max_k=3, n_items=20_000, n_draws=10)
    assert p.curve["k"].tolist() == [0, 1, 2, 3]
    assert p.accuracy_at(0) == pytest.approx(res.confidence.mean(), abs=0.02)
    assert not p.notes  # a Dawid-Skene result carries its expected counts
    assert (np.diff(p.curve["accuracy"]) > -0.01).all()


@pytest.mark.parametrize("accuracy", [0.7, 0.8])
@pytest.mark.parametrize("seed", range(4))
def test_expected_accuracy_never_falls_with_more_judgements(seed, accuracy):
    """4 annotators x 30 items, 3 labels: the curve and both ends of its band are
    non-decreasing in k in both modes. Scored 0/1, the easy sets' curve dipped by
    simulation noise (99.96% then 99.957% at 2 and 3 more judgements per item)."""
    ann = Annotations.from_frame(small_crowd(4, seed=seed, accuracy=accuracy))
    res = fit(ann)
    for current in (True, False):
        for n_draws in (20, 40):
            curve = plan(res, current=current, max_k=5, n_draws=n_draws).curve
            for column in ("accuracy", "low", "high"):
                assert (np.diff(curve[column].to_numpy()) >= 0).all(), (current, column)
            assert (curve["low"] <= curve["accuracy"]).all()
            assert (curve["accuracy"] <= curve["high"]).all()
    # the k = 0 point of the items at hand is the model's own confidence, up to resampling
    now = plan(res, current=True, max_k=1, n_items=20_000).accuracy_at(0)
    assert now == pytest.approx(res.confidence.mean(), abs=0.005)


def test_agrees_with_held_out_reality_on_rte():
    """Snow et al.'s RTE (10 judgements per item, expert gold): keep k random judgements
    per item, label by Bayes' rule with the fitted parameters, score against the gold.
    The plan is right within 0.03 for k <= 3; beyond, the model's independence
    assumption makes it optimistic (docs/next_labels.md)."""
    labels, gold = load_public("snow_rte")
    ann = Annotations.from_frame(labels, name="snow_rte")
    res = fit(ann)
    p = plan(res, max_k=3, n_draws=10)
    truth = res.categories.get_indexer(
        pd.Index(gold.set_index("item")["label"].reindex(ann.items).astype(int))
    )
    log_theta = np.log(res.confusion_array[res.annotators.get_indexer(ann.annotators)])
    rng = np.random.default_rng(1)
    for k in (1, 2, 3):
        held = []
        for _ in range(5):
            rank = pd.Series(rng.random(ann.n_judgements)).groupby(ann.item_codes).rank()
            keep = rank.to_numpy() <= k
            post = np.tile(np.log(res.prevalence.to_numpy()), (ann.n_items, 1))
            np.add.at(
                post,
                ann.item_codes[keep],
                log_theta[ann.annotator_codes[keep], :, ann.label_codes[keep]],
            )
            held.append(np.mean(post.argmax(1) == truth))
        assert p.accuracy_at(k) == pytest.approx(np.mean(held), abs=0.03)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"target_accuracy": 1.5}, "target_accuracy must be"),
        ({"max_k": 0}, "max_k must be a whole number"),
        ({"n_draws": 2.5}, "n_draws must be"),
        ({"confidence": 1}, "confidence must be"),
        ({"level": 1}, "confidence must be"),
        ({"level": 0.9, "confidence": 0.8}, "name the same setting"),
    ],
)
def test_bad_settings(kwargs, match):
    with pytest.raises(AnnotationDataError, match=match):
        plan(equal_annotators(0.7), **kwargs)
    with pytest.raises(AnnotationDataError, match="not a fitted annotator model"):
        plan(SimpleNamespace())


def test_the_interval_is_named_confidence_and_level_still_works():
    # issue 12: one name per idea, `confidence` as in every other family
    by_name = plan(equal_annotators(0.7), confidence=0.8, n_draws=20, n_items=300)
    former = plan(equal_annotators(0.7), level=0.8, n_draws=20, n_items=300)
    pd.testing.assert_frame_equal(by_name.curve, former.curve)
    assert by_name.settings["confidence"] == 0.8
    wide = plan(equal_annotators(0.7), confidence=0.99, n_draws=20, n_items=300)
    assert (wide.curve["high"] - wide.curve["low"]).sum() > (
        by_name.curve["high"] - by_name.curve["low"]
    ).sum()


def test_the_batch_star_sits_at_its_judgements_per_item():
    # it was drawn at 0 more judgements per item, above the curve for 5 more on every item
    from types import SimpleNamespace

    from analytics.next_labels import accuracy_curve_figure

    curve = pd.DataFrame(
        {
            "k": [0, 1, 2],
            "accuracy": [0.9, 0.95, 0.97],
            "low": [0.88, 0.93, 0.96],
            "high": [0.92, 0.96, 0.98],
        }
    )
    fig = accuracy_curve_figure(
        SimpleNamespace(curve=curve), now=0.9, after_batch=0.93, batch_size=150, n_items=300
    )
    band, _, _, star = fig.data
    assert band.mode == "lines"  # no markers on the interval's edges
    assert star.x[0] == 0.5 and "on the chosen items" in star.name
    unplaced = accuracy_curve_figure(SimpleNamespace(curve=curve), now=0.9, after_batch=0.93)
    assert unplaced.data[-1].x[0] == 0


def test_a_best_short_of_the_target_never_reads_as_the_target():
    """'does not reach 95.0% ... (best: 95.0%)': the best was 0.94955."""
    from analytics._core.formatting import format_judged_value

    def _below(best, target):  # as plan's reason writes the best beside its target
        return format_judged_value(best, [target], 1, 5, True)

    assert _below(0.94955, 0.95) in ("94.95%", "94.96%")
    assert _below(0.9, 0.95) == "90.0%"


def test_no_more_judgements_needed_reads_without_nan():
    """plan(current=True) where today's labels already reach the target: k = 0."""
    from analytics.data import load_sample
    from analytics.dawid_skene import fit

    p = plan(fit(load_sample("crowd_intents")), 0.9, current=True, max_k=3, n_draws=4)
    assert p.needed == 0 and "nan" not in p.reason
    assert "(expected" in p.reason and "at k = 0)" in p.reason


@pytest.mark.parametrize(
    "rows",
    [
        [("i1", "a", "x")],  # one judgement, one category
        [(f"i{i}", a, ["x", "y"][i % 2]) for i, a in enumerate("abcdef")],  # no overlap
        [(f"i{i}", "a", ["x", "y"][i % 2]) for i in range(6)],  # one annotator
    ],
)
def test_no_plan_from_a_fit_the_data_do_not_identify(rows):
    """One judgement promised "1 judgement per item reaches ... (expected 100.0%)", and six
    items judged once each planned 9 judgements for 90%: from parameters the data do not
    settle. The plan is NaN, with the fit's own note as the reason."""
    from analytics import Annotations
    from analytics.dawid_skene import fit

    ann = Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))
    result = fit(ann)
    p = plan(result, target_accuracy=0.9)
    assert p.needed is None and p.needed_surely is None
    assert p.curve[["accuracy", "low", "high"]].isna().all().all()
    assert p.reason.startswith("No plan: ") and p.reason[9:] in result.notes


def test_the_accuracy_axis_never_reads_above_100_percent():
    """snow_wsd is settled: the curve is flat at 100% and the axis ran from 99.98 to
    100.02%, an accuracy no model can have; the top is 100, the markers drawn unclipped."""
    from types import SimpleNamespace

    from analytics.next_labels import accuracy_curve_figure

    curve = pd.DataFrame(
        {"k": [0, 1], "accuracy": [1.0, 1.0], "low": [1.0, 1.0], "high": [1.0, 1.0]}
    )
    fig = accuracy_curve_figure(SimpleNamespace(curve=curve), now=1.0)
    low, high = fig.layout.yaxis.range
    assert high == 100 and low < 100
    assert all(t.cliponaxis is False for t in fig.data if t.mode != "lines")
    below = pd.DataFrame(
        {"k": [0, 1], "accuracy": [0.8, 0.9], "low": [0.7, 0.85], "high": [0.9, 0.95]}
    )
    assert [
        round(y, 1)
        for y in accuracy_curve_figure(SimpleNamespace(curve=below), now=0.8).layout.yaxis.range
    ] == [68.5, 96.5]
