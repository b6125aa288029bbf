"""Benchmark: next labels at scale (``expected_gain`` and ``next_batch``, 200,000 items).

Targets: ``expected_gain`` over 200,000 items x 5 categories x 1,000 annotators in
best-annotator mode under 1 s; ``next_batch`` of 10,000 judgements under 2 s. The model is
a stand-in with random posteriors and confusion matrices (the functions only read
``posteriors``, ``prevalence`` and the confusion matrices), and every item already has
5 judgements by distinct annotators (they are excluded, as in real use).

Each line compares the library's path with the previous brute-force one in the same run
and says whether their results are identical: for ``expected_gain``, the full gain matrix
(:func:`analytics.next_labels.gain.pool_gains`, every item x annotator pair; run once, it
takes a minute at full size); for ``next_batch``, the plain greedy (every item scored
exactly up front, every step item by item: the bounds and the vectorised first judgements
switched off). Wall-clock seconds (best of 3) and CPU seconds of this process are shown:
on a shared machine the CPU time is the steadier of the two.

Usage::

    python -m benchmarks.bench_next_labels            # full size
    python -m benchmarks.bench_next_labels --quick    # 20,000 items
"""

from __future__ import annotations

import argparse
import time
from types import SimpleNamespace
from unittest import mock

import numpy as np
import pandas as pd

from analytics.data.model import Annotations
from analytics.next_labels import batch, expected_gain, next_batch, selection
from analytics.next_labels.gain import pool_gains
from analytics.next_labels.parameters import judged_pairs, model_view
from analytics.next_labels.pruning import best_available


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


def timed(fn, repeat: int = 3) -> tuple[float, float, object]:
    """(best wall seconds, CPU seconds of that run, result)."""
    best, cpu, out = float("inf"), float("inf"), None
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        wall, used = time.perf_counter() - t0, time.process_time() - c0
        if wall < best:
            best, cpu = wall, used
    return best, cpu, out


def plain_greedy(result, ann, budget):
    """next_batch with its fast paths off: every item scored exactly up front, no prefetch."""
    with (
        mock.patch.object(selection, "mean_bounds", lambda q, *_: np.full(len(q), np.inf)),
        mock.patch.object(batch.Planner, "prefetch", lambda self, items, whos: None),
    ):
        return next_batch(result, ann, budget, stop_at=1.0)


def line(what: str, new: tuple, old: tuple, same: bool, target: str) -> None:
    print(
        f"{what}: {new[0]:.2f} s wall, {new[1]:.2f} s CPU (target {target}); "
        f"previous path {old[0]:.2f} s wall, {old[1]:.2f} s CPU; "
        f"ratio {old[0] / new[0]:.1f}x wall, {old[1] / new[1]:.1f}x CPU; identical: {same}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    n = 20_000 if args.quick else 200_000
    result, ann = setup(n, 1_000, 5)
    new = timed(lambda: expected_gain(result, ann, pick="best"))
    view = model_view(result, ann)
    pool = np.arange(len(view.annotators))
    old = timed(lambda: pool_gains(view.posteriors, view.confusion, pool, judged_pairs(ann)), 1)
    chosen = best_available(view.posteriors, view.confusion, pool, judged_pairs(ann))[1]
    same = np.allclose(new[2].to_numpy(), old[2][0], rtol=0, atol=1e-12) and np.array_equal(
        chosen, old[2][1]
    )
    line(
        f"expected_gain, best annotator, {n:,} items x 1,000 annotators x 5",
        new,
        old,
        same,
        "< 1 s",
    )
    small = setup(n, 50, 5)
    new = timed(lambda: next_batch(*small, 10_000, stop_at=1.0))
    old = timed(lambda: plain_greedy(*small, 10_000), 1)
    same = new[2].equals(old[2]) or bool(
        (new[2]["item"].to_numpy() == old[2]["item"].to_numpy()).all()
        and np.allclose(new[2]["expected_gain"], old[2]["expected_gain"], rtol=0, atol=1e-12)
    )
    line(f"next_batch of 10,000 over {n:,} items, 50 annotators", new, old, same, "< 2 s")


if __name__ == "__main__":
    main()
