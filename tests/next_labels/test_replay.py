"""replay: the protocol (shared start, only existing judgements, monotone use), gain beating
random where annotators differ, the no-gold reference, and bad input."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError, Annotations
from analytics.dawid_skene import fit
from analytics.next_labels import REPLAY_COLUMNS, judgements_needed, pooled_confusion, replay
from analytics.next_labels.gain import information
from analytics.next_labels.replay import (
    contaminated,
    crowd_for_unseen,
    error_reduction,
    gain_over_draws,
    tempered,
)
from tests.helpers.builders import shuffled_rows


def mixed_crowd(n_items: int = 120, seed: int = 0) -> tuple[Annotations, pd.Series]:
    """Every item judged by 3 experts (95% right) and 7 spammers (random labels)."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(2, size=n_items)
    rows = []
    for i, z in enumerate(truth):
        for a in range(10):
            good = a < 3
            y = z if (good and rng.random() < 0.95) else (rng.integers(2) if not good else 1 - z)
            rows.append((f"i{i}", f"a{a}", int(y)))
    ann = Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))
    return ann, pd.Series(truth, index=[f"i{i}" for i in range(n_items)])


@pytest.fixture(scope="module")
def crowd():
    return mixed_crowd()


@pytest.fixture(scope="module")
def gain_random(crowd):
    ann, gold = crowd
    return replay(ann, gold, step=30, strategies=("gain", "random"))


def judgements_to_reach(table: pd.DataFrame, strategy: str, level: float) -> int:
    rows = table[(table["strategy"] == strategy) & (table["accuracy"] >= level - 1e-12)]
    return int(rows["judgements"].min()) if len(rows) else 10**9


def test_protocol(crowd):
    ann, gold = crowd
    table = replay(ann, gold, step=120)
    assert list(table.columns) == list(REPLAY_COLUMNS)
    firsts = table.groupby("strategy", sort=False).first()
    assert firsts["judgements"].nunique() == 1 and firsts["accuracy"].nunique() == 1
    assert firsts["judgements"].iloc[0] == ann.n_items  # start=1
    for _, g in table.groupby("strategy"):
        assert (np.diff(g["judgements"]) > 0).all()
        assert g["judgements"].max() <= ann.n_judgements
        assert g["accuracy"].between(0, 1).all()
    random_last = table[table["strategy"] == "random"].iloc[-1]
    assert random_last["judgements"] == ann.n_judgements  # random buys everything
    assert random_last["accuracy"] == pytest.approx(table.attrs["full_accuracy"])
    assert table.attrs["reference"] == "gold"


SEEDS = range(5)


@pytest.fixture(scope="module")
def seeded(crowd):
    """Judgements each strategy needs to reach the all-judgement accuracy, per seed: gain
    (best annotator), gain scoring items by their mean (pick="random") and random."""
    ann, gold = crowd
    out = []
    for seed in SEEDS:
        both = replay(ann, gold, step=30, strategies=("gain", "random"), seed=seed)
        mean = replay(ann, gold, step=30, strategies=("gain",), pick="random", seed=seed)
        full = both.attrs["full_accuracy"]
        assert full >= both.attrs["start_accuracy"] + 0.02
        out.append(
            (
                judgements_to_reach(both, "gain", full),
                judgements_to_reach(mean, "gain", full),
                judgements_to_reach(both, "random", full),
            )
        )
    return np.array(out, float)


def test_gain_needs_far_fewer_judgements_than_random(seeded):
    """The experts are worth buying, the spammers are not: the gain strategy reaches the
    all-judgements accuracy with well under 60% of what random needs, in most draws (one
    replay is noisy near the end: over seeds 0-4 the ratio is 0.35-0.93), and never more."""
    gain, _, rand = seeded.T
    assert (gain <= rand).all()
    assert np.median(gain / rand) <= 0.6


def test_the_same_judgements_in_another_row_order_replay_the_same(crowd):
    """The start and the random choices are drawn by name, not in the file's order (the
    start had been drawn over rows, so shuffling them changed every curve)."""
    ann, gold = crowd
    shuffled = shuffled_rows(ann, seed=3)
    assert list(shuffled.items) != list(ann.items)
    for gold_given in (gold, None):
        a, b = (
            replay(x, gold_given, step=60, strategies=("gain", "random")) for x in (ann, shuffled)
        )
        pd.testing.assert_frame_equal(a, b)
        assert a.attrs == b.attrs


