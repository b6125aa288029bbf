"""The BCa interval of analytics._core.bootstrap against SciPy's independent implementation."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from analytics._core.bootstrap import (
    ItemStatistic,
    Patterns,
    bca_interval,
    bootstrap_replicates,
    jackknife_interval,
    jackknife_values,
)


def _ratio_data(seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.exponential(size=40), rng.uniform(1, 2, size=40)


def test_bca_matches_scipy_on_a_skewed_ratio():
    # scipy.stats.bootstrap(method="BCa") is Efron's (1987) interval, written independently.
    # Both draw 20,000 resamples of their own, so the ends agree to Monte-Carlo error
    # (about 0.005 here, the ends' bootstrap SE at this many resamples), not to the digit.
    x, y = _ratio_data()
    stat = ItemStatistic(np.column_stack([x, y]), lambda t: t[:, 0] / t[:, 1])
    pat = Patterns.identity(len(x))
    reps = bootstrap_replicates({"r": stat}, pat, 20_000, 3)["r"]
    lo, hi, n_ok, z0, _ = bca_interval(
        reps, stat.value(), jackknife_values(stat, pat), pat.multiplicity, 0.9
    )
    ref = stats.bootstrap(
        (x, y),
        lambda a, b, axis=-1: a.sum(axis=axis) / b.sum(axis=axis),
        paired=True,
        n_resamples=20_000,
        method="BCa",
        confidence_level=0.9,
        rng=4,
    ).confidence_interval
    assert n_ok == 20_000
    assert lo == pytest.approx(ref.low, abs=0.01)
    assert hi == pytest.approx(ref.high, abs=0.015)
    # the skew of the ratio shows: BCa is not the percentile interval
    plo, phi = np.quantile(reps, [0.05, 0.95])
    assert abs(hi - phi) > 0.01 or abs(lo - plo) > 0.01
    assert np.isfinite(z0)


def test_jackknife_by_pattern_equals_jackknife_by_item():
    rng = np.random.default_rng(2)
    keys = rng.integers(0, 3, size=(60, 2))
    stats_ = np.column_stack([keys[:, 0] == keys[:, 1], np.ones(60)]).astype(float)
    stat = ItemStatistic(stats_, lambda t: t[:, 0] / t[:, 1])
    pat = Patterns.from_keys(keys)
    by_pattern = jackknife_values(stat, pat)[pat.of_item]
    by_item = jackknife_values(stat, Patterns.identity(60))
    np.testing.assert_allclose(by_pattern, by_item)


def test_bias_moves_the_interval_against_it():
    # replicates centred 0.5 SE below the estimate: a normal G with bias b gives a BCa
    # interval centred on estimate - b (Efron & Tibshirani 1993, section 14.3)
    reps = np.random.default_rng(0).normal(-0.5, 1.0, 200_000)
    lo, hi, _, z0, _ = bca_interval(reps, 0.0, np.zeros(0), None, 0.9)
    assert z0 == pytest.approx(0.5, abs=0.01)
    assert (lo + hi) / 2 == pytest.approx(0.5, abs=0.03)
    assert hi - lo == pytest.approx(2 * 1.645, abs=0.05)


def test_undefined_and_out_of_range_cases_are_nan():
    assert np.isnan(bca_interval(np.array([np.nan, 1.0]), 0.5, np.zeros(0))[0])
    # every replicate below the estimate: no finite bias correction
    lo, _, n_ok, z0, _ = bca_interval(np.arange(10.0), 20.0, np.zeros(0))
    assert np.isnan(lo) and n_ok == 10 and np.isinf(z0)
    # bias of 2.5 SE: the corrected upper level is 1 - 2e-9, an extreme tail: withheld
    reps = np.random.default_rng(1).normal(-2.5, 1.0, 10_000)
    assert np.isnan(bca_interval(reps, 0.0, np.zeros(0))[0])
    # a level beyond 1 - 0.5/100: only the two outermost replicates stand for it
    reps = stats.norm.ppf((np.arange(100) + 0.5) / 100) - 0.5  # z0 = 0.5: level 0.9985
    lo, hi, _, _, clipped = bca_interval(reps, 0.0, np.zeros(0), None, 0.95)
    assert clipped and np.sort(reps)[-2] <= hi <= reps.max()


def test_report_without_room_to_jackknife_says_bc(monkeypatch):
    # too many (patterns x columns) to jackknife: the acceleration is left at 0, and the
    # interval is labelled BC, not BCa
    import pandas as pd

    from analytics.agreement import report as rp

    df = pd.DataFrame(
        {
            "item": [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6],
            "annotator": ["a", "b"] * 6,
            "label": ["x", "x", "y", "y", "x", "y", "y", "y", "x", "x", "y", "x"],
        }
    )
    monkeypatch.setattr(rp, "JACKKNIFE_CELLS", 0)
    monkeypatch.setattr(rp, "MIN_RESAMPLED_ITEMS", 0)  # the interval machinery, on 6 items
    report = rp.agreement_report(df, n_boot=200).set_index("coefficient")
    assert report.loc["Fleiss' kappa", "ci_method"].startswith(
        "bootstrap over items (200 resamples, BC: bias-corrected, no acceleration"
    )


def test_jackknife_interval_known_results():
    # Quenouille's correction of the plug-in variance (ddof=0) is exactly the unbiased
    # variance (ddof=1), and the jackknife SE of a mean is s / sqrt(n) (Efron & Tibshirani
    # 1993, section 11.2 and problem 11.4)
    x = np.random.default_rng(3).normal(size=30)
    sq = ItemStatistic(
        np.column_stack([x, x**2, np.ones(30)]),
        lambda t: t[:, 1] / t[:, 2] - (t[:, 0] / t[:, 2]) ** 2,
    )
    pat = Patterns.identity(30)
    lo, hi, bias, _ = jackknife_interval(sq.value(), jackknife_values(sq, pat), None, 0.95)
    assert sq.value() - bias == pytest.approx(x.var(ddof=1), rel=1e-12)
    mean = ItemStatistic(np.column_stack([x, np.ones(30)]), lambda t: t[:, 0] / t[:, 1])
    lo, hi, bias, se = jackknife_interval(mean.value(), jackknife_values(mean, pat))
    assert bias == pytest.approx(0.0, abs=1e-12)
    assert se == pytest.approx(x.std(ddof=1) / np.sqrt(30), rel=1e-12)
    assert hi - lo == pytest.approx(2 * stats.t.ppf(0.975, 29) * se, rel=1e-12)
    # patterns: the same answer from grouped items
    keys = np.repeat(np.arange(10), 3)
    grouped = ItemStatistic(np.column_stack([keys, np.ones(30)]), lambda t: t[:, 0] / t[:, 1])
    by_pattern = Patterns.from_keys(keys)
    a = jackknife_interval(
        grouped.value(), jackknife_values(grouped, by_pattern), by_pattern.multiplicity
    )
    b = jackknife_interval(grouped.value(), jackknife_values(grouped, pat))
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
