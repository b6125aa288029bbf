"""How fast does a file load, next to the Arrow reader under it? Time and peak memory.

    python -m benchmarks.bench_loading            # 2 M and 10 M judgements
    python -m benchmarks.bench_loading --quick    # 2 M judgements only

The data: long files of n judgements, 5 per item ("item_0000123"), from 300 annotators
("annotator_042"), over 5 label names with a skewed distribution, and 1% of the label
cells empty (missing). Written as CSV, TSV, JSON Lines and Parquet.

For each format and size it measures, each in a fresh Python process (so one
measurement's memory never hides another's):

- the baseline, the Arrow reader alone: ``pyarrow.csv.read_csv(...).to_pandas()`` for
  CSV and TSV, ``pyarrow.json.read_json(...).to_pandas()`` for JSON Lines,
  ``pyarrow.parquet.read_table(...).to_pandas()`` for Parquet;
- Concord: ``analytics.load_annotations(path)`` (with the size limit raised, which
  10 M-judgement files pass), the whole loader (reading, layout,
  missing cells, ids, labels, kind, duplicates check, report).

Time is the best of the repeats inside the process (5 at 2 M, 2 at 10 M; the file is in
the page cache for both) and of three rounds of such processes, the two readers
alternating (``--rounds``), as wall-clock seconds and as CPU seconds
(``time.process_time``, all threads): on a shared machine the CPU time is the steadier measure of the work done, so the table gives
both ratios. Peak memory is the process's peak resident set size (``VmHWM`` in
``/proc/self/status``, reset to the current size through ``/proc/self/clear_refs``
after the imports, so the imports' own peak does not count) minus the resident set
just before the load: the memory the load itself added at its highest, Arrow's buffers
included (Linux only). Targets (issue 13): Concord within 2x the baseline's time and 2.5x its peak
memory. Prints a markdown table for the README.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
FORMATS = ("csv", "tsv", "jsonl", "parquet")
LABELS = np.array(["positive", "negative", "neutral", "mixed", "off_topic"], dtype=object)
TIME_TARGET, MEMORY_TARGET = 2.0, 2.5

_CHILD = """
import gc, json, re, sys, time
which, fmt, path, repeats = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
import pyarrow.csv, pyarrow.json, pyarrow.parquet
import analytics

def baseline():
    if fmt == "csv":
        return pyarrow.csv.read_csv(path).to_pandas()
    if fmt == "tsv":
        return pyarrow.csv.read_csv(
            path, parse_options=pyarrow.csv.ParseOptions(delimiter="\\t")).to_pandas()
    if fmt == "jsonl":
        return pyarrow.json.read_json(path).to_pandas()
    return pyarrow.parquet.read_table(path).to_pandas()

from analytics.data import Limits

# files of 10 M judgements pass the default 200 MB size limit: raise it, nothing else
BIG = Limits(max_bytes=2**40, max_decompressed_bytes=2**40)

def concord():
    return analytics.load_annotations(path, limits=BIG)

def status(key):
    return int(re.search(key + r":\\s+(\\d+)", open("/proc/self/status").read()).group(1))

run = baseline if which == "baseline" else concord
gc.collect()
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")  # reset the peak (VmHWM) to the current resident set
before = status("VmRSS")
best = cpu = float("inf")
for _ in range(repeats):
    t0, c0 = time.perf_counter(), time.process_time()
    result = run()
    best = min(best, time.perf_counter() - t0)
    cpu = min(cpu, time.process_time() - c0)
    del result
