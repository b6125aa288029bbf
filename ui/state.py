"""The loaded data set lives in ``st.session_state`` and survives page switches.

An uploaded data set also survives a reload of the tab: the server keeps the last few
uploads in memory and the URL names the loaded one by its fingerprint (``?data=...``).
"""

from __future__ import annotations

from collections import OrderedDict

import pandas as pd
import streamlit as st

from analytics import format_count
from analytics.data import SAMPLES, Annotations, sample_truth
from analytics.dawid_skene import gold_within

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


def sample_gold(ann: Annotations) -> tuple[str, pd.Series | None]:
    """The true labels of the loaded bundled sample, when it has them and is what ``ann``
    is: a cache key ("sample:<key>", or "" when none) and the labels (item -> label)."""
    key = get_sample_key()
    sample = SAMPLES.get(key)
    if sample and sample.truth and ann.name == sample.file:
        return f"sample:{key}", _sample_truth(key)
    return "", None


@st.cache_data(max_entries=4, show_spinner=False)
def _sample_truth(key: str) -> pd.Series | None:
    """The sample's truth file, read once per server (the pages ask on every rerun)."""
    return sample_truth(key)


# --- gold labels the user gave on the Gold labels page ---------------------------------
GOLD_KEY = "concord_gold"
#: The Gold labels page's "use the sample's true labels" choice (on by default), kept
#: apart from the box's own key, which Streamlit forgets when the page is left.
SAMPLE_TRUTH_KEY = "concord_use_sample_truth"


def remember_gold(ann: Annotations, name: str, digest: str, labels: pd.Series) -> None:
    """Keep an uploaded gold file for this data set, for every page, until the data change."""
    st.session_state[GOLD_KEY] = (ann.fingerprint, name, digest, labels)


def forget_gold() -> None:
    st.session_state.pop(GOLD_KEY, None)


def uploaded_gold(ann: Annotations) -> tuple[str, str, pd.Series] | None:
    """The gold file uploaded for this data set: (file name, digest, labels), or None."""
    kept = st.session_state.get(GOLD_KEY)
    if kept is None or kept[0] != ann.fingerprint:
        return None
    return kept[1], kept[2], kept[3]


def known_gold(ann: Annotations) -> tuple[str, pd.Series | None, str]:
    """The true labels every page evaluates against: an uploaded gold file, else the
    bundled sample's (unless unticked on the Gold labels page); (cache key, labels, what)."""
    upload = uploaded_gold(ann)
    if upload is not None:
        name, digest, labels = upload
        # a gold file may cover more items than the data: every page uses the overlap
        kept, outside = gold_within(labels, ann.items)
        if outside and len(kept):  # none inside: kept whole, so the pages' errors say so
            left = format_count(outside, "label")
            return (
                f"upload:{digest}",
                kept,
                f"your gold labels ({name}; {left} for items not in this data set left out)",
            )
        return f"upload:{digest}", labels, f"your gold labels ({name})"
    key, truth = sample_gold(ann)
    if truth is not None and st.session_state.get(SAMPLE_TRUTH_KEY, True):
        return key, truth, "the sample's known true labels"
    return "", None, ""


# --- keeping an upload across a reload of the tab ---------------------------------------
#: The URL query parameter that names the uploaded data set (its content fingerprint).
URL_KEY = "data"
#: How many uploads the server keeps in memory for reloads (oldest dropped first).
KEPT_UPLOADS = 4


@st.cache_resource(show_spinner=False)
def _kept_uploads() -> OrderedDict[str, tuple[Annotations, str]]:
    """The server's recently uploaded data sets, by fingerprint (shared by sessions)."""
    return OrderedDict()


def keep_for_reload(ann: Annotations, description: str) -> None:
    """Remember an uploaded data set so that reloading the tab shows it again.

    The data stay in the server's memory (the last :data:`KEPT_UPLOADS` uploads); the
    page's URL carries only the content fingerprint (``?data=...``).
    """
    kept = _kept_uploads()
    kept[ann.fingerprint] = (ann, description)
    kept.move_to_end(ann.fingerprint)
    while len(kept) > KEPT_UPLOADS:
        kept.popitem(last=False)
    st.query_params[URL_KEY] = ann.fingerprint


def restore_kept() -> bool:
    """On a new session, load the upload the URL names if the server still has it."""
    fingerprint = st.query_params.get(URL_KEY)
    found = _kept_uploads().get(fingerprint) if fingerprint else None
    if found is None:
        return False
    ann, description = found
    set_annotations(ann)
    set_source(description)
    return True


def sync_url() -> None:
    """Keep ``?data=`` in the URL exactly while a kept upload is the loaded data set."""
    ann = get_annotations()
    kept = ann is not None and ann.fingerprint in _kept_uploads() and get_sample_key() is None
    if kept:
        if st.query_params.get(URL_KEY) != ann.fingerprint:
            st.query_params[URL_KEY] = ann.fingerprint
    elif URL_KEY in st.query_params:
        del st.query_params[URL_KEY]
