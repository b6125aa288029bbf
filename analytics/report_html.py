"""How a report looks: its blocks, and the self-contained HTML page made from them.

:class:`Block` is one piece of a report section (a heading, a paragraph, a table or a
figure); :func:`render` turns a list of blocks into one HTML document that opens offline
(plotly's JavaScript embedded once in the head). :mod:`analytics.report` computes the
blocks; this module only draws them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
from plotly.offline import get_plotlyjs

from analytics._core.formatting import format_number, format_p_value
from analytics.data import Annotations
from analytics.overview import Verdict

__all__ = ["CSS", "MAX_TABLE_ROWS", "Block", "render", "slug", "table_html"]

MAX_TABLE_ROWS = 200


@dataclass(frozen=True)
class Block:
    """One piece of a report section: a heading, a paragraph, a table or a figure.

    Parameters
    ----------
    section : str
        The section it belongs to, a key of :data:`SECTIONS`.
    kind : {"text", "table", "figure"}
        What it holds.
    title : str, default ""
        Heading shown above it ("" for none); also names a table's CSV in the zip.
    text : str, default ""
        The paragraph of a ``"text"`` block (one bullet per line when it has several).
    table : pandas.DataFrame or None, default None
        The table of a ``"table"`` block.
    figure : plotly.graph_objects.Figure or None, default None
        The figure of a ``"figure"`` block.
    verdict : analytics.overview.Verdict or None, default None
        How a ``"text"`` block's result reads (good, caution, bad): printed in front of
        the text, with the rule that judged it.
    display : pandas.DataFrame or None, default None
        A ``"table"`` block's table as the HTML shows it, when that differs from the
        numbers its CSV keeps (:func:`agreement_display`).
    """

    section: str
    kind: str  # "text" | "table" | "figure"
    title: str = ""
    text: str = ""
    table: pd.DataFrame | None = None
    figure: go.Figure | None = None
    verdict: Verdict | None = None
    display: pd.DataFrame | None = None


CSS = """
body{font-family:Inter,Segoe UI,Helvetica,Arial,sans-serif;color:#1f2430;max-width:1100px;margin:2rem auto;padding:0 1rem;line-height:1.5}
h1{font-size:1.9rem;margin-bottom:.2rem} h2{margin-top:2.5rem;border-bottom:2px solid #3b5bdb;padding-bottom:.2rem}
h3{margin-top:1.6rem;font-size:1.1rem} .meta{color:#5c6370;font-size:.9rem}
table{border-collapse:collapse;font-size:.85rem;margin:.5rem 0;display:block;overflow-x:auto}
th,td{border:1px solid #dee2e6;padding:.25rem .5rem} th{background:#f3f5fa}
.text{text-align:left} .num{text-align:right;font-variant-numeric:tabular-nums} .note{color:#5c6370;font-size:.85rem}
.sev-good b{color:#2b8a3e} .sev-caution b{color:#e67700} .sev-bad b{color:#c92a2a} .sev-undefined b{color:#5c6370}
nav ul{columns:2} pre{white-space:pre-wrap;background:#f8f9fa;padding:.6rem;border-radius:4px}
@media print{body{max-width:none;margin:0;font-size:.8rem} nav{display:none}
table{display:table;font-size:.7rem;overflow:visible} td,th{padding:.1rem .3rem}
h2{break-before:page} tr,.plotly-graph-div{break-inside:avoid}}
"""


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def _cell(value: object, p_value: bool = False, whole: bool = False) -> str:
    """One cell as text. Floats as on the pages: three decimals (0.061, 0.058, 0.463, not
    0.06122, 0.05769, 0.463), or counts with thousands separators when the whole column
    holds whole numbers (``whole``)."""
    if value is None or (isinstance(value, float) and value != value):
        return "–"  # as the pages and the CLI write a missing value
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"  # as the CLI writes a flag
    if isinstance(value, float) and p_value:
        return html.escape(format_p_value(value))
    if isinstance(value, float) and not np.isfinite(value):
        return html.escape(str(value))
    if isinstance(value, float) and whole:  # a count: 742, or 717.5 with a tie's half
        return f"{value:,.1f}" if value % 1 else f"{value + 0.0:,.0f}"
    if isinstance(value, float):
        return format_number(value)
    return html.escape(str(value))


def _whole_columns(df: pd.DataFrame) -> list[bool]:
    """Per column: a float column of counts, whole numbers (or halves, a tie's credit
    split in two) of which some are beyond 1.

    A coefficient column of perfect agreement holds only 1s (and 0s, -1s): it reads
    "1.000", not "1" beside "1.000 to 1.000". Correct answers counted with a tie's half
    read "717.5" beside "742", not "717.500" beside "742.000".
    """
    out = []
    for j in range(df.shape[1]):
        col = df.iloc[:, j]
        if not pd.api.types.is_float_dtype(col.dtype):
            out.append(False)
            continue
        values = col.to_numpy(float)
        values = values[np.isfinite(values)]
        halves = bool(len(values)) and bool((2 * values == np.round(2 * values)).all())
        out.append(halves and bool((np.abs(values) > 1).any()))
    return out


def _with_index_as_column(df: pd.DataFrame) -> pd.DataFrame:
    """A meaningful index (annotators, categories) becomes the first column; a row count goes."""
    if isinstance(df.index, pd.RangeIndex) and df.index.name is None:
        return df
    if isinstance(df.index, pd.MultiIndex):
        return df.reset_index()
    name = df.index.name if df.index.name is not None else ""
    taken = {str(c) for c in df.columns}
    while str(name) in taken:
        name = f"{name} "
    return df.rename_axis(name).reset_index()


def table_html(df: pd.DataFrame) -> str:
    """A table as HTML: no pandas row numbers, text left-aligned, numbers right-aligned.

    Missing cells read "–"; p-values below 0.001 read "< 0.001" (not 1.658e-120).

    At most :data:`MAX_TABLE_ROWS` rows, with a note when there are more.
    """
    shown = _with_index_as_column(df.head(MAX_TABLE_ROWS))
    numeric = [
        pd.api.types.is_numeric_dtype(shown.iloc[:, j])
        and not pd.api.types.is_bool_dtype(shown.iloc[:, j])
        for j in range(shown.shape[1])
    ]
    align = ['class="num"' if n else 'class="text"' for n in numeric]
    head = "".join(
        f"<th {a}>{html.escape(str(c))}</th>" for a, c in zip(align, shown.columns, strict=True)
    )
    p_cols = [str(c) in ("p_value", "p") for c in shown.columns]
    whole = _whole_columns(shown)
    body = "".join(
        "<tr>"
        + "".join(
            f"<td {a}>{_cell(v, p, w)}</td>"
            for a, v, p, w in zip(align, row, p_cols, whole, strict=True)
        )
        + "</tr>"
        for row in shown.itertuples(index=False, name=None)
    )
    out = f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    if len(df) > MAX_TABLE_ROWS:
        out += f'<p class="note">First {MAX_TABLE_ROWS} of {len(df):,} rows; the zip download has the whole table.</p>'
    return out


def agreement_display(report: pd.DataFrame, confidence: float) -> pd.DataFrame:
    """The agreement report as the HTML shows it: the interval as "a to b", plain headers.

    The analytic columns stay in the CSV; here the value, its interval and how it was
    made, the standard error, the p-value, the items used and the note.

    Examples
    --------
    >>> r = pd.DataFrame({"coefficient": ["AC1"], "value": [0.5], "ci_low": [-0.17],
    ...     "ci_high": [1.0], "ci_method": ["basic"], "se": [0.1], "p_value": [0.2],
    ...     "items_used": [4], "note": [""]})
    >>> agreement_display(r, 0.95).iloc[0, 2]
    '-0.170 to 1.000'
    """

    def interval(low: float, high: float) -> str:
        return "–" if low != low or high != high else f"{_cell(low)} to {_cell(high)}"

    return pd.DataFrame(
        {
            "coefficient": report["coefficient"],
            "value": report["value"],
            f"{confidence:.0%} interval": [
                interval(lo, hi) for lo, hi in zip(report["ci_low"], report["ci_high"], strict=True)
            ],
            "interval method": report["ci_method"],
            "SE": report["se"] if "se" in report else float("nan"),
            "p": report["p_value"] if "p_value" in report else float("nan"),
            "items": report["items_used"],
            "note": report["note"],
        }
    )


def _verdict_html(verdict: Verdict, text: str) -> str:
    return (
        f'<p class="sev-{verdict.label}"><b>{html.escape(verdict.label.capitalize())}.</b> '
        f"{html.escape(text)}<br>"
        f'<span class="note">Severity rule: {html.escape(verdict.rule.describe())}.</span></p>'
    )


def render(
    blocks: Iterable[Block], ann: Annotations, title: str, sections: Mapping[str, str]
) -> str:
    """The whole HTML document: title, data set, contents, then each section's blocks.

    Parameters
    ----------
    blocks : iterable of Block
        The blocks, in order.
    ann : Annotations
        The data set (its name is printed under the title).
    title : str
        The document title.
    sections : mapping of str to str
        Section key -> heading.

    Returns
    -------
    str
    """
    blocks = list(blocks)
    order = list(dict.fromkeys(b.section for b in blocks))
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>",
        f"<style>{CSS}</style>",
        f'<script type="text/javascript">{get_plotlyjs()}</script>',
        "</head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f'<p class="meta">Data set <b>{html.escape(ann.name)}</b> · generated '
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC by Concord</p>",
        "<nav><ul>"
        + "".join(f'<li><a href="#{s}">{html.escape(sections[s])}</a></li>' for s in order)
        + "</ul></nav>",
    ]
    for section in order:
        parts.append(f'<h2 id="{section}">{html.escape(sections[section])}</h2>')
        for b in (b for b in blocks if b.section == section):
            if b.title:
                parts.append(f"<h3>{html.escape(b.title)}</h3>")
            if b.kind == "text" and b.verdict is not None:
                parts.append(_verdict_html(b.verdict, b.text))
            elif b.kind == "text":
                lines = b.text.split("\n")
                if len(lines) > 1:
                    parts.append(
                        "<ul>" + "".join(f"<li>{html.escape(x)}</li>" for x in lines if x) + "</ul>"
                    )
                else:
                    parts.append(f"<p>{html.escape(b.text)}</p>")
            elif b.kind == "table" and b.table is not None:
                parts.append(table_html(b.table if b.display is None else b.display))
            elif b.kind == "figure" and b.figure is not None:
                parts.append(
                    pio.to_html(
                        b.figure,
                        full_html=False,
                        include_plotlyjs=False,
                        config={"displaylogo": False},
                    )
                )
    parts.append("</body></html>")
    return "\n".join(parts)
