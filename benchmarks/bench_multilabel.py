"""Benchmark the multi-label measures against plain loops and NLTK.

Targets (issue 4): A_m on 100,000 items x 5 annotators x 10 categories under 2 s; alpha
with a set distance on the same data under 5 s. No library computes A_m, so its anchor is
the plain-loop implementation of equations 1-8 (the test oracle) timed on a slice of the
items and scaled linearly; NLTK's ``AnnotationTask.alpha`` with ``masi_distance`` is timed
the same way. Scaled times are marked "(est.)".

    python -m benchmarks.bench_multilabel            # the issue's sizes
    python -m benchmarks.bench_multilabel --quick    # 10,000 items
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

from analytics.agreement import per_category  # noqa: E402
from analytics.data.model import Annotations  # noqa: E402
from analytics.multilabel import (  # noqa: E402
    am_agreement,
    am_bootstrap,
    category_disagreement,
    category_pair_confusion,
    gold_standard,
    items_by_agreement,
    pairwise_am,
)
from tests.helpers.multilabel_loops import loop_am  # noqa: E402


def make_data(n_items: int, n_annotators: int, n_categories: int, seed: int = 0):
    """Each item has a true set (1-3 categories); annotators flip each category with p=0.1."""
    rng = np.random.default_rng(seed)
    truth = rng.random((n_items, n_categories)) < 1.5 / n_categories
    flips = rng.random((n_items, n_annotators, n_categories)) < 0.1
    x = truth[:, None, :] ^ flips
    item = np.repeat(np.arange(n_items), n_annotators)
    annot = np.tile(np.arange(n_annotators), n_items)
    matrix = x.reshape(-1, n_categories)
    _, codes = np.unique(matrix, axis=0, return_inverse=True)
    ann = Annotations(
        item_codes=item,
        annotator_codes=annot,
        label_codes=codes.reshape(-1),
        items=[f"s{k}" for k in range(n_items)],
        annotators=[f"a{k}" for k in range(n_annotators)],
        categories=[f"c{k}" for k in range(n_categories)],
        kind="multilabel",
        label_matrix=matrix,
        name="bench",
    )
    return ann, x


def timed(fn: Callable[[], object], repeat: int = 3) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def nltk_alpha(x: np.ndarray, distance) -> float:
    from nltk.metrics.agreement import AnnotationTask

    cats = [f"c{k}" for k in range(x.shape[2])]
    triples = [
        (f"a{u}", f"s{i}", frozenset(c for c, b in zip(cats, x[i, u], strict=True) if b))
        for i in range(x.shape[0])
        for u in range(x.shape[1])
    ]
    return AnnotationTask(data=triples, distance=distance).alpha()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10,000 items instead of 100,000")
    args = parser.parse_args()
    n_items = 10_000 if args.quick else 100_000
    n_ann, n_cat = 5, 10
    ann, x = make_data(n_items, n_ann, n_cat)
    judged = np.ones(x.shape[:2], bool)
    rows: list[tuple[str, float, str, float | None, str]] = []

    t_am, res = timed(lambda: am_agreement(ann))
    frac = 200 / n_items
    t_loop, _ = timed(lambda: loop_am(x[:200], judged[:200]), repeat=1)
    rows.append(("A_m (eq. 1-8)", t_am, "plain loop, equations 1-8 (est.)", t_loop / frac, "< 2 s"))
    check = loop_am(x[:2000], judged[:2000])
    assert abs(am_agreement(ann.subset(items=[f"s{k}" for k in range(2000)])).a_m - check[2]) < 1e-9

    for name, fn in (
        ("pairwise A_m (table 2)", lambda: pairwise_am(ann)),
        ("items by agreement (table 3)", lambda: items_by_agreement(ann)),
        ("category disagreement (table 4)", lambda: category_disagreement(ann)),
        ("category-pair confusion (table 5)", lambda: category_pair_confusion(ann)),
        ("per-category kappa and alpha", lambda: per_category(ann, n_boot=0)),
        ("gold standard (Algorithm 1)", lambda: gold_standard(ann)),
    ):
        t, _ = timed(fn)
        rows.append((name, t, "", None, ""))
    t_boot, _ = timed(lambda: am_bootstrap(ann, n_boot=100), repeat=1)
    rows.append(("A_m bootstrap, 100 resamples", t_boot, "", None, ""))

    try:
        from analytics.agreement import krippendorff_alpha
    except ImportError:
        krippendorff_alpha = None
    if krippendorff_alpha is not None:
        from nltk.metrics.distance import jaccard_distance, masi_distance

        n_nltk = 2000
        for name, dist in (("masi", masi_distance), ("jaccard", jaccard_distance)):
            t_ours, _ = timed(lambda name=name: krippendorff_alpha(ann, distance=name))
            sub = x[:n_nltk].copy()
            sub[~sub.any(axis=2), 0] = True  # NLTK divides by zero on two empty sets
            t_nltk, _ = timed(lambda sub=sub, dist=dist: nltk_alpha(sub, dist), repeat=1)
            rows.append(
                (
                    f"alpha, {name} distance",
                    t_ours,
                    "NLTK AnnotationTask.alpha (est.)",
                    t_nltk * n_items / n_nltk,
                    "< 5 s",
                )
            )
        for name in ("passonneau", "dice"):
            t_ours, _ = timed(lambda name=name: krippendorff_alpha(ann, distance=name))
            rows.append((f"alpha, {name} distance", t_ours, "", None, "< 5 s"))

    print(
        f"\n{n_items:,} items x {n_ann} annotators x {n_cat} categories "
        f"({ann.n_judgements:,} judgements, {len(ann.label_sets_table)} distinct sets); "
        f"A_m = {res.a_m:.4f}\n"
    )
    print("| measure | Concord (s) | anchor | anchor (s) | ratio | target |")
    print("| --- | ---: | --- | ---: | ---: | --- |")
    for name, t, anchor, t_anchor, target in rows:
        ratio = f"{t_anchor / t:,.0f}x" if t_anchor else ""
        ta = f"{t_anchor:,.1f}" if t_anchor else ""
        print(f"| {name} | {t:.3f} | {anchor} | {ta} | {ratio} | {target} |")


if __name__ == "__main__":
    main()
