"""Figures and tables for comparing annotator models (plotly; never streamlit).

- :func:`comparison_figure`: held-out likelihood per model and, with gold, accuracy with
  its interval;
- :func:`calibration_figure`: reliability diagram (accuracy against confidence);
- :func:`accuracy_intervals_figure`: each annotator's accuracy with an error bar;
- :func:`disagreements`: the items on which models' labels differ;
- what a page shows beside them: :func:`comparison_with_gold` (the comparison table with
  the gold accuracy), :func:`split_notes` (warnings apart from routine remarks),
  :func:`plain_settings` (a fit's settings as plain values).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from analytics._core.errors import AnnotationDataError, require
from analytics._core.formatting import plotly_text
from analytics._core.style import ACCENT, MUTED, QUALITATIVE, apply_layout, empty_figure
from analytics.dawid_skene import DawidSkeneResult
from analytics.models.result import ModelResult

__all__ = [
    "ALARM_WORDS",
    "SETTING_MEANINGS",
    "accuracy_intervals_figure",
    "calibration_figure",
    "comparison_figure",
    "comparison_with_gold",
    "disagreements",
    "plain_settings",
    "settings_table",
    "split_notes",
    "stack_parts",
]

#: A note containing one of these (case-insensitive) questions the result: a warning.
ALARM_WORDS = ("not identified", "converge", "iteration limit", "disagree", "cannot", "refused")


def comparison_figure(table: pd.DataFrame, chosen: str | None = None) -> go.Figure:
    """Bars of :func:`~analytics.models.compare`'s table.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`~analytics.models.compare`'s output.
    chosen : str, default None
        A model to draw in the accent colour (e.g. the one ``"auto"`` picked).

    Returns
    -------
    plotly.graph_objects.Figure
        Held-out log-likelihood per judgement with a paired standard-error bar; with
        gold columns, a second panel of accuracy with its 95% interval (Wilson's) (points on an
        axis fitted to the intervals, so a one-point difference shows).
    """
    if table.empty:
        return empty_figure("Model comparison", "No model was compared.")
    names = [plotly_text(m) for m in table.index]
    colours = [ACCENT if m == chosen else MUTED for m in table.index]
    with_gold = "accuracy" in table and table["accuracy"].notna().any()
    fig = make_subplots(
        rows=1,
        cols=2 if with_gold else 1,
        subplot_titles=(
            ["held-out log-likelihood per judgement", "accuracy on gold items"]
            if with_gold
            else ["held-out log-likelihood per judgement"]
        ),
    )
    fig.add_trace(
        go.Bar(
            x=names,
            y=table["heldout_ll"],
            marker_color=colours,
            error_y={"type": "data", "array": table["heldout_se"].fillna(0.0)},
            name="held-out",
            hovertemplate="%{x}: %{y:.4f} nats<extra></extra>",
        ),
        row=1,
        col=1,
    )
    if with_gold:
        acc = table["accuracy"]
        # points with their intervals, on an axis fitted to them: models often differ by a
        # point or two, which bars from 0 to 100% hid (a bar's length would claim a zero)
        fig.add_trace(
            go.Scatter(
                x=names,
                y=acc,
                mode="markers",
                marker={"color": colours, "size": 11},
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": table["accuracy_high"] - acc,
                    "arrayminus": acc - table["accuracy_low"],
                },
                name="accuracy",
                hovertemplate="%{x}: %{y:.1%}<extra></extra>",
            ),
            row=1,
            col=2,
        )
        ends = table[["accuracy_low", "accuracy", "accuracy_high"]].to_numpy(float)
        ends = ends[np.isfinite(ends)]
        fig.update_yaxes(tickformat=".0%", row=1, col=2)
        if len(ends):
            low, high = float(ends.min()), float(ends.max())
            pad = max(0.01, 0.1 * (high - low))
            fig.update_yaxes(range=[max(0.0, low - pad), min(1.0, high + pad)], row=1, col=2)
    fig.update_layout(showlegend=False)
    return apply_layout(fig, title="Models compared (higher is better)", height=380)


def calibration_figure(
    tables: Mapping[str, pd.DataFrame], shown: Iterable[str] | None = None
) -> go.Figure:
    """Reliability diagram: accuracy against mean confidence per bin, one line per model.

    Parameters
    ----------
    tables : mapping of str to pandas.DataFrame
        Model name -> :func:`~analytics.models.calibration` table.
    shown : iterable of str or None, default None
        The models drawn at first; the others are listed in the legend, one click away
        (seven crossing lines are hard to read). None: every model.

    Returns
    -------
    plotly.graph_objects.Figure
        The diagonal is perfect calibration; points below it are over-confident. The
        legend gives each model's expected calibration error.
    """
    if not tables or all(t["items"].sum() == 0 for t in tables.values()):
        return empty_figure("Calibration", "No gold item to check the posteriors against.")
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=[0, 1],
            y=[0, 1],
            mode="lines",
            line={"dash": "dash", "color": MUTED},
            name="perfectly calibrated",
            hoverinfo="skip",
        )
    )
    shown = None if shown is None else set(shown)
    for n, (name, t) in enumerate(tables.items()):
        full = t[t["items"] > 0]
        fig.add_trace(
            go.Scatter(
                visible=True if shown is None or name in shown else "legendonly",
                x=full["mean_confidence"],
                y=full["accuracy"],
                mode="lines+markers",
                marker={"size": np.clip(np.sqrt(full["items"]) * 2, 5, 24)},
                line={"color": QUALITATIVE[n % len(QUALITATIVE)]},
                name=f"{plotly_text(name)} (ECE {t.attrs.get('ece', float('nan')):.3f})",
                customdata=full["items"],
                hovertemplate="confidence %{x:.2f}: %{y:.1%} right of %{customdata} items"
                "<extra></extra>",
            )
        )
    fig.update_xaxes(range=[0, 1.02])
    fig.update_yaxes(range=[0, 1.02], tickformat=".0%")
    return apply_layout(
        fig,
        title="Calibration on gold items (marker size: items in the bin)",
        x_title="mean top posterior in the bin",
        y_title="share right",
        height=420,
    )


def accuracy_intervals_figure(table: pd.DataFrame, *, title: str, top: int = 40) -> go.Figure:
    """Each annotator's accuracy with its interval, least accurate first.

    Parameters
    ----------
    table : pandas.DataFrame
        Index annotator; columns ``estimate`` (or ``accuracy``), ``low``/``high`` (or
        ``accuracy_low``/``accuracy_high``): :attr:`Uncertainty.annotator_accuracy` or
        :func:`~analytics.models.annotator_gold_accuracy`.
    title : str
    top : int, default 40
        Draw at most this many annotators (the least accurate).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    est = table["estimate"] if "estimate" in table else table["accuracy"]
    low = table["low"] if "low" in table else table["accuracy_low"]
    high = table["high"] if "high" in table else table["accuracy_high"]
    keep = est.notna()
    if not keep.any():
        return empty_figure(title, "No annotator has an accuracy to show.")
    order = est[keep].sort_values(kind="stable").index[:top]
    fig = go.Figure(
        go.Scatter(
            x=est[order],
            y=[plotly_text(a) for a in order],
            mode="markers",
            marker={"color": ACCENT, "size": 8},
            error_x={
                "type": "data",
                "symmetric": False,
                "array": (high[order] - est[order]).clip(lower=0),
                "arrayminus": (est[order] - low[order]).clip(lower=0),
            },
            hovertemplate="%{y}: %{x:.1%}<extra></extra>",
        )
    )
    fig.update_xaxes(tickformat=".0%")
    fig.update_yaxes(autorange="reversed", type="category")
    return apply_layout(
        fig, title=title, x_title="accuracy", height=max(300, 22 * len(order) + 120)
    )


