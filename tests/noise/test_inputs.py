"""Starting values and input tables for asking the noise model by hand (the page's
arithmetic, kept in the library)."""

from __future__ import annotations

import numpy as np
import pytest

from analytics import AnnotationDataError
from analytics.noise import (
    FollowUpDefaults,
    adding_annotators,
    agreement_probability,
    equal_rates,
    follow_up_defaults,
    noise_bound,
    rates_table,
)


def test_follow_up_defaults_start_from_the_bound():
    start = follow_up_defaults(noise_bound(2000, 100, 0.25))
    assert start == FollowUpDefaults(
        n_items=2000, p=0.25, n_agreed=1900, hidden_hard=start.hidden_hard, p_from_example=False
    )
    assert start.hidden_hard == noise_bound(2000, 100, 0.25).hidden_hard
    assert isinstance(start.n_items, int) and isinstance(start.hidden_hard, int)


def test_follow_up_defaults_fall_back_on_the_papers_example():
    # section 3.1: n = 1000, d = 100, p = 0.5 leave 900 agreed items, at most 125 coin-flips
    start = follow_up_defaults(None)
    assert (start.n_items, start.p, start.n_agreed, start.hidden_hard) == (1000, 0.5, 900, 125)
    assert noise_bound(1000, 100, 0.5).hidden_hard == start.hidden_hard
    assert start.p_from_example


def test_an_undefined_bound_keeps_its_counts_and_the_examples_p():
    """An undefined bound with agreed items: the questions start from the data's counts;
    with none agreed (the gold-standard inputs need one), from the example."""
    from analytics.noise import noise_from_annotations
    from tests.noise.test_from_annotations import frame

    rows = [("g1", "A", "x"), ("g1", "B", "x"), ("d1", "A", "x"), ("d1", "B", "y")]
    rows += [("d2", "A", "z"), ("d2", "B", "y")]  # p = 0 on the disagreed items: undefined
    result = noise_from_annotations(frame(rows))
    assert not result.ok
    start = follow_up_defaults(result)
    assert (start.n_items, start.p, start.n_agreed, start.hidden_hard) == (3, 0.5, 1, 1)
    assert start.p_from_example
    assert follow_up_defaults(noise_bound(10, 10, 0.5)).n_items == 1000


def test_follow_up_defaults_are_capped_to_stay_legal():
    start = FollowUpDefaults()
    assert start.n_agreed_within(500) == 500 and start.n_agreed_within(5000) == 900
    assert start.hidden_hard_within(100) == 100 and start.hidden_hard_within(900) == 125


def test_rates_of_equally_likely_categories():
    assert equal_rates(4).tolist() == [0.25] * 4
    table = rates_table(3, 2)
    assert list(table.index) == ["annotator 1", "annotator 2", "annotator 3"]
    assert list(table.columns) == ["category 1", "category 2"]
    assert np.allclose(table.to_numpy(), 0.5)
    assert agreement_probability(table) == pytest.approx(0.25)
    same = adding_annotators(100, 0.5, equal_rates(3), [2, 3])
    assert same.equals(adding_annotators(100, 0.5, [1 / 3] * 3, [2, 3]))


@pytest.mark.parametrize(
    "call, needle",
    [
        (lambda: equal_rates(0), "n_categories must be at least 1"),
        (lambda: equal_rates(2.5), "n_categories must be a whole number"),
        (lambda: rates_table(0, 2), "n_annotators must be at least 1"),
        (lambda: rates_table(2, "two"), "n_categories must be a whole number"),
    ],
)
def test_inputs_refuse_impossible_arguments(call, needle):
    with pytest.raises(AnnotationDataError, match=needle):
        call()


@pytest.mark.parametrize("annotators", [3, 1.5])
def test_noise_from_annotations_refuses_a_number_for_the_annotators_by_name(annotators):
    """A number raised a bare TypeError ('int' object is not iterable)."""
    from analytics.data import load_sample
    from analytics.noise import noise_from_annotations

    with pytest.raises(AnnotationDataError, match="annotators= takes a list of names"):
        noise_from_annotations(load_sample("crowd_intents"), annotators=annotators)
