"""The loaded data set lives in ``st.session_state`` and survives page switches."""

from __future__ import annotations

import streamlit as st

from analytics.data import Annotations

DATA_KEY = "concord_annotations"
SOURCE_KEY = "concord_source"
SAMPLE_KEY = "concord_sample"


def get_annotations() -> Annotations | None:
    """The loaded data set, or None."""
    return st.session_state.get(DATA_KEY)


def set_annotations(ann: Annotations) -> None:
    st.session_state[DATA_KEY] = ann


def require_annotations() -> Annotations:
    """The loaded data set; without one, say how to load one and stop the page."""
    ann = get_annotations()
    if ann is None:
        st.info("No data set is loaded yet. Open **Upload** in the sidebar to load one.")
        st.stop()
    return ann


def set_source(description: str, *, sample: str | None = None) -> None:
    """Where the loaded data set came from, for display; ``sample`` is the bundled sample's key."""
    st.session_state[SOURCE_KEY] = description
    st.session_state[SAMPLE_KEY] = sample


def get_source() -> str | None:
    return st.session_state.get(SOURCE_KEY)


def get_sample_key() -> str | None:
    """The key of the bundled sample that is loaded (in ``analytics.data.SAMPLES``), or None."""
    return st.session_state.get(SAMPLE_KEY)
