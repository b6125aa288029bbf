"""Concord on the command line: ``python -m analytics COMMAND ...``.

Commands
--------
``summary FILE [--json]``
    Items, annotators, judgements, categories and what the loader decided.
``agreement FILE [--json] [--bootstrap N]``
    Every agreement coefficient with its interval.
``noise FILE [--confidence 0.95] [--json]`` or ``noise --n N --d D --p P``
    The noise bound of the agreed subset (Beigman Klebanov & Beigman 2009).
``dawid-skene FILE [--gold GOLD.csv [--clamp]] [--out labels.csv] [--json]``
    The Dawid-Skene model's most likely labels, with confidence; with ``--gold``, the accuracy
    of majority vote and of the model against known gold labels (``--clamp`` also fixes
    those items to their gold label while fitting, and scores the others).
``report FILE -o report.html [--zip]``
    The self-contained HTML report (or a zip with every table as CSV).

Every command that reads a file takes the loader's options (``--item``, ``--annotator``,
``--label``, ``--format``, ``--sep``, ``--duplicates``, ``--kind``, ``--layout``,
``--categories a,b,c``, ``--tool-option KEY=VALUE``). Bad input
exits with code 2 and a one-line message on stderr. JSON output is documented in the README
and keeps its keys stable; NaN becomes ``null``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analytics import AnnotationDataError, Annotations, load_annotations

JSON_VERSION = 1


class CliError(Exception):
    """A usage problem reported as one line, exit code 2."""


def _clean(value: Any) -> Any:
    """JSON-safe values: NaN and infinities become None, numpy scalars plain numbers."""
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        v = float(value)
        return None if not math.isfinite(v) else v
    if isinstance(value, (frozenset, set)):
        return sorted(map(str, value))
    return value


def _records(df: pd.DataFrame) -> list[dict[str, Any]]:
    return [_clean(r) for r in df.to_dict(orient="records")]


def _emit(payload: dict[str, Any]) -> None:
    print(
        json.dumps(
            _clean({"concord_json_version": JSON_VERSION, **payload}), indent=2, ensure_ascii=False
        )
    )


def _add_loader_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="annotation file (CSV, TSV, JSON, JSONL, XLSX, Parquet)")
    g = p.add_argument_group("reading the file")
    g.add_argument("--item", help="item column (default: detected)")
    g.add_argument("--annotator", help="annotator column (default: detected)")
    g.add_argument("--label", help="label column (default: detected)")
    g.add_argument("--format", choices=["csv", "tsv", "json", "jsonl", "excel", "parquet"])
    g.add_argument(
        "--sep", dest="multilabel_sep", help="multi-label separator, e.g. ';' ('' to never split)"
    )
    g.add_argument("--duplicates", choices=["error", "first", "last", "keep"], default="error")
    g.add_argument("--kind", choices=["nominal", "ordinal", "numeric", "multilabel"])
    g.add_argument("--layout", choices=["long", "wide"])
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
        "--tool-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a choice for an annotation-tool export, e.g. from_name=sentiment (repeatable)",
    )


def _tool_options(pairs: Sequence[str]) -> dict[str, Any] | None:
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


def _categories(text: str | None) -> list[str] | None:
    if text is None:
        return None
    cats = [c.strip() for c in text.split(",") if c.strip()]
    if not cats:
        raise CliError("--categories needs at least one category")
    return cats


ENGINE_THRESHOLD_BYTES = 256 * 2**20
"""``--engine auto``: files at least this big (Parquet, CSV, TSV) are read by DuckDB."""
_DUCKDB_SUFFIXES = (".parquet", ".pq", ".csv", ".tsv")


def _add_engine_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("where the judgements are held (docs/scale.md)")
    g.add_argument(
        "--engine",
        choices=["auto", "memory", "duckdb", "spark"],
        default="auto",
        help="auto (default): memory below 256 MB, duckdb for a bigger Parquet/CSV/TSV file",
    )
    g.add_argument("--memory-limit", help="DuckDB's memory bound, e.g. 3GB (it spills past it)")


def _engine(args: argparse.Namespace) -> str:
    engine = getattr(args, "engine", "memory")
    if engine != "auto":
        return engine
    path = Path(args.file)
    big = path.is_file() and path.stat().st_size >= ENGINE_THRESHOLD_BYTES
    return "duckdb" if big and path.suffix.lower() in _DUCKDB_SUFFIXES else "memory"


def _load(args: argparse.Namespace) -> Annotations:
    engine = _engine(args)
    if engine != "memory":
        memory_only = {
            "--format": args.format,
            "--sep": args.multilabel_sep,
            "--layout": args.layout,
            "--missing": args.missing,
            "--tool-option": args.tool_option or None,
        }
        given = [k for k, v in memory_only.items() if v is not None]
        if given:
            raise CliError(f"{', '.join(given)} only apply with --engine memory")
        if args.duplicates not in ("error", "keep"):
            raise CliError(f"--duplicates {args.duplicates} needs --engine memory (input order)")
        return load_annotations(
            args.file,
            engine=engine,
            categories=_categories(args.categories),
            item=args.item,
            annotator=args.annotator,
            label=args.label,
            duplicates=args.duplicates,
            kind=args.kind,
            memory_limit=args.memory_limit,
        )
    return load_annotations(
        args.file,
        categories=_categories(args.categories),
        tool_options=_tool_options(args.tool_option),
        item=args.item,
        annotator=args.annotator,
        label=args.label,
        format=args.format,
        multilabel_sep=args.multilabel_sep,
        duplicates=args.duplicates,
        kind=args.kind,
        layout=args.layout,
        missing=None if args.missing is None else args.missing.split(","),
    )


# ---------------------------------------------------------------------- commands
def cmd_summary(args: argparse.Namespace) -> None:
    ann = _load(args)
    per_item = ann.judgements_per_item()
    payload = {
        "dataset": ann.name,
        "items": ann.n_items,
        "annotators": ann.n_annotators,
        "judgements": ann.n_judgements,
        "categories": [str(c) for c in ann.categories],
        "kind": ann.kind.value,
        "judgements_per_item": {
            "mean": float(per_item.mean()) if len(per_item) else None,
            "min": int(per_item.min()) if len(per_item) else None,
            "max": int(per_item.max()) if len(per_item) else None,
        },
        "format": ann.report.format,
        "layout": ann.report.layout,
        "missing_labels": ann.report.n_missing,
        "skipped": [{"reason": s.reason, "count": s.count} for s in ann.report.skipped],
        "messages": ann.report.messages(),
    }
    if args.json:
        _emit(payload)
        return
    print(
        f"{ann.name}: {ann.n_items:,} items, {ann.n_annotators:,} annotators, {ann.n_judgements:,} judgements"
    )
    print(
        f"{ann.n_categories} categories ({ann.kind.value}): {', '.join(payload['categories'][:20])}"
    )
    print(ann.summary().to_string(index=False))
    for line in ann.report.messages():
        print(f"- {line}")


def cmd_agreement(args: argparse.Namespace) -> None:
    from analytics.agreement import agreement_report

    ann = _load(args)
    report = agreement_report(
        ann, confidence=args.confidence, n_boot=args.bootstrap, seed=args.seed
    )
    if args.json:
        _emit(
            {"dataset": ann.name, "confidence": args.confidence, "coefficients": _records(report)}
        )
        return
    print(f"{ann.name}: agreement ({ann.n_items:,} items, {ann.n_annotators:,} annotators)")
    if ann.report.kind_reason:
        print(ann.report.kind_reason)
    for caution in ann.report.cautions:
        print(f"caution: {caution}")
    with pd.option_context(
        "display.width", 160, "display.max_columns", 20, "display.float_format", "{:.3f}".format
    ):
        print(report.to_string(index=False))


def cmd_noise(args: argparse.Namespace) -> None:
    from analytics.noise import noise_bound, noise_from_annotations

    by_hand = args.n is not None or args.d is not None or args.p is not None
    if by_hand:
        if args.file is not None:
            raise CliError("give either a FILE or --n/--d/--p, not both")
        if None in (args.n, args.d, args.p):
            raise CliError("noise by hand needs all of --n, --d and --p")
        result = noise_bound(args.n, args.d, args.p, confidence=args.confidence)
        source = None
    else:
        if args.file is None:
            raise CliError("noise needs a FILE, or --n, --d and --p")
        ann = _load(args)
        result = noise_from_annotations(ann, confidence=args.confidence)
        source = ann.name
    payload = {
        "dataset": source,
        "n_items": result.n_items,
        "n_disagreed": result.n_disagreed,
        "n_agreed": result.n_items - result.n_disagreed,
        "p": result.p,
        "confidence": result.confidence,
        "t0": result.t0,
        "hidden_hard": result.hidden_hard,
        "gamma": result.gamma,
        "reason": result.reason or None,
    }
    if args.json:
        _emit(payload)
        return
    print(result.explain() if hasattr(result, "explain") else payload)


def cmd_dawid_skene(args: argparse.Namespace) -> None:
    from analytics.data import read_gold_labels, table_to_csv
    from analytics.dawid_skene import (
        annotator_table,
        fit,
        fit_summary,
        gold_accuracy,
        model_labels_table,
    )

    if args.clamp and not args.gold:
        raise CliError("--clamp needs --gold FILE")
    if args.out:
        _writable(args.out)
    ann = _load(args)
    known = read_gold_labels(args.gold) if args.gold else None
    result = fit(
        ann,
        max_iter=args.max_iter,
        smoothing=args.smoothing,
        gold=known if args.clamp else None,
    )
    labels = model_labels_table(result)
    accuracy, why_not = None, None
    if known is not None:
        try:
            accuracy = gold_accuracy(result, known)
        except AnnotationDataError as exc:  # e.g. every gold item clamped: shown, not fatal
            why_not = str(exc)
    if args.out:
        Path(args.out).write_text(table_to_csv(labels, index=False), encoding="utf-8")
    if args.json:
        payload = {
            "dataset": ann.name,
            "converged": bool(result.converged),
            "n_iter": int(result.n_iter),
            "log_likelihood": float(result.log_likelihood[-1])
            if len(result.log_likelihood)
            else None,
            "prevalence": {str(k): float(v) for k, v in result.prevalence.items()},
            "annotators": _records(annotator_table(result).reset_index()),
            "gold_file": str(args.out) if args.out else None,  # older name of labels_file
            "labels_file": str(args.out) if args.out else None,
        }
        if known is not None:
            payload["known_gold"] = {
                "file": str(args.gold),
                "clamped_items": len(result.gold_items),
                "accuracy": None if accuracy is None else _records(accuracy.reset_index()),
                "reason": why_not,
            }
        _emit(payload)
        return
    print(
        f"{ann.name}: Dawid-Skene {'converged' if result.converged else 'stopped'} after {result.n_iter} iterations"
    )
    print("prevalence: " + ", ".join(f"{k}={v:.3f}" for k, v in result.prevalence.items()))
    print(f"items with posterior >= 0.99: {fit_summary(result).confident_share:.1%}")
    if why_not:
        print(f"accuracy against the known gold labels not computed: {why_not}")
    if accuracy is not None:
        clamped = f", {len(result.gold_items):,} clamped items left out" if args.clamp else ""
        print(
            f"against the known gold labels in {args.gold} "
            f"({int(accuracy['items'].iloc[0]):,} items{clamped}):"
        )
        for method, row in accuracy.iterrows():
            print(f"  {method}: {row['accuracy']:.1%} right")
    if args.out:
        print(f"the model's labels with confidence written to {args.out}")
    else:
        print(labels.head(20).to_string(index=False))


def _writable(path: str | Path) -> Path:
    out = Path(path)
    if not out.parent.exists():
        raise CliError(f"cannot write {out}: the folder {out.parent} does not exist")
    if out.is_dir():
        raise CliError(f"cannot write {out}: it is a folder")
    return out


def cmd_report(args: argparse.Namespace) -> None:
    from analytics.report import build_report, build_report_zip

    out = _writable(args.output)
    ann = _load(args)
    if args.zip or out.suffix.lower() == ".zip":
        out.write_bytes(build_report_zip(ann, title=args.title))
    else:
        out.write_text(build_report(ann, title=args.title), encoding="utf-8")
    print(f"report written to {out}")


# ---------------------------------------------------------------------- parser
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m analytics",
        description="Concord: agreement, noise and annotator models for annotated data.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("summary", help="what the file holds and how it was read")
    _add_loader_options(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_summary)

    p = sub.add_parser("agreement", help="every agreement coefficient with intervals")
    _add_loader_options(p)
    p.add_argument("--json", action="store_true")
    p.add_argument("--confidence", type=float, default=0.95)
    p.add_argument(
        "--bootstrap",
        type=int,
        default=1000,
        help="bootstrap resamples (0: analytic intervals only)",
    )
    p.add_argument("--seed", type=int, default=0)
    _add_engine_options(p)
    p.set_defaults(func=cmd_agreement)

    p = sub.add_parser("noise", help="noise level of the agreed subset (or by hand: --n --d --p)")
    _add_loader_options(p)
    p.add_argument("--n", type=int, help="by hand: number of items")
    p.add_argument("--d", type=int, help="by hand: number of items the annotators disagreed on")
    p.add_argument("--p", type=float, help="by hand: chance that annotators agree on a hard item")
    p.add_argument("--confidence", type=float, default=0.95)
    p.add_argument("--json", action="store_true")
    _add_engine_options(p)
    p.set_defaults(func=cmd_noise)
    for action in p._actions:  # FILE is optional for the by-hand form
        if action.dest == "file":
            action.nargs = "?"
            action.default = None

    p = sub.add_parser(
        "dawid-skene", help="the Dawid-Skene model's most likely labels, with confidence"
    )
    _add_loader_options(p)
    p.add_argument(
        "--out", help="write the model's labels (item, label, confidence, ...) to this CSV"
    )
    p.add_argument(
        "--gold",
        metavar="FILE",
        help="known gold labels (CSV with columns item, label): report the accuracy of "
        "majority vote and of the model against them",
    )
    p.add_argument(
        "--clamp",
        action="store_true",
        help="with --gold: fix those items to their gold label while fitting "
        "(semi-supervised); clamped items are left out of the accuracy, so with every gold "
        "item clamped no accuracy is reported (the JSON says why)",
    )
    p.add_argument("--max-iter", type=int, default=500)
    p.add_argument("--smoothing", type=float, default=0.01)
    p.add_argument("--json", action="store_true")
    _add_engine_options(p)
    p.set_defaults(func=cmd_dawid_skene)

    p = sub.add_parser("report", help="self-contained HTML report (or zip of CSVs with --zip)")
    _add_loader_options(p)
    p.add_argument("-o", "--output", required=True, help="report.html (or .zip)")
    p.add_argument("--title", help="report title")
    p.add_argument("--zip", action="store_true", help="also every table as CSV, in a zip")
    p.set_defaults(func=cmd_report)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.func(args)
    except AnnotationDataError as exc:
        print(f"concord: error: {exc}", file=sys.stderr)
        return 2
    except CliError as exc:
        print(f"concord: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # piped into head: the reader left, nothing went wrong
        # (caught before OSError, of which it is a kind)
        sys.stdout = open(os.devnull, "w")
        return 0
    except OSError as exc:  # writing an output file (disk full, permissions, ...)
        print(
            f"concord: error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "),
            file=sys.stderr,
        )
        return 2
    return 0
