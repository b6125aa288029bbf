"""compare, choose and fit(model="auto"): held-out likelihood, no gold, stated reasons."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError, Annotations
from analytics.models import MODELS, bootstrap_accuracy, compare, fit, one_coin_confusion
from analytics.models.heldout import fold_masks
from analytics.models.result import code
from analytics.models.stacking import stacking_weights
from tests.models.helpers import accuracy, public, simulate


def test_folds_hold_out_half_of_each_item_once():
    ann, _ = public("snow_wsd")
    coded = code(ann)
    masks = fold_masks(coded, 5, seed=0)
    held = np.sum(masks, axis=0)
    assert held.max() == 1  # a judgement is held out in one fold at most
    per_item = np.bincount(coded.ii, minlength=coded.n_items)
    out = np.bincount(coded.ii, held, minlength=coded.n_items)
    np.testing.assert_array_equal(out, per_item // 2)
    # every held-out item belongs to one fold
    for m in masks:
        items = np.unique(coded.ii[m])
        assert all(not np.isin(items, np.unique(coded.ii[o])).any() for o in masks if o is not m)


def test_folds_and_auto_do_not_depend_on_the_row_order():
    """The folds are drawn in the names' sorted order: the same judgements in another row
    order (so other first-seen codes for items, annotators and labels) get the same folds,
    so auto the same weights and labels (up to where EM stops: 1e-4). Before, reordering the sample's rows moved
    one-coin's weight from 0.46 to 0.70 and posteriors by up to 0.15."""
    from analytics import load_annotations
    from tests.helpers.paths import SAMPLE_DATA

    rows = pd.read_csv(SAMPLE_DATA / "crowd_intents.csv")
    one = load_annotations(rows)
    other = load_annotations(rows.sample(frac=1, random_state=5))
    assert list(one.items) != list(other.items)
    assert list(one.annotators) != list(other.annotators)
    held = [
        {
            (a.items[i], a.annotators[j], a.categories[y])
            for i, j, y in zip(c.ii[m], c.jj[m], c.yy[m], strict=True)
        }
        for a in (one, other)
        for c in [code(a)]
        for m in fold_masks(c, 5, seed=0)
    ]
    assert held[:5] == held[5:]
    a, b = fit(one), fit(other)
    assert a.settings["weights"] == pytest.approx(b.settings["weights"], abs=1e-6)
    pd.testing.assert_frame_equal(
        a.posteriors, b.posteriors.loc[a.posteriors.index, a.posteriors.columns], atol=1e-4
    )


def test_compare_table_and_gold_columns():
    ann, gold = public("welinder_bluebirds")
    seen = []
    table = compare(ann, gold=gold, progress=seen.append)
    assert list(table.index[:1]) == ["hierarchical"]
    assert set(table.index) == set(MODELS)
    assert table["heldout_ll"].is_monotonic_decreasing
    assert table["heldout_se"].iloc[0] == 0.0 and (table["heldout_se"].iloc[1:] > 0).all()
    assert table.loc["dawid_skene", "accuracy"] == pytest.approx(97 / 108)
    assert (table["accuracy_low"] <= table["accuracy"]).all()
    assert (table["accuracy"] <= table["accuracy_high"]).all()
    assert table.loc["majority", "n_parameters"] == 0
    assert table.loc["dawid_skene", "n_parameters"] == 39 * 2 + 1
    assert seen[-1] == pytest.approx(1.0) and seen == sorted(seen)


def test_compare_does_not_look_at_gold():
    ann, gold = public("snow_temp")
    a = compare(ann, ["majority", "one_coin"])
    b = compare(ann, ["majority", "one_coin"], gold=gold.iloc[:50])
    pd.testing.assert_series_equal(a["heldout_ll"], b["heldout_ll"])


def test_heldout_prefers_the_true_model():
    # a crowd with real biases: Dawid-Skene-like models beat one-coin out of sample
    theta = np.array(
        [
            [[0.9, 0.1], [0.5, 0.5]],
            [[0.6, 0.4], [0.05, 0.95]],
            [[0.85, 0.15], [0.2, 0.8]],
            [[0.7, 0.3], [0.3, 0.7]],
        ]
        * 3
    )
    ann, _ = simulate(theta, [0.6, 0.4], 1200, 5, seed=2)
    table = compare(ann, ["one_coin", "dawid_skene"])
    assert table.index[0] == "dawid_skene"
    # and a one-coin crowd: one-coin (fewer numbers) predicts at least as well
    ann, _ = simulate(one_coin_confusion(np.linspace(0.6, 0.9, 12), 3), [1 / 3] * 3, 1200, 4)
    table = compare(ann, ["one_coin", "dawid_skene"])
    assert table.index[0] == "one_coin"


