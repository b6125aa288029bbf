"""next_batch: greedy order, the batch effect checked by enumeration, caps, stop_at,
assignments, strategies and bad input."""

from __future__ import annotations

import itertools
import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics import AnnotationDataError, Annotations
from analytics.dawid_skene import fit
from analytics.next_labels import BATCH_COLUMNS, expected_gain, next_batch
from tests.helpers.builders import shuffled_rows
from tests.next_labels.test_gain import entropy_loop, small_data


def info_of_labels(q, thetas) -> float:
    """I[Z; Y_1..Y_m] by enumerating every answer sequence (loops, Bayes' rule)."""
    k = len(q)
    after = 0.0
    for ys in itertools.product(range(k), repeat=len(thetas)):
        joint = [
            q[z] * math.prod(t[z][y] for t, y in zip(thetas, ys, strict=True)) for z in range(k)
        ]
        p = sum(joint)
        if p > 0:
            after += p * entropy_loop([j / p for j in joint])
    return entropy_loop(q) - after


@pytest.fixture(scope="module")
def fitted():
    ann = small_data(seed=3, n_items=40)
    return ann, fit(ann)


def test_first_pick_is_the_largest_expected_gain(fitted):
    ann, res = fitted
    batch = next_batch(res, ann, 1, stop_at=1.0)
    gains = expected_gain(res, ann)
    assert batch["item"].iloc[0] == gains.idxmax()
    assert batch["expected_gain"].iloc[0] == pytest.approx(gains.max())
    assert list(batch.columns) == ["item", *BATCH_COLUMNS]


def test_second_judgement_of_an_item_is_worth_its_conditional_information():
    """One uncertain item, one annotator pool: the second planned judgement's gain is
    I[Z; Y1, Y2] - I[Z; Y1] with Y1 through the pool's mean confusion matrix."""
    ann = Annotations.from_frame(
        pd.DataFrame({"item": ["x"], "annotator": ["a"], "label": [0]}).pipe(
            lambda d: pd.concat(
                [d, pd.DataFrame({"item": ["x"], "annotator": ["b"], "label": [1]})]
            )
        )
    )
    q = [0.3, 0.7]
    ta = [[0.8, 0.2], [0.1, 0.9]]
    tc = [[0.6, 0.4], [0.3, 0.7]]
    res = SimpleNamespace(
        posteriors=pd.DataFrame([q], index=["x"], columns=[0, 1]),
        prevalence=pd.Series([0.5, 0.5], index=[0, 1]),
        confusion={"a": pd.DataFrame(ta), **{k: pd.DataFrame(tc) for k in "bcde"}},
    )

    def pool(names):
        return Annotations(
            ann.item_codes, ann.annotator_codes, ann.label_codes, ann.items,
            pd.Index(names), ann.categories,
        )  # fmt: skip

    # annotators a and b judged x already (in the data): c, d and e are left for it
    batch = next_batch(res, pool(["a", "b", "c", "d", "e"]), 3, per_item_cap=3, stop_at=1.0)
    assert len(batch) == 3
    for m in range(1, 4):
        want = info_of_labels(q, [tc] * m) - info_of_labels(q, [tc] * (m - 1))
        assert batch["expected_gain"].iloc[m - 1] == pytest.approx(want, abs=1e-12)
    # only c left: one judgement, named or not (unnamed, a batch had planned three for
    # the one annotator the platform could still ask)
    ann = pool(["a", "b", "c"])
    unnamed = next_batch(res, ann, 3, per_item_cap=3, stop_at=1.0)
    assert len(unnamed) == 1 and unnamed.attrs["excluded"] == {"nobody_left": 1}
    named = next_batch(res, ann, 2, per_item_cap=2, stop_at=1.0, annotators=["a", "c"])
    # a and b judged x already and c may judge it once in a batch: one judgement is left
    assert named["annotator"].tolist() == ["c"]
    assert named.attrs["excluded"] == {"nobody_left": 1}
    assert "every annotator left planned in this batch" in named.attrs["notes"][0]
    assert "name more of the data's annotators" in named.attrs["notes"][0]


