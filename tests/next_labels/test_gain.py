"""expected_gain: a brute-force enumeration, the mutual-information identity, zeros, bounds,
invariance, duck typing and bad input."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics import AnnotationDataError, Annotations
from analytics.dawid_skene import fit, mutual_information
from analytics.next_labels import expected_gain
from analytics.next_labels.gain import gain_matrix, information, pool_gains
from analytics.next_labels.pruning import best_available, mean_bounds, tangent_bounds


def entropy_loop(p) -> float:
    return -sum(x * math.log2(x) for x in p if x > 0)


def brute_gain(q, theta) -> float:
    """H[q] minus the expected entropy after one label, enumerating the answers in loops."""
    k = len(q)
    after = 0.0
    for y in range(k):
        p_y = sum(q[z] * theta[z][y] for z in range(k))
        if p_y == 0:
            continue
        post = [q[z] * theta[z][y] / p_y for z in range(k)]
        after += p_y * entropy_loop(post)
    return entropy_loop(q) - after


def small_data(seed: int = 0, n_items: int = 30, k: int = 3) -> Annotations:
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n_items):
        z = rng.integers(k)
        for a in rng.choice(5, size=rng.integers(1, 4), replace=False):
            right = rng.random() < (0.9 if a < 3 else 1 / k)
            rows.append((f"i{i}", f"a{a}", int(z if right else rng.integers(k))))
    return Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))


@pytest.fixture(scope="module")
def fitted():
    ann = small_data()
    return ann, fit(ann)


def test_each_annotator_matches_brute_force(fitted):
    ann, res = fitted
    got = expected_gain(res, ann, annotators=list(ann.annotators))
    assert list(got.columns) == list(ann.annotators)
    for item in ann.items[:10]:
        q = res.posteriors.loc[item].to_numpy()
        for a in ann.annotators:
            theta = res.confusion[a].to_numpy()
            assert got.loc[item, a] == pytest.approx(brute_gain(q, theta), abs=1e-12)


def test_best_and_random_exclude_annotators_who_already_judged(fitted):
    ann, res = fitted
    each = expected_gain(res, ann, annotators=list(ann.annotators))
    best = expected_gain(res, ann, pick="best")
    rand = expected_gain(res, ann)
    judged = pd.DataFrame(
        {"item": ann.items[ann.item_codes], "annotator": ann.annotators[ann.annotator_codes]}
    )
    for item in ann.items:
        done = set(judged.loc[judged["item"] == item, "annotator"])
        free = [a for a in ann.annotators if a not in done]
        assert best[item] == pytest.approx(max(each.loc[item, free]), abs=1e-12)
        assert rand[item] == pytest.approx(np.mean(each.loc[item, free]), abs=1e-12)


def test_one_name_gives_a_series(fitted):
    ann, res = fitted
    one = expected_gain(res, ann, annotators="a0")
    assert isinstance(one, pd.Series)
    assert one.equals(expected_gain(res, ann, annotators=["a0"])["a0"].rename("expected_gain"))


def test_at_the_prevalence_it_is_the_mutual_information():
    theta = np.array([[[0.9, 0.1], [0.2, 0.8]], [[0.6, 0.4], [0.3, 0.7]]])
    pi = np.array([0.2, 0.8])
    got = information(np.broadcast_to(pi, (2, 2)), theta)
    assert got == pytest.approx(mutual_information(theta, pi), abs=1e-12)


def fake_result(q: pd.DataFrame, confusion: dict, prevalence: pd.Series):
    """A model result of another family: only the duck-typed fields."""
    return SimpleNamespace(posteriors=q, confusion=confusion, prevalence=prevalence)


def test_zero_for_certain_items_and_spammers():
    ann = Annotations.from_frame(
        pd.DataFrame({"item": ["x", "y"], "annotator": ["good", "spam"], "label": [0, 1]})
    )
    q = pd.DataFrame([[1.0, 0.0], [0.5, 0.5]], index=["x", "y"], columns=[0, 1])
    conf = {
        "good": pd.DataFrame([[0.9, 0.1], [0.1, 0.9]]),
        "spam": pd.DataFrame([[0.7, 0.3], [0.7, 0.3]]),
    }
    res = fake_result(q, conf, pd.Series([0.5, 0.5], index=[0, 1]))
    g = expected_gain(res, ann, annotators=["good", "spam"])
    assert g.loc["x"].tolist() == [0.0, 0.0]
    assert g.loc["y", "spam"] == 0.0
    assert g.loc["y", "good"] == pytest.approx(1 - entropy_loop([0.9, 0.1]))


probs = st.lists(st.floats(0.01, 1.0), min_size=3, max_size=3).map(lambda v: np.asarray(v) / sum(v))


@settings(max_examples=60, deadline=None)
@given(q=probs, rows=st.lists(probs, min_size=3, max_size=3), perm=st.permutations(range(3)))
def test_bounds_and_label_renaming(q, rows, perm):
    theta = np.stack(rows)
    g = float(information(q, theta))
    assert 0.0 <= g <= entropy_loop(q) + 1e-12
    assert g == pytest.approx(brute_gain(q, theta), abs=1e-10)
    p = list(perm)
    assert float(information(q[p], theta[p][:, p])) == pytest.approx(g, abs=1e-12)


def test_annotator_order_does_not_matter(fitted):
    ann, res = fitted
    names = list(ann.annotators)
    a = expected_gain(res, ann, annotators=names)
    b = expected_gain(res, ann, annotators=names[::-1])
    pd.testing.assert_frame_equal(a[names], b[names])


def test_result_of_other_data_is_refused(fitted):
    _, res = fitted
    other = small_data(seed=1, n_items=40)
    with pytest.raises(AnnotationDataError, match="not fitted on these annotations"):
        expected_gain(res, other)


def test_unknown_annotator_and_pick_are_refused(fitted):
    ann, res = fitted
    with pytest.raises(AnnotationDataError, match="unknown annotator 'nobody'"):
        expected_gain(res, ann, annotators=["a0", "nobody"])
    with pytest.raises(AnnotationDataError, match="pick must be"):
        expected_gain(res, ann, pick="worst")
    with pytest.raises(AnnotationDataError, match="not a fitted annotator model"):
        expected_gain(object(), ann)


def test_a_model_listing_items_categories_and_annotators_in_another_order(fitted):
    """Another model family may order its fields differently: names decide, not positions."""
    ann, res = fitted
    cats = list(res.categories)[::-1]
    shuffled = SimpleNamespace(
        posteriors=res.posteriors.iloc[::-1][cats],
        prevalence=res.prevalence[cats],
        confusion={a: res.confusion[a].loc[cats, cats] for a in list(res.annotators)[::-1]},
    )
    names = list(ann.annotators)
    want = expected_gain(res, ann, annotators=names)
    got = expected_gain(shuffled, ann, annotators=names)
    pd.testing.assert_frame_equal(got, want, atol=1e-12, rtol=0)
    pd.testing.assert_series_equal(
        expected_gain(shuffled, ann, pick="best"), expected_gain(res, ann, pick="best")
    )


# --- the best annotator by exact pruning (analytics.next_labels.pruning) -----------------


def random_case(seed: int, n: int, j: int, k: int, *, sharp: float = 0.5, judged_per=3):
    """Posteriors, confusion matrices of mixed quality, and judged (item, annotator) keys."""
    rng = np.random.default_rng(seed)
    q = rng.dirichlet(np.full(k, sharp), n)
    acc = rng.uniform(0.3, 0.95, j)
    theta = rng.dirichlet(np.ones(k), (j, k)) * (1 - acc)[:, None, None]
    theta[:, np.arange(k), np.arange(k)] += acc[:, None]
    theta /= theta.sum(-1, keepdims=True)
    who = rng.integers(0, j, (n, judged_per))
    judged = np.unique(np.arange(n)[:, None] * j + who)
    return q, theta, judged


@pytest.mark.parametrize(
    ("seed", "n", "j", "k", "sharp"),
    [(0, 3000, 120, 4, 0.5), (1, 2000, 60, 3, 0.2), (2, 1500, 40, 6, 1.0), (3, 500, 3, 2, 0.5)],
)
def test_pruned_best_equals_the_full_matrix(seed, n, j, k, sharp):
    q, theta, judged = random_case(seed, n, j, k, sharp=sharp)
    q[:20] = np.eye(k)[np.arange(20) % k]  # certain items: every gain is 0
    judged = np.unique(np.r_[judged, 9 * j + np.arange(min(j, 100))])  # long runs too
    rng = np.random.default_rng(seed)
    for pool in (np.arange(j), np.sort(rng.choice(j, max(1, j // 2), replace=False))):
        for keys in (judged, None):
            want, want_who, _ = pool_gains(q, theta, pool, keys)
            got, got_who = best_available(q, theta, pool, keys)
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-13)
            assert np.array_equal(got_who, want_who)


def test_pruned_best_with_ties_zeros_and_nobody_left():
    rng = np.random.default_rng(5)
    q, theta, _ = random_case(5, 400, 30, 3)
    theta[10] = theta[3]  # an exact duplicate: ties
    theta[11] = np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 0.5, 0.5]])  # zeros in the rows
    theta[12] = np.broadcast_to([0.2, 0.3, 0.5], (3, 3))  # a spammer
    q[:50, 2] = 0.0  # zeros in the posteriors
    q[:50] /= q[:50].sum(1, keepdims=True)
    everyone = np.arange(30)
    judged = np.unique(np.r_[np.arange(30) + 7 * 30, rng.integers(0, 400 * 30, 2000)])
    want = pool_gains(q, theta, everyone, judged)[0]
    got, got_who = best_available(q, theta, everyone, judged)
    assert np.isnan(got[7]) and got_who[7] == -1  # item 7 was judged by everyone
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-13)
    # a tie may be broken on the last bit either way; the gain of the pick is the best
    each = gain_matrix(q, theta)
    ok = got_who >= 0
    np.testing.assert_allclose(each[ok, got_who[ok]], want[ok], rtol=0, atol=1e-13)
    assert (got[ok] >= 0).all()


def test_pruned_best_of_spammers_and_certain_items_is_zero():
    k = 3
    spam = np.broadcast_to([0.6, 0.3, 0.1], (4, k, k)).copy()
    q = np.r_[np.eye(k), np.full((2, k), 1 / k)]
    got, who = best_available(q, spam, np.arange(4), None)
    assert got.tolist() == [0.0] * 5 and who.tolist() == [0] * 5


@settings(max_examples=40, deadline=None)
@given(q=probs, c=probs, rows=st.lists(probs, min_size=3, max_size=3))
def test_tangent_bound_is_above_the_gain_and_touches_at_its_centre(q, c, rows):
    theta = np.stack(rows)[None]
    b = tangent_bounds(c[None], theta)[0, 0]
    g_q = float(information(q, theta[0])) * np.log(2)
    g_c = float(information(c, theta[0])) * np.log(2)
    assert q @ b >= g_q - 1e-12
    assert c @ b == pytest.approx(g_c, abs=1e-12)


@pytest.mark.parametrize(("seed", "k"), [(0, 3), (1, 5)])
def test_mean_bounds_are_above_the_mean_gain(seed, k):
    q, theta, judged = random_case(seed, 2500, 40, k)
    q[:10] = np.eye(k)[np.arange(10) % k]
    pool = np.arange(0, 40, 2)
    judged = np.unique(np.r_[judged, 5 * 40 + pool])  # item 5: nobody of the pool left
    mean = pool_gains(q, theta, pool, judged)[2]
    bound = mean_bounds(q, theta, pool, judged)
    assert np.isnan(bound[5]) and np.isnan(mean[5])
    ok = ~np.isnan(mean)
    assert (bound[ok] >= mean[ok]).all()
    assert np.median(bound[ok] - mean[ok]) < 0.1  # tight enough to be of use
