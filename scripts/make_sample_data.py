"""Generate Concord's sample data sets (seeded, so every run writes the same files).

Run from the repository root::

    python scripts/make_sample_data.py

Writes to ``sample_data/``:

- ``crowd_intents.csv`` (+ ``crowd_intents_truth.csv``): a single-label crowd set, 300
  customer messages x 20 annotators, 4 intents, 5 judgements per item. Most annotators
  are good (70-92% accurate); ``w17`` over-uses "complaint", ``w18`` confuses
  "question" with "request", and ``w19`` is a spammer who answers at random.
- ``affect_multilabel.csv`` (+ ``affect_multilabel_truth.csv``): 300 sentences, 3
  annotators on every sentence and a fourth on about a third of them (so majority ties
  occur), each judgement a set of the six Ekman emotions in the spirit of Bhowmick,
  Mitra & Basu (2008); ``{}`` marks an explicit "no emotion" judgement.
- ``ratings_ordinal_wide.csv``: 200 answers rated 1-5 by 6 raters, wide form (one column
  per rater), with about 15% of ratings missing; rater ``r6`` is harsh.
- ``rte_snow2008.csv`` (+ ``rte_snow2008_gold.csv``): the real RTE crowd data of Snow et
  al. (2008), copied from ``datasets/snow_rte``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "sample_data"

INTENTS = ["question", "complaint", "praise", "request"]
EMOTIONS = ["anger", "disgust", "fear", "happiness", "sadness", "surprise"]


def crowd_intents(rng: np.random.Generator) -> tuple[pd.DataFrame, pd.DataFrame]:
    n_items, n_workers, per_item, k = 300, 20, 5, len(INTENTS)
    prevalence = np.array([0.40, 0.30, 0.15, 0.15])
    truth = rng.choice(k, size=n_items, p=prevalence)
    confusions = []
    for _ in range(n_workers):
        acc = rng.uniform(0.70, 0.92)
        m = np.full((k, k), (1 - acc) / (k - 1))
        np.fill_diagonal(m, acc)
        confusions.append(m)
    # w17: biased toward "complaint"
    confusions[17] = np.array(
        [
            [0.55, 0.35, 0.05, 0.05],
            [0.03, 0.94, 0.01, 0.02],
            [0.05, 0.30, 0.60, 0.05],
            [0.05, 0.35, 0.05, 0.55],
        ]
    )
    # w18: confuses "question" and "request" both ways
    confusions[18] = np.array(
        [
            [0.50, 0.05, 0.05, 0.40],
            [0.05, 0.85, 0.05, 0.05],
            [0.05, 0.05, 0.85, 0.05],
            [0.40, 0.05, 0.05, 0.50],
        ]
    )
    # w19: a spammer, labels at random whatever the item
    confusions[19] = np.full((k, k), 1 / k)
    rows = []
    for i in range(n_items):
        workers = rng.choice(n_workers, size=per_item, replace=False)
        for w in workers:
            label = rng.choice(k, p=confusions[w][truth[i]])
            rows.append((f"msg{i + 1:03d}", f"w{w:02d}", INTENTS[label]))
    labels = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    gold = pd.DataFrame(
        {"item": [f"msg{i + 1:03d}" for i in range(n_items)], "label": [INTENTS[t] for t in truth]}
    )
    return labels, gold


def affect_multilabel(rng: np.random.Generator) -> tuple[pd.DataFrame, pd.DataFrame]:
    n_items, c = 300, len(EMOTIONS)
    base = np.array([0.22, 0.12, 0.15, 0.30, 0.25, 0.18])
    truth = rng.random((n_items, c)) < base
    none = ~truth.any(axis=1)
    truth[none, rng.integers(0, c, none.sum())] = True  # most sentences evoke something
    truth[rng.choice(n_items, 12, replace=False)] = False  # a few evoke nothing
    # (miss rate, false-alarm rate) per annotator: A0 careful, A1 liberal, A2 conservative,
    # A3 a fourth annotator on a third of the sentences (where four annotators can tie, so
    # Algorithm 1 of Bhowmick et al. needs its expert-coder tie-break)
    profiles = {"A0": (0.10, 0.03), "A1": (0.12, 0.12), "A2": (0.30, 0.02), "A3": (0.20, 0.08)}
    fourth = rng.random(n_items) < 1 / 3
    rows = []
    for i in range(n_items):
        for name, (miss, false_alarm) in profiles.items():
            if name == "A3" and not fourth[i]:
                continue
            r = rng.random(c)
            given = np.where(truth[i], r > miss, r < false_alarm)
            cell = ";".join(e for e, g in zip(EMOTIONS, given, strict=True) if g) or "{}"
            rows.append((f"s{i + 1:03d}", name, cell))
    labels = pd.DataFrame(rows, columns=["sentence", "annotator", "emotions"])
    gold = pd.DataFrame(
        {
            "sentence": [f"s{i + 1:03d}" for i in range(n_items)],
            "emotions": [
                ";".join(e for e, t in zip(EMOTIONS, row, strict=True) if t) or "{}"
                for row in truth
            ],
        }
    )
    return labels, gold


def ratings_ordinal(rng: np.random.Generator) -> pd.DataFrame:
    n_items, raters = 200, ["r1", "r2", "r3", "r4", "r5", "r6"]
    quality = rng.normal(3.0, 1.0, n_items)
    bias = {"r1": 0.0, "r2": 0.2, "r3": -0.1, "r4": 0.1, "r5": 0.0, "r6": -0.9}
    noise = {"r1": 0.45, "r2": 0.5, "r3": 0.4, "r4": 0.7, "r5": 0.55, "r6": 0.5}
    table = {"answer_id": [f"ans{i + 1:03d}" for i in range(n_items)]}
    for r in raters:
        score = np.clip(np.rint(quality + bias[r] + rng.normal(0, noise[r], n_items)), 1, 5).astype(
            int
        )
        cells = score.astype(object)
        cells[rng.random(n_items) < 0.15] = ""
        table[r] = cells
    return pd.DataFrame(table)


def main() -> None:
    OUT.mkdir(exist_ok=True)
    rng = np.random.default_rng(20260421)
    labels, gold = crowd_intents(rng)
    labels.to_csv(OUT / "crowd_intents.csv", index=False)
    gold.to_csv(OUT / "crowd_intents_truth.csv", index=False)
    labels, gold = affect_multilabel(rng)
    labels.to_csv(OUT / "affect_multilabel.csv", index=False)
    gold.to_csv(OUT / "affect_multilabel_truth.csv", index=False)
    ratings_ordinal(rng).to_csv(OUT / "ratings_ordinal_wide.csv", index=False)
    shutil.copyfile(ROOT / "datasets" / "snow_rte" / "labels.csv", OUT / "rte_snow2008.csv")
    shutil.copyfile(ROOT / "datasets" / "snow_rte" / "gold.csv", OUT / "rte_snow2008_gold.csv")
    print(f"wrote sample data to {OUT}")


if __name__ == "__main__":
    main()
