"""Dawid-Skene EM: the paper's worked example, a plain-loop reference EM, monotone
log-likelihood, parameter recovery, invariances, gold clamping and degenerate data."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analytics import AnnotationDataError, Annotations
from analytics.dawid_skene import fit, majority_posteriors, posterior

PAPER_PI = [0.2, 0.8]
PAPER_THETA = [
    [[0.75, 0.25], [0.40, 0.60]],
    [[0.65, 0.35], [0.30, 0.70]],
    [[0.90, 0.10], [0.20, 0.80]],
]


def frame(rows) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["item", "annotator", "label"])


def make(rows, **kw) -> Annotations:
    return Annotations.from_frame(frame(rows), duplicates="keep", **kw)


# ---------------------------------------------------------------- reference EM (loops)
def reference_em(ann: Annotations, iters: int, s: float, gold: dict[int, int] | None = None):
    """Textbook EM with Python loops and math.log: the independent oracle."""
    n_i, n_j, k = ann.n_items, ann.n_annotators, ann.n_categories
    codes = (ann.item_codes, ann.annotator_codes, ann.label_codes)
    rows = list(zip(*(c.tolist() for c in codes), strict=True))
    gold = gold or {}
    votes = [[0] * k for _ in range(n_i)]
    for i, _, y in rows:
        votes[i][y] += 1
    q = []
    for i in range(n_i):
        top = max(votes[i])
        w = [1.0 if v == top else 0.0 for v in votes[i]]
        q.append([x / sum(w) for x in w])

    def clamp(q):
        for i, g in gold.items():
            q[i] = [1.0 if c == g else 0.0 for c in range(k)]
        return q

    def m_step(q):
        cnt = [[[0.0] * k for _ in range(k)] for _ in range(n_j)]
        for i, j, y in rows:
            for z in range(k):
                cnt[j][z][y] += q[i][z]
        theta = []
        for j in range(n_j):
            mat = []
            for z in range(k):
                tot = sum(cnt[j][z]) + k * s
                mat.append([(c + s) / tot if tot > 0 else 1.0 / k for c in cnt[j][z]])
            theta.append(mat)
        tot = n_i + k * s
        pi = [(sum(q[i][z] for i in range(n_i)) + s) / tot for z in range(k)]
        return pi, theta

    def e_step(pi, theta):
        ll = 0.0
        out = []
        for i in range(n_i):
            lp = []
            for z in range(k):
                v = math.log(pi[z]) if pi[z] > 0 else -math.inf
                for ii, j, y in rows:
                    if ii == i:
                        v += math.log(theta[j][z][y]) if theta[j][z][y] > 0 else -math.inf
                lp.append(v)
            if i in gold:
                ll += lp[gold[i]]
                out.append([1.0 if c == gold[i] else 0.0 for c in range(k)])
                continue
            m = max(lp)
            tot = sum(math.exp(v - m) for v in lp)
            ll += m + math.log(tot)
            out.append([math.exp(v - m) / tot for v in lp])
        if s > 0:
            ll += s * sum(math.log(p) for p in pi)
            ll += s * sum(math.log(t) for mat in theta for row in mat for t in row)
        return out, ll

    pi, theta = m_step(clamp(q))
    trace = []
    for it in range(iters + 1):
        q, ll = e_step(pi, theta)
        trace.append(ll)
        if it < iters:
            pi, theta = m_step(q)
    return np.array(q), np.array(pi), np.array(theta), np.array(trace)


def simulate(n_items, n_annotators, per_item, pi, acc, seed=0):
    """Items with true labels; annotators with a diagonal `acc` and uniform errors."""
    rng = np.random.default_rng(seed)
    k = len(pi)
    theta = np.empty((n_annotators, k, k))
    for j in range(n_annotators):
        off = rng.dirichlet(np.ones(k - 1) * 3, size=k)
        for z in range(k):
            theta[j, z] = np.insert(off[z] * (1 - acc[j]), z, acc[j])
    z = rng.choice(k, size=n_items, p=pi)
    who = np.array([rng.choice(n_annotators, per_item, replace=False) for _ in range(n_items)])
    items = np.repeat(np.arange(n_items), per_item)
    a = who.ravel()
    cum = theta[a, z[items]].cumsum(axis=1)
    y = np.minimum((rng.random(len(a))[:, None] > cum).sum(axis=1), k - 1)
    ann = Annotations(
        items,
        a,
        y,
        pd.Index([f"i{i}" for i in range(n_items)]),
        pd.Index([f"a{j}" for j in range(n_annotators)]),
        pd.Index([f"c{c}" for c in range(k)]),
    )
    return ann, z, theta


# ---------------------------------------------------------------- posterior()
def test_posterior_paper_worked_example():
    # Passonneau & Carpenter 2014, section 2.2.1: .00975 and .0768, normalised .11 / .89
    p = posterior(PAPER_PI, PAPER_THETA, [0, 0, 1])
    assert p == pytest.approx([0.00975 / 0.08655, 0.0768 / 0.08655], abs=1e-12)
    assert p.round(2).tolist() == [0.11, 0.89]


def test_posterior_missing_label_and_spam_annotator():
    with_missing = posterior(PAPER_PI, PAPER_THETA, [0, None, 1])
    dropped = posterior(PAPER_PI, PAPER_THETA[::2], [0, 1])
    assert with_missing == pytest.approx(dropped)
    # the paper's spam annotator: rows equal, the posterior stays at the prevalence
    spam = [[[0.9, 0.1], [0.9, 0.1]]]
    assert posterior(PAPER_PI, spam, [0]) == pytest.approx(PAPER_PI)
    assert posterior(PAPER_PI, spam, [1]) == pytest.approx(PAPER_PI)


def test_posterior_rejects_bad_shapes():
    with pytest.raises(ValueError):
        posterior(PAPER_PI, PAPER_THETA, [0, 0])
    with pytest.raises(ValueError):
        posterior(PAPER_PI, PAPER_THETA, [0, 0, 2])


def test_posterior_log_space_many_labels():
    # 2,000 labels would underflow a product of probabilities; log space does not
    th = np.tile(np.array([[0.9, 0.1], [0.2, 0.8]]), (2000, 1, 1))
    obs = np.r_[np.zeros(1000, int), np.ones(1000, int)]
    p = posterior(PAPER_PI, th, obs)
    expected = 1 / (1 + (0.8 / 0.2) * ((0.2 * 0.8) / (0.9 * 0.1)) ** 1000)
    assert np.isfinite(p).all() and p[0] == pytest.approx(expected, rel=1e-9)


# ---------------------------------------------------------------- fit vs reference
SMALL = [
    ("i1", "a", "x"),
    ("i1", "b", "x"),
    ("i1", "c", "y"),
    ("i2", "a", "y"),
    ("i2", "b", "y"),
    ("i2", "c", "y"),
    ("i3", "a", "x"),
    ("i3", "b", "z"),
    ("i3", "c", "z"),
    ("i3", "c", "z"),  # a repeat
    ("i4", "a", "z"),
    ("i4", "c", "x"),  # b missing
    ("i5", "b", "x"),
    ("i5", "c", "x"),
    ("i5", "a", "y"),
    ("i6", "a", "x"),
    ("i6", "b", "y"),
    ("i6", "c", "z"),  # a three-way tie
]


@pytest.mark.parametrize("smoothing", [0.0, 0.01, 0.7])
@pytest.mark.parametrize("gold", [None, {"i4": "z"}])
def test_fit_matches_plain_loop_reference(smoothing, gold):
    ann = make(SMALL)
    res = fit(ann, max_iter=7, tol=0.0, smoothing=smoothing, gold=gold)
    gold_codes = None
    if gold:
        gold_codes = {ann.items.get_loc(i): ann.categories.get_loc(v) for i, v in gold.items()}
    q, pi, theta, trace = reference_em(ann, 7, smoothing, gold_codes)
    assert res.n_iter == 7 and not res.converged
    np.testing.assert_allclose(res.log_likelihood, trace, rtol=1e-11)
    np.testing.assert_allclose(res.posteriors.to_numpy(), q, atol=1e-11)
    np.testing.assert_allclose(res.prevalence.to_numpy(), pi, atol=1e-12)
    np.testing.assert_allclose(res.confusion_array, theta, atol=1e-12)


def test_result_shapes_and_original_values():
    res = fit(make(SMALL))
    assert list(res.categories) == ["x", "y", "z"]
    assert set(res.labels.unique()) <= {"x", "y", "z"}
    assert res.labels.index.equals(res.posteriors.index)
    np.testing.assert_allclose(res.posteriors.sum(axis=1), 1.0)
    assert res.confidence.equals(res.posteriors.max(axis=1).rename("confidence"))
    assert set(res.confusion) == {"a", "b", "c"}
    for mat in res.confusion.values():
        assert list(mat.index) == list(mat.columns) == ["x", "y", "z"]
        np.testing.assert_allclose(mat.sum(axis=1), 1.0)
    assert res.prevalence.sum() == pytest.approx(1.0)
    assert res.judgements["c"] == 7  # the repeat counts
    assert res.converged and len(res.log_likelihood) == res.n_iter + 1


def test_unsmoothed_fit_is_the_mle_fixed_point():
    res = fit(make(SMALL), smoothing=0.0, tol=1e-13, max_iter=5000)
    # at convergence the M-step of the final posteriors returns the final parameters
    counts = res.expected_counts
    np.testing.assert_allclose(
        res.confusion_array, counts / counts.sum(axis=2, keepdims=True), atol=1e-6
    )
    np.testing.assert_allclose(res.prevalence, res.posteriors.mean(axis=0), atol=1e-6)


def test_numeric_labels_and_dataframe_input():
    rows = [(i, j, int((i + j) % 3 == 0)) for i in range(12) for j in range(4)]
    res = fit(frame([(str(i), f"w{j}", y) for i, j, y in rows]))
    assert list(res.categories) == [0, 1]
    assert res.labels.dtype == object and set(res.labels) <= {0, 1}


# ---------------------------------------------------------------- monotone likelihood
data_sets = st.lists(
    st.tuples(st.integers(0, 7), st.integers(0, 4), st.integers(0, 2)), min_size=4, max_size=50
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data_sets,
    st.sampled_from([0.0, 0.01, 0.5, 2.0]),
    st.sampled_from(["majority", "soft", "random"]),
    st.booleans(),
    st.booleans(),
)
def test_log_likelihood_never_decreases(rows, smoothing, init, use_gold, use_prior):
    ann = make([(f"i{i}", f"a{j}", f"c{y}") for i, j, y in rows])
    gold = {ann.items[0]: ann.categories[0]} if use_gold else None
    prior = 1.5 * np.eye(ann.n_categories) if use_prior else None
    res = fit(ann, max_iter=60, tol=0.0, smoothing=smoothing, init=init, gold=gold, prior=prior)
    ll = res.log_likelihood
    assert np.isfinite(ll).all()
    assert (np.diff(ll) >= -1e-9 * np.abs(ll[:-1]).clip(1.0)).all()


def test_trace_is_the_true_penalised_log_likelihood():
    ann = make(SMALL)
    s = 0.3
    prior = np.array([[2.0, 0, 0], [0, 1.0, 0], [0.5, 0, 3.0]])
    res = fit(ann, smoothing=s, prior=prior, gold={"i6": "y"})
    pi, th = res.prevalence.to_numpy(), res.confusion_array
    ll = 0.0
    for i in range(ann.n_items):
        sel = ann.item_codes == i
        terms = [
            math.log(pi[z])
            + sum(
                math.log(th[j, z, y])
                for j, y in zip(ann.annotator_codes[sel], ann.label_codes[sel], strict=True)
            )
            for z in range(3)
        ]
        if ann.items[i] == "i6":
            ll += terms[1]
        else:
            ll += math.log(sum(math.exp(t) for t in terms))
    ll += s * np.log(pi).sum() + ((s + prior) * np.log(th)).sum()
    assert res.log_likelihood[-1] == pytest.approx(ll, rel=1e-12)


# ---------------------------------------------------------------- recovery
def test_recovers_simulated_parameters():
    pi = np.array([0.5, 0.3, 0.2])
    acc = np.linspace(0.6, 0.9, 20)
    ann, z, theta = simulate(12_000, 20, 5, pi, acc, seed=3)
    res = fit(ann)
    assert res.converged
    assert np.abs(res.prevalence.to_numpy() - pi).max() < 0.03
    # against the truth (sampling noise included) and against the oracle that knows z
    assert np.abs(res.confusion_array - theta).max() < 0.06
    items, a, y = ann.item_codes, ann.annotator_codes, ann.label_codes
    oracle = np.zeros_like(theta)
    np.add.at(oracle, (a, z[items], y), 1.0)
    oracle /= oracle.sum(axis=2, keepdims=True)
    assert np.abs(res.confusion_array - oracle).max() < 0.03
    truth_acc = (res.posteriors.to_numpy().argmax(axis=1) == z).mean()
    mv_acc = (majority_posteriors(res.votes)[np.arange(len(z)), z]).mean()
    assert truth_acc > mv_acc


# ---------------------------------------------------------------- invariances
@settings(max_examples=40, deadline=None)
@given(data_sets, st.randoms(use_true_random=False))
def test_invariant_to_renaming_and_reordering(rows, rnd):
    df = frame([(f"i{i}", f"a{j}", f"c{y}") for i, j, y in rows])
    base = Annotations.from_frame(df, duplicates="keep")
    res = fit(base, max_iter=30, tol=0.0)
    cats = list(base.categories)
    perm = cats[:]
    rnd.shuffle(perm)
    names = {c: f"label {n}" for n, c in enumerate(perm)}
    shuffled = df.sample(frac=1.0, random_state=rnd.randint(0, 10**6)).reset_index(drop=True)
    shuffled["label"] = shuffled["label"].map(names)
    other = Annotations.from_frame(shuffled, duplicates="keep", categories=[names[c] for c in perm])
    res2 = fit(other, max_iter=30, tol=0.0)
    back = res2.posteriors.rename(columns={v: k for k, v in names.items()})
    back = back.loc[res.posteriors.index, res.posteriors.columns]
    np.testing.assert_allclose(back.to_numpy(), res.posteriors.to_numpy(), atol=1e-8)
    np.testing.assert_allclose(res2.log_likelihood, res.log_likelihood, rtol=1e-10)
    sure = res.confidence > 0.5 + 1e-6
    assert (
        res2.labels[sure.index[sure]].map({v: k for k, v in names.items()}) == res.labels[sure]
    ).all()


# ---------------------------------------------------------------- gold clamping
def test_gold_clamps_and_fixes_an_adversarial_crowd():
    # most annotators swap the two labels: unsupervised EM cannot know; gold can
    pi = np.array([0.7, 0.3])
    ann, z, _ = simulate(600, 6, 5, pi, np.full(6, 0.85), seed=5)
    flipped = Annotations(
        ann.item_codes,
        ann.annotator_codes,
        np.where(ann.annotator_codes < 4, 1 - ann.label_codes, ann.label_codes),
        ann.items,
        ann.annotators,
        ann.categories,
    )
    res = fit(flipped)
    assert (res.posteriors.to_numpy().argmax(1) == z).mean() < 0.5
    gold = pd.Series(np.asarray(ann.categories)[z[:60]], index=ann.items[:60])
    # from majority vote, EM stays in the flipped basin; the gold start of "best" leaves it
    stuck = fit(flipped, gold=gold)
    res_g = fit(flipped, gold=gold, init="best")
    assert res_g.final_log_likelihood > stuck.final_log_likelihood
    assert (res_g.posteriors.to_numpy().argmax(1)[60:] == z[60:]).mean() > 0.9
    assert "gold" in res_g.notes[-1]
    assert (res_g.confidence[:60] == 1.0).all()
    assert list(res_g.gold_items) == list(ann.items[:60])
    assert res_g.settings["n_gold"] == 60


def test_gold_matching_text_numbers_and_errors():
    rows = [(f"{i}", f"w{j}", (i + (j == 0)) % 2) for i in range(10) for j in range(3)]
    ann = make(rows)
    res = fit(ann, gold={"3": "1", 4: 0, "not-there": 1})  # text "1" matches category 1
    assert res.posteriors.loc["3"].tolist() == [0.0, 1.0]
    assert res.posteriors.loc["4"].tolist() == [1.0, 0.0]
    with pytest.raises(AnnotationDataError, match="not among the categories"):
        fit(ann, gold={"3": "7"})
    with pytest.raises(AnnotationDataError, match="none of the gold items"):
        fit(ann, gold={"x": 1})


# ---------------------------------------------------------------- degenerate data, errors
def test_one_category_gives_certain_items_and_a_note():
    res = fit(make([("i1", "a", "x"), ("i1", "b", "x"), ("i2", "a", "x")]))
    assert (res.confidence == 1.0).all()
    assert any("one category" in n for n in res.notes)


def test_one_annotator_and_no_overlap_are_noted():
    res = fit(make([("i1", "a", "x"), ("i2", "a", "y"), ("i3", "a", "x")]))
    assert any("only one annotator" in n for n in res.notes)
    assert any("No item was labelled by two" in n for n in res.notes)
    assert np.isfinite(res.posteriors.to_numpy()).all()


def test_multilabel_is_refused_with_advice():
    ml = Annotations.from_frame(frame([("i1", "a", "x;y"), ("i1", "b", "x")]), multilabel_sep=";")
    with pytest.raises(AnnotationDataError, match="multi-label") as err:
        fit(ml)
    assert "yes/no model per category" in str(err.value)
    assert "analytics.dawid_skene.fit_per_category(ann)" in str(err.value)  # what does it


@pytest.mark.parametrize(
    "kw", [{"smoothing": -1}, {"init": "nope"}, {"max_iter": -2}, {"prior": -np.eye(3)}]
)
def test_bad_settings_raise(kw):
    with pytest.raises(AnnotationDataError):
        fit(make(SMALL), **kw)


def test_no_judgements_raise():
    empty = Annotations(
        np.zeros(0), np.zeros(0), np.zeros(0), pd.Index([]), pd.Index([]), pd.Index(["x"])
    )
    with pytest.raises(AnnotationDataError, match="no judgements"):
        fit(empty)


def test_majority_posteriors_split_ties():
    out = majority_posteriors(np.array([[2, 2, 0], [0, 1, 3], [0, 0, 0]]))
    np.testing.assert_allclose(out, [[0.5, 0.5, 0], [0, 0, 1], [1 / 3] * 3])


def test_best_of_starts_is_at_least_as_likely_as_majority():
    ann, _, _ = simulate(400, 8, 3, np.array([0.5, 0.3, 0.2]), np.linspace(0.4, 0.8, 8), seed=9)
    best = fit(ann, init="best")
    assert best.final_log_likelihood >= fit(ann).final_log_likelihood - 1e-9
    assert best.final_log_likelihood >= fit(ann, init="soft").final_log_likelihood - 1e-9
    assert "Best of 5 starts" in best.notes[-1]
