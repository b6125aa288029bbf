"""Dawid-Skene on the six public data sets in ``datasets/`` against their expert gold.

Reference figures (datasets/README.md): crowd-kit 1.4.2's DawidSkene run for 100
iterations. They are printed to 3 decimals, so "at least the reference" is checked as
``accuracy >= reference - 0.0005`` (e.g. Dog: 680/807 = 0.84263 prints as 0.843).

Measured here (smoothing 0.01):

============  =========  ======================  ===================
data set      reference  init="majority" (dflt)  init="best"
============  =========  ======================  ===================
snow_rte      0.927      0.9275                  0.9275
snow_temp     0.942      0.9416                  0.9416
snow_wsd      0.994      0.9944                  0.9944
bluebirds     0.898      0.8981                  0.8981
Dog           0.843      0.8414 (679/807)        0.8426 (680/807)
act_MS        0.767      0.7443                  0.7500
============  =========  ======================  ===================

- Dog: the majority-vote start ends in a local optimum one item short of the reference;
  the best-of-starts fit (higher likelihood) meets it.
- act_MS: the README's caveat. A fit run to convergence reaches a *higher* likelihood at
  a *lower* accuracy than crowd-kit's 100-iteration figure (which stops on a plateau).
  Our best-of-starts fit is more likely still (0.750), and a fit more likely again labels
  only 0.713 right (``init="best"``'s answer until its random starts were drawn in name
  order, 2026-11-28). The model's likelihood and the experts' labels disagree on this
  set; we report it rather than tune for it. ``test_likelihood_at_least_crowdkit`` shows
  our optimiser is not the cause.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from analytics import Annotations
from analytics.dawid_skene import fit, gold_accuracy, log_likelihood
from tests.helpers.paths import PUBLIC_SETS, load_public

REFERENCE = {  # crowd-kit DawidSkene accuracy from datasets/README.md
    "snow_rte": 0.927,
    "snow_temp": 0.942,
    "snow_wsd": 0.994,
    "welinder_bluebirds": 0.898,
    "zheng_s4_Dog_data": 0.843,
    "act_MS": 0.767,
}
CAVEAT_MS = 0.744  # README: act_MS fitted to full convergence
ROUNDING = 0.0005


def load(name):
    labels, gold = load_public(name)
    return Annotations.from_frame(labels, name=name), gold.set_index("item")["label"]


@pytest.mark.parametrize("name", PUBLIC_SETS)
def test_accuracy_against_expert_gold(name):
    ann, gold = load(name)
    default = gold_accuracy(fit(ann), gold)
    best = gold_accuracy(fit(ann, init="best"), gold)
    ds_default = default.loc["Dawid-Skene", "accuracy"]
    ds_best = best.loc["Dawid-Skene", "accuracy"]
    assert default.loc["Dawid-Skene", "items"] == len(gold)
    if name == "act_MS":
        assert ds_default >= CAVEAT_MS - ROUNDING
        assert ds_best == pytest.approx(525 / 700)  # 0.750: see module docstring
    elif name == "zheng_s4_Dog_data":
        assert ds_default == pytest.approx(679 / 807)
        assert ds_best >= REFERENCE[name] - ROUNDING
    else:
        assert ds_default >= REFERENCE[name] - ROUNDING
        assert ds_best >= REFERENCE[name] - ROUNDING
    # the model never does worse than majority vote on these sets
    assert ds_default >= default.loc["majority vote", "accuracy"]


@pytest.mark.parametrize("name", PUBLIC_SETS)
def test_fits_converge_monotonically(name):
    ann, _ = load(name)
    res = fit(ann)
    ll = res.log_likelihood
    assert res.converged
    assert (np.diff(ll) >= -1e-9 * np.abs(ll[:-1])).all()


@pytest.mark.slow
@pytest.mark.parametrize("name", PUBLIC_SETS)
def test_likelihood_at_least_crowdkit(name):
    """Our unsmoothed best-of-starts fit is at least as likely as crowd-kit's estimate."""
    aggregation = pytest.importorskip(
        "crowdkit.aggregation", reason="crowd-kit not installed (benchmark-only dependency)"
    )
    ann, _ = load(name)
    df = ann.to_frame().rename(columns={"item": "task", "annotator": "worker"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # crowd-kit's pandas deprecations
        model = aggregation.DawidSkene(100).fit(df)
    cats = list(ann.categories)
    theta = np.stack(
        [
            model.errors_.loc[w].reindex(index=cats, columns=cats).fillna(0.0).to_numpy().T
            for w in ann.annotators
        ]
    )
    theta /= theta.sum(axis=2, keepdims=True)
    theirs = log_likelihood(ann, model.priors_.reindex(cats).to_numpy(), theta)
    ours = fit(ann, smoothing=0.0, init="best").final_log_likelihood
    assert ours >= theirs - 1e-6 * abs(theirs)
