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
    for m in markers:
        name = m.name.rsplit(": ", 1)[1]
        curve = curves[name]
        x, y = np.asarray(curve.x, float), np.asarray(curve.y, float)
        expected = np.interp(m.x[0], x[np.argsort(x)], y[np.argsort(x)])
        assert m.y[0] == pytest.approx(expected)
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
