"""The random starts of ``init="best"`` and ``"random"`` are drawn in the sorted order of the
item and category names, so the row order of a file cannot change the fit.

Before (issue 15's review, "Gold labels you can trust"), the jittered starts were drawn in
code order, which is first-seen (row) order: act_MS in another row order gave another fit,
112 labels apart, log-likelihood -4364.7 against -4356.1, accuracy 0.761 against 0.713.
"""

from __future__ import annotations

import pandas as pd
import pytest

from analytics import Annotations
from analytics.dawid_skene import fit
from tests.helpers.paths import load_public
from tests.models.helpers import assert_same_fit, reordered


@pytest.mark.parametrize("init", ["best", "random"])
def test_act_ms_in_another_row_order_gets_the_same_fit(init):
    labels, _ = load_public("act_MS")
    base = fit(Annotations.from_frame(labels), init=init)
    for frame in reordered(labels):
        other = Annotations.from_frame(frame)
        assert list(other.items) != list(base.items)
        assert list(other.annotators) != list(base.annotators)
        assert_same_fit(base, fit(other, init=init))


def test_a_random_start_follows_the_names_not_the_rows():
    """``max_iter=0, finish="m_step"`` returns the start itself: the same posteriors for the
    same items whatever order their rows, annotators and labels come in."""
    rows = [(i, a, "xyz"[(i * 7 + ord(a)) % 3]) for i in range(9) for a in "pqr"]
    frame = pd.DataFrame(rows, columns=["item", "annotator", "label"]).astype(str)
    settings = {"init": "random", "max_iter": 0, "finish": "m_step", "seed": 4}
    base = fit(Annotations.from_frame(frame), **settings).posteriors
    for other in reordered(frame):
        start = fit(Annotations.from_frame(other), **settings).posteriors
        assert list(start.columns) != list(base.columns) or list(start.index) != list(base.index)
        pd.testing.assert_frame_equal(start.loc[base.index, base.columns], base, atol=1e-15)
