"""Agreement coefficients: published worked examples and independent implementations."""

from __future__ import annotations

import itertools
import math

import krippendorff
import numpy as np
import pandas as pd
import pytest
from nltk.metrics import agreement as nltk_agreement
from nltk.metrics import distance as nltk_distance
from statsmodels.stats import inter_rater

from analytics import Annotations
from analytics import agreement as ag
from analytics.agreement.coincidence import resolve_distance
from analytics.agreement.krippendorff import alpha_statistic
from analytics.agreement.prepared import prepare
from analytics.agreement.report import gwet_standard_error
from tests.helpers.builders import from_coders, from_items, from_table, random_coders
from tests.helpers.references import COHEN_1960, FLEISS_1971, GWET_RAW4RATERS, KRIPPENDORFF_2011

TOL = 1e-9


# ---------------------------------------------------------------------- published values
@pytest.mark.parametrize(
    ("distance", "published"),
    [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849), ("ratio", 0.797)],
)
def test_krippendorff_2011_reliability_data(distance, published):
    ann = from_coders(KRIPPENDORFF_2011, kind="numeric")
    value = ag.krippendorff_alpha(ann, distance)
    assert round(value, 3) == published
    assert value.items_used == 11  # unit 12 has a single value and is not pairable


def test_fleiss_1971_overall_and_per_category():
    ann = from_items(FLEISS_1971)
    assert round(ag.fleiss_kappa(ann), 3) == 0.430
    table = ag.per_category(ann, n_boot=0)
    assert table["fleiss_kappa"].round(3).tolist() == [0.245, 0.245, 0.520, 0.471, 0.566]
    assert table["judgements"].tolist() == [26, 26, 30, 55, 43]


def test_cohen_1960_table_1():
    # p_o = .70, p_c = .41, kappa = .29 / .59 = .492 (Cohen 1960, p. 40)
    ann = from_table(COHEN_1960)
    value = ag.cohen_kappa(ann, "A", "B")
    assert value == pytest.approx((0.70 - 0.41) / 0.59, abs=1e-12)
    assert round(value, 3) == 0.492
    assert value.items_used == 200
    assert ag.percent_agreement(ann) == pytest.approx(0.70, abs=1e-12)


def test_gwet_irrcac_raw4raters_printed_values():
    # irrCAC documentation (Gwet): cac.raw4raters, unweighted
    ann = from_coders(GWET_RAW4RATERS)
    assert round(ag.gwet_ac1(ann), 5) == 0.77544
    assert round(ag.fleiss_kappa(ann), 5) == 0.76117
    assert round(ag.conger_kappa(ann), 5) == 0.76282
    assert round(ag.brennan_prediger(ann), 5) == 0.77273
    # irrCAC's p_a (0.81818) is the mean of per-item agreement; ours pools the pairs of
    # judgements (items with more judgements weigh more), so the two differ with gaps
    assert round(ag.item_agreement(ann)["agreement"].mean(), 5) == 0.81818
    assert round(ag.percent_agreement(ann), 5) == 0.78182
    report = ag.agreement_report(ann, n_boot=0).set_index("coefficient")
    # standard errors as printed by irrCAC: AC1 0.14295, Fleiss 0.15302, BP 0.14472
    for name, se in [
        ("Gwet's AC1", 0.14295),
        ("Fleiss' kappa", 0.15302),
        ("Brennan-Prediger", 0.14472),
    ]:
        row = report.loc[name]
        half = row["value"] - row["ci_low"]
        from scipy import stats

        assert half / stats.t.ppf(0.975, 11) == pytest.approx(se, abs=5e-6)
        assert "Gwet 2014" in row["ci_method"]


def test_passonneau_carpenter_kappa_paradox():
    # Two annotators agreeing on 90% of items, each using the majority category 95% of the
    # time: kappa = (0.9 - (.95^2 + .05^2)) / (1 - (.95^2 + .05^2)) = -0.0526 (printed -.053).
    ann = from_table([[900, 50], [50, 0]], labels=["yes", "no"])
    kappa = ag.cohen_kappa(ann, "A", "B")
    assert round(kappa, 3) == -0.053
    assert kappa == pytest.approx((0.9 - 0.905) / (1 - 0.905), abs=1e-12)
    # AC1 on the same table stays high: (0.9 - 2 * .95 * .05) / (1 - 2 * .95 * .05)
    assert ag.gwet_ac1(ann) == pytest.approx((0.9 - 0.095) / (1 - 0.095), abs=1e-12)


