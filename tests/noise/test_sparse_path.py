"""The noise bound's one-entry-per-judgement path equals the dense items x annotators reading.

Issue 17.10: the dense table was 200,000,000 cells at 1,000,000 judgements x 1,000
annotators. This checks the sparse path against a direct dense computation of footnote 3.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics import Annotations
from analytics.noise import noise_from_annotations


def dense_reference(ann: Annotations):
    wide = np.full((ann.n_items, ann.n_annotators), -1)
    for i, j, lab in zip(ann.item_codes, ann.annotator_codes, ann.label_codes, strict=True):
        wide[i, j] = lab  # a repeat keeps the last
    judged = wide >= 0
    eligible = judged.sum(axis=1) >= 2
    wide, judged = wide[eligible], judged[eligible]
    agreed = np.array([len(set(r[r >= 0])) == 1 for r in wide], dtype=bool)
    k = ann.n_categories
    counts = np.zeros((ann.n_annotators, k))
    for r in wide[~agreed]:
        for j in np.flatnonzero(r >= 0):
            counts[j, r[j]] += 1
    totals = counts.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):  # no disagreed item: no rates
        pooled = counts.sum(axis=0) / counts.sum()
    rates = np.where(totals[:, None] == 0, pooled, counts / np.maximum(totals, 1)[:, None])
    p = np.array([sum(np.prod(rates[judged[i], c]) for c in range(k)) for i in range(len(wide))])
    return len(wide), int((~agreed).sum()), p


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n_items=st.integers(4, 25),
    n_ann=st.integers(2, 6),
    repeats=st.booleans(),
)
def test_sparse_path_equals_the_dense_reading(seed, n_items, n_ann, repeats):
    rng = np.random.default_rng(seed)
    rows = [
        (f"i{i}", f"a{j}", "xyz"[rng.integers(0, 3)])
        for i in range(n_items)
        for j in range(n_ann)
        if rng.random() < 0.7
    ]
    if repeats and rows:
        rows += [(r[0], r[1], "xyz"[rng.integers(0, 3)]) for r in rows[: len(rows) // 3]]
    df = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    if df.empty:
        return
    ann = Annotations.from_frame(df, duplicates="keep" if repeats else "error")
    result = noise_from_annotations(ann)
    n, d, p = dense_reference(ann)
    assert (result.n_items, result.n_disagreed) == (n, d)
    if result.ok or (0 < d < n):
        assert result.items["p"].to_numpy() == pytest.approx(p)


@pytest.mark.parametrize("uneven", [False, True])
@pytest.mark.parametrize("confidence", [0.8, 0.99, 0.999])
def test_reading_at_another_confidence_equals_estimating_again(uneven, confidence):
    rng = np.random.default_rng(7)
    rows = []
    for i in range(300):
        panel = rng.choice(6, 3 if uneven else 6, replace=False)
        truth = rng.integers(0, 3)
        rows += [
            (f"i{i}", f"a{a}", "xyz"[truth if rng.random() < 0.85 else rng.integers(0, 3)])
            for a in panel
        ]
    ann = Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))
    base = noise_from_annotations(ann, 0.95)
    assert base.uneven is uneven
    fresh = noise_from_annotations(ann, confidence)
    moved = base.at_confidence(confidence)
    for name in ("t0", "hidden_hard", "gamma", "expected_hidden", "tail_at_t0", "confidence"):
        assert getattr(moved, name) == pytest.approx(getattr(fresh, name)), name
    pd.testing.assert_series_equal(moved.posterior, fresh.posterior)
    assert moved.explain() == fresh.explain()