def test_auto_stacks_and_says_what_and_why():
    ann, gold = public("act_MS")
    r = fit(ann)
    assert r.model == "stacked"
    weights = r.parameters["weights"]
    assert weights.sum() == pytest.approx(1.0) and (weights >= 0.01).all()
    assert set(weights.index) == set(r.parameters["components"])
    assert r.notes[0].startswith(f"auto stacked {len(weights)} models")
    assert "chosen without the gold labels" in r.notes[0]
    assert "Alone, auto would choose one_coin: the highest held-out" in r.notes[0]
    labels = r.settings["comparison"].attrs["labels"]
    runner_up = re.search(r"next best (\w+) \(", r.notes[0]).group(1)
    share = (labels["one_coin"] != labels[runner_up]).mean()
    assert f"label {share:.1%} of the items differently" in r.notes[0]
    # the mixture is what its weights say
    mix = sum(w * r.parameters["components"][m].posteriors for m, w in weights.items())
    np.testing.assert_allclose(r.posteriors.to_numpy(), mix.to_numpy())
    np.testing.assert_allclose(r.confusion_array.sum(axis=2), 1.0)
    assert (np.diff(r.log_likelihood) >= -1e-12).all() and r.converged
    # the trace ends at the score the note and the comparison table give: nats per
    # held-out judgement (it was a mean per held-out item, several times larger)
    stated = float(re.search(r"the mixture scores (-?[\d.]+) nats per", r.notes[0]).group(1))
    assert r.log_likelihood[-1] == pytest.approx(stated, abs=5e-5)
    best = r.settings["comparison"]["heldout_ll"].iloc[0]
    assert best - 0.5 < r.log_likelihood[-1] < 0
    assert accuracy(r, gold) >= 0.795
    ann, gold = public("welinder_bluebirds")
    plain, clamped = fit(ann), fit(ann, gold=gold.iloc[:30])
    # gold does not sway the weights, only the fits behind them
    pd.testing.assert_series_equal(plain.parameters["weights"], clamped.parameters["weights"])
    assert len(clamped.gold_items) == 30


def test_stacking_weights():
    rng = np.random.default_rng(0)
    good = np.log(rng.uniform(0.5, 0.9, 300))
    scores = np.vstack([good, good - 0.5, np.log(rng.uniform(0.1, 0.95, 300))])
    w, trace, n_iter, converged = stacking_weights(scores)
    assert n_iter == len(trace) - 1  # steps, as the models count EM iterations
    assert converged and w.sum() == pytest.approx(1.0) and (w >= 0).all()
    assert w[1] < 1e-3  # dominated everywhere: no weight
    assert (np.diff(trace) >= -1e-12).all()
    best_single = scores.mean(axis=1).max()
    assert trace[-1] >= best_single - 1e-6  # within the stopping tolerance


def test_auto_refuses_settings_and_bad_input():
    ann, _ = public("snow_wsd")
    with pytest.raises(AnnotationDataError, match="takes no model settings"):
        fit(ann, smoothing=0.1)
    with pytest.raises(AnnotationDataError, match="unknown model"):
        compare(ann, ["dawid_skene", "zbs"])
    with pytest.raises(AnnotationDataError, match="folds"):
        compare(ann, folds=1)
    with pytest.raises(AnnotationDataError, match="not among the categories"):
        compare(ann, ["majority"], gold={ann.items[0]: "no such sense"})


def test_compare_scores_a_gold_category_no_annotator_used_as_wrong():
    """An expert's category no annotator used cannot be clamped to, but it can be scored:
    compare counted it refused (as fit(gold=) must), where gold_table counts it wrong."""
    ann, gold = public("snow_temp")
    gold = gold.iloc[:40].copy()
    other = gold.index[0]
    gold[other] = "an expert's own category"
    table = compare(ann, ["majority", "one_coin"], gold=gold)
    plain = compare(ann, ["majority", "one_coin"], gold=gold.drop(other))
    assert (table["gold_items"] == 40).all()
    # the one item is scored wrong: as many right answers over 40 items as over the other 39
    right = table["accuracy"] * 40
    np.testing.assert_allclose(right, plain.loc[table.index, "accuracy"] * 39, atol=1e-9)
    assert table.attrs["notes"] == (
        "1 gold label is not among the categories, so no model can give it: counted as wrong.",
    )
    assert plain.attrs["notes"] == ()
    with pytest.raises(AnnotationDataError, match="not among the categories"):
        fit(ann, "majority", gold=gold)  # clamping still refuses it


