"""Benchmark: Concord past one machine, 10^6 to 10^8 judgements on DuckDB.

Simulated Parquet files (10 judgements per item, 10,000 annotators, 5 categories, drawn
from a Dawid-Skene model) are analysed on the DuckDB engine with a fixed ``memory_limit``:
load (the coded judgement table), the full agreement report (``n_boot=0``: Fleiss,
Conger, Brennan-Prediger, AC1, percent agreement, alpha; the pairwise means are declined
at 10,000 annotators, 50 million pairs), the noise bound, and a Dawid-Skene fit to
convergence: the relative log-likelihood change below ``tol=1e-7`` *and* no confusion or
prevalence entry moving by ``--param-tol`` (1e-4) or more in the last iteration; the
table shows both for the last iteration. Side by side in the same run: the in-memory engine and crowd-kit's
``DawidSkene`` at the sizes they are asked to run, and optionally a local Spark session.

Every size runs in a child process, so the peak resident memory reported
(``ru_maxrss``, which includes DuckDB's buffers: it runs inside the process) belongs to
that analysis alone.

Usage::

    python -m benchmarks.bench_scale                      # 10^6 and 10^7
    python -m benchmarks.bench_scale --sizes 1e6 1e7 1e8  # the README's full run
    python -m benchmarks.bench_scale --sizes 1e6 --spark  # plus a local Spark session

Files are written once to ``--folder`` (default ``/tmp/concord_scale``) and reused.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

PER_ITEM, ANNOTATORS, K = 10, 10_000, 5
CHUNK_ITEMS = 1_000_000


def write_parquet(path: Path, n_judgements: int, seed: int = 0) -> None:
    """Simulated judgements in chunks of a million items (memory stays flat)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    acc = rng.uniform(0.55, 0.95, ANNOTATORS)
    pi = rng.dirichlet(np.full(K, 5.0))
    n_items = n_judgements // PER_ITEM
    tmp = path.with_suffix(".part")
    schema = pa.schema([("item", pa.int64()), ("annotator", pa.int32()), ("label", pa.int8())])
    with pq.ParquetWriter(tmp, schema) as out:
        for lo in range(0, n_items, CHUNK_ITEMS):
            n = min(CHUNK_ITEMS, n_items - lo)
            z = rng.choice(K, size=n, p=pi)
            step = rng.integers(1, ANNOTATORS // PER_ITEM, size=(n, PER_ITEM))
            step[:, 0] = rng.integers(0, ANNOTATORS, n)
            who = (np.cumsum(step, axis=1) % ANNOTATORS).ravel()
            truth = np.repeat(z, PER_ITEM)
            right = rng.random(len(who)) < acc[who]
            wrong = (truth + rng.integers(1, K, len(who))) % K
            table = pa.table(
                {
                    "item": np.repeat(np.arange(lo, lo + n, dtype=np.int64), PER_ITEM),
                    "annotator": who.astype(np.int32),
                    "label": np.where(right, truth, wrong).astype(np.int8),
                }
            )
            out.write_table(table, row_group_size=1_000_000)
    os.replace(tmp, path)


CPU: dict[str, float] = {}
"""Process CPU seconds (user + system, every thread) of the last :func:`timed` call."""


def timed(fn):
    """Wall seconds of ``fn()`` and its result; its CPU seconds go to ``CPU["last"]``
    (on a shared machine the wall time grows with the other jobs, the CPU time less)."""
    c, t = time.process_time(), time.perf_counter()
    out = fn()
    CPU["last"] = time.process_time() - c
    return time.perf_counter() - t, out


def run_one(
    path: str,
    engine: str,
    memory_limit: str,
    max_iter: int,
    param_tol: float | None,
    skip: tuple[str, ...] = (),
) -> dict:
    """One analysis in this (child) process; returns the timings and the peak memory."""
    import pandas as pd

    from analytics import load_annotations
    from analytics.agreement import agreement_report
    from analytics.dawid_skene import fit
    from analytics.noise import noise_from_annotations

    out: dict = {"engine": engine}
    if engine == "crowdkit":
        from crowdkit.aggregation import DawidSkene

        df = pd.read_parquet(path).rename(columns={"item": "task", "annotator": "worker"})
        out["load"], _ = 0.0, None
        out["fit"], model = timed(lambda: DawidSkene(n_iter=max_iter, tol=1e-7).fit(df))
        out["fit_cpu"] = CPU["last"]
        out["iterations"] = len(getattr(model, "loss_history_", [])) or None
    else:
        spill = str(Path(path).parent / "spill")
        kw = (
            {"memory_limit": memory_limit, "threads": os.cpu_count(), "temp_directory": spill}
            if engine == "duckdb"
            else {}
        )
        if engine == "memory":
            out["load"], ann = timed(lambda: load_annotations(pd.read_parquet(path)))
        else:
            out["load"], ann = timed(lambda: load_annotations(path, engine=engine, **kw))
        out["agreement"], report = timed(lambda: agreement_report(ann, n_boot=0))
        out["agreement_cpu"] = CPU["last"]
        out["fleiss"] = float(report.set_index("coefficient").loc["Fleiss' kappa", "value"])
        if "noise" not in skip:
            out["noise"], _ = timed(lambda: noise_from_annotations(ann))
        out["fit"], res = timed(lambda: fit(ann, max_iter=max_iter, param_tol=param_tol))
        out["fit_cpu"] = CPU["last"]
        out["iterations"], out["converged"] = int(res.n_iter), bool(res.converged)
        out["per_iteration"] = out["fit"] / max(res.n_iter + 1, 1)
        trace = res.log_likelihood
        # the evidence of convergence: the last relative log-likelihood change and the
        # largest move of a confusion or prevalence entry in the last iteration
        out["last_rel_ll"] = (
            float(abs(trace[-1] - trace[-2]) / abs(trace[-2])) if len(trace) > 1 else None
        )
        out["parameter_change"] = float(res.parameter_change)
    out["peak_rss_gb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="+", type=float, default=[1e6, 1e7])
    ap.add_argument("--folder", default="/tmp/concord_scale")
    ap.add_argument("--memory-limit", default="3GB", help="DuckDB's memory_limit")
    ap.add_argument("--max-iter", type=int, default=200)
    ap.add_argument(
        "--param-tol",
        type=float,
        default=1e-4,
        help="fit(param_tol=): also wait until no confusion entry moves by this (<0: off)",
    )
    ap.add_argument(
        "--memory-up-to",
        type=float,
        default=0,
        help="largest in-memory run (0: none; 10^6 needs 17 GB)",
    )
    ap.add_argument("--crowdkit-up-to", type=float, default=1e6, help="largest crowd-kit run")
    ap.add_argument("--spark", action="store_true", help="also the smallest size on Spark")
    ap.add_argument("--skip", nargs="*", default=[], choices=["noise"], help="steps left out")
    ap.add_argument("--one", nargs=2, metavar=("PATH", "ENGINE"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        param_tol = args.param_tol if args.param_tol >= 0 else None
        print(
            json.dumps(
                run_one(
                    args.one[0],
                    args.one[1],
                    args.memory_limit,
                    args.max_iter,
                    param_tol,
                    tuple(args.skip),
                )
            )
        )
        return
    folder = Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for size in sorted(int(s) for s in args.sizes):
        path = folder / f"judgements_{size:.0e}.parquet".replace("+", "")
        if not path.exists():
            t, _ = timed(lambda path=path, size=size: write_parquet(path, size))
            print(f"wrote {path} ({size:,} judgements) in {t:.0f} s", flush=True)
        engines = ["duckdb"]
        if size <= args.memory_up_to:
            engines.append("memory")
        if size <= args.crowdkit_up_to:
            engines.append("crowdkit")
        if args.spark and size == min(int(s) for s in args.sizes):
            engines.append("spark")
        for engine in engines:
            cmd = [
                sys.executable,
                "-m",
                "benchmarks.bench_scale",
                "--one",
                str(path),
                engine,
                "--memory-limit",
                args.memory_limit,
                "--max-iter",
                str(args.max_iter),
                "--param-tol",
                str(args.param_tol),
                "--skip",
                *args.skip,
            ]
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode:
                print(f"{engine} at {size:,}: failed\n{done.stderr[-2000:]}", flush=True)
                continue
            row = {"judgements": size, **json.loads(done.stdout.strip().splitlines()[-1])}
            rows.append(row)
            print(json.dumps(row), flush=True)
    print(
        f"\nDuckDB memory_limit {args.memory_limit}; {os.cpu_count()} cores; "
        f"DS fit tol=1e-7, param_tol={args.param_tol}\n"
    )
    print(
        "| judgements | engine | load s | agreement s | noise s | DS fit s (iterations) "
        "| DS CPU s | s per iteration | agreement s per 10^6 | DS s per 10^6 "
        "| last relative LL change "
        "| last parameter change | peak RSS GB |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        per = r["judgements"] / 1e6

        def cell(key, r=r):
            return f"{r[key]:.2f}" if isinstance(r.get(key), float) else "-"

        def sci(key, r=r):
            return f"{r[key]:.1e}" if isinstance(r.get(key), float) else "-"

        print(
            f"| {r['judgements']:,} | {r['engine']} | {cell('load')} | {cell('agreement')} | "
            f"{cell('noise')} | {r['fit']:.1f} ({r.get('iterations')}) | {cell('fit_cpu')} "
            f"| {cell('per_iteration')} "
            f"| {r.get('agreement', float('nan')) / per:.3f} | {r['fit'] / per:.2f} "
            f"| {sci('last_rel_ll')} | {sci('parameter_change')} | {r['peak_rss_gb']:.2f} |"
        )


if __name__ == "__main__":
    main()
