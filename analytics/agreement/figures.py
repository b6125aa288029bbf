"""Figures for the agreement report (plotly; never streamlit).

Chance-corrected coefficients use the diverging scale centred on 0 (red below chance,
blue above); raw agreement and counts use the sequential blues. Every function returns a
figure with an explanatory annotation instead of a blank chart when there is nothing to
draw. Figures compute no statistic: they draw what the tables and coefficients return.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from analytics._core.errors import require
from analytics._core.formatting import plotly_labels, plotly_text
from analytics._core.style import (
    ACCENT,
    BAD,
    DIVERGING,
    GOOD,
    MUTED,
    SEQUENTIAL,
    apply_layout,
    empty_figure,
)
from analytics._core.validation import check_choice
from analytics.agreement.paradox import kappa_paradox
from analytics.agreement.tables import Pairwise, item_agreement_summary
from analytics.data import Annotations

__all__ = [
    "contingency_heatmap",
    "forest_plot",
    "item_agreement_histogram",
    "kappa_paradox_figure",
    "pairwise_heatmap",
    "per_category_bars",
]

_NAMES = {
    "cohen_kappa": "Cohen's kappa",
    "scott_pi": "Scott's pi",
    "percent_agreement": "percent agreement",
    "gwet_ac1": "Gwet's AC1",
    "krippendorff_alpha": "Krippendorff's alpha (nominal)",
}


def pairwise_heatmap(pw: Pairwise) -> go.Figure:
    """Annotator x annotator heatmap: values printed, shared-item counts on hover.

    Parameters
    ----------
    pw : Pairwise
        From :func:`~analytics.agreement.pairwise`.

    Returns
    -------
    plotly.graph_objects.Figure
        Diverging colours centred on 0 for chance-corrected coefficients, sequential blues
        for percent agreement.
    """
    name = _NAMES.get(pw.coefficient, pw.coefficient)
    fig = go.Figure()
    apply_layout(fig, title=f"Pairwise {name}", x_title="Annotator", y_title="Annotator")
    values = pw.values.to_numpy(dtype=float)
    if not np.isfinite(values).any():
        return empty_figure(
            fig.layout.title.text,
            "No pair of annotators has a defined value: pairs share no items, or used one category.",
        )
    chance = pw.coefficient != "percent_agreement"
    labels = [plotly_text(a) for a in pw.values.index]
    shared = pw.shared.reindex(index=pw.values.index, columns=pw.values.columns).to_numpy()
    # two decimals in every cell ("0.40", not "0.4" beside "0.41"); + 0.0 turns -0.00 into 0.00
    text = np.where(np.isfinite(values), np.char.mod("%.2f", np.round(values, 2) + 0.0), "")
    fig.add_trace(
        go.Heatmap(
            z=values,
            x=labels,
            y=labels,
            text=text,
            texttemplate="%{text}",
            customdata=shared,
            hovertemplate="%{y} vs %{x}<br>"
            + name
            + ": %{z:.3f}<br>shared items: %{customdata}<extra></extra>",
            colorscale=DIVERGING if chance else SEQUENTIAL,
            zmid=0 if chance else None,
            zmin=-1 if chance else 0,
            zmax=1,
            colorbar={"title": {"text": name}},
        )
    )
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(type="category")
    if len(labels) > 30:
        fig.update_traces(texttemplate=None)
    return fig


def _short_text(text: object, width: int = 70) -> str:
    """``text`` on one line, cut at a word boundary with an ellipsis when longer than ``width``.

    Examples
    --------
    >>> _short_text("defined for single-label data only; for multi-label data use alpha", 40)
    'defined for single-label data only; for…'
    >>> _short_text("defined for single-label data only; for multi-label data use alpha", 42)
    'defined for single-label data only; for…'
    >>> _short_text("short enough")
    'short enough'
    """
    line = " ".join(str(text).split())
    if len(line) <= width:
        return line
    cut = line[: width - 1]
    space = cut.rfind(" ")
    if line[len(cut)] != " " and space >= width // 2:  # back to a word boundary, if near
        cut = cut[:space]
    return cut.rstrip(" ,;:.") + "…"


def forest_plot(report: pd.DataFrame) -> go.Figure:
    """Every coefficient with its interval.

    Parameters
    ----------
    report : DataFrame
        From :func:`~analytics.agreement.agreement_report`.

    Returns
    -------
    plotly.graph_objects.Figure
        One marker per coefficient with its interval; undefined coefficients say why.
    """
    require(
        report,
        isinstance(report, pd.DataFrame) and {"coefficient", "value"} <= set(report.columns),
        "the table agreement_report returns",
        hint="Draw it from the report: forest_plot(agreement_report(ann)).",
    )
    fig = go.Figure()
    apply_layout(
        fig,
        title="Agreement coefficients with confidence intervals",
        x_title="Coefficient value (1 = perfect, 0 = chance level)",
        y_title="Coefficient",
        height=max(300, 40 * len(report) + 120),
    )
    ok = report["value"].notna().to_numpy()
    if not ok.any():
        return empty_figure(
            fig.layout.title.text, "No coefficient is defined for these data; the table says why."
        )
    names = report["coefficient"].tolist()
    has_ci = report["ci_low"].notna().to_numpy()
    lo = (report["value"] - report["ci_low"]).where(has_ci)
    hi = (report["ci_high"] - report["value"]).where(has_ci)
    fig.add_trace(
        go.Scatter(
            x=report["value"],
            y=names,
            mode="markers",
            marker={"size": 11, "color": ACCENT},
            error_x={
                "type": "data",
                "symmetric": False,
                "array": hi,
                "arrayminus": lo,
                "color": ACCENT,
            },
            customdata=np.column_stack([report["ci_low"], report["ci_high"], report["items_used"]]),
            hovertemplate="%{y}: %{x:.3f}<br>interval %{customdata[0]:.3f} to %{customdata[1]:.3f}"
            "<br>items used: %{customdata[2]}<extra></extra>",
            name="estimate",
        )
    )
    for name, note in zip(report["coefficient"][~ok], report["note"][~ok], strict=True):
        fig.add_annotation(
            x=0,
            y=name,
            text=f"undefined: {plotly_text(_short_text(note))}",
            hovertext=plotly_text(note),  # the whole reason, on hover
            showarrow=False,
            xanchor="left",
            font={"color": BAD, "size": 11},
        )
    fig.add_vline(x=0, line={"color": MUTED, "dash": "dash"})
    fig.update_yaxes(autorange="reversed", type="category", categoryarray=names)
    fig.update_xaxes(
        range=[min(-0.1, float(np.nanmin(report["ci_low"].fillna(report["value"]))) - 0.05), 1.05]
    )
    return fig


_CATEGORY_MEASURES = {
    "fleiss_kappa": ("Fleiss' kappa", ("kappa_low", "kappa_high")),
    "alpha": ("Krippendorff's alpha", ("alpha_low", "alpha_high")),
    "percent_agreement": ("percent agreement", None),
    "specific_agreement": ("specific agreement", None),
}
"""The columns of :func:`~analytics.agreement.per_category` a bar chart can draw: title, interval."""


def per_category_bars(table: pd.DataFrame, measure: str = "fleiss_kappa") -> go.Figure:
    """One-vs-rest agreement per category, with intervals.

    Parameters
    ----------
    table : DataFrame
        From :func:`~analytics.agreement.per_category`.
    measure : {"fleiss_kappa", "alpha", "percent_agreement", "specific_agreement", "both"}
        Which coefficient to draw (default ``"fleiss_kappa"``); ``"both"`` draws kappa and
        alpha side by side, without intervals (the multi-label page's view). Percent and
        specific agreement are not chance-corrected (0 is no agreement, not chance) and
        have no intervals.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    check_choice(measure, "measure", (*_CATEGORY_MEASURES, "both"))
    if measure == "both":
        return _kappa_and_alpha_bars(table)
    title, interval = _CATEGORY_MEASURES[measure]
    corrected = interval is not None
    fig = go.Figure()
    apply_layout(
        fig,
        title=f"Agreement per category ({title}, one category against the rest)",
        x_title="Category",
        y_title=f"{title} (0 = chance, 1 = perfect)" if corrected else f"{title} (1 = perfect)",
    )
    values = table[measure].to_numpy(dtype=float)
    if not np.isfinite(values).any():
        return empty_figure(
            fig.layout.title.text, "No category has a defined agreement; the table says why."
        )
    cats = [plotly_text(c) for c in table["category"]]
    error = None
    if corrected:
        low, high = interval
        error = {
            "type": "data",
            "symmetric": False,
            "array": table[high] - table[measure],
            "arrayminus": table[measure] - table[low],
            # its own colour: inherited from bars coloured by value, plotly.js read the
            # numbers as colours ("Invalid color specifier") and fell back to black
            "color": MUTED,
        }
    colours = {"color": values, "colorscale": DIVERGING, "cmid": 0, "cmin": -1, "cmax": 1}
    fig.add_trace(
        go.Bar(
            x=cats,
            y=values,
            marker=colours if corrected else {"color": ACCENT},
            error_y=error,
            customdata=np.column_stack([table["prevalence"], table["judgements"]]),
            hovertemplate="%{x}: %{y:.3f}<br>prevalence %{customdata[0]:.1%}"
            "<br>judgements %{customdata[1]}<extra></extra>",
            name=title,
        )
    )
    fig.update_xaxes(type="category")
    fig.add_hline(y=0, line={"color": MUTED, "dash": "dash"})
    return fig


def _kappa_and_alpha_bars(frame: pd.DataFrame) -> go.Figure:
    """Fleiss' kappa and Krippendorff's alpha per category, side by side (0 = chance)."""
    title = "Agreement on each category on its own"
    if frame.empty:
        return empty_figure(title, "There are no categories (every judgement is the empty set).")
    if frame[["fleiss_kappa", "alpha"]].isna().all().all():
        return empty_figure(
            title,
            "Undefined for every category: "
            + plotly_text(frame["note"].iloc[0] if len(frame) else ""),
        )
    cats = [plotly_text(c) for c in frame["category"]]
    fig = go.Figure()
    fig.add_bar(
        x=cats,
        y=frame["fleiss_kappa"],
        name="Fleiss' kappa",
        marker_color=ACCENT,
        hovertemplate="%{x}: kappa %{y:.3f}<extra></extra>",
    )
    fig.add_bar(
        x=cats,
        y=frame["alpha"],
        name="Krippendorff's alpha",
        marker_color=GOOD,
        hovertemplate="%{x}: alpha %{y:.3f}<extra></extra>",
    )
    fig.update_layout(barmode="group")
    fig.update_yaxes(
        range=[
            min(
                -0.1,
                float(np.nanmin(frame[["fleiss_kappa", "alpha"]].to_numpy(dtype=float))) - 0.05,
            ),
            1,
        ]
    )
    return apply_layout(
        fig, title=title, x_title="category", y_title="coefficient (0 = chance, 1 = perfect)"
    )


def contingency_heatmap(table: pd.DataFrame) -> go.Figure:
    """Confusion matrix between two annotators.

    Parameters
    ----------
    table : DataFrame
        From :func:`~analytics.agreement.contingency` (index and columns named after the
        annotators).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    a = plotly_text(table.index.name or "annotator A")
    b = plotly_text(table.columns.name or "annotator B")
    fig = go.Figure()
    apply_layout(
        fig,
        title=f"Labels of {a} (rows) against {b} (columns)",
        x_title=f"Label given by {b}",
        y_title=f"Label given by {a}",
    )
    counts = table.to_numpy()
    if counts.sum() == 0:
        return empty_figure(fig.layout.title.text, f"{a} and {b} judged no item in common.")
    rows, cols = [plotly_text(x) for x in table.index], [plotly_text(x) for x in table.columns]
    fig.add_trace(
        go.Heatmap(
            z=counts,
            x=cols,
            y=rows,
            text=counts,
            texttemplate="%{text}",
            colorscale=SEQUENTIAL,
            # the names go in as meta: a name inside the template could hold "%{...}"
            meta=[a, b],
            hovertemplate="%{meta[0]}: %{y}<br>%{meta[1]}: %{x}<br>items: %{z}<extra></extra>",
            colorbar={"title": {"text": "items"}},
        )
    )
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(type="category")
    return fig


def item_agreement_histogram(items: pd.DataFrame) -> go.Figure:
    """How the items spread over observed agreement.

    Parameters
    ----------
    items : DataFrame
        A table of :func:`~analytics.agreement.item_agreement`.

    Returns
    -------
    plotly.graph_objects.Figure
        A histogram with the mean (:func:`~analytics.agreement.tables.item_agreement_summary`)
        marked and the share of items in full agreement noted.
    """
    fig = go.Figure()
    apply_layout(
        fig,
        title="Observed agreement per item",
        x_title="Share of agreeing pairs of judgements on the item",
        y_title="Number of items",
    )
    summary = item_agreement_summary(items)
    if summary.n_items == 0:
        return empty_figure(
            fig.layout.title.text,
            "No item has two or more judgements, so no item agreement can be measured.",
        )
    fig.add_trace(
        go.Histogram(
            x=items["agreement"].dropna(),
            xbins={"start": 0, "end": 1.0001, "size": 0.05},
            marker={"color": ACCENT},
            name="items",
            hovertemplate="agreement %{x}<br>%{y} items<extra></extra>",
        )
    )
    fig.add_vline(
        x=summary.mean,
        line={"color": GOOD, "dash": "dash"},
        annotation_text=f"mean {summary.mean:.2f}",
        annotation_position="top left",
        # on a backdrop: the label sat on top of the bar next to the mean, unreadable
        annotation={"bgcolor": "rgba(255, 255, 255, 0.85)"},
    )
    fig.add_annotation(
        text=f"{summary.full_share:.0%} of {summary.n_items:,} items: full agreement",
        xref="paper",
        yref="paper",
        x=0.02,
        y=0.98,
        showarrow=False,
        xanchor="left",
    )
    # items in full agreement fill the bin [1, 1.05): shown whole (it was cut at 1.02)
    fig.update_xaxes(range=[-0.01, 1.06])
    return fig


def kappa_paradox_figure(ann: Annotations | pd.DataFrame) -> go.Figure:
    """The kappa paradox made visible: prevalence beside kappa and AC1.

    Parameters
    ----------
    ann : Annotations or DataFrame
        Single-label judgements with two or more categories (otherwise the figure says
        why there is no view).

    Returns
    -------
    plotly.graph_objects.Figure
        Left: how often each category was used. Right: for the observed agreement of these
        data, kappa (Fleiss) and Gwet's AC1 of two categories as the majority category's
        prevalence grows (:func:`~analytics.agreement.kappa_paradox`): kappa falls toward
        and below 0 while AC1 stays near the observed agreement. The curves read the data
        as two categories (majority vs the rest), so the markers sit on them at the data's
        majority prevalence; the data's own kappa and AC1 over all categories (which need
        not lie on the curves) are stated in a note and on hover.

    References
    ----------
    Feinstein, A. R., & Cicchetti, D. V. (1990). High agreement but low kappa: I. The
    problems of two paradoxes. *Journal of Clinical Epidemiology* 43(6), 543-549.
    Passonneau, R. J., & Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, section 2.1.
    """
    view = kappa_paradox(ann)
    fig = make_subplots(
        rows=1,
        cols=2,
        column_widths=[0.4, 0.6],
        horizontal_spacing=0.12,
        subplot_titles=("Category prevalence", "Same agreement, rising prevalence"),
    )
    apply_layout(
        fig, title="The kappa paradox: high agreement, low kappa when one category dominates"
    )
    if view.reason:
        return empty_figure(fig.layout.title.text, f"No paradox view: {plotly_text(view.reason)}.")
    fig.add_trace(
        go.Bar(
            x=plotly_labels(view.categories),
            y=view.shares,
            marker={"color": ACCENT},
            name="prevalence",
            hovertemplate="%{x}: %{y:.1%} of judgements<extra></extra>",
        ),
        row=1,
        col=1,
    )
    for curve, name, colour in ((view.kappa, "kappa", BAD), (view.ac1, "AC1", GOOD)):
        fig.add_trace(
            go.Scatter(
                x=view.prevalence,
                y=curve,
                name=name,
                line={"color": colour},
                hovertemplate="prevalence %{x:.0%}: " + name + " %{y:.2f}<extra></extra>",
            ),
            row=1,
            col=2,
        )
    # The curves reduce the data to two categories (majority vs the rest) at the observed
    # agreement, so the data's own coefficients (over all their categories) need not lie
    # on them: the markers sit on the curves at the larger side's prevalence (the rest,
    # when no category has half the judgements), and the data's actual values are stated
    # beside them.
    # near a prevalence of one half kappa and AC1 coincide: kappa's marker is a larger open
    # diamond around AC1's filled one, so both stay visible when they meet
    for on_curve, actual, label, colour, symbol, size in (
        (view.kappa_at_split, view.fleiss_kappa, "kappa", BAD, "diamond-open", 18),
        (view.ac1_at_split, view.gwet_ac1, "AC1", GOOD, "diamond", 11),
    ):
        if np.isfinite(on_curve):
            fig.add_trace(
                go.Scatter(
                    x=[view.split],
                    y=[on_curve],
                    mode="markers",
                    name=f"{label}, two categories at {view.split:.0%}",
                    marker={
                        "color": colour,
                        "size": size,
                        "symbol": symbol,
                        "line": {"width": 2, "color": colour},
                    },
                    hovertemplate=f"{label} %{{y:.3f}}: the observed agreement at prevalence "
                    f"%{{x:.0%}} of two categories; the data's own {label}: {actual:.3f}"
                    "<extra></extra>",
                ),
                row=1,
                col=2,
            )
    side = "the majority category" if view.majority >= 0.5 else "the other categories together"
    fig.add_annotation(
        text=(
            f"Markers: the curves at these data's larger share ({side}, {view.split:.0%}). "
            f"The data's own Fleiss' kappa = {view.fleiss_kappa:.3f}, "
            f"AC1 = {view.gwet_ac1:.3f} (over all {len(view.categories)} categories)."
        ),
        # under the axis titles, across the whole figure (in the right panel's width it
        # was cut off), in pixels: the curves can run anywhere in the panel
        xref="paper",
        yref="paper",
        x=0.0,
        y=0.0,
        yanchor="top",
        yshift=-62,
        showarrow=False,
        xanchor="left",
        font={"size": 11, "color": MUTED},
    )
    fig.update_layout(margin={"b": 95})
    fig.add_hline(y=0, line={"color": MUTED, "dash": "dash"}, row=1, col=2)
    fig.update_yaxes(title_text="Share of judgements", tickformat=".0%", row=1, col=1)
    fig.update_xaxes(title_text="Category", type="category", row=1, col=1)
    fig.update_xaxes(
        title_text="Prevalence of the larger side (top category or the rest)",
        tickformat=".0%",
        row=1,
        col=2,
    )
    fig.update_yaxes(
        title_text=f"Coefficient at observed agreement {view.observed:.2f}",
        range=[-1, 1.05],
        row=1,
        col=2,
    )
    return fig
