"""analytics.figure_table: the numbers behind every figure, as the CSV beside it."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest
from plotly.subplots import make_subplots

from analytics import figure_table
from analytics.agreement import kappa_paradox_figure, pairwise, pairwise_heatmap
from analytics.data import load_sample


def test_points_of_every_trace_with_their_error_bars():
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=[1, 2], y=[0.5, 0.7], error_y={"array": [0.1, 0.2]}, name="a"))
    fig.add_trace(go.Scatter(x=[1, 2, 3], y=[0.1, 0.2, 0.3]))
    table = figure_table(fig)
    assert table["trace"].tolist() == ["a", "a", "trace 2", "trace 2", "trace 2"]
    assert table["y"].tolist() == [0.5, 0.7, 0.1, 0.2, 0.3]
    assert table["error"].iloc[:2].tolist() == [0.1, 0.2] and table["error"].iloc[2:].isna().all()
    assert table["x"].dtype.kind in "if"  # numbers stay numbers


def test_panels_are_named_when_there_are_several_and_a_heatmap_is_one_row_per_cell():
    ann = load_sample("crowd_intents")
    table = figure_table(kappa_paradox_figure(ann))
    assert set(table["panel"]) == {"xy", "x2y2"}
    bars = table[table["trace"] == "prevalence"]
    assert bars["y"].sum() == pytest.approx(1.0)
    heat = pairwise_heatmap(pairwise(ann))
    z = np.asarray(heat.data[0].z, dtype=float)
    cells = figure_table(heat)
    assert len(cells) == z.size
    assert np.allclose(cells["z"].to_numpy(float), z.reshape(-1), equal_nan=True)


def test_a_figure_without_traces_gives_an_empty_table():
    table = figure_table(go.Figure())
    assert table.empty and list(table.columns) == ["trace", "x", "y"]
    fig = make_subplots(rows=1, cols=2)
    fig.add_annotation(text="no data", x=0.5, y=0.5, showarrow=False)
    assert figure_table(fig).empty
