"""Benchmark: Concord's Dawid-Skene EM against crowd-kit's ``DawidSkene``, same data, same run.

Default size (issue 6): 1,000,000 judgements = 200,000 items x 5 judgements, 1,000
annotators, 5 categories, simulated from known parameters. Targets: our fit to
convergence (tol 1e-7) under 2 s; our per-iteration time at least 10x better than
crowd-kit's.

Usage::

    python -m benchmarks.bench_dawid_skene            # full size
    python -m benchmarks.bench_dawid_skene --quick    # 100,000 judgements

crowd-kit is a benchmark-only dependency (not in requirements). Its full dependency set
pulls in ``transformers``; install it without dependencies plus what it imports::

    pip install --no-deps crowd-kit==1.4.2
    pip install scikit-learn attrs tqdm nltk pyarrow

Without crowd-kit the script times Concord alone and says why crowd-kit was skipped.
Per-iteration times of both are measured the same way, (time for 1 + n iterations -
time for 1 iteration) / n, so set-up and initialisation are not counted.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd

from analytics.data.model import Annotations
from analytics.dawid_skene import fit


def simulate(n_items: int, per_item: int, n_annotators: int, k: int, seed: int = 0):
    """Items with true labels; annotators with accuracy 0.55-0.95 and random confusions."""
    rng = np.random.default_rng(seed)
    pi = rng.dirichlet(np.full(k, 5.0))
    acc = rng.uniform(0.55, 0.95, n_annotators)
    off = rng.dirichlet(np.ones(k), size=(n_annotators, k))
    eye = np.eye(k, dtype=bool)
    off[:, eye] = 0.0
    theta = off / off.sum(axis=2, keepdims=True) * (1 - acc)[:, None, None]
    theta[:, eye] = acc[:, None]
    z = rng.choice(k, size=n_items, p=pi)
    # distinct annotators per item: a random start plus positive steps that sum below J
    steps = rng.integers(1, max(2, n_annotators // per_item), size=(n_items, per_item))
    steps[:, 0] = rng.integers(0, n_annotators, n_items)
    who = np.cumsum(steps, axis=1) % n_annotators
    items = np.repeat(np.arange(n_items), per_item)
    a = who.ravel()
    cum = theta[a, z[items]].cumsum(axis=1)
    y = np.minimum((rng.random(len(a))[:, None] > cum).sum(axis=1), k - 1)
    ann = Annotations(
        items,
        a,
        y,
        pd.Index([f"item{i}" for i in range(n_items)]),
        pd.Index([f"worker{j}" for j in range(n_annotators)]),
        pd.Index(list(range(k))),
        name="simulated",
    )
    return ann, z


def time_ours(ann: Annotations, repeat: int) -> tuple[float, object]:
    best, result = np.inf, None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fit(ann)
        best = min(best, time.perf_counter() - t)
    return best, result


def time_ours_fixed(ann: Annotations, n_iter: int, repeat: int = 3) -> dict[int, float]:
    """Best-of-``repeat`` time of fits with exactly 1 and 1 + n_iter EM iterations."""
    times = {}
    for n in (1, 1 + n_iter):
        best = np.inf
        for _ in range(repeat):
            t = time.perf_counter()
            fit(ann, max_iter=n, tol=0.0)
            best = min(best, time.perf_counter() - t)
        times[n] = best
    return times


def time_crowdkit(ann: Annotations, n_iter: int):
    try:
        from crowdkit.aggregation import DawidSkene
    except ImportError as exc:
        return None, f"crowd-kit not installed ({exc}); see this script's docstring"
    df = pd.DataFrame(
        {
            "task": ann.item_codes,
            "worker": ann.annotator_codes,
            "label": ann.label_codes,
        }
    )
    times = {}
    model = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for n in (1, 1 + n_iter):
            t = time.perf_counter()
            model = DawidSkene(n_iter=n, tol=-np.inf).fit(df)
            times[n] = time.perf_counter() - t
    per_iter = (times[1 + n_iter] - times[1]) / n_iter
    return (times, per_iter, model), ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="100,000 judgements")
    parser.add_argument("--items", type=int, default=None)
    parser.add_argument("--ck-iter", type=int, default=3, help="crowd-kit iterations to time")
    args = parser.parse_args()
    n_items = args.items or (20_000 if args.quick else 200_000)
    per_item, n_ann, k = 5, 1_000 if not args.quick else 200, 5

    ann, z = simulate(n_items, per_item, n_ann, k)
    print(
        f"data: {ann.n_items:,} items x {per_item} judgements = {ann.n_judgements:,} "
        f"judgements, {ann.n_annotators:,} annotators, {k} categories\n"
    )

    total, res = time_ours(ann, repeat=3)
    fixed = time_ours_fixed(ann, args.ck_iter)
    ours_iter = (fixed[1 + args.ck_iter] - fixed[1]) / args.ck_iter
    acc = float((res.posteriors.to_numpy().argmax(axis=1) == z).mean())
    rows = [
        (
            "Concord `fit` (to convergence, tol 1e-7)",
            f"{res.n_iter}",
            f"{total:.3f}",
            f"{total / max(res.n_iter, 1) * 1e3:.1f} (incl. setup)",
            "",
            f"{acc:.4f}",
        ),
        (
            f"Concord `fit` ({1 + args.ck_iter} iterations)",
            f"{1 + args.ck_iter}",
            f"{fixed[1 + args.ck_iter]:.3f}",
            f"{ours_iter * 1e3:.1f}",
            "1",
            "",
        ),
    ]
    ck, why = time_crowdkit(ann, args.ck_iter)
    if ck is not None:
        times, ck_iter, model = ck
        ck_acc = float((model.labels_.sort_index().to_numpy() == z).mean())
        rows.append(
            (
                f"crowd-kit `DawidSkene` ({1 + args.ck_iter} iterations)",
                f"{1 + args.ck_iter}",
                f"{times[1 + args.ck_iter]:.3f}",
                f"{ck_iter * 1e3:.1f}",
                f"{ck_iter / ours_iter:.0f}x slower",
                f"{ck_acc:.4f}",
            )
        )
    print(
        "| implementation | EM iterations | total (s) | per iteration (ms) "
        "| per-iteration ratio | accuracy vs truth |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print()
    verdict = "PASS" if total < 2.0 else "FAIL"
    print(f"- fit to convergence: {total:.3f} s (target < 2 s on the full size): {verdict}")
    if ck is not None:
        ratio = ck_iter / ours_iter
        print(
            f"- per iteration: crowd-kit {ck_iter * 1e3:.0f} ms vs Concord "
            f"{ours_iter * 1e3:.1f} ms = {ratio:.0f}x (target >= 10x): "
            f"{'PASS' if ratio >= 10 else 'FAIL'}"
        )
    else:
        print(f"- crowd-kit skipped: {why}")


if __name__ == "__main__":
    main()
