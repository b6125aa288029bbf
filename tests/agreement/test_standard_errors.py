"""Analytic standard errors (issue 14) against independent implementations.

Oracles: the Python ``irrCAC`` package 0.4.4 (Gwet's variance formulas, a port of the R
``irrCAC`` package: ``CAC.fleiss/gwet/bp/conger/krippendorff`` on raw ratings, ``CAC.cohen``
and ``CAC.scott`` on a two-rater table, each with ``N`` for the finite-population
correction) and ``statsmodels.stats.inter_rater.cohens_kappa`` (``std_kappa``: Fleiss,
Cohen & Everitt's large-sample SE, unweighted and weighted). Each comparison is to 1e-9 on
random ratings with missing values, unweighted and quadratic-weighted.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analytics import Annotations
from analytics.agreement import standard_errors as se
from analytics.agreement.annotator_pairs import pair_labels
from analytics.agreement.prepared import prepare

irrcac_raw = pytest.importorskip("irrCAC.raw")
irrcac_table = pytest.importorskip("irrCAC.table")
inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")

VALUES = np.array([1.0, 2.0, 3.0, 4.0])
QUADRATIC = 1 - (VALUES[:, None] - VALUES[None, :]) ** 2 / 9
LINEAR = 1 - np.abs(VALUES[:, None] - VALUES[None, :]) / 3
WEIGHTS = {"identity": None, "quadratic": QUADRATIC, "linear": LINEAR}


def _ratings(seed: int, n: int = 40, r: int = 4, missing: float = 0.25):
    """Annotations and the same ratings as irrCAC's subjects x raters frame (NaN missing)."""
    rng = np.random.default_rng(seed)
    q = len(VALUES)
    truth = rng.integers(0, q, n)
    lab = np.where(rng.random((n, r)) < 0.6, truth[:, None], rng.integers(0, q, (n, r)))
    mask = rng.random((n, r)) < missing
    mask[:, 0] = False  # every item judged by someone (irrCAC drops empty subjects)
    item, annot = np.nonzero(~mask)
    ann = Annotations(
        item_codes=item,
        annotator_codes=annot,
        label_codes=lab[item, annot],
        items=pd.RangeIndex(n),
        annotators=pd.Index([f"r{g}" for g in range(r)]),
        categories=pd.Index(VALUES),
        kind="ordinal",
    )
    frame = pd.DataFrame(np.where(mask, np.nan, VALUES[lab]), columns=list(ann.annotators))
    return ann, frame


def _irrcac(frame: pd.DataFrame, weights: str, method: str, population=np.inf) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cac = irrcac_raw.CAC(
            frame, weights=weights, categories=list(VALUES), digits=12, N=population
        )
        return float(getattr(cac, method)()["est"]["se"])


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("weights", sorted(WEIGHTS))
@pytest.mark.parametrize("population", [np.inf, 120])
def test_raw_coefficients_match_irrcac(seed, weights, population):
    ann, frame = _ratings(seed)
    p, w = prepare(ann), WEIGHTS[weights]
    pop = None if np.isinf(population) else population
    ours = {
        "fleiss": se.fleiss_family_se(p, w, "fleiss_kappa", pop),
        "gwet": se.fleiss_family_se(p, w, "gwet_ac1", pop),
        "bp": se.fleiss_family_se(p, w, "brennan_prediger", pop),
        "conger": se.conger_se(p, w, pop),
        "krippendorff": se.alpha_se(p, w, pop),
    }
    for method, got in ours.items():
        assert got.se == pytest.approx(_irrcac(frame, weights, method, population), abs=1e-9), (
            method
        )
    assert ours["fleiss"].df == len(frame) - 1
    assert ours["krippendorff"].df == int((frame.notna().sum(axis=1) >= 2).sum()) - 1


