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


def test_per_category_gold_counts_decisions_and_whole_sets_by_hand():
    from analytics.dawid_skene import per_category_gold

    rows = [
        ("i1", "a", "x;y"), ("i1", "b", "x;y"), ("i1", "c", "x;y"),
        ("i2", "a", "x"), ("i2", "b", "x"), ("i2", "c", "y"),
        ("i3", "a", "y"), ("i3", "b", "{}"), ("i3", "c", "y"),
        ("i4", "a", "x"), ("i4", "b", "y"),
    ]  # fmt: skip
    ann = Annotations.from_frame(
        pd.DataFrame(rows, columns=["item", "annotator", "label"]), multilabel_sep=";"
    )
    fits = fit_per_category(ann)
    gold = pd.Series({"i1": "x;y", "i2": "x", "i3": "{}", "i4": "x", "elsewhere": "y"})
    table = per_category_gold(fits, gold)
    assert list(table["gold_items"]) == [4, 4, 4]
    # majority per decision (i4: one yes, one no on each: a tie, 1/2):
    # x: i1 yes right, i2 yes right, i3 no right, i4 tie -> 3.5 / 4
    # y: i1 yes right, i2 no right, i3 yes wrong, i4 tie -> 2.5 / 4
    assert table.loc["x", "majority"] == pytest.approx(3.5 / 4)
    assert table.loc["y", "majority"] == pytest.approx(2.5 / 4)
    # whole sets: i1 1, i2 1, i3 0 (y wrong), i4 1/2 * 1/2
    assert table.iloc[-1]["majority"] == pytest.approx((1 + 1 + 0 + 0.25) / 4)
    p = pd.DataFrame({c: f.posteriors.iloc[:, -1] for c, f in fits.items()}) >= 0.5
    truth = pd.DataFrame({"x": [1, 1, 0, 1], "y": [1, 0, 0, 0]}, index=["i1", "i2", "i3", "i4"])
    right = p.loc[truth.index].to_numpy() == truth.astype(bool).to_numpy()
    assert table.loc["x", "model"] == pytest.approx(right[:, 0].mean())
    assert table.iloc[-1]["model"] == pytest.approx(right.all(axis=1).mean())
    with pytest.raises(AnnotationDataError, match="categories the data do not have: z"):
        per_category_gold(fits, pd.Series({"i1": "x;z"}))
    with pytest.raises(AnnotationDataError, match="no item has both"):
        per_category_gold(fits, pd.Series({"nowhere": "x"}))