def test_without_gold_the_reference_is_all_judgements(crowd):
    ann, _ = crowd
    seen = []
    table = replay(ann, strategies=("random",), step=200, progress=seen.append)
    assert table.attrs["reference"] == "all judgements"
    assert table["accuracy"].iloc[-1] == 1.0
    assert seen and seen[-1] == pytest.approx(1.0) and seen == sorted(seen)


def test_one_judgement_per_item_is_refused():
    ann = Annotations.from_frame(
        pd.DataFrame({"item": ["x", "y"], "annotator": ["a", "b"], "label": [0, 1]})
    )
    with pytest.raises(AnnotationDataError, match="needs items with more than 1 judgement"):
        replay(ann)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"strategies": ("gain", "smart")}, "strategies must be among"),
        ({"start": 0}, "start must be"),
        ({"step": 0}, "step must be"),
        ({"gold": pd.Series({"nowhere": 1})}, "none of the gold labels"),
        ({"pick": "worst"}, "pick must be"),
        ({"confusion": "mine"}, "confusion must be"),
        ({"explore": 1.0}, "explore must be"),
        ({"explore": -0.1}, "explore must be"),
        ({"explore": True}, "explore must be"),
        ({"temper": 0.5}, "temper must be"),
        ({"draws": -1}, "draws must be"),
        ({"criterion": "bits"}, "criterion must be"),
        ({"draws": 2.5}, "draws must be"),
        ({"temper": float("inf")}, "temper must be"),
    ],
)
def test_bad_settings(crowd, kwargs, match):
    ann, _ = crowd
    with pytest.raises(AnnotationDataError, match=match):
        replay(ann, **kwargs)


def test_two_judgements_of_an_item_per_step_buy_distinct_rows(crowd):
    ann, gold = crowd
    table = replay(ann, gold, strategies=("gain",), step=200, per_item_cap=2)
    used = table["judgements"].to_numpy()
    assert (np.diff(used) > 0).all() and (np.diff(used) <= 200).all()
    assert used[-1] <= ann.n_judgements


def test_pick_random_scores_items_by_their_mean_gain_and_still_beats_random(crowd, seeded):
    """Not choosing who answers (the mean over an item's remaining judgements) leaves the
    strategy less to exploit than choosing the expert, but it still picks items better
    than random (on average over seeds: one replay is noisy); every judgement bought
    exists."""
    ann, gold = crowd
    best, mean, rand = seeded.mean(0)
    assert best <= mean <= rand
    table = replay(ann, gold, step=30, strategies=("gain",), pick="random")
    assert table["judgements"].max() <= ann.n_judgements
    assert (
        table.attrs["full_accuracy"]
        == replay(ann, gold, step=30, strategies=("random",)).attrs["full_accuracy"]
    )


def _curves():
    table = pd.DataFrame(
        {
            "strategy": ["gain"] * 3 + ["random"] * 3 + ["never"] * 2,
            "judgements": [100, 200, 300, 100, 200, 300, 100, 200],
            "accuracy": [0.6, 0.8, 0.9, 0.6, 0.7, 0.75, 0.1, 0.2],
        }
    )
    table.attrs["full_accuracy"] = 0.75
    return table


def test_judgements_needed_interpolates_between_refits():
    table = _curves()
    need = judgements_needed(table)
    assert list(need.index) == ["gain", "random", "never"]
    assert need["gain"] == pytest.approx(175.0)  # 0.75 is 3/4 of the way from 0.6 to 0.8
    assert need["random"] == pytest.approx(300.0)
    assert np.isnan(need["never"])
    assert judgements_needed(table, 0.5)["gain"] == 100.0  # already there at the start


