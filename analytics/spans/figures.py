"""Figures of span agreement: the annotator-pair F1 matrix and the label confusion.

Names from the data go through :func:`~analytics._core.formatting.plotly_text`, so a
label or annotator name is shown as text, never as markup.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from analytics._core.formatting import plotly_text
from analytics._core.style import SEQUENTIAL, apply_layout, empty_figure

__all__ = ["label_confusion_heatmap", "pair_f1_heatmap"]


def pair_f1_heatmap(table: pd.DataFrame, *, label: object = None) -> go.Figure:
    """Annotator x annotator heatmap of pairwise F1 (symmetric).

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`~analytics.spans.pairwise_f1` over all labels.
    label : object, optional
        The label the table is about (named in the title, as text); None for all labels.

    Returns
    -------
    plotly.graph_objects.Figure
        The chart, or a figure saying why there is nothing to draw.
    """
    title = "Span F1 for every pair of annotators"
    if label is not None:
        title += f", {plotly_text(label)}"
    if table.empty:
        return empty_figure(title, "Fewer than two annotators: there is no pair to compare.")
    if table["f1"].isna().all():
        return empty_figure(title, "No pair of annotators marked a span on a common document.")
    names = list(dict.fromkeys([*table["annotator_a"], *table["annotator_b"]]))
    pos = {n: k for k, n in enumerate(names)}
    grid = np.full((len(names), len(names)), np.nan)
    docs = np.zeros_like(grid)
    for col, other in (("annotator_a", "annotator_b"), ("annotator_b", "annotator_a")):
        r, c = table[col].map(pos).to_numpy(), table[other].map(pos).to_numpy()
        grid[r, c] = table["f1"].to_numpy()
        docs[r, c] = table["documents"].to_numpy()
    text = np.where(np.isfinite(grid), np.char.mod("%.2f", np.nan_to_num(grid)), "")
    labels = [plotly_text(n) for n in names]
    fig = go.Figure(
        go.Heatmap(
            z=grid,
            x=labels,
            y=labels,
            colorscale=SEQUENTIAL,
            zmin=0,
            zmax=1,
            text=text,
            texttemplate="%{text}" if len(names) <= 12 else None,
            customdata=docs,
            colorbar={"title": "F1"},
            hovertemplate="%{y} and %{x}<br>F1 %{z:.3f}<br>%{customdata:.0f} shared documents<extra></extra>",
        )
    )
    fig.update_yaxes(autorange="reversed")
    return apply_layout(fig, title=title, height=max(320, 40 * len(names) + 140))


def label_confusion_heatmap(confusion: pd.DataFrame) -> go.Figure:
    """Heatmap of :func:`~analytics.spans.label_confusion`, shares of each row.

    Parameters
    ----------
    confusion : pandas.DataFrame
        Counts: rows the label given, columns the label the other annotator gave.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    title = "Which labels annotators swap (overlapping spans)"
    total = confusion.to_numpy().sum(axis=1, keepdims=True)
    if confusion.empty or not total.any():
        return empty_figure(title, "No span overlaps a span of another annotator.")
    with np.errstate(invalid="ignore", divide="ignore"):
        share = confusion.to_numpy() / total
    fig = go.Figure(
        go.Heatmap(
            z=share,
            x=[plotly_text(c) for c in confusion.columns],
            y=[plotly_text(r) for r in confusion.index],
            colorscale=SEQUENTIAL,
            zmin=0,
            zmax=1,
            customdata=confusion.to_numpy(),
            colorbar={"title": "share"},
            hovertemplate="%{y} against %{x}<br>%{customdata} times (%{z:.0%} of the row)<extra></extra>",
        )
    )
    fig.update_yaxes(autorange="reversed")
    return apply_layout(
        fig,
        title=title,
        x_title="the other annotator's label",
        y_title="label given",
        height=max(320, 40 * len(confusion) + 160),
    )
