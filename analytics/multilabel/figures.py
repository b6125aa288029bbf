"""Figures for the multi-label measures: Bhowmick et al. (2008) tables 2-5 and figures 2-3.

Every function takes a result of :mod:`analytics.multilabel` and gives a plotly Figure
(per-category kappa and alpha are drawn by
``analytics.agreement.per_category_bars(table, measure="both")``); it draws the numbers it is given and computes none. Degenerate input gives a
figure that says why it is empty.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from analytics._core.errors import require
from analytics._core.formatting import plotly_text
from analytics._core.style import ACCENT, BAD, DIVERGING, GOOD, MUTED, SEQUENTIAL, apply_layout
from analytics._core.style import empty_figure as _empty
from analytics._core.validation import check_whole
from analytics.multilabel.gold import LabelSetGoldStandard
from analytics.multilabel.interval import AmInterval

__all__ = [
    "am_bootstrap_histogram",
    "category_disagreement_bars",
    "category_disagreement_heatmap",
    "category_pair_bars",
    "category_pair_confusion_heatmap",
    "expert_index_bars",
    "gold_distribution_bars",
    "items_by_agreement_bars",
    "pairwise_am_bars",
    "pairwise_am_heatmap",
    "set_distance_alpha_bars",
]


def _pair_labels(index: pd.MultiIndex | pd.Index) -> list[str]:
    return (
        [f"{plotly_text(a)} – {plotly_text(b)}" for a, b in index]
        if isinstance(index, pd.MultiIndex)
        else list(map(plotly_text, index))
    )


def _no_pairs(table: pd.DataFrame) -> str:
    """Why a table per annotator pair is empty (its ``attrs["reason"]``, if any)."""
    return plotly_text(table.attrs.get("reason") or "No two annotators judged the same item.")


def _first_note(table: pd.DataFrame) -> str:
    notes = [n for n in table.get("note", pd.Series(dtype=object)) if isinstance(n, str) and n]
    return plotly_text(notes[0]) if notes else "undefined"


def pairwise_am_heatmap(table: pd.DataFrame, max_annotators: int = 60) -> go.Figure:
    """Table 2 as an annotator x annotator heatmap of A_m (diverging, 0 = chance).

    With more than ``max_annotators`` annotators only those sharing the most items with
    the others are drawn (the title says how many of how many): the grid grows with
    annotators², and a crowd of thousands is unreadable as one.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`~analytics.multilabel.pairwise_am`: one row per annotator pair (columns
        ``P_o``, ``P_e``, ``A_m``).
    max_annotators : int, default 60
        Draw at most this many annotators (a whole number >= 2: a pair).

    Returns
    -------
    plotly.graph_objects.Figure
        The chart, or a figure that says in words why there is nothing to draw.

    Raises
    ------
    AnnotationDataError
        ``max_annotators`` is not a whole number >= 2.
    ArgumentTypeError
        ``table`` is not :func:`~analytics.multilabel.pairwise_am`'s table.
    """
    require(
        table,
        isinstance(table, pd.DataFrame)
        and {"annotator_a", "annotator_b", "a_m", "n_items"} <= set(table.columns),
        "the table pairwise_am returns",
        hint="Draw it from the pairs: pairwise_am_heatmap(pairwise_am(ann)).",
    )
    max_annotators = check_whole(max_annotators, "max_annotators", 2)
    title = "A_m for every pair of annotators"
    if table.empty:
        return _empty(title, _no_pairs(table))
    if table["a_m"].isna().all():
        return _empty(title, f"A_m is undefined for every pair: {_first_note(table)}")
    names = list(dict.fromkeys([*table["annotator_a"], *table["annotator_b"]]))
    if len(names) > max_annotators:
        shared_items = (
            pd.concat(
                [
                    table.groupby("annotator_a")["n_items"].sum(),
                    table.groupby("annotator_b")["n_items"].sum(),
                ]
            )
            .groupby(level=0)
            .sum()
            .sort_values(ascending=False, kind="stable")
        )
        drawn = set(shared_items.index[:max_annotators])
        title += f" (the {max_annotators} sharing most items, of {len(names)} annotators)"
        names = [n for n in names if n in drawn]
        table = table[table["annotator_a"].isin(drawn) & table["annotator_b"].isin(drawn)]
    pos = {n: k for k, n in enumerate(names)}
    grid = np.full((len(names), len(names)), np.nan)
    shared = np.zeros_like(grid)
    for col, other in (("annotator_a", "annotator_b"), ("annotator_b", "annotator_a")):
        r = table[col].map(pos).to_numpy()
        c = table[other].map(pos).to_numpy()
        grid[r, c] = table["a_m"].to_numpy()
        shared[r, c] = table["n_items"].to_numpy()
    text = np.where(np.isfinite(grid), np.vectorize(lambda v: f"{v:.2f}")(np.nan_to_num(grid)), "")
    fig = go.Figure(
        go.Heatmap(
            z=grid,
            x=[plotly_text(n) for n in names],
            y=[plotly_text(n) for n in names],
            colorscale=DIVERGING,
            zmid=0,
            zmin=-1,
            zmax=1,
            text=text,
            texttemplate="%{text}" if len(names) <= 12 else None,
            customdata=shared,
            colorbar={"title": "A_m"},
            hovertemplate="%{y} and %{x}<br>A_m %{z:.3f}<br>%{customdata:.0f} shared items<extra></extra>",
        )
    )
    fig.update_yaxes(autorange="reversed")
    return apply_layout(fig, title=title, x_title="annotator", y_title="annotator")


def pairwise_am_bars(table: pd.DataFrame) -> go.Figure:
    """Table 2 as bars: P_o, P_e and A_m side by side for each annotator pair.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`~analytics.multilabel.pairwise_am`: one row per annotator pair (columns
        ``P_o``, ``P_e``, ``A_m``).

    Returns
    -------
    plotly.graph_objects.Figure
        The chart, or a figure that says in words why there is nothing to draw.
    """
    title = "Observed agreement, chance agreement and A_m per annotator pair"
    if table.empty:
        return _empty(title, _no_pairs(table))
    if table[["p_o", "p_e", "a_m"]].isna().all().all():
        return _empty(title, f"Undefined for every pair: {_first_note(table)}")
    labels = [
        f"{plotly_text(a)} – {plotly_text(b)}"
        for a, b in zip(table["annotator_a"], table["annotator_b"], strict=True)
    ]
    fig = go.Figure()
    for col, name, color in (
        ("p_o", "P_o (observed)", ACCENT),
        ("p_e", "P_e (chance)", MUTED),
        ("a_m", "A_m", GOOD),
    ):
        fig.add_bar(
            x=labels,
            y=table[col],
            name=name,
            marker_color=color,
            hovertemplate="%{x}<br>" + name + " %{y:.3f}<extra></extra>",
        )
    fig.update_layout(barmode="group")
    if table["a_m"].isna().all():
        fig.add_annotation(
            text=f"A_m is undefined for every pair: {_first_note(table)}",
            showarrow=False,
            x=0.5,
            y=1.0,
            xref="paper",
            yref="paper",
            yanchor="bottom",
            font={"color": MUTED},
        )
    return apply_layout(fig, title=title, x_title="annotator pair", y_title="proportion (0-1)")


def items_by_agreement_bars(bands: pd.DataFrame) -> go.Figure:
    """Table 3 as bars: number of items in each band of observed agreement P_i.

    Parameters
    ----------
    bands : pandas.DataFrame
        :func:`~analytics.multilabel.items_by_agreement`: items per band of :math:`P_i`.

    Returns
    -------
    plotly.graph_objects.Figure
        The chart, or a figure that says in words why there is nothing to draw.
    """
    title = "Items by observed agreement"
    if bands["n_items"].sum() == 0:
        reason = bands.attrs.get("reason") or "No item was judged by two or more annotators."
        return _empty(title, f"No item has an observed agreement: {plotly_text(reason)}")
    fig = go.Figure(
        go.Bar(
            x=bands["band"],
            y=bands["n_items"],
            marker_color=ACCENT,
            text=[f"{s:.0%}" for s in bands["share"]],
            textposition="outside",
            hovertemplate="%{x}<br>%{y} items<extra></extra>",
        )
    )
    return apply_layout(
        fig, title=title, x_title="observed agreement of the item (P_i)", y_title="items"
    )


def _no_categories_or_pairs(table: pd.DataFrame) -> str:
    """Why a pair x category table is empty: no categories, or no annotator pair."""
    if len(table.columns) == 0:
        return "There are no categories (every judgement is the empty set): nothing to disagree on."
    return "No two annotators judged the same item."


def category_disagreement_heatmap(table: pd.DataFrame) -> go.Figure:
    """Table 4 as a heatmap: disagreements per category (columns) per annotator pair (rows).

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`~analytics.multilabel.category_disagreement`: disagreements per annotator
        pair (rows) and category (columns).

    Returns
    -------
    plotly.graph_objects.Figure
        The chart, or a figure that says in words why there is nothing to draw.
    """
    title = "Disagreements per category and annotator pair"
    if table.empty:
        return _empty(title, _no_categories_or_pairs(table))
    rows = _pair_labels(table.index)
    z = table.to_numpy(dtype=float)
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=[plotly_text(c) for c in table.columns],
            y=rows,
            colorscale=SEQUENTIAL,
            zmin=0,
            text=z.astype(int).astype(str) if z.size <= 400 else None,
            texttemplate="%{text}" if z.size <= 400 else None,
            colorbar={"title": "items"},
            hovertemplate="%{y}<br>%{x}: %{z:.0f} items disagreed<extra></extra>",
        )
    )
    fig.update_yaxes(autorange="reversed")
    return apply_layout(fig, title=title, x_title="category", y_title="annotator pair")


def category_disagreement_bars(table: pd.DataFrame) -> go.Figure:
    """Table 4's Total row as bars: disagreements per category over all annotator pairs.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`~analytics.multilabel.category_disagreement`: disagreements per annotator
        pair (rows) and category (columns).

    Returns
    -------
    plotly.graph_objects.Figure
        The chart, or a figure that says in words why there is nothing to draw.
    """
    title = "Disagreements per category, all annotator pairs"
    if table.empty:
        return _empty(title, _no_categories_or_pairs(table))
    total = table.sum(axis=0)
    fig = go.Figure(
        go.Bar(
            x=[plotly_text(c) for c in total.index],
            y=total.to_numpy(),
            marker_color=BAD,
            hovertemplate="%{x}: %{y} disagreements<extra></extra>",
        )
    )
    return apply_layout(
        fig, title=title, x_title="category", y_title="disagreements (item x annotator pair)"
    )


def category_pair_confusion_heatmap(conf: pd.DataFrame) -> go.Figure:
    """Table 5 as a triangular heatmap (upper triangle only, as in the paper).

    Parameters
    ----------
    conf : pandas.DataFrame
        :func:`~analytics.multilabel.category_pair_confusion`: a category x category
        table of confusion counts (upper triangle used).

    Returns
    -------
    plotly.graph_objects.Figure
        The chart, or a figure that says in words why there is nothing to draw.
    """
    title = "Confusion between category pairs ([a -] meets [- b])"
    z = conf.to_numpy(dtype=float)
    if z.shape[0] < 2 or not np.isfinite(z).any():
        return _empty(
            title, f"Confusion needs at least two categories (this data set has {z.shape[0]})."
        )
    cats = [plotly_text(c) for c in conf.columns]
    text = np.where(np.isfinite(z), np.nan_to_num(z).astype(int).astype(str), "")
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=cats,
            y=cats,
            colorscale=SEQUENTIAL,
            zmin=0,
            text=text,
            texttemplate="%{text}",
            colorbar={"title": "cases"},
            hoverongaps=False,
            hovertemplate="one annotator %{y}, the other %{x}: %{z:.0f} cases<extra></extra>",
        )
    )
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(side="top")
    apply_layout(fig, title=title, x_title="category b", y_title="category a")
    fig.update_layout(margin={"t": 120})  # room for the column labels on top, as in the paper
    return fig


def category_pair_bars(conf: pd.DataFrame, top: int = 15) -> go.Figure:
    """The paper's figure 2: category pairs by confusion count, most confused first.

    Parameters
    ----------
    conf : pandas.DataFrame
        :func:`~analytics.multilabel.category_pair_confusion`: a category x category
        table of confusion counts (upper triangle used).
    top : int, default 15
        How many of the most confused pairs to show.

    Returns
    -------
    plotly.graph_objects.Figure
        The chart, or a figure that says in words why there is nothing to draw.
    """
    title = "Most confused category pairs"
    z = conf.to_numpy(dtype=float)
    iu = np.triu_indices(z.shape[0], 1)
    counts = z[iu] if z.size else np.zeros(0)
    if counts.size == 0:
        return _empty(
            title, f"Confusion needs at least two categories (this data set has {z.shape[0]})."
        )
    if np.nansum(counts) == 0:
        return _empty(title, "No annotator chose one category where another chose a different one.")
    cats = [plotly_text(c) for c in conf.columns]
    labels = [f"{cats[a]} / {cats[b]}" for a, b in zip(*iu, strict=True)]
    order = np.argsort(-counts, kind="stable")[:top]
    fig = go.Figure(
        go.Bar(
            y=[labels[k] for k in order][::-1],
            x=counts[order][::-1],
            orientation="h",
            marker_color=BAD,
            hovertemplate="%{y}: %{x:.0f} cases<extra></extra>",
        )
    )
    return apply_layout(
        fig, title=title, x_title="cases (item x annotator pair)", y_title="category pair"
    )


def gold_distribution_bars(gold: LabelSetGoldStandard) -> go.Figure:
    """The paper's figure 3: items per category in the gold standard.

    Parameters
    ----------
    gold : LabelSetGoldStandard
        :func:`~analytics.multilabel.gold_standard` of the data.

    Returns
    -------
    plotly.graph_objects.Figure
        The chart, or a figure that says in words why there is nothing to draw.
    """
    title = "Items per category in the gold standard"
    if gold.matrix.shape[0] == 0:
        return _empty(title, "No items.")
    if gold.matrix.shape[1] == 0:
        return _empty(
            title,
            f"There are no categories: the gold label set of all "
            f"{gold.matrix.shape[0]:,} items is empty.",
        )
    counts = gold.matrix.sum(axis=0)
    n_empty = int((~gold.matrix.any(axis=1)).sum())
    fig = go.Figure(
        go.Bar(
            x=[*map(plotly_text, counts.index), "(none)"],
            y=[*counts.to_numpy(), n_empty],
            marker_color=[ACCENT] * len(counts) + [MUTED],
            hovertemplate="%{x}: %{y} items<extra></extra>",
        )
    )
    return apply_layout(fig, title=title, x_title="category", y_title="items")


def expert_index_bars(gold: LabelSetGoldStandard) -> go.Figure:
    """Final expert coder index of every annotator (Algorithm 1's rho).

    Parameters
    ----------
    gold : LabelSetGoldStandard
        :func:`~analytics.multilabel.gold_standard` of the data.

    Returns
    -------
    plotly.graph_objects.Figure
        The chart, or a figure that says in words why there is nothing to draw.
    """
    # short enough for a half-width column; the axis says what is counted
    title = "Expert coder index per annotator"
    rho = gold.expert_index.sort_values(ascending=False)
    if rho.empty:
        return _empty(title, "No annotators.")
    if not rho.any():  # rho grows at every decision with a majority, so none had one
        why = (
            "there are no categories, so there was nothing to decide"
            if gold.matrix.shape[1] == 0
            else "every decision was a tie"
        )
        return _empty(title, f"Every expert index is 0: {why}.")
    fig = go.Figure(
        go.Bar(
            x=[plotly_text(a) for a in rho.index],
            y=rho.to_numpy(),
            marker_color=ACCENT,
            hovertemplate="%{x}: %{y}<extra></extra>",
        )
    )
    return apply_layout(
        fig, title=title, x_title="annotator", y_title="majority decisions sided with"
    )


def am_bootstrap_histogram(interval: AmInterval) -> go.Figure:
    """The bootstrap replicates of A_m with the interval and the estimate marked.

    Parameters
    ----------
    interval : AmInterval
        :func:`~analytics.multilabel.am_bootstrap`: the estimate, the interval and its
        replicates.

    Returns
    -------
    plotly.graph_objects.Figure
        The chart, or a figure that says in words why there is nothing to draw.
    """
    title = f"A_m over {interval.n_boot:,} bootstrap resamples of the items"
    reps = interval.replicates[np.isfinite(interval.replicates)] if len(interval.replicates) else []
    if len(reps) == 0:
        return _empty(title, interval.reason or "No bootstrap replicates.")
    fig = go.Figure(
        go.Histogram(
            x=reps,
            marker_color=MUTED,
            nbinsx=40,
            name="replicates",
            hovertemplate="A_m %{x}<br>%{y} replicates<extra></extra>",
        )
    )
    for x, dash, name in (
        (interval.low, "dot", "low"),
        (interval.high, "dot", "high"),
        (interval.a_m, "solid", "A_m"),
    ):
        fig.add_vline(x=x, line_dash=dash, line_color=ACCENT, annotation_text=name)
    return apply_layout(fig, title=title, x_title="A_m", y_title="replicates")


def set_distance_alpha_bars(table: pd.DataFrame) -> go.Figure:
    """Krippendorff's alpha with each set distance, side by side.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`~analytics.multilabel.set_distance_alphas`: one row per set distance.

    Returns
    -------
    plotly.graph_objects.Figure
        The chart, or a figure that says in words why there is nothing to draw.
    """
    title = "Krippendorff's alpha with each set distance"
    if table.empty or table["alpha"].isna().all():
        note = table["note"].dropna().iloc[0] if len(table) and table["note"].any() else "undefined"
        return _empty(title, f"Alpha is undefined: {plotly_text(note)}")
    fig = go.Figure(
        go.Bar(
            x=table["distance"],
            y=table["alpha"],
            marker_color=ACCENT,
            text=[f"{v:.3f}" for v in table["alpha"]],
            textposition="outside",
            hovertemplate="%{x}: alpha %{y:.3f}<extra></extra>",
        )
    )
    return apply_layout(
        fig, title=title, x_title="set distance", y_title="alpha (0 = chance, 1 = perfect)"
    )
