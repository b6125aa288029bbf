"""Kappa maximum (Cohen 1960): the largest kappa the annotators' marginals allow.

Cohen's (1960) Table 1 (200 items, proportions x 200 in ``tests/helpers/references.py``)
has margins .60/.30/.10 (judge A) and .50/.30/.20 (judge B): p_oM = .50 + .30 + .10 = .90,
p_e = .41, so kappa_M = (.90 - .41)/(1 - .41) = .8305 beside kappa = .492 (the kappa Cohen
prints). The independent check is a linear program: the largest share on the diagonal
over every table with the same margins (``scipy.optimize.linprog``).
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import linprog

import analytics.agreement as ag
from tests.helpers.builders import from_coders, from_table, random_coders
from tests.helpers.references import COHEN_1960


def lp_kappa_max(table: np.ndarray) -> float:
    """Max kappa over all tables with ``table``'s margins, by linear programming."""
    p = table / table.sum()
    row, col = p.sum(axis=1), p.sum(axis=0)
    q = len(row)
    a_eq = np.vstack(
        [np.kron(np.eye(q), np.ones(q)), np.kron(np.ones(q), np.eye(q))]
    )  # row sums, then column sums of the flattened table
    res = linprog(-np.eye(q).ravel(), A_eq=a_eq, b_eq=np.r_[row, col], bounds=(0, None))
    pe = float(row @ col)
    return (-res.fun - pe) / (1 - pe)


def test_cohen_1960_table_1():
    ann = from_table(COHEN_1960)
    assert ag.kappa_max(ann, "A", "B") == pytest.approx(0.49 / 0.59, abs=1e-12)
    assert round(ag.cohen_kappa(ann, "A", "B"), 3) == 0.492  # Cohen (1960), printed
    view = ag.kappa_paradox(ann)
    assert view.kappa_max == pytest.approx(0.8305, abs=1e-4)
    assert view.cohen_kappa == pytest.approx(ag.cohen_kappa(ann, "A", "B"))


@pytest.mark.parametrize("seed", range(5))
def test_kappa_max_is_the_linear_programs_optimum(seed):
    rng = np.random.default_rng(seed)
    table = rng.integers(0, 15, (4, 4))
    table[0, 0] += 1  # never empty
    ann = from_table(table)
    assert ag.kappa_max(ann, "A", "B") == pytest.approx(lp_kappa_max(table), abs=1e-9)
    assert ag.kappa_max(ann, "A", "B") >= ag.cohen_kappa(ann, "A", "B") - 1e-12


def test_many_annotators_average_the_pairs_as_lights_kappa():
    rng = np.random.default_rng(4)
    rows = random_coders(rng, 30, 4, 3, missing=0.2)
    ann = from_coders(rows)
    names = list(ann.annotators)
    pairs = [ag.kappa_max(ann, a, b) for a, b in itertools.combinations(names, 2)]
    mean = ag.kappa_max(ann)
    assert mean == pytest.approx(np.mean([v for v in pairs if np.isfinite(v)]), abs=1e-12)
    assert "annotator pairs" in mean.note


def test_undefined_cases_say_why():
    one = pd.DataFrame({"item": [1, 2], "annotator": ["a", "a"], "label": ["x", "y"]})
    assert "one annotator" in ag.kappa_max(one).reason
    same = pd.DataFrame({"item": [1, 1, 2, 2], "annotator": ["a", "b"] * 2, "label": ["x"] * 4})
    assert np.isnan(ag.kappa_max(same, "a", "b"))
    assert ag.kappa_max(same, "a", "b").reason