def test_caps_stop_at_and_assignments(fitted):
    ann, res = fitted
    batch = next_batch(res, ann, 60, per_item_cap=2, annotators=list(ann.annotators))
    assert batch.groupby("item").size().max() <= 2
    assert (batch["current_confidence"] < 0.99).all()
    done = set(zip(ann.items[ann.item_codes], ann.annotators[ann.annotator_codes], strict=True))
    pairs = list(zip(batch["item"], batch["annotator"], strict=True))
    assert not done & set(pairs)
    assert len(set(pairs)) == len(pairs)  # nobody judges an item twice in one batch
    gains = batch["expected_gain"].to_numpy()
    assert (gains > 0).all()
    low = next_batch(res, ann, 60, stop_at=0.8)
    assert (low["current_confidence"] < 0.8).all()


def test_gains_never_increase_for_the_gain_strategy(fitted):
    """Greedy on the largest gain: each judgement is worth no more than the one before
    (re-scoring an item only lowers its value: information has diminishing returns)."""
    ann, res = fitted
    g = next_batch(res, ann, 50, per_item_cap=3, stop_at=1.0)["expected_gain"].to_numpy()
    assert (np.diff(g) <= 1e-12).all()


def test_strategies_differ_and_are_reproducible(fitted):
    ann, res = fitted
    unc = next_batch(res, ann, 10, strategy="uncertainty", per_item_cap=1)
    assert (np.diff(unc["current_confidence"].to_numpy()) >= 0).all()
    r1 = next_batch(res, ann, 10, strategy="random", seed=1)
    r2 = next_batch(res, ann, 10, strategy="random", seed=1)
    pd.testing.assert_frame_equal(r1, r2)
    gain = next_batch(res, ann, 10)
    assert gain["expected_gain"].sum() >= r1["expected_gain"].sum()


def test_a_short_batch_says_why(fitted):
    ann, res = fitted
    batch = next_batch(res, ann, 10_000, per_item_cap=1)
    assert len(batch) < 10_000
    assert "worth asking for" in batch.attrs["notes"][0]
    # nothing at all: it said "Only 0 of the 10 judgements are worth asking for"
    empty = next_batch(res, ann, 10, stop_at=0.01)
    assert len(empty) == 0
    assert empty.attrs["excluded"] == {"confident": ann.n_items}
    assert empty.attrs["notes"][0] == (
        f"No judgement is worth asking for: all {ann.n_items} items are already at the "
        "stop-at confidence (0.01). To get more: raise the stop-at confidence."
    )


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"budget": 0}, "budget must be a whole number"),
        ({"budget": 2.5}, "budget must be a whole number"),
        ({"per_item_cap": 0}, "per_item_cap must be"),
        ({"per_item_cap": 40}, "too many judgements of one item"),
        ({"stop_at": 1.5}, "stop_at must be"),
        ({"strategy": "best"}, "strategy must be one of"),
        ({"annotators": ["ghost"]}, "unknown annotator 'ghost'"),
    ],
)
def test_bad_settings_say_what_to_pass(fitted, kwargs, match):
    ann, res = fitted
    args = {"budget": 5, **kwargs}
    with pytest.raises(AnnotationDataError, match=match):
        next_batch(res, ann, args.pop("budget"), **args)


def test_result_of_other_data_is_refused(fitted):
    _, res = fitted
    with pytest.raises(AnnotationDataError, match="not fitted on these annotations"):
        next_batch(res, small_data(seed=9, n_items=12), 5)


