"""The Data page parses an upload once, and lets the user choose the missing-value texts."""

from __future__ import annotations

from unittest import mock

from streamlit.testing.v1 import AppTest

import analytics.data.reading as reading
from tests.helpers.markup import shown
from tests.helpers.paths import ROOT

PAGE = str(ROOT / "pages" / "upload.py")
RELATIONS = (
    "item,annotator,label\n"
    + "".join(f"s{i},a,None\n" for i in range(30))
    + "".join(f"s{i},b,founded_by\n" for i in range(40))
    + "".join(f"s{i},c,born_in\n" for i in range(20))
).encode()


def uploaded(data: bytes, name: str) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.run()
    at.segmented_control(key="upload_mode").set_value("Upload a file").run()
    at.file_uploader(key="upload_file").set_value((name, data, "text/csv")).run()
    assert not at.exception
    return at


def test_an_upload_is_read_once_for_preview_description_and_load():
    calls = []
    real = reading.read_table

    def counting(source, *args, **kwargs):
        calls.append(getattr(source, "name", None))
        return real(source, *args, **kwargs)

    # a distinct content, so no cache entry from another test answers
    data = b"task,worker,answer\nq1,w1,yes\nq1,w2,no\nq2,w1,maybe\n"
    with (
        mock.patch("analytics.data.reading.read_table", counting),
        mock.patch("ui.loaders.read_table", counting),
    ):
        at = uploaded(data, "once.csv")
        assert {m.label: m.value for m in at.metric}["Judgements"] == "3"
        at.selectbox(key="map_dup_once.csv").set_value("first").run()  # a new load
    assert not at.exception and calls.count("once.csv") == 1


def test_the_missing_values_choice_keeps_a_category_called_none():
    at = uploaded(RELATIONS, "relations.csv")
    assert {m.label: m.value for m in at.metric}["Categories"] == "2"
    assert any("'None' was read as missing" in shown(w.value) for w in at.warning)
    box = at.text_input(key="map_missing_relations.csv")
    box.set_value("na, n/a, null").run()
    assert not at.exception and not at.error
    assert {m.label: m.value for m in at.metric}["Categories"] == "3"
    assert not any("read as missing" in shown(w.value) for w in at.warning)


def test_a_workbook_of_several_sheets_offers_them_and_reads_the_chosen_one():
    path = ROOT / "tests" / "data" / "hostile" / "xlsx" / "two_sheets.xlsx"
    at = uploaded(path.read_bytes(), "two_sheets.xlsx")
    picker = at.selectbox(key="upload_sheet_two_sheets.xlsx")
    assert len(picker.options) == 2
    assert not at.error, [e.value for e in at.error]
    first = {m.label: m.value for m in at.metric}["Judgements"]
    picker.set_value(picker.options[1]).run()
    assert not at.exception and not at.error
    assert "two_sheets.xlsx" in shown(at.subheader[0].value)
    second = {m.label: m.value for m in at.metric}["Judgements"]
    assert (first, second) == ("6", "4")  # Batch 1 and Batch 2 of the corpus file


def test_a_plain_file_has_no_sheet_picker():
    at = uploaded(b"item,annotator,label\nq1,a,x\nq1,b,y\n", "plain.csv")
    assert not [s for s in at.selectbox if s.key and s.key.startswith("upload_sheet_")]
