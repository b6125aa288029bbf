"""Gold standard by Algorithm 1 of Bhowmick et al. (2008): ties, walking order, loop oracle."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics import Annotations
from analytics.multilabel import gold_standard
from tests.helpers.builders import from_array, random_data
from tests.helpers.multilabel_loops import loop_gold

# Annotators A, B, C; categories x, y.
#   i1 (A, B, C): A {x}, B {}, C {x}
#       x: Y={A,C} 2 > N={B} 1  -> assign, rho A=1, C=1
#       y: Y={} 0 < N={A,B,C} 3 -> not,    rho A=2, B=1, C=2
#   i2 (A, B only): A {y}, B {x}
#       x: Y={B}, N={A}: tie; rho_Y = 1 < rho_N = 2  -> not assigned (tie-broken)
#       y: Y={A}, N={B}: tie; rho_Y = 2 > rho_N = 1  -> assigned (tie-broken)
#       ties leave rho alone: final A=2, B=1, C=2
# Walked the other way round (i2 first) every rho is 0 at i2: both ties are unresolved and
# i2 gets no category; i1 then gives A=2, B=1, C=2 as before.
ROWS = [
    ("i1", "A", {"x"}),
    ("i1", "B", set()),
    ("i1", "C", {"x"}),
    ("i2", "A", {"y"}),
    ("i2", "B", {"x"}),
]


def _ann(rows) -> Annotations:
    df = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    return Annotations.from_frame(df, kind="multilabel", categories=["x", "y"])


def test_ties_broken_by_expert_index_in_input_order():
    gold = gold_standard(_ann(ROWS))
    assert gold.labels.to_dict() == {"i1": frozenset({"x"}), "i2": frozenset({"y"})}
    assert gold.expert_index.to_dict() == {"A": 2, "B": 1, "C": 2}
    ties = gold.ties.set_index("category")
    assert ties["item"].tolist() == ["i2", "i2"]
    assert ties.loc["x", ["rho_assigned", "rho_not_assigned"]].tolist() == [1, 2]
    assert ties.loc["y", ["rho_assigned", "rho_not_assigned"]].tolist() == [2, 1]
    assert ties["outcome"].tolist() == ["tie-broken", "tie-broken"]
    assert ties["assigned"].tolist() == [False, True]
    assert len(gold.tie_broken) == 2 and len(gold.unresolved) == 0
    assert gold.matrix.loc["i2"].tolist() == [False, True]


def test_walking_order_matters():
    gold = gold_standard(_ann(ROWS[3:] + ROWS[:3]))  # i2 first
    assert gold.labels.to_dict() == {"i2": frozenset(), "i1": frozenset({"x"})}
    assert gold.unresolved["category"].tolist() == ["x", "y"]
    assert gold.unresolved["rho_assigned"].tolist() == [0, 0]
    assert gold.expert_index.to_dict() == {"A": 2, "B": 1, "C": 2}


def test_earlier_category_of_the_same_item_counts():
    # i1: all four judge; x: 3 vs 1 (A, B, C win), y: 2 vs 2 tie.  At the y tie, rho already
    # includes the x decision of the same item: Y = {A, D} rho 1 + 0 = 1, N = {B, C} rho 2.
    rows = [("i1", "A", {"x", "y"}), ("i1", "B", {"x"}), ("i1", "C", {"x"}), ("i1", "D", {"y"})]
    gold = gold_standard(_ann(rows))
    assert gold.ties[["rho_assigned", "rho_not_assigned"]].values.tolist() == [[1, 2]]
    assert gold.labels["i1"] == frozenset({"x"})


def test_download_frame():
    frame = gold_standard(_ann(ROWS)).to_frame()
    assert frame.columns.tolist() == ["item", "labels", "tie_broken", "unresolved"]
    assert frame.set_index("item").loc["i2"].tolist() == ["y", "x;y", ""]
    assert frame.set_index("item").loc["i1"].tolist() == ["x", "", ""]


@pytest.mark.parametrize("seed", range(8))
def test_equals_plain_loop_of_algorithm_1(seed):
    x, judged = random_data(seed, n_i=40, n_u=4, n_c=4, p=0.45, p_missing=0.3)
    judged[judged.sum(axis=1) == 0, 0] = True  # every item judged by someone
    expect, rho, outcomes = loop_gold(x, judged)
    gold = gold_standard(from_array(x, judged))
    assert gold.matrix.to_numpy().tolist() == expect.tolist()
    assert [gold.expert_index.get(f"u{u}", 0) for u in range(4)] == rho
    got = {(int(r.item[1:]), int(r.category[1:])): r.outcome for r in gold.ties.itertuples()}
    assert got == outcomes
    assert outcomes  # the data do contain ties


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_invariant_to_renaming_categories_and_reordering_annotators(seed):
    # (Reordering *categories* is not an invariance: Algorithm 1 walks them in order.)
    x, judged = random_data(seed, n_i=15, n_u=4, n_c=3, p=0.5, p_missing=0.25)
    judged[:, 0] = True
    base = gold_standard(from_array(x, judged, categories=["p", "q", "r"]))
    perm = np.random.default_rng(seed).permutation(4)
    moved = gold_standard(
        from_array(
            x[:, perm],
            judged[:, perm],
            categories=["P", "Q", "R"],
            annotators=[f"u{k}" for k in perm],
        )
    )
    upper = {i: frozenset(c.upper() for c in s) for i, s in base.labels.items()}
    assert moved.labels.to_dict() == upper
    assert moved.expert_index.sort_index().to_dict() == base.expert_index.sort_index().to_dict()
    assert len(moved.ties) == len(base.ties)


def test_the_download_joins_sets_with_a_separator_no_category_holds():
    """A category 'b;c' joined with ';' read back as two categories."""
    import pandas as pd

    from analytics import Annotations
    from analytics.multilabel import gold_standard

    df = pd.DataFrame(
        {
            "item": ["i", "i", "j", "j"],
            "annotator": ["x", "y", "x", "y"],
            "label": [frozenset({"a", "b;c"})] * 2 + [frozenset("a")] * 2,
        }
    )
    frame = gold_standard(Annotations.from_frame(df)).to_frame()
    assert frame["labels"].tolist() == ["a|b;c", "a"]


def test_the_download_with_a_category_holding_a_semicolon_reads_back_as_gold():
    """Joined with '|' because 'p;q' is a category; per_category_gold had split on ';'."""
    import io

    import pandas as pd

    from analytics import Annotations
    from analytics.data import read_gold_labels
    from analytics.dawid_skene import fit_per_category, per_category_gold
    from analytics.multilabel import gold_standard

    rows = [
        (f"i{i}", a, frozenset({"p;q"} if (i + ord(a)) % 3 else {"r"}))
        for i in range(40)
        for a in "xyz"
    ]
    ann = Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))
    upload = io.BytesIO(gold_standard(ann).to_frame().to_csv(index=False).encode())
    upload.name = "gold.csv"
    scored = per_category_gold(fit_per_category(ann), read_gold_labels(upload))
    assert scored.loc["whole set", "gold_items"] == 40
