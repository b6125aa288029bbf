"""Order-dependent alpha distances need an order: never the order of the rows in the file.

The reviewer's case: text labels (pos/neg/neu) loaded as nominal, ordinal alpha 0.511 on the
file as given and 0.625 on the same rows sorted, because the category order was the order
of first appearance.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError, load_annotations
from analytics.agreement import agreement_report, distance_options, krippendorff_alpha

LABELS = [
    ("pos", "pos", "pos", "neu"),
    ("neg", "neg", "neu", "neg"),
    ("neu", "neu", "pos", "pos"),
    ("pos", "neu", "pos", "pos"),
    ("neg", "neg", "neg", "neg"),
    ("neu", "neg", "neu", "neu"),
    ("pos", "pos", "neg", "pos"),
    ("neg", "neu", "neg", "neu"),
]


def _frames() -> tuple[pd.DataFrame, pd.DataFrame]:
    """The same judgements twice: as given (pos first) and sorted by label (neg first)."""
    rows = [
        (f"it{i}", f"ann{j}", label)
        for i, labels in enumerate(LABELS)
        for j, label in enumerate(labels)
    ]
    df = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    return df, df.sort_values(["label", "item"], kind="stable").reset_index(drop=True)


def test_ordinal_alpha_on_unordered_text_is_undefined_whatever_the_row_order():
    given, resorted = _frames()
    a, b = load_annotations(given), load_annotations(resorted)
    assert list(a.categories) != list(b.categories)  # first appearance differs
    alpha_a, alpha_b = krippendorff_alpha(a, "ordinal"), krippendorff_alpha(b, "ordinal")
    assert np.isnan(alpha_a) and np.isnan(alpha_b)
    assert alpha_a.note == alpha_b.note  # the reason does not depend on the rows either
    assert "categories=[...]" in alpha_a.note and 'kind="ordinal"' in alpha_a.note
    assert "neg, neu, pos" in alpha_a.note
    # nominal alpha is unaffected, and the report keeps its row with the reason
    assert krippendorff_alpha(a) == pytest.approx(krippendorff_alpha(b))
    report = agreement_report(a, n_boot=0, distance="ordinal").set_index("coefficient")
    row = report.loc["Krippendorff's alpha (ordinal)"]
    assert np.isnan(row["value"]) and "declare the order" in row["note"]


def test_only_nominal_is_offered_for_unordered_text():
    given, _ = _frames()
    assert distance_options(load_annotations(given)) == ["nominal"]
    order = ["neg", "neu", "pos"]
    assert distance_options(load_annotations(given, categories=order)) == ["nominal", "ordinal"]
    assert distance_options(load_annotations(given, kind="ordinal")) == ["nominal", "ordinal"]


def test_declared_order_still_gives_ordinal_alpha_and_the_same_on_both_files():
    given, resorted = _frames()
    order = ["neg", "neu", "pos"]
    for kind in (None, "ordinal"):
        a = load_annotations(given, categories=order, kind=kind)
        b = load_annotations(resorted, categories=order, kind=kind)
        alpha_a, alpha_b = krippendorff_alpha(a, "ordinal"), krippendorff_alpha(b, "ordinal")
        assert np.isfinite(alpha_a) and alpha_a == pytest.approx(alpha_b)
        assert "declared order" in alpha_a.note
    # numbers have their own order, whatever the kind
    codes = given.assign(label=given["label"].map({"neg": 1, "neu": 2, "pos": 3}))
    as_codes = load_annotations(codes)
    assert as_codes.kind.value == "nominal"
    assert krippendorff_alpha(as_codes, "ordinal") == pytest.approx(alpha_a)


def test_ratio_alpha_refuses_values_below_zero_and_is_not_offered_for_them():
    # -1 against 1 is a disagreement; the ratio metric's 0/0 had made this alpha 1.0
    df = pd.DataFrame(
        {
            "item": [1, 1, 2, 2, 3, 3],
            "annotator": ["a", "b"] * 3,
            "label": [-1.0, 1.0, 2.5, 2.5, 3.0, 3.0],
        }
    )
    signed = load_annotations(df)
    assert distance_options(signed) == ["nominal", "ordinal", "interval"]
    with pytest.raises(AnnotationDataError, match="smallest value is -1") as err:
        krippendorff_alpha(signed, "ratio")
    assert "interval" in err.value.hint
    with pytest.raises(AnnotationDataError, match="ratio distance"):
        agreement_report(signed, distance="ratio", n_boot=0)
    zero = load_annotations(df.assign(label=df["label"] + 1))
    assert "ratio" in distance_options(zero)
    assert np.isfinite(krippendorff_alpha(zero, "ratio"))


def test_nominal_alpha_on_ordered_labels_says_which_distance_counts_how_far_apart():
    rng = np.random.default_rng(0)
    df = pd.DataFrame(
        {
            "item": np.repeat(range(40), 2),
            "annotator": ["a", "b"] * 40,
            "label": rng.normal(size=80).round(2),
        }
    )
    numeric = load_annotations(df)
    assert "distance='interval'" in krippendorff_alpha(numeric).note
    assert "distance=" not in krippendorff_alpha(numeric, "interval").note


def test_alpha_reads_distance_none_as_the_report_does():
    """krippendorff_alpha(ann, None) was refused while agreement_report(distance=None) is
    its default."""
    from analytics.data import load_sample

    ratings = load_sample("ratings_ordinal")
    none = krippendorff_alpha(ratings, None)
    assert none == krippendorff_alpha(ratings, distance_options(ratings)[1])  # ordinal
    assert none.note.startswith("ordinal distance")
