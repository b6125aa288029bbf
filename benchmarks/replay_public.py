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


def run(name: str, seed: int = 0) -> tuple[pd.DataFrame, dict]:
    folder = ROOT / "datasets" / name
    labels = pd.read_csv(folder / "labels.csv", dtype=str, keep_default_na=False)
    gold = pd.read_csv(folder / "gold.csv", dtype=str, keep_default_na=False)
    ann = Annotations.from_frame(labels, name=name)
    t0 = time.perf_counter()
    table = replay(ann, gold.set_index("item")["label"], seed=seed)
    full, start = table.attrs["full_accuracy"], table.attrs["start_accuracy"]
    row = {"set": name, "judgements": ann.n_judgements, "start": start, "all": full}
    for s in ("gain", "uncertainty", "random"):
        row[s] = needed(table, s, full)
    g, r = row["gain"], row["random"]
    row["gain/random"] = g / r if g is not None and r else float("nan")
    row["applies"] = full >= start + 0.02
    row["seconds"] = time.perf_counter() - t0
    return table, row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="*", default=SETS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", action="store_true", help="write benchmarks/results/*.csv")
    args = parser.parse_args()
    rows = []
    for name in args.sets:
        table, row = run(name, args.seed)
        rows.append(row)
        print(row, flush=True)
        if args.save:
            out = ROOT / "benchmarks" / "results"
            out.mkdir(exist_ok=True)
            table.to_csv(out / f"replay_{name}.csv", index=False)
    print(pd.DataFrame(rows).to_string(index=False))


if __name__ == "__main__":
    main()
