"""Equation (1) and the number-only calculations of Beigman Klebanov & Beigman (2009).

Every printed number of the paper is tested; where the exact computation differs from
the print, the exact value is tested and the difference is written here and in
docs/noise.md. The oracle is exact rational arithmetic (fractions.Fraction).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from analytics import AnnotationDataError
from analytics.noise import (
    adding_annotators,
    agreement_probability,
    chance_difference,
    equation1_posterior,
    kappa_noise_estimate,
    max_disagreements,
    noise_bound,
)
from analytics.noise.bound import closed_form_bound


# ---------------------------------------------------------------------- exact oracle
def exact_weights(n: int, d: int, p: Fraction, prior=None) -> dict[int, Fraction]:
    """C(h, d) p^(h - d) P(B_h) for h = d..n, in rationals (equation 1's numerator)."""
    return {
        h: math.comb(h, d) * p ** (h - d) * (Fraction(1) if prior is None else Fraction(prior[h]))
        for h in range(d, n + 1)
    }


def exact_tail(w: dict[int, Fraction], t: int) -> Fraction:
    total = sum(w.values())
    return sum(v for h, v in w.items() if h > t) / total


def exact_t0(n: int, d: int, p: Fraction, confidence: Fraction, prior=None) -> int:
    w = exact_weights(n, d, p, prior)
    total = sum(w.values())
    above = total  # sum of w[h] for h > t, walking t up from d - 1
    for t in range(d, n + 1):
        above -= w[t]
        if above / total < 1 - confidence:
            return t
    raise AssertionError("unreachable: P(X > n) = 0")


# ---------------------------------------------------------------------- the paper's examples
def test_section_3_1_two_annotators():
    """n = 1000, d = 100, p = 0.5, 95%: t0 = 225, gamma = 125/900.

    The paper prints gamma = 13.8%; 125/900 = 13.89%, so the print truncates (or used
    124/900). Its sentence "with more than 5% probability up to 125 agreements are due to
    coin-flipping" matches P(X > 224) >= 0.05 > P(X > 225), checked exactly here.
    """
    r = noise_bound(1000, 100, 0.5, 0.95)
    assert (r.t0, r.hidden_hard, r.n_agreed) == (225, 125, 900)
    assert r.gamma == pytest.approx(125 / 900)
    assert round(r.gamma, 3) == 0.139  # not the printed 0.138
    w = exact_weights(1000, 100, Fraction(1, 2))
    assert exact_tail(w, 224) >= Fraction(1, 20) > exact_tail(w, 225)
    assert r.tail_at_t0 == pytest.approx(float(exact_tail(w, 225)), rel=1e-12)
    assert "at most 125 of your 900 agreed items are coin-flips" in r.explain()
    assert r.summary == r.explain()


def test_section_3_1_poesio_vieira():
    """n = 992, d = 121, p = 0.47: "gamma = 15%"; exactly 132/871 = 15.2%."""
    r = noise_bound(992, 121, 0.47)
    assert r.t0 == exact_t0(992, 121, Fraction(47, 100), Fraction(95, 100)) == 253
    assert r.gamma == pytest.approx(132 / 871)
    assert round(100 * r.gamma) == 15


def test_section_3_1_reverse_question():
    """1,000 items, two annotators: at most 33 disagreements for gamma <= 5%; kappa 0.93."""
    m = max_disagreements(1000, 0.5, 0.05, 0.95)
    assert m.max_disagreed == 33
    assert noise_bound(1000, 33, 0.5).gamma <= 0.05 < noise_bound(1000, 34, 0.5).gamma
    assert m.gamma_at_max == pytest.approx(noise_bound(1000, 33, 0.5).gamma)
    assert round(m.implied_kappa, 2) == 0.93
    # Siegel & Castellan K for two annotators, equiprobable categories: (P_A - 0.5) / 0.5
    assert m.implied_kappa == pytest.approx(((1000 - 33) / 1000 - 0.5) / 0.5)
    assert "at most 33 disagreements" in m.explain()


def test_section_3_2_five_annotators():
    """1,000 items, 660 agreed, p = 0.0625 (= 2 / 2^5): "within gamma = 5%"; exactly 31/660."""
    assert agreement_probability(np.full((5, 2), 0.5)) == pytest.approx(0.0625)
    r = noise_bound(1000, 340, 0.0625)
    assert r.t0 == exact_t0(1000, 340, Fraction(1, 16), Fraction(95, 100)) == 371
    assert r.gamma == pytest.approx(31 / 660)
    assert r.gamma <= 0.05


def test_section_3_3_kappa_reading():
    """kappa 0.8 -> 800 easy of 900 agreed: 11% noise; kappa 0.637 with 660 agreed: 3.5%."""
    k = kappa_noise_estimate(0.8, 1000, 900)
    assert k.easy_items == pytest.approx(800)
    assert k.noise == pytest.approx(100 / 900)
    assert round(100 * k.noise) == 11
    k5 = kappa_noise_estimate(0.637, 1000, 660)
    assert k5.noise == pytest.approx(23 / 660)
    assert round(100 * k5.noise, 1) == 3.5
    assert "about 11.1%" in k.explain()


def test_section_3_3_kappa_equals_easy_share_in_expectation():
    """Section 3.3: with uniform categories, K estimates e / (e + h). Check in expectation:
    two annotators, binary uniform, e easy (agreed), h hard (agree w.p. 1/2)."""
    e, h = 800, 200
    p_a = (e + 0.5 * h) / (e + h)
    p_e = 0.5
    assert (p_a - p_e) / (1 - p_e) == pytest.approx(e / (e + h))


def test_section_4_1_chance_difference():
    """L = 900, R = 125: "a difference of up to 35 correct answers (3.9%)"."""
    c = chance_difference(900, 125)
    assert c.sd == pytest.approx(math.sqrt(62.5))
    assert c.multiplier == pytest.approx(math.sqrt(20))  # the paper rounds to 4.5
    assert c.difference == pytest.approx(math.sqrt(20) * math.sqrt(62.5))
    assert round(c.difference) == 35
    assert round(100 * c.share, 1) == 3.9
    # footnote 9: the normal approximation, about 2 sd
    cn = chance_difference(900, 125, bound="normal")
    assert cn.multiplier == pytest.approx(stats.norm.ppf(0.975))
    assert cn.difference < c.difference
    assert "35.4 correct answers (3.9% of the 900 gold items)" in c.explain()
    # a lead of 35 is still within the bound of 35.4: 36 is the first beyond chance
    assert c.smallest_lead == 36 and "a lead of 36 or more (4.0%)" in c.explain()
    # Chebyshev gives 6.32 for R = 4 coin-flip items, but S is a sum of R values in
    # {-1, 0, 1}: |S| <= R, so the difference is at most 4 (the exact bound agrees)
    small = chance_difference(78, 4)
    assert small.difference == 4 and small.capped
    assert chance_difference(78, 4, bound="exact").difference <= 4
    text = small.explain()
    assert "4.0 correct answers (5.1% of the 78 gold items)" in text
    assert "as many as there are coin-flip items" in text and "a lead of 5 or more" in text
    # a bound that is a whole number up to rounding: sqrt(10/2)/sqrt(0.05) = 10, computed
    # 9.999999999999995; a lead of 10 is within it, so 11 is the smallest beyond chance
    assert chance_difference(100, 10).smallest_lead == 11
    assert chance_difference(10, 10).difference == 10  # within rounding of R is R
    # the exact bound that lands on R is not "capped": it does not allow more than R
    exact = chance_difference(100, 1, bound="exact")
    assert exact.difference == 1 and not exact.capped and "allows more" not in exact.explain()
    # every item a coin-flip: no lead can show anything
    assert "no lead among these 2 items is beyond chance" in chance_difference(2, 2).explain()
    assert chance_difference(900, 125, bound="exact").smallest_lead == (
        int(chance_difference(900, 125, bound="exact").difference) + 1
    )


def test_chance_difference_exact_against_convolution():
    """S = sum of R steps in {-1, 0, 1} w.p. 1/4, 1/2, 1/4, by repeated convolution."""
    R = 125
    dist = np.array([1.0])
    for _ in range(R):
        dist = np.convolve(dist, [0.25, 0.5, 0.25])
    s = np.arange(-R, R + 1)
    assert (dist @ s) == pytest.approx(0, abs=1e-9)
    assert np.sqrt(dist @ s**2) == pytest.approx(math.sqrt(R / 2))
    c = chance_difference(900, R, bound="exact")
    beyond = lambda k: dist[np.abs(s) > k].sum()  # noqa: E731
    assert beyond(c.difference) <= 0.05 < beyond(c.difference - 1)
    # Chebyshev is conservative: the exact 95% difference is much smaller
    assert c.difference < chance_difference(900, R).difference


def test_section_5_3_adding_annotators():
    """800 of 1,000 easy. Two annotators: 13.8% (exactly 125/900 = 13.9%). A third: p = 0.25,
    850 agreed, "not more than 7.7% noise". Exactly: d = 150 gives t0 = 214, 64/850 = 7.53%.
    Checked in rationals; the print is about one item high (65/850 = 7.65% would round
    to 7.6 or 7.7)."""
    table = adding_annotators(1000, 0.8, k_values=range(2, 6))
    assert list(table["annotators"]) == [2, 3, 4, 5]
    assert table["p"].tolist() == pytest.approx([0.5, 0.25, 0.125, 0.0625])
    row3 = table.set_index("annotators").loc[3]
    assert row3["expected_agreed"] == pytest.approx(850)
    assert row3["expected_disagreed"] == 150
    assert row3["t0"] == exact_t0(1000, 150, Fraction(1, 4), Fraction(95, 100)) == 214
    assert row3["gamma"] == pytest.approx(64 / 850)
    row2 = table.set_index("annotators").loc[2]
    assert row2["gamma"] == pytest.approx(125 / 900)
    # "we got rid of about half the random agreements"
    assert row3["hidden_hard"] / row2["hidden_hard"] == pytest.approx(0.5, abs=0.05)
    assert (np.diff(table["gamma"]) < 0).all()


def test_adding_annotators_p_inputs_agree():
    by_rates = adding_annotators(500, 0.7, [0.3, 0.7], k_values=[2, 3, 4])
    ps = [0.3**k + 0.7**k for k in (2, 3, 4)]
    by_list = adding_annotators(500, 0.7, k_values=[2, 3, 4], p=ps)
    by_map = adding_annotators(
        500, 0.7, k_values=[2, 3, 4], p=dict(zip([2, 3, 4], ps, strict=True))
    )
    by_fn = adding_annotators(500, 0.7, k_values=[2, 3, 4], p=lambda k: 0.3**k + 0.7**k)
    for other in (by_list, by_map, by_fn):
        pd.testing.assert_frame_equal(by_rates, other)
    matrix = np.array([[0.3, 0.7], [0.5, 0.5], [0.9, 0.1], [0.2, 0.8]])
    per_ann = adding_annotators(500, 0.7, matrix, k_values=[2, 3, 4])
    assert per_ann["p"].tolist() == pytest.approx(
        [agreement_probability(matrix[:k]) for k in (2, 3, 4)]
    )
    with pytest.raises(AnnotationDataError):
        adding_annotators(500, 0.7, matrix, k_values=[2, 5])
    with pytest.raises(AnnotationDataError):
        adding_annotators(500, 0.7, k_values=[1, 2])


# ---------------------------------------------------------------------- exactness
@pytest.mark.parametrize(
    ("n", "d", "p", "conf"),
    [
        (40, 5, Fraction(1, 2), Fraction(95, 100)),
        (60, 12, Fraction(47, 100), Fraction(9, 10)),
        (25, 0, Fraction(1, 3), Fraction(95, 100)),
        (30, 29, Fraction(7, 10), Fraction(99, 100)),
        (50, 3, Fraction(9, 10), Fraction(95, 100)),
        (12, 4, Fraction(0), Fraction(95, 100)),
        (80, 20, Fraction(1, 16), Fraction(1, 2)),
    ],
)
def test_small_cases_against_rationals(n, d, p, conf):
    r = noise_bound(n, d, float(p), float(conf))
    assert r.t0 == exact_t0(n, d, p, conf)
    w = exact_weights(n, d, p)
    total = sum(w.values())
    post = r.posterior
    for h, v in w.items():
        if float(v / total) > 1e-12:
            assert post.loc[h] == pytest.approx(float(v / total), rel=1e-10)
    assert r.tail_at_t0 == pytest.approx(float(exact_tail(w, r.t0)), rel=1e-9, abs=1e-15)
    mean = sum((h - d) * v for h, v in w.items()) / total
    assert r.expected_hidden == pytest.approx(float(mean), rel=1e-10)
    assert r.tail().loc[r.t0] == pytest.approx(r.tail_at_t0, abs=1e-12)


def test_given_prior_against_rationals():
    n, d = 30, 6
    prior = [Fraction(h + 1, 1) for h in range(n + 1)]  # more hard items a priori likelier
    r = noise_bound(n, d, 0.4, 0.9, prior=[float(x) for x in prior])
    assert r.prior == "given"
    assert r.t0 == exact_t0(n, d, Fraction(2, 5), Fraction(9, 10), prior=prior)
    series_prior = pd.Series([float(x) for x in prior], index=range(n + 1))
    assert noise_bound(n, d, 0.4, 0.9, prior=series_prior).t0 == r.t0
    # a uniform prior given explicitly is the default
    flat = noise_bound(200, 20, 0.5, prior=np.ones(201))
    default = noise_bound(200, 20, 0.5)
    assert flat.t0 == default.t0
    assert flat.tail_at_t0 == pytest.approx(default.tail_at_t0, rel=1e-12)


def test_prior_excluding_every_count_is_nan_with_reason():
    prior = np.zeros(21)
    prior[:5] = 1
    r = noise_bound(20, 8, 0.5, prior=prior)
    assert math.isnan(r.gamma) and "prior" in r.reason


def test_posterior_against_plain_loop_reference():
    """Equation (1) term by term with floats in a loop, an independent reference."""
    n, d, p = 300, 40, 0.6
    num = [math.comb(h, d) * p ** (h - d) for h in range(d, n + 1)]
    tot = sum(num)
    tails = [sum(num[h - d + 1 :]) / tot for h in range(d, n + 1)]
    t0 = d + next(i for i, t in enumerate(tails) if t < 0.05)
    r = noise_bound(n, d, p)
    assert r.t0 == t0
    offset, pmf = equation1_posterior(n, d, p)
    assert pmf == pytest.approx(np.array(num[offset : offset + len(pmf)]) / tot, rel=1e-9)


@pytest.mark.parametrize(
    ("n", "d", "p"),
    [
        (1000, 100, 0.5),
        (992, 121, 0.47),
        (5000, 10, 0.999),
        (50, 3, 0.9),
        (100, 60, 0.9),
        (300, 0, 1.0),
    ],
)
def test_closed_form_matches_log_space(n, d, p):
    """The incomplete-beta closed form (wide posteriors) against the log-space sum."""
    a = noise_bound(n, d, p)
    b = closed_form_bound(n, d, p, 0.95)
    assert a.t0 == b.t0
    assert a.tail_at_t0 == pytest.approx(b.tail_at_t0, rel=1e-9, abs=1e-14)
    assert a.expected_hidden == pytest.approx(b.expected_hidden, rel=1e-9)


@pytest.mark.parametrize(
    ("n", "d", "p"),
    [(10**7, 10**5, 0.999), (10**6, 2 * 10**4, 0.99), (10**8, 300_000, 0.9999)],
)
def test_closed_form_where_its_normaliser_underflows(n, d, p):
    """Nearly every agreed item hard: F(top) underflows to 0, and the closed form works in
    log space (it had divided by 0) and agrees with the term-by-term sum."""
    from scipy import special

    assert special.betainc(d + 1.0, n - d + 1.0, 1.0 - p) == 0.0
    a = noise_bound(n, d, p)
    b = closed_form_bound(n, d, p, 0.95)
    assert a.t0 == b.t0
    assert a.tail_at_t0 == pytest.approx(b.tail_at_t0, rel=1e-6)
    assert a.expected_hidden == pytest.approx(b.expected_hidden, rel=1e-9)


def test_a_trillion_items_with_p_near_one_needs_no_memory_per_item():
    """The closed form had built every count 0..n - d (7 TiB at n = 1e12, 8 GB at 1e9) to
    show 20,000 of them; now only those, and the questions built on it answer too."""
    import tracemalloc

    tracemalloc.start()
    try:
        r = noise_bound(10**12, 5, 0.999999)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50 * 2**20
    assert r.method.startswith("equation (1), closed form") and r.ok
    assert len(r.posterior) <= 20_000 and 0 < r.gamma < 1e-4
    assert noise_bound(10**10, 0, 0.9999999).ok
    assert max_disagreements(10**11, 0.999999, gamma=0.5).max_disagreed > 0
    table = adding_annotators(10**11, easy_share=0.9, p=[0.9999999] * 9)
    assert len(table) == 9


def test_ten_million_items():
    """n = 10,000,000 works (the timing lives in benchmarks/bench_noise.py)."""
    r = noise_bound(10_000_000, 1_000_000, 0.5)
    # J is a negative binomial with mean (d + 1) p / (1 - p) = 1,000,001 and sd ~ 1414
    nb = stats.nbinom(1_000_001, 0.5)
    assert r.hidden_hard == int(nb.ppf(0.95)) or r.hidden_hard == int(nb.ppf(0.95)) + 1
    assert nb.sf(r.hidden_hard) < 0.05 <= nb.sf(r.hidden_hard - 1)
    assert r.expected_hidden == pytest.approx(1_000_001, rel=1e-9)
    wide = noise_bound(10_000_000, 10, 0.999999)
    assert wide.method.startswith("equation (1), closed form")
    assert len(wide.posterior) <= 20_001 and wide.notes
    thinned = wide.tail()  # computed at the shown counts, not summed from thinned points
    assert (
        thinned[thinned.index <= wide.t0].iloc[-1]
        >= 0.05
        > thinned[thinned.index > wide.t0].iloc[0]
    )
    nb2 = stats.nbinom(11, 1e-6)  # cut at n - d: P(J > j | J <= top)
    top = 10_000_000 - 10
    tail = (nb2.cdf(top) - nb2.cdf(wide.hidden_hard)) / nb2.cdf(top)
    assert tail == pytest.approx(wide.tail_at_t0, rel=1e-6)


# ---------------------------------------------------------------------- edge cases
def test_p_zero_means_no_hidden_coin_flips():
    r = noise_bound(100, 10, 0.0)
    assert (r.t0, r.hidden_hard, r.gamma) == (10, 0, 0.0)


def test_no_disagreements_is_still_a_bound():
    r = noise_bound(1000, 0, 0.5)
    # posterior of J ∝ 0.5^j: P(J > t) = 0.5^(t + 1) (up to the cut at 1000)
    assert r.hidden_hard == 4  # 0.5^5 = 0.031 < 0.05 <= 0.5^4
    assert r.gamma == pytest.approx(4 / 1000)


def test_degenerate_inputs_give_nan_with_reason():
    r = noise_bound(50, 50, 0.5)
    assert math.isnan(r.gamma) and math.isnan(r.t0) and "no agreed items" in r.reason
    assert r.explain().startswith("No noise bound")
    assert not r.ok
    r1 = noise_bound(50, 3, 1.0)
    assert math.isnan(r1.gamma) and "p = 1" in r1.reason


@pytest.mark.parametrize(
    "args",
    [(0, 0, 0.5), (10, 11, 0.5), (10, -1, 0.5), (10, 2, 1.5), (10, 2, -0.1), (10.5, 2, 0.5)],
)
def test_bad_inputs_raise_plain_errors(args):
    with pytest.raises(AnnotationDataError):
        noise_bound(*args)


@pytest.mark.parametrize("conf", [0, 1, 95, -0.5])
def test_bad_confidence_raises(conf):
    with pytest.raises(AnnotationDataError, match="confidence"):
        noise_bound(100, 10, 0.5, conf)


def test_agreement_probability():
    assert agreement_probability([[0.5, 0.5], [0.5, 0.5]]) == pytest.approx(0.5)
    r = np.array([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3], [0.1, 0.1, 0.8]])
    loop = sum(np.prod([r[j, c] for j in range(3)]) for c in range(3))
    assert agreement_probability(r) == pytest.approx(loop)
    assert agreement_probability(pd.DataFrame(r)) == pytest.approx(loop)
    # the paper's binary case: prod P(X=0) + prod P(X=1)
    b = np.array([[0.3, 0.7], [0.6, 0.4]])
    assert agreement_probability(b) == pytest.approx(0.3 * 0.6 + 0.7 * 0.4)
    # 1,000 annotators: products near 1e-301 stay accurate
    many = np.tile([0.5, 0.5], (1000, 1))
    assert agreement_probability(many) == pytest.approx(2 * 0.5**1000, rel=1e-9)
    for bad in ([0.5, 0.5], [[0.5, 0.6]], [[-0.1, 1.1]], [[np.nan, 1.0]]):
        with pytest.raises(AnnotationDataError):
            agreement_probability(bad)


