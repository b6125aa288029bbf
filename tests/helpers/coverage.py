"""Coverage simulation of the agreement intervals (issue 14): do 95% intervals cover 95%?

Data come from exchangeable annotators: item :math:`i` has a true category :math:`z_i`
drawn from ``PREVALENCE``; each annotator reports it with probability ``ACCURACY`` and
otherwise a category drawn uniformly. Every coefficient of
:func:`~analytics.agreement.agreement_report` then has one population value, the limit of
its estimate as the items grow, whatever the design; :func:`true_values` computes it on one
very large complete sample (its Monte-Carlo error is below 0.002, under a thirtieth of the
intervals' half-widths). Three designs:

- ``complete``: every annotator judges every item;
- ``sparse``: a crowd design, each item judged by ``per_item`` of ``n_annotators``
  annotators chosen at random, so each pair of annotators shares only some items (here
  about 21 items per pair, of 200);
- ``pair``: two annotators on every item (Cohen's kappa and Scott's pi of one pair have
  their own analytic standard errors).

Used by ``tests/agreement/test_coverage.py`` (sized to run in about a minute) and
``benchmarks/coverage_agreement.py`` (more replicates, tighter Monte-Carlo error).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analytics import Annotations
from analytics import agreement as ag

PREVALENCE = np.array([0.5, 0.3, 0.2])
ACCURACY = 0.6


@dataclass(frozen=True)
class Design:
    """How many items, annotators, and annotators per item (``per_item`` = all: complete)."""

    name: str
    n_items: int
    n_annotators: int
    per_item: int


DESIGNS = {
    "complete": Design("complete", 100, 4, 4),
    "sparse": Design("sparse", 200, 8, 3),
    "pair": Design("pair", 100, 2, 2),
}


def simulate(design: Design, rng: np.random.Generator) -> Annotations:
    """One data set of ``design`` from the exchangeable-annotator model (ordinal 0, 1, 2)."""
    n, a, m = design.n_items, design.n_annotators, design.per_item
    q = len(PREVALENCE)
    truth = rng.choice(q, size=n, p=PREVALENCE)
    labels = np.where(rng.random((n, a)) < ACCURACY, truth[:, None], rng.integers(0, q, (n, a)))
    if m < a:  # m annotators per item, chosen at random: the m smallest of uniform keys
        chosen = np.argsort(rng.random((n, a)), axis=1)[:, :m]
        item = np.repeat(np.arange(n), m)
        annotator = np.sort(chosen, axis=1).ravel()
    else:
        item, annotator = np.nonzero(np.ones((n, a), bool))
    return Annotations(
        item_codes=item,
        annotator_codes=annotator,
        label_codes=labels[item, annotator],
        items=pd.RangeIndex(n),
        annotators=pd.Index([f"a{j}" for j in range(a)]),
        categories=pd.Index([0, 1, 2]),
        kind="ordinal",
    )


def true_values(n_items: int = 400_000, seed: int = 12345) -> pd.Series:
    """Every coefficient's population value: its estimate on one huge complete sample."""
    big = simulate(Design("truth", n_items, 3, 3), np.random.default_rng(seed))
    values = ag.agreement_report(big, n_boot=0).set_index("coefficient")["value"]
    # exchangeable annotators: every pair's coefficient has the population value of the
    # mean over pairs (the two-annotator report names the rows without "over pairs")
    aliases = {
        "Cohen's kappa": "Cohen's kappa (Light's mean over pairs)",
        "Scott's pi": "Scott's pi (mean over pairs)",
    }
    return pd.concat([values, pd.Series({a: values[b] for a, b in aliases.items()})])


def coverage(design: Design, n_rep: int, n_boot: int, seed: int, truth: pd.Series) -> pd.DataFrame:
    """Share of ``n_rep`` data sets whose 95% intervals cover the population value.

    Returns
    -------
    DataFrame
        Per coefficient and interval method (``bootstrap``: the report's interval with
        ``n_boot`` resamples, i.e. BCa, basic, or the jackknife's for means over pairs;
        ``analytic``: the t interval of the analytic standard error, where one exists): ``covered``, ``given`` (replicates with an interval),
        ``coverage`` (covered / given) and ``withheld``.
    """
    rng = np.random.default_rng(seed)
    hits: dict[tuple[str, str], list[int]] = {}
    for rep in range(n_rep):
        ann = simulate(design, rng)
        boot = ag.agreement_report(ann, n_boot=n_boot, seed=rep).set_index("coefficient")
        rows = {"bootstrap": boot[["ci_low", "ci_high"]]}
        if "analytic_low" in boot:
            rows["analytic"] = boot[["analytic_low", "analytic_high"]].set_axis(
                ["ci_low", "ci_high"], axis=1
            )
        for method, ci in rows.items():
            for name, (lo, hi) in ci.iterrows():
                key = (name, method)
                tally = hits.setdefault(key, [0, 0, 0])
                if np.isfinite(lo) and np.isfinite(hi):
                    tally[0] += bool(lo <= truth[name] <= hi)
                    tally[1] += 1
                else:
                    tally[2] += 1
    out = pd.DataFrame(
        [(n, m, c, g, w) for (n, m), (c, g, w) in hits.items()],
        columns=["coefficient", "method", "covered", "given", "withheld"],
    )
    out["coverage"] = out["covered"] / out["given"].where(out["given"] > 0)
    return out
