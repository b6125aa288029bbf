"""The sidebar never lies after an upload, and a reload keeps the upload (issue 17, point 1)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers.markup import shown
from tests.helpers.paths import ROOT

APP = str(ROOT / "app.py")
CSV = b"task,worker,answer\nt1,w1,yes\nt1,w2,no\nt2,w1,yes\nt2,w2,yes\nt3,w1,no\nt3,w2,no\n"


def run_frame(at: AppTest) -> AppTest:
    """Run through app.py (the frame that draws the sidebar), staying on the Data page.

    After its first run AppTest reruns only the page a multipage app finished on, never
    the entry point, so its sidebar would be empty; forgetting that page makes it run the
    entry point (whose default page is the Data page), as a browser does on every rerun.
    """
    at._finished_page_script_hash = ""
    return at.run()


def sidebar_text(at: AppTest) -> str:
    return " ".join(shown(m.value) for m in at.sidebar.markdown) + " ".join(
        shown(c.value) for c in at.sidebar.caption
    )


@pytest.fixture
def uploaded() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.segmented_control(key="upload_mode").set_value("Upload a file")
    run_frame(at)
    at.file_uploader(key="upload_file").set_value(("mine.csv", CSV, "text/csv"))
    run_frame(at)
    assert not at.exception and not at.error
    return at


def test_the_sidebar_names_the_upload_in_the_same_run(uploaded):
    text = sidebar_text(uploaded)
    assert "mine.csv" in text and "crowd_intents" not in text
    assert "3 items" in text and "2 annotators" in text


def test_the_url_names_the_upload_and_a_new_session_restores_it(uploaded):
    fingerprint = uploaded.session_state["concord_annotations"].fingerprint
    assert uploaded.query_params["data"] == fingerprint
    fresh = AppTest.from_file(APP, default_timeout=120)
    fresh.query_params["data"] = fingerprint
    fresh.run()
    assert not fresh.exception
    assert fresh.session_state["concord_annotations"].fingerprint == fingerprint
    assert "mine.csv" in sidebar_text(fresh)


def test_an_unknown_fingerprint_falls_back_to_the_sample():
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["data"] = "0" * 24
    at.run()
    assert not at.exception
    assert "crowd_intents.csv" in sidebar_text(at)
    assert "data" not in at.query_params


def test_choosing_a_sample_again_drops_the_url_name(uploaded):
    uploaded.segmented_control(key="upload_mode").set_value("Sample data set")
    run_frame(uploaded)
    assert not uploaded.exception
    assert "data" not in uploaded.query_params
    assert "mine.csv" not in sidebar_text(uploaded)


def test_the_sidebar_follows_the_same_content_under_a_new_name():
    # the sample's own bytes renamed: the fingerprint (content) is the same, the name is not
    from analytics.data import DEFAULT_SAMPLE, SAMPLES

    data = SAMPLES[DEFAULT_SAMPLE].path.read_bytes()
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    before = at.session_state["concord_annotations"]
    at.segmented_control(key="upload_mode").set_value("Upload a file")
    run_frame(at)
    at.file_uploader(key="upload_file").set_value(("copy.csv", data, "text/csv"))
    run_frame(at)
    assert not at.exception and not at.error
    now = at.session_state["concord_annotations"]
    assert now.fingerprint == before.fingerprint and now.name == "copy.csv"
    assert "copy.csv" in shown(at.subheader[0].value)
    text = sidebar_text(at)
    assert "copy.csv" in text and before.name not in text, text
