"""The numbers behind a plotly figure, as one tidy table (for a CSV beside the figure)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

__all__ = ["figure_table"]

#: Trace properties read as columns, in this order (those a trace does not have are left out).
_FIELDS = ("x", "y", "z", "error_y", "text")


def figure_table(fig: go.Figure) -> pd.DataFrame:
    """The data of every trace of ``fig``, one row per point.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure

    Returns
    -------
    pandas.DataFrame
        Columns ``trace`` (the trace's name, or "trace N"), ``panel`` (the trace's axes,
        only when the figure has several panels), ``x``, ``y``, and, where some trace has
        them, ``z`` (heatmaps, one row per cell), ``error`` (symmetric error bars) and
        ``text``. A histogram's rows are its raw values (the bins are plotly's). Shapes
        and annotations (reference lines, notes) are not data and are left out.

    Examples
    --------
    >>> fig = go.Figure(go.Bar(x=["a", "b"], y=[1, 2], name="counts"))
    >>> figure_table(fig).to_dict("list")
    {'trace': ['counts', 'counts'], 'x': ['a', 'b'], 'y': [1, 2]}
    >>> heat = go.Figure(go.Heatmap(z=[[1, 2], [3, 4]], x=["u", "v"], y=["p", "q"]))
    >>> figure_table(heat)[["x", "y", "z"]].values.tolist()
    [['u', 'p', 1], ['v', 'p', 2], ['u', 'q', 3], ['v', 'q', 4]]
    """
    parts = []
    for number, trace in enumerate(fig.data, start=1):
        part = _trace_rows(trace)
        if part is None or part.empty:
            continue
        part.insert(0, "trace", str(trace.name) if trace.name else f"trace {number}")
        axes = f"{getattr(trace, 'xaxis', None) or 'x'}{getattr(trace, 'yaxis', None) or 'y'}"
        part.insert(1, "panel", axes)
        parts.append(part)
    if not parts:
        return pd.DataFrame({"trace": [], "x": [], "y": []})
    table = pd.concat(parts, ignore_index=True)
    if table["panel"].nunique() < 2:
        table = table.drop(columns="panel")
    return table.dropna(axis=1, how="all")


def _values(trace: Any, field: str) -> np.ndarray | None:
    value = getattr(trace, field, None) if field in trace else None
    if field == "error_y":
        value = value.array if value is not None and value.visible is not False else None
    if value is None or isinstance(value, (str, dict)):
        return None
    out = np.asarray(value, dtype=object if not isinstance(value, np.ndarray) else None)
    return out if out.ndim else None


def _trace_rows(trace: Any) -> pd.DataFrame | None:
    z = _values(trace, "z")
    if z is not None and z.ndim == 2:  # a grid: one row per cell
        rows, cols = z.shape
        x = _values(trace, "x")
        y = _values(trace, "y")
        x = x if x is not None and len(x) == cols else np.arange(cols)
        y = y if y is not None and len(y) == rows else np.arange(rows)
        return pd.DataFrame({"x": np.tile(x, rows), "y": np.repeat(y, cols), "z": z.reshape(-1)})
    columns = {}
    for field in _FIELDS:
        values = _values(trace, field)
        if values is not None and values.ndim == 1:
            columns["error" if field == "error_y" else field] = values
    if not columns:
        return None
    n = max(len(v) for v in columns.values())
    # a text or error array shorter than the points (plotly repeats or ignores it) is left out
    return pd.DataFrame(
        {k: pd.Series(v).infer_objects() for k, v in columns.items() if len(v) == n}
    )
