"""model="auto" on the six public data sets against their expert gold (issue 15's targets).

crowd-kit 1.4.2 with defaults, from issue 15's table: its DawidSkene and the best of its
seven aggregators per set. Targets: auto within 0.5 point of crowd-kit's DawidSkene on every
set, and auto's mean at least the mean of the best column, 0.8995 (auto: 0.9000; choosing
the single most predictive model instead of stacking gave 0.8987).
"""

from __future__ import annotations

import numpy as np
import pytest

from analytics.models import fit
from tests.helpers.paths import PUBLIC_SETS
from tests.models.helpers import accuracy, public

# crowd-kit's DawidSkene with its defaults, as issue 15's table gives it (bluebirds 0.889,
# act_MS 0.769); the 0.898 and 0.767 of the data sets' README are a reference Dawid-Skene's
CROWDKIT_DS = {
    "snow_rte": 0.927,
    "snow_temp": 0.942,
    "snow_wsd": 0.994,
    "welinder_bluebirds": 0.889,
    "zheng_s4_Dog_data": 0.843,
    "act_MS": 0.769,
}
MEASURED: dict[str, float] = {}


@pytest.mark.slow
@pytest.mark.parametrize("name", PUBLIC_SETS)
def test_auto_within_half_a_point_of_crowdkit_dawid_skene(name):
    ann, gold = public(name)
    r = fit(ann)
    assert r.model == "stacked"
    MEASURED[name] = accuracy(r, gold)
    assert MEASURED[name] >= CROWDKIT_DS[name] - 0.005 - 0.0005  # printed to 3 decimals


@pytest.mark.slow
def test_auto_mean_over_the_sets():
    for name in PUBLIC_SETS:
        if name not in MEASURED:
            ann, gold = public(name)
            MEASURED[name] = accuracy(fit(ann), gold)
    mean = float(np.mean(list(MEASURED.values())))
    assert mean >= 0.8995  # today 0.90001
    assert mean > np.mean(list(CROWDKIT_DS.values()))  # crowd-kit DawidSkene: 0.894
