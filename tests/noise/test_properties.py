"""Property tests: how the noise bound must move with d, n, confidence and p."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics.noise import max_disagreements, noise_bound

probabilities = st.floats(min_value=0.0, max_value=0.99)
confidences = st.floats(min_value=0.5, max_value=0.999)


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 3000), data=st.data(), p=probabilities, conf=confidences)
def test_gamma_grows_with_d(n, data, p, conf):
    """More disagreements, more suspicion: t0 never falls as d grows, and neither does
    gamma while it is at most 1/2 (see the next test for the wobble near the cap)."""
    d1 = data.draw(st.integers(0, n - 2))
    d2 = data.draw(st.integers(d1, n - 1))
    a, b = noise_bound(n, d1, p, conf), noise_bound(n, d2, p, conf)
    assert a.t0 <= b.t0
    if a.gamma <= 0.5:
        assert a.gamma <= b.gamma + 1e-12
    # t0 monotone implies gamma can fall by at most one item's worth per step
    if d2 == d1 + 1:
        assert b.gamma >= a.gamma - 1 / (n - d1) - 1e-12


def test_gamma_wobbles_down_near_its_cap():
    """A counterexample worth knowing: n = 20, p = 0.25. d = 11 gives t0 = 19, 8 of 9
    agreed items; d = 12 gives t0 = 19 too, 7 of 8: gamma falls from 0.889 to 0.875.
    t0 itself never falls; gamma only wobbles when the bound is near n - d (a scan of
    n <= 160, ten p and three confidences found drops only from gamma >= 0.57)."""
    a, b = noise_bound(20, 11, 0.25), noise_bound(20, 12, 0.25)
    assert (a.t0, a.hidden_hard, b.t0, b.hidden_hard) == (19, 8, 19, 7)
    assert b.gamma < a.gamma


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 3000), data=st.data(), p=probabilities, c1=confidences, c2=confidences)
def test_gamma_grows_with_confidence(n, data, p, c1, c2):
    d = data.draw(st.integers(0, n - 1))
    lo, hi = sorted((c1, c2))
    assert noise_bound(n, d, p, lo).gamma <= noise_bound(n, d, p, hi).gamma


@settings(max_examples=60, deadline=None)
@given(
    d=st.integers(0, 2000), p=probabilities, extra=st.integers(0, 5000), more=st.integers(1, 5000)
)
def test_gamma_falls_with_n(d, p, extra, more):
    """More agreed items, same disagreements: the share of coin-flips falls, as long as the
    cut at n - d does not bind (n beyond the posterior's reach; see the next test)."""
    r = d + 1
    reach = r * p / (1 - p) + 60 * math.sqrt(r * p) / (1 - p) + 100
    n = d + math.ceil(reach) + extra
    assert noise_bound(n + more, d, p).gamma <= noise_bound(n, d, p).gamma


def test_gamma_can_rise_with_n_when_the_cut_binds():
    """A counterexample worth knowing: with one agreed item, t0 - d can only be 0 or 1, so
    adding a second agreed item can lift gamma from 0 to 1/2 (the bound was capped by
    n - d before)."""
    one, two = noise_bound(2, 1, 0.026), noise_bound(3, 1, 0.026)
    assert one.gamma == 0.0 and two.gamma == 0.5


@settings(max_examples=80, deadline=None)
@given(n=st.integers(1, 4000), data=st.data(), p=probabilities, conf=confidences)
def test_t0_is_the_first_crossing(n, data, p, conf):
    d = data.draw(st.integers(0, n - 1))
    r = noise_bound(n, d, p, conf)
    assert d <= r.t0 <= n and 0 <= r.hidden_hard <= n - d
    assert r.tail_at_t0 < 1 - conf
    tail = r.tail()
    if r.t0 - 1 in tail.index:
        assert tail.loc[r.t0 - 1] >= 1 - conf - 1e-12
    assert 0 <= r.gamma <= 1
    assert abs(r.posterior.sum() - 1) < 1e-9


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 2000), data=st.data(), p1=probabilities, p2=probabilities)
def test_gamma_grows_with_p(n, data, p1, p2):
    d = data.draw(st.integers(0, n - 1))
    lo, hi = sorted((p1, p2))
    assert noise_bound(n, d, lo).gamma <= noise_bound(n, d, hi).gamma + 1e-12


def test_t0_monotone_in_d_and_max_disagreements_exhaustively_for_small_n():
    """max_disagreements' binary search against a linear scan for every n <= 60."""
    for n in range(2, 61):
        for p in (0.05, 0.25, 0.5, 0.8, 0.97):
            rs = [noise_bound(n, d, p) for d in range(n)]
            assert np.all(np.diff([r.t0 for r in rs]) >= 0), (n, p)
            g = np.array([r.gamma for r in rs])
            for target in (0.02, 0.1, 0.3, 0.5):
                over = np.flatnonzero(g > target)
                expected = (over[0] - 1) if len(over) else n - 1
                assert max_disagreements(n, p, target).max_disagreed == expected, (n, p, target)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(10, 3000), p=st.floats(0.01, 0.9), target=st.floats(0.01, 0.5))
def test_max_disagreements_is_the_largest(n, p, target):
    m = max_disagreements(n, p, target)
    if m.max_disagreed < 0:
        assert noise_bound(n, 0, p).gamma > target
        return
    assert noise_bound(n, m.max_disagreed, p).gamma <= target
    if m.max_disagreed + 1 < n:
        assert noise_bound(n, m.max_disagreed + 1, p).gamma > target


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 6000), data=st.data(), p=st.floats(0.0, 0.995))
def test_per_item_generalisation_equals_equation_1(n, data, p):
    """With every p_i = p the mixture over theta is the paper's equation (1)."""
    from analytics.noise import equation1_posterior, hidden_hard_posterior

    d = data.draw(st.integers(0, n - 1))
    eq_off, eq_pmf = equation1_posterior(n, d, p)
    post = hidden_hard_posterior(np.full(n - d, p), d, method="exact")
    a = np.zeros(n - d + 1)
    b = np.zeros(n - d + 1)
    a[eq_off : eq_off + len(eq_pmf)] = eq_pmf
    b[post.offset : post.offset + len(post.pmf)] = post.pmf
    assert np.abs(a - b).max() < 1e-8
