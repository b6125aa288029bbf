"""Shared fixtures: strict loader errors and fresh Streamlit caches for every test.

Builders, published reference data and paths live in :mod:`tests.helpers`.
"""

from __future__ import annotations

import os

import pytest

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
