"""Coverage of the agreement report's 95% intervals, with more replicates than the test.

    python -m benchmarks.coverage_agreement               # 2,000 data sets per design
    python -m benchmarks.coverage_agreement --reps 400    # the size of the test

The simulation is :mod:`tests.helpers.coverage` (exchangeable annotators, complete,
sparse-crowd and two-annotator designs); ``tests/agreement/test_coverage.py`` runs it with
400 replicates. With 2,000 replicates the Monte-Carlo standard error of a coverage near
95% is 0.49 points. Prints a markdown table (docs/agreement.md keeps the last run).
"""

from __future__ import annotations

import argparse
import time

import pandas as pd

from tests.helpers import coverage as cv


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--reps", type=int, default=2000)
    parser.add_argument("--boot", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    truth = cv.true_values()
    tables = []
    for name, design in cv.DESIGNS.items():
        start = time.perf_counter()
        table = cv.coverage(design, args.reps, args.boot, args.seed, truth)
        table["design"] = name
        tables.append(table)
        print(f"{name}: {time.perf_counter() - start:.0f} s", flush=True)
    both = pd.concat(tables)
    both = both[both["given"] > 0]
    wide = both.pivot_table(
        index="coefficient", columns=["design", "method"], values="coverage", sort=False
    )
    print(f"\n{args.reps:,} data sets per design, {args.boot:,} resamples; coverage in %:\n")
    cols = [c for c in wide.columns]
    print("| coefficient | " + " | ".join(f"{d} {m}" for d, m in cols) + " |")
    print("| --- |" + " ---: |" * len(cols))
    for coefficient, row in wide.iterrows():
        cells = ["-" if pd.isna(v) else f"{100 * v:.1f}" for v in row]
        print(f"| {coefficient} | " + " | ".join(cells) + " |")
    withheld = both.groupby(["design", "method"])["withheld"].sum()
    print(f"\nintervals withheld: {int(withheld.sum())}")


if __name__ == "__main__":
    main()