def disagreements(results: Mapping[str, ModelResult], reference: str) -> pd.DataFrame:
    """The items on which the models' labels differ from ``reference``'s.

    Parameters
    ----------
    results : mapping of str to ModelResult
        Fits of the same data.
    reference : str
        The model the others are compared with (e.g. the chosen one).

    Returns
    -------
    pandas.DataFrame
        One row per item where at least one model's label differs: ``item``, the
        reference's label and confidence, ``disagree`` (how many of the other models
        give another label), then every model's label; most disputed first. The frame's
        ``attrs["share"]`` is the share of all items with any disagreement and
        ``attrs["pairwise"]`` a models x models table of the share of items two models
        label differently.

    Raises
    ------
    ArgumentTypeError
        ``results`` is not a mapping of name -> fitted model.
    AnnotationDataError
        ``reference`` is not one of its names.
    """
    require(
        results,
        isinstance(results, Mapping)
        and all(isinstance(r, DawidSkeneResult) for r in results.values()),
        "a mapping of model name -> fitted model",
        hint='Fit them first: disagreements({"dawid_skene": fit(ann, "dawid_skene"), ...}, '
        '"dawid_skene").',
    )
    if reference not in results:
        raise AnnotationDataError(
            f"the reference model {reference!r} is not among the results.",
            hint=f"Use one of: {', '.join(map(str, results))}.",
        )
    ref = results[reference]
    labels = pd.DataFrame({name: r.labels for name, r in results.items()})
    others = labels.drop(columns=[reference])
    differ = others.ne(labels[reference], axis=0)
    count = differ.sum(axis=1)
    names = list(labels.columns)
    pair = pd.DataFrame(
        [[float(labels[a].ne(labels[b]).mean()) for b in names] for a in names],
        index=names,
        columns=names,
    )
    hit = count > 0
    out = labels[hit].copy()
    out.insert(0, "disagree", count[hit])
    out.insert(0, f"{reference} confidence", ref.confidence[hit])
    out.insert(0, "item", out.index)
    out = out.sort_values(["disagree", f"{reference} confidence"], ascending=[False, True])
    out = out.reset_index(drop=True)
    out.attrs["share"] = float(hit.mean()) if len(hit) else float("nan")
    out.attrs["pairwise"] = pair
    return out


