"""Hostile names on every page: a file, categories, annotators and an item that are Markdown,
Streamlit directives, LaTeX and HTML are shown as literal text, never as markup.

AppTest gives each element's Markdown source; a source shows a name literally when the
name appears in it with every punctuation character escaped and no would-be link
(tests.helpers.markup.is_literal). The browser test (test_browser.py) checks the DOM.
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers.app import run_page
from tests.helpers.markup import (
    HOSTILE_ANNOTATORS,
    HOSTILE_CATEGORIES,
    HOSTILE_FILE,
    HOSTILE_ITEM,
    hostile_annotations,
    is_literal,
    shown,
)
from tests.helpers.paths import ROOT

NAMES = [HOSTILE_FILE, *HOSTILE_CATEGORIES, *HOSTILE_ANNOTATORS, HOSTILE_ITEM]
TEXT_ELEMENTS = ("markdown", "caption", "error", "warning", "info", "success", "title")
TEXT_ELEMENTS += ("header", "subheader", "toast")
LABELLED = ("metric", "expander", "tab", "radio", "segmented_control", "button", "checkbox")


def sources(at) -> list[str]:
    """The Markdown source of every element that renders Markdown, main area and sidebar."""
    out = []
    for root in (at, at.sidebar):
        for kind in TEXT_ELEMENTS:
            out += [e.value for e in root.get(kind)]
        for kind in LABELLED:
            out += [e.label for e in root.get(kind) if getattr(e, "label", None)]
        for kind in ("radio", "segmented_control"):  # options render Markdown too
            out += [str(o) for e in root.get(kind) for o in (getattr(e, "options", None) or [])]
    return [s for s in out if isinstance(s, str)]


def check_literal(at) -> set[str]:
    """Every name an element shows is shown literally; returns the names that were shown."""
    assert not at.exception, [e.value for e in at.exception]
    seen = set()
    for source in sources(at):
        for name in NAMES:
            if name in shown(source) or name in source:
                assert is_literal(source, name), (name, source)
                seen.add(name)
    return seen


@pytest.fixture(scope="module")
def single():
    return hostile_annotations()


@pytest.fixture(scope="module")
def multi():
    return hostile_annotations(multilabel=True)


def test_the_sidebar_shows_the_file_name_literally(single):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["concord_annotations"] = single
    at.session_state["concord_started"] = True
    at.run()  # the Data page opens; the sidebar is app.py's
    assert any(is_literal(m.value, HOSTILE_FILE) for m in at.sidebar.markdown)
    for source in (e.value for kind in TEXT_ELEMENTS for e in at.sidebar.get(kind)):
        for name in NAMES:
            assert name not in shown(source) or is_literal(source, name), (name, source)


def test_agreement_page(single):
    at = run_page("agreement", single)
    check_literal(at)


def test_multilabel_page_on_single_label_data_names_the_file_literally(single):
    at = run_page("multilabel", single)
    assert HOSTILE_FILE in check_literal(at)


def test_multilabel_page(multi):
    at = run_page("multilabel", multi)
    seen = check_literal(at)
    # the lowest pair names two annotators
    assert len(seen & set(HOSTILE_ANNOTATORS)) >= 2, seen


def test_noise_page(single):
    at = run_page("noise", single)
    assert HOSTILE_FILE in check_literal(at)


def test_gold_labels_item_browser_names_the_item_literally(single):
    at = run_page("gold_labels", single, timeout=120)
    at.segmented_control(key="gl_section").set_value("Item browser").run()
    at.slider(key="gl_below").set_value(1.0).run()
    at.selectbox(key="gl_item").set_value(HOSTILE_ITEM).run()
    assert HOSTILE_ITEM in check_literal(at)


def test_an_error_quoting_a_hostile_file_name_is_literal(single):
    at = run_page("gold_labels", single, timeout=120)
    gold_name = "[gold](mailto:x@y.z) :red[x] $y$.csv"  # no "/": a path is cut to its base
    at.file_uploader(key="gl_gold").set_value((gold_name, b"item,label\n", "text/csv")).run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert any(gold_name in shown(e) for e in errors), errors
    assert all(is_literal(e, gold_name) for e in errors if gold_name in shown(e))


def test_gold_labels_page(single):
    at = run_page("gold_labels", single, timeout=120)
    check_literal(at)
    for section in (
        "Annotators",
        "Prevalence and confidence",
        "Where models disagree",
        "Fit details",
        "Model uncertainty",
    ):
        at.segmented_control(key="gl_section").set_value(section).run()
        check_literal(at)
    at.toggle(key="gl_boot").set_value(True).run()
    check_literal(at)
    at.segmented_control(key="gl_section").set_value("Annotators").run()
    at.segmented_control(key="gl_pick").set_value("chosen").run()
    check_literal(at)


def test_export_page(single):
    at = run_page("export", single)
    assert HOSTILE_FILE in check_literal(at)


# The Data page's Markdown sites (the subheader, captions, alerts, the load report, the
# "Ignore column" button) all go through ui.text.md.
def test_data_page_upload_of_a_hostile_file(tmp_path):
    from tests.helpers.markup import hostile_file

    at = AppTest.from_file(str(ROOT / "pages" / "upload.py"), default_timeout=60)
    at.run()
    at.segmented_control(key="upload_mode").set_value("Upload a file").run()
    upload = (HOSTILE_FILE, hostile_file().getvalue(), "text/csv")
    at.file_uploader(key="upload_file").set_value(upload).run()
    seen = check_literal(at)
    assert {HOSTILE_FILE, *HOSTILE_CATEGORIES} <= seen, seen