@pytest.mark.parametrize("weights", sorted(WEIGHTS))
def test_two_rater_tables_match_irrcac_and_statsmodels(weights):
    ann, _ = _ratings(3, n=60, r=2, missing=0.1)
    p, w, q = prepare(ann), WEIGHTS[weights], len(VALUES)
    la, lb = pair_labels(p, 0, 1)
    table = np.bincount(la * q + lb, minlength=q * q).reshape(q, q)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cac = irrcac_table.CAC(pd.DataFrame(table), weights=weights, digits=12)
        cohen, scott = cac.cohen()["est"]["se"], cac.scott()["est"]["se"]
    assert se.pair_table_se(la, lb, q, w, "cohen").se == pytest.approx(cohen, abs=1e-9)
    assert se.pair_table_se(la, lb, q, w, "scott").se == pytest.approx(scott, abs=1e-9)
    sm = inter_rater.cohens_kappa(table, wt=None if w is None else weights).std_kappa
    assert se.pair_table_se(la, lb, q, w, "cohen").se == pytest.approx(sm, abs=1e-12)


def test_percent_agreement_se_is_the_delta_method_of_its_ratio():
    # independent check: the jackknife SE of the ratio estimator converges to the same
    # linearisation; on 400 items they agree to a few percent
    ann, _ = _ratings(5, n=400, r=5)
    p = prepare(ann)
    c = p.counts.toarray()
    a_i = (c * (c - 1)).sum(axis=1)
    b_i = p.n_i * (p.n_i - 1.0)
    n = len(a_i)
    loo = (a_i.sum() - a_i) / (b_i.sum() - b_i)
    jack = np.sqrt((n - 1) / n * ((loo - loo.mean()) ** 2).sum())
    assert se.percent_se(p).se == pytest.approx(jack, rel=0.03)


def test_t_interval_and_p_value():
    a = se.Analytic(0.1, 30, "x")
    lo, hi, pval = se.t_interval(0.5, a, 0.95)
    assert (lo + hi) / 2 == pytest.approx(0.5)
    assert hi - 0.5 == pytest.approx(2.0422724563 * 0.1, rel=1e-9)  # t_{30, .975}
    assert pval == pytest.approx(2.32967e-5, rel=1e-4)  # P(|t_30| > 5), R: 2*pt(-5, 30)
    assert se.t_interval(0.95, a, 0.95)[1] == 1.0  # capped at 1, as irrCAC
    assert np.isnan(se.t_interval(0.5, se.Analytic(float("nan"), 30, "x"), 0.95)[0])


def test_report_shows_analytic_and_bootstrap_side_by_side():
    from analytics import agreement as ag

    ann, frame = _ratings(7, n=60, r=3, missing=0.2)
    boot = ag.agreement_report(ann, n_boot=200, distance="interval").set_index("coefficient")
    fast = ag.agreement_report(ann, n_boot=0, distance="interval").set_index("coefficient")
    assert list(boot.columns) == ag.report.REPORT_COLUMNS[1:]
    # the analytic columns do not depend on the bootstrap
    analytic = fast["se_method"].str.contains("analytic")
    assert analytic.sum() == 8  # all but the three means over annotator pairs
    cols = ["se", "p_value", "analytic_low", "analytic_high"]
    pd.testing.assert_frame_equal(boot.loc[analytic, cols], fast.loc[analytic, cols])
    assert boot["ci_method"].str.contains("bootstrap").all()
    expected = {  # irrCAC on the same ratings (the interval alpha: quadratic weights)
        "Fleiss' kappa": _irrcac(frame, "identity", "fleiss"),
        "Conger's kappa": _irrcac(frame, "identity", "conger"),
        "Brennan-Prediger": _irrcac(frame, "identity", "bp"),
        "Gwet's AC1": _irrcac(frame, "identity", "gwet"),
        "Gwet's AC2 (quadratic weights)": _irrcac(frame, "quadratic", "gwet"),
        "Krippendorff's alpha (nominal)": _irrcac(frame, "identity", "krippendorff"),
        "Krippendorff's alpha (interval)": _irrcac(frame, "quadratic", "krippendorff"),
    }
    for name, want in expected.items():
        assert fast.loc[name, "se"] == pytest.approx(want, abs=1e-9), name
        assert "analytic" in fast.loc[name, "se_method"]
        assert fast.loc[name, "ci_low"] == fast.loc[name, "analytic_low"]
    # no formula for means over pairs: bootstrap SD, no p-value, and the reason
    light = "Cohen's kappa (Light's mean over pairs)"
    assert boot.loc[light, "se_method"].startswith("bootstrap SD")
    assert np.isnan(boot.loc[light, "p_value"]) and np.isnan(fast.loc[light, "ci_low"])
    assert "no variance formula" in fast.loc[light, "ci_method"]


