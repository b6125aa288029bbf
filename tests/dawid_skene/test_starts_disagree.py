"""Results that do not depend on the data are flagged: starts that disagree get a note."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analytics.dawid_skene import fit
from analytics.dawid_skene.em import EMRun
from analytics.dawid_skene.starts import starts_disagree


def frame(rows):
    return pd.DataFrame(rows, columns=["item", "annotator", "label"])


def run(labels, ll):
    k = max(labels) + 1
    q = np.eye(k)[labels]
    return EMRun(q, np.ones(k) / k, np.ones((1, k, k)) / k, q, np.array([ll]), 3, True)


def test_two_annotators_who_always_disagree_are_not_identified():
    rows = [(i, "a", "x" if i % 2 else "y") for i in range(8)]
    rows += [(i, "b", "y" if i % 2 else "x") for i in range(8)]
    notes = fit(frame(rows), init="best").notes
    assert any(n.startswith("Not identified") for n in notes), notes


def test_clear_data_gets_no_disagreement_note():
    truth = ["x", "y"] * 10
    rows = [(i, a, t) for i, t in enumerate(truth) for a in "abcd"]
    rows[0] = (0, "a", "y")  # one slip
    notes = fit(frame(rows), init="best").notes
    assert not any("disagree" in n or "identified" in n for n in notes), notes


def test_a_single_start_has_nothing_to_compare():
    assert starts_disagree([run([0, 1], -1.0)], 0) == ()


def test_equal_and_lower_optima_are_told_apart():
    best = run([0, 1, 0], -10.0)
    swapped = run([1, 0, 1], -10.0)
    lower = run([0, 0, 0], -12.5)
    agreeing = run([0, 1, 0], -11.0)
    notes = starts_disagree([best, swapped, lower, agreeing], 0)
    assert len(notes) == 2
    assert "1 of 4 starts reached an equally likely fit that labels 3 items" in notes[0]
    assert "1 of 4 starts ended at a less likely fit (log-likelihood lower by 2.5" in notes[1]
    assert starts_disagree([best, agreeing], 0) == ()


def test_a_lower_optimum_moving_a_few_items_is_a_remark_not_a_warning():
    # RTE's hierarchical fit: a start 2.3e-6 (relative) less likely, 2 of 800 items moved,
    # was shown as "The starts disagree" in a warning box
    truth = [0, 1] * 100
    moved = list(truth)
    moved[0] = 1
    many = [1 - t if i < 10 else t for i, t in enumerate(truth)]
    (few,) = starts_disagree([run(truth, -10.0), run(moved, -10.5)], 0)
    assert few.startswith("1 of 2 starts ended at a less likely fit") and "1 of 200 items" in few
    assert "disagree" not in few
    (alarm,) = starts_disagree([run(truth, -10.0), run(many, -10.5)], 0)
    assert alarm.startswith("The starts disagree") and "10 items" in alarm
