"""Argument checks of the replay readers: a table that is not replay's, a single strategy
name, gold of the wrong kind; never a bare KeyError or a strategy list of letters."""

from __future__ import annotations

import pandas as pd
import pytest

from analytics import AnnotationDataError
from analytics._core.errors import ArgumentTypeError
from analytics.next_labels import judgements_needed, replay, replay_summary
from tests.next_labels.test_replay import mixed_crowd


@pytest.fixture(scope="module")
def small():
    return mixed_crowd(n_items=30)


def _curves(**attrs) -> pd.DataFrame:
    table = pd.DataFrame(
        {
            "strategy": ["gain", "gain", "random", "random"],
            "judgements": [10, 20, 10, 40],
            "accuracy": [0.5, 0.9, 0.5, 0.9],
        }
    )
    table.attrs.update(attrs)
    return table


@pytest.mark.parametrize("function", [judgements_needed, replay_summary])
def test_replay_readers_refuse_another_table(function):
    with pytest.raises(ArgumentTypeError, match=r"replay\(\)'s table") as info:
        function(pd.DataFrame())  # was KeyError 'full_accuracy'
    assert f"{function.__name__}(table, level=0.9)" in str(info.value)


@pytest.mark.parametrize("function", [judgements_needed, replay_summary])
def test_replay_readers_need_a_level_or_replays_full_accuracy(function):
    with pytest.raises(AnnotationDataError, match="full_accuracy"):
        function(_curves())  # the columns, but no attrs: say what is missing
    with pytest.raises(AnnotationDataError, match="level must lie between 0 and 1"):
        function(_curves(), level=1.5)
    assert len(function(_curves(), level=0.9)) == 2
    assert len(function(_curves(full_accuracy=0.9))) == 2


def test_replay_reads_one_strategy_name_as_one_strategy(small):
    ann, gold = small
    table = replay(ann, gold, strategies="random", step=60)  # was ['r', 'a', 'n', ...]
    assert set(table["strategy"]) == {"random"}
    with pytest.raises(AnnotationDataError, match=r"got \['foo'\]"):
        replay(ann, gold, strategies="foo")


def test_replay_refuses_a_gold_file_name(small):
    ann, _ = small
    with pytest.raises(ArgumentTypeError, match="read_gold_labels"):
        replay(ann, "gold.csv", strategies="random")


@pytest.mark.parametrize("seed", [-3, 1.5, "0"])
def test_a_bad_seed_is_refused_by_name(small, seed):
    """next_batch, plan and replay passed the seed straight to numpy: a ValueError
    ('expected non-negative integer') or TypeError instead of the AnnotationDataError the
    agreement report and the models give."""
    from analytics.dawid_skene import fit
    from analytics.next_labels import next_batch, plan

    ann, _ = small
    result = fit(ann)
    calls = [
        lambda: next_batch(result, ann, 5, seed=seed),
        lambda: plan(result, seed=seed),
        lambda: replay(ann, strategies="random", seed=seed),
    ]
    for call in calls:
        with pytest.raises(AnnotationDataError, match="seed"):
            call()
