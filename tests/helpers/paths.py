"""Where the repository's data live, and the public crowdsourcing data sets it ships."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
DATASETS = ROOT / "datasets"
SAMPLE_DATA = ROOT / "sample_data"
FIXTURES = ROOT / "tests" / "fixtures"


def load_public(name: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(labels, gold) of a public data set in ``datasets/``, ids kept as text."""
    folder = DATASETS / name
    labels = pd.read_csv(folder / "labels.csv", dtype=str, keep_default_na=False)
    gold = pd.read_csv(folder / "gold.csv", dtype=str, keep_default_na=False)
    return labels, gold


PUBLIC_SETS = [
    "snow_rte",
    "snow_temp",
    "snow_wsd",
    "welinder_bluebirds",
    "zheng_s4_Dog_data",
    "act_MS",
]
