"""Weights that need an order: ranks for declared text, values for numbers, never invented.

R's ``irr::anxiety`` (20 subjects, raters 2 and 3; levels 1, 2, 3, 4, 6 among them) gives
the published figures: ``kappa2(anxiety[, 2:3], "equal")`` = 0.1459075 and
``kappa2(anxiety[, 2:3], "squared")`` = 0.2520325 (irr 0.84, as quoted in statsmodels'
``test_inter_rater.py``). irr weights the factor levels by rank, which is Concord's rule for
text categories declared in order; numeric labels are weighted by their values.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.inter_rater import cohens_kappa as sm_cohens_kappa

from analytics import AnnotationDataError, load_annotations
from analytics.agreement import agreement_report, cohen_kappa, krippendorff_alpha

RATER2 = [3, 6, 4, 6, 2, 4, 2, 4, 3, 3, 2, 3, 3, 3, 2, 2, 1, 3, 3, 4]
RATER3 = [2, 1, 4, 4, 3, 2, 1, 6, 1, 1, 1, 2, 3, 3, 1, 1, 3, 3, 2, 2]


def anxiety(as_text: bool) -> pd.DataFrame:
    n = len(RATER2)
    labels = RATER2 + RATER3
    return pd.DataFrame(
        {
            "item": list(range(n)) * 2,
            "annotator": ["rater2"] * n + ["rater3"] * n,
            "label": [str(v) for v in labels] if as_text else labels,
        }
    )


@pytest.mark.parametrize(
    ("weights", "published"), [("linear", 0.1459075), ("quadratic", 0.2520325)]
)
def test_declared_text_categories_are_weighted_by_rank_as_irr(weights, published):
    ann = load_annotations(anxiety(True), categories=["1", "2", "3", "4", "6"], kind="ordinal")
    assert float(cohen_kappa(ann, weights=weights)) == pytest.approx(published, abs=5e-8)


@pytest.mark.parametrize("wt", ["linear", "quadratic"])
def test_numeric_labels_are_weighted_by_value_as_statsmodels(wt):
    ann = load_annotations(anxiety(False), kind="ordinal")
    values = np.array([1, 2, 3, 4, 6])
    table = np.zeros((5, 5))
    for a, b in zip(RATER2, RATER3, strict=True):
        table[np.searchsorted(values, a), np.searchsorted(values, b)] += 1
    oracle = sm_cohens_kappa(table, weights=values, wt=wt).kappa
    assert float(cohen_kappa(ann, weights=wt)) == pytest.approx(oracle, abs=1e-12)
    # and values are not ranks: the gap between 4 and 6 counts double
    ranked = load_annotations(anxiety(True), categories=["1", "2", "3", "4", "6"])
    assert float(cohen_kappa(ann, weights=wt)) != pytest.approx(
        float(cohen_kappa(ranked, weights=wt)), abs=1e-6
    )


def test_a_declared_order_is_honoured_even_when_the_text_looks_numeric():
    df = pd.DataFrame(
        {"item": [1, 1, 2, 2, 3, 3], "annotator": ["a", "b"] * 3, "label": list("123332")}
    )
    natural = load_annotations(df, categories=["1", "2", "3"])
    shuffled = load_annotations(df, categories=["1", "3", "2"])
    # a 1-2 disagreement is one step apart in the natural order, two in ["1", "3", "2"]
    assert float(cohen_kappa(natural, weights="linear")) != pytest.approx(
        float(cohen_kappa(shuffled, weights="linear"))
    )
    w = np.array([[1, 0.5, 0], [0.5, 1, 0.5], [0, 0.5, 1]])  # rows and columns: "1", "3", "2"
    assert float(cohen_kappa(shuffled, weights="linear")) == pytest.approx(
        float(cohen_kappa(shuffled, weights=w))
    )


@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_weights_on_unordered_text_are_refused_not_invented(weights):
    df = pd.DataFrame(
        {"item": [1, 1, 2, 2], "annotator": ["a", "b"] * 2, "label": ["cat", "dog", "dog", "dog"]}
    )
    with pytest.raises(AnnotationDataError, match="need an order"):
        cohen_kappa(df, weights=weights)


def test_the_report_says_why_weighted_rows_are_missing_for_undeclared_ordinal_text():
    df = pd.DataFrame(
        {
            "item": [1, 1, 2, 2, 3, 3],
            "annotator": ["a", "b"] * 3,
            "label": ["low", "mid", "mid", "mid", "high", "mid"],
        }
    )
    report = agreement_report(load_annotations(df, kind="ordinal"), n_boot=0)
    weighted = report[report["coefficient"].str.contains("quadratic")]
    assert len(weighted) == 2
    assert weighted["value"].isna().all()
    assert weighted["note"].str.contains("need an order").all()
    declared = agreement_report(
        load_annotations(df, kind="ordinal", categories=["low", "mid", "high"]), n_boot=0
    )
    assert declared[declared["coefficient"].str.contains("quadratic")]["value"].notna().all()


def signed(a, b):
    return -1.0 if a != b else 0.0


def not_zero_on_itself(a, b):
    return 1.0


@pytest.mark.parametrize(
    ("distance", "words"),
    [(signed, "signed returned -1.0"), (not_zero_on_itself, "and itself")],
)
def test_a_faulty_custom_distance_is_named_not_blamed_on_the_data(distance, words):
    df = pd.DataFrame(
        {"item": [1, 1, 2, 2, 3, 3], "annotator": ["a", "b"] * 3, "label": list("xyxxyy")}
    )
    with pytest.raises(AnnotationDataError, match=words):
        krippendorff_alpha(df, distance=distance)
