"""replay_summary: judgements needed per strategy, their share and the ratio to random."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics.next_labels import judgements_needed, replay_summary


def table():
    t = pd.DataFrame(
        {
            "strategy": ["gain"] * 3 + ["uncertainty"] * 2 + ["random"] * 3,
            "judgements": [100, 150, 200, 100, 130, 100, 200, 400],
            "accuracy": [0.5, 0.8, 0.9, 0.5, 0.7, 0.5, 0.8, 0.9],
        }
    )
    t.attrs["full_accuracy"] = 0.9
    return t


def test_summary_reads_the_curves_as_judgements_needed_does():
    t = table()
    s = replay_summary(t)
    pd.testing.assert_series_equal(
        s["judgements"], judgements_needed(t).rename_axis("strategy"), check_names=False
    )
    assert s.loc["gain", "judgements"] == 200 and s.loc["random", "judgements"] == 400
    assert s.loc["gain", "vs_random"] == pytest.approx(0.5)
    assert s.loc["gain", "share_of_all"] == pytest.approx(0.5)
    assert np.isnan(s.loc["uncertainty", "judgements"])  # stopped below the level
    assert np.isnan(s.loc["uncertainty", "vs_random"])
    assert s.attrs["level"] == 0.9


def test_without_random_there_is_no_ratio():
    t = table()
    t = t[t["strategy"] != "random"]
    t.attrs["full_accuracy"] = 0.9
    assert replay_summary(t)["vs_random"].isna().all()
    assert replay_summary(t, level=0.8).loc["gain", "judgements"] == 150
