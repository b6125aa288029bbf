"""Figures of the next-labels page: the expected accuracy curve and the replay chart."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from analytics._core.style import ACCENT, MUTED, QUALITATIVE, apply_layout, empty_figure
from analytics.next_labels.planning import Plan

__all__ = ["accuracy_curve_figure", "replay_figure"]


def accuracy_curve_figure(
    more: Plan,
    *,
    now: float,
    after_batch: float | None = None,
    batch_size: int = 0,
    n_items: int | None = None,
    measured_now: float | None = None,
) -> go.Figure:
    """Expected accuracy now, after this batch, and after k more judgements per item.

    Parameters
    ----------
    more : Plan
        :func:`~analytics.next_labels.plan` with ``current=True`` (``k`` more per item).
    now : float
        The model's expected accuracy now (the mean top posterior).
    after_batch : float or None, default None
        Expected accuracy once this batch is in (None: not drawn).
    batch_size : int, default 0
        Judgements in the batch (for the hover text).
    n_items : int or None, default None
        Items in the data: the batch is drawn at ``batch_size / n_items`` more judgements
        per item, where it sits on the curve's axis (None: at 0). It is the fitted model's
        own expectation for the chosen items, so it can lie above the curve, which
        spreads judgements over every item and draws the parameters.
    measured_now : float or None, default None
        Today's labels scored against known true labels (e.g. a sample's), drawn beside
        ``now``: the gap between the two is the model's overconfidence (None: not drawn).

    Returns
    -------
    plotly.graph_objects.Figure
        Accuracy in percent against judgements per item added, with the plan's interval
        as a band; the y axis spans every point drawn (the band's edges included) with a
        margin.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> import pandas as pd
    >>> curve = pd.DataFrame({"k": [0, 1], "accuracy": [0.8, 0.9], "low": [0.7, 0.85],
    ...                       "high": [0.9, 0.95]})
    >>> fig = accuracy_curve_figure(SimpleNamespace(curve=curve), now=0.8)
    >>> len(fig.data), [round(y, 1) for y in fig.layout.yaxis.range]
    (3, [68.5, 96.5])
    """
    curve = more.curve
    title = "Expected accuracy of the model's labels"
    if curve.empty:
        return empty_figure(title, "Nothing to draw: the plan has no point.")
    x = curve["k"].to_numpy()
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=np.r_[x, x[::-1]],
            y=100 * np.r_[curve["high"], curve["low"][::-1]],
            fill="toself",
            mode="lines",  # a band: no markers on its edges
            line={"width": 0},
            fillcolor="rgba(59, 91, 219, 0.15)",
            hoverinfo="skip",
            name="interval",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=x,
            y=100 * curve["accuracy"],
            mode="lines+markers",
            line={"color": ACCENT},
            name="k more judgements per item",
            hovertemplate="%{x} more per item<br>%{y:.1f}% expected accuracy<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=[0],
            y=[100 * now],
            mode="markers",
            marker={"color": MUTED, "size": 12, "symbol": "diamond"},
            name="now",
            hovertemplate="now: %{y:.1f}%<extra></extra>",
        )
    )
    if measured_now is not None and np.isfinite(measured_now):
        fig.add_trace(
            go.Scatter(
                x=[0],
                y=[100 * measured_now],
                mode="markers",
                marker={"color": "white", "size": 12, "line": {"color": MUTED, "width": 2}},
                name="now, against the true labels",
                hovertemplate="now, against the true labels: %{y:.1f}%<extra></extra>",
            )
        )
    if after_batch is not None and np.isfinite(after_batch):
        at = batch_size / n_items if n_items else 0.0
        fig.add_trace(
            go.Scatter(
                x=[at],
                y=[100 * after_batch],
                mode="markers",
                marker={"color": QUALITATIVE[1], "size": 12, "symbol": "star"},
                name=f"after this batch ({batch_size:,} judgements, on the chosen items)",
                hovertemplate="after this batch: %{y:.1f}%<extra></extra>",
            )
        )
    apply_layout(
        fig,
        title=title,
        x_title="more judgements per item",
        y_title="expected accuracy (%)",
    )
    # Plotly pads no line-only trace, so a band reaching the data's extremes sat on the
    # plot's edge, cut off: give every drawn point some room
    drawn = np.concatenate([np.asarray(t.y, float) for t in fig.data])
    drawn = drawn[np.isfinite(drawn)]
    if len(drawn):
        lo, hi = float(drawn.min()), float(drawn.max())
        pad = max(0.06 * (hi - lo), 0.02)
        # an accuracy is at most 100%: the axis stops there (a settled set's flat curve
        # had read 99.98 to 100.02%), and the markers on its edge are drawn unclipped
        top = min(hi + pad, 100.0) if hi <= 100.0 else hi + pad
        fig.update_yaxes(range=[lo - pad, top])
        fig.update_traces(cliponaxis=False, selector={"type": "scatter"})
        for trace in fig.data:
            if trace.mode == "lines":  # the band: a filled area, clipped as before
                trace.cliponaxis = True
    return fig


def replay_figure(table: pd.DataFrame) -> go.Figure:
    """Accuracy against judgements used, one line per strategy (:func:`replay`'s table).

    Parameters
    ----------
    table : pandas.DataFrame
        Columns ``strategy``, ``judgements``, ``accuracy``; ``attrs["full_accuracy"]``
        (drawn as a dashed line) when present.

    Returns
    -------
    plotly.graph_objects.Figure

    Examples
    --------
    >>> t = pd.DataFrame({"strategy": ["gain", "gain"], "judgements": [10, 20],
    ...                   "accuracy": [0.7, 0.8]})
    >>> len(replay_figure(t).data)
    1
    """
    title = "Replay: accuracy against judgements used"
    if table.empty:
        return empty_figure(title, "Nothing to draw: the replay has no point.")
    fig = go.Figure()
    for n, (strategy, rows) in enumerate(table.groupby("strategy", sort=False)):
        fig.add_trace(
            go.Scatter(
                x=rows["judgements"],
                y=100 * rows["accuracy"],
                mode="lines",
                name=str(strategy),
                line={"color": QUALITATIVE[n % len(QUALITATIVE)]},
                hovertemplate="%{x:,} judgements<br>%{y:.1f}%<extra>" + str(strategy) + "</extra>",
            )
        )
    full = table.attrs.get("full_accuracy")
    if full is not None and np.isfinite(full):
        fig.add_hline(
            y=100 * full,
            line={"color": MUTED, "dash": "dash"},
            annotation_text="all judgements",
        )
    apply_layout(fig, title=title, x_title="judgements used", y_title="accuracy (%)")
    return fig