def test_report_finite_population_correction_and_its_check():
    from analytics import AnnotationDataError
    from analytics import agreement as ag

    ann, frame = _ratings(8, n=50, r=3)
    report = ag.agreement_report(ann, n_boot=0, population=200).set_index("coefficient")
    want = _irrcac(frame, "identity", "fleiss", population=200)
    assert report.loc["Fleiss' kappa", "se"] == pytest.approx(want, abs=1e-9)
    assert "N=200" in report.loc["Fleiss' kappa", "se_method"]
    with pytest.raises(AnnotationDataError, match="population"):
        ag.agreement_report(ann, n_boot=0, population=10)


def test_irrcac_readme_printed_standard_errors_and_p_values():
    # The R irrCAC README (github.com/kgwet/irrCAC, README.md), cac.raw4raters, unweighted:
    # coeff.se and p.value as printed (SE to 5 digits, p-values to 7 significant digits;
    # all two-sided t tests on 11 df; the Python port's bp prints a one-sided p instead)
    from analytics import agreement as ag
    from tests.helpers.builders import from_coders
    from tests.helpers.references import GWET_RAW4RATERS

    report = ag.agreement_report(from_coders(GWET_RAW4RATERS), n_boot=0)
    report = report.set_index("coefficient")
    printed = {
        "Gwet's AC1": (0.14295, 0.000208721),
        "Fleiss' kappa": (0.15302, 0.000419173),
        "Krippendorff's alpha (nominal)": (0.14557, 0.0004594257),
        "Conger's kappa": (0.14917, 0.0003367066),
        "Brennan-Prediger": (0.14472, 0.0002375609),
    }
    for name, (se_printed, p_printed) in printed.items():
        row = report.loc[name]
        assert row["se"] == pytest.approx(se_printed, abs=5e-6), name
        # the README's p-values come from its rounded coefficients (e.g. 0.77544), ours
        # from the full-precision ones: they agree to 1e-4 relative
        assert row["p_value"] == pytest.approx(p_printed, rel=1e-4), name
    # the upper ends are capped at 1, as printed: (0.461,1), (0.424,1), (0.419,1), ...
    assert (report.loc[list(printed), "analytic_high"] == 1.0).all()
    assert round(report.loc["Gwet's AC1", "analytic_low"], 3) == 0.461


def test_irrcac_readme_two_rater_table():
    # The R irrCAC README, cont3x3abstractors (2 abstractors x 100 cases): kappa2.table
    # coeff.se 0.05891072, CI (0.68, 0.913); scott2.table 0.05905473, CI (0.679, 0.913)
    from analytics import agreement as ag
    from tests.helpers.builders import from_table

    table = [[13, 0, 0], [0, 20, 7], [0, 4, 56]]
    report = ag.agreement_report(from_table(table), n_boot=0).set_index("coefficient")
    cohen, scott = report.loc["Cohen's kappa"], report.loc["Scott's pi"]
    assert round(cohen["value"], 7) == 0.7964094
    assert cohen["se"] == pytest.approx(0.05891072, abs=5e-9)
    assert (round(cohen["ci_low"], 3), round(cohen["ci_high"], 3)) == (0.68, 0.913)
    assert round(scott["value"], 7) == 0.7962397
    assert scott["se"] == pytest.approx(0.05905473, abs=5e-9)
    assert (round(scott["ci_low"], 3), round(scott["ci_high"], 3)) == (0.679, 0.913)


