"""Clicking the Data page's selected source segment again changes nothing.

A second click on a selected ``st.segmented_control`` segment deselects it (the widget then
returns None); the page once read None as "Sample data set" and threw the user's upload away
for the sample. AppTest sends that None as a browser would.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.test_sidebar_truth import CSV, run_frame, sidebar_text
from tests.helpers.markup import shown
from tests.helpers.paths import ROOT

PAGE = str(ROOT / "pages" / "upload.py")
APP = str(ROOT / "app.py")
UPLOAD = "Upload a file"
SAMPLE = "Sample data set"


def uploaded_page() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.run()
    at.segmented_control(key="upload_mode").set_value(UPLOAD).run()
    at.file_uploader(key="upload_file").set_value(("mine.csv", CSV, "text/csv")).run()
    assert not at.exception and not at.error
    assert at.session_state["concord_annotations"].name == "mine.csv"
    return at


def assert_upload_kept(at: AppTest) -> None:
    assert not at.exception and not at.error
    assert at.session_state["concord_annotations"].name == "mine.csv"
    assert at.session_state["concord_source"] == "file: mine.csv"
    assert at.segmented_control(key="upload_mode").value == UPLOAD
    assert not [s for s in at.selectbox if s.key == "upload_sample"]  # no sample picker
    assert "mine.csv" in shown(at.subheader[0].value)


def test_clicking_the_selected_upload_segment_keeps_the_upload():
    at = uploaded_page()
    at.segmented_control(key="upload_mode").set_value(None).run()  # the second click
    assert_upload_kept(at)
    at.segmented_control(key="upload_mode").set_value(None).run()  # and once more
    assert_upload_kept(at)


def test_choosing_the_sample_on_purpose_after_a_deselect_still_loads_it():
    at = uploaded_page()
    at.segmented_control(key="upload_mode").set_value(None).run()
    at.segmented_control(key="upload_mode").set_value(SAMPLE).run()
    assert not at.exception and not at.error
    assert at.session_state["concord_source"].startswith("sample:")
    assert at.selectbox(key="upload_sample") is not None


def test_clicking_the_selected_sample_segment_keeps_the_sample():
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.run()
    source = at.session_state["concord_source"]
    at.segmented_control(key="upload_mode").set_value(None).run()
    assert not at.exception and not at.error
    assert at.segmented_control(key="upload_mode").value == SAMPLE
    assert at.session_state["concord_source"] == source
    assert at.selectbox(key="upload_sample") is not None


def test_clicking_upload_again_before_dropping_a_file_stays_on_upload():
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.run()
    source = at.session_state["concord_source"]
    at.segmented_control(key="upload_mode").set_value(UPLOAD).run()
    at.segmented_control(key="upload_mode").set_value(None).run()
    assert not at.exception and not at.error
    assert at.segmented_control(key="upload_mode").value == UPLOAD
    assert [u for u in at.get("file_uploader") if u.key == "upload_file"]
    assert at.session_state["concord_source"] == source


def test_after_visiting_another_page_the_deselect_keeps_the_upload():
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.segmented_control(key="upload_mode").set_value(UPLOAD)
    run_frame(at)
    at.file_uploader(key="upload_file").set_value(("mine.csv", CSV, "text/csv"))
    run_frame(at)
    assert not at.exception and not at.error
    at.switch_page("pages/overview.py").run()
    assert not at.exception
    at.switch_page("pages/upload.py").run()
    assert not at.exception
    assert at.segmented_control(key="upload_mode").value == UPLOAD
    at.segmented_control(key="upload_mode").set_value(None)
    at._page_hash = ""  # switch_page's request would otherwise stay: run the frame again
    run_frame(at)
    assert not at.exception and not at.error
    assert at.session_state["concord_annotations"].name == "mine.csv"
    assert at.segmented_control(key="upload_mode").value == UPLOAD
    text = sidebar_text(at)
    assert "mine.csv" in text and "crowd_intents" not in text, text
