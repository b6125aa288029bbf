"""Benchmark: next labels at scale (issue 16).

Targets: ``expected_gain`` over 200,000 items x 5 categories x 1,000 annotators in
best-annotator mode under 1 s; ``next_batch`` of 10,000 judgements under 2 s. The model is
a stand-in with random posteriors and confusion matrices (the functions only read
``posteriors``, ``prevalence`` and the confusion matrices), and every item already has
5 judgements by distinct annotators (they are excluded, as in real use).

Usage::

    python -m benchmarks.bench_next_labels            # full size
    python -m benchmarks.bench_next_labels --quick    # 20,000 items
"""

from __future__ import annotations

import argparse
import time
from types import SimpleNamespace

import numpy as np
import pandas as pd

from analytics.data.model import Annotations
from analytics.next_labels import expected_gain, next_batch


def setup(n_items: int, n_annotators: int, k: int, per_item: int = 5, seed: int = 0):
    rng = np.random.default_rng(seed)
    acc = rng.uniform(0.55, 0.95, n_annotators)
    theta = rng.dirichlet(np.ones(k), size=(n_annotators, k)) * (1 - acc)[:, None, None]
    theta[:, np.arange(k), np.arange(k)] += acc[:, None]
    theta /= theta.sum(-1, keepdims=True)
    q = rng.dirichlet(np.full(k, 0.5), size=n_items)
    items = np.repeat(np.arange(n_items), per_item)
    start = rng.integers(0, n_annotators, n_items)
    anns = (start[:, None] + np.arange(per_item)[None, :] * 7).ravel() % n_annotators
    labels = rng.integers(0, k, n_items * per_item)
    names = pd.Index([f"i{i}" for i in range(n_items)])
    who = pd.Index([f"w{j}" for j in range(n_annotators)])
    cats = pd.Index(range(k))
    ann = Annotations(items, anns, labels, names, who, cats, name="bench")
    result = SimpleNamespace(
        posteriors=pd.DataFrame(q, index=names, columns=cats),
        prevalence=pd.Series(np.full(k, 1 / k), index=cats),
        confusion_array=theta,
        annotators=who,
    )
    return result, ann


def timed(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    n = 20_000 if args.quick else 200_000
    result, ann = setup(n, 1_000, 5)
    t_gain = timed(lambda: expected_gain(result, ann, pick="best"))
    print(
        f"expected_gain, best annotator, {n:,} items x 1,000 annotators x 5: {t_gain:.2f} s "
        "(target < 1 s)"
    )
    small = setup(n, 50, 5)
    t_batch = timed(lambda: next_batch(*small, 10_000, stop_at=1.0))
    print(f"next_batch of 10,000 over {n:,} items, 50 annotators: {t_batch:.2f} s (target < 2 s)")


if __name__ == "__main__":
    main()
