"""Item bootstrap of a whole fit: resampling, interval coverage, label change rates."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError
from analytics.models import bootstrap, fit, one_coin_confusion
from analytics.models.uncertainty import resample_items
from tests.models.helpers import public, simulate


def test_resample_keeps_every_drawn_item_whole():
    ann, _ = public("snow_wsd")
    sample, drawn = resample_items(ann, np.random.default_rng(0))
    per_item = np.bincount(ann.item_codes, minlength=ann.n_items)
    assert sample.n_items == ann.n_items
    np.testing.assert_array_equal(
        np.bincount(sample.item_codes, minlength=ann.n_items), per_item[drawn]
    )
    # the labels of copy 0 are those of the item it copies
    first = sample.label_codes[sample.item_codes == 0]
    orig = ann.label_codes[ann.item_codes == drawn[0]]
    assert sorted(first) == sorted(orig)


def test_intervals_cover_the_truth_and_shrink_with_data():
    acc = np.linspace(0.55, 0.9, 10)
    ann, truth = simulate(one_coin_confusion(acc, 2), [0.5, 0.5], 400, 3, seed=11)
    r = fit(ann, "one_coin")
    u = bootstrap(ann, r, n_boot=40, seed=1)
    table = u.annotator_accuracy.loc[[f"a{j}" for j in range(10)]]
    covered = ((table["low"] <= acc) & (acc <= table["high"])).mean()
    assert covered >= 0.8
    assert (table["low"] <= table["estimate"] + 1e-9).all()
    share = np.bincount(truth, minlength=2) / len(truth)  # the sample's own prevalence
    assert (u.prevalence["low"] <= share).all() and (u.prevalence["high"] >= share).all()
    assert u.confusion_low.shape == (10, 2, 2) and (u.confusion_low <= u.confusion_high).all()
    assert "item bootstrap" in u.method and u.n_boot == 40
    big, _ = simulate(one_coin_confusion(acc, 2), [0.5, 0.5], 2000, 3, seed=11)
    wide = (table["high"] - table["low"]).mean()
    u2 = bootstrap(big, fit(big, "one_coin"), n_boot=40, seed=1)
    assert (u2.annotator_accuracy["high"] - u2.annotator_accuracy["low"]).mean() < 0.7 * wide


def test_label_changes():
    ann, _ = public("welinder_bluebirds")
    u = bootstrap(ann, fit(ann, "dawid_skene"), n_boot=20)
    rates = u.label_changes
    assert rates.between(0, 1).all() and rates.notna().sum() > 100
    assert 0 < u.share_changed < 0.5
    # a unanimous crowd never changes its labels
    easy, _ = simulate(one_coin_confusion(np.full(5, 0.999), 2), [0.5, 0.5], 200, 5, seed=2)
    assert bootstrap(easy, fit(easy, "majority"), n_boot=5).share_changed == 0.0


def test_bad_arguments():
    ann, _ = public("snow_wsd")
    r = fit(ann, "majority")
    with pytest.raises(AnnotationDataError, match="n_boot"):
        bootstrap(ann, r, n_boot=1)
    with pytest.raises(AnnotationDataError, match="confidence"):
        bootstrap(ann, r, confidence=2)


def test_an_interval_that_excludes_its_estimate_is_withheld_with_a_note():
    # the hierarchical fit of the sample puts w19 (a spammer) at 0.536, while its
    # resampled refits shrink it: the percentile interval had read 0.303 to 0.518
    from analytics.data import load_sample
    from analytics.models import fit
    from analytics.models.uncertainty import WITHHELD

    ann = load_sample("crowd_intents")
    unc = bootstrap(ann, fit(ann, "hierarchical"), n_boot=100)
    for table in (unc.annotator_accuracy, unc.prevalence):
        kept = table["low"].notna()
        assert ((table["low"] <= table["estimate"] + 1e-12) | ~kept).all()
        assert ((table["estimate"] <= table["high"] + 1e-12) | ~kept).all()
        assert (
            table.loc[~kept & (table["fits"] > 1 if "fits" in table else True), "note"] == WITHHELD
        ).all()
    assert unc.annotator_accuracy.loc["w19", "note"] == WITHHELD


def test_the_item_bootstrap_does_not_depend_on_the_row_order():
    """Items are drawn by the rank of their names: the same judgements in another row order
    give the same resamples, so the same intervals (up to where EM stops)."""
    from analytics import load_annotations
    from analytics.models import bootstrap, fit
    from tests.helpers.paths import SAMPLE_DATA

    rows = pd.read_csv(SAMPLE_DATA / "crowd_intents.csv")
    one = load_annotations(rows)
    other = load_annotations(rows.sample(frac=1, random_state=5))
    a = bootstrap(one, fit(one, "dawid_skene"), n_boot=20)
    b = bootstrap(other, fit(other, "dawid_skene"), n_boot=20)
    cols = ["estimate", "low", "high"]
    acc_a = a.annotator_accuracy[cols]
    acc_b = b.annotator_accuracy.loc[acc_a.index, cols]
    np.testing.assert_allclose(acc_a.to_numpy(float), acc_b.to_numpy(float), atol=1e-3)
    pd.testing.assert_series_equal(
        a.label_changes.sort_index(), b.label_changes.sort_index(), atol=1e-9
    )