def test_auto_with_single_judgements_falls_back_to_majority():
    frame = pd.DataFrame(
        {"item": ["i1", "i2", "i3"], "annotator": ["a", "b", "a"], "label": [1, 2, 1]}
    )
    r = fit(Annotations.from_frame(frame))
    assert r.model == "majority" and "no item has two judgements" in r.notes[0]


def test_bootstrap_accuracy_interval():
    acc, low, high = bootstrap_accuracy(np.r_[np.ones(90, bool), np.zeros(10, bool)])
    assert (
        acc == 0.9
        and low == pytest.approx(0.84, abs=0.011)
        and high == pytest.approx(0.96, abs=0.011)
    )
    assert all(np.isnan(bootstrap_accuracy(np.zeros(0, bool))))


def _slsqp_weights(scores):
    """An independent maximiser of the same objective: scipy's SLSQP on the simplex."""
    from scipy.optimize import minimize

    e = np.exp(scores - scores.max(axis=0))
    m = len(scores)

    def negative(w):
        return -np.mean(np.log(w @ e))

    def gradient(w):
        return -(e / (w @ e)).mean(axis=1)

    out = minimize(
        negative,
        np.full(m, 1.0 / m),
        jac=gradient,
        bounds=[(0.0, 1.0)] * m,
        constraints=[{"type": "eq", "fun": lambda w: w.sum() - 1.0, "jac": lambda w: np.ones(m)}],
        method="SLSQP",
        options={"ftol": 1e-14, "maxiter": 1000},
    )
    return out.x


@pytest.mark.parametrize("seed", range(6))
def test_stacking_weights_reach_the_maximum_an_independent_solver_finds(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(50, 2000))
    base = np.log(rng.uniform(0.05, 1, n))
    # models of three kinds: near copies of one (a flat, ill-conditioned direction),
    # independent ones, and one dominated everywhere (weight 0 at the maximum)
    scores = np.vstack(
        [
            base,
            base + rng.normal(0, 0.01, n),
            np.log(rng.uniform(0.05, 1, n)),
            np.log(rng.uniform(0.05, 1, n)),
            base - 1.0,
        ]
    )
    w, trace, n_iter, converged = stacking_weights(scores)
    assert converged and n_iter == len(trace) - 1 and n_iter <= 20
    assert (np.diff(trace) >= 0).all() and w.min() >= 0 and w.sum() == pytest.approx(1.0)
    assert w[4] == 0.0  # dominated: exactly no weight, not a slowly shrinking one
    e = np.exp(scores - scores.max(axis=0))
    shift = scores.max(axis=0).mean()
    oracle = np.mean(np.log(_slsqp_weights(scores) @ e)) + shift
    assert trace[-1] >= oracle - 1e-8
    # the certificate: no direction on the simplex gains more than tol
    assert (e / (w @ e)).mean(axis=1).max() - 1 <= 1e-8
    # reordering the models reaches the same maximum, the dominated model still at 0
    order = rng.permutation(len(scores))
    w2, trace2, *_ = stacking_weights(scores[order])
    assert trace2[-1] == pytest.approx(trace[-1], abs=1e-9)
    assert w2[list(order).index(4)] == 0.0


def test_stacking_weights_converge_where_the_em_update_crawls():
    # a maximum with a zero weight whose gradient there is just below 1: the EM update
    # w_m <- w_m g_m shrinks that weight by a factor near 1 per iteration (thousands of them)
    rng = np.random.default_rng(3)
    n = 20_000
    a = np.log(rng.uniform(0.2, 1, n))
    scores = np.vstack([a, a + rng.normal(-0.002, 0.05, n), np.log(rng.uniform(0.2, 1, n))])
    w, trace, n_iter, converged = stacking_weights(scores)
    assert converged and n_iter <= 20
    e = np.exp(scores - scores.max(axis=0))
    assert (e / (w @ e)).mean(axis=1).max() - 1 <= 1e-8
    em = np.full(3, 1 / 3)
    for _ in range(200):  # the old solver's update, for contrast: still short of the maximum
        em = em * (e / (em @ e)).mean(axis=1)
    assert np.mean(np.log(em @ e)) + scores.max(axis=0).mean() < trace[-1]


def test_stacking_weights_of_one_model():
    w, trace, n_iter, converged = stacking_weights(np.log([[0.5, 0.25, 0.9]]))
    assert w.tolist() == [1.0] and converged and n_iter == 0 and len(trace) == 1
    assert trace[-1] == pytest.approx(np.mean(np.log([0.5, 0.25, 0.9])))


