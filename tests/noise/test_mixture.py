"""Poisson-binomials and the per-item generalisation of equation (1)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import integrate

from analytics.noise import equation1_posterior, hidden_hard_posterior
from analytics.noise.poisson_binomial import pb_moments, poisson_binomial_pmf, refined_normal_cdf


def dp_pmf(p: np.ndarray) -> np.ndarray:
    """Plain dynamic programme over coins, the textbook reference."""
    out = np.zeros(len(p) + 1)
    out[0] = 1.0
    for x in p:
        out[1:] = out[1:] * (1 - x) + out[:-1] * x
        out[0] *= 1 - x
    return out


def full(offset: int, pmf: np.ndarray, size: int) -> np.ndarray:
    out = np.zeros(size)
    out[offset : offset + len(pmf)] = pmf
    return out


# ---------------------------------------------------------------------- Poisson-binomial
@pytest.mark.parametrize("seed", range(5))
def test_pb_pmf_against_dynamic_programme(seed):
    rng = np.random.default_rng(seed)
    p = np.concatenate([rng.uniform(0, 1, 40), [0.0, 1.0, 0.5, 0.5]])
    offset, pmf = poisson_binomial_pmf(p)
    assert full(offset, pmf, len(p) + 1) == pytest.approx(dp_pmf(p), abs=1e-14)


def test_pb_grouped_equals_ungrouped():
    uniq = np.array([0.1, 0.5, 0.93])
    counts = np.array([30, 7, 12])
    off_g, pmf_g = poisson_binomial_pmf(uniq, counts)
    expanded = np.repeat(uniq, counts)
    assert full(off_g, pmf_g, 50) == pytest.approx(dp_pmf(expanded), abs=1e-14)
    mean, var, third = pb_moments(uniq, counts)
    k = np.arange(50)
    ref = dp_pmf(expanded)
    assert mean == pytest.approx(ref @ k)
    assert var == pytest.approx(ref @ (k - mean) ** 2)
    assert third == pytest.approx(ref @ (k - mean) ** 3)


def test_pb_window_on_a_large_sum():
    p = np.full(5000, 0.3)
    offset, pmf = poisson_binomial_pmf(p)
    assert offset > 0 and offset + len(pmf) < 5001  # only the window around 1500
    from scipy import stats

    ref = stats.binom.pmf(np.arange(offset, offset + len(pmf)), 5000, 0.3)
    assert pmf == pytest.approx(ref, abs=1e-13)  # DFT: absolute, not relative, accuracy


def test_refined_normal_close_for_large_sums():
    rng = np.random.default_rng(3)
    p = rng.uniform(0.05, 0.6, 3000)
    ref = np.cumsum(dp_pmf(p))
    mean, var, third = pb_moments(p)
    k = np.arange(len(ref))
    assert np.abs(refined_normal_cdf(k, mean, var, third) - ref).max() < 2e-4
    assert refined_normal_cdf(np.array([2, 3]), 3.0, 0.0, 0.0).tolist() == [0.0, 1.0]


# ---------------------------------------------------------------------- the mixture
def exact_mixture(p_agreed: list[Fraction], d: int) -> list[Fraction]:
    """P(J = j | data) ∝ e_j(p) (d + j)! (n_A - j)!, in rationals.

    From integrating theta^(d + j) (1 - theta)^(n_A - j) times prod_{i in H} p_i over
    theta ~ U(0, 1) and over the sets H of j hidden hard items.
    """
    n_a = len(p_agreed)
    e = [Fraction(1)] + [Fraction(0)] * n_a  # elementary symmetric polynomials
    for x in p_agreed:
        for j in range(n_a, 0, -1):
            e[j] += e[j - 1] * x
    w = [e[j] * math.factorial(d + j) * math.factorial(n_a - j) for j in range(n_a + 1)]
    total = sum(w)
    return [x / total for x in w]


def quad_mixture(p_agreed: np.ndarray, d: int) -> np.ndarray:
    """The model integrated numerically over theta, hidden sets enumerated: checks the
    closed form above from first principles (independent of both implementations)."""
    n_a = len(p_agreed)
    q = 1 - p_agreed

    def density(theta: float) -> float:
        return theta**d * np.prod(1 - theta * q)

    def joint(theta: float, j: int) -> float:
        pi = theta * p_agreed / (theta * p_agreed + 1 - theta)
        total = 0.0
        for hard in itertools.combinations(range(n_a), j):
            mask = np.zeros(n_a, bool)
            mask[list(hard)] = True
            total += np.prod(np.where(mask, pi, 1 - pi))
        return density(theta) * total

    vals = np.array(
        [integrate.quad(joint, 0, 1, args=(j,), epsabs=1e-14)[0] for j in range(n_a + 1)]
    )
    return vals / vals.sum()


def test_closed_form_oracle_matches_first_principles():
    p = [Fraction(1, 2), Fraction(1, 10), Fraction(3, 4), Fraction(1, 3), Fraction(1, 3)]
    exact = np.array([float(x) for x in exact_mixture(p, 3)])
    assert quad_mixture(np.array([float(x) for x in p]), 3) == pytest.approx(exact, abs=1e-10)


@pytest.mark.parametrize(
    ("p", "d"),
    [
        ([Fraction(1, 2), Fraction(1, 10), Fraction(3, 4), Fraction(1, 3)] * 5, 4),
        ([Fraction(1, 16)] * 10 + [Fraction(1, 4)] * 15 + [Fraction(1, 2)] * 3, 9),
        ([Fraction(k, 41) for k in range(1, 41)], 0),
        ([Fraction(0), Fraction(1), Fraction(1, 2)] * 6, 2),
    ],
)
def test_mixture_against_rationals(p, d):
    exact = np.array([float(x) for x in exact_mixture(p, d)])
    post = hidden_hard_posterior(np.array([float(x) for x in p]), d)
    assert post.method == "exact"
    assert full(post.offset, post.pmf, len(p) + 1) == pytest.approx(exact, abs=1e-12)


@pytest.mark.parametrize("d", [0, 3, 40, 140])
def test_composite_rule_against_rationals(d, monkeypatch):
    """The composite rule on theta's window (used beyond n = 2047), forced here on a size
    the rational oracle can afford."""
    import analytics.noise.mixture as nm

    monkeypatch.setattr(nm, "MAX_FULL_NODES", 24)  # single exact rule only up to n = 47
    rng = np.random.default_rng(11 + d)
    fr = [Fraction(int(k), 200) for k in rng.integers(1, 199, 150)]
    exact = np.array([float(x) for x in exact_mixture(fr, d)])
    post = hidden_hard_posterior(np.array([float(x) for x in fr]), d)
    got = full(post.offset, post.pmf, len(fr) + 1)
    assert got == pytest.approx(exact, abs=1e-10)


@pytest.mark.parametrize(
    ("n", "d", "p"),
    [
        (30, 4, 0.5),
        (90, 20, 0.47),
        (1000, 100, 0.5),
        (992, 121, 0.47),
        (5000, 700, 0.0625),
        (2000, 0, 0.3),
        (400, 390, 0.8),
        (20_000, 3000, 0.25),
    ],
)
def test_equal_p_is_equation_1(n, d, p):
    """The generalisation reduces to the paper's equation (1) when every p_i = p."""
    eq_off, eq_pmf = equation1_posterior(n, d, p)
    post = hidden_hard_posterior(np.full(n - d, p), d)
    size = n - d + 1
    assert full(post.offset, post.pmf, size) == pytest.approx(full(eq_off, eq_pmf, size), abs=1e-10)


