"""crowd-kit 1.4.2 as an oracle: from the same start and with the same settings, every
model crowd-kit also has gives crowd-kit's fit on the public data sets and on simulated data.

- MACE (variational Bayes and EM): from crowd-kit's own start, equal posteriors (to 1e-10;
  seen: 1e-14) and parameters after crowd-kit's 50 iterations.
- One-coin and full Dawid-Skene: crowd-kit's state after n iterations from vote shares
  (posteriors, prevalence, accuracies / confusion matrices to 1e-8).
- Majority vote: the same vote shares and, where the top is not tied, the same label.
- GLAD (crowd-kit fits its M-step with scipy's optimiser, so single steps differ): the same
  fit at convergence, ``tests/models/test_mace_glad.py::test_glad_matches_crowdkit``.

crowd-kit is optional (``requirements-oracles.txt``); without it these tests skip.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.special import digamma

from analytics.dawid_skene import fit as ds_fit
from analytics.models import fit
from analytics.models.mace import mace_confusion
from tests.models.helpers import public, simulate

SETS = ["snow_rte", "snow_temp", "snow_wsd", "welinder_bluebirds", "zheng_s4_Dog_data", "act_MS"]
TIGHT = 1e-10  # posteriors and parameters: both sides do the same floating-point sums


@pytest.fixture(scope="module")
def ck():
    return pytest.importorskip("crowdkit.aggregation")


def renamed(ann):
    """``ann`` as crowd-kit's task/worker/label frame, annotators and labels renamed so that
    sorting their names keeps their order of first appearance; and the renaming.

    crowd-kit 1.4.2's MACE indexes workers and labels in order of first appearance
    (``pd.factorize``) but takes its spam counts from a ``groupby``, in sorted order: on
    other names its M-step gives one annotator's counts to another
    (:func:`test_crowdkit_mace_mixes_up_annotators_whose_names_do_not_sort_as_they_appear`).
    """
    f = ann.to_frame().rename(columns={"item": "task", "annotator": "worker"})
    f["task"] = f["task"].astype(str)
    workers, worker_names = pd.factorize(f["worker"])
    labels, label_names = pd.factorize(f["label"])
    f["worker"] = [f"w{c:06d}" for c in workers]
    f["label"] = [f"l{c:03d}" for c in labels]
    who = {a: i for i, a in enumerate(worker_names)}
    which = {c: i for i, c in enumerate(label_names)}
    return (
        f,
        np.array([who[a] for a in ann.annotators]),
        np.array([which[c] for c in ann.categories]),
    )


def quiet(model, frame):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # crowd-kit's pandas deprecations
        return model.fit(frame)


def mace_pair(ck, ann, method, n_iter=50, f=None, rows=None, cols=None):
    """crowd-kit's MACE and ours from crowd-kit's start (its restarts all draw from the same
    ``random_state``, so one restart is its whole fit)."""
    if f is None:
        f, rows, cols = renamed(ann)
    theirs = quiet(ck.MACE(n_restarts=1, n_iter=n_iter, method=method), f)
    start = ck.MACE(method=method)
    start._initialize(ann.n_annotators, ann.n_categories)
    trust = start.spamming_[rows, 1]  # crowd-kit's columns: (spams, knows)
    spam = start.thetas_[np.ix_(rows, cols)]
    settings = {"method": method, "prevalence": "uniform", "max_iter": n_iter, "tol": 0.0}
    if method == "em":
        settings["smoothing"] = 0.01 / ann.n_categories  # crowd-kit's fixed smoothing
    ours = fit(ann, "mace", initial=(trust, spam), **settings)
    return theirs, ours


def their_posteriors(theirs, ours, f, cols):
    # rows by item name; columns in our category order
    probas = theirs.probas_.set_axis(theirs.probas_.index.astype(str))
    names = [f"l{c:03d}" for c in cols]
    return probas.reindex(index=ours.items.astype(str), columns=names).to_numpy()


def check_mace(theirs, ours, f, rows, cols, method):
    q = their_posteriors(theirs, ours, f, cols)
    np.testing.assert_allclose(ours.posteriors.to_numpy(), q, rtol=0, atol=TIGHT)
    assert (q.argmax(axis=1) == ours.posteriors.to_numpy().argmax(axis=1)).all()
    spamming, thetas = theirs.spamming_[rows], theirs.thetas_[np.ix_(rows, cols)]
    if (
        method == "vb" and ours.n_iter
    ):  # crowd-kit keeps the weights exp E[log p] of the variational posterior
        beta, dirichlet = ours.parameters["trust_posterior"], ours.parameters["spam_posterior"]
        know = np.exp(digamma(beta[:, 0]) - digamma(beta.sum(axis=1)))
        xi = np.exp(digamma(dirichlet) - digamma(dirichlet.sum(axis=1, keepdims=True)))
    else:
        know, xi = ours.parameters["trust"], ours.parameters["spam"]
    np.testing.assert_allclose(know, spamming[:, 1], rtol=TIGHT)
    np.testing.assert_allclose(xi, thetas, rtol=TIGHT, atol=1e-300)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "method"),
    [(name, "vb") for name in SETS] + [("snow_rte", "em"), ("welinder_bluebirds", "em")],
)
def test_mace_reproduces_crowdkit_on_public_data(ck, name, method):
    ann, _ = public(name)
    f, rows, cols = renamed(ann)
    theirs, ours = mace_pair(ck, ann, method, f=f, rows=rows, cols=cols)
    check_mace(theirs, ours, f, rows, cols, method)
    assert ours.n_iter == 50 and not ours.converged  # crowd-kit's fixed 50 iterations
    trace = ours.log_likelihood[1:]  # [0]: the start's plain likelihood
    assert (np.diff(trace) >= -1e-9 * abs(trace[-1])).all()


@pytest.mark.parametrize("method", ["vb", "em"])
@pytest.mark.parametrize("n_iter", [0, 1, 7])
def test_mace_reproduces_crowdkit_on_simulated_data(ck, method, n_iter):
    rng = np.random.default_rng(n_iter)
    trust = rng.uniform(0.2, 0.95, 12)
    spam = rng.dirichlet(np.ones(4), size=12)
    ann, _ = simulate(mace_confusion(trust, spam), [0.4, 0.3, 0.2, 0.1], 300, 4, seed=n_iter)
    f, rows, cols = renamed(ann)
    theirs, ours = mace_pair(ck, ann, method, n_iter=n_iter, f=f, rows=rows, cols=cols)
    check_mace(theirs, ours, f, rows, cols, method)
    assert ours.n_iter == n_iter


def test_crowdkit_mace_mixes_up_annotators_whose_names_do_not_sort_as_they_appear(ck, monkeypatch):
    """Why :func:`renamed` renames: on snow_rte's own names crowd-kit's MACE differs from
    ours (labels of 1 item in 70), and aligning its spam counts with its own worker codes
    (a two-line patch of crowd-kit) makes the two agree again to 1e-10."""
    ann, _ = public("snow_rte")
    f = ann.to_frame().rename(columns={"item": "task", "annotator": "worker"})
    f = f.astype({"task": str, "worker": str, "label": str})
    _, worker_names = pd.factorize(f["worker"])
    assert list(worker_names) != sorted(worker_names)
    _, label_names = pd.factorize(f["label"])
    rows = np.array([list(worker_names).index(str(a)) for a in ann.annotators])
    cols = np.array([list(label_names).index(str(c)) for c in ann.categories])
    named = f.assign(label=lambda d: d["label"].map(lambda c: f"l{list(label_names).index(c):03d}"))
    theirs, ours = mace_pair(ck, ann, "vb", f=named, rows=rows, cols=cols)
    q = their_posteriors(theirs, ours, named, cols)
    assert np.abs(q - ours.posteriors.to_numpy()).max() > 0.1

    e_step = ck.MACE._e_step

    def aligned(self, annotation, task_names, worker_names, label_names, *rest):
        out = list(e_step(self, annotation, task_names, worker_names, label_names, *rest))
        out[2] = out[2].reindex(index=worker_names, columns=label_names).fillna(0.0)
        return tuple(out)

    monkeypatch.setattr(ck.MACE, "_e_step", aligned)
    theirs, ours = mace_pair(ck, ann, "vb", f=named, rows=rows, cols=cols)
    check_mace(theirs, ours, named, rows, cols, "vb")


def plain_frame(ann):
    f = ann.to_frame().rename(columns={"item": "task", "annotator": "worker"})
    return f.astype({"task": str, "worker": str, "label": str})


def by_name(ann):
    return ann.items.astype(str), ann.annotators.astype(str), ann.categories.astype(str)


@pytest.mark.slow
@pytest.mark.parametrize("name", SETS)
def test_one_coin_steps_match_crowdkit(ck, name):
    """crowd-kit's OneCoinDawidSkene after n iterations from vote shares: its posteriors are
    our E-step after n - 1 M-steps, its skills and priors our n-th M-step (no smoothing)."""
    ann, _ = public(name)
    n = 4
    theirs = quiet(ck.OneCoinDawidSkene(n_iter=n, tol=-np.inf), plain_frame(ann))
    settings = {"init": "soft", "smoothing": 0.0, "tol": 0.0}
    before = fit(ann, "one_coin", max_iter=n - 1, **settings)
    after = fit(ann, "one_coin", max_iter=n, **settings)
    items, annotators, cats = by_name(ann)
    probas = theirs.probas_.set_axis(theirs.probas_.index.astype(str))
    probas = probas.set_axis(probas.columns.astype(str), axis=1).reindex(index=items, columns=cats)
    np.testing.assert_allclose(before.posteriors.to_numpy(), probas.to_numpy(), atol=1e-8)
    skills = theirs.skills_.set_axis(theirs.skills_.index.astype(str)).reindex(annotators)
    np.testing.assert_allclose(after.parameters["accuracy"], skills.to_numpy(), atol=1e-8)
    priors = theirs.priors_.set_axis(theirs.priors_.index.astype(str)).reindex(cats)
    np.testing.assert_allclose(after.prevalence.to_numpy(), priors.to_numpy(), atol=1e-8)


@pytest.mark.slow
@pytest.mark.parametrize("name", SETS[:4])
def test_dawid_skene_steps_match_crowdkit(ck, name):
    """crowd-kit's DawidSkene after n iterations from vote shares, no smoothing: our
    ``finish="m_step"`` state (posteriors, prevalence and every confusion matrix).

    Not on the two 10-category sets: without smoothing some confusion cells are exactly 0
    there, where crowd-kit floors expected counts, priors and (inside its ELBO, in place)
    posteriors at 1e-10, so after 4 iterations the fits differ by up to 2e-5 (Dog) and
    0.012 (act_MS). A confusion row with (next to) no expected count is not defined either
    (ours uniform or the few counts, crowd-kit's floors spread over the labels the annotator
    gave): rows with less than half a judgement are not compared.
    """
    ann, _ = public(name)
    n = 4
    theirs = quiet(ck.DawidSkene(n_iter=n, tol=-np.inf), plain_frame(ann))
    ours = ds_fit(ann, max_iter=n, tol=0.0, init="soft", smoothing=0.0, finish="m_step")
    items, annotators, cats = by_name(ann)
    probas = theirs.probas_.set_axis(theirs.probas_.index.astype(str))
    probas = probas.set_axis(probas.columns.astype(str), axis=1).reindex(index=items, columns=cats)
    np.testing.assert_allclose(ours.posteriors.to_numpy(), probas.to_numpy(), atol=1e-8)
    priors = theirs.priors_.set_axis(theirs.priors_.index.astype(str)).reindex(cats)
    np.testing.assert_allclose(ours.prevalence.to_numpy(), priors.to_numpy(), atol=1e-8)
    errors = theirs.errors_.copy()  # (worker, observed) x true
    errors.index = pd.MultiIndex.from_arrays(
        [errors.index.get_level_values(0).astype(str), errors.index.get_level_values(1).astype(str)]
    )
    errors.columns = errors.columns.astype(str)
    full = pd.MultiIndex.from_product([annotators, cats])
    theirs_theta = errors.reindex(index=full, columns=cats).fillna(0.0).to_numpy()
    theirs_theta = theirs_theta.reshape(len(annotators), len(cats), len(cats)).transpose(0, 2, 1)
    # an annotator who never gave some label has no row there: crowd-kit's 0 and ours agree
    # rows with (nearly) no expected count are crowd-kit's 1e-10 floors over the labels given
    defined = ours.expected_counts.sum(axis=2) > 0.5  # annotator x true
    assert defined.mean() > 0.8  # not vacuous (snow_wsd: 88% of the rows)
    np.testing.assert_allclose(ours.confusion_array[defined], theirs_theta[defined], atol=1e-8)


@pytest.mark.parametrize("name", SETS)
def test_majority_vote_matches_crowdkit(ck, name):
    """The same vote shares; the same label wherever the top is not tied (crowd-kit takes
    the first tied category, we split the item between them, and its label is one of ours)."""
    ann, _ = public(name)
    theirs = quiet(ck.MajorityVote(), plain_frame(ann))
    ours = fit(ann, "majority")
    items, _, cats = by_name(ann)
    probas = theirs.probas_.set_axis(theirs.probas_.index.astype(str))
    probas = probas.set_axis(probas.columns.astype(str), axis=1).reindex(index=items, columns=cats)
    votes = ours.votes / ours.votes.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(votes, probas.fillna(0.0).to_numpy(), atol=1e-12)
    q = ours.posteriors.to_numpy()
    labels = theirs.labels_.set_axis(theirs.labels_.index.astype(str)).astype(str).reindex(items)
    theirs_code = pd.Index(cats).get_indexer(labels)
    top = q.max(axis=1)
    assert (q[np.arange(len(q)), theirs_code] == top).all()  # theirs is among our tops
    untied = (q == top[:, None]).sum(axis=1) == 1
    assert untied.mean() > 0.5  # not vacuous: most items have one top (act_MS: 73%)
    assert (theirs_code[untied] == q.argmax(axis=1)[untied]).all()
