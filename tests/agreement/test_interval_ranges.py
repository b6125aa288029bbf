"""Every interval of the agreement report stays inside its coefficient's range."""

from __future__ import annotations

import io
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analytics import Annotations, load_annotations
from analytics.agreement import agreement_report
from analytics.agreement.ranges import CLIPPED, clip_interval, coefficient_range
from analytics.agreement.standard_errors import Analytic, t_interval

# a reviewer's upload: 4 items, 2 annotators, labels that look like markup
MD_LABELS = """item,annotator,label
1,:red[ann],**bold**
1,b,$x^2$
2,:red[ann],**bold**
2,b,**bold**
3,:red[ann],$x^2$
3,b,$x^2$
4,:red[ann],<b>h</b>
4,b,<b>h</b>
"""


def _assert_in_range(report: pd.DataFrame) -> None:
    for _, row in report.iterrows():
        bottom, top = coefficient_range(row["coefficient"])
        for col in ("ci_low", "ci_high", "analytic_low", "analytic_high"):
            v = row[col]
            if not math.isnan(v):
                assert bottom - 1e-12 <= v <= top + 1e-12, (row["coefficient"], col, v)


def test_gwet_basic_interval_on_four_items_stops_at_one(monkeypatch):
    from analytics.agreement import report as rp

    monkeypatch.setattr(rp, "MIN_RESAMPLED_ITEMS", 0)  # the basic interval's clipping
    ann = load_annotations(io.StringIO(MD_LABELS))
    report = agreement_report(ann).set_index("coefficient")
    ac1 = report.loc["Gwet's AC1"]
    assert 0.62 < ac1["value"] < 0.63
    # was 1.235 from the basic interval 2*estimate - quantile
    assert ac1["ci_high"] == 1.0
    assert ac1["ci_method"].startswith("bootstrap over items (1,000 resamples, basic")
    assert ac1["ci_method"].endswith(CLIPPED)
    _assert_in_range(report.reset_index())


def test_analytic_intervals_are_clipped_and_say_so():
    ann = load_annotations(io.StringIO(MD_LABELS))
    report = agreement_report(ann, n_boot=0).set_index("coefficient")
    pa = report.loc["Percent agreement"]
    # 0.75 +- t(3) SE passes both 0 and 1
    assert pa["analytic_low"] == 0.0 and pa["analytic_high"] == 1.0
    assert pa["ci_low"] == 0.0 and pa["ci_high"] == 1.0
    assert pa["se_method"].endswith(CLIPPED) and pa["ci_method"].endswith(CLIPPED)
    _assert_in_range(report.reset_index())


def test_clip_interval_leaves_inner_and_missing_ends_alone():
    assert clip_interval("Krippendorff's alpha (nominal)", -3.0, 0.5) == (-3.0, 0.5, False)
    lo, hi, clipped = clip_interval("Gwet's AC1", float("nan"), float("nan"))
    assert math.isnan(lo) and math.isnan(hi) and not clipped
    assert clip_interval("Scott's pi (mean over pairs)", -1.4, 1.2) == (-1.0, 1.0, True)
    assert clip_interval("Percent agreement", 1.1, 1.3) == (1.0, 1.0, True)


def test_t_interval_uncapped_on_request():
    a = Analytic(0.1, 30, "x")
    assert t_interval(0.95, a, 0.95)[1] == 1.0
    assert t_interval(0.95, a, 0.95, cap=False)[1] > 1.0


@st.composite
def small_data(draw):
    n_coders = draw(st.integers(2, 4))
    n_items = draw(st.integers(3, 8))
    n_values = draw(st.integers(2, 3))
    cell = st.one_of(st.none(), st.integers(0, n_values - 1))
    rows = [draw(st.lists(cell, min_size=n_items, max_size=n_items)) for _ in range(n_coders)]
    kind = draw(st.sampled_from(["nominal", "ordinal"]))
    return rows, kind


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_data())
def test_every_reported_interval_lies_in_the_range(data):
    rows, kind = data
    recs = [
        (f"u{u}", f"c{c}", v)
        for c, row in enumerate(rows)
        for u, v in enumerate(row)
        if v is not None
    ]
    df = pd.DataFrame(recs, columns=["item", "annotator", "label"])
    if df["item"].nunique() < 2 or df["annotator"].nunique() < 2:
        return
    ann = Annotations.from_frame(df, kind=kind, categories=sorted(df["label"].unique()))
    _assert_in_range(agreement_report(ann, n_boot=60, seed=1))
    _assert_in_range(agreement_report(ann, n_boot=0))


@pytest.mark.parametrize("n_items", [1, 3, 9])
def test_too_few_items_get_no_resampled_interval(n_items):
    """One item resampled to itself read "95% interval 0.00 to 0.00"; three items gave
    Fleiss' kappa -0.21 with an interval that excluded 0."""
    rng = np.random.default_rng(n_items)
    df = pd.DataFrame(
        {
            "item": np.repeat(np.arange(n_items), 3),
            "annotator": np.tile(["a", "b", "c"], n_items),
            "label": rng.choice(["x", "y"], 3 * n_items),
        }
    )
    report = agreement_report(df, n_boot=200).set_index("coefficient")
    kappa = report.loc["Fleiss' kappa"]
    if np.isfinite(kappa["value"]):
        assert np.isnan(kappa["ci_low"]) and np.isnan(kappa["ci_high"])
        assert kappa["ci_method"] == "none (too few items to resample)"
        # one item is "1 item compared" (it read "1 items compared")
        compared = "1 item" if n_items == 1 else f"{n_items} items"
        assert f"{compared} compared, fewer than 10" in kappa["note"]
    # nor a standard error from the resamples that are not drawn (one item had read
    # "SE 0.000, bootstrap SD" beside "none (too few items to resample)")
    assert not report["se_method"].str.startswith("bootstrap SD").any()


def test_ten_items_are_resampled():
    rng = np.random.default_rng(0)
    df = pd.DataFrame(
        {
            "item": np.repeat(np.arange(10), 3),
            "annotator": np.tile(["a", "b", "c"], 10),
            "label": rng.choice(["x", "y"], 30, p=[0.7, 0.3]),
        }
    )
    kappa = agreement_report(df, n_boot=200).set_index("coefficient").loc["Fleiss' kappa"]
    assert kappa["ci_method"].startswith("bootstrap over items")


def test_one_item_has_no_resampled_standard_error():
    df = pd.DataFrame({"item": ["i"] * 3, "annotator": ["a", "b", "c"], "label": ["x", "y", "x"]})
    report = agreement_report(df)
    assert report["se"].isna().all() and not report["se_method"].str.len().any()