def test_max_disagreements_unreachable_target():
    m = max_disagreements(20, 0.5, 0.01)
    assert m.max_disagreed == -1 and m.reason
    assert m.explain().startswith("No answer")


def test_kappa_reading_degenerate():
    assert "outside" in kappa_noise_estimate(-0.1, 100, 50).reason
    assert math.isnan(kappa_noise_estimate(0.9, 100, 50).noise)  # more easy than agreed
    assert "no agreed" in kappa_noise_estimate(0.0, 100, 0).reason


def test_chance_difference_inputs():
    assert chance_difference(900, 0).difference == 0
    with pytest.raises(AnnotationDataError):
        chance_difference(100, 200)
    with pytest.raises(AnnotationDataError):
        chance_difference(100, 20, bound="hoeffding")
    with pytest.raises(AnnotationDataError):
        chance_difference(100, 20.5, bound="exact")


def test_result_table():
    t = noise_bound(1000, 100, 0.5).as_frame()
    assert t.set_index("measure").loc["noise level, at most (gamma)", "value"] == pytest.approx(
        125 / 900
    )


def test_explain_prints_the_noise_as_its_verdict_shows_it():
    """Noise 15.04% is bad (> 15%): the sentence beside the verdict must not say 15.0%."""
    from analytics.overview import judge

    k = kappa_noise_estimate(0.76464, 1000, 900)
    verdict = judge("noise", k.noise)
    assert verdict.label == "bad" and verdict.shown == "15.04%"
    assert "about 15.0% " in k.explain()  # the library default, one decimal
    assert "about 15.04% " in k.explain(verdict.shown)
    r = noise_bound(1000, 100, 0.5, 0.95)
    assert r.explain("13.89%").endswith("at most 13.89% noise.")