peak = status("VmHWM")
print(json.dumps({"seconds": best, "cpu": cpu, "peak_mb": (peak - before) / 1024}))
"""


def judgements(n: int, seed: int = 0) -> pd.DataFrame:
    """n judgements in long form: 5 per item, 300 annotators, 5 labels, 1% empty."""
    rng = np.random.default_rng(seed)
    n_items = max(n // 5, 1)
    items = np.array([f"item_{i:07d}" for i in range(n_items)], dtype=object)
    annotators = np.array([f"annotator_{a:03d}" for a in range(300)], dtype=object)
    item = np.repeat(np.arange(n_items), 5)[:n]
    # five different annotators per item: a random start and a stride
    start = rng.integers(0, 300, n_items)[item]
    annotator = (start + 7 * (np.arange(n) % 5)) % 300
    label = LABELS[rng.choice(len(LABELS), n, p=[0.35, 0.3, 0.2, 0.1, 0.05])].copy()
    label[rng.random(n) < 0.01] = None
    return pd.DataFrame({"item": items[item], "annotator": annotators[annotator], "label": label})


def write(df: pd.DataFrame, fmt: str, folder: Path) -> Path:
    path = folder / f"judgements_{len(df)}.{fmt}"
    table = pa.Table.from_pandas(df, preserve_index=False)
    if fmt in ("csv", "tsv"):
        pa_csv.write_csv(
            table,
            path,
            write_options=pa_csv.WriteOptions(
                delimiter="," if fmt == "csv" else "\t", quoting_style="needed"
            ),
        )
    elif fmt == "jsonl":
        df.to_json(path, orient="records", lines=True)
    else:
        pq.write_table(table, path)
    return path


def measure(which: str, fmt: str, path: Path, repeats: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, which, fmt, str(path), str(repeats)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _best(pairs: list[tuple[dict, dict]]) -> tuple[dict, dict]:
    """Per reader: the fastest time and the least CPU over the rounds, and the peak of the
    fastest round."""
    out = []
    for side in zip(*pairs, strict=True):
        fastest = min(side, key=lambda m: m["seconds"])
        out.append({**fastest, "cpu": min(m["cpu"] for m in side)})
    return out[0], out[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="2 M judgements only")
    parser.add_argument("--formats", default=",".join(FORMATS), help="comma-separated")
    parser.add_argument("--sizes", help="judgements, comma-separated (overrides --quick)")
    parser.add_argument(
        "--rounds", type=int, default=3, help="fresh-process rounds per reader (default 3)"
    )
    args = parser.parse_args()
    sizes = [2_000_000] if args.quick else [2_000_000, 10_000_000]
    if args.sizes:
        sizes = [int(n) for n in args.sizes.split(",")]
    formats = args.formats.split(",")
    lines = [
        "| judgements | format | file MB | Arrow s | Concord s | time ratio | CPU ratio "
        "| Arrow peak MB | Concord peak MB | memory ratio | targets met |",
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    load_before = os.getloadavg()  # the machine's load: timings on a busy machine vary
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            df = judgements(n)
            for fmt in formats:
                path = write(df, fmt, Path(tmp))
                repeats = 5 if n <= 2_000_000 else 2
                # rounds of fresh processes, the two readers alternating: a burst of load
                # from another job then slows one round of each, not one reader's only one
                base, ours = _best(
                    [
                        (
                            measure("baseline", fmt, path, repeats),
                            measure("concord", fmt, path, repeats),
                        )
                        for _ in range(args.rounds)
                    ]
                )
                t = ours["seconds"] / base["seconds"]
                cpu = ours["cpu"] / base["cpu"]
                m = ours["peak_mb"] / base["peak_mb"]
                met = "yes" if t <= TIME_TARGET and m <= MEMORY_TARGET else "no"
                lines.append(
                    f"| {n:,} | {fmt.upper()} | {path.stat().st_size / 1e6:,.0f} "
                    f"| {base['seconds']:.2f} | {ours['seconds']:.2f} | {t:.1f}x | {cpu:.1f}x "
                    f"| {base['peak_mb']:,.0f} | {ours['peak_mb']:,.0f} | {m:.1f}x | {met} |"
                )
                print(lines[-1], flush=True)
                path.unlink()
            del df
    print()
    print("\n".join(lines))
    print(
        f"\nLoad average (1, 5, 15 min) before: {', '.join(f'{x:.1f}' for x in load_before)}; "
        f"after: {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs."
    )


if __name__ == "__main__":
    main()
