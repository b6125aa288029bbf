"""The command line's shared input and output: loader options, resource options, JSON.

Part of :mod:`analytics.cli` (kept apart so each module stays small): the options every
command that reads a file takes, how they become a :func:`~analytics.load_annotations`
call, and the one way JSON is written.
"""

from __future__ import annotations

import argparse
import json
import math
import re
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analytics import Annotations, Limits, load_annotations
from analytics.engines import ENGINE_THRESHOLD_BYTES, default_engine

JSON_VERSION = 1
LIMIT_FIELDS = tuple(f.name for f in fields(Limits))

__all__ = [
    "BATCH_SUFFIXES",
    "ENGINE_THRESHOLD_BYTES",
    "HELP",
    "JSON_VERSION",
    "LIMIT_FIELDS",
    "CliError",
    "Parser",
    "add_engine_options",
    "add_loader_options",
    "batch_suffix",
    "categories_from",
    "clean",
    "cli_words",
    "emit",
    "engine_of",
    "fractional_counts",
    "limits_from",
    "load",
    "records",
    "sheet_of",
    "tool_options",
    "write_output",
]


#: Help texts of the commands' own options (here, so that :mod:`analytics.cli` stays small).
HELP = {
    "json": "machine-readable output (every column; keys listed in the README, 'Command line')",
    "confidence": "confidence level of the intervals and bounds (default 0.95)",
    "bootstrap": "bootstrap resamples for the intervals (default 1000; 0: analytic intervals only)",
    "agreement_seed": "seed of the bootstrap resamples (default 0)",
    "population": "items in the population the data were drawn from: the analytic standard "
    "errors get the finite-population correction 1 - n/N (default: infinite)",
    "weights": "weights of the weighted rows, Gwet's AC2 and weighted Cohen's kappa "
    "(default: quadratic, shown for ordinal and numeric labels only)",
    "dawid_skene": "the Dawid-Skene model's most likely labels, with confidence",
    "dawid_skene_description": "Fit the Dawid-Skene model (full confusion matrices) and print "
    "each item's most likely label with its confidence. This command fits Dawid-Skene only; "
    "the app's Gold labels page, and analytics.models.fit(ann) in Python, default to 'auto', "
    "a stack of six annotator models chosen without gold (docs/models.md).",
    "gold": "known gold labels (CSV with columns item, label): report the accuracy of "
    "majority vote and of the model against them",
    "clamp": "with --gold: fix those items to their gold label while fitting "
    "(semi-supervised); clamped items are left out of the accuracy, so with every gold "
    "item clamped no accuracy is reported (the JSON says why)",
    "max_iter": "most EM iterations (default 500)",
    "tol": "stop when the log-likelihood's relative change falls below this (default 1e-7)",
    "param_tol": "also wait until no prevalence or confusion entry moves by TOL or more "
    "(default: not checked; recommended on large data, e.g. 1e-4: see docs/scale.md)",
    "smoothing": "pseudo-count added to every confusion cell and prevalence count, a MAP "
    "estimate (default 0.01; 0: unsmoothed maximum likelihood)",
    "strategy": "gain (default): the largest expected information gain; uncertainty: the "
    "least confident items; random: for comparison",
    "target": "accuracy the plan aims at (default 0.95): how many judgements per item a new "
    "run, a fresh campaign with this annotator pool and k judgements per item, needs",
    "next_seed": "seed of the random choices and of the plan's simulation (default 0)",
    "report_bootstrap": "bootstrap resamples for the agreement intervals (default 1000, as "
    "`agreement` and the app; 0 for analytic intervals only)",
    "report_gold": "known true labels of some items (CSV: item, label): the overview judges "
    "the labels' error against them",
    "zip": "a zip with the report and every table as CSV (the output must end in .zip; "
    "an output ending in .zip is a zip anyway)",
}


class CliError(Exception):
    """A usage problem reported as one line, exit code 2."""


#: The file endings each ``next-batch --as`` format is written with
BATCH_SUFFIXES = {"csv": (".csv",), "label-studio": (".json",), "mturk": (".csv",)}