def comparison_with_gold(table: pd.DataFrame, scored: pd.DataFrame | None) -> pd.DataFrame:
    """:func:`~analytics.models.compare`'s table with each model's accuracy on gold items.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`~analytics.models.compare`'s output (one row per model), without gold.
    scored : pandas.DataFrame or None
        :func:`~analytics.models.gold_table` of the same models (other rows, e.g.
        ``"auto"``, are ignored); None leaves ``table`` as it is.

    Returns
    -------
    pandas.DataFrame
        ``table`` plus ``accuracy``, ``accuracy_low``, ``accuracy_high`` and
        ``gold_items`` (a whole number; NaN, or NA for the count, for a model ``scored``
        lacks), rows in ``table``'s order, so
        :func:`comparison_figure` draws the accuracy panel.
    """
    if scored is None:
        return table.copy()
    cols = ["accuracy", "accuracy_low", "accuracy_high", "gold_items"]
    out = table.drop(columns=[c for c in cols if c in table]).join(scored[cols], how="left")
    out["gold_items"] = out["gold_items"].astype("Int64")  # a count: 700, not 700.0
    return out


def split_notes(notes: Sequence[str]) -> tuple[list[str], list[str]]:
    """A fit's notes in two lists: those that question the result, and routine remarks.

    Parameters
    ----------
    notes : sequence of str
        ``ModelResult.notes``.

    Returns
    -------
    (list of str, list of str)
        Notes containing one of :data:`ALARM_WORDS` (a fit that did not converge, labels
        that are not identified, starts that disagree, a model that cannot apply), then
        the others (e.g. which start won), each in the given order.

    Examples
    --------
    >>> split_notes(["Best of 5 starts: majority.", "The fit did not converge."])
    (['The fit did not converge.'], ['Best of 5 starts: majority.'])
    """
    alarms = [n for n in notes if any(w in n.lower() for w in ALARM_WORDS)]
    return alarms, [n for n in notes if n not in alarms]


def _plain(value: object) -> object:
    if isinstance(value, pd.DataFrame):
        return f"a table of {len(value):,} rows"
    if isinstance(value, pd.Series):
        value = value.to_dict()
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}" if value.size > 20 else value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def plain_settings(result: ModelResult) -> dict[str, object]:
    """A fit's ``settings`` as plain values (JSON-ready), for showing them.

    Parameters
    ----------
    result : ModelResult or DawidSkeneResult

    Returns
    -------
    dict
        The same keys; numbers, text, lists and dicts as they are (numpy scalars as
        Python numbers, Series as dicts), a table (e.g. ``"auto"``'s
        ``settings["comparison"]``) or a long array replaced by a sentence saying what it
        was.
    """
    return {str(k): _plain(v) for k, v in result.settings.items()}


