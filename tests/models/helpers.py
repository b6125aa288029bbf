"""Simulated crowds and public data sets for the annotator-model tests."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import Annotations
from tests.helpers.paths import load_public


def simulate(confusion, prevalence, n_items, per_item, seed=0, item_easiness=None):
    """Judgements from a Dawid-Skene crowd: every item gets ``per_item`` random annotators.

    Returns (Annotations, true codes).  ``confusion`` is J x K x K (true x given).
    """
    rng = np.random.default_rng(seed)
    confusion = np.asarray(confusion, float)
    j, k, _ = confusion.shape
    truth = rng.choice(k, size=n_items, p=prevalence)
    who = np.argsort(rng.random((n_items, j)), axis=1)[:, :per_item]
    ii = np.repeat(np.arange(n_items), per_item)
    jj = who.ravel()
    probs = confusion[jj, truth[ii]]
    yy = (probs.cumsum(axis=1) > rng.random(len(ii))[:, None]).argmax(axis=1)
    frame = pd.DataFrame(
        {"item": [f"i{i}" for i in ii], "annotator": [f"a{a}" for a in jj], "label": yy}
    )
    return Annotations.from_frame(frame), truth


def accuracy(result, gold):
    """Share of gold items whose model label equals the gold label (compared as text)."""
    labels = result.labels.astype(str).reindex(gold.index.astype(str))
    return float((labels.to_numpy() == gold.astype(str).to_numpy()).mean())


def public(name):
    labels, gold = load_public(name)
    return Annotations.from_frame(labels, name=name), gold.set_index("item")["label"]


def reordered(frame):
    """The same judgements in two other row orders: shuffled, and with the annotators met
    in reverse order (so other first-seen codes for items, annotators and labels)."""
    shuffled = frame.sample(frac=1, random_state=7)
    backwards = frame.sort_values("annotator", ascending=False, kind="stable")
    return [shuffled, backwards]


def assert_same_fit(a, b, atol=1e-9):
    """Two fits of the same judgements coded in another order agree: labels, posteriors
    (to ``atol``) and log-likelihood (to 1e-9 relative)."""
    items, cats = a.posteriors.index, a.posteriors.columns
    pd.testing.assert_series_equal(a.labels, b.labels.loc[items])
    np.testing.assert_allclose(
        a.posteriors.to_numpy(), b.posteriors.loc[items, cats].to_numpy(), rtol=0, atol=atol
    )
    assert b.final_log_likelihood == pytest.approx(a.final_log_likelihood, rel=1e-9, abs=1e-9)
