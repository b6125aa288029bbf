"""Concord on the command line: ``python -m analytics COMMAND ...``.

Commands
--------
``summary FILE [--json]``
    Items, annotators, judgements, categories and what the loader decided.
``agreement FILE [--json] [--bootstrap N] [--population N]``
    Every agreement coefficient with its interval.
``noise FILE [--confidence 0.95] [--json]`` or ``noise --n N --d D --p P``
    The noise bound of the agreed subset (Beigman Klebanov & Beigman 2009).
``dawid-skene FILE [--gold GOLD.csv [--clamp]] [--out labels.csv] [--json]``
    The Dawid-Skene model's most likely labels, with confidence; with ``--gold``, the accuracy
    of majority vote and of the model against known gold labels (``--clamp`` also fixes
    those items to their gold label while fitting, and scores the others).
``gold-labels FILE [--model auto|NAME] [--gold GOLD.csv [--clamp]] [--out labels.csv] [--json]``
    Any annotator model of :mod:`analytics.models` (default ``auto``, chosen without gold
    labels, as the Gold labels page does): its labels with confidence, how it was chosen.
``next-batch FILE --budget N [-o batch.csv] [--as csv|label-studio|mturk] [--json]``
    The judgements to ask for next (expected information gain under the Dawid-Skene model,
    ``analytics.next_labels``), written in the format the team sends work out in, and how
    many judgements per item a new run needs for ``--target`` accuracy.
``report FILE -o report.html [--gold GOLD.csv]`` or ``report FILE -o report.zip [--zip]``
    The self-contained HTML report, or (output ending in .zip) a zip with every table as
    CSV; ``--zip`` with an output that does not end in .zip is refused.

Every command that reads a file takes the loader's options (``--item``, ``--annotator``,
``--label``, ``--format``, ``--sep``, ``--duplicates``, ``--kind``, ``--layout``,
``--categories a,b,c``, ``--missing TOKENS``, ``--tool-option KEY=VALUE``), and the
resource options ``--limit NAME=VALUE`` (a :class:`~analytics.data.Limits` field, e.g.
``--limit max_cells=200000000``; repeatable) and ``--memory-budget 8G``. ``--layout counts``
reads an items x categories count table, ``--layout contingency`` a two-rater contingency
table; ``agreement`` takes fractional counts too (the coefficients defined on counts). Bad input
exits with code 2 and a one-line message on stderr. JSON output is documented in the README
and keeps its keys stable; NaN becomes ``null``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

from analytics import AnnotationDataError, format_count, memory_budget
from analytics.agreement import WEIGHT_FAMILIES
from analytics.cli_input import (
    HELP,
    CliError,
    Parser,
    add_engine_options,
    add_loader_options,
    batch_suffix,
    categories_from,
    cli_words,
    emit,
    fractional_counts,
    load,
    records,
    write_output,
)
from analytics.cli_tables import (
    agreement_text,
    plain_table,
    show_labels,
)
from analytics.models import MODELS


# ---------------------------------------------------------------------- commands
def cmd_summary(args: argparse.Namespace) -> None:
    ann = load(args)
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
        emit(payload)
        return
    print(
        f"{ann.name}: {format_count(ann.n_items, 'item')}, {format_count(ann.n_annotators, 'annotator')}, {format_count(ann.n_judgements, 'judgement')}"
    )
    cats = format_count(ann.n_categories, "category", "categories")
    more = " ..." if ann.n_categories > 20 else ""
    print(f"{cats} ({ann.kind.value}): {', '.join(payload['categories'][:20])}{more}")
    print(plain_table(ann.summary(separators=True)))
    for line in ann.report.messages():
        print(f"- {line}")


def cmd_agreement(args: argparse.Namespace) -> None:
    from analytics.agreement import agreement_report, count_table_agreement

    fractional = fractional_counts(args)
    if fractional is not None:  # no judgements behind the counts: the count-defined ones
        report = count_table_agreement(fractional, categories=categories_from(args.categories))
        if args.json:
            emit(
                {
                    "dataset": Path(args.file).name,
                    "confidence": None,
                    "coefficients": records(report),
                }
            )
        else:
            print(f"{Path(args.file).name}: agreement from fractional counts")
            print(agreement_text(report, None))
        return
    ann = load(args)
    report = agreement_report(
        ann,
        confidence=args.confidence,
        n_boot=args.bootstrap,
        seed=args.seed,
        population=args.population,
        weights=args.weights,
    )
    if args.json:
        emit({"dataset": ann.name, "confidence": args.confidence, "coefficients": records(report)})
        return
    print(f"{ann.name}: agreement ({ann.n_items:,} items, {ann.n_annotators:,} annotators)")
    if ann.report.kind_reason:
        print(ann.report.kind_reason)
    for caution in ann.report.cautions:
        print(f"caution: {caution}")
    print(agreement_text(report, args.confidence))


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
        ann = load(args)
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
        emit(payload)
        return
    print(result.explain() if hasattr(result, "explain") else payload)


def cmd_dawid_skene(args: argparse.Namespace) -> None:
    from analytics.dawid_skene import fit

    known = _gold_for(args)
    ann = load(args)
    result = fit(
        ann,
        max_iter=args.max_iter,
        tol=args.tol,
        param_tol=args.param_tol,
        smoothing=args.smoothing,
        gold=known if args.clamp else None,
    )
    did = "converged" if result.converged else "stopped"
    show_labels(
        args,
        ann,
        result,
        known,
        f"Dawid-Skene {did} after {format_count(result.n_iter, 'iteration')}",
        {},
    )


def cmd_gold_labels(args: argparse.Namespace) -> None:
    from analytics.models import fit

    known = _gold_for(args)
    ann = load(args)
    result = fit(ann, args.model, gold=known if args.clamp else None, seed=args.seed)
    extra = {"model": str(result.model)}
    show_labels(args, ann, result, known, f"{result.model} model", extra, lead_note=True)


def _gold_for(args: argparse.Namespace) -> object:
    """The ``--gold`` labels (None without), after the checks that need no data."""
    from analytics.data import read_gold_labels

    if args.clamp and not args.gold:
        raise CliError("--clamp needs --gold FILE")
    if args.out:
        _writable(args.out)
    return read_gold_labels(args.gold) if args.gold else None


BATCH_FORMATS = ("csv", "label-studio", "mturk")


def cmd_next_batch(args: argparse.Namespace) -> None:
    from analytics.dawid_skene import fit
    from analytics.next_labels import (
        batch_csv,
        label_studio_tasks,
        mturk_input_csv,
        next_batch,
        plan,
    )

    if args.budget < 1:  # before any work, in the command line's words
        raise CliError(
            f"--budget must be at least 1 judgement (got {args.budget}): e.g. --budget 100"
        )
    if args.per_annotator is not None and (args.per_annotator < 1 or not args.assign):
        raise CliError(
            "--per-annotator limits the annotators --assign names: give both, with at least "
            f"1 judgement each (got --per-annotator {args.per_annotator}"
            + ("" if args.assign else " without --assign")
            + "): e.g. --assign --per-annotator 10"
        )
    if args.as_format and not args.output:  # it had been ignored without a word
        raise CliError(f"--as {args.as_format} is the format of the batch file: add -o FILE")
    args.as_format = args.as_format or "csv"
    if args.output:
        batch_suffix(_writable(args.output), args.as_format)
    ann = load(args)
    result = fit(ann)
    batch = next_batch(
        result,
        ann,
        args.budget,
        per_item_cap=args.cap,
        annotators=list(ann.annotators) if args.assign else None,
        stop_at=args.stop_at,
        strategy=args.strategy,
        seed=args.seed,
        per_annotator_cap=args.per_annotator,
    )
    writer = {"csv": batch_csv, "label-studio": label_studio_tasks, "mturk": mturk_input_csv}
    if args.output:
        write_output(args.output, writer[args.as_format](batch))
    needed = plan(result, args.target, seed=args.seed)
    if args.json:
        emit(
            {
                "dataset": ann.name,
                "judgements": len(batch),
                "items": int(batch["item"].nunique()),
                "expected_gain_bits": float(batch["expected_gain"].sum()),
                "batch": records(batch),
                "notes": list(batch.attrs.get("notes", ())),
                "batch_file": str(args.output) if args.output else None,
                "plan": {
                    "target_accuracy": args.target,
                    "needed": needed.needed,
                    "needed_surely": needed.needed_surely,
                    "reason": needed.reason,
                    "curve": records(needed.curve),
                },
            }
        )
        return
    print(
        f"{ann.name}: {len(batch):,} judgements of {batch['item'].nunique():,} items, "
        f"expected to add {batch['expected_gain'].sum():.1f} bits ({args.strategy})"
    )
    for note in batch.attrs.get("notes", ()):
        print(note)
    print(f"a new run like this one: {needed.reason}")
    if args.output:
        print(f"the batch ({args.as_format}) written to {args.output}")
    else:
        if len(batch) > 20:
            print(f"the first 20 of {len(batch):,} rows (-o FILE writes the batch):")
        print(plain_table(batch.head(20)))


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
    as_zip = out.suffix.lower() == ".zip"
    if args.zip and not as_zip:  # the name must say what the file is
        raise CliError(
            f"--zip writes a zip archive, but {out} does not end in .zip: name it "
            f"{out.with_suffix('.zip')}, or leave out --zip for an HTML report"
        )
    if not as_zip and out.suffix.lower() not in (".html", ".htm"):
        raise CliError(
            f"report writes HTML (or a zip), but {out} ends in {out.suffix or 'nothing'}: "
            f"name it {out.with_suffix('.html')} or {out.with_suffix('.zip')}"
        )
    ann = load(args)
    kw = {"title": args.title, "n_boot": args.bootstrap}
    if args.gold:
        from analytics.data import read_gold_labels

        kw["gold"] = read_gold_labels(args.gold)
    if as_zip:
        write_output(out, build_report_zip(ann, **kw))
        print(f"zip (report.html and every table as CSV) written to {out}")
    else:
        write_output(out, build_report(ann, **kw))
        print(f"HTML report written to {out}")


# ---------------------------------------------------------------------- parser
def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="python -m analytics",
        description="Concord: agreement, noise and annotator models for annotated data.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("summary", help="what the file holds and how it was read")
    add_loader_options(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_summary)

    p = sub.add_parser("agreement", help="every agreement coefficient with intervals")
    add_loader_options(p)
    p.add_argument("--json", action="store_true", help=HELP["json"])
    p.add_argument("--confidence", type=float, default=0.95, help=HELP["confidence"])
    p.add_argument("--bootstrap", type=int, default=1000, help=HELP["bootstrap"])
    p.add_argument("--seed", type=int, default=0, help=HELP["agreement_seed"])
    p.add_argument("--population", type=float, default=None, help=HELP["population"])
    p.add_argument("--weights", choices=list(WEIGHT_FAMILIES), help=HELP["weights"])
    add_engine_options(p)
    p.set_defaults(func=cmd_agreement)

    p = sub.add_parser("noise", help="noise level of the agreed subset (or by hand: --n --d --p)")
    add_loader_options(p)
    p.add_argument("--n", type=int, help="by hand: number of items")
    p.add_argument("--d", type=int, help="by hand: number of items the annotators disagreed on")
    p.add_argument("--p", type=float, help="by hand: chance that annotators agree on a hard item")
    p.add_argument("--confidence", type=float, default=0.95, help=HELP["confidence"])
    p.add_argument("--json", action="store_true", help=HELP["json"])
    add_engine_options(p)
    p.set_defaults(func=cmd_noise)
    for action in p._actions:  # FILE is optional for the by-hand form
        if action.dest == "file":
            action.nargs = "?"
            action.default = None

    ds_help = {"help": HELP["dawid_skene"], "description": HELP["dawid_skene_description"]}
    p = sub.add_parser("dawid-skene", **ds_help)
    add_loader_options(p)
    p.add_argument(
        "--out", help="write the model's labels (item, label, confidence, ...) to this CSV"
    )
    p.add_argument("--gold", metavar="FILE", help=HELP["gold"])
    p.add_argument("--clamp", action="store_true", help=HELP["clamp"])
    p.add_argument("--max-iter", type=int, default=500, help=HELP["max_iter"])
    p.add_argument("--tol", type=float, default=1e-7, help=HELP["tol"])
    p.add_argument("--param-tol", type=float, metavar="TOL", help=HELP["param_tol"])
    p.add_argument("--smoothing", type=float, default=0.01, help=HELP["smoothing"])
    p.add_argument("--json", action="store_true", help=HELP["json"])
    add_engine_options(p)
    p.set_defaults(func=cmd_dawid_skene)

    p = sub.add_parser(
        "gold-labels",
        help="each item's most likely label under an annotator model (default auto)",
        description="Fit one of the annotator models of analytics.models, or auto (the "
        "models stacked by held-out predictive likelihood, chosen without gold labels, as "
        "the app's Gold labels page does), and print its labels with confidence.",
    )
    add_loader_options(p)
    p.add_argument(
        "--model", choices=("auto", *MODELS), default="auto", help="the model (default: auto)"
    )
    p.add_argument("--out", help="write the model's labels to this CSV")
    p.add_argument("--gold", metavar="FILE", help=HELP["gold"])
    p.add_argument("--clamp", action="store_true", help=HELP["clamp"])
    p.add_argument("--seed", type=int, default=0, help="seed of the starts and folds (default: 0)")
    p.add_argument("--json", action="store_true", help=HELP["json"])
    p.set_defaults(func=cmd_gold_labels)

    p = sub.add_parser("next-batch", help="which items to send for another judgement")
    add_loader_options(p)
    p.add_argument("--budget", type=int, required=True, help="judgements to ask for")
    p.add_argument("--cap", type=int, default=2, help="most judgements of one item (default 2)")
    p.add_argument(
        "--stop-at", type=float, default=0.99, help="skip items this confident (default 0.99)"
    )
    strategies = ("gain", "uncertainty", "random")
    p.add_argument("--strategy", choices=strategies, default="gain", help=HELP["strategy"])
    p.add_argument("--assign", action="store_true", help="name an annotator per judgement")
    p.add_argument(
        "--per-annotator",
        type=int,
        help="with --assign: most judgements one annotator gets (default: no limit)",
    )
    p.add_argument("--target", type=float, default=0.95, help=HELP["target"])
    p.add_argument("--seed", type=int, default=0, help=HELP["next_seed"])
    p.add_argument("-o", "--output", help="write the batch to this file")
    p.add_argument(
        "--as",
        dest="as_format",
        choices=BATCH_FORMATS,
        help="the format of the batch file -o writes (default csv)",
    )
    p.add_argument("--json", action="store_true", help=HELP["json"])
    p.set_defaults(func=cmd_next_batch)

    p = sub.add_parser("report", help="self-contained HTML report (or zip of CSVs with --zip)")
    add_loader_options(p)
    p.add_argument("-o", "--output", required=True, help="report.html (or .zip)")
    p.add_argument("--title", help="report title")
    p.add_argument("--bootstrap", type=int, default=1000, help=HELP["report_bootstrap"])
    p.add_argument("--gold", help=HELP["report_gold"])
    p.add_argument("--zip", action="store_true", help=HELP["zip"])
    p.set_defaults(func=cmd_report)
    return parser


def _show_warnings(caught: list[warnings.WarningMessage]) -> None:
    """Numeric warnings of a command that succeeded, one line each (each once).

    numpy's overflow and divide warnings are recorded while a command runs: when it
    fails, its one-line error says what was wrong and they are dropped (they had stood
    above it with their source lines); when it succeeds they are said, briefly, as
    warnings in the command line's own words.
    """
    seen: set[str] = set()
    for w in caught:
        if str(w.message) not in seen:
            seen.add(str(w.message))
            print(
                f"concord: warning: {w.message} ({Path(w.filename).name}:{w.lineno})",
                file=sys.stderr,
            )


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        budget = getattr(args, "memory_budget", None)
        with (
            memory_budget(budget) if budget else contextlib.nullcontext(),
            warnings.catch_warnings(record=True) as caught,
        ):
            warnings.simplefilter("always", RuntimeWarning)
            args.func(args)
        _show_warnings(caught)
    except AnnotationDataError as exc:
        print(f"concord: error: {cli_words(str(exc))}", file=sys.stderr)
        return 2
    except CliError as exc:
        print(f"concord: error: {exc}", file=sys.stderr)
        return 2
    except MemoryError as exc:  # numpy's names the bytes it could not get; no traceback
        print(
            f"concord: error: not enough memory for this analysis ({exc or 'MemoryError'}); "
            "try a smaller input (or, for agreement, noise and dawid-skene, --engine duckdb)",
            file=sys.stderr,
        )
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


if __name__ == "__main__":  # python -m analytics.cli, as python -m analytics and `concord`
    raise SystemExit(main())
