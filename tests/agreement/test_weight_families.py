"""``weights=`` everywhere: irrCAC's eight weight families on every weighted coefficient.

Reference values: the installed ``irrCAC`` Python package (0.4.4, Gwet's formulas ported
from the R package) on random data with missing judgements, and the figures its
documentation prints (module docstring of ``irrCAC/raw.py``: ``CAC(raw_4raters(),
weights="bipolar").gwet()`` -> AC2 0.90037, pa 0.96836, pe 0.68244, and the bipolar weight
matrix of categories 1-5).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import analytics.agreement as ag
from analytics import AnnotationDataError, load_annotations
from analytics.agreement.weights import weight_matrix
from tests.helpers.builders import from_coders, random_coders
from tests.helpers.references import GWET_RAW4RATERS

TOL = 1e-9
FAMILIES = [f for f in ag.WEIGHT_FAMILIES if f != "identity"]


@pytest.fixture(scope="module")
def irrcac():
    return pytest.importorskip("irrCAC")


def test_bipolar_ac2_matches_irrcac_documentation():
    ann = from_coders(GWET_RAW4RATERS)
    # irrCAC 0.4.4, irrCAC/raw.py module docstring: AC2 (bipolar) 0.90037
    assert round(ag.gwet_ac1(ann, weights="bipolar"), 5) == 0.90037
    w, label = weight_matrix(ann, "bipolar")
    # the same docstring prints the bipolar weights of categories 1-5 (first two rows)
    np.testing.assert_allclose(w[0], [1.0, 0.85714286, 0.66666667, 0.4, 0.0], atol=1e-8)
    np.testing.assert_allclose(w[1], [0.85714286, 1.0, 0.93333333, 0.75, 0.4], atol=1e-8)
    assert label == "bipolar weights"


@pytest.mark.parametrize("family", ag.WEIGHT_FAMILIES)
def test_weight_matrices_are_irrcacs(irrcac, family):
    from irrCAC.weights import Weights

    values = [1, 2, 4, 7, 8]  # uneven values: value-based and rank-based families differ
    df = pd.DataFrame({"item": range(5), "annotator": "a", "label": values})
    ours, _ = weight_matrix(load_annotations(df), family)
    np.testing.assert_allclose(ours, Weights([float(v) for v in values])[family], atol=1e-12)
    # text categories declared in order are ranks 1..q, as irrCAC numbers text categories
    text = load_annotations(df.assign(label=df["label"].astype(str)), categories=list("12478"))
    np.testing.assert_allclose(
        weight_matrix(text, family)[0], Weights(list("12478"))[family], atol=1e-12
    )


@pytest.mark.parametrize("missing", [0.0, 0.25])
@pytest.mark.parametrize("family", ag.WEIGHT_FAMILIES)
def test_multi_annotator_coefficients_match_irrcac(irrcac, family, missing):
    from irrCAC.raw import CAC

    rng = np.random.default_rng(7)
    rows = random_coders(rng, 40, 4, 5, missing=missing, values=[1, 2, 3, 5, 6])
    ann = from_coders(rows, categories=[1, 2, 3, 5, 6])
    frame = pd.DataFrame(rows, dtype=float).T
    cac = CAC(frame, weights=family, categories=[1.0, 2.0, 3.0, 5.0, 6.0], digits=15)
    pairs = [
        (ag.gwet_ac1, cac.gwet),
        (ag.fleiss_kappa, cac.fleiss),
        (ag.conger_kappa, cac.conger),
        (ag.brennan_prediger, cac.bp),
    ]
    for ours, theirs in pairs:
        assert ours(ann, weights=family) == pytest.approx(
            theirs()["est"]["coefficient_value"], abs=TOL
        ), ours.__name__
    alpha = ag.krippendorff_alpha(ann, weights=family)
    assert alpha == pytest.approx(cac.krippendorff()["est"]["coefficient_value"], abs=TOL)


@pytest.mark.parametrize("family", ag.WEIGHT_FAMILIES)
def test_two_annotator_coefficients_match_irrcac_tables(irrcac, family):
    from irrCAC.table import CAC

    rng = np.random.default_rng(3)
    rows = random_coders(rng, 60, 2, 4, values=[1, 2, 3, 4])
    ann = from_coders(rows, categories=[1, 2, 3, 4])
    table = pd.crosstab(
        pd.Categorical(rows[0], categories=[1, 2, 3, 4]),
        pd.Categorical(rows[1], categories=[1, 2, 3, 4]),
        dropna=False,
    )
    cac = CAC(table, weights=family, digits=15)
    kappa = ag.cohen_kappa(ann, "c0", "c1", weights=family)
    assert kappa == pytest.approx(cac.cohen()["est"]["coefficient_value"], abs=TOL)
    pi = ag.scott_pi(ann, "c0", "c1", weights=family)
    assert pi == pytest.approx(cac.scott()["est"]["coefficient_value"], abs=TOL)
    if family != "identity":
        assert kappa.note == f"{family} weights"


def test_a_custom_matrix_means_the_same_everywhere():
    ann = from_coders(GWET_RAW4RATERS)
    quad, _ = weight_matrix(ann, "quadratic")
    for fn in (ag.gwet_ac1, ag.fleiss_kappa, ag.conger_kappa, ag.brennan_prediger):
        assert fn(ann, weights=quad) == pytest.approx(fn(ann, weights="quadratic"), abs=1e-12)
    assert ag.krippendorff_alpha(ann, weights=quad) == pytest.approx(
        ag.krippendorff_alpha(ann, weights="quadratic"), abs=1e-12
    )
    assert ag.cohen_kappa(ann, "c0", "c1", weights=quad) == pytest.approx(
        ag.cohen_kappa(ann, "c0", "c1", weights="quadratic"), abs=1e-12
    )


def test_quadratic_weighted_alpha_is_interval_alpha():
    ann = from_coders(GWET_RAW4RATERS)
    assert ag.krippendorff_alpha(ann, weights="quadratic") == pytest.approx(
        ag.krippendorff_alpha(ann, "interval"), abs=1e-12
    )
    assert ag.krippendorff_alpha(ann, weights="identity") == pytest.approx(
        ag.krippendorff_alpha(ann), abs=1e-12
    )


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_refuses_text_without_an_order(family):
    df = pd.DataFrame({"item": [1, 1, 2, 2], "annotator": ["a", "b"] * 2, "label": list("xyyx")})
    for fn in (ag.gwet_ac1, ag.fleiss_kappa, ag.conger_kappa, ag.brennan_prediger):
        with pytest.raises(AnnotationDataError, match="need an order"):
            fn(df, weights=family)
    with pytest.raises(AnnotationDataError, match="need an order"):
        ag.krippendorff_alpha(df, weights=family)


def test_ratio_weights_need_a_positive_scale_and_unknown_names_are_refused():
    df = pd.DataFrame({"item": [1, 1, 2, 2], "annotator": ["a", "b"] * 2, "label": [0, 1, 2, 0]})
    with pytest.raises(AnnotationDataError, match="positive scale"):
        ag.fleiss_kappa(df, weights="ratio")
    with pytest.raises(AnnotationDataError, match="unknown weights 'cubic'"):
        ag.fleiss_kappa(df, weights="cubic")
    with pytest.raises(AnnotationDataError, match="not both"):
        ag.krippendorff_alpha(df, "interval", weights="linear")


@pytest.mark.parametrize("family", FAMILIES)
def test_weights_lie_in_zero_one_and_are_symmetric(family):
    df = pd.DataFrame({"item": range(6), "annotator": "a", "label": [2, 3, 5, 9, 10, 20]})
    w, _ = weight_matrix(load_annotations(df), family)
    assert np.allclose(np.diag(w), 1.0) and np.allclose(w, w.T)
    assert (w >= -1e-12).all() and (w <= 1 + 1e-12).all()


WEIGHTED = [
    ag.fleiss_kappa,
    ag.conger_kappa,
    ag.brennan_prediger,
    ag.gwet_ac1,
    lambda ann, weights: ag.krippendorff_alpha(ann, weights=weights),
    lambda ann, weights: ag.cohen_kappa(ann, weights=weights),
    lambda ann, weights: ag.scott_pi(ann, weights=weights),
]


@st.composite
def scored(draw):
    n_coders, n_items = draw(st.integers(2, 4)), draw(st.integers(4, 12))
    cell = st.one_of(st.none(), st.sampled_from([1, 2, 4, 5]))
    return [draw(st.lists(cell, min_size=n_items, max_size=n_items)) for _ in range(n_coders)]


def _long(rows):
    recs = [
        (f"u{u}", f"c{c}", v)
        for c, row in enumerate(rows)
        for u, v in enumerate(row)
        if v is not None
    ]
    return pd.DataFrame(recs, columns=["item", "annotator", "label"])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scored(), st.sampled_from(FAMILIES), st.randoms(use_true_random=False))
def test_weighted_coefficients_ignore_annotator_and_item_order(rows, family, rnd):
    df = _long(rows)
    if df.empty:
        return
    cats = [1, 2, 4, 5]
    ann = load_annotations(df, categories=cats)
    shuffled = df.sample(frac=1.0, random_state=rnd.randint(0, 10**6))
    renamed = shuffled.assign(annotator="z" + shuffled["annotator"], item="i" + shuffled["item"])
    other = load_annotations(renamed, categories=cats)
    for fn in WEIGHTED:
        a, b = float(fn(ann, weights=family)), float(fn(other, weights=family))
        assert (np.isnan(a) and np.isnan(b)) or abs(a - b) < 1e-9
        assert np.isnan(a) or a <= 1 + 1e-12  # perfect agreement is the most there is


# ---------------------------------------------------------------- the report's weights=
@pytest.mark.parametrize("family", ["linear", "ordinal", "radical", "bipolar"])
def test_report_weights_mean_what_they_mean_for_each_coefficient(family):
    """agreement_report(weights=...) shows the weighted rows with those weights."""
    from analytics.agreement import agreement_report, cohen_kappa, gwet_ac1

    rng = np.random.default_rng(3)
    df = pd.DataFrame(
        {
            "item": np.repeat(np.arange(40), 3),
            "annotator": np.tile(["a", "b", "c"], 40),
            "label": rng.integers(1, 6, 120),
        }
    )
    ann = load_annotations(df, kind="ordinal")
    report = agreement_report(ann, n_boot=0, weights=family).set_index("coefficient")
    ac2 = report.loc[f"Gwet's AC2 ({family} weights)"]
    assert ac2["value"] == pytest.approx(float(gwet_ac1(ann, weights=family)), abs=1e-12)
    assert np.isfinite(ac2["se"]) and "Gwet 2014" in ac2["se_method"]
    kappa = report.loc[f"Cohen's kappa ({family} weights)", "value"]
    assert kappa == pytest.approx(float(cohen_kappa(ann, weights=family)), abs=1e-12)
    assert "Gwet's AC2 (quadratic weights)" not in report.index


def test_report_weights_on_unordered_text_say_they_need_an_order():
    from analytics.agreement import agreement_report

    df = pd.DataFrame(
        {"item": [1, 1, 2, 2, 3, 3], "annotator": ["a", "b"] * 3, "label": list("xyxxyy")}
    )
    report = agreement_report(df, n_boot=0, weights="linear").set_index("coefficient")
    assert np.isnan(report.loc["Gwet's AC2 (linear weights)", "value"])
    assert "order" in report.loc["Gwet's AC2 (linear weights)", "note"]
    plain = agreement_report(df, n_boot=0)  # nominal labels: no weighted rows by default
    assert not plain["coefficient"].str.contains("weights").any()


def test_quadratic_weights_on_huge_values_do_not_overflow():
    import pandas as pd

    from analytics import load_annotations
    from analytics.agreement import fleiss_kappa

    df = pd.DataFrame(
        {
            "item": ["i0", "i0", "i1", "i1"],
            "annotator": ["a", "b"] * 2,
            "label": [1e300, 2.5, 1e300, 1e300],
        }
    )
    small = df.assign(label=df["label"].replace({1e300: 1e3}))
    kappa = fleiss_kappa(load_annotations(df, kind="numeric"), weights="quadratic")
    assert np.isfinite(kappa) or kappa.reason
    # the scale of the values does not change quadratic weights' shape much: same sign
    other = fleiss_kappa(load_annotations(small, kind="numeric"), weights="quadratic")
    assert np.sign(float(kappa)) == np.sign(float(other))
