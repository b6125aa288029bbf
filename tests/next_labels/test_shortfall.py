"""A batch short of its budget says which reason leaves items out, and for how many."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from analytics import Annotations
from analytics.dawid_skene import fit
from analytics.next_labels import next_batch
from analytics.next_labels.shortfall import EXCLUSIONS, shortfall_note


def small_crowd(
    n_annotators: int = 4, n_items: int = 30, seed: int = 0, accuracy: float = 0.8
) -> pd.DataFrame:
    """item, annotator, label: every annotator judges every item, 3 labels, right with
    probability ``accuracy`` (otherwise a random label), so there is some disagreement."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n_items):
        truth = int(rng.integers(3))
        for j in range(n_annotators):
            label = truth if rng.random() < accuracy else int(rng.integers(3))
            rows.append((f"i{i}", f"a{j}", "xyz"[label]))
    return pd.DataFrame(rows, columns=["item", "annotator", "label"])


def two_annotators() -> Annotations:
    return Annotations.from_frame(small_crowd(2), name="two")


def test_two_annotators_who_judged_every_item_say_so():
    ann = two_annotators()
    res = fit(ann)
    for kwargs in ({}, {"annotators": ["a0", "a1"]}, {"strategy": "uncertainty"}):
        batch = next_batch(res, ann, 10, **kwargs)
        assert batch.empty
        assert batch.attrs["excluded"] == {"judged_by_all": 30}
        assert batch.attrs["notes"] == (
            "No judgement is worth asking for: each of the 2 annotators has already judged "
            "all 30 items. To get more: bring in new annotators (the model plans only for "
            "annotators it has seen: have them judge some items, then refit).",
        )
    one = next_batch(res, ann, 10, annotators=["a0"])
    assert "the only annotator named has already judged all 30 items" in one.attrs["notes"][0]
    assert "name more of the data's annotators" in one.attrs["notes"][0]


def binary_result(ann: Annotations, theta) -> SimpleNamespace:
    """Every item at 50/50, every annotator with confusion matrix ``theta``."""
    return SimpleNamespace(
        posteriors=pd.DataFrame(0.5, index=ann.items, columns=ann.categories),
        prevalence=pd.Series(0.5, index=ann.categories),
        confusion={a: pd.DataFrame(theta) for a in ann.annotators},
    )


def partly_judged() -> Annotations:
    """i0..i9 judged by a and b, j0 and j1 by c and d: each item has two annotators left."""
    rows = [(f"i{i}", w, i % 2) for i in range(10) for w in "ab"]
    rows += [(f"j{i}", w, i % 2) for i in range(2) for w in "cd"]
    return Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))


def test_the_annotator_cap_and_the_item_cap_are_counted():
    ann = partly_judged()
    res = binary_result(ann, [[0.8, 0.2], [0.2, 0.8]])
    batch = next_batch(
        res,
        ann,
        50,
        per_item_cap=1,
        stop_at=1.0,
        annotators=list(ann.annotators),
        per_annotator_cap=1,
    )
    assert len(batch) == 4  # one judgement for each of the four annotators
    assert batch.attrs["excluded"] == {"at_item_cap": 4, "annotators_at_cap": 8}
    note = batch.attrs["notes"][0]
    assert note.startswith("Only 4 of the 50 judgements are worth asking for: 4 items get")
    assert "8 items are left only to annotators at their cap of 1 judgement" in note
    assert note.endswith("To get more: raise the per-item cap; or raise the per-annotator cap.")


def test_spammers_gain_nothing_and_the_note_says_so():
    ann = partly_judged()
    res = binary_result(ann, [[0.5, 0.5], [0.5, 0.5]])
    for kwargs in ({}, {"annotators": list(ann.annotators)}):
        batch = next_batch(res, ann, 5, stop_at=1.0, **kwargs)
        assert batch.empty and batch.attrs["excluded"] == {"no_gain": ann.n_items}
        assert batch.attrs["notes"][0] == (
            "No judgement is worth asking for: another judgement of all 12 items would tell "
            "nothing (0 bits expected)."
        )


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"per_item_cap": 1},
        {"stop_at": 0.9},
        {"strategy": "uncertainty"},
        {"strategy": "random", "per_item_cap": 3},
        {"assign": True},
        {"assign": True, "per_annotator_cap": 3},
    ],
)
def test_a_short_batch_accounts_for_every_item(kwargs):
    """Three annotators of five per item: when the budget is not spent, every item is
    counted under exactly one reason, in the order of EXCLUSIONS."""
    frame = small_crowd(5, n_items=40, seed=2)
    keep = np.random.default_rng(0).random(len(frame)) < 0.6
    ann = Annotations.from_frame(frame[keep].reset_index(drop=True))
    res = fit(ann)
    assign = kwargs.pop("assign", False)
    batch = next_batch(
        res, ann, 10_000, annotators=list(ann.annotators) if assign else None, **kwargs
    )
    why = batch.attrs["excluded"]
    assert len(batch) < 10_000
    assert sum(why.values()) == ann.n_items
    assert list(why) == [key for key in EXCLUSIONS if key in why]
    for key, n in why.items():
        assert n > 0, key
        assert f"{n} item" in batch.attrs["notes"][0] or f"all {n} items" in batch.attrs["notes"][0]


def test_a_full_batch_has_no_note():
    settings = {
        "pool": 3,
        "n_annotators": 3,
        "stop_at": 0.99,
        "per_item_cap": 2,
        "per_annotator_cap": None,
    }
    assert shortfall_note({"confident": 5}, 10, 10, 20, settings) == ""
    assert shortfall_note({}, 3, 10, 20, settings).endswith("no item can take another judgement.")


def test_a_batch_of_every_item_left_says_the_strategies_only_reorder_it():
    """The crowd sample's default settings: 17 items under 0.99, 2 judgements each, under a
    budget of 100. Switching the strategy on the page changed nothing but the order; the
    note says why."""
    from analytics.data import load_sample
    from analytics.dawid_skene import fit
    from analytics.next_labels import next_batch

    ann = load_sample("crowd_intents")
    result = fit(ann)
    batches = {
        s: next_batch(result, ann, 100, per_item_cap=2, stop_at=0.99, strategy=s)
        for s in ("gain", "uncertainty", "random")
    }
    counts = {s: b["item"].value_counts().sort_index() for s, b in batches.items()}
    assert len(batches["gain"]) == 34
    assert counts["gain"].equals(counts["uncertainty"]) and counts["gain"].equals(counts["random"])
    for b in batches.values():
        assert "differs only in their order" in b.attrs["notes"][0]
    full = next_batch(result, ann, 20, per_item_cap=2, stop_at=0.99)
    assert not any("only in their order" in n for n in full.attrs.get("notes", ()))
