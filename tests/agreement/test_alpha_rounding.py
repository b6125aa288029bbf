"""Interval and ordinal alpha: no cancellation far from 0, and NaN (not 1) for one value."""

from __future__ import annotations

import krippendorff
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics import load_annotations
from analytics.agreement import krippendorff_alpha


def _two_raters(a, b):
    n = len(a)
    return pd.DataFrame(
        {"item": list(range(n)) * 2, "annotator": ["r1"] * n + ["r2"] * n, "label": [*a, *b]}
    )


@pytest.mark.parametrize("offset", [0.0, 1e3, 1e5, 1e8])
def test_interval_alpha_does_not_move_with_a_constant_added(offset):
    """The one-pass expected disagreement, 2 (n sum n_c v^2 - (sum n_c v)^2), cancelled:
    at an offset of 1e5 it read 0.7565 where the alpha is 0.7609, and at 1e8 with few items
    NaN "every judgement has the same value". Alpha of the offset data equals the oracle's
    and the alpha of the data without the offset (up to the labels' own rounding)."""
    a = [0.01, 0.02, 0.03, 0.02, 0.01, 0.03]
    b = [0.01, 0.03, 0.03, 0.02, 0.02, 0.03]
    shifted_a, shifted_b = ([x + offset for x in v] for v in (a, b))
    ann = load_annotations(_two_raters(shifted_a, shifted_b), kind="numeric")
    ours = float(krippendorff_alpha(ann, "interval"))
    oracle = krippendorff.alpha(
        reliability_data=[shifted_a, shifted_b], level_of_measurement="interval"
    )
    assert ours == pytest.approx(oracle, rel=1e-9)
    assert ours == pytest.approx(0.7608695652173914, abs=1e-7)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), min_size=3, max_size=15),
    st.sampled_from([1e4, 1e6, 123456.789]),
    st.sampled_from([0.01, 0.37, 3.0]),
)
def test_interval_alpha_matches_the_oracle_far_from_zero(pairs, offset, scale):
    a = [offset + scale * x for x, _ in pairs]
    b = [offset + scale * y for _, y in pairs]
    oracle_data = [[scale * x for x, _ in pairs], [scale * y for _, y in pairs]]
    if len({*a, *b}) < 2:
        return
    ours = float(krippendorff_alpha(load_annotations(_two_raters(a, b), kind="numeric"),
                                    "interval"))  # fmt: skip
    # the oracle on the values without the offset: alpha does not depend on it
    oracle = krippendorff.alpha(reliability_data=oracle_data, level_of_measurement="interval")
    assert ours == pytest.approx(oracle, rel=1e-6, abs=1e-6)


@pytest.mark.parametrize("value", [0.1, 0.3, 1 / 3, 12.7])
@pytest.mark.parametrize("items", [3, 7])
def test_one_repeated_number_gives_nan_not_perfect_interval_alpha(value, items):
    """A residue of 1e-15 in the expected disagreement had made alpha 1.0."""
    df = pd.DataFrame(
        {
            "item": np.repeat(np.arange(items), 2),
            "annotator": ["a", "b"] * items,
            "label": [value] * (2 * items),
        }
    )
    coef = krippendorff_alpha(load_annotations(df, kind="numeric"), "interval")
    assert np.isnan(float(coef)) and "same value" in coef.note


@pytest.mark.parametrize("shape", [(6, 6), (6, 9), (7, 7)])
def test_one_used_category_gives_nan_not_perfect_ordinal_alpha(shape):
    """Coincidence weights 1/(m - 1) that are not exact left a residue in the midranks."""
    items, annotators = shape
    df = pd.DataFrame(
        [(i, a, "lo") for i in range(items) for a in range(annotators)],
        columns=["item", "annotator", "label"],
    )
    ann = load_annotations(df, kind="ordinal", categories=["lo", "hi"])
    coef = krippendorff_alpha(ann, "ordinal")
    assert np.isnan(float(coef)) and "same value" in coef.note