#: What each of the fits' settings means, for a reader of the table.
SETTING_MEANINGS = {
    "model": "the model fitted",
    "max_iter": "most EM iterations",
    "tol": "EM stops when an iteration changes the objective by less (relative)",
    "param_tol": "EM also stops when no parameter moves by more (None: not used)",
    "smoothing": "pseudo-count added to every count (a flat prior)",
    "prior": "Dirichlet pseudo-counts on the confusion matrices (None: smoothing only)",
    "init": "where EM starts ('best': several starts, the most likely kept)",
    "seed": "seed of the random starts",
    "initial_error": "confusion counts known before the fit, used in its first M-step",
    "finish": "the last step ('e_step': posteriors from the final parameters)",
    "method": "MACE's fit: 'em' (MAP-EM) or 'vb' (variational Bayes)",
    "prevalence": "how the category shares are set",
    "n_fixed_point": "most steps of the population update per iteration",
    "n_gold": "items whose known gold label was clamped in the fit",
    "weights": "auto's weight for each model (by held-out likelihood)",
    "comparison": "the models compared (the Models compared table)",
    "seconds": "time the fit took",
}


def settings_table(result: ModelResult) -> pd.DataFrame:
    """A fit's settings as a table to read: one row per setting, with what it means.

    Parameters
    ----------
    result : ModelResult or DawidSkeneResult

    Returns
    -------
    pandas.DataFrame
        Columns ``setting`` (the key of ``result.settings``), ``value`` (text: numbers to
        four significant digits, seconds to the millisecond, a mapping of numbers as
        ``name value`` pairs from the largest, a table by its size) and ``meaning``
        (:data:`SETTING_MEANINGS`; empty for a setting not listed there).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> fitted = SimpleNamespace(settings={"n_gold": 0, "weights": {"a": 0.2, "b": 0.8}})
    >>> settings_table(fitted)["value"].tolist()
    ['0', 'b 0.800, a 0.200']
    """
    rows = [
        (
            key,
            _readable(value, "{:.3f}" if key == "seconds" else "{:.4g}"),
            SETTING_MEANINGS.get(key, ""),
        )
        for key, value in plain_settings(result).items()
    ]
    return pd.DataFrame(rows, columns=["setting", "value", "meaning"])


def _readable(value: object, number: str = "{:.4g}") -> str:
    """A plain setting as text: floats in ``number``'s format, a mapping of numbers
    (auto's weights) as ``name value`` pairs from the largest, to three decimals."""
    if isinstance(value, float):
        return number.format(value)
    if isinstance(value, dict):
        pairs = list(value.items())
        if all(isinstance(v, float) for _, v in pairs):
            pairs.sort(key=lambda kv: -kv[1])
        return ", ".join(f"{k} {_readable(v, '{:.3f}')}" for k, v in pairs)
    if isinstance(value, list):
        return ", ".join(_readable(v, number) for v in value)
    return str(value)


def stack_parts(result: ModelResult) -> pd.DataFrame:
    """The models behind ``fit(ann)``'s stack, one row each: weight and own fit.

    Parameters
    ----------
    result : ModelResult
        A stacked result (``model == "stacked"``).

    Returns
    -------
    pandas.DataFrame
        Indexed by model, by falling weight: ``weight``, ``iterations``, ``converged``,
        ``seconds`` and ``log_likelihood`` (the last value of the part's own trace: its
        penalised log-likelihood, or for the hierarchical model its evidence lower bound).

    Raises
    ------
    ValueError
        ``result`` is not a stack (it has no parts).
    """
    if result.model != "stacked":
        raise ValueError(f"a {result.model!r} fit is not a stack: it has no parts.")
    weights = result.parameters["weights"].sort_values(ascending=False)
    parts = result.parameters["components"]
    rows = []
    for model, weight in weights.items():
        part = parts[model]
        trace = np.asarray(part.log_likelihood, float)
        rows.append(
            {
                "model": model,
                "weight": float(weight),
                "iterations": int(part.n_iter),
                "converged": bool(part.converged),
                "seconds": float(part.settings.get("seconds", np.nan)),
                "log_likelihood": float(trace[-1]) if len(trace) else np.nan,
            }
        )
    return pd.DataFrame(rows).set_index("model")