# ---------------------------------------------------------------------- properties


@st.composite
def _coder_rows(draw):
    n_coders, n_items, q = (
        draw(st.integers(2, 4)),
        draw(st.integers(3, 12)),
        draw(st.integers(2, 4)),
    )
    cell = st.one_of(st.none(), st.integers(0, q - 1))
    return [draw(st.lists(cell, min_size=n_items, max_size=n_items)) for _ in range(n_coders)]


def _analytic_columns(df: pd.DataFrame) -> pd.DataFrame:
    from analytics import agreement as ag

    report = ag.agreement_report(df, n_boot=0).set_index("coefficient")
    return report[["se", "p_value", "analytic_low", "analytic_high"]]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_coder_rows(), st.randoms(use_true_random=False))
def test_standard_errors_ignore_label_names_and_annotator_order(rows, rnd):
    records = [
        (f"u{u}", f"c{c}", f"k{v}")
        for c, row in enumerate(rows)
        for u, v in enumerate(row)
        if v is not None
    ]
    df = pd.DataFrame(records, columns=["item", "annotator", "label"])
    if df.empty:
        return
    base = _analytic_columns(df)
    names = sorted(df["label"].unique())
    renamed = dict(zip(names, rnd.sample(names, len(names)), strict=True))
    shuffled = df.assign(label=df["label"].map(renamed)).sample(frac=1.0, random_state=1)
    annotators = sorted(df["annotator"].unique())
    order = dict(zip(annotators, rnd.sample(annotators, len(annotators)), strict=True))
    shuffled = shuffled.assign(annotator=shuffled["annotator"].map(order))
    other = _analytic_columns(shuffled)
    pd.testing.assert_frame_equal(base, other, atol=1e-9, rtol=0)
    ses = base["se"].dropna()
    assert (ses >= 0).all()
    p = base["p_value"].dropna()
    assert ((p >= 0) & (p <= 1)).all()


def test_perfect_agreement_has_zero_standard_error_in_any_order():
    """Found by hypothesis: rounding left SE 1.2e-8 (p = 5e-39) for Cohen and Scott."""
    rows = [[2, 2, 1, 1, None, None, 0, 1], [2, 2, 1, 1, None, None, 0, 1]]
    records = [
        (f"u{u}", f"c{c}", f"k{v}")
        for c, row in enumerate(rows)
        for u, v in enumerate(row)
        if v is not None
    ]
    df = pd.DataFrame(records, columns=["item", "annotator", "label"])
    for frame in (df, df.iloc[::-1]):
        report = _analytic_columns(frame)
        assert (report["se"].dropna() == 0).all()
        assert report["p_value"].isna().all()  # no test against a zero SE


def test_percent_agreement_has_an_interval_but_no_p_value():
    # its 0 is total disagreement, not chance: a t test of 0 rejected at p = 1e-120
    from analytics.agreement import agreement_report
    from analytics.data import load_sample

    report = agreement_report(load_sample(), n_boot=0).set_index("coefficient")
    row = report.loc["Percent agreement"]
    assert np.isfinite(row["se"]) and np.isfinite(row["analytic_low"])
    assert np.isnan(row["p_value"])
    assert np.isfinite(report.loc["Fleiss' kappa", "p_value"])


def test_a_standard_error_within_rounding_of_zero_gives_no_p_value():
    import pandas as pd

    from analytics import load_annotations
    from analytics.agreement import agreement_report

    # three items, two annotators who never agree: every analytic SE is 0 up to rounding
    df = pd.DataFrame(
        {
            "item": ["i1", "i1", "i2", "i2", "i3", "i3"],
            "annotator": ["a", "b"] * 3,
            "label": ["x", "y", "y", "x", "x", "y"],
        }
    )
    report = agreement_report(load_annotations(df), n_boot=0)
    small = report["se"].abs() < 1e-12
    assert small.any()
    assert report.loc[small, "p_value"].isna().all()
