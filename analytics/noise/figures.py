"""Figures for the noise calculator (Beigman Klebanov & Beigman 2009).

They draw results computed elsewhere (:class:`~analytics.noise.NoiseBound`, the table of
:func:`~analytics.noise.adding_annotators`); they compute no statistic themselves.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from analytics._core.formatting import plotly_text
from analytics._core.style import ACCENT, BAD, MUTED, QUALITATIVE, apply_layout, empty_figure
from analytics.noise.bound import NoiseBound

__all__ = ["adding_annotators_figure", "posterior_figure"]

MAX_POINTS = 2_000
#: The x axis stops where the chance of more coin-flips falls below this.
TAIL_SHOWN = 1e-4


def posterior_figure(result: NoiseBound) -> go.Figure:
    """Posterior of the hidden coin-flips with the ``1 - confidence`` cut-off drawn.

    Left axis: ``P(X - d = j | A_d)``, how likely it is that exactly j agreed items are
    coin-flips. Right axis: ``P(X - d > j | A_d)``, the chance that more than j are; the
    bound ``t0 - d`` is the first j where that curve drops below ``1 - confidence``.

    Parameters
    ----------
    result : NoiseBound
        A bound (:func:`~analytics.noise.noise_bound` or
        :func:`~analytics.noise.noise_from_annotations`).

    Returns
    -------
    plotly.graph_objects.Figure
        At most 2,000 points per curve; an empty figure saying why when the bound is
        undefined.

    Examples
    --------
    >>> from analytics.noise import noise_bound
    >>> [t.name for t in posterior_figure(noise_bound(100, 10, 0.5)).data]
    ['P(exactly j coin-flips)', 'P(more than j coin-flips)']
    """
    title = "How many agreed items are coin-flips?"
    if not result.ok or result.posterior.empty:
        return empty_figure(
            title, f"No posterior to draw:<br>{plotly_text(result.reason or 'no data')}"
        )
    post = result.posterior
    tail = result.tail()
    hidden = post.index.to_numpy() - result.n_disagreed
    step = max(1, int(np.ceil(len(post) / MAX_POINTS)))
    x, y, yt = hidden[::step], post.to_numpy()[::step], tail.to_numpy()[::step]
    cut = 1.0 - result.confidence
    fig = make_subplots(specs=[[{"secondary_y": True}]])
    fig.add_trace(
        go.Scatter(
            x=x,
            y=y,
            name="P(exactly j coin-flips)",
            mode="lines",
            line={"color": ACCENT},
            fill="tozeroy",
            line_shape="hvh",
            hovertemplate="j = %{x}<br>P(exactly j) = %{y:.3g}<extra></extra>",
        ),
        secondary_y=False,
    )
    fig.add_trace(
        go.Scatter(
            x=x,
            y=yt,
            name="P(more than j coin-flips)",
            mode="lines",
            line={"color": QUALITATIVE[1], "width": 2},
            line_shape="hv",
            hovertemplate="j = %{x}<br>P(more than j) = %{y:.3g}<extra></extra>",
        ),
        secondary_y=True,
    )
    fig.add_hline(y=cut, line={"color": BAD, "dash": "dash"}, secondary_y=True)
    # the label is placed on the right-hand axis itself: add_hline's own annotation sits at
    # y = cut on the left-hand axis (a plotly quirk with secondary_y), far above the line
    fig.add_annotation(
        x=1,
        xref="x domain",
        y=cut,
        yref="y2",
        text=f"1 - confidence = {cut:.3g}",
        showarrow=False,
        xanchor="right",
        yanchor="bottom",
    )
    fig.add_vline(
        x=result.hidden_hard,
        line={"color": BAD},
        annotation_text=f"bound: {int(result.hidden_hard):,} ({100 * result.gamma:.1f}%)",
        annotation_position="top left",
    )
    apply_layout(
        fig,
        title=title,
        x_title=f"j, hidden coin-flips among the {result.n_agreed:,} agreed items (count)",
    )
    # the axis ends where more coin-flips are all but impossible (P(more than j) < 1e-4),
    # not at the far end of the support, where nothing is drawn
    done = np.flatnonzero(tail.to_numpy() < TAIL_SHOWN)
    end = hidden[done[0]] if len(done) else hidden[-1]
    end = max(float(end), float(result.hidden_hard)) + 1.0
    fig.update_xaxes(range=[float(hidden[0]) - 0.5, end + 0.5])
    fig.update_yaxes(title_text="probability of exactly j", secondary_y=False, rangemode="tozero")
    fig.update_yaxes(
        title_text="probability of more than j",
        secondary_y=True,
        range=[0, 1.02],
        tickvals=[0, 0.2, 0.4, 0.6, 0.8, 1.0],
        showgrid=False,
    )
    fig.update_layout(legend={"orientation": "h", "y": -0.2})
    return fig


def adding_annotators_figure(table: pd.DataFrame) -> go.Figure:
    """Noise bound (and expected noise) of the agreed items against the number of annotators.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`~analytics.noise.adding_annotators`'s output (columns ``annotators``,
        ``gamma``, ``true_noise``).

    Returns
    -------
    plotly.graph_objects.Figure
        Both shares in percent; an empty figure saying why when no row has a bound.

    Examples
    --------
    >>> from analytics.noise import adding_annotators
    >>> len(adding_annotators_figure(adding_annotators(100, 0.8, k_values=[2, 3])).data)
    2
    """
    title = "Would more annotators give a cleaner gold standard?"
    if table.empty or not np.isfinite(table["gamma"]).any():
        return empty_figure(title, "Nothing to draw: no number of annotators gives a bound.")
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=table["annotators"],
            y=100 * table["gamma"],
            mode="lines+markers",
            name="noise bound (with confidence)",
            line={"color": ACCENT},
            hovertemplate="%{x} annotators<br>at most %{y:.2f}% noise<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=table["annotators"],
            y=100 * table["true_noise"],
            mode="lines+markers",
            name="expected noise",
            line={"color": MUTED, "dash": "dot"},
            hovertemplate="%{x} annotators<br>about %{y:.2f}% noise<extra></extra>",
        )
    )
    apply_layout(
        fig,
        title=title,
        x_title="annotators who must all agree (count)",
        y_title="coin-flips among agreed items (%)",
    )
    fig.update_xaxes(dtick=1)
    fig.update_yaxes(rangemode="tozero")
    fig.update_layout(legend={"orientation": "h", "y": -0.2})
    return fig
