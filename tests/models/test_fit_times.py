"""Every fit says how long it took: auto's parts too, which the app shows as the models' fits."""

from __future__ import annotations

import math

from analytics.data import load_sample
from analytics.models import fit


def test_auto_times_and_names_each_model_it_fitted():
    ann = load_sample("crowd_intents")
    result = fit(ann)
    parts = result.parameters["components"]
    assert "one_coin" in parts
    for name, part in parts.items():
        seconds = part.settings["seconds"]
        assert isinstance(seconds, float) and math.isfinite(seconds) and seconds >= 0, name
        assert part.settings["model"] == name
    assert result.settings["model"] == "auto" and math.isfinite(result.settings["seconds"])
