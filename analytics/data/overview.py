"""Figures and tables that describe a data set before any statistic: who labelled what.

Used by the upload page and the HTML report.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from analytics._core.formatting import plotly_text
from analytics._core.style import QUALITATIVE, SEQUENTIAL, apply_layout, empty_figure
from analytics.data.loading import as_annotations
from analytics.data.model import Annotations

__all__ = [
    "coverage_figure",
    "empty_figure",
    "judgements_per_item_figure",
    "label_distribution_figure",
    "wide_table",
]

MAX_HEATMAP_ANNOTATORS = 60


def judgements_per_item_figure(ann: Annotations | pd.DataFrame) -> go.Figure:
    """Bar chart: how many items received 1, 2, 3, ... judgements.

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        The annotations (or a long DataFrame).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    ann = as_annotations(ann)
    title = "Judgements per item"
    if ann.n_items == 0:
        return empty_figure(title, "No judgements were loaded.")
    per_item = np.bincount(ann.item_codes, minlength=ann.n_items)
    counts = np.bincount(per_item)
    k = np.flatnonzero(counts)
    fig = go.Figure(
        go.Bar(
            x=k,
            y=counts[k],
            marker_color=QUALITATIVE[0],
            hovertemplate="%{y} items have %{x} judgements<extra></extra>",
        )
    )
    fig.update_xaxes(dtick=1)
    return apply_layout(
        fig, title=title, x_title="judgements on the item", y_title="items", height=320
    )


def coverage_figure(
    ann: Annotations | pd.DataFrame, max_annotators: int = MAX_HEATMAP_ANNOTATORS
) -> go.Figure:
    """Heatmap: how many items each pair of annotators both judged.

    With more than ``max_annotators`` annotators only the busiest are drawn (the title
    says so); the full matrix is :meth:`Annotations.coverage`.

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        The annotations (or a long DataFrame).
    max_annotators : int, default MAX_HEATMAP_ANNOTATORS
        Draw at most this many annotators.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    ann = as_annotations(ann)
    title = "Shared items between annotators"
    if ann.n_annotators < 2:
        return empty_figure(title, "Only one annotator: there are no pairs to compare.")
    if ann.n_annotators > max_annotators:
        busiest = ann.judgements_per_annotator().sort_values(ascending=False).index[:max_annotators]
        # only the drawn annotators' table is computed (the whole one grows with annotators²)
        cov = ann.subset(annotators=busiest).coverage().loc[busiest, busiest]
        title += f" (the {max_annotators} busiest of {ann.n_annotators} annotators)"
    else:
        cov = ann.coverage()
    names = [plotly_text(a) for a in cov.index]
    fig = go.Figure(
        go.Heatmap(
            z=cov.to_numpy(),
            x=names,
            y=names,
            colorscale=SEQUENTIAL,
            colorbar={"title": "items"},
            hovertemplate="%{y} and %{x}: %{z} shared items<extra></extra>",
        )
    )
    if len(names) <= 20:
        fig.update_traces(texttemplate="%{z}", textfont={"size": 10})
    fig.update_yaxes(autorange="reversed")
    return apply_layout(
        fig,
        title=title,
        x_title="annotator",
        y_title="annotator",
        height=max(360, 18 * len(names) + 120),
    )


def label_distribution_figure(
    ann: Annotations | pd.DataFrame, max_annotators: int = MAX_HEATMAP_ANNOTATORS
) -> go.Figure:
    """Stacked bars: each annotator's share of each category (bias at a glance).

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        The annotations (or a long DataFrame).
    max_annotators : int, default MAX_HEATMAP_ANNOTATORS
        Draw at most this many annotators (the busiest).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    ann = as_annotations(ann)
    title = "Label distribution per annotator"
    if ann.n_judgements == 0:
        return empty_figure(title, "No judgements were loaded.")
    dist = ann.label_distribution()
    if ann.n_annotators > max_annotators:
        busiest = ann.judgements_per_annotator().sort_values(ascending=False).index[:max_annotators]
        dist = dist.loc[busiest]
        title += f" (the {max_annotators} busiest of {ann.n_annotators} annotators)"
    totals = dist.sum(axis=1).replace(0, np.nan)
    share = dist.div(totals, axis=0).fillna(0.0)
    fig = go.Figure()
    for j, cat in enumerate(dist.columns):
        fig.add_bar(
            name=plotly_text(cat),
            x=[plotly_text(a) for a in dist.index],
            y=share[cat],
            customdata=dist[cat],
            marker_color=QUALITATIVE[j % len(QUALITATIVE)],
            meta=plotly_text(cat),  # as meta: a name inside the template could hold "%{...}"
            hovertemplate="%{x}: %{y:.0%} %{meta} (%{customdata} labels)<extra></extra>",
        )
    fig.update_layout(
        barmode="stack" if not ann.is_multilabel else "group", legend_title_text="category"
    )
    y_title = (
        "share of the annotator's labels"
        if not ann.is_multilabel
        else "share of the annotator's label assignments"
    )
    fig.update_yaxes(tickformat=".0%")
    return apply_layout(fig, title=title, x_title="annotator", y_title=y_title, height=380)


def wide_table(ann: Annotations | pd.DataFrame, sep: str = ";") -> pd.DataFrame:
    """Items x annotators of labels as text (sets joined by ``sep``), empty where missing.

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        The annotations (or a long DataFrame).
    sep : str, default ";"
        Joins a multi-label set.

    Returns
    -------
    pandas.DataFrame
        Indexed by item, one column per annotator.
    """
    ann = as_annotations(ann)
    wide = ann.wide()
    if ann.is_multilabel:
        order = {c: i for i, c in enumerate(ann.categories)}
        wide = wide.map(
            lambda s: (
                None
                if s is None
                else (sep.join(str(c) for c in sorted(s, key=order.__getitem__)) or "{}")
            )
        )
    return wide
