"""Crowd-sized pairwise views: clustered order and windows (issue 17, point 4)."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics import AnnotationDataError
from analytics.agreement import ORDERS, annotator_order, pairwise_window
from analytics.agreement.tables import Pairwise


def two_groups(n: int, seed: int = 0) -> Pairwise:
    """Annotators a0..: even ones agree among themselves, odd ones too, across groups not."""
    rng = np.random.default_rng(seed)
    names = [f"a{i}" for i in range(n)]
    group = np.arange(n) % 2
    v = np.where(group[:, None] == group[None, :], 0.8, 0.1) + rng.normal(0, 0.02, (n, n))
    v = (v + v.T) / 2
    np.fill_diagonal(v, np.nan)
    values = pd.DataFrame(v, index=names, columns=names)
    counts = np.full((n, n), 10)
    np.fill_diagonal(counts, np.arange(n) + 5)
    shared = pd.DataFrame(counts, index=names, columns=names)
    return Pairwise(values, shared, "cohen_kappa")


def test_clustering_puts_each_group_together():
    pw = two_groups(60)
    order = annotator_order(pw, "clustered")
    groups = [int(a[1:]) % 2 for a in order]
    # one switch between the two blocks: the first 30 are one group, the last 30 the other
    assert sum(g != h for g, h in pairwise(groups)) == 1


def test_other_orders():
    pw = two_groups(5)
    assert annotator_order(pw, "as loaded") == list(pw.values.index)
    assert annotator_order(pw, "most shared items") == ["a4", "a3", "a2", "a1", "a0"]
    with pytest.raises(AnnotationDataError, match="unknown annotator order"):
        annotator_order(pw, "by vibes")
    assert set(ORDERS) == {"clustered", "most shared items", "as loaded"}


def test_pairs_without_a_value_do_not_break_the_clustering():
    pw = two_groups(8)
    pw.values.iloc[0, 1:] = np.nan
    pw.values.iloc[1:, 0] = np.nan
    assert sorted(annotator_order(pw)) == sorted(pw.values.index)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(3, 30), seed=st.integers(0, 10_000))
def test_order_is_a_permutation_and_the_window_keeps_values(n, seed):
    pw = two_groups(n, seed)
    order = annotator_order(pw)
    assert sorted(order) == sorted(pw.values.index)
    part = order[: max(2, n // 3)]
    win = pairwise_window(pw, part)
    assert list(win.values.index) == part == list(win.values.columns)
    a, b = part[0], part[1]
    assert win.values.loc[a, b] == pw.values.loc[a, b]
    assert win.shared.loc[a, a] == pw.shared.loc[a, a]