def test_refined_normal_mixture_close_to_exact():
    rng = np.random.default_rng(5)
    p = rng.choice(rng.uniform(0.1, 0.5, 40), 4000)
    exact = hidden_hard_posterior(p, 1200, method="exact")
    approx = hidden_hard_posterior(p, 1200, method="refined normal")
    assert approx.method == "refined normal"
    size = 4001
    assert (
        np.abs(
            np.cumsum(full(exact.offset, exact.pmf, size))
            - np.cumsum(full(approx.offset, approx.pmf, size))
        ).max()
        < 1e-3
    )
    q_exact = exact.offset + np.argmax(exact.tail() < 0.05)
    q_approx = approx.offset + np.argmax(approx.tail() < 0.05)
    assert abs(q_exact - q_approx) <= 1


def test_order_of_items_does_not_matter():
    rng = np.random.default_rng(2)
    p = rng.uniform(0, 1, 300)
    a = hidden_hard_posterior(p, 50)
    b = hidden_hard_posterior(p[::-1].copy(), 50)
    assert a.offset == b.offset
    assert a.pmf == pytest.approx(b.pmf, abs=1e-14)


def test_no_agreed_items_and_bad_method():
    assert hidden_hard_posterior(np.array([]), 5).pmf.tolist() == [1.0]
    with pytest.raises(ValueError, match="unknown method"):
        hidden_hard_posterior(np.full(10, 0.5), 2, method="magic")


# ---------------------------------------------------------------------- power sums
@pytest.mark.parametrize("top", [0.01, 0.2, 0.35])
def test_power_sum_series_equals_complex_logs(top):
    from analytics.noise.poisson_binomial import (
        log_characteristic,
        log_characteristic_series,
        series_terms,
    )

    rng = np.random.default_rng(7)
    p = rng.uniform(0, top, 3000)
    c = rng.integers(1, 20, 3000).astype(float)
    k = series_terms(float(p.max()), float(c.sum()))
    assert k <= 200
    a = log_characteristic(p, c, 512)
    b = log_characteristic_series(p, c, 512, k)
    assert np.abs(np.exp(a) - np.exp(b)).max() < 1e-12


def test_series_terms_refuses_divergent_series():
    from analytics.noise.poisson_binomial import MAX_SERIES_TERMS, series_terms

    assert series_terms(0.5, 100) == MAX_SERIES_TERMS + 1
    assert series_terms(0.0, 100) == 1
    assert series_terms(0.1, 1e5) < series_terms(0.3, 1e5)


def test_mixture_with_and_without_power_sums():
    rng = np.random.default_rng(9)
    p = rng.choice(rng.uniform(0.001, 0.3, 500), 3000)
    a = hidden_hard_posterior(p, 300, method="exact")
    b = hidden_hard_posterior(p, 300, method="exact", power_sums=False)
    assert a.offset == b.offset
    assert a.pmf == pytest.approx(b.pmf, abs=1e-13)
