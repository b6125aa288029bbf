"""Tables the command line prints: narrow enough for a terminal, with the long texts as notes.

The agreement report has twelve columns, two of them sentences (how each interval was
computed, and a note); printed whole it is about 400 characters wide. The text output
keeps the numbers in the table and moves the sentences beneath it, each written once and
referred to by a letter (interval methods) or a number (notes). ``--json`` keeps every
column.
"""

from __future__ import annotations

import math
import shutil
import string
import textwrap

import pandas as pd

from analytics.overview import judge

__all__ = ["agreement_text"]

_DASH = "–"


def _number(x: float, digits: int = 3) -> str:
    return _DASH if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def _p_value(p: float) -> str:
    if p is None or math.isnan(p):
        return _DASH
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def agreement_text(report: pd.DataFrame, confidence: float, width: int | None = None) -> str:
    """The agreement report as plain text that fits a terminal.

    One row per coefficient: value, interval, standard error, p-value, items used, and
    a letter naming how the interval was computed; each distinct method and each row's
    note are written beneath the table, wrapped to ``width``. A last line judges
    Krippendorff's alpha as every page does (:func:`analytics.overview.judge`).

    Parameters
    ----------
    report : pandas.DataFrame
        :func:`analytics.agreement.agreement_report`'s table.
    confidence : float
        The intervals' confidence level, for the header.
    width : int or None, default None
        Wrap the notes to this many characters (default: the terminal's width, at most 100).

    Returns
    -------
    str

    Examples
    --------
    >>> report = pd.DataFrame({"coefficient": ["Fleiss' kappa"], "value": [0.5],
    ...     "ci_low": [0.4], "ci_high": [0.6], "ci_method": ["bootstrap"], "se": [0.05],
    ...     "p_value": [1e-6], "items_used": [30], "note": [""]})
    >>> print(agreement_text(report, 0.95, width=80))  # doctest: +NORMALIZE_WHITESPACE
    coefficient    value          95% CI     SE        p  items  CI
    Fleiss' kappa  0.500  0.400 to 0.600  0.050  < 0.001     30  a
    <BLANKLINE>
    CI methods:
      a: bootstrap
    """
    if width is None:
        width = min(shutil.get_terminal_size((100, 24)).columns, 100)
    methods: dict[str, str] = {}
    notes: dict[str, int] = {}  # a note repeated on several rows is written once
    rows = []
    for _, r in report.iterrows():
        method = str(r.get("ci_method") or "")
        letter = ""
        if method:
            letter = methods.setdefault(method, string.ascii_lowercase[len(methods) % 26])
        note = str(r.get("note") or "").strip()
        if note:
            notes.setdefault(note, len(notes) + 1)
        low, high = r.get("ci_low", math.nan), r.get("ci_high", math.nan)
        interval = _DASH if math.isnan(low) or math.isnan(high) else f"{low:.3f} to {high:.3f}"
        items = r.get("items_used", math.nan)
        rows.append(
            [
                str(r["coefficient"]),
                "undefined" if math.isnan(r["value"]) else f"{r['value']:.3f}",
                interval,
                _number(r.get("se", math.nan)),
                _p_value(r.get("p_value", math.nan)),
                _DASH if math.isnan(items) else f"{int(items):,}",
                letter,
                f"[{notes[note]}]" if note else "",
            ]
        )
    header = ["coefficient", "value", f"{confidence:.0%} CI", "SE", "p", "items", "CI", "note"]
    left = {0, 6, 7}  # text columns; the numbers are right-aligned
    if not notes:
        header, rows = header[:-1], [row[:-1] for row in rows]
    widths = [max(len(x) for x in col) for col in zip(header, *rows, strict=True)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i in left else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    lines = [line(header), *(line(row) for row in rows)]
    if methods:
        lines += ["", "CI methods:"]
        lines += [
            textwrap.fill(m, width, initial_indent=f"  {k}: ", subsequent_indent="     ")
            for m, k in methods.items()
        ]
    if notes:
        lines += ["", "Notes:"]
        lines += [
            textwrap.fill(n, width, initial_indent=f"  [{i}] ", subsequent_indent="      ")
            for n, i in notes.items()
        ]
    alpha = report[report["coefficient"].astype(str).str.startswith("Krippendorff")]
    if len(alpha):
        verdict = judge("agreement", float(alpha["value"].iloc[0]), str(alpha["note"].iloc[0]))
        lines += [
            "",
            textwrap.fill(f"Verdict ({alpha['coefficient'].iloc[0]}): {verdict.describe()}", width),
        ]
    return "\n".join(lines)
