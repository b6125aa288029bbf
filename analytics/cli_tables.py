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
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError, show_text
from analytics._core.formatting import (
    format_count,
    format_number,
    format_p_value,
    format_percent,
)
from analytics.overview import format_judged, judge

__all__ = ["agreement_text", "annotator_lines", "gold_lines", "plain_table", "show_labels"]

_DASH = "–"


def _cell(x: object, digits: int) -> str:
    if isinstance(x, (bool, np.bool_)):
        return "yes" if x else "no"
    if isinstance(x, (float, np.floating)):
        if math.isnan(x):
            return _DASH
        half = 0.5 * 10.0**-digits  # never round a near-certainty to 1 or a trace to 0
        if 0 < abs(x) < half:
            return f"{'-' if x < 0 else ''}< {10.0**-digits:.{digits}f}"
        if 1 - half <= x < 1:
            return f"> {1 - 10.0**-digits:.{digits}f}"
        return f"{x:.{digits}f}"
    if isinstance(x, (int, np.integer)):
        return f"{x:,}"
    return str(x)


def _aligned(header: list[str], rows: list[list[str]], left: set[int]) -> list[str]:
    """Header and rows as lines: the columns in ``left`` left-aligned, the others right."""
    widths = [max(map(len, col)) for col in zip(header, *rows, strict=True)]
    return [
        "  ".join(
            c.ljust(w) if j in left else c.rjust(w)
            for j, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()
        for cells in (header, *rows)
    ]


def plain_table(df: pd.DataFrame, width: int | None = None, digits: int = 3) -> str:
    """A table for a terminal: text left-aligned, numbers right-aligned, as many columns as fit.

    Floats are shown with ``digits`` decimals (a value that would round to 0 or to 1
    without being it as ``< 0.001`` or ``> 0.999``), integers with thousands separators,
    booleans as yes/no. Columns are kept from the left while the line fits ``width``;
    those left out are named on a last line.

    Parameters
    ----------
    df : pandas.DataFrame
    width : int or None, default None
        The most characters a line may take (default: the terminal's width, at most 120).
    digits : int, default 3

    Returns
    -------
    str

    Examples
    --------
    >>> df = pd.DataFrame({"item": ["a", "bb"], "p": [0.12345, 0.99991], "ok": [True, False]})
    >>> print(plain_table(df, width=14))
    item        p
    a       0.123
    bb    > 0.999
    (not shown: ok)
    """
    if width is None:
        width = min(shutil.get_terminal_size((120, 24)).columns, 120)
    columns, widths, cells = [], [], []
    used = -2
    for name in df.columns:
        texts = [_cell(x, digits) for x in df[name].tolist()]
        w = max([len(str(name)), *map(len, texts)])
        if columns and used + 2 + w > width:
            break
        columns.append(name)
        widths.append(w)
        cells.append(texts)
        used += 2 + w
    left = {
        j
        for j, c in enumerate(columns)
        if not pd.api.types.is_numeric_dtype(df[c]) or pd.api.types.is_bool_dtype(df[c])
    }
    lines = _aligned([str(c) for c in columns], [list(r) for r in zip(*cells, strict=True)], left)
    left_out = [str(c) for c in df.columns[len(columns) :]]
    if left_out:
        lines.append(f"(not shown: {', '.join(left_out)})")
    return "\n".join(lines)


def agreement_text(report: pd.DataFrame, confidence: float | None, width: int | None = None) -> str:
    """The agreement report as plain text that fits a terminal.

    One row per coefficient: value, interval, standard error, p-value, items used, and
    a letter naming how the interval was computed; each distinct method and each row's
    note are written beneath the table, wrapped to ``width``. A last line judges
    Krippendorff's alpha as every page does (:func:`analytics.overview.judge`).

    Parameters
    ----------
    report : pandas.DataFrame
        :func:`analytics.agreement.agreement_report`'s table.
    confidence : float or None
        The intervals' confidence level, for the header (None: no intervals). Columns
        empty in every row are left out.
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
        # "Fleiss' kappa is defined for ..." beside the Fleiss row: the row names it, so
        # six such notes, one per coefficient, are written once
        note = note.removeprefix(f"{str(r['coefficient']).split(' (')[0]} is ")
        if note:
            notes.setdefault(note, len(notes) + 1)
        low, high = r.get("ci_low", math.nan), r.get("ci_high", math.nan)
        interval = (
            _DASH
            if math.isnan(low) or math.isnan(high)
            else f"{format_number(low)} to {format_number(high)}"
        )
        items = r.get("items_used", math.nan)
        rows.append(
            [
                str(r["coefficient"]),
                "undefined"
                if math.isnan(r["value"])
                else format_judged("agreement", r["value"])  # never printed onto 0.667
                if str(r["coefficient"]).startswith("Krippendorff")
                else format_number(r["value"]),
                interval,
                _cell(float(r.get("se", math.nan)), 3),
                format_p_value(r.get("p_value", math.nan), _DASH),
                _DASH if math.isnan(items) else f"{int(items):,}",
                letter,
                f"[{notes[note]}]" if note else "",
            ]
        )
    ci = "CI" if confidence is None else f"{confidence:.0%} CI"
    header = ["coefficient", "value", ci, "SE", "p", "items", "CI", "note"]
    left = {0, 6, 7}  # text columns; the numbers are right-aligned
    # columns with nothing in any row (no intervals on a count table) are left out
    kept = [
        j for j in range(len(header)) if j < 2 or any(row[j] not in ("", _DASH) for row in rows)
    ]
    left = {i for i, j in enumerate(kept) if j in left}
    header, rows = [header[j] for j in kept], [[row[j] for j in kept] for row in rows]
    lines = _aligned(header, rows, left)
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
        # the report's distance (nominal's row comes first when another is chosen), as the
        # Overview and the HTML report judge it
        row = alpha.iloc[-1]
        verdict = judge("agreement", float(row["value"]), str(row["note"]))
        lines += [
            "",
            textwrap.fill(f"Verdict ({row['coefficient']}): {verdict.describe()}", width),
        ]
    return "\n".join(lines)


def gold_lines(accuracy: pd.DataFrame) -> list[str]:
    """:func:`analytics.dawid_skene.gold_accuracy`'s table as the command line prints it:
    one line per method, then its notes (gold labels that are not categories)."""
    # format_percent as the report writes it: 742/800 reads 92.7% in both (not f"{:.1%}")
    lines = [
        f"  {method}: {format_percent(row['accuracy'])} right"
        for method, row in accuracy.iterrows()
    ]
    return lines + [f"  note: {note}" for note in accuracy.attrs.get("notes", ())]


def annotator_lines(table: pd.DataFrame, shown: int = 3) -> list[str]:
    """:func:`analytics.dawid_skene.annotator_table` in two lines: the spread of the
    model's accuracy estimates, and the least accurate annotators with their judgements.

    The estimates are the model's own (:math:`\\sum_k \\pi_k \\theta_{jkk}`), not
    accuracy measured against gold labels; ``--json`` gives every column.
    """
    acc = table["accuracy"].dropna()
    n = format_count(len(table), "annotator")
    if acc.empty:
        return [f"{n}: no accuracy could be estimated (see --json for the reasons)"]
    lines = [
        f"{n}; the model's estimate of their accuracy: median {acc.median():.3f} "
        f"(lowest {acc.min():.3f}, highest {acc.max():.3f})"
    ]
    if len(acc) > shown:
        low = acc.sort_values(kind="stable").head(shown)
        lines.append(
            "least accurate: "
            + ", ".join(
                f"{show_text(a)} {v:.3f} "
                f"({format_count(int(table.at[a, 'judgements']), 'judgement')})"
                for a, v in low.items()
            )
        )
    return lines


def show_labels(
    args: Any,
    ann: Any,
    result: Any,
    known: Any,
    headline: str,
    extra: dict,
    lead_note: bool = False,
) -> None:
    """Print (or emit as JSON) an annotator model's labels, annotators and gold accuracy.

    The output of ``dawid-skene`` and ``gold-labels``. ``headline`` says which model and
    how it was fitted; the fit's notes (``result.notes``: one annotator, one category,
    no overlap, how ``auto`` chose, ...) are printed beneath it and given in the JSON as
    ``notes``, so that no command hides the model's warnings. ``lead_note`` joins the
    first note to the headline (``gold-labels``: "majority model: auto chose ...");
    ``extra`` adds keys to the JSON payload.
    """
    from analytics.cli_input import emit, records, write_output
    from analytics.data import anonymous_annotators, table_to_csv
    from analytics.dawid_skene import (
        annotator_table,
        fit_summary,
        gold_accuracy,
        gold_within,
        model_labels_table,
    )

    labels = model_labels_table(result)
    anonymous = getattr(ann, "report", None) is not None and anonymous_annotators(ann)
    notes = [str(n) for n in getattr(result, "notes", ())]
    accuracy, why_not, left_out = None, None, 0
    if known is not None:
        left_out = gold_within(known, result.items)[1]  # said, as the report says it
        try:
            accuracy = gold_accuracy(result, known)
        except AnnotationDataError as exc:  # e.g. every gold item clamped: shown, not fatal
            why_not = str(exc)
    if args.out:
        write_output(args.out, table_to_csv(labels, index=False))
    if args.json:
        payload = {
            "dataset": ann.name,
            **extra,
            "notes": notes,
            "converged": bool(result.converged),
            "n_iter": int(result.n_iter),
            # NaN (no parameter criterion was computed) is written as null, as JSON has no NaN
            "parameter_change": None
            if np.isnan(result.parameter_change)
            else float(result.parameter_change),
            "log_likelihood": float(result.log_likelihood[-1])
            if len(result.log_likelihood)
            else None,
            "prevalence": {str(k): float(v) for k, v in result.prevalence.items()},
            # a count table's "rater 1..k" are slots the counts were unrolled into: no one
            "annotators": [] if anonymous else records(annotator_table(result).reset_index()),
            "gold_file": str(args.out) if args.out else None,  # older name of labels_file
            "labels_file": str(args.out) if args.out else None,
            "items": int(ann.n_items),
            "items_with_labels": len(labels),  # fewer on an engine: its sample
        }
        if known is not None:
            payload["known_gold"] = {
                "file": str(args.gold),
                "clamped_items": len(result.gold_items),
                "left_out": left_out,  # gold labels of items not in the data
                "accuracy": None if accuracy is None else records(accuracy.reset_index()),
                "reason": why_not,
            }
        emit(payload)
        return
    if lead_note and notes:
        headline, notes = f"{headline}: {notes[0]}", notes[1:]
    print(textwrap.fill(f"{ann.name}: {headline}", width=100, subsequent_indent="  "))
    for note in notes:
        print(
            textwrap.fill(f"note: {note}", width=100, initial_indent="  ", subsequent_indent="    ")
        )
    print("prevalence: " + ", ".join(f"{k}={v:.3f}" for k, v in result.prevalence.items()))
    if anonymous:
        print("no per-annotator accuracy: a count table's raters are anonymous")
    else:
        print("\n".join(annotator_lines(annotator_table(result))))
    # an engine brings back the posteriors of the first items only: every count says so
    engine, sampled = getattr(ann, "engine", "memory"), len(labels) < ann.n_items
    among = f" of the first {len(labels):,} items (the {engine} engine's sample)" if sampled else ""
    print(
        f"items with posterior >= 0.99{among}: {format_percent(fit_summary(result).confident_share)}"
    )
    if why_not:
        print(f"accuracy against the known gold labels not computed: {why_not}")
    if accuracy is not None:
        clamped = f", {len(result.gold_items):,} clamped items left out" if args.clamp else ""
        if left_out and not args.clamp:  # with --clamp the fit's note says it
            clamped += (
                f"; {format_count(left_out, 'gold label')} for "
                f"{'an item' if left_out == 1 else 'items'} not in the data left out"
            )
        print(
            f"against the known gold labels in {args.gold} "
            f"({int(accuracy['items'].iloc[0]):,} items{clamped}{among}):"
        )
        print("\n".join(gold_lines(accuracy)))
    kept = f"the {engine} engine brings back the first {len(labels):,} of {ann.n_items:,} items"
    if args.out:
        print(f"the model's labels with confidence written to {args.out}", end="")
        print(f" ({kept}: those only)" if sampled else "")
    else:
        where = f"({kept})" if sampled else "(--out FILE writes all)"
        print(f"the first {min(len(labels), 20)} of {ann.n_items:,} items {where}:")
        first = ["item", "label", "confidence", "judgements", "majority label"]
        shown = labels[[c for c in first if c in labels] + [c for c in labels if c not in first]]
        print(plain_table(shown.head(20)))
