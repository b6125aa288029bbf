"""The kappa-paradox chart's markers lie on its curves (issue 17, point 6)."""

from __future__ import annotations

import numpy as np
import pytest

from analytics.agreement import kappa_paradox_figure
from analytics.agreement.paradox import kappa_paradox
from analytics.data import load_sample


@pytest.mark.parametrize("sample", ["crowd_intents", "ratings_ordinal", "rte_snow2008"])
def test_markers_sit_on_their_curves_and_the_actual_values_are_stated(sample):
    ann = load_sample(sample)
    fig = kappa_paradox_figure(ann)
    scatters = [t for t in fig.data if t.type == "scatter"]
    curves = {t.name: t for t in scatters if t.mode != "markers"}
    markers = [t for t in scatters if t.mode == "markers"]
    assert len(markers) == 2
    # named as points of the two-category curves, not as the data's own values (the
    # legend had said "at these data's prevalence: kappa" at 0.2 beside kappa 0.486)
    assert all(", two categories at " in m.name for m in markers)
    for m in markers:
        name = m.name.split(", ", 1)[0]
        curve = curves[name]
        x, y = np.asarray(curve.x, float), np.asarray(curve.y, float)
        # on the curve's own stretch: np.interp outside it returns the end value, which
        # put the markers at a majority share of 37% beside a curve that starts at 50%
        assert x.min() <= m.x[0] <= x.max()
        expected = np.interp(m.x[0], x[np.argsort(x)], y[np.argsort(x)])
        # exact values (below) against the straight line between grid points
        assert m.y[0] == pytest.approx(expected, abs=1e-3)
    view = kappa_paradox(ann)
    note = " ".join(a.text for a in fig.layout.annotations)
    assert f"Fleiss' kappa = {view.fleiss_kappa:.3f}" in note


def test_markers_that_meet_stay_visible():
    """At a majority share near one half kappa equals AC1: the markers were drawn on top
    of each other, same size, so kappa's disappeared under AC1's."""
    ann = load_sample("crowd_intents")
    fig = kappa_paradox_figure(ann)
    kappa, ac1 = (t for t in fig.data if t.type == "scatter" and t.mode == "markers")
    assert kappa.marker.symbol == "diamond-open" and ac1.marker.symbol == "diamond"
    assert kappa.marker.size > ac1.marker.size


def _two_category(po: float, pi: float) -> tuple[float, float]:
    """Kappa and AC1 of two categories of shares pi and 1 - pi at agreement po, by hand."""
    pe_kappa = pi**2 + (1 - pi) ** 2
    pe_ac1 = 2 * pi * (1 - pi)
    return (po - pe_kappa) / (1 - pe_kappa), (po - pe_ac1) / (1 - pe_ac1)


def test_without_a_majority_category_the_markers_sit_at_the_rest():
    """With no category at half the judgements, majority vs rest puts the rest on the
    larger side: the data sit at 1 - (largest share), computed exactly."""
    import pandas as pd

    labels = ["a", "a", "b", "c", "d", "b", "c", "c", "a", "d", "b", "b"] * 3
    df = pd.DataFrame(
        {"item": np.repeat(np.arange(18), 2), "annotator": ["u", "v"] * 18, "label": labels}
    )
    view = kappa_paradox(df)
    assert view.majority < 0.5
    assert view.split == pytest.approx(1 - view.majority)
    kappa, ac1 = _two_category(float(view.observed), view.split)
    assert view.kappa_at_split == pytest.approx(kappa)
    assert view.ac1_at_split == pytest.approx(ac1)
    fig = kappa_paradox_figure(df)
    markers = [t for t in fig.data if t.type == "scatter" and t.mode == "markers"]
    assert [m.x[0] for m in markers] == [pytest.approx(view.split)] * 2
    assert [m.y[0] for m in markers] == [pytest.approx(kappa), pytest.approx(ac1)]
    note = " ".join(a.text for a in fig.layout.annotations)
    assert "the other categories together" in note


def test_a_majority_beyond_the_grid_is_not_clamped():
    """A majority share above the curves' last point (0.995) is drawn where it is."""
    import pandas as pd

    n = 400
    labels = ["x"] * (2 * n - 2) + ["y", "y"]
    df = pd.DataFrame(
        {"item": np.repeat(np.arange(n), 2), "annotator": ["u", "v"] * n, "label": labels}
    )
    view = kappa_paradox(df)
    assert view.split > 0.995
    kappa, ac1 = _two_category(float(view.observed), view.split)
    assert view.kappa_at_split == pytest.approx(kappa)
    assert view.ac1_at_split == pytest.approx(ac1)
