"""The numbers behind a plotly figure, as one tidy table (for a CSV beside the figure)."""

from __future__ import annotations

import base64
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

__all__ = ["figure_table"]

#: Trace properties read as columns, in this order (those a trace does not have are left out).
_FIELDS = ("x", "y", "z", "text")


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
        them, ``z`` (heatmaps, one row per cell), ``x_low``/``x_high`` and
        ``y_low``/``y_high`` (the ends of error bars, symmetric or not) and ``text``. A
        band drawn as one closed outline (``fill="toself"``: x forward, then the same x
        backward) is one row per x with its ``y_low`` and ``y_high``, not the outline's
        points. A histogram's rows are its raw values (the bins are plotly's). Shapes and
        annotations (reference lines, notes) are not data and are left out. Arrays plotly
        holds encoded (``{"dtype": "f8", "bdata": ...}``, as in a figure that went through
        a pickle or a cache) are decoded.

    Examples
    --------
    >>> fig = go.Figure(go.Bar(x=["a", "b"], y=[1, 2], name="counts"))
    >>> figure_table(fig).to_dict("list")
    {'trace': ['counts', 'counts'], 'x': ['a', 'b'], 'y': [1, 2]}
    >>> heat = go.Figure(go.Heatmap(z=[[1, 2], [3, 4]], x=["u", "v"], y=["p", "q"]))
    >>> figure_table(heat)[["x", "y", "z"]].values.tolist()
    [['u', 'p', 1], ['v', 'p', 2], ['u', 'q', 3], ['v', 'q', 4]]
    >>> band = go.Figure(go.Scatter(x=[0, 1, 1, 0], y=[5, 6, 2, 1], fill="toself"))
    >>> figure_table(band).to_dict("list")
    {'trace': ['trace 1', 'trace 1'], 'x': [0, 1], 'y_low': [1.0, 2.0], 'y_high': [5.0, 6.0]}
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


def _decoded(value: Any) -> Any:
    """A typed array plotly keeps base64-encoded (after a pickle), as a NumPy array."""
    if isinstance(value, dict) and "bdata" in value and "dtype" in value:
        out = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        shape = value.get("shape")
        if shape:
            out = out.reshape([int(n) for n in str(shape).split(",")])
        return out
    return value


def _values(trace: Any, field: str) -> np.ndarray | None:
    value = _decoded(getattr(trace, field, None) if field in trace else None)
    if value is None or isinstance(value, (str, dict)):
        return None
    out = np.asarray(value, dtype=object if not isinstance(value, np.ndarray) else None)
    return out if out.ndim else None


def _error_ends(trace: Any, axis: str, centre: np.ndarray | None) -> dict[str, np.ndarray]:
    """``{axis}_low`` and ``{axis}_high``: the ends of the trace's error bars on ``axis``."""
    bars = getattr(trace, f"error_{axis}", None) if f"error_{axis}" in trace else None
    if bars is None or bars.visible is False or centre is None:
        return {}
    plus = _decoded(bars.array)
    if plus is None:
        return {}
    # plotly draws arrayminus unless told symmetric=True (the default is by its presence)
    minus = _decoded(bars.arrayminus) if bars.symmetric is not True else None
    minus = plus if minus is None else minus
    try:
        middle = np.asarray(centre, float)
        plus, minus = np.asarray(plus, float), np.asarray(minus, float)
    except (TypeError, ValueError):  # bars on a categorical axis: no numeric ends
        return {}
    if not (len(plus) == len(minus) == len(middle)):
        return {}
    return {f"{axis}_low": middle - minus, f"{axis}_high": middle + plus}


def _band_rows(trace: Any) -> pd.DataFrame | None:
    """A closed band (x forward, then backward): one row per x, its low and high y."""
    if getattr(trace, "fill", None) != "toself":
        return None
    x, y = _values(trace, "x"), _values(trace, "y")
    if x is None or y is None or len(x) != len(y) or len(x) % 2 or not len(x):
        return None
    half = len(x) // 2
    if not (x[half:][::-1] == x[:half]).all():
        return None  # some other closed shape: its outline is its data
    try:
        ends = np.stack([np.asarray(y[:half], float), np.asarray(y[half:][::-1], float)])
    except (TypeError, ValueError):
        return None
    return pd.DataFrame(
        {
            "x": pd.Series(x[:half]).infer_objects(),
            "y_low": ends.min(axis=0),
            "y_high": ends.max(axis=0),
        }
    )


def _trace_rows(trace: Any) -> pd.DataFrame | None:
    band = _band_rows(trace)
    if band is not None:
        return band
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
            columns[field] = values
    if not columns:
        return None
    columns.update(_error_ends(trace, "x", columns.get("x")))
    columns.update(_error_ends(trace, "y", columns.get("y")))
    n = max(len(v) for v in columns.values())
    # a text or error array shorter than the points (plotly repeats or ignores it) is left out
    return pd.DataFrame(
        {k: pd.Series(v).infer_objects() for k, v in columns.items() if len(v) == n}
    )
