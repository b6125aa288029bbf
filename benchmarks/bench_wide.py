"""Wide data against the memory budget: time and peak memory of the analyses on three wide cases.

    python -m benchmarks.bench_wide            # 60 x 5,000 annotators; 2 x 1,000 and 10,000 categories
    python -m benchmarks.bench_wide --quick    # smaller cases (a tenth of the annotators)

Each case runs in its own process (peak resident memory from ``getrusage``, which includes
the data and the imports) under a hard address-space cap of twice the budget plus 1 GiB, so
a regression fails with a MemoryError instead of swapping the machine. Prints a markdown
table: case, analysis, seconds, peak GiB, outcome (ok, or the refusal's first words).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

CASES = {
    "60 items x 5,000 annotators": (60, 5000, 3),
    "2 annotators x 1,000 categories": (500, 2, 1000),
    "2 annotators x 10,000 categories": (2000, 2, 10000),
}
ANALYSES = ("agreement_report(n_boot=0)", "agreement_report(n_boot=200)", "pairwise", "report")


def make(n_items: int, n_annotators: int, k: int):
    """Every annotator labels every item, uniformly at random over ``k`` categories."""
    import numpy as np
    import pandas as pd

    from analytics.data.model import Annotations

    rng = np.random.default_rng(0)
    return Annotations(
        item_codes=np.repeat(np.arange(n_items), n_annotators),
        annotator_codes=np.tile(np.arange(n_annotators), n_items),
        label_codes=rng.integers(0, k, n_items * n_annotators),
        items=pd.Index([f"i{i}" for i in range(n_items)]),
        annotators=pd.Index([f"a{a}" for a in range(n_annotators)]),
        categories=pd.Index([f"c{c}" for c in range(k)]),
        name="wide",
    )


def _child(shape: list[int], analysis: str) -> None:
    from analytics import AnnotationDataError
    from analytics import agreement as ag
    from analytics._core.budget import budget_bytes
    from analytics.report import report_blocks

    cap = 2 * budget_bytes() + 2**30
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    ann = make(*shape)
    start = time.perf_counter()
    try:
        if analysis.startswith("agreement_report"):
            ag.agreement_report(ann, n_boot=int(analysis.split("=")[1].rstrip(")")))
        elif analysis == "pairwise":
            ag.pairwise(ann)
        else:
            report_blocks(ann, n_boot=0)
        outcome = "ok"
    except AnnotationDataError as exc:
        outcome = "refused: " + str(exc)[:60]
    except MemoryError:
        outcome = "MemoryError"
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 2**30
    print(json.dumps([time.perf_counter() - start, peak, outcome]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the annotators")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(json.loads(args.child[0]), args.child[1])
        return
    print("| case | analysis | seconds | peak GiB | outcome |")
    print("| --- | --- | --- | --- | --- |")
    for name, (n_items, n_annotators, k) in CASES.items():
        if args.quick:
            n_annotators = max(2, n_annotators // 10)
        for analysis in ANALYSES:
            shape = json.dumps([n_items, n_annotators, k])
            run = subprocess.run(
                [sys.executable, "-m", "benchmarks.bench_wide", "--child", shape, analysis],
                capture_output=True,
                text=True,
                check=False,
            )
            try:
                seconds, peak, outcome = json.loads(run.stdout.strip().splitlines()[-1])
            except (IndexError, ValueError):
                seconds, peak, outcome = float("nan"), float("nan"), "crashed"
            print(f"| {name} | {analysis} | {seconds:.1f} | {peak:.2f} | {outcome} |")


if __name__ == "__main__":
    main()
