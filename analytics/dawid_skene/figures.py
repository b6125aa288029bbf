"""Figures for a fitted Dawid-Skene model (plotly; never streamlit).

The figures of Passonneau & Carpenter (2014): per-annotator confusion heatmaps (Fig. 6),
prevalence three ways (Fig. 4), mutual information per annotator (Fig. 8), plus the
posterior confidence histogram and the log-likelihood curve of the fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from analytics._core.errors import AnnotationDataError, check_known
from analytics._core.formatting import plotly_text
from analytics._core.style import ACCENT, MUTED, QUALITATIVE, SEQUENTIAL, apply_layout
from analytics._core.style import empty_figure as _empty
from analytics._core.validation import check_choice, check_whole
from analytics.dawid_skene.information import entropy
from analytics.dawid_skene.model import require_fitted
from analytics.dawid_skene.reports import (
    annotator_information,
    annotator_table,
    confident_share,
    prevalence_comparison,
)

if TYPE_CHECKING:
    from analytics.dawid_skene.model import DawidSkeneResult

__all__ = [
    "PICKS",
    "confidence_histogram",
    "confusion_heatmaps",
    "log_likelihood_figure",
    "mutual_information_figure",
    "pick_annotators",
    "prevalence_figure",
]

PICKS = ("least accurate", "most accurate", "most judgements", "chosen")


def pick_annotators(
    result: DawidSkeneResult,
    how: str = "least accurate",
    n: int = 6,
    chosen: Sequence[Any] | None = None,
) -> list[Any]:
    """Which annotators to show: the ``n`` least or most accurate, the busiest, or chosen.

    Accuracy is :func:`annotator_table`'s ``accuracy``; ties are broken by judgements
    (more first), then by name order.

    Parameters
    ----------
    result : DawidSkeneResult
        A fitted model.
    how : {"least accurate", "most accurate", "most judgements", "chosen"}, default "least accurate"
        How to pick them (:data:`PICKS`).
    n : int, default 6
        How many to pick (a whole number >= 0); not used with ``"chosen"``.
    chosen : sequence or None, default None
        With ``how="chosen"``: the annotators, in order.

    Returns
    -------
    list
        Annotator names of the fit.

    Raises
    ------
    AnnotationDataError
        An unknown ``how``, a negative or fractional ``n``, or (``"chosen"``) no
        ``chosen`` list or a name that is not an annotator of the fit.
    ArgumentTypeError
        ``result`` is not a fitted model.
    """
    require_fitted(result, "pick_annotators")
    check_choice(how, "pick", PICKS)
    if how == "chosen":
        if chosen is None:
            raise AnnotationDataError(
                "how='chosen' needs the annotators to show.",
                hint="Pass them as chosen=[...], e.g. chosen=list(result.annotators[:3]).",
            )
        return check_known(chosen, result.annotators, "chosen", "the fit")
    count = check_whole(n, "n", 0)
    t = annotator_table(result)[["accuracy", "judgements"]].copy()
    t["order"] = np.arange(len(t))
    if how == "most judgements":
        t = t.sort_values(["judgements", "order"], ascending=[False, True])
    else:
        t = t.sort_values(
            ["accuracy", "judgements", "order"],
            ascending=[how == "least accurate", False, True],
        )
    return list(t.index[:count])


def confusion_heatmaps(
    result: DawidSkeneResult,
    annotators: Sequence[Any] | None = None,
    *,
    columns: int = 3,
) -> go.Figure:
    """A grid of confusion heatmaps, one per annotator (the paper's Fig. 6).

    True category down, given label across, darker is more probable (0 to 1 on one
    shared scale). Each panel's title gives the annotator, their accuracy and judgements.
    The true categories are named once per row of panels, on the left.

    Raises
    ------
    AnnotationDataError
        An annotator that is not in the fit.
    ArgumentTypeError
        ``result`` is not a fitted model.
    """
    title = "Annotator confusion matrices: P(given label | true category)"
    require_fitted(result, "confusion_heatmaps")
    if annotators is None:
        annotators = pick_annotators(result, "least accurate", 6)
    annotators = check_known(annotators, result.annotators, "annotators", "the fit")
    if not annotators:
        return _empty(title, "No annotator selected.")
    table = annotator_table(result)
    cols = max(1, min(int(columns), len(annotators)))
    rows = -(-len(annotators) // cols)
    names = [
        f"{plotly_text(a)}<br>accuracy {table.loc[a, 'accuracy']:.2f}, {int(table.loc[a, 'judgements'])} labels"
        for a in annotators
    ]
    fig = make_subplots(
        rows=rows,
        cols=cols,
        subplot_titles=names,
        horizontal_spacing=0.08,
        vertical_spacing=0.18 if rows > 1 else 0.1,
    )
    cats = [plotly_text(c) for c in result.categories]
    for n, a in enumerate(annotators):
        mat = result.confusion[a].to_numpy()
        r, c = divmod(n, cols)
        fig.add_trace(
            go.Heatmap(
                z=mat,
                x=cats,
                y=cats,
                zmin=0.0,
                zmax=1.0,
                colorscale=SEQUENTIAL,
                showscale=n == 0,
                colorbar={"title": {"text": "probability"}},
                text=np.round(mat, 2),
                texttemplate="%{text}" if len(cats) <= 6 else None,
                meta=plotly_text(a),  # as meta: a name inside the template could hold "%{...}"
                hovertemplate="true %{y}, given %{x}: %{z:.3f}<extra>%{meta}</extra>",
            ),
            row=r + 1,
            col=c + 1,
        )
        fig.update_yaxes(
            autorange="reversed",
            type="category",
            row=r + 1,
            col=c + 1,
            title_text="true category" if c == 0 else None,
            # every panel has the same rows: naming them once, on the left, keeps long
            # category names from running into the neighbouring panel
            showticklabels=c == 0,
        )
        fig.update_xaxes(
            type="category",
            row=r + 1,
            col=c + 1,
            title_text="given label" if r == rows - 1 else None,
        )
    fig.update_annotations(font_size=11)
    return apply_layout(fig, title=title, height=max(320, 290 * rows))


def prevalence_figure(result: DawidSkeneResult) -> go.Figure:
    """Prevalence by the model vs majority vote vs raw label frequency (the paper's Fig. 4)."""
    title = "Prevalence of each category, three ways"
    require_fitted(result, "prevalence_figure")
    t = prevalence_comparison(result)
    if t.empty:
        return _empty(title, "No categories.")
    fig = go.Figure()
    colours = {"model": ACCENT, "majority vote": QUALITATIVE[1], "raw frequency": MUTED}
    for col in t.columns:
        fig.add_trace(
            go.Bar(
                x=[plotly_text(c) for c in t.index],
                y=t[col],
                name=col,
                marker_color=colours[col],
                hovertemplate="%{x}: %{y:.1%}<extra>" + col + "</extra>",
            )
        )
    fig.update_layout(barmode="group", legend={"orientation": "h", "y": -0.2})
    fig.update_yaxes(tickformat=".0%", rangemode="tozero")
    fig.update_xaxes(type="category")
    return apply_layout(fig, title=title, x_title="category", y_title="share of items (%)")


def confidence_histogram(result: DawidSkeneResult, threshold: float = 0.99) -> go.Figure:
    """How sure the model is of each item's label: histogram of the top posterior."""
    title = "How sure is the model of each item's label?"
    require_fitted(result, "confidence_histogram")
    conf = result.confidence.to_numpy()
    if len(conf) == 0:
        return _empty(title, "No items.")
    k = max(len(result.categories), 1)
    lo = 1.0 / k
    fig = go.Figure(
        go.Histogram(
            x=conf,
            xbins={"start": lo, "end": 1.0 + 1e-9, "size": (1.0 - lo) / 40 or 0.025},
            marker_color=ACCENT,
            hovertemplate="%{x}: %{y} items<extra></extra>",
        )
    )
    share = float(confident_share(result, threshold).iloc[-1]["share of all items"])
    fig.add_vline(
        x=threshold,
        line_dash="dash",
        line_color=MUTED,
        annotation_text=f"{share:.0%} of items at or above {threshold:g}",
        annotation_position="top left",
    )
    fig.update_xaxes(range=[lo - 0.01, 1.01])
    return apply_layout(
        fig,
        title=title,
        x_title="posterior probability of the chosen label",
        y_title="items (count)",
    )


def mutual_information_figure(result: DawidSkeneResult, top: int = 40) -> go.Figure:
    """Bits of information per label, one bar per annotator (the paper's Fig. 8).

    With more than ``top`` annotators, shows the ``top`` most and least informative.
    """
    title = "How much does one label from each annotator tell? (mutual information)"
    require_fitted(result, "mutual_information_figure")
    info = annotator_information(result)
    mi = info["mutual information (bits)"]
    if mi.isna().all():
        return _empty(title, "Undefined: with one category there is nothing to learn.")
    if len(info) > top:
        half = top // 2
        info = pd.concat([info.head(half), info.tail(top - half)])
    h = entropy(result.prevalence.to_numpy())
    fig = go.Figure(
        go.Bar(
            x=[plotly_text(a) for a in info.index],
            y=info["mutual information (bits)"],
            marker_color=ACCENT,
            customdata=info["judgements"],
            hovertemplate="%{x}: %{y:.3f} bits (%{customdata} labels)<extra></extra>",
        )
    )
    fig.add_hline(
        y=h,
        line_dash="dash",
        line_color=MUTED,
        annotation_text=f"maximum: H[Z] = {h:.2f} bits",
        annotation_position="top right",
    )
    fig.update_xaxes(type="category")
    return apply_layout(
        fig,
        title=title,
        x_title="annotator (most informative first)",
        y_title="mutual information (bits)",
    )


def log_likelihood_figure(result: DawidSkeneResult) -> go.Figure:
    """The penalised log-likelihood per EM iteration (never decreases).

    For ``analytics.models``' stacked ``auto`` the trace is the stacking objective, the
    mixture's held-out log score in nats per held-out judgement, per Newton step of the
    weights; for its hierarchical model, the evidence lower bound. The axes say which.
    """
    require_fitted(result, "log_likelihood_figure")
    model = getattr(result, "model", None)
    stacked = model == "stacked"
    if stacked:
        title = "Fit progress: the mixture's held-out log score per step of the weights"
        x_title, y_title = "Newton step", "nats per held-out judgement"
    elif model == "hierarchical":
        title = "Fit progress: evidence lower bound per EM iteration"
        x_title, y_title = "EM iteration", "evidence lower bound (nats)"
    else:
        title = "Fit progress: penalised log-likelihood per EM iteration"
        x_title, y_title = "EM iteration", "penalised log-likelihood (nats)"
    ll = np.asarray(result.log_likelihood, dtype=float)
    if len(ll) == 0:
        return _empty(title, "No iterations were run.")
    fig = go.Figure(
        go.Scatter(
            x=np.arange(len(ll)),
            y=ll,
            mode="lines+markers" if len(ll) < 60 else "lines",
            line={"color": ACCENT},
            hovertemplate=("step" if stacked else "iteration") + " %{x}: %{y:.4f}<extra></extra>",
        )
    )
    done = "certified optimal" if stacked else "converged"
    state = done if result.converged else "stopped at max_iter (not converged)"
    fig.add_annotation(
        text=f"{result.n_iter} {'steps' if stacked else 'iterations'}, {state}",
        showarrow=False,
        x=1,
        y=0,
        xref="paper",
        yref="paper",
        xanchor="right",
        yanchor="bottom",
    )
    fig.update_yaxes(tickformat=",~r")  # one style of separators on every tick
    fig.update_xaxes(tickformat="d")  # whole iterations: no 0.5 ticks on a short trace
    if len(ll) <= 12:
        fig.update_xaxes(dtick=1)
    return apply_layout(fig, title=title, x_title=x_title, y_title=y_title)