def random_model(seed: int, n_items: int = 25, n_ann: int = 4, k: int = 3):
    """A stand-in model with random posteriors and confusions, and data to match."""
    rng = np.random.default_rng(seed)
    items = [f"i{i}" for i in range(n_items)]
    names = [f"a{j}" for j in range(n_ann)]
    rows = [
        (it, names[j], int(rng.integers(k))) for it in items for j in rng.choice(n_ann, 2, False)
    ]
    ann = Annotations.from_frame(
        pd.DataFrame(rows, columns=["item", "annotator", "label"]), categories=list(range(k))
    )
    q = pd.DataFrame(rng.dirichlet(np.ones(k), n_items), index=items, columns=range(k))
    conf = {a: pd.DataFrame(rng.dirichlet(np.ones(k), k)) for a in names}
    res = SimpleNamespace(posteriors=q, prevalence=pd.Series(np.full(k, 1 / k)), confusion=conf)
    return ann, res


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), perm=st.permutations(range(3)))
def test_batches_ignore_label_names_and_annotator_order(seed, perm):
    """Renaming the categories (consistently in data and model) and listing items and
    annotators in another order changes nothing: same judgements, same gains."""
    ann, res = random_model(seed)
    rename = dict(enumerate(perm))
    frame = ann.to_frame()
    frame = frame.assign(label=frame["label"].map(rename)).iloc[::-1]  # items in another order
    ann2 = Annotations.from_frame(frame, categories=list(range(3)))
    inv = np.argsort(perm)  # new category c holds old category inv[c]
    res2 = SimpleNamespace(
        posteriors=pd.DataFrame(res.posteriors.to_numpy()[:, inv], index=res.posteriors.index),
        prevalence=res.prevalence,
        confusion={
            a: pd.DataFrame(m.to_numpy()[np.ix_(inv, inv)])
            for a, m in reversed(list(res.confusion.items()))
        },
    )
    for kwargs in ({}, {"annotators": ["a0", "a1", "a2", "a3"]}):
        b1 = next_batch(res, ann, 12, stop_at=1.0, **kwargs)
        b2 = next_batch(res2, ann2, 12, stop_at=1.0, **kwargs)
        pd.testing.assert_frame_equal(b1, b2, atol=1e-10, rtol=0)


def synthetic(n_items: int, n_ann: int, k: int, seed: int = 0):
    """A stand-in model (random posteriors and confusion matrices) and 3 judgements per item."""
    rng = np.random.default_rng(seed)
    acc = rng.uniform(0.5, 0.95, n_ann)
    theta = rng.dirichlet(np.ones(k), (n_ann, k)) * (1 - acc)[:, None, None]
    theta[:, np.arange(k), np.arange(k)] += acc[:, None]
    theta /= theta.sum(-1, keepdims=True)
    q = rng.dirichlet(np.full(k, 0.5), n_items)
    items = np.repeat(np.arange(n_items), 3)
    anns = (rng.integers(0, n_ann, n_items)[:, None] + [0, 3, 7]).ravel() % n_ann
    names = pd.Index([f"i{i}" for i in range(n_items)])
    who = pd.Index([f"w{j}" for j in range(n_ann)])
    cats = pd.Index(range(k))
    ann = Annotations(items, anns, rng.integers(0, k, len(items)), names, who, cats)
    result = SimpleNamespace(
        posteriors=pd.DataFrame(q, index=names, columns=cats),
        prevalence=pd.Series(np.full(k, 1 / k), index=cats),
        confusion_array=theta,
        annotators=who,
    )
    return result, ann


@pytest.mark.parametrize("assign", [False, True])
@pytest.mark.parametrize("cap", [1, 2, 3])
def test_fast_paths_give_the_batch_of_the_plain_greedy(monkeypatch, assign, cap):
    """Bounds with lazy exact scores and the vectorised first judgements (the fast paths)
    against every item scored exactly up front and every step done item by item."""
    from analytics.next_labels import batch, selection

    result, ann = synthetic(1500, 25, 4)
    names = list(ann.annotators[:12]) if assign else None
    fast = next_batch(result, ann, 700, per_item_cap=cap, annotators=names, stop_at=0.97)
    monkeypatch.setattr(selection, "mean_bounds", lambda q, *_: np.full(len(q), np.inf))
    monkeypatch.setattr(batch.Planner, "prefetch", lambda self, items, whos: None)
    plain = next_batch(result, ann, 700, per_item_cap=cap, annotators=names, stop_at=0.97)
    assert list(fast["item"]) == list(plain["item"])
    if assign:
        assert list(fast["annotator"]) == list(plain["annotator"])
    for col in BATCH_COLUMNS:
        np.testing.assert_allclose(fast[col], plain[col], rtol=0, atol=1e-12)


