"""Agreement per category: DKPro Agreement's published test values.

Sources (DKPro Agreement, dkpro-statistics, ``dkpro-statistics-agreement/src/test``):

- ``Mieskes2009Test``: 3 raters x 17 items of part-of-speech tags (Mieskes 2009, p. 58),
  ``FleissKappaAgreement.calculateCategoryAgreement``: INP 1.00, JJ 1.00, MD 1.00,
  NN 0.48, PRP 1.00, RB 0.56, UH 0.67, VB 0.29, VBP -0.02 (to 0.01).
- ``TwoRaterAgreementTest``: 2 raters x 10 items (high/low), ``PercentageAgreement``
  0.7. Its per-category test is commented out in DKPro; it expects 4/7 and 10/13, the
  specific agreement of "high" and "low" (DKPro's disabled test puts them under swapped
  names: 2 items agree on "high" and 3 disagree, so "high" is 2*2/(2*2+3) = 4/7).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import load_annotations
from analytics.agreement import per_category
from tests.helpers.builders import from_items

MIESKES_2009 = [
    ["UH", "VB", "UH"],
    ["INP", "INP", "INP"],
    ["UH", "UH", "UH"],
    ["INP", "INP", "INP"],
    ["RB", "RB", "RB"],
    ["JJ", "JJ", "JJ"],
    ["INP", "INP", "INP"],
    ["PRP", "PRP", "PRP"],
    ["NN", "NN", "RB"],
    ["VB", "VBP", "VB"],
    ["PRP", "PRP", "PRP"],
    ["INP", "INP", "INP"],
    ["RB", "UH", "UH"],
    ["INP", "INP", "INP"],
    ["MD", "MD", "MD"],
    ["PRP", "PRP", "PRP"],
    ["INP", "INP", "INP"],
]
MIESKES_KAPPA = {
    "INP": 1.00,
    "JJ": 1.00,
    "MD": 1.00,
    "NN": 0.48,
    "PRP": 1.00,
    "RB": 0.56,
    "UH": 0.67,
    "VB": 0.29,
    "VBP": -0.02,
}
TWO_RATERS = [
    ["high", "high"],
    ["high", "high"],
    ["high", "low"],
    ["low", "high"],
    ["low", "low"],
    ["low", "low"],
    ["low", "low"],
    ["low", "high"],
    ["low", "low"],
    ["low", "low"],
]


def dkpro_category_percent(rows, category):
    """DKPro's ``PercentageAgreement.calculateCategoryAgreement``, transcribed loop for loop."""
    result = 0
    for item in rows:
        cat = sum(1 for label in item if label == category)
        other = len(item) - cat
        result += cat * (cat - 1) + other * (other - 1)
    n = len(rows[0])
    return result / (len(rows) * n * (n - 1))


def test_per_category_kappa_matches_dkpro_mieskes_2009():
    table = per_category(from_items(MIESKES_2009), n_boot=0).set_index("category")
    for category, published in MIESKES_KAPPA.items():
        assert table.loc[category, "fleiss_kappa"] == pytest.approx(published, abs=0.01), category


def test_per_category_percent_agreement_is_dkpros():
    table = per_category(from_items(MIESKES_2009), n_boot=0).set_index("category")
    for category in MIESKES_KAPPA:
        expected = dkpro_category_percent(MIESKES_2009, category)
        assert table.loc[category, "percent_agreement"] == pytest.approx(expected, abs=1e-12)
    two = per_category(from_items(TWO_RATERS), n_boot=0).set_index("category")
    # DKPro TwoRaterAgreementTest: PercentageAgreement 0.7; with two categories one against
    # the rest is the whole table, so both categories have the overall 0.7
    assert two["percent_agreement"].tolist() == pytest.approx([0.7, 0.7])


def test_specific_agreement_is_positive_agreement():
    two = per_category(from_items(TWO_RATERS), n_boot=0).set_index("category")
    assert two.loc["high", "specific_agreement"] == pytest.approx(4 / 7)
    assert two.loc["low", "specific_agreement"] == pytest.approx(10 / 13)


def test_pooled_percent_agreement_differs_from_kappas_mean_with_missing_judgements():
    rows = [["a", "a", "a", "b"], ["a", "b", None, None], ["b", "b", None, None]]
    table = per_category(from_items(rows), n_boot=0).set_index("category")
    # pairs: item 1 has 12 ordered pairs, 6 agreeing; items 2, 3 have 2 each (0 and 2 agreeing)
    assert table.loc["a", "percent_agreement"] == pytest.approx((6 + 0 + 2) / 16)
    # kappa's p_a averages the items: (6/12 + 0 + 1) / 3
    assert table.loc["a", "observed_agreement"] == pytest.approx((0.5 + 0 + 1) / 3)
    # specific agreement of "a": pairs of a's 6 + 0 + 0 over pairs with an "a" first 9 + 1 + 0
    assert table.loc["a", "specific_agreement"] == pytest.approx(6 / 10)


def test_a_category_nobody_used_has_no_specific_agreement():
    df = pd.DataFrame({"item": [1, 1, 2, 2], "annotator": ["a", "b"] * 2, "label": list("xxyx")})
    ann = load_annotations(df, categories=["x", "y", "z"])
    table = per_category(ann, n_boot=0).set_index("category")
    assert np.isnan(table.loc["z", "specific_agreement"])
    assert table.loc["z", "percent_agreement"] == pytest.approx(1.0)


def test_bars_draw_percent_and_specific_agreement_without_intervals():
    from analytics.agreement import per_category_bars

    table = per_category(from_items(MIESKES_2009), n_boot=0)
    for measure in ("percent_agreement", "specific_agreement"):
        fig = per_category_bars(table, measure)
        bar = fig.data[0]
        assert list(bar.y) == pytest.approx(table[measure].tolist(), nan_ok=True)
        assert bar.error_y.array is None  # not chance-corrected, no interval
        assert "1 = perfect" in fig.layout.yaxis.title.text
