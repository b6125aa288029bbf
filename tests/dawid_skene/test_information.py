"""Mutual information: the paper's example (and its misprints), an independent
computation, spam/perfect annotators, bounds and invariance."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from analytics.dawid_skene import mutual_information
from analytics.dawid_skene.information import conditional_entropy, entropy

PI = [0.2, 0.8]
THETAS = [
    [[0.75, 0.25], [0.40, 0.60]],
    [[0.65, 0.35], [0.30, 0.70]],
    [[0.90, 0.10], [0.20, 0.80]],
]


def loop_mi(theta, pi) -> tuple[float, float]:
    """H[Z|Y] and I[Z;Y] the way the paper defines them, with loops and Bayes' rule."""
    k = len(pi)
    h_z = -sum(p * math.log(p) for p in pi if p > 0) / math.log(2)
    h_cond = 0.0
    for y in range(k):
        p_y = sum(pi[z] * theta[z][y] for z in range(k))
        if p_y == 0:
            continue
        h = 0.0
        for z in range(k):
            post = pi[z] * theta[z][y] / p_y
            if post > 0:
                h -= post * math.log(post) / math.log(2)
        h_cond += p_y * h
    return h_cond, h_z - h_cond


def test_paper_example_exact_values():
    """Section 2.2.2 prints H[Z|Y] = 0.71, 0.60, 0.47 and I = 0.01, 0.13, 0.25.

    Exact values (two ways: H[Z]-H[Z|Y] with Bayes' rule in loops, and H[Y]-H[Y|Z] in
    the library): 0.664/0.058, 0.663/0.059 and 0.468/0.253 bits. Only the third
    annotator's printed pair is right; annotators 1 and 2 are in fact almost equally
    informative. The printed pairs do all add up to H[Z] = 0.72 bits.
    """
    exact = [
        (0.6635426067751844, 0.0583854881121779),
        (0.6631023326599486, 0.0588257622274136),
        (0.4684509845420786, 0.2534771103452838),
    ]
    h_z = entropy(PI)
    assert h_z == pytest.approx(0.7219280948873623)
    for theta, (h_c, mi) in zip(THETAS, exact, strict=True):
        assert loop_mi(theta, PI) == pytest.approx((h_c, mi), abs=1e-12)
        assert conditional_entropy(theta, PI) == pytest.approx(h_c, abs=1e-12)
        assert mutual_information(theta, PI) == pytest.approx(mi, abs=1e-12)
    printed = [(0.71, 0.01), (0.60, 0.13), (0.47, 0.25)]
    ok = [
        abs(h_c - p_h) < 0.005 and abs(mi - p_mi) < 0.005
        for (h_c, mi), (p_h, p_mi) in zip(exact, printed, strict=True)
    ]
    assert ok == [False, False, True]
    for p_h, p_mi in printed:  # internally they sum to H[Z] (to rounding)
        assert p_h + p_mi == pytest.approx(h_z, abs=0.011)


def test_spam_and_perfect_annotators():
    spam = np.array([[0.9, 0.1], [0.9, 0.1]])
    assert mutual_information(spam, PI) == pytest.approx(0.0, abs=1e-15)
    assert mutual_information(np.eye(2), PI) == pytest.approx(entropy(PI))
    # a perfect relabeller (always swaps) is just as informative
    assert mutual_information(np.eye(2)[::-1], PI) == pytest.approx(entropy(PI))


def test_stack_dataframe_and_degenerate_inputs():
    stack = mutual_information(np.array(THETAS), np.array(PI))
    assert stack.shape == (3,)
    assert stack == pytest.approx([mutual_information(t, PI) for t in THETAS])
    df = pd.DataFrame(THETAS[2], index=["a", "b"], columns=["a", "b"])
    assert mutual_information(df, pd.Series(PI)) == pytest.approx(stack[2])
    assert math.isnan(mutual_information([[1.0]], [1.0]))
    with pytest.raises(ValueError, match="sum to 1"):
        mutual_information([[0.5, 0.2], [0.5, 0.5]], PI)
    with pytest.raises(ValueError, match="prevalence"):
        mutual_information(THETAS[0], [0.2, 0.3, 0.5])


def _stochastic(k):
    return (
        arrays(float, (k, k), elements=st.floats(0.0, 1.0))
        .filter(lambda a: (a.sum(axis=1) > 1e-3).all())
        .map(lambda a: a / a.sum(axis=1, keepdims=True))
    )


@settings(max_examples=150, deadline=None)
@given(
    st.integers(2, 5).flatmap(
        lambda k: st.tuples(
            _stochastic(k),
            arrays(float, (k,), elements=st.floats(0.0, 1.0)).filter(lambda v: v.sum() > 1e-3),
            st.permutations(list(range(k))),
        )
    )
)
def test_bounds_and_permutation_invariance(args):
    theta, pi, perm = args
    pi = pi / pi.sum()
    mi = mutual_information(theta, pi)
    h_y = entropy(pi @ theta)
    assert -1e-12 <= mi <= min(entropy(pi), h_y) + 1e-9
    assert mi == pytest.approx(loop_mi(theta.tolist(), pi.tolist())[1], abs=1e-9)
    p = np.array(perm)
    # renaming the true categories (rows + prevalence) or the labels (columns)
    assert mutual_information(theta[p], pi[p]) == pytest.approx(mi, abs=1e-12)
    assert mutual_information(theta[:, p], pi) == pytest.approx(mi, abs=1e-12)
