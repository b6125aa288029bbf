"""One colour language for every figure Concord draws.

- Sequential blues for agreement, probabilities and counts (darker is more).
- A diverging red-blue scale centred on 0 for chance-corrected coefficients
  (below chance is red, above is blue).
- A qualitative palette for categories and annotators.
"""

from __future__ import annotations

import plotly.graph_objects as go

SEQUENTIAL = "Blues"
DIVERGING = "RdBu"  # with zmid=0: red below chance, blue above
QUALITATIVE = [
    "#3b5bdb",
    "#f08c00",
    "#2b8a3e",
    "#c92a2a",
    "#7048e8",
    "#0c8599",
    "#e64980",
    "#5c940d",
    "#862e9c",
    "#495057",
]
ACCENT = "#3b5bdb"
MUTED = "#adb5bd"
BAD = "#c92a2a"
GOOD = "#2b8a3e"


def apply_layout(
    fig: go.Figure,
    *,
    title: str,
    x_title: str | None = None,
    y_title: str | None = None,
    height: int | None = None,
) -> go.Figure:
    """Give a figure Concord's title, axis titles, fonts and margins (returns it)."""
    fig.update_layout(
        title={"text": title, "x": 0.0, "xanchor": "left"},
        template="plotly_white",
        font={"family": "Inter, Segoe UI, Helvetica, Arial, sans-serif", "size": 13},
        margin={"l": 60, "r": 20, "t": 60, "b": 50},
        colorway=QUALITATIVE,
        hoverlabel={"font_size": 12},
    )
    if x_title is not None:
        fig.update_xaxes(title_text=x_title)
    if y_title is not None:
        fig.update_yaxes(title_text=y_title)
    if height is not None:
        fig.update_layout(height=height)
    return fig


def empty_figure(title: str, message: str, *, height: int = 300) -> go.Figure:
    """A figure that says in words why there is nothing to draw (never a blank chart)."""
    fig = go.Figure()
    fig.add_annotation(
        text=message,
        showarrow=False,
        x=0.5,
        y=0.5,
        xref="paper",
        yref="paper",
        font={"size": 14, "color": "#495057"},
        align="center",
    )
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False)
    return apply_layout(fig, title=title, height=height)
