"""Argument checks of analytics.models: a bad value raises :class:`AnnotationDataError`
naming it (an ArgumentTypeError for the wrong kind), never a bare KeyError or numpy error;
``gold=`` is read by the one check dawid_skene.fit uses, with the same words."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError
from analytics import dawid_skene as ds
from analytics import models as mo
from analytics._core.errors import ArgumentTypeError
from analytics.data import load_sample, read_gold_labels
from tests.helpers.builders import scores_on_a_scale
from tests.helpers.paths import SAMPLE_DATA

TRUTH = SAMPLE_DATA / "crowd_intents_truth.csv"


@pytest.fixture(scope="module")
def ann():
    return load_sample("crowd_intents")


@pytest.fixture(scope="module")
def res(ann):
    return ds.fit(ann)


def test_n_parameters_refuses_an_unknown_model_and_bad_counts():
    with pytest.raises(AnnotationDataError, match="unknown model 'foo'") as info:
        mo.n_parameters("foo", 3, 3, 3)  # was KeyError
    assert "dawid_skene" in str(info.value)
    with pytest.raises(AnnotationDataError, match="n_annotators must be at least 0"):
        mo.n_parameters("dawid_skene", -1, 3, 3)
    assert mo.n_parameters("dawid_skene", 3, 10, 2) == 3 * 2 * 1 + 1


def test_disagreements_names_an_unknown_reference(res):
    with pytest.raises(AnnotationDataError, match="reference model 'zz'") as info:
        mo.disagreements({"m": res}, "zz")  # was KeyError
    assert "Use one of: m" in str(info.value)
    with pytest.raises(ArgumentTypeError, match="mapping of model name -> fitted model"):
        mo.disagreements([res], "m")
    assert mo.disagreements({"m": res, "n": res}, "m").empty


def test_choose_refuses_a_table_that_is_not_compares():
    with pytest.raises(ArgumentTypeError, match="the table compare returns"):
        mo.choose(pd.DataFrame())  # was KeyError 'heldout_ll'
    with pytest.raises(AnnotationDataError, match="no models to choose from"):
        mo.choose(pd.DataFrame({"heldout_ll": [], "heldout_se": []}))


@pytest.mark.parametrize(
    ("scores", "words"),
    [
        (np.zeros((0, 0)), "models x units"),  # was numpy's "zero-size array"
        (np.zeros(3), "models x units"),  # was "not enough values to unpack"
        (np.zeros((2, 0)), "models x units"),
        ([["a", "b"]], "must be numbers"),
        ([[np.nan, -1.0]], "NaN"),
        ([[-np.inf, -1.0], [-np.inf, -2.0]], "probability 0"),
    ],
)
def test_stacking_weights_checks_the_scores(scores, words):
    with pytest.raises(AnnotationDataError, match=words):
        mo.stacking_weights(scores)


def test_stacking_weights_takes_a_model_that_scores_minus_infinity_somewhere():
    w, *_ = mo.stacking_weights([[np.log(0.5), -np.inf], [np.log(0.5), np.log(0.5)]])
    assert w.tolist() == pytest.approx([0.0, 1.0])


@pytest.mark.parametrize("gold", [str(TRUTH), TRUTH, "path/to/file.csv"])
def test_fit_refuses_a_gold_file_name_as_dawid_skene_does(ann, gold):
    with pytest.raises(ArgumentTypeError, match="read_gold_labels") as models_error:
        mo.fit(ann, "dawid_skene", gold=gold)  # was "dictionary update sequence ..."
    with pytest.raises(ArgumentTypeError) as ds_error:
        ds.fit(ann, gold=gold)
    assert str(models_error.value) == str(ds_error.value)


def test_fit_refuses_a_gold_table_as_dawid_skene_does(ann):
    table = pd.read_csv(TRUTH)
    with pytest.raises(ArgumentTypeError, match="not one label per item") as models_error:
        mo.fit(ann, "dawid_skene", gold=table)  # was "2 gold items ...: 'item', 'label'"
    with pytest.raises(ArgumentTypeError) as ds_error:
        ds.fit(ann, gold=table)
    assert str(models_error.value) == str(ds_error.value)
    assert "set_index('item')['label']" in str(models_error.value)


def test_a_gold_item_listed_twice_gets_the_same_words_everywhere(ann, res):
    gold = pd.Series(["question", "request"], index=["msg001", "msg001"])
    messages = []
    for call in (
        lambda: mo.fit(ann, "dawid_skene", gold=gold),
        lambda: ds.fit(ann, gold=gold),
        lambda: mo.gold_table({"dawid_skene": res}, gold),
    ):
        with pytest.raises(AnnotationDataError, match="'msg001' more than once") as info:
            call()
        messages.append(str(info.value))
    assert len(set(messages)) == 1


def test_gold_read_with_read_gold_labels_still_fits(ann):
    gold = read_gold_labels(TRUTH)
    assert len(mo.fit(ann, "dawid_skene", gold=gold).gold_items) == len(gold)


@pytest.mark.parametrize("model", ["majority", "one_coin", "mace", "glad", "dawid_skene"])
def test_a_smoothing_too_large_to_compute_with_is_refused(ann, model):
    # 1e308 had overflowed: NaN posteriors or prevalences summing to 0, with no error
    with pytest.raises(AnnotationDataError, match="smoothing must be a number from 0 to 1e12"):
        mo.fit(ann, model, smoothing=1e308)


@pytest.mark.parametrize("seed", [-3, 1.5, "0"])
def test_a_bad_seed_is_refused_by_name_by_auto_and_compare(ann, seed):
    """fit(model="auto") and compare passed the seed straight to numpy (ValueError
    'expected non-negative integer', a traceback from ``gold-labels --seed -3``); every
    single model already refused it by name."""
    for call in (
        lambda: mo.fit(ann, seed=seed),
        lambda: mo.compare(ann, ["majority", "one_coin"], seed=seed),
    ):
        with pytest.raises(AnnotationDataError, match="seed"):
            call()


@pytest.mark.parametrize("model", ["auto", *mo.MODELS])
def test_numbers_on_a_scale_are_refused_before_any_fit(model):
    """Scores of 80 distinct values read as 80 categories: auto had taken minutes (197 s
    on 200 items) to call nearly every item unsure. Refused, as the Overview leaves its
    model answers undefined on the same data; read as ordinal categories they fit."""
    from analytics import Annotations

    frame = scores_on_a_scale()
    ann = Annotations.from_frame(frame)
    assert ann.kind.value == "numeric" and ann.n_categories > 12
    with pytest.raises(AnnotationDataError, match=r"numbers on a scale \(\d+ distinct values\)"):
        mo.fit(ann, model)
    with pytest.raises(AnnotationDataError, match="the label kind ordinal or nominal"):
        mo.compare(ann, [model] if model != "auto" else None)
    # a few values (1.5 steps: numeric, at most 12 values) are categories the models can fit
    few = frame.assign(label=np.round(frame["label"] / 40) * 1.5)
    assert mo.fit(Annotations.from_frame(few), "majority").labels.notna().all()
    if model in ("majority", "dawid_skene"):  # declared categories: the user's choice
        assert len(mo.fit(Annotations.from_frame(frame, kind="ordinal"), model).labels) == 30