def batch_suffix(out: Path, fmt: str) -> None:
    """Refuse a batch file whose name says another format (``--as label-studio -o b.csv``
    had written JSON into a .csv file); a name that says no format of the three (``.txt``,
    no suffix, ``/dev/stdout``) is written as asked."""
    suffix = out.suffix.lower()
    named = {f for f, ends in BATCH_SUFFIXES.items() if suffix in ends}
    if named and fmt not in named:  # .txt, no suffix, /dev/stdout: any format
        right = BATCH_SUFFIXES[fmt][0]
        other = next((f for f, ends in BATCH_SUFFIXES.items() if suffix in ends), None)
        raise CliError(
            f"--as {fmt} writes {'JSON' if right == '.json' else 'CSV'}, but {out} ends in "
            f"{out.suffix or 'nothing'}: name it {out.with_suffix(right)}"
            + (f", or choose --as {other}" if other else "")
        )


class Parser(argparse.ArgumentParser):
    """argparse, but a wrong option is one line (``concord: error: ...``, exit 2), as
    every other error of the command line, with where to look instead of the usage."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"concord: error: {message} (see: {self.prog} --help)\n")


def clean(value: Any) -> Any:
    """JSON-safe values: NaN and infinities become None, numpy scalars plain numbers."""
    if isinstance(value, dict):
        return {str(k): clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        v = float(value)
        return None if not math.isfinite(v) else v
    if isinstance(value, (frozenset, set)):
        return sorted(map(str, value))
    return value


def records(df: pd.DataFrame) -> list[dict[str, Any]]:
    return [clean(r) for r in df.to_dict(orient="records")]


def emit(payload: dict[str, Any]) -> None:
    print(
        json.dumps(
            clean({"concord_json_version": JSON_VERSION, **payload}), indent=2, ensure_ascii=False
        )
    )


def add_loader_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="annotation file (CSV, TSV, JSON, JSONL, XLSX, Parquet)")
    g = p.add_argument_group("reading the file")
    g.add_argument("--item", help="item column (default: detected)")
    g.add_argument("--annotator", help="annotator column (default: detected)")
    g.add_argument("--label", help="label column (default: detected)")
    g.add_argument(
        "--format",
        choices=["csv", "tsv", "json", "jsonl", "excel", "parquet"],
        help="the file's format (default: from the extension, else the content)",
    )
    g.add_argument(
        "--sheet",
        type=sheet_of,
        metavar="NAME_OR_INDEX",
        help="the Excel sheet to read: its name, or its 0-based position (default: the first)",
    )
    g.add_argument(
        "--sep", dest="multilabel_sep", help="multi-label separator, e.g. ';' ('' to never split)"
    )
    g.add_argument(
        "--duplicates",
        choices=["error", "first", "last", "keep"],
        default="error",
        help="an annotator judging an item twice: an error (default), or the first, the last "
        "or every judgement kept",
    )
    g.add_argument(
        "--kind",
        choices=["nominal", "ordinal", "numeric", "multilabel"],
        help="the labels' kind (default: inferred; up to 12 whole-number codes load as nominal)",
    )
    g.add_argument(
        "--layout",
        choices=["long", "wide", "counts", "contingency"],
        help="counts: an items x categories count table (anonymous raters); contingency: "
        "a two-rater contingency table (rows: rater 1, columns: rater 2)",
    )
    g.add_argument(
        "--categories",
        help="the categories in order, comma-separated (ordinal scales; unused categories count)",
    )
    g.add_argument(
        "--missing",
        metavar="TOKENS",
        help="cell texts read as 'not labelled', comma-separated, case-insensitive "
        "(default: NA,N/A,NaN,None,null,<NA>,NaT; '' = only empty cells)",
    )
    g.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="raise or lower a resource limit, e.g. max_cells=200000000 or max_bytes=1G "
        f"(repeatable; names: {', '.join(LIMIT_FIELDS)})",
    )
    g.add_argument(
        "--memory-budget",
        metavar="SIZE",
        help="the memory an analysis may use, e.g. 8G (default: 2G, or CONCORD_MEMORY_BUDGET)",
    )
    g.add_argument(
        "--tool-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a choice for an annotation-tool export, e.g. from_name=sentiment (repeatable)",
    )


def sheet_of(text: str) -> str | int:
    """``--sheet``'s value: a whole number is a 0-based position, anything else a name.

    Examples
    --------
    >>> sheet_of("2"), sheet_of("-1"), sheet_of("Batch 2")
    (2, -1, 'Batch 2')
    """
    return int(text) if re.fullmatch(r"-?[0-9]+", text.strip()) else text


def tool_options(pairs: Sequence[str]) -> dict[str, Any] | None:
    if not pairs:
        return None
    bad = [p for p in pairs if "=" not in p]
    if bad:
        raise CliError(f"--tool-option takes KEY=VALUE, not {bad[0]!r}")
    from analytics.data.importers import parse_tool_option

    options: dict[str, Any] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        k, v = parse_tool_option(key.strip(), value.strip())
        options[k] = v
    return options or None


def limits_from(pairs: Sequence[str]) -> Limits | None:
    """``--limit NAME=VALUE`` pairs as :class:`~analytics.data.Limits` (None: the defaults)."""
    if not pairs:
        return None
    values: dict[str, int] = {}
    for pair in pairs:
        key, eq, value = (part.strip() for part in pair.partition("="))
        if not eq or key not in LIMIT_FIELDS:
            raise CliError(
                f"--limit takes NAME=VALUE with NAME one of {', '.join(LIMIT_FIELDS)}, not {pair!r}"
            )
        match = re.fullmatch(r"([0-9][0-9_]*)\s*([KMGT]?)(?:I?B)?", value, re.I)
        if match is None or int(match.group(1).replace("_", "")) < 1:
            raise CliError(
                f"--limit {key} takes a positive whole number (sizes may end in K, M, G or "
                f"T), not {value!r}"
            )
        scale = 2 ** (10 * "KMGT".find(match.group(2).upper()) + 10) if match.group(2) else 1
        values[key] = int(match.group(1).replace("_", "")) * scale
    return Limits(**values)


def categories_from(text: str | None) -> list[str] | None:
    if text is None:
        return None
    cats = [c.strip() for c in text.split(",") if c.strip()]
    if not cats:
        raise CliError("--categories needs at least one category")
    return cats


def fractional_counts(args: argparse.Namespace) -> pd.DataFrame | None:
    """With ``--layout counts``: the table, when it holds fractional counts (else None)."""
    from analytics.data import count_matrix_of, read_table

    if args.layout != "counts":
        return None
    table, _, report = read_table(
        args.file, format=args.format, sheet=args.sheet, limits=limits_from(args.limit)
    )
    sheet_applies(args, report.format)
    counts = count_matrix_of(table, categories_from(args.categories), str(args.file))[0]
    return None if np.allclose(counts, np.rint(counts)) else table


#: Library spellings in error messages and their command-line options.
_CLI_WORDS = (
    (re.compile(r"\b(item|annotator|label)=\.\.\."), r"--\1 COLUMN"),
    (re.compile(r"\ba duplicates policy: '(\w+)', '(\w+)' or '(\w+)'"), r"--duplicates \1|\2|\3"),
    (re.compile(r"\b(duplicates|engine|kind)='?([\w-]+)'?"), r"--\1 \2"),
    (re.compile(r"\bsmoothing=([\d.]*\d)"), r"--smoothing \1"),
    (re.compile(r"\b(memory_limit|temp_directory)\b"), lambda m: "--" + m[1].replace("_", "-")),
    (re.compile(r"\b([Ll])eave (weights|categories|kind)=None\b"), r"\1eave out --\2"),
)


def cli_words(message: str) -> str:
    """An error message as the command line says it: one line, with the options' names.

    The library's messages name keywords (``item=...``, ``engine='memory'``); on the command
    line they read ``--item COLUMN``, ``--engine memory``.

    Examples
    --------
    >>> cli_words("no item column 'item'. Name it with item=... or engine='memory'.")
    "no item column 'item'. Name it with --item COLUMN or --engine memory."
    """
    text = " ".join(message.split())
    for pattern, replacement in _CLI_WORDS:
        text = pattern.sub(replacement, text)
    return text


def add_engine_options(p: argparse.ArgumentParser) -> None:
    """``--engine``, ``--memory-limit`` and ``--temp-directory`` (docs/scale.md)."""
    g = p.add_argument_group("where the judgements are held (docs/scale.md)")
    g.add_argument(
        "--engine",
        choices=["auto", "memory", "duckdb", "spark"],
        default="auto",
        help="auto (default): memory below 200 MiB, duckdb for a bigger Parquet/CSV/TSV file",
    )
    g.add_argument("--memory-limit", help="DuckDB's memory bound, e.g. 3GB (it spills past it)")
    g.add_argument(
        "--temp-directory",
        metavar="DIR",
        help="the folder DuckDB spills to past --memory-limit (default: beside its database)",
    )


def engine_of(args: argparse.Namespace) -> str:
    """The engine ``--engine`` names (``auto``: DuckDB for a big Parquet, CSV or TSV file,
    and for a folder of Parquet files, which only the engines read)."""
    engine = getattr(args, "engine", "memory")
    if engine != "auto":
        return engine
    path = Path(args.file)
    if path.is_dir():
        return "duckdb"
    if not path.is_file():
        return "memory"
    return default_engine(path.stat().st_size, path.suffix)


def load(args: argparse.Namespace) -> Annotations:
    """The annotations the command's options describe, in memory or on an engine."""
    roles = {f"--{r}": c for r in ("item", "annotator", "label") if (c := getattr(args, r, None))}
    for column in roles.values():  # said in the command line's words, not the library's
        same = [f for f, c in roles.items() if c == column]
        if len(same) > 1:
            raise CliError(f"{' and '.join(same)} name the same column ({column!r})")
    engine = engine_of(args)
    if engine != "memory":
        memory_only = {
            "--format": args.format,
            "--sheet": args.sheet,
            "--sep": args.multilabel_sep,
            "--layout": args.layout,
            "--missing": args.missing,
            "--tool-option": args.tool_option or None,
            "--limit": args.limit or None,
        }
        given = [k for k, v in memory_only.items() if v is not None]
        if given:
            verb = "applies" if len(given) == 1 else "apply"
            raise CliError(f"{', '.join(given)} only {verb} with --engine memory")
        if args.duplicates not in ("error", "keep"):
            raise CliError(f"--duplicates {args.duplicates} needs --engine memory (input order)")
        return load_annotations(
            args.file,
            engine=engine,
            categories=categories_from(args.categories),
            item=args.item,
            annotator=args.annotator,
            label=args.label,
            duplicates=args.duplicates,
            kind=args.kind,
            memory_limit=args.memory_limit,
            temp_directory=args.temp_directory,
        )
    ann = load_annotations(
        args.file,
        limits=limits_from(args.limit),
        categories=categories_from(args.categories),
        tool_options=tool_options(args.tool_option),
        item=args.item,
        annotator=args.annotator,
        label=args.label,
        format=args.format,
        sheet=args.sheet,
        multilabel_sep=args.multilabel_sep,
        duplicates=args.duplicates,
        kind=args.kind,
        layout=args.layout,
        missing=None if args.missing is None else args.missing.split(","),
    )
    sheet_applies(args, ann.report.format)
    return ann


def write_output(path: str | Path, content: str | bytes) -> None:
    """Write an output file; an I/O error names it (``Input/output error`` alone had not).

    Parameters
    ----------
    path : str or pathlib.Path
        The file (``--out``, ``-o``).
    content : str or bytes
        Text (written as UTF-8) or bytes.

    Raises
    ------
    CliError
        The file could not be written: the message names it and the system's reason.
    """
    out = Path(path)
    try:
        if isinstance(content, bytes):
            out.write_bytes(content)
        else:
            out.write_text(content, encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write {out}: {exc.strerror or exc}") from None


def sheet_applies(args: argparse.Namespace, read_as: str) -> None:
    """Refuse ``--sheet`` on a file that is no workbook (it had been ignored silently)."""
    if args.sheet is not None and read_as != "excel":
        raise CliError(
            f"--sheet chooses a sheet of an Excel workbook, but {Path(args.file).name} was "
            f"read as {read_as}: leave out --sheet"
        )
