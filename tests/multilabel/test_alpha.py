"""Krippendorff's alpha with set distances (Poesio & Artstein 2005) against NLTK.

``analytics.agreement.krippendorff_alpha(ann, distance=...)`` computes alpha for multi-label
data with the distances of :mod:`analytics.agreement.set_distances`; these tests check it against
``nltk.metrics.agreement.AnnotationTask`` (``masi_distance``, ``jaccard_distance``), against
a plain-loop alpha over Poesio & Artstein's table 1 for all four distances, and check the
"Multi-label" page's side-by-side table.
"""

from __future__ import annotations

import itertools
import sys

import numpy as np
import pandas as pd
import pytest
from nltk.metrics.agreement import AnnotationTask
from nltk.metrics.distance import jaccard_distance, masi_distance

from analytics import agreement as agreement
from analytics.agreement.set_distances import SET_DISTANCES
from analytics.multilabel import set_distance_alphas, set_distance_sentence, set_pair_types
from tests.helpers.builders import from_array, random_data

krippendorff_alpha = agreement.krippendorff_alpha

NLTK_DISTANCES = {"masi": masi_distance, "jaccard": jaccard_distance}


def _nltk_alpha(x, judged, distance) -> float:
    cats = [f"c{k}" for k in range(x.shape[2])]
    triples = [
        (f"u{u}", f"i{i}", frozenset(c for c, b in zip(cats, x[i, u], strict=True) if b))
        for i in range(x.shape[0])
        for u in range(x.shape[1])
        if judged[i, u]
    ]
    return AnnotationTask(data=triples, distance=distance).alpha()


def _loop_alpha(x, judged, name) -> float:
    """Poesio & Artstein (2005) table 1, generalised to missing judgements (Krippendorff):
    D_o = (1/n) sum_i sum_{j != k in item i} d(j, k) / (m_i - 1), D_e = mean d over all
    ordered pairs of pairable judgements."""
    fn = SET_DISTANCES[name]
    values, d_o = [], 0.0
    for i in range(x.shape[0]):
        sets = [x[i, u] for u in range(x.shape[1]) if judged[i, u]]
        if len(sets) < 2:
            continue
        values += sets
        for a, b in itertools.permutations(range(len(sets)), 2):
            d_o += float(fn(sets[a], sets[b])) / (len(sets) - 1)
    n = len(values)
    d_e = sum(float(fn(a, b)) for a, b in itertools.permutations(values, 2)) / (n * (n - 1))
    return 1 - (d_o / n) / d_e


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("name", ["masi", "jaccard"])
def test_alpha_equals_nltk_on_random_non_empty_sets(seed, name):
    x, judged = random_data(seed, n_i=30, n_u=4, n_c=4, p=0.4, p_missing=0.2)
    x[~x.any(axis=2), 0] = True  # NLTK divides by zero on two empty sets
    ann = from_array(x, judged)
    expect = _nltk_alpha(x, judged, NLTK_DISTANCES[name])
    assert float(krippendorff_alpha(ann, distance=name)) == pytest.approx(expect, abs=1e-9)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("name", list(SET_DISTANCES))
def test_alpha_equals_plain_loop_with_empty_sets(seed, name):
    x, judged = random_data(seed, n_i=20, n_u=3, n_c=3, p=0.3, p_missing=0.2)
    assert (~x.any(axis=2) & judged).any()  # empty-set judgements are present
    ann = from_array(x, judged)
    expect = _loop_alpha(x, judged, name)
    assert float(krippendorff_alpha(ann, distance=name)) == pytest.approx(expect, abs=1e-9)


def test_nltk_with_the_empty_set_convention_agrees_too():
    x, judged = random_data(4, n_i=25, n_u=3, n_c=3, p=0.3)

    def masi_empty_ok(a, b):
        return 0.0 if not a and not b else masi_distance(a, b)

    ann = from_array(x, judged)
    expect = _nltk_alpha(x, judged, masi_empty_ok)
    assert float(krippendorff_alpha(ann, distance="masi")) == pytest.approx(expect, abs=1e-9)


def test_side_by_side_table_and_sentence():
    x, judged = random_data(8, n_i=60, n_u=3, n_c=4, p=0.35)
    x[:, 1] = x[:, 0]
    ann = from_array(x, judged)
    table = set_distance_alphas(ann)
    assert table["distance"].tolist() == list(SET_DISTANCES)
    for row in table.itertuples():
        assert row.alpha == pytest.approx(float(krippendorff_alpha(ann, distance=row.distance)))
    # Dice distances are never larger than Jaccard's, and MASI's never smaller
    by = table.set_index("distance")["alpha"]
    assert np.isfinite(by).all()
    sentence = set_distance_sentence(set_pair_types(ann), table)
    assert "partial" in sentence and f"{by.max():.3f}" in sentence


def test_identical_sets_everywhere_sentence():
    x = np.zeros((4, 2, 3), bool)
    x[:, :, 0] = True
    frame = set_pair_types(from_array(x))
    assert frame.set_index("relation").loc["identical", "share"] == 1.0
    assert "agree" in set_distance_sentence(frame)
    assert isinstance(set_distance_alphas(from_array(x)), pd.DataFrame)


def test_side_by_side_table_never_hides_the_agreement_module(monkeypatch):
    """The agreement module is a hard dependency: no silent "not available" NaN row."""
    x, judged = random_data(4, n_i=20, n_u=3, n_c=3, p=0.4)
    monkeypatch.setitem(sys.modules, "analytics.agreement", None)  # a later import would fail
    table = set_distance_alphas(from_array(x, judged))
    assert table["alpha"].notna().all(), table
