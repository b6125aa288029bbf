"""Benchmark: the noise calculator (Beigman Klebanov & Beigman 2009) against its targets.

Targets: ``noise_bound`` with n = 10,000,000 well under a second, exact in log space;
``noise_from_annotations`` with per-item p (uneven coverage) on 100,000 items under 2 s.

No library implements the noise bound, so the anchors are independent computations of
the same numbers, timed in the same run:

- equation (1) with the uniform prior is a negative binomial cut at n - d, so
  ``scipy.stats.nbinom`` (incomplete beta) gives t0 by bisection on its cdf;
- the same equation evaluated over every h = d..n (no window; a flat prior passed
  explicitly forces it) is the naive log-space computation;
- the per-item mixture's exact path against its refined-normal approximation, and its
  power-sum characteristic function against a complex logarithm per distinct p.

Usage::

    python -m benchmarks.bench_noise            # full sizes
    python -m benchmarks.bench_noise --quick    # n = 1,000,000 and 10,000 items
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd
from scipy import stats

from analytics.data.model import Annotations
from analytics.noise import hidden_hard_posterior, noise_bound, noise_from_annotations


def best_of(fn, repeat: int = 3) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def scipy_t0(n: int, d: int, p: float, confidence: float = 0.95) -> int:
    """t0 from scipy's negative binomial cut at n - d (bisection on the cdf)."""
    nb = stats.nbinom(d + 1, 1 - p)
    top = n - d
    f_top = nb.cdf(top)
    lo, hi = 0, top
    while lo < hi:
        mid = (lo + hi) // 2
        if (f_top - nb.cdf(mid)) / f_top < 1 - confidence:
            hi = mid
        else:
            lo = mid + 1
    return d + lo


def simulate(n_items: int, n_annotators: int = 20, seed: int = 0) -> Annotations:
    """80% easy items; each item judged by 2-4 of the annotators (uneven panels); on hard
    items annotator j says 'yes' with their own probability r_j in (0.3, 0.7)."""
    rng = np.random.default_rng(seed)
    per_item = rng.choice([2, 3, 4], size=n_items, p=[0.3, 0.5, 0.2])
    keys = rng.random((n_items, n_annotators))
    ranks = keys.argsort(axis=1).argsort(axis=1)
    chosen = ranks < per_item[:, None]
    item, ann = np.nonzero(chosen)
    easy = rng.random(n_items) < 0.8
    truth = rng.integers(0, 2, n_items)
    r = rng.uniform(0.3, 0.7, n_annotators)
    flip = (rng.random(len(item)) < r[ann]).astype(np.int64)
    label = np.where(easy[item], truth[item], flip)
    return Annotations(
        item_codes=item,
        annotator_codes=ann,
        label_codes=label,
        items=pd.Index([f"i{i}" for i in range(n_items)]),
        annotators=pd.Index([f"a{j}" for j in range(n_annotators)]),
        categories=pd.Index(["no", "yes"]),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    args = parser.parse_args()
    n_big = 1_000_000 if args.quick else 10_000_000
    n_data = 10_000 if args.quick else 100_000
    rows = []

    for n, d, p in [(n_big, n_big // 10, 0.5), (n_big, 10, 0.999999)]:
        ours, r = best_of(lambda n=n, d=d, p=p: noise_bound(n, d, p))
        anchor, t0 = best_of(lambda n=n, d=d, p=p: scipy_t0(n, d, p))
        rows.append(
            (
                f"noise_bound n={n:,} d={d:,} p={p}",
                "scipy nbinom",
                ours,
                anchor,
                f"t0 {r.t0:,} = {t0:,}" if r.t0 == t0 else f"MISMATCH {r.t0} vs {t0}",
            )
        )
    n, d, p = n_big, n_big // 10, 0.5
    ours, r = best_of(lambda: noise_bound(n, d, p))
    naive, rn = best_of(lambda: noise_bound(n, d, p, prior=np.ones(n + 1)), repeat=1)
    rows.append(
        (
            f"noise_bound n={n:,} d={d:,} p={p}",
            "every h (no window)",
            ours,
            naive,
            f"t0 {r.t0:,} = {rn.t0:,}" if r.t0 == rn.t0 else "MISMATCH",
        )
    )

    for pool in (150, 20):  # the last one (20 annotators) feeds the mixture rows below
        ann = simulate(n_data, n_annotators=pool)
        ours, res = best_of(lambda ann=ann: noise_from_annotations(ann), repeat=2)
        rows.append(
            (
                f"noise_from_annotations {n_data:,} items, {pool} annotators, 2-4 per item",
                "-",
                ours,
                float("nan"),
                f"d {res.n_disagreed:,}, t0 {res.t0:,}, {res.method}",
            )
        )
    p_agreed = res.items.loc[res.items["status"] == "agreed", "p"].to_numpy()
    d = res.n_disagreed

    def bound(post) -> int:
        return post.offset + int(np.argmax(post.tail() < 0.05))

    exact, pe = best_of(lambda: hidden_hard_posterior(p_agreed, d, method="exact"))
    approx, pa = best_of(lambda: hidden_hard_posterior(p_agreed, d, method="refined normal"))
    rows.append(
        (
            f"mixture {len(p_agreed):,} agreed, {len(np.unique(p_agreed)):,} distinct p",
            "refined normal (approximate)",
            exact,
            approx,
            f"bound {bound(pe):,} vs {bound(pa):,}, max cdf diff "
            f"{np.abs(np.cumsum(pe.pmf) - np.cumsum(pa.pmf)).max():.1e}"
            if pe.offset == pa.offset and len(pe.pmf) == len(pa.pmf)
            else f"bound {bound(pe):,} vs {bound(pa):,}",
        )
    )
    # complex logs per frequency and distinct p (no power sums): affordable on a subset only
    sub = p_agreed[: len(p_agreed) // 10]
    d_sub = d // 10
    fast, pf = best_of(lambda: hidden_hard_posterior(sub, d_sub, method="exact"))
    slow, ps = best_of(
        lambda: hidden_hard_posterior(sub, d_sub, method="exact", power_sums=False), repeat=1
    )
    diff = np.abs(pf.pmf - ps.pmf).max() if pf.offset == ps.offset else float("nan")
    rows.append(
        (
            f"mixture {len(sub):,} agreed, {len(np.unique(sub)):,} distinct p",
            "exact, complex log per p",
            fast,
            slow,
            f"max pmf diff {diff:.1e}",
        )
    )

    print("| computation | anchor | ours (s) | anchor (s) | anchor / ours | check |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, anchor_name, t_ours, t_anchor, check in rows:
        ratio = "-" if not np.isfinite(t_anchor) else f"{t_anchor / t_ours:.1f}x"
        t_a = "-" if not np.isfinite(t_anchor) else f"{t_anchor:.3f}"
        print(f"| {name} | {anchor_name} | {t_ours:.3f} | {t_a} | {ratio} | {check} |")


if __name__ == "__main__":
    main()
