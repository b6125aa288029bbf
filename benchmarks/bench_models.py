"""Benchmark: every annotator model of ``analytics.models`` against crowd-kit's same model.

Default size (issue 15): 1,000,000 judgements = 200,000 items x 5 judgements, 1,000
annotators, 5 categories, simulated as in ``bench_dawid_skene``. Targets: per-iteration
time of each model at least 10x better than crowd-kit's same model (OneCoinDawidSkene,
MACE by EM and by variational Bayes, GLAD, DawidSkene), side by side in one run;
``compare`` with 5-fold cross-validation under 30 s.

Usage::

    python -m benchmarks.bench_models            # full size
    python -m benchmarks.bench_models --quick    # 100,000 judgements
    python -m benchmarks.bench_models --only "mace (em),mace (vb)" --no-compare

Per-iteration times of both sides are measured the same way: (time for 1 + n iterations
- time for 1 iteration) / n, from the majority-vote start (ours) or crowd-kit's own single
start (MACE: ``n_restarts=1``), so set-up is not counted. crowd-kit is optional (see
``bench_dawid_skene``); without it only Concord is timed.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd

from analytics.models import compare, fit
from benchmarks.bench_dawid_skene import simulate

#: table row -> (our model, its settings, crowd-kit class, its constructor arguments for n
#: iterations). MACE twice: crowd-kit's default is variational Bayes, ours EM.
ROWS = {
    "majority": ("majority", {}, None, None),
    "one_coin": ("one_coin", {}, "OneCoinDawidSkene", lambda n: {"n_iter": n, "tol": -np.inf}),
    "mace (em)": (
        "mace",
        {"method": "em"},
        "MACE",
        lambda n: {"n_iter": n, "n_restarts": 1, "method": "em", "verbose": 0},
    ),
    "mace (vb)": (
        "mace",
        {"method": "vb"},
        "MACE",
        lambda n: {"n_iter": n, "n_restarts": 1, "method": "vb", "verbose": 0},
    ),
    "glad": ("glad", {}, "GLAD", lambda n: {"n_iter": n, "tol": -np.inf, "silent": True}),
    "dawid_skene": ("dawid_skene", {}, "DawidSkene", lambda n: {"n_iter": n, "tol": -np.inf}),
    "hierarchical": ("hierarchical", {}, None, None),
}


def ours_per_iteration(ann, row: str, n_iter: int) -> float:
    """Seconds per EM iteration of our model (best of 2 runs of 1 and 1 + n iterations)."""
    model, settings, _, _ = ROWS[row]
    if model == "majority":
        return float("nan")
    times = {}
    for n in (1, 1 + n_iter):
        best = np.inf
        for _ in range(2):
            t = time.perf_counter()
            fit(ann, model, max_iter=n, tol=0.0, init="majority", **settings)
            best = min(best, time.perf_counter() - t)
        times[n] = best
    return (times[1 + n_iter] - times[1]) / n_iter


def crowdkit_per_iteration(ann, row: str, n_iter: int) -> tuple[float, str]:
    _, _, name, settings = ROWS[row]
    if name is None:
        return float("nan"), "no crowd-kit counterpart"
    try:
        from crowdkit import aggregation
    except ImportError as exc:
        return float("nan"), f"crowd-kit not installed ({exc})"
    df = pd.DataFrame(
        {"task": ann.item_codes, "worker": ann.annotator_codes, "label": ann.label_codes}
    )
    times = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for n in (1, 1 + n_iter):
            t = time.perf_counter()
            getattr(aggregation, name)(**settings(n)).fit(df)
            times[n] = time.perf_counter() - t
    return (times[1 + n_iter] - times[1]) / n_iter, ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="100,000 judgements")
    parser.add_argument("--ck-iter", type=int, default=2, help="crowd-kit iterations to time")
    parser.add_argument("--no-crowdkit", action="store_true")
    parser.add_argument("--only", help="comma-separated rows to time (default: all)")
    parser.add_argument("--no-compare", action="store_true", help="skip the compare timing")
    parser.add_argument(
        "--ck-skip", default="", help="comma-separated rows whose crowd-kit side is not timed"
    )
    args = parser.parse_args()
    n_items = 20_000 if args.quick else 200_000
    per_item, n_ann, k = 5, 200 if args.quick else 1_000, 5
    ann, _ = simulate(n_items, per_item, n_ann, k)
    print(
        f"data: {ann.n_items:,} items x {per_item} = {ann.n_judgements:,} judgements, "
        f"{ann.n_annotators:,} annotators, {k} categories\n"
    )
    print("| model | Concord per iteration (ms) | crowd-kit per iteration (ms) | ratio |")
    print("| --- | ---: | ---: | ---: |")
    verdicts = []
    rows = list(ROWS) if args.only is None else [r.strip() for r in args.only.split(",")]
    unknown = sorted(set(rows) - set(ROWS))
    if unknown:
        parser.error(f"unknown rows {unknown}; choose from {list(ROWS)}")
    for model in rows:
        ours = ours_per_iteration(ann, model, 20)
        theirs, why = (
            (float("nan"), "skipped")
            if args.no_crowdkit or model in args.ck_skip.split(",")
            else crowdkit_per_iteration(ann, model, args.ck_iter)
        )
        ratio = theirs / ours if np.isfinite(theirs) and ours > 0 else float("nan")
        shown = f"{theirs * 1e3:.0f}" if np.isfinite(theirs) else why
        ours_shown = f"{ours * 1e3:.1f}" if np.isfinite(ours) else "no EM iterations"
        ratio_shown = f"{ratio:.0f}x" if np.isfinite(ratio) else ""
        print(f"| {model} | {ours_shown} | {shown} | {ratio_shown} |")
        if np.isfinite(ratio):
            verdicts.append((model, ratio))
    print()
    for model, ratio in verdicts:
        print(
            f"- {model}: {ratio:.0f}x faster per iteration (target >= 10x): "
            f"{'PASS' if ratio >= 10 else 'FAIL'}"
        )
    if args.no_compare:
        return
    t, cpu = time.perf_counter(), time.process_time()
    table = compare(ann, folds=5)
    seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
    print(
        f"- compare, 5-fold, {len(table)} models: {seconds:.1f} s (target < 30 s on the "
        f"full size): {'PASS' if seconds < 30 else 'FAIL'}; CPU time of this process "
        f"{cpu:.1f} s, all threads (the folds run in parallel, one per core: on an idle "
        f"machine the wall time is about this over the number of cores)"
    )
    print(table[["heldout_ll", "heldout_se", "seconds", "iterations"]].to_string())


if __name__ == "__main__":
    main()