def test_pooled_confusion_equals_the_counts_shrunk_to_the_crowd():
    """Brute force over the judgements; an annotator with no kept judgement gets the crowd's
    rows, a row nobody has counts in is uniform, and every row is a distribution."""
    rng = np.random.default_rng(3)
    frame = pd.DataFrame(
        {
            "item": [0, 0, 1, 1, 2, 2, 3],
            "annotator": ["a", "b", "a", "b", "a", "c", "c"],
            "label": ["x", "y", "y", "y", "x", "x", "z"],
        }
    )
    ann = Annotations.from_frame(frame)
    q = np.column_stack([rng.dirichlet(np.ones(2), size=4), np.zeros(4)])  # no item is z
    keep = np.array([True, True, True, True, True, False, False])
    k = q.shape[1]
    assert list(ann.categories) == ["x", "y", "z"]
    counts = np.zeros((ann.n_annotators, k, k))
    for n in np.flatnonzero(keep):
        counts[ann.annotator_codes[n], :, ann.label_codes[n]] += q[ann.item_codes[n]]
    crowd = counts.sum(0)
    crowd[:2] /= crowd[:2].sum(1, keepdims=True)
    crowd[2] = 1 / k
    want = (counts + k * crowd) / (counts.sum(2, keepdims=True) + k)
    got = pooled_confusion(ann, keep, q)
    np.testing.assert_allclose(got, want)
    np.testing.assert_allclose(got.sum(2), 1.0)
    c = list(ann.annotators).index("c")
    np.testing.assert_allclose(got[c], crowd)  # nothing kept of c: the crowd


def test_pooled_confusion_replay_is_a_valid_protocol(crowd):
    ann, gold = crowd
    table = replay(ann, gold, step=200, strategies=("gain",), confusion="pooled")
    used = table["judgements"].to_numpy()
    assert (np.diff(used) > 0).all() and used[-1] <= ann.n_judgements
    assert table["accuracy"].iloc[-1] >= table.attrs["start_accuracy"]


def brute_gain(q, theta) -> float:
    """H[q] minus the expected entropy after one answer, Bayes' rule in loops (bits)."""

    def h(p):
        return -sum(x * np.log2(x) for x in p if x > 0)

    after = 0.0
    for y in range(len(q)):
        p_y = sum(q[z] * theta[z][y] for z in range(len(q)))
        if p_y > 0:
            after += p_y * h([q[z] * theta[z][y] / p_y for z in range(len(q))])
    return h(q) - after


def test_contaminated_gain_is_the_brute_force_gain_of_the_mixed_posterior():
    """The explore score is an exact mutual information under the mixed posterior: equal to
    the enumeration, never negative, 0 for a spammer, and no longer 0 for a sure item."""
    rng = np.random.default_rng(5)
    for k in (2, 3, 4):
        prevalence = rng.dirichlet(np.ones(k))
        q = np.vstack([rng.dirichlet(np.ones(k), size=20), np.eye(k)])  # sure items last
        theta = rng.dirichlet(np.ones(k), size=(len(q), k))
        for eps in (0.0, 0.05, 0.3):
            mixed = contaminated(q, prevalence, eps)
            np.testing.assert_allclose(mixed.sum(1), 1.0)
            got = information(mixed, theta)
            want = [brute_gain(m, t) for m, t in zip(mixed, theta, strict=True)]
            np.testing.assert_allclose(got, want, atol=1e-12)
            assert (got >= 0).all()
            spam = np.repeat(rng.dirichlet(np.ones(k))[None, :], k, axis=0)
            assert (information(mixed, np.broadcast_to(spam, theta.shape)) == 0).all()
            sure = got[-k:]
            assert (sure == 0).all() if eps == 0 else (sure > 0).all()


def test_crowd_for_unseen_replaces_only_annotators_with_nothing_kept():
    frame = pd.DataFrame(
        {
            "item": [0, 0, 1, 1, 2],
            "annotator": ["a", "b", "a", "b", "c"],
            "label": ["x", "y", "y", "y", "x"],
        }
    )
    ann = Annotations.from_frame(frame)
    q = np.array([[0.9, 0.1], [0.2, 0.8], [0.5, 0.5]])
    keep = np.array([True, True, True, True, False])
    theta = np.full((3, 2, 2), 0.5)
    theta[0] = [[0.9, 0.1], [0.3, 0.7]]
    got = crowd_for_unseen(ann, keep, q, theta)
    counts = np.zeros((2, 2))
    for n in np.flatnonzero(keep):
        counts[:, ann.label_codes[n]] += q[ann.item_codes[n]]
    c = list(ann.annotators).index("c")
    np.testing.assert_allclose(got[c], counts / counts.sum(1, keepdims=True))
    np.testing.assert_allclose(np.delete(got, c, 0), np.delete(theta, c, 0))
    assert crowd_for_unseen(ann, np.ones(5, bool), q, theta) is theta  # everyone seen


