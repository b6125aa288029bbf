"""Agreement benchmarks: our coefficients against the anchor libraries, side by side.

    python -m benchmarks.bench_agreement            # the README's sizes
    python -m benchmarks.bench_agreement --quick    # a tenth of the sizes
    python -m benchmarks.bench_agreement --heavy    # also the krippendorff package on
                                                    # 200 distinct values (~9 GB, ~25 s)
    python -m benchmarks.bench_agreement --no-irrcac   # skip irrCAC's SEs (~5 s)

Prints a markdown table. NLTK is timed on a tenth of the items and scaled up linearly
(its alpha is a loop over items), unless --full-nltk.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np
import pandas as pd

from analytics import agreement as ag
from analytics.data.model import Annotations


def make_data(n_items: int, n_annotators: int, n_values: int, missing: float, seed: int = 0):
    """Annotations plus the annotators x items float matrix (NaN missing) for the anchors."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, n_values, n_items)
    labels = np.where(
        rng.random((n_items, n_annotators)) < 0.7,
        truth[:, None],
        rng.integers(0, n_values, (n_items, n_annotators)),
    )
    mask = rng.random((n_items, n_annotators)) < missing
    item, annotator = np.nonzero(~mask)
    ann = Annotations(
        item_codes=item,
        annotator_codes=annotator,
        label_codes=labels[item, annotator],
        items=pd.Index([f"i{i}" for i in range(n_items)]),
        annotators=pd.Index([f"a{a}" for a in range(n_annotators)]),
        categories=pd.Index(np.arange(n_values)),
        kind="numeric",
    )
    matrix = np.where(mask, np.nan, labels).T.astype(float)
    return ann, matrix


def timed(fn, repeat: int = 1) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def peak_mb(fn) -> float:
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1e6


