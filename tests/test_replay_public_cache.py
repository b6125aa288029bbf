"""benchmarks.replay_public's --save cache answers only the run that wrote it."""

from __future__ import annotations

import pandas as pd
import pytest

from analytics import Annotations
from benchmarks import replay_public


def test_a_saved_replay_is_not_reused_for_another_number_of_seeds(monkeypatch, tmp_path):
    """The cache (``--save``) is named by the settings but not by the seeds: README's
    five-seed table (``--seeds 5 --save``) and the three-seed command beside it
    (``--save``) read each other's replays, and the mean was silently over the other
    number of seeds. Nor for other strategies: a gain-only cache lacks random's replays."""
    ann = Annotations.from_frame(
        pd.DataFrame(
            {"item": ["a", "a", "b", "b"], "annotator": list("xyxy"), "label": list("pqpq")}
        )
    )
    seeds_replayed = []

    def fake_replay(ann, gold, *, seed, strategies, **options):
        seeds_replayed.append(seed)
        rows = [(s, j, 0.5 + 0.1 * j + 0.01 * seed) for s in strategies for j in (1, 2, 3, 4)]
        table = pd.DataFrame(rows, columns=["strategy", "judgements", "accuracy"])
        table.attrs.update(full_accuracy=0.8, start_accuracy=0.6)
        return table

    monkeypatch.setattr(replay_public, "load", lambda name, outside=None: (ann, None))
    monkeypatch.setattr(replay_public, "replay", fake_replay)
    cache = tmp_path / "replay_x_seeds.csv"
    replay_public.run("x", seeds=3, cache=cache)
    assert seeds_replayed == [0, 1, 2]
    replay_public.run("x", seeds=3, cache=cache)  # the same run: read back, not replayed
    assert seeds_replayed == [0, 1, 2]
    _, row = replay_public.run("x", seeds=5, cache=cache)
    assert seeds_replayed == [0, 1, 2, 0, 1, 2, 3, 4]
    assert sorted(pd.read_csv(cache)["seed"].unique()) == [0, 1, 2, 3, 4]
    # each replay reaches 0.8 at 3 - 0.1 x seed judgements: the mean is over five of them
    assert row["gain"] == pytest.approx(2.8)
    # another set of strategies (--strategies gain, as for the pooled column): replayed
    replay_public.run("x", seeds=5, cache=cache, strategies=("gain",))
    assert seeds_replayed[8:] == [0, 1, 2, 3, 4]
    assert list(pd.unique(pd.read_csv(cache)["strategy"])) == ["gain"]
