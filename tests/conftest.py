"""Shared fixtures: the repository on sys.path, fresh Streamlit caches, small data sets."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pandas as pd
import pytest

# An unexpected exception inside the loader must fail a test, not be dressed up as an
# AnnotationDataError (the safety net users get): see analytics.data.loading.load_annotations.
os.environ.setdefault("CONCORD_STRICT_ERRORS", "1")

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DATASETS = ROOT / "datasets"
SAMPLE_DATA = ROOT / "sample_data"


@pytest.fixture(autouse=True)
def _fresh_streamlit_caches():
    """@st.cache_data persists across AppTest instances in one process: clear it."""
    try:
        import streamlit as st
    except ImportError:  # pragma: no cover
        yield
        return
    st.cache_data.clear()
    st.cache_resource.clear()
    yield


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


def run_page(page: str, ann=None, *, timeout: float = 60):
    """Run ``pages/<page>.py`` with AppTest, with ``ann`` as the loaded data set (or none)."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "pages" / f"{page}.py"), default_timeout=timeout)
    if ann is not None:
        at.session_state["concord_annotations"] = ann
    at.run()
    return at