def test_max_disagreements_names_its_kappa_a_share_of_easy_items():
    """ "(kappa about 0.26)" stood beside the sample's Fleiss' kappa 0.486: section 3.3's
    kappa here is the share of items the disagreements leave easy, and says so."""
    from analytics.noise import max_disagreements

    r = max_disagreements(1000, 0.5, 0.05)
    assert r.max_disagreed == 33 and round(r.implied_kappa, 2) == 0.93
    text = r.explain()
    assert "leave about 93% of the items easy" in text and "not the Fleiss' kappa" in text
    assert "kappa about" not in text


def test_max_disagreements_never_reports_a_negative_share_of_easy_items():
    # gamma = 1 allows 999 disagreements, more than n (1 - p) = 500: kappa had been -0.998,
    # printed as "about -100% of the items easy"
    r = max_disagreements(1000, 0.5, gamma=1)
    assert r.max_disagreed == 999
    assert math.isnan(r.implied_kappa) and "does not apply" in r.kappa_reason
    assert "-" not in r.explain().split("(")[1] and "does not apply" in r.explain()
    fine = max_disagreements(1000, 0.5, gamma=0.9)
    assert 0 <= fine.implied_kappa <= 1 and fine.kappa_reason == ""
    assert "p = 0.999999" in max_disagreements(10**7, 0.999999, gamma=0.5).explain()