def test_choose_calls_a_negligible_gap_negligible():
    # 100 items labelled identically by 3 annotators: the note said "(-0.0000 nats ...);
    # next best one_coin (-0.0001), 530.6 standard errors behind" with nothing else
    from analytics.models import choose

    table = pd.DataFrame(
        {"heldout_ll": [-0.00002, -0.0001, -0.5], "heldout_se": [0.0, 1.5e-7, 0.01]},
        index=["hierarchical", "one_coin", "majority"],
    )
    best, reason = choose(table)
    assert best == "hierarchical"
    assert "(0.0000 nats" in reason and "-0.0000" not in reason
    assert "too small to matter" in reason
    table.loc["one_coin", "heldout_ll"] = -0.2
    assert "too small to matter" not in choose(table)[1]


def test_choose_does_not_send_two_models_that_agree_everywhere_to_compare_labels():
    # "The two label 0.0% of the items differently. The two are within noise of each
    # other: compare their labels." where there was nothing to compare
    from analytics.models import choose

    def reason(differ: int, n: int = 5000, se: float = 0.05) -> str:
        table = pd.DataFrame(
            {"heldout_ll": [-0.49, -0.54], "heldout_se": [0.0, se]},
            index=["dawid_skene", "hierarchical"],
        )
        other = np.zeros(n, int)
        other[:differ] = 1
        table.attrs["labels"] = pd.DataFrame(
            {"dawid_skene": np.zeros(n, int), "hierarchical": other}
        )
        return choose(table)[1]

    same = reason(0)
    assert same.endswith("The two are within noise of each other and agree on every item.")
    assert "compare their labels" not in same and "0.0%" not in same
    assert reason(0, se=0.001).endswith(" behind. The two agree on every item.")  # not noise
    # one item in 5,000 is counted, not rounded to "0.0%", and is worth a look
    one = reason(1)
    assert "The two label 1 of 5,000 items differently." in one and "0.0%" not in one
    assert one.endswith("compare their labels.")
    assert "The two label 10.0% of the items differently." in reason(500)


def test_compare_all_leaves_out_the_models_that_cannot_apply():
    # one annotator: GLAD cannot tell ability from difficulty; "all" had failed as a whole
    from analytics.data import load_sample
    from analytics.models import applicable_models, compare

    ann = load_sample("crowd_intents")
    one = ann.subset(annotators=[ann.annotators[0]])
    table = compare(one, folds=2)
    assert "glad" not in table.index
    assert set(table.index) == set(applicable_models(one))


def test_auto_says_when_the_mixture_leaves_out_the_best_single_model():
    """Bluebirds: alone auto would choose hierarchical, and the mixture gives it no weight;
    without a word the two sentences had read as a contradiction."""
    from analytics import Annotations
    from tests.helpers.paths import load_public

    labels, _ = load_public("welinder_bluebirds")
    r = fit(Annotations.from_frame(labels))
    assert "hierarchical" not in r.parameters["weights"].index
    assert "Alone, auto would choose hierarchical" in r.notes[0]
    assert r.notes[0].endswith("The mixture gives hierarchical no weight: with the others in "
                               "it, hierarchical adds nothing to how well the held-out "
                               "judgements are predicted.")  # fmt: skip
    from analytics.data import load_sample

    crowd = fit(load_sample("crowd_intents"))  # one_coin, the best alone, weighs 46%
    assert "Alone, auto would choose one_coin" in crowd.notes[0]
    assert "no weight" not in crowd.notes[0]


def test_auto_on_too_few_items_falls_back_to_majority_and_says_why():
    """One item of the sample: auto had stacked models on a 5-fold cross-validation of one
    item, calling a 0.39-nat gap "an exact tie" (its standard error was NaN)."""
    from analytics.data import load_sample

    one = load_sample("crowd_intents").subset(items=["msg001"])
    r = fit(one)
    assert r.model == "majority"
    assert r.notes[0] == (
        "auto chose majority vote: only 1 item has two judgements or more, too few to "
        "compare models on judgements they did not see (5-fold cross-validation needs at "
        "least 10)."
    )
    from analytics.models import choose

    table = pd.DataFrame(
        {"heldout_ll": [-0.1, -0.5], "heldout_se": [np.nan, np.nan]}, index=["a", "b"]
    )
    reason = choose(table)[1]
    assert "exact tie" not in reason
    assert reason.endswith(
        "next best b (-0.5000), 0.4 nats behind, with no standard error (too few items held out)."
    )