def test_tempered_posterior_divides_the_evidence_and_its_gain_is_exact():
    """q^T is proportional to pi (q / pi)^(1/T): log-odds shrink by T, T=1 is q, a certain
    item stays certain (gain 0), and the gain under q^T is the brute-force one, >= 0."""
    rng = np.random.default_rng(8)
    for k in (2, 3, 5):
        pi = rng.dirichlet(np.ones(k))
        q = np.vstack([rng.dirichlet(np.ones(k), size=20), np.eye(k)])
        theta = rng.dirichlet(np.ones(k), size=(len(q), k))
        np.testing.assert_allclose(tempered(q, pi, 1.0), q, atol=1e-12)
        for t in (2.0, 4.0):
            got = tempered(q, pi, t)
            np.testing.assert_allclose(got.sum(1), 1.0)
            soft = q[:20]
            want = pi * (soft / pi) ** (1 / t)
            np.testing.assert_allclose(got[:20], want / want.sum(1, keepdims=True))
            odds = np.log(got[:20, 0] / got[:20, 1]) - np.log(pi[0] / pi[1])
            np.testing.assert_allclose(
                odds, (np.log(soft[:, 0] / soft[:, 1]) - np.log(pi[0] / pi[1])) / t
            )
            np.testing.assert_array_equal(got[20:], np.eye(k))
            g = information(got, theta)
            brute = [brute_gain(m, th) for m, th in zip(got, theta, strict=True)]
            np.testing.assert_allclose(g, brute, atol=1e-12)
            assert (g >= 0).all() and (g[20:] == 0).all()


def test_gain_over_draws_is_the_mean_brute_force_gain_over_parameter_draws():
    """Same random draws, everything recomputed in loops: Dirichlet(1 + expected counts)
    rows and prevalence, each item's posterior by Bayes' rule over its kept judgements,
    the gain by enumeration; the mean over draws matches and is never negative."""
    ann, _ = mixed_crowd(n_items=12, seed=4)
    rng = np.random.default_rng(0)
    keep = rng.random(ann.n_judgements) < 0.4
    k = ann.n_categories
    q = rng.dirichlet(np.ones(k), size=ann.n_items)
    rest = np.flatnonzero(~keep)
    items, anns = ann.item_codes[rest], ann.annotator_codes[rest]
    got = gain_over_draws(ann, keep, q, items, anns, 3, np.random.default_rng(1))
    draw = np.random.default_rng(1)
    want = np.zeros(len(rest))
    for _ in range(3):
        counts = np.zeros((ann.n_annotators, k, k))
        for n in np.flatnonzero(keep):
            counts[ann.annotator_codes[n], :, ann.label_codes[n]] += q[ann.item_codes[n]]
        theta = draw.standard_gamma(counts + 1.0)
        theta /= theta.sum(2, keepdims=True)
        pi = draw.standard_gamma(q.sum(0) + 1.0)
        pi /= pi.sum()
        post = np.tile(pi, (ann.n_items, 1))
        for n in np.flatnonzero(keep):
            post[ann.item_codes[n]] *= theta[ann.annotator_codes[n], :, ann.label_codes[n]]
        post /= post.sum(1, keepdims=True)
        want += [brute_gain(post[i], theta[a]) for i, a in zip(items, anns, strict=True)]
    np.testing.assert_allclose(got, want / 3, atol=1e-10)
    assert (got >= 0).all()


@pytest.mark.parametrize(
    "options",
    [
        {"explore": 0.1, "confusion": "unseen_crowd"},
        {"temper": 3.0},
        {"draws": 4},
        {"criterion": "error"},
        {"chooser": lambda a: fit(a, prior=np.eye(2))},
    ],
)
def test_gain_options_give_valid_replays_that_beat_random(crowd, gain_random, options):
    ann, gold = crowd
    table = replay(ann, gold, step=30, strategies=("gain",), **options)
    used = table["judgements"].to_numpy()
    assert (np.diff(used) > 0).all() and used[-1] <= ann.n_judgements
    level = table.attrs["full_accuracy"]
    assert judgements_to_reach(table, "gain", level) < judgements_to_reach(
        gain_random, "random", level
    )