def test_per_annotator_cap_spreads_the_work_and_keeps_the_greedy_order():
    # on the RTE sample one worker got all 57 judgements of a batch of 100
    from analytics.data import load_sample

    ann = load_sample("rte_snow2008")
    res = fit(ann)
    names = list(ann.annotators)
    free = next_batch(res, ann, 100, annotators=names)
    assert free["annotator"].value_counts().iloc[0] == len(free) == 57
    capped = next_batch(res, ann, 100, annotators=names, per_annotator_cap=10)
    assert capped["annotator"].value_counts().max() <= 10
    assert capped["annotator"].nunique() >= 6
    # lazy re-scoring keeps the greedy exact: each judgement is worth no more than the last
    assert (np.diff(capped["expected_gain"].to_numpy()) <= 1e-12).all()
    # no judgement goes to someone who already judged the item, nor twice to one pair
    judged = set(zip(ann.items[ann.item_codes], ann.annotators[ann.annotator_codes], strict=True))
    pairs = list(zip(capped["item"], capped["annotator"], strict=True))
    assert not judged & set(pairs) and len(set(pairs)) == len(pairs)
    # short of the budget because of the items, not the cap: the note says which
    why = capped.attrs["excluded"]
    assert sum(why.values()) == ann.n_items and "annotators_at_cap" not in why
    assert why["reached_stop_at"] == capped["item"].nunique()
    assert f"{why['confident']} items are already at the stop-at" in capped.attrs["notes"][0]
    assert "cap of 10" not in capped.attrs["notes"][0]
    # a cap nobody reaches changes nothing
    pd.testing.assert_frame_equal(
        next_batch(res, ann, 100, annotators=names, per_annotator_cap=100), free
    )


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"per_annotator_cap": 0}, "per_annotator_cap must be a whole number"),
        ({"per_annotator_cap": 2.5}, "per_annotator_cap must be a whole number"),
        ({"per_annotator_cap": 3, "annotators": None}, "none are named"),
    ],
)
def test_per_annotator_cap_is_checked(fitted, kwargs, match):
    ann, res = fitted
    options = {"annotators": list(ann.annotators), **kwargs}
    with pytest.raises(AnnotationDataError, match=match):
        next_batch(res, ann, 10, **options)


@pytest.mark.parametrize("cap", [1, 2, 3])
@pytest.mark.parametrize("per_item", [1, 2])
def test_per_annotator_cap_on_small_crowds(fitted, cap, per_item):
    ann, res = fitted
    batch = next_batch(
        res, ann, 60, per_item_cap=per_item, annotators=list(ann.annotators), per_annotator_cap=cap
    )
    assert len(batch) and batch["annotator"].value_counts().max() <= cap
    assert batch["item"].value_counts().max() <= per_item
    assert (np.diff(batch["expected_gain"].to_numpy()) <= 1e-12).all()


@pytest.mark.parametrize("strategy", ["random", "uncertainty", "gain"])
@pytest.mark.parametrize("cap", [None, 1, 2])
def test_named_annotators_at_their_cap_never_crash_a_random_or_uncertainty_batch(strategy, cap):
    """Items queued before an annotator was drawn (random, uncertainty) met a pool all at
    the cap, and drawing from nobody raised ValueError (the CLI's --assign
    --per-annotator 1 with --strategy random did); they are left out, as gain's are."""
    rows = [
        (f"i{i}", a, (i + (a == "c") * (i % 2)) % 2)
        for i in range(6)
        for a in "abc"
        if not (a == "c" and i < 3)
    ]
    ann = Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))
    batch = next_batch(
        fit(ann), ann, 5, strategy=strategy, annotators=["a", "b", "c"],
        per_annotator_cap=cap, stop_at=1.0,
    )  # fmt: skip
    assert batch["annotator"].tolist() == ["c"] * (3 if cap is None else cap)


@pytest.mark.parametrize(
    ("strategy", "assign"),
    [("random", False), ("random", True), ("uncertainty", True), ("gain", False), ("gain", True)],
)
def test_the_same_judgements_in_another_row_order_plan_the_same_batch(strategy, assign):
    """Items and annotators are numbered by name before the batch is planned: the random
    strategy's order, its random annotators and the ties of equal scores (lower code
    first) had followed the file's first-seen order, so a shuffled copy of the file got
    another batch."""
    ann = small_data(seed=5, n_items=60)
    shuffled = shuffled_rows(ann, seed=7)
    assert list(shuffled.items) != list(ann.items)
    assert list(shuffled.annotators) != list(ann.annotators)
    names = list(ann.annotators) if assign else None
    a, b = (
        next_batch(fit(x), x, 25, annotators=names, strategy=strategy, seed=2)
        for x in (ann, shuffled)
    )
    pd.testing.assert_frame_equal(a, b, atol=1e-9)
    assert a.attrs["excluded"] == b.attrs["excluded"]
