"""Arguments of the wrong kind get an error in plain words, never a bare TypeError deep inside.

The error is an ``ArgumentTypeError``: an ``AnnotationDataError`` (the app and the command
line show it as they show every data error) and a ``TypeError`` (as Python code expects).
"""

from __future__ import annotations

import pandas as pd
import pytest

import analytics.agreement as ag
import analytics.dawid_skene as ds
import analytics.models as models
from analytics import AnnotationDataError
from analytics.data import load_sample

ANN = load_sample()


@pytest.mark.parametrize(
    ("call", "said"),
    [
        (lambda: ag.fleiss_kappa("sample_data/crowd_intents.csv"), "load_annotations(path)"),
        (lambda: ag.fleiss_kappa([1, 2]), "long DataFrame"),
        (lambda: ds.fit(None), "Annotations or a pandas DataFrame"),
        (lambda: ds.annotator_table(ANN), "annotator_table(fit(ann))"),
        (lambda: ds.model_labels_table(ANN), "model_labels_table(fit(ann))"),
        (lambda: models.bootstrap(ANN, ANN), "bootstrap(ann, fit(ann))"),
        (lambda: ag.forest_plot(ANN), "forest_plot(agreement_report(ann))"),
        (lambda: ag.item_agreement_summary(ANN), "item_agreement_summary(item_agreement(ann))"),
        (lambda: ag.cohen_kappa(ANN, weights=["linear"]), "a family name"),
        (lambda: ag.cohen_kappa(ANN, weights={"a": 1}), "a family name"),
        (lambda: ag.cohen_kappa(ANN, weights=1), "got int (1)"),
        (lambda: ag.cohen_kappa(ANN, weights=True), "got bool"),
    ],
)
def test_wrong_kinds_of_argument_say_what_was_expected(call, said):
    with pytest.raises(AnnotationDataError) as err:
        call()
    assert isinstance(err.value, TypeError)
    assert said in str(err.value)


def test_a_plain_dawid_skene_fit_is_bootstrapped_as_the_family_model():
    small = ANN.subset(items=list(ANN.items[:60]))
    boot = models.bootstrap(small, ds.fit(small), n_boot=3)
    same = models.bootstrap(small, models.fit(small, model="dawid_skene"), n_boot=3)
    # the same refits (the family's Dawid-Skene, the same draws): the same intervals
    # (where neither withholds its interval: that depends on each full fit's estimate)
    a, b = boot.annotator_accuracy, same.annotator_accuracy
    both = a["low"].notna() & b["low"].notna()
    assert both.sum() >= len(a) // 2
    ends = ["low", "high", "fits"]
    pd.testing.assert_frame_equal(a.loc[both, ends], b.loc[both, ends])


def test_weight_family_names_ignore_case():
    ratings = load_sample("ratings_ordinal")
    a, b = list(ratings.annotators[:2])
    assert ag.cohen_kappa(ratings, a, b, weights=" Linear") == pytest.approx(
        ag.cohen_kappa(ratings, a, b, weights="linear")
    )


def test_a_misspelt_model_setting_names_the_settings():
    with pytest.raises(AnnotationDataError, match="takes no setting 'max_iters'") as err:
        models.fit(ANN, "dawid_skene", max_iters=3)
    assert "max_iter" in err.value.hint and not isinstance(err.value, TypeError)


def test_bootstrap_refuses_a_fit_of_other_annotations():
    other = load_sample("rte_snow2008")
    with pytest.raises(AnnotationDataError, match="not made on these annotations"):
        models.bootstrap(ANN, models.fit(other, "majority"), n_boot=2)


def test_compare_takes_one_model_name():
    assert list(models.compare(ANN, models="majority").index) == ["majority"]


def test_duckdb_settings_it_refuses_are_said_in_words():
    pytest.importorskip("duckdb")
    from analytics.engines.duck import DuckRunner

    for limit in ("xyz", "0"):
        with pytest.raises(AnnotationDataError, match="DuckDB refused the settings"):
            DuckRunner(memory_limit=limit)