def nltk_alpha_seconds(ann: Annotations, full: bool) -> tuple[float, str]:
    from nltk.metrics.agreement import AnnotationTask

    sub = ann if full else ann.subset(items=ann.items[: max(ann.n_items // 10, 1)])
    data = list(
        zip(
            sub.annotator_codes.tolist(),
            sub.item_codes.tolist(),
            sub.label_codes.tolist(),
            strict=True,
        )
    )
    task = AnnotationTask(data=data)
    seconds = timed(task.alpha)
    scale = ann.n_items / sub.n_items
    return seconds * scale, "" if full else f" (timed on {sub.n_items:,} items, x{scale:.0f})"


def standard_errors_all(ann: Annotations, weighted: bool) -> list:
    """Every analytic SE of :mod:`analytics.agreement.standard_errors`, from the data on.

    Includes :func:`prepare` (the counts every SE starts from) and the two annotators'
    shared labels; with ``weighted``, each SE once more with quadratic weights.
    """
    from analytics.agreement import standard_errors as se
    from analytics.agreement.annotator_pairs import pair_labels
    from analytics.agreement.prepared import prepare
    from analytics.agreement.weights import weight_matrix

    p = prepare(ann)
    la, lb = pair_labels(p, 0, 1)
    out = [se.percent_se(p)]
    for w in [None, weight_matrix(ann, "quadratic")[0]] if weighted else [None]:
        out += [se.fleiss_family_se(p, w, which) for which in FAMILY]
        out += [se.conger_se(p, w), se.alpha_se(p, w)]
        out += [se.pair_table_se(la, lb, p.q, w, which) for which in ("cohen", "scott")]
    return out


FAMILY = ("fleiss_kappa", "gwet_ac1", "brennan_prediger")


def irrcac_seconds(matrix: np.ndarray) -> float:
    """irrCAC's five raw-data coefficients with their SEs (annotators x items, NaN missing)."""
    import warnings

    from irrCAC.raw import CAC

    frame = pd.DataFrame(matrix.T)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")

        def run() -> None:
            cac = CAC(frame, categories=sorted(np.unique(matrix[~np.isnan(matrix)]).tolist()))
            for method in ("fleiss", "conger", "bp", "gwet", "krippendorff"):
                getattr(cac, method)()

        return timed(run)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--heavy", action="store_true")
    parser.add_argument("--full-nltk", action="store_true")
    parser.add_argument("--no-irrcac", action="store_true", help="skip timing irrCAC (~5 s)")
    args = parser.parse_args()
    import krippendorff

    k = 10 if args.quick else 1
    rows = []

    # 1. alpha and the whole report on 200,000 items x 5 annotators, 5% missing
    n = 200_000 // k
    ann, matrix = make_data(n, 5, 5, 0.05)
    ours = timed(lambda: ag.krippendorff_alpha(ann, "nominal"), repeat=3)
    kpkg = timed(lambda: krippendorff.alpha(matrix, level_of_measurement="nominal"), repeat=3)
    nltk_s, nltk_note = nltk_alpha_seconds(ann, args.full_nltk)
    rows.append(
        (f"nominal alpha, {n:,} items x 5, 5% missing", ours, "krippendorff", kpkg, "no slower")
    )
    rows.append(
        (
            f"nominal alpha, {n:,} items x 5, 5% missing",
            ours,
            f"NLTK{nltk_note}",
            nltk_s,
            ">= 20x faster",
        )
    )
    ag.agreement_report(ann, n_boot=0)  # warm-up (imports, caches)
    report = timed(lambda: ag.agreement_report(ann, n_boot=0), repeat=3)
    rows.append(
        (
            f"all report coefficients, {n:,} items x 5, no bootstrap",
            report,
            "-",
            float("nan"),
            "< 1 s",
        )
    )

    # 2. interval alpha, 10,000 items, 200 distinct values
    n = 10_000 // k
    ann, matrix = make_data(n, 5, 200, 0.05, seed=1)
    ours = timed(lambda: ag.krippendorff_alpha(ann, "interval"), repeat=3)
    mem = peak_mb(lambda: ag.krippendorff_alpha(ann, "interval"))
    if args.heavy or args.quick:
        kpkg = timed(lambda: krippendorff.alpha(matrix, level_of_measurement="interval"))
        anchor = "krippendorff"
    else:
        kpkg, anchor = float("nan"), "krippendorff (skipped: ~9 GB; --heavy)"
    rows.append(
        (
            f"interval alpha, {n:,} items, 200 values (peak {mem:.1f} MB)",
            ours,
            anchor,
            kpkg,
            "< 0.2 s, < 500 MB",
        )
    )

    # 3. 1,000 bootstrap resamples on 100,000 items
    n = 100_000 // k
    ann, _ = make_data(n, 5, 5, 0.05, seed=2)
    boot_alpha = timed(lambda: ag.agreement_report(ann, n_boot=1000, distance="nominal"))
    rows.append(
        (
            f"report with 1,000 bootstrap resamples, {n:,} items x 5",
            boot_alpha,
            "-",
            float("nan"),
            "< 10 s",
        )
    )

    # 4. analytic standard errors of every coefficient, 200,000 items x 5 (issue 14)
    n = 200_000 // k
    ann, matrix = make_data(n, 5, 5, 0.05, seed=3)
    ours_plain = timed(lambda: standard_errors_all(ann, weighted=False), repeat=3)
    ours_all = timed(lambda: standard_errors_all(ann, weighted=True), repeat=3)
    irr = irrcac_seconds(matrix) if not args.no_irrcac else float("nan")
    rows.append(
        (
            f"analytic SEs, unweighted: Fleiss, Conger, BP, AC1, alpha, percent, Cohen and "
            f"Scott of a pair; {n:,} items x 5",
            ours_plain,
            "irrCAC (Python 0.4.4; fleiss, conger, bp, gwet, krippendorff)",
            irr,
            "< 1 s",
        )
    )
    rows.append(
        (
            f"analytic SEs, the same unweighted and quadratic-weighted (16 SEs); {n:,} items x 5",
            ours_all,
            "-",
            float("nan"),
            "< 1 s",
        )
    )

    print("| task | Concord (s) | anchor | anchor (s) | anchor / Concord | target |")
    print("| --- | ---: | --- | ---: | ---: | --- |")
    for task, ours_s, anchor, anchor_s, target in rows:
        ratio = f"{anchor_s / ours_s:.1f}x" if np.isfinite(anchor_s) else "-"
        anchor_txt = f"{anchor_s:.3f}" if np.isfinite(anchor_s) else "-"
        print(f"| {task} | {ours_s:.3f} | {anchor} | {anchor_txt} | {ratio} | {target} |")


if __name__ == "__main__":
    main()