def test_error_reduction_is_the_brute_force_expected_gain_in_top_posterior():
    """E_y[max_k q(k | y)] - max_k q by Bayes' rule in loops; >= 0, 0 for a spammer and a
    certain item."""
    rng = np.random.default_rng(11)
    for k in (2, 3, 5):
        q = np.vstack([rng.dirichlet(np.ones(k), size=30), np.eye(k)])
        theta = rng.dirichlet(np.ones(k), size=(len(q), k))
        got = error_reduction(q, theta)
        for qi, ti, g in zip(q, theta, got, strict=True):
            after = 0.0
            for y in range(k):
                p_y = sum(qi[z] * ti[z][y] for z in range(k))
                if p_y > 0:
                    after += p_y * max(qi[z] * ti[z][y] / p_y for z in range(k))
            assert g == pytest.approx(after - max(qi), abs=1e-12)
        assert (got >= 0).all() and (got[-k:] == 0).all()
        spam = np.broadcast_to(rng.dirichlet(np.ones(k)), (len(q), k, k))
        np.testing.assert_allclose(error_reduction(q, spam), 0.0, atol=1e-15)


def test_chooser_fitted_like_the_refit_changes_nothing(crowd):
    """The chooser only decides what is bought: the refit's own fitter as chooser gives the
    very same replay."""
    ann, gold = crowd
    plain = replay(ann, gold, step=60, strategies=("gain", "uncertainty"))
    same = replay(ann, gold, step=60, strategies=("gain", "uncertainty"), chooser=fit)
    pd.testing.assert_frame_equal(plain, same)


@pytest.mark.parametrize("model", ["one_coin", "mace", "glad", "hierarchical"])
def test_every_model_of_the_family_is_scored_and_replayed(crowd, model):
    """Every model of analytics.models carries posteriors, prevalence and per-annotator
    confusion matrices: expected_gain and next_batch read it, a replay refits with it, and
    gain's scores under it stay within [0, H[q]]."""
    from analytics.models import fit as fit_model
    from analytics.next_labels import expected_gain, next_batch

    ann, gold = crowd
    result = fit_model(ann, model)
    gain = expected_gain(result, ann, annotators=[ann.annotators[0]]).iloc[:, 0]  # one column
    post = result.posteriors
    entropy = -(post * np.log2(post.clip(lower=1e-300))).sum(axis=1)
    assert gain.notna().all() and (gain >= 0).all()
    assert (gain <= entropy.loc[gain.index] + 1e-9).all()
    assert len(next_batch(result, ann, 5)) == 5 or next_batch(result, ann, 5).attrs["notes"]
    # cheaper refits, which are what is tested here: one start where a majority-vote start
    # works, a looser tolerance for the hierarchical model (from the majority-vote start on
    # one judgement per item it trusts everyone and buys nothing: docs/next_labels.md)
    quick = {"init": "majority"} if model in ("mace", "one_coin") else {"tol": 1e-5}
    table = replay(
        ann, gold, step=300, strategies=("gain",), fitter=lambda a: fit_model(a, model, **quick)
    )
    assert table["judgements"].iloc[-1] > ann.n_items


def test_replay_summary_gives_the_ratio_to_random():
    from analytics.next_labels import replay_summary

    table = _curves()
    s = replay_summary(table)
    assert list(s.index) == ["gain", "random", "never"]
    assert s.loc["gain", "judgements"] == pytest.approx(175.0)
    assert s.loc["gain", "vs_random"] == pytest.approx(175 / 300)
    assert s.loc["gain", "share_of_all"] == pytest.approx(175 / 300)
    assert np.isnan(s.loc["never", "vs_random"]) and s.attrs["level"] == 0.75
    no_random = table[table["strategy"] != "random"]
    no_random.attrs["full_accuracy"] = 0.75
    assert replay_summary(no_random)["vs_random"].isna().all()
