"""The gold answer: the model's own estimate, or its measured error when gold is known."""

from __future__ import annotations

import pytest

from analytics.data import load_sample, sample_truth
from analytics.models import gold_table
from analytics.overview import overview


def gold_answer(result):
    return next(a for a in result.answers if a.key == "gold")


def test_known_gold_replaces_the_models_own_estimate():
    ann, truth = load_sample("rte_snow2008"), sample_truth("rte_snow2008")
    own, measured = gold_answer(overview(ann)), gold_answer(overview(ann, gold=truth))
    # its posteriors' account, 0.8%, is a lower bound: it cannot read "good" (the truth: 7.3%)
    assert own.number == "0.8%" and own.verdict.label == "caution"
    assert "cannot show that the labels are good" in own.sentence
    assert measured.number == "7.3%" and measured.verdict.label == "caution"  # the truth's
    assert "by its own posteriors it expected 0.8%" in measured.sentence
    # the same figure gold_table gives the Dawid-Skene fit
    from analytics.dawid_skene import fit

    acc = gold_table({"ds": fit(ann)}, truth).loc["ds", "accuracy"]
    assert float(measured.number.rstrip("%")) == pytest.approx(100 * (1 - acc), abs=0.05)


def test_gold_for_other_items_is_refused_not_ignored():
    ann = load_sample("rte_snow2008")
    from analytics import AnnotationDataError

    with pytest.raises(AnnotationDataError):
        overview(ann, gold={"no such item": "yes"})


def test_the_bluebirds_without_gold_do_not_read_good():
    """Welinder's bluebirds: Dawid-Skene expects 0.3% wrong, expert gold finds 10.2%. The
    Overview had shown a green 'Good' on the 0.3%."""
    from analytics import Annotations
    from tests.helpers.paths import load_public

    labels, _ = load_public("welinder_bluebirds")
    own = gold_answer(overview(Annotations.from_frame(labels)))
    assert own.number == "0.3%" and own.verdict.label == "caution"
    assert "score the model on a few expert-labelled items" in own.sentence


def test_the_rule_printed_under_the_own_account_does_not_call_it_good():
    from analytics.overview import judge_own_error

    said = judge_own_error(0.003).describe()
    assert said.startswith("caution: share of wrong model labels")
    assert "expected by the model itself, a lower bound, it reads caution at best" in said


def test_a_handful_of_right_gold_items_does_not_read_good():
    """Five gold items, all right, read '0.0% wrong: Good' (and could let the Overview say
    'benchmark on the model's labels'); five items cannot show an error under 5%: the 95%
    interval reaches about 43%. The RTE sample's 800 items are judged as before."""
    from analytics.dawid_skene import fit

    ann = load_sample("rte_snow2008")
    labels = fit(ann).labels
    few = gold_answer(overview(ann, gold=labels.iloc[:5]))
    assert few.number == "0.0%" and few.verdict.label == "caution"
    assert "5 gold items" in few.sentence and "too few to call it good" in few.sentence
    many = gold_answer(overview(ann, gold=labels))  # 800 of 800 right: good stands
    assert many.verdict.label == "good" and "too few" not in many.sentence


def test_one_gold_item_is_one_item_not_one_items():
    from analytics.dawid_skene import fit

    ann = load_sample("rte_snow2008")
    one = gold_answer(overview(ann, gold=fit(ann).labels.iloc[:1]))
    assert one.sentence.startswith("Against the 1 item with known gold labels, ")
