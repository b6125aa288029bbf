"""Replay the next-label strategies on the public data sets in ``datasets/`` (issue 16).

For each set: start from 1 random judgement per item, let each strategy buy a twentieth of
the items' worth of existing judgements at a time, refit Dawid-Skene, and score against the
expert gold. Prints, per set, the judgements each strategy needs to reach the accuracy
Dawid-Skene reaches with all judgements, and the gain/random ratio (target: at most 0.60
on every set where all judgements beat the start by at least 2 points). Writes the tidy
tables to ``benchmarks/results/replay_<set>.csv`` with ``--save``.

Usage::

    python -m benchmarks.replay_public            # every set
    python -m benchmarks.replay_public snow_rte   # one set
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from analytics import Annotations
from analytics.next_labels import replay

ROOT = Path(__file__).resolve().parents[1]
SETS = [
    "snow_rte",
    "snow_temp",
    "snow_wsd",
    "welinder_bluebirds",
    "zheng_s4_Dog_data",
    "act_MS",
]


def needed(table: pd.DataFrame, strategy: str, level: float) -> int | None:
    """Fewest judgements at which ``strategy`` reaches ``level`` (None: never)."""
    hit = table[(table["strategy"] == strategy) & (table["accuracy"] >= level - 1e-12)]
    return int(hit["judgements"].min()) if len(hit) else None


def run(name: str, seed: int = 0, start: int = 1) -> tuple[pd.DataFrame, dict]:
    folder = ROOT / "datasets" / name
    labels = pd.read_csv(folder / "labels.csv", dtype=str, keep_default_na=False)
    gold = pd.read_csv(folder / "gold.csv", dtype=str, keep_default_na=False)
    ann = Annotations.from_frame(labels, name=name)
    t0 = time.perf_counter()
    table = replay(ann, gold.set_index("item")["label"], seed=seed, start=start)
    full, start = table.attrs["full_accuracy"], table.attrs["start_accuracy"]
    row = {"set": name, "judgements": ann.n_judgements, "start": start, "all": full}
    for s in ("gain", "uncertainty", "random"):
        row[s] = needed(table, s, full)
    g, r = row["gain"], row["random"]
    row["gain/random"] = g / r if g is not None and r else float("nan")
    row["applies"] = full >= start + 0.02
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
    parser.add_argument("sets", nargs="*", default=SETS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start", type=int, default=1, help="judgements per item to start from")
    parser.add_argument("--save", action="store_true", help="write benchmarks/results/*.csv")
    parser.add_argument("--svg", help="write the first set's replay chart to this SVG file")
    args = parser.parse_args()
    rows = []
    for name in args.sets:
        table, row = run(name, args.seed, args.start)
        rows.append(row)
        print(row, flush=True)
        if args.save:
            out = ROOT / "benchmarks" / "results"
            out.mkdir(exist_ok=True)
            suffix = "" if args.start == 1 else f"_start{args.start}"
            table.to_csv(out / f"replay_{name}{suffix}.csv", index=False)
        if args.svg and name == args.sets[0]:
            title = f"Replay on {name} (Dawid-Skene refit, scored on expert gold)"
            Path(args.svg).write_text(svg_chart(table, title), encoding="utf-8")
    print(pd.DataFrame(rows).to_string(index=False))


if __name__ == "__main__":
    main()
