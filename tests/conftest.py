"""Shared fixtures: strict loader errors and fresh Streamlit caches for every test.

Builders, published reference data and paths live in :mod:`tests.helpers`.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

# The test command gives the same verdict on every run: hypothesis draws its examples from
# a fixed seed (HYPOTHESIS_PROFILE=explore draws fresh ones, to hunt for new failures).
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

# An unexpected exception inside the loader must fail a test, not be dressed up as an
# AnnotationDataError (the safety net users get): see analytics.data.loading.load_annotations.
os.environ.setdefault("CONCORD_STRICT_ERRORS", "1")


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
