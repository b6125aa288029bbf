"""Figures of the noise calculator: titles, axes, the cut-off, degenerate input."""

from __future__ import annotations

import numpy as np

from analytics.noise import adding_annotators, noise_bound
from analytics.noise.figures import adding_annotators_figure, posterior_figure


def test_posterior_figure_draws_the_cut_off_and_the_bound():
    r = noise_bound(1000, 100, 0.5)
    fig = posterior_figure(r)
    assert fig.layout.title.text
    assert "hidden coin-flips" in fig.layout.xaxis.title.text
    assert fig.layout.yaxis.title.text and fig.layout.yaxis2.title.text
    exact, more = fig.data
    assert np.asarray(exact.y).sum() > 0.999  # every count shown
    # the tail curve crosses 1 - confidence exactly at the bound
    x, y = np.asarray(more.x), np.asarray(more.y)
    assert y[x == 124][0] >= 0.05 > y[x == 125][0]
    shapes = fig.layout.shapes
    assert any(abs(s.y0 - 0.05) < 1e-12 and s.yref == "y2" for s in shapes)
    assert any(s.x0 == 125 for s in shapes)


def test_posterior_figure_degenerate_says_why():
    fig = posterior_figure(noise_bound(10, 10, 0.5))
    assert not fig.data
    assert "no agreed items" in fig.layout.annotations[0].text


def test_posterior_figure_thins_huge_posteriors():
    fig = posterior_figure(noise_bound(10_000_000, 10, 0.999999))
    assert len(fig.data[0].x) <= 2_000


def test_adding_annotators_figure():
    table = adding_annotators(1000, 0.8)
    fig = adding_annotators_figure(table)
    assert [t.name for t in fig.data] == ["noise bound (with confidence)", "expected noise"]
    assert np.allclose(np.asarray(fig.data[0].y), 100 * table["gamma"].to_numpy())
    assert "(%)" in fig.layout.yaxis.title.text and fig.layout.xaxis.title.text
    empty = adding_annotators_figure(table.iloc[0:0])
    assert empty.layout.annotations and not empty.data


def test_posterior_figure_axis_ends_where_the_mass_does():
    """The x axis stops once more coin-flips are all but impossible, past the bound."""
    r = noise_bound(300, 20, 0.1)
    tail = r.tail()
    hidden = r.posterior.index.to_numpy() - r.n_disagreed
    low, high = posterior_figure(r).layout.xaxis.range
    assert low < hidden[0] and r.hidden_hard < high < hidden[-1]
    assert tail.to_numpy()[hidden <= high - 1.5].min() < 1e-4  # nothing drawn is cut off


def test_the_cut_off_label_sits_on_its_line():
    """add_hline's label sat at y = 1 - confidence on the left-hand axis (0-0.33 there),
    far above the dashed line drawn on the right-hand axis."""
    from analytics.data import load_sample
    from analytics.noise import noise_from_annotations
    from analytics.noise.figures import posterior_figure

    result = noise_from_annotations(load_sample("crowd_intents"))
    fig = posterior_figure(result)
    label = next(a for a in fig.layout.annotations if a.text.startswith("1 - confidence"))
    line = next(s for s in fig.layout.shapes if s.line.dash == "dash")
    assert label.yref == line.yref == "y2" and abs(label.y - line.y0) < 1e-12
