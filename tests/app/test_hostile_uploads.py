"""Hostile files uploaded to the Data page: a plain st.error, no exception, literal text.

Each upload goes through the page's own ``st.file_uploader`` (AppTest sets its value),
so preview, tool description and load all see it as a person's upload would. A
representative set of the corpus (tests/data/hostile/, one or more per format and tool
export) keeps the runtime down; the bombs are left to the corpus tests, which run them in
a capped child process (the page has no limits= to shrink them to a test's size).
"""

from __future__ import annotations

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from analytics import load_annotations
from tests.helpers.hostile import (
    WRAPPED_EXCEPTION,
    Case,
    case,
    markdown_visible,
    shows_literally,
)
from tests.helpers.paths import ROOT

PAGE = str(ROOT / "pages" / "upload.py")

REFUSED = [
    "csv/ragged_rows.csv",
    "csv/unclosed_quote.csv",
    "csv/empty_header_name.csv",
    "csv/nul_bytes.csv",
    "csv/duplicate_judgements.csv",
    "json/empty_record.json",
    "json/deep_nesting.json",
    "json/wide_dict_cells.json",
    "json/number_5000_digits.json",
    "jsonl/bad_line_middle.jsonl",
    "xlsx/duplicate_header.xlsx",
    "xlsx/corrupt_zip.xlsx",
    "xlsx/old_xls_bytes.xlsx",
    "parquet/list_ids.parquet",
    "parquet/corrupt_footer.parquet",
    "tools/ls_result_5.json",
    "tools/ls_completed_by_list.json",
    "tools/prodigy_input_hash_dict.jsonl",
    "tools/toloka_nested.tsv",
]
LOADED = [
    "csv/hostile_name.csv",
    "csv/markdown_names.csv",
    "csv/formula_label.csv",
    "csv/utf16le_bom.tsv",
    "tools/ls_json_min.json",
]


BEFORE = "before.csv"


def upload(case_id: str, outcome: str) -> tuple[Case, AppTest]:
    """The case, and the Data page after a person uploads its file under its name.

    A small data set is loaded first (as if uploaded earlier), so the page opens in upload
    mode without loading a sample, and a refused upload must leave it in place. No upload
    may raise an exception on the page.
    """
    c = case(case_id)
    assert c.outcome == outcome
    before = pd.DataFrame({"item": ["q1", "q1"], "annotator": ["a", "b"], "label": ["x", "y"]})
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state["concord_annotations"] = load_annotations(before, name=BEFORE)
    at.run()
    assert at.segmented_control(key="upload_mode").value == "Upload a file"
    data = c.path.read_bytes()
    at.file_uploader(key="upload_file").set_value((c.name, data, "application/octet-stream"))
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return c, at


def shown_markdown(at: AppTest) -> list[str]:
    """The Markdown source of every element that renders Markdown."""
    groups = (
        at.title,
        at.header,
        at.subheader,
        at.markdown,
        at.caption,
        at.error,
        at.warning,
        at.info,
        at.success,
    )
    return [str(e.value) for g in groups for e in g]


@pytest.mark.parametrize("case_id", REFUSED)
def test_a_malformed_upload_shows_a_plain_error_naming_the_file(case_id):
    c, at = upload(case_id, "error")
    errors = [markdown_visible(e.value) for e in at.error]
    named = [e for e in errors if c.name in e]
    assert named, f"no st.error names {c.name!r}: {errors}"
    for text in named:
        assert WRAPPED_EXCEPTION.search(text) is None, text
        assert "Traceback" not in text
    # the data set loaded before stays loaded: a bad upload replaces nothing
    assert [BEFORE in markdown_visible(s.value) for s in at.subheader] == [True]
    # and the page says so, so the old data set is not taken for the refused file
    infos = [markdown_visible(i.value) for i in at.info]
    assert any("not loaded: still showing" in i and BEFORE in i for i in infos), infos


@pytest.mark.parametrize("case_id", LOADED)
def test_a_hostile_but_valid_upload_loads_without_an_error(case_id):
    c, at = upload(case_id, "load")
    assert not at.error, [e.value for e in at.error]
    shown = [markdown_visible(s.value) for s in at.subheader]
    assert any(c.name in s for s in shown), shown
    judgements = {m.label: m.value for m in at.metric}["Judgements"]
    assert judgements == f"{c.expect['n_judgements']:,}"


def test_a_file_name_full_of_markdown_is_shown_literally():
    c, at = upload("csv/hostile_name.csv", "load")
    assert any(ch in c.name for ch in "[]$")  # the case is hostile
    sources = [s for s in shown_markdown(at) if c.name in markdown_visible(s)]
    assert sources, "the page never shows the file's name"
    for source in sources:
        assert shows_literally(source, c.name), source


def test_category_names_full_of_markdown_are_shown_literally():
    c, at = upload("csv/markdown_names.csv", "load")
    for category in c.expect["categories"]:
        sources = [s for s in shown_markdown(at) if category in markdown_visible(s)]
        assert sources, f"the page never shows the category {category!r}"
        for source in sources:
            assert shows_literally(source, category), (category, source)


def test_a_label_studio_json_min_upload_says_which_tool_and_export():
    _, at = upload("tools/ls_json_min.json", "load")
    said = " ".join(markdown_visible(s) for s in shown_markdown(at))
    assert "Label Studio" in said
    assert "JSON-MIN" in said.upper().replace("_", "-").replace("JSON MIN", "JSON-MIN")


def test_the_literal_check_tells_escaped_from_raw_markdown():
    name = "[win](mailto:x@y.z) :red[hi] $x^2$.csv"
    assert not shows_literally(f"Loaded: {name}", name)
    escaped = "".join("\\" + ch if ch in "[]()$:" else ch for ch in name)
    assert shows_literally(f"Loaded: {escaped}", name)
    assert shows_literally(f"Loaded: `{name}`", name)
    assert shows_literally("Loaded: &#91;win&#93;(x)", "[win](x)")
    assert not shows_literally("Loaded: something else", name)
