"""Replay the next-label strategies on the public data sets in ``datasets/`` (gain vs random).

For each set and each of ``--seeds`` seeds: start from 1 random judgement per item, let each
strategy buy a twentieth of the items' worth of existing judgements at a time, refit
Dawid-Skene, and score against the expert gold. The curves are averaged over the seeds
(each read on the union of their points, straight lines between refits), and the
judgements each strategy needs to reach the accuracy Dawid-Skene reaches with all
judgements are read off the mean curve (:func:`analytics.next_labels.judgements_needed`),
with the range over the seeds. Target: gain/random at most 0.60 on every set where all
judgements beat the start by at least 2 points.

The level to reach is always plain Dawid-Skene's accuracy on every judgement, whatever the
refit. ``--confusion``, ``--explore``, ``--temper``, ``--draws``, ``--criterion`` and
``--chooser`` pass :func:`~analytics.next_labels.replay`'s options of the same names to the
``gain`` strategy (``--chooser prior``: gain and uncertainty choose with the diagonal-prior
fit below, the accuracy stays the plain refit's).

``--fitter hierarchical`` refits the hierarchical model (majority-vote start, tolerance
1e-5, at most 100 iterations: 0.03-2.6 s a fit). ``--fitter prior`` refits Dawid-Skene
with a Dirichlet prior of K-1 pseudo-counts on every diagonal cell
(``prior=(K - 1) * np.eye(K)``, the same rule on every set): with one judgement per item
the plain fit is not identified and lands near chance. ``--outside DIR`` adds every folder
of DIR holding ``answer.csv`` (question, worker, answer) and ``truth.csv`` (question,
truth), for public sets not kept in the repository.

Usage::

    python -m benchmarks.replay_public                      # every set, 3 seeds
    python -m benchmarks.replay_public snow_rte --seeds 1   # one set, one seed
    python -m benchmarks.replay_public --outside /tmp/outside --fitter prior
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analytics import Annotations
from analytics.dawid_skene import fit
from analytics.models import fit as fit_model
from analytics.next_labels import REPLAY_COLUMNS, judgements_needed, replay
from analytics.next_labels.parameters import model_view
from analytics.next_labels.replay import CONFUSIONS, _truth

ROOT = Path(__file__).resolve().parents[1]
SETS = [
    "snow_rte",
    "snow_temp",
    "snow_wsd",
    "welinder_bluebirds",
    "zheng_s4_Dog_data",
    "act_MS",
]
STRATEGIES = ("gain", "uncertainty", "random")


def load(name: str, outside: Path | None = None) -> tuple[Annotations, pd.Series]:
    """A set of ``datasets/`` (labels.csv, gold.csv) or of ``outside`` (answer.csv, truth.csv)."""
    if outside is not None:
        folder = outside / name
        frame = pd.read_csv(folder / "answer.csv", dtype=str, keep_default_na=False)
        frame = frame.rename(columns={"question": "item", "worker": "annotator", "answer": "label"})
        truth = pd.read_csv(folder / "truth.csv", dtype=str, keep_default_na=False)
        gold = truth.set_index("question")["truth"]
    else:
        folder = ROOT / "datasets" / name
        frame = pd.read_csv(folder / "labels.csv", dtype=str, keep_default_na=False)
        gold = pd.read_csv(folder / "gold.csv", dtype=str, keep_default_na=False)
        gold = gold.set_index("item")["label"]
    # a worker who labelled an item twice gave two judgements (both can be bought)
    columns = frame[["item", "annotator", "label"]]
    return Annotations.from_frame(columns, name=name, duplicates="keep"), gold


def fitter_for(kind: str, k: int) -> Callable[[Annotations], Any] | None:
    """The refit of the replay: plain Dawid-Skene, or with the diagonal prior."""
    if kind == "dawid_skene":
        return fit
    if kind == "hierarchical":
        # a loose tolerance from the majority-vote start: with one judgement per item the
        # variational EM runs to its 500 iterations (15-140 s) without changing the labels
        return lambda a: fit_model(a, "hierarchical", init="majority", max_iter=100, tol=1e-5)
    if kind == "prior":
        return lambda a: fit(a, prior=(k - 1) * np.eye(k))
    return None


def dawid_skene_level(ann: Annotations, gold: pd.Series) -> float:
    """Accuracy against gold of plain Dawid-Skene fitted on every judgement."""
    truth = _truth(ann, gold, fit)
    labels = model_view(fit(ann), ann).posteriors.argmax(1)
    scored = truth >= 0
    return float(np.mean(labels[scored] == truth[scored]))


def mean_curve(tables: list[pd.DataFrame]) -> pd.DataFrame:
    """Each strategy's accuracy averaged over replays, on the union of their points.

    A replay that stopped buying early keeps its last accuracy (it would buy nothing more).
    """
    out = []
    both = pd.concat(tables)
    for strategy, rows in both.groupby("strategy", sort=False):
        grid = np.unique(rows["judgements"].to_numpy())
        curves = []
        for t in tables:
            mine = t[t["strategy"] == strategy]
            curves.append(np.interp(grid, mine["judgements"], mine["accuracy"]))
        out.append(
            pd.DataFrame(
                {"strategy": strategy, "judgements": grid, "accuracy": np.mean(curves, axis=0)}
            )
        )
    table = pd.concat(out, ignore_index=True)
    table.attrs.update(tables[0].attrs)
    table.attrs["start_accuracy"] = float(np.mean([t.attrs["start_accuracy"] for t in tables]))
    return table


def run(
    name: str,
    seeds: int = 3,
    start: int = 1,
    kind: str = "dawid_skene",
    outside: Path | None = None,
    strategies: tuple[str, ...] = STRATEGIES,
    confusion: str = "fitted",
    cache: Path | None = None,
    step: int | None = None,
    explore: float = 0.0,
    gain_options: dict[str, Any] | None = None,
) -> tuple[pd.DataFrame, dict]:
    """Replay one set with every seed; the mean curve and the summary row.

    ``cache``: a CSV of the per-seed tables (column ``seed``), read when it exists and
    holds exactly seeds ``0 .. seeds - 1``, written otherwise, so that a finished run is
    not replayed again (a cache of another number of seeds is replayed and replaced: the
    file is named by the settings, not by the seeds).
    """
    ann, gold = load(name, outside)
    fitter = fitter_for(kind, ann.n_categories)
    gain_options = dict(gain_options or {})
    if isinstance(gain_options.get("chooser"), str):  # a --fitter name
        gain_options["chooser"] = fitter_for(gain_options["chooser"], ann.n_categories)
    t0 = time.perf_counter()
    both = pd.read_csv(cache) if cache is not None and cache.is_file() else None
    same = both is not None and sorted(both["seed"].unique()) == list(range(seeds))
    # and the same strategies, in order: a --strategies gain cache lacks random's replays
    if same and list(pd.unique(both["strategy"])) == list(strategies):
        full = float(both["full_accuracy"].iloc[0])
        tables = []
        for _, t in both.groupby("seed"):
            t = t[list(REPLAY_COLUMNS)].reset_index(drop=True)
            t.attrs.update(full_accuracy=full, start_accuracy=float(t["accuracy"].iloc[0]))
            tables.append(t)
    else:
        tables = [
            replay(
                ann,
                gold,
                strategies=strategies,
                seed=s,
                start=start,
                fitter=fitter,
                confusion=confusion,
                step=step,
                explore=explore,
                **gain_options,
            )
            for s in range(seeds)
        ]
        if cache is not None:
            long = pd.concat([t.assign(seed=n) for n, t in enumerate(tables)])
            long["full_accuracy"] = tables[0].attrs["full_accuracy"]
            long.to_csv(cache, index=False)
    table = mean_curve(tables)
    first = table.attrs["start_accuracy"]
    # the level is always plain Dawid-Skene's accuracy on every judgement (issue 16's
    # target), whatever model the replay refits with
    full = table.attrs["full_accuracy"] if kind == "dawid_skene" else dawid_skene_level(ann, gold)
    table.attrs["full_accuracy"] = full
    on_mean = judgements_needed(table, full)
    per_seed = pd.DataFrame([judgements_needed(t, full) for t in tables])
    row: dict[str, Any] = {"set": name, "judgements": ann.n_judgements, "start": first, "all": full}
    for s in strategies:
        row[s] = per_seed[s].mean(skipna=False)  # NaN when a replay never reaches it
        row[f"{s} range"] = f"{per_seed[s].min():,.0f}-{per_seed[s].max():,.0f}"
    if "gain" in strategies and "random" in strategies:
        row["gain/random"] = row["gain"] / row["random"]
        ratios = per_seed["gain"] / per_seed["random"]
        row["ratio range"] = f"{ratios.min():.2f}-{ratios.max():.2f}"
        row["on mean curve"] = on_mean["gain"] / on_mean["random"]
    row["applies"] = full >= first + 0.02
    row["seconds"] = time.perf_counter() - t0
    return table, row


COLOURS = {"gain": "#3b5bdb", "uncertainty": "#f08c00", "random": "#868e96"}


def svg_chart(table: pd.DataFrame, title: str, width: int = 560, height: int = 300) -> str:
    """A small self-contained SVG line chart of a replay (no plotting library needed)."""
    left, right, top, bottom = 50, 120, 30, 40
    x0, x1 = table["judgements"].min(), table["judgements"].max()
    y0 = float(table["accuracy"].min())
    y0 = max(0.0, min(y0, table.attrs.get("full_accuracy", 1.0) - 0.1))
    y1 = 1.0

    def px(x: float) -> float:
        return left + (x - x0) / max(x1 - x0, 1) * (width - left - right)

    def py(y: float) -> float:
        return top + (y1 - y) / max(y1 - y0, 1e-9) * (height - top - bottom)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        'font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{left}" y="18" font-size="13">{title}</text>',
    ]
    for frac in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = y0 + frac * (y1 - y0)
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{py(y):.1f}" y2="{py(y):.1f}" '
            'stroke="#e9ecef"/>'
            f'<text x="{left - 6}" y="{py(y) + 4:.1f}" text-anchor="end">{y:.0%}</text>'
        )
    for frac in (0.0, 0.5, 1.0):
        x = x0 + frac * (x1 - x0)
        parts.append(
            f'<text x="{px(x):.1f}" y="{height - bottom + 16}" text-anchor="middle">{x:,.0f}</text>'
        )
    parts.append(
        f'<text x="{(left + width - right) / 2}" y="{height - 6}" text-anchor="middle">'
        "judgements used</text>"
    )
    full = table.attrs.get("full_accuracy")
    if full is not None:
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{py(full):.1f}" y2="{py(full):.1f}" '
            'stroke="#495057" stroke-dasharray="4 3"/>'
        )
    for n, (strategy, rows) in enumerate(table.groupby("strategy", sort=False)):
        points = " ".join(
            f"{px(x):.1f},{py(y):.1f}"
            for x, y in zip(rows["judgements"], rows["accuracy"], strict=True)
        )
        colour = COLOURS.get(strategy, "#000")
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>'
        )
        ly = top + 14 + 18 * n
        parts.append(
            f'<line x1="{width - right + 10}" x2="{width - right + 30}" y1="{ly}" y2="{ly}" '
            f'stroke="{colour}" stroke-width="2"/><text x="{width - right + 34}" y="{ly + 4}">'
            f"{strategy}</text>"
        )
    ly = top + 14 + 18 * (n + 1)
    parts.append(
        f'<line x1="{width - right + 10}" x2="{width - right + 30}" y1="{ly}" y2="{ly}" '
        f'stroke="#495057" stroke-dasharray="4 3"/><text x="{width - right + 34}" y="{ly + 4}">'
        "all judgements</text></svg>"
    )
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="*", help="sets of datasets/ (default: all of them)")
    parser.add_argument("--outside", type=Path, help="also every set in this folder")
    parser.add_argument(
        "--seeds", type=int, default=3, help="replays per set, seeds 0..n-1 (default 3)"
    )
    parser.add_argument("--start", type=int, default=1, help="judgements per item to start from")
    parser.add_argument(
        "--fitter", choices=("dawid_skene", "prior", "hierarchical"), default="dawid_skene"
    )
    parser.add_argument(
        "--confusion",
        choices=CONFUSIONS,
        default="fitted",
        help="confusion matrices the gain is computed with (replay's confusion=)",
    )
    parser.add_argument("--step", type=int, help="judgements bought between refits")
    parser.add_argument(
        "--explore",
        type=float,
        default=0.0,
        help="share of the prevalence mixed into the posteriors gain is computed with "
        "(replay's explore=)",
    )
    parser.add_argument("--strategies", default=",".join(STRATEGIES), help="comma-separated")
    parser.add_argument(
        "--save",
        action="store_true",
        help="write benchmarks/results/*.csv (the mean curve and the per-seed tables, "
        "which a later run with the same settings reads instead of replaying again)",
    )
    parser.add_argument("--temper", type=float, default=1.0, help="replay's temper=")
    parser.add_argument("--draws", type=int, default=0, help="replay's draws=")
    parser.add_argument("--criterion", choices=("entropy", "error"), default="entropy")
    parser.add_argument(
        "--chooser",
        choices=("refit", "prior"),
        default="refit",
        help="model gain and uncertainty choose with (replay's chooser=; prior: Dawid-Skene "
        "with the diagonal prior of --fitter prior), accuracy still the refit's",
    )
    parser.add_argument("--svg", help="write the first set's mean replay chart to this SVG")
    args = parser.parse_args()
    jobs: list[tuple[str, Path | None]] = [
        (n, None) for n in args.sets or ([] if args.outside else SETS)
    ]
    if args.outside is not None:
        jobs += [
            (d.name, args.outside)
            for d in sorted(args.outside.iterdir())
            if (d / "answer.csv").is_file() and (d / "truth.csv").is_file()
        ]
    rows = []
    for n, (name, outside) in enumerate(jobs):
        strategies = tuple(args.strategies.split(","))
        suffix = "" if args.start == 1 else f"_start{args.start}"
        suffix += "" if args.fitter == "dawid_skene" else f"_{args.fitter}"
        suffix += "" if args.confusion == "fitted" else f"_{args.confusion}"
        suffix += "" if args.step is None else f"_step{args.step}"
        suffix += "" if not args.explore else f"_explore{args.explore:g}"
        suffix += "" if args.temper == 1 else f"_temper{args.temper:g}"
        suffix += "" if not args.draws else f"_draws{args.draws}"
        suffix += "" if args.criterion == "entropy" else f"_{args.criterion}"
        suffix += "" if args.chooser == "refit" else f"_chooser_{args.chooser}"
        out = ROOT / "benchmarks" / "results"
        cache = None
        if args.save:
            out.mkdir(exist_ok=True)
            cache = out / f"replay_{name}{suffix}_seeds.csv"
        table, row = run(
            name,
            args.seeds,
            args.start,
            args.fitter,
            outside,
            strategies,
            args.confusion,
            cache,
            args.step,
            args.explore,
            {
                "temper": args.temper,
                "draws": args.draws,
                "criterion": args.criterion,
                "chooser": None if args.chooser == "refit" else args.chooser,
            },
        )
        rows.append(row)
        print(row, flush=True)
        if args.save:
            table.to_csv(out / f"replay_{name}{suffix}.csv", index=False)
        if args.svg and n == 0:
            model = "Dawid-Skene" + (" with a diagonal prior" if args.fitter == "prior" else "")
            title = f"Replay on {name} ({model} refit, gold, mean of {args.seeds} seeds)"
            Path(args.svg).write_text(svg_chart(table, title), encoding="utf-8")
    print(pd.DataFrame(rows).to_string(index=False, float_format=lambda x: f"{x:,.3f}"))


if __name__ == "__main__":
    main()
