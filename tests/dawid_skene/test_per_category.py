"""Dawid-Skene on multi-label data: one yes/no model per category (issue 17, point 6)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError, Annotations
from analytics.data import load_sample
from analytics.dawid_skene import (
    category_yes_no,
    fit,
    fit_per_category,
    per_category_figure,
    per_category_labels,
    per_category_table,
)


@pytest.fixture(scope="module")
def affect():
    return load_sample("affect_multilabel")


def test_yes_no_view_matches_the_label_sets(affect):
    k = 2
    cat = affect.categories[k]
    yn = category_yes_no(affect, cat)
    assert yn.n_judgements == affect.n_judgements and list(yn.categories) == ["no", "yes"]
    np.testing.assert_array_equal(yn.label_codes == 1, affect.label_matrix[:, k])


def test_each_category_model_is_the_plain_model_of_its_yes_no_data(affect):
    fits = fit_per_category(affect)
    cat = affect.categories[0]
    alone = fit(category_yes_no(affect, cat))
    pd.testing.assert_frame_equal(fits[cat].posteriors, alone.posteriors)


def test_labels_follow_the_posteriors(affect):
    fits = fit_per_category(affect)
    labels = per_category_labels(fits)
    row = labels.iloc[0]
    inside = {c for c in affect.categories if row[f"P({c})"] >= 0.5}
    assert set(row["labels"].split(";")) - {"{}"} == inside


def test_a_category_everyone_always_gives_has_full_prevalence():
    rows = [(f"i{i}", a, "x;y" if i % 2 else "x") for i in range(30) for a in ("a", "b", "c")]
    ann = Annotations.from_frame(
        pd.DataFrame(rows, columns=["item", "annotator", "label"]), multilabel_sep=";"
    )
    table = per_category_table(fit_per_category(ann)).set_index("category")
    assert table.loc["x", "raw share"] == 1.0 and table.loc["x", "prevalence"] > 0.99
    assert abs(table.loc["y", "prevalence"] - 0.5) < 0.02
    assert per_category_figure(table.reset_index()).data[0].type == "bar"


def test_refusals(affect):
    single = load_sample("crowd_intents")
    with pytest.raises(AnnotationDataError, match="multi-label"):
        category_yes_no(single, single.categories[0])
    with pytest.raises(AnnotationDataError, match="unknown category"):
        category_yes_no(affect, "nope")
