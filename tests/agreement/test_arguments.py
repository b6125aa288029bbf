"""Argument checks of the agreement functions, and per_category on multi-label data.

Bad ``confidence``, ``n_boot`` or ``seed`` raise :class:`AnnotationDataError` naming the
argument (through :mod:`analytics._core.validation`), never a numpy error or a silent
interval of the wrong width.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError, Annotations
from analytics import agreement as ag
from analytics._core.errors import ArgumentTypeError
from analytics.agreement.chance import chance_agreement
from analytics.agreement.paradox import kappa_paradox
from tests.helpers.builders import from_array, from_coders, random_data
from tests.helpers.references import KRIPPENDORFF_2011

ANN = from_coders(KRIPPENDORFF_2011, kind="numeric")
BAD = [
    ({"confidence": 1.5}, "confidence"),
    ({"confidence": 0}, "confidence"),
    ({"confidence": float("nan")}, "confidence"),
    ({"confidence": "95%"}, "confidence"),
    ({"n_boot": -1}, "n_boot"),
    ({"n_boot": 2.5}, "n_boot"),
    ({"n_boot": "100"}, "n_boot"),
    ({"seed": -3}, "seed"),
    ({"seed": 1.5}, "seed"),
]


@pytest.mark.parametrize("function", [ag.per_category, ag.agreement_report])
@pytest.mark.parametrize(("kwargs", "name"), BAD)
def test_bad_interval_arguments_name_the_argument(function, kwargs, name):
    with pytest.raises(AnnotationDataError, match=name):
        function(ANN, **kwargs)


def test_reading_checks_its_confidence():
    with pytest.raises(AnnotationDataError, match="confidence"):
        ag.reading("Fleiss' kappa", 0.5, 0.4, 0.6, confidence=95)


def test_good_arguments_still_pass():
    table = ag.per_category(ANN, confidence=0.9, n_boot=20, seed=None)
    assert (table["kappa_low"] <= table["kappa_high"]).all()
    report = ag.agreement_report(ANN, confidence=np.float64(0.8), n_boot=20.0, seed=3)
    assert report["ci_low"].notna().any()


def _sets(rows) -> Annotations:
    df = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    return Annotations.from_frame(df, kind="multilabel", categories=["a", "b", "c"])


# items x annotators x categories (a, b, c): item 1 {a} vs {b}, item 2 {a, c} vs {b},
# item 3 {a} vs {a, b}
CROSSED = np.array(
    [[[1, 0, 0], [0, 1, 0]], [[1, 0, 1], [0, 1, 0]], [[1, 0, 0], [1, 1, 0]]], dtype=bool
)


def test_per_category_multilabel_worked_example():
    # category a: (y, m) = (1,2), (1,2), (2,2): P_i = 0, 0, 1 -> P = 1/3; pi = 4/6;
    # P_e = 5/9; kappa = (1/3 - 5/9) / (4/9) = -1/2; alpha = 1 - (4/6) / (16/30) = -1/4
    table = ag.per_category(from_array(CROSSED, categories=["a", "b", "c"]), n_boot=0)
    table = table.set_index("category")
    assert table.loc["a", "observed_agreement"] == pytest.approx(1 / 3)
    assert table.loc["a", "fleiss_kappa"] == pytest.approx(-0.5)
    assert table.loc["a", "alpha"] == pytest.approx(-0.25)
    assert table["items_used"].tolist() == [3, 3, 3]


def test_per_category_category_used_only_on_items_judged_once_is_undefined():
    """'nobody used' would be false: u0 used b on item 3, which nobody else judged."""
    rows = [
        ("1", "u0", {"a"}),
        ("1", "u1", {"a"}),
        ("2", "u0", {"c"}),
        ("2", "u1", set()),
        ("3", "u0", {"b"}),
    ]
    table = ag.per_category(_sets(rows), n_boot=20).set_index("category")
    note = table.loc["b", "note"]
    assert "judged by two or more annotators" in note
    assert not note.startswith("nobody used this category:")
    assert np.isnan(table.loc["b", "fleiss_kappa"]) and np.isnan(table.loc["b", "alpha"])
    nobody = _sets([("1", "u0", {"a"}), ("1", "u1", {"a"}), ("2", "u0", set()), ("2", "u1", {"a"})])
    out = ag.per_category(nobody, n_boot=0).set_index("category")
    assert np.isnan(out.loc["b", "fleiss_kappa"]) and out.loc["b", "note"].startswith("nobody")


@pytest.mark.parametrize("seed", range(3))
def test_per_category_multilabel_equals_the_formula_with_missing_judgements(seed):
    x, judged = random_data(seed, n_i=40, n_u=5, n_c=3, p=0.4, p_missing=0.3)
    table = ag.per_category(from_array(x, judged), n_boot=0)
    m_all = judged.sum(axis=1)
    for c in range(3):
        y_all = (x[:, :, c] & judged).sum(axis=1)
        keep = m_all >= 2
        m, y = m_all[keep], y_all[keep]
        agree = np.mean((y * (y - 1) + (m - y) * (m - y - 1)) / (m * (m - 1)))
        pi = np.mean(y_all[m_all > 0] / m_all[m_all > 0])
        p_e = pi**2 + (1 - pi) ** 2
        assert table["observed_agreement"].iloc[c] == pytest.approx(agree)
        assert table["fleiss_kappa"].iloc[c] == pytest.approx((agree - p_e) / (1 - p_e))


@pytest.mark.parametrize("categories", [None, ["x"], ["x", "y"]])
def test_per_category_of_empty_sets_never_raises(categories):
    df = pd.DataFrame(
        {"item": ["s1", "s1", "s2", "s2"], "annotator": ["a", "b", "a", "b"], "label": ["{}"] * 4}
    )
    ann = Annotations.from_frame(df, kind="multilabel", multilabel_sep=";", categories=categories)
    table = ag.per_category(ann, n_boot=20)
    assert len(table) == ann.n_categories
    assert table["fleiss_kappa"].isna().all() and table["alpha"].isna().all()
    assert all(len(note) > 0 for note in table["note"])


ANN = from_coders(KRIPPENDORFF_2011, kind="numeric")


@pytest.mark.parametrize("points", [1, 0, -5, 2.5, float("nan"), "100", None, True])
def test_kappa_paradox_checks_points(points):
    with pytest.raises(AnnotationDataError, match="points"):
        kappa_paradox(ANN, points=points)


def test_kappa_paradox_good_points_still_pass():
    assert len(kappa_paradox(ANN, points=2).prevalence) == 2
    assert len(kappa_paradox(ANN, points=5.0).prevalence) == 5


@pytest.mark.parametrize("coefficient", ["kappa", "", None, 3, "Cohen_Kappa"])
def test_pairwise_checks_coefficient(coefficient):
    with pytest.raises(AnnotationDataError, match="coefficient") as info:
        ag.pairwise(ANN, coefficient)
    assert "cohen_kappa" in str(info.value)  # the message lists the allowed ones


@pytest.mark.parametrize("coefficient", ["cohen_kappa", "fleiss", None, 1])
def test_chance_agreement_checks_coefficient(coefficient):
    with pytest.raises(AnnotationDataError, match="coefficient") as info:
        chance_agreement(coefficient, np.array([0.5, 0.5]))
    assert "fleiss_kappa" in str(info.value)


def test_chance_agreement_good_names_still_pass():
    shares = np.array([0.9, 0.1])
    values = [float(chance_agreement(c, shares)[0]) for c in ag.chance.FLEISS_FAMILY]
    assert values == pytest.approx([0.82, 0.18, 0.5])


def test_per_category_bars_draws_one_or_both_coefficients_and_checks_measure():
    table = ag.per_category(from_coders(KRIPPENDORFF_2011), n_boot=0)
    assert len(ag.per_category_bars(table, "alpha").data) == 1
    both = ag.per_category_bars(table, measure="both")
    assert [t.name for t in both.data] == ["Fleiss' kappa", "Krippendorff's alpha"]
    with pytest.raises(AnnotationDataError, match="measure"):
        ag.per_category_bars(table, measure="kappa")


# ---------------------------------------------------------------------- refused kinds and values
# (each of these reached the user as a bare ValueError, or was accepted and answered wrongly)
NOMINAL = from_coders(KRIPPENDORFF_2011)


def test_count_table_agreement_refuses_text_and_cells_that_are_not_numbers():
    with pytest.raises(ArgumentTypeError, match="expected a count table") as info:
        ag.count_table_agreement("abc")  # was numpy's "could not convert string to float"
    assert "pd.read_csv" in str(info.value)
    with pytest.raises(AnnotationDataError, match="a count table holds numbers"):
        ag.count_table_agreement([["a", "b"], ["c", "d"]])
    assert len(ag.count_table_agreement([[2, 0], [0, 2]])) == 8  # numbers still pass


def test_alpha_refuses_a_custom_distance_that_returns_no_number():
    with pytest.raises(AnnotationDataError, match=r"returned 'x' \(str\).*must be a number"):
        ag.krippendorff_alpha(NOMINAL, lambda a, b: "x")
    with pytest.raises(AnnotationDataError, match="returned None"):
        ag.krippendorff_alpha(NOMINAL, lambda a, b: None)
    with pytest.raises(ArgumentTypeError, match="distance as a name or a callable"):
        ag.krippendorff_alpha(NOMINAL, 3)
    value = float(ag.krippendorff_alpha(NOMINAL, lambda a, b: float(a != b)))
    assert value == pytest.approx(float(ag.krippendorff_alpha(NOMINAL, "nominal")))


def test_check_distance_refuses_unknown_names_up_front():
    assert ag.check_distance(ANN, "Interval") == "interval"
    with pytest.raises(AnnotationDataError, match="unknown distance 'foo'"):
        ag.check_distance(ANN, "foo")


@pytest.mark.parametrize(
    ("shares", "words"),
    [
        ([-0.5, 1.5], "between 0 and 1"),  # was p_e = 2.5
        ([0.5, np.nan], "between 0 and 1"),
        ([0.5, 0.7], "must sum to 1"),  # was p_e = 0.74
        ([[0.5, 0.5], [0.3, 0.3]], "must sum to 1"),  # a replicate row
        ([], "shape"),
        (["a", "b"], "must be numbers"),
    ],
)
def test_chance_agreement_checks_the_shares(shares, words):
    with pytest.raises(AnnotationDataError, match=words):
        chance_agreement("fleiss_kappa", shares)


def test_chance_agreement_takes_shares_within_rounding_of_one():
    third = np.full(3, 1 / 3)
    assert chance_agreement("fleiss_kappa", third)[0] == pytest.approx(1 / 3)
    assert chance_agreement("gwet_ac1", [[0.9, 0.1], [0.5, 0.5]]).shape == (2,)


@pytest.mark.parametrize("function", [ag.band, ag.reading])
def test_band_and_reading_refuse_an_unknown_coefficient(function):
    with pytest.raises(AnnotationDataError, match="unknown coefficient 'foo'") as info:
        function("foo", 0.5)
    assert "Fleiss' kappa" in str(info.value) and "Krippendorff's alpha" in str(info.value)
    with pytest.raises(ArgumentTypeError, match="coefficient name"):
        function(3, 0.5)


@pytest.mark.parametrize(
    "name",
    [
        "Fleiss' kappa (linear weights)",
        "Cohen's kappa (Light's mean over pairs)",
        "Gwet's AC2",
        "Krippendorff's alpha (masi)",
        "scott_pi",
        "brennan_prediger",
        "Percent agreement",
    ],
)
def test_band_still_reads_every_name_the_library_uses(name):
    assert ag.band(name, 0.5) and ag.reading(name, 0.5)


def test_pairwise_window_names_an_annotator_that_is_not_there():
    pw = ag.pairwise(NOMINAL)
    first = pw.values.index[0]
    with pytest.raises(AnnotationDataError, match="not in the pairwise table: 'zzz'"):
        ag.pairwise_window(pw, ["zzz"])  # was a 1 x 1 table of NaN
    assert list(ag.pairwise_window(pw, first).values.index) == [first]  # one name, not letters
    with pytest.raises(ArgumentTypeError, match="Pairwise"):
        ag.pairwise_window(pw.values, [first])
