"""Spammer scores and the annotator/label tables stay cheap with many categories."""

from __future__ import annotations

import itertools
import tracemalloc

import numpy as np
import pytest

from analytics.dawid_skene import spammer_scores


def _reference(theta: np.ndarray) -> np.ndarray:
    """The definition as a plain loop: one minus the mean TV distance over row pairs."""
    k = theta.shape[1]
    out = []
    for conf in theta:
        tv = [0.5 * np.abs(conf[a] - conf[b]).sum() for a, b in itertools.combinations(range(k), 2)]
        out.append(1.0 - np.mean(tv))
    return np.array(out)


@pytest.mark.parametrize("k", [2, 3, 7])
def test_spammer_scores_match_the_definition(k: int) -> None:
    rng = np.random.default_rng(k)
    theta = rng.dirichlet(np.ones(k), size=(4, k))
    np.testing.assert_allclose(spammer_scores(theta), _reference(theta), atol=1e-12)


def test_spammer_scores_of_many_categories_need_no_cube_of_memory() -> None:
    k = 300  # pairs of rows x K would be 2 x 44,850 x 300 doubles = 215 MB
    rng = np.random.default_rng(0)
    theta = rng.dirichlet(np.ones(k), size=(2, k))
    tracemalloc.start()
    try:
        scores = spammer_scores(theta)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 10 * theta.nbytes  # a few copies of theta, not K times it
    assert np.all((scores > 0) & (scores < 1))


def test_fit_refuses_a_model_over_the_budget_before_em() -> None:
    import pandas as pd

    from analytics import AnnotationDataError, as_annotations
    from analytics._core.budget import memory_budget
    from analytics.dawid_skene import fit

    k = 200
    frame = pd.DataFrame(
        {
            "item": np.repeat(np.arange(50), 2),
            "annotator": np.tile(["a", "b"], 50),
            "label": np.arange(100) % k,
        }
    )
    ann = as_annotations(frame, categories=list(range(k)), kind="nominal")  # not a scale
    with memory_budget("1M"), pytest.raises(AnnotationDataError) as err:
        fit(ann)
    text = str(err.value)
    assert "Dawid-Skene model of 2 annotators x 200 x 200" in text and "1 MiB" in text
    assert fit(ann).posteriors.shape == (50, k)  # within the default budget it fits
