"""analytics.figure_table: the numbers behind every figure, as the CSV beside it."""

from __future__ import annotations

import numpy as np
import pandas as pd
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
    assert table["y_low"].iloc[:2].tolist() == pytest.approx([0.4, 0.5])
    assert table["y_high"].iloc[:2].tolist() == pytest.approx([0.6, 0.9])
    assert table["y_low"].iloc[2:].isna().all()
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


def test_a_cached_figure_gives_the_same_table_and_uneven_bars_keep_both_ends():
    """After a pickle (Streamlit's cache) plotly holds arrays as {"dtype", "bdata"} dicts,
    which were skipped: the CSV lost every plotted number. Bars of uneven length kept
    only their upper side; horizontal bars (error_x) were dropped."""
    import pickle

    fig = go.Figure()
    fig.add_trace(go.Bar(x=["a", "b"], y=np.array([0.5, 0.6]), name="bars",
                         error_y={"array": np.array([0.1, 0.2]),
                                  "arrayminus": np.array([0.05, 0.3])}))  # fmt: skip
    fig.add_trace(go.Scatter(x=np.array([0.3, 0.7]), y=["u", "v"], name="dots", mode="markers",
                             error_x={"array": np.array([0.1, 0.1])}))  # fmt: skip
    fig.add_trace(go.Heatmap(z=np.arange(6.0).reshape(2, 3), name="heat"))
    direct = figure_table(fig)
    cached = figure_table(pickle.loads(pickle.dumps(fig)))
    pd.testing.assert_frame_equal(direct, cached)
    bars = direct[direct["trace"] == "bars"]
    assert bars["y_low"].tolist() == pytest.approx([0.45, 0.3])
    assert bars["y_high"].tolist() == pytest.approx([0.6, 0.8])
    dots = direct[direct["trace"] == "dots"]
    assert dots["x_low"].tolist() == pytest.approx([0.2, 0.6])
    assert direct[direct["trace"] == "heat"]["z"].tolist() == list(range(6))


def test_a_band_is_one_row_per_x_with_its_ends_and_other_closed_shapes_stay_outlines():
    from types import SimpleNamespace

    from analytics.next_labels.figures import accuracy_curve_figure

    curve = pd.DataFrame(
        {
            "k": [0, 1, 2],
            "accuracy": [0.8, 0.9, 0.95],
            "low": [0.7, 0.85, 0.9],
            "high": [0.9, 0.95, 0.99],
        }
    )
    table = figure_table(accuracy_curve_figure(SimpleNamespace(curve=curve), now=0.8))
    band = table[table["trace"] == "interval"]
    assert band["x"].tolist() == [0, 1, 2]
    np.testing.assert_allclose(band["y_low"], 100 * curve["low"])
    np.testing.assert_allclose(band["y_high"], 100 * curve["high"])
    assert band["y"].isna().all()
    triangle = go.Figure(go.Scatter(x=[0, 1, 2], y=[0, 1, 0], fill="toself"))
    assert figure_table(triangle)["y"].tolist() == [0, 1, 0]