def test_passonneau_carpenter_independent_annotators_differ_from_the_printed_shortcut():
    # The paper's formula takes 0.9 as the observed agreement; two *independent* 90%-accurate
    # annotators agree on 0.9^2 + 0.1^2 = 82% and each says "yes" 86% of the time, so their
    # expected kappa is (0.82 - 0.7592) / (1 - 0.7592) = 0.2525, not -0.053. Built exactly:
    # per 10,000 items: 9500 'yes' items (7695 both right, 855 + 855 one wrong, 95 both
    # wrong) and 500 'no' items (405 both right, 45 + 45 one wrong, 5 both wrong).
    table = [[7695 + 5, 855 + 45], [855 + 45, 95 + 405]]
    ann = from_table(table, labels=["yes", "no"])
    assert ag.percent_agreement(ann) == pytest.approx(0.82, abs=1e-12)
    assert ag.cohen_kappa(ann, "A", "B") == pytest.approx((0.82 - 0.7592) / (1 - 0.7592), abs=1e-12)


# ---------------------------------------------------------------------- oracles
def _reliability(rows) -> np.ndarray:
    return np.array([[np.nan if v is None else v for v in row] for row in rows], float)


@pytest.mark.parametrize("missing", [0.0, 0.25])
@pytest.mark.parametrize("distance", ["nominal", "ordinal", "interval", "ratio"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_alpha_matches_krippendorff_package(missing, distance, seed):
    rng = np.random.default_rng(seed)
    values = [1, 2, 4, 7, 11, 30]
    rows = random_coders(rng, 60, 4, len(values), missing=missing, values=values)
    ann = from_coders(rows, kind="numeric")
    expected = krippendorff.alpha(_reliability(rows), level_of_measurement=distance)
    assert ag.krippendorff_alpha(ann, distance) == pytest.approx(expected, abs=TOL)


@pytest.mark.parametrize("missing", [0.0, 0.3])
@pytest.mark.parametrize(
    ("distance", "nltk_distance"),
    [("nominal", nltk_distance.binary_distance), ("interval", nltk_distance.interval_distance)],
)
def test_alpha_matches_nltk(missing, distance, nltk_distance):
    rng = np.random.default_rng(7)
    rows = random_coders(rng, 50, 5, 4, missing=missing)
    ann = from_coders(rows, kind="numeric")
    data = [
        (f"c{c}", f"u{u}", v)
        for c, row in enumerate(rows)
        for u, v in enumerate(row)
        if v is not None
    ]
    task = nltk_agreement.AnnotationTask(data=data, distance=nltk_distance)
    assert ag.krippendorff_alpha(ann, distance) == pytest.approx(task.alpha(), abs=TOL)


def test_alpha_callable_matches_named_distance_and_nltk():
    rng = np.random.default_rng(11)
    rows = random_coders(rng, 40, 3, 5, missing=0.2)
    ann = from_coders(rows, kind="numeric")
    custom = ag.krippendorff_alpha(ann, lambda x, y: (x - y) ** 2)
    assert custom == pytest.approx(ag.krippendorff_alpha(ann, "interval"), abs=TOL)


@pytest.mark.parametrize("sep_distance", ["masi", "jaccard"])
def test_set_alpha_matches_nltk(sep_distance):
    rng = np.random.default_rng(5)
    cats = ["a", "b", "c", "d"]
    recs = []
    for u in range(40):
        base = frozenset(c for c in cats if rng.random() < 0.4)
        for c in range(4):
            if rng.random() < 0.15:
                continue
            s = set(base)
            if rng.random() < 0.4:
                s ^= {cats[rng.integers(0, 4)]}
            recs.append((f"u{u}", f"c{c}", frozenset(s)))
    df = pd.DataFrame(recs, columns=["item", "annotator", "label"])
    ann = Annotations.from_frame(df, kind="multilabel", categories=cats)
    fn = {"masi": nltk_distance.masi_distance, "jaccard": nltk_distance.jaccard_distance}[
        sep_distance
    ]

    def safe(a, b):  # NLTK divides by zero for two empty sets; ours gives 0 there
        return 0.0 if not a and not b else fn(a, b)

    task = nltk_agreement.AnnotationTask(data=[(a, i, s) for i, a, s in recs], distance=safe)
    assert ag.krippendorff_alpha(ann, sep_distance) == pytest.approx(task.alpha(), abs=TOL)
    # a callable on two frozensets gives the same value
    assert ag.krippendorff_alpha(ann, safe) == pytest.approx(task.alpha(), abs=TOL)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_complete_data_match_nltk_and_statsmodels(seed):
    rng = np.random.default_rng(seed)
    rows = random_coders(rng, 80, 4, 3)
    ann = from_coders(rows)
    data = [(f"c{c}", f"u{u}", v) for c, row in enumerate(rows) for u, v in enumerate(row)]
    task = nltk_agreement.AnnotationTask(data=data)
    assert ag.percent_agreement(ann) == pytest.approx(task.avg_Ao(), abs=TOL)
    assert ag.cohen_kappa(ann) == pytest.approx(task.kappa(), abs=TOL)  # Light's mean
    assert ag.fleiss_kappa(ann) == pytest.approx(task.pi(), abs=TOL)
    assert ag.brennan_prediger(ann) == pytest.approx(task.S(), abs=TOL)
    table, _ = inter_rater.aggregate_raters(np.array(rows).T)
    assert ag.fleiss_kappa(ann) == pytest.approx(inter_rater.fleiss_kappa(table), abs=TOL)
    assert ag.brennan_prediger(ann) == pytest.approx(
        inter_rater.fleiss_kappa(table, "randolph"), abs=TOL
    )
    for a, b in itertools.combinations(range(4), 2):
        pair = inter_rater.to_table(np.array([rows[a], rows[b]]).T, bins=np.arange(4) - 0.5)[0]
        assert ag.cohen_kappa(ann, f"c{a}", f"c{b}") == pytest.approx(
            inter_rater.cohens_kappa(pair, return_results=False), abs=TOL
        )
        assert ag.scott_pi(ann, f"c{a}", f"c{b}") == pytest.approx(
            nltk_agreement.AnnotationTask(
                data=[d for d in data if d[0] in (f"c{a}", f"c{b}")]
            ).pi(),
            abs=TOL,
        )


@pytest.mark.parametrize(("weights", "wt"), [("linear", "linear"), ("quadratic", "quadratic")])
def test_weighted_cohen_matches_statsmodels(weights, wt):
    rng = np.random.default_rng(3)
    rows = random_coders(rng, 100, 2, 5)
    ann = from_coders(rows, kind="ordinal", categories=[0, 1, 2, 3, 4])
    table = inter_rater.to_table(np.array(rows).T, bins=np.arange(6) - 0.5)[0]
    expected = inter_rater.cohens_kappa(table, wt=wt, return_results=False)
    assert ag.cohen_kappa(ann, "c0", "c1", weights=weights) == pytest.approx(expected, abs=TOL)
    # a matrix of agreement weights gives the same
    x = np.arange(5)
    w = (
        1 - np.abs(x[:, None] - x[None, :]) / 4
        if weights == "linear"
        else 1 - ((x[:, None] - x) / 4) ** 2
    )
    assert ag.cohen_kappa(ann, "c0", "c1", weights=w) == pytest.approx(expected, abs=TOL)


def test_cohen_analytic_se_matches_statsmodels():
    ann = from_table(COHEN_1960)
    res = inter_rater.cohens_kappa(np.asarray(COHEN_1960, float))
    report = ag.agreement_report(ann, n_boot=0).set_index("coefficient")
    row = report.loc["Cohen's kappa"]
    from scipy import stats

    se = (row["value"] - row["ci_low"]) / stats.t.ppf(0.975, 199)
    assert se == pytest.approx(res.std_kappa, abs=TOL)


@pytest.fixture(scope="module")
def irrcac():
    return pytest.importorskip("irrCAC.raw")


@pytest.mark.parametrize("missing", [0.0, 0.3])
@pytest.mark.parametrize("seed", [0, 1])
def test_missing_data_coefficients_match_irrcac(irrcac, missing, seed):
    rng = np.random.default_rng(seed)
    rows = random_coders(rng, 70, 5, 4, missing=missing)
    ann = from_coders(rows, categories=[0, 1, 2, 3])
    frame = pd.DataFrame(
        {f"c{c}": [np.nan if v is None else float(v) for v in row] for c, row in enumerate(rows)}
    ).dropna(how="all")
    cac = irrcac.CAC(frame, categories=[0.0, 1.0, 2.0, 3.0], digits=15)
    assert ag.gwet_ac1(ann) == pytest.approx(cac.gwet()["est"]["coefficient_value"], abs=TOL)
    assert ag.fleiss_kappa(ann) == pytest.approx(cac.fleiss()["est"]["coefficient_value"], abs=TOL)
    assert ag.conger_kappa(ann) == pytest.approx(cac.conger()["est"]["coefficient_value"], abs=TOL)
    assert ag.brennan_prediger(ann) == pytest.approx(cac.bp()["est"]["coefficient_value"], abs=TOL)
    quad = irrcac.CAC(frame, weights="quadratic", categories=[0.0, 1.0, 2.0, 3.0], digits=15)
    assert ag.gwet_ac1(ann, weights="quadratic") == pytest.approx(
        quad.gwet()["est"]["coefficient_value"], abs=TOL
    )
    se = gwet_standard_error(prepare(ann), np.eye(4), "gwet_ac1")
    assert se == pytest.approx(cac.gwet()["est"]["se"], abs=TOL)


def test_plain_loop_reference_for_alpha_and_percent_agreement():
    """A slow, obvious implementation of the definitions, on data with repeats and gaps."""
    rng = np.random.default_rng(9)
    rows = random_coders(rng, 30, 4, 3, missing=0.35)
    ann = from_coders(rows)
    units = {}
    for row in rows:
        for u, v in enumerate(row):
            if v is not None:
                units.setdefault(u, []).append(v)
    o = {}
    agree = pairs = 0
    for vals in units.values():
        m = len(vals)
        if m < 2:
            continue
        for i, j in itertools.permutations(range(m), 2):
            o[(vals[i], vals[j])] = o.get((vals[i], vals[j]), 0) + 1 / (m - 1)
            agree += vals[i] == vals[j]
            pairs += 1
    n_c = {}
    for (c, _), w in o.items():
        n_c[c] = n_c.get(c, 0) + w
    n = sum(n_c.values())
    do = sum(w for (c, k), w in o.items() if c != k) / n
    de = sum(n_c[c] * n_c[k] for c in n_c for k in n_c if c != k) / (n * (n - 1))
    assert ag.krippendorff_alpha(ann) == pytest.approx(1 - do / de, abs=TOL)
    assert ag.percent_agreement(ann) == pytest.approx(agree / pairs, abs=TOL)


def test_bootstrap_statistic_equals_point_estimate():
    rng = np.random.default_rng(4)
    rows = random_coders(rng, 50, 4, 5, missing=0.2)
    ann = from_coders(rows, kind="numeric")
    for d in ["nominal", "ordinal", "interval", "ratio", lambda a, b: abs(a - b)]:
        assert alpha_statistic(ann, resolve_distance(d, ann.kind)).value() == pytest.approx(
            ag.krippendorff_alpha(ann, d), abs=TOL
        )


def test_many_distinct_values_stay_sparse():
    rng = np.random.default_rng(0)
    n_items, n_values = 3000, 200
    truth = rng.integers(0, n_values, n_items)
    rows = [
        np.where(rng.random(n_items) < 0.8, truth, rng.integers(0, n_values, n_items)).tolist()
        for _ in range(3)
    ]
    ann = from_coders(rows, kind="numeric")
    expected = krippendorff.alpha(np.array(rows, float), level_of_measurement="interval")
    assert ag.krippendorff_alpha(ann, "interval") == pytest.approx(expected, abs=TOL)
    assert not math.isnan(ag.krippendorff_alpha(ann, "ordinal"))
