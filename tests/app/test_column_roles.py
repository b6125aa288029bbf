"""Column roles on the Data page, and a notes column set aside in one click (issue 17, point 3)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.helpers.markup import is_literal, shown
from tests.helpers.paths import ROOT
from ui.columns import column_roles

PAGE = str(ROOT / "pages" / "upload.py")
NOTES = (
    b"item,ann1,ann2,ann3,Notes\n"
    b"q1,yes,yes,no,looks fine to me\n"
    b"q2,no,no,no,ask Sam again\n"
    b"q3,yes,no,yes,second pass needed\n"
    b"q4,no,yes,no,check later please\n"
)


def uploaded(data: bytes, name: str = "wide.csv") -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.run()
    at.segmented_control(key="upload_mode").set_value("Upload a file").run()
    at.file_uploader(key="upload_file").set_value((name, data, "text/csv")).run()
    assert not at.exception
    return at


def roles(at: AppTest) -> dict[str, str]:
    table = next(
        d.value for d in at.dataframe if list(d.value.columns) == ["column", "role", "note"]
    )
    return dict(zip(table["column"], table["role"], strict=True))


def test_a_notes_column_is_flagged_and_one_click_sets_it_aside():
    at = uploaded(NOTES)
    assert at.session_state["concord_annotations"].n_annotators == 4
    assert any("free text" in shown(w.value) for w in at.warning)
    assert roles(at)["Notes"] == "annotator (wide form)"
    button = next(b for b in at.button if "Ignore column 'Notes'" in shown(b.label))
    button.click().run()
    assert not at.exception
    ann = at.session_state["concord_annotations"]
    assert list(ann.annotators) == ["ann1", "ann2", "ann3"]
    assert roles(at)["Notes"] == "ignored (your choice)"
    assert not any("free text" in shown(w.value) for w in at.warning)


def test_a_notes_column_named_in_markdown_is_named_literally_on_its_button():
    # A button label is Markdown: the column's name must not turn red or into a link.
    name = "notes :red[z] [l](http://a)"
    data = NOTES.replace(b"Notes", name.encode())
    at = uploaded(data)
    button = next(b for b in at.button if "Ignore column" in b.label)
    assert shown(button.label) == f"Ignore column {name!r} and load again"
    assert is_literal(button.label, name), button.label
    button.click().run()
    assert not at.exception
    assert list(at.session_state["concord_annotations"].annotators) == ["ann1", "ann2", "ann3"]


def test_long_form_roles_name_every_column():
    at = uploaded(b"task,worker,answer,when\nt1,w1,yes,mon\nt1,w2,no,tue\nt2,w1,yes,mon\n", "l.csv")
    assert roles(at) == {
        "task": "item",
        "worker": "annotator",
        "answer": "label",
        "when": "not used",
    }


def test_column_roles_table():
    table = column_roles(
        ["id", "a", "b", "Notes", "ts"],
        {"item": "id", "annotators": ["a", "b", "Notes"]},
        ignored=["ts"],
        free_text=["Notes"],
    )
    assert table.to_dict("list") == {
        "column": ["id", "a", "b", "Notes", "ts"],
        "role": ["item", *["annotator (wide form)"] * 3, "ignored (your choice)"],
        "note": ["", "", "", "looks like free text, not labels", ""],
    }
    # a wide column with no label at all is no annotator: the table agrees with the caution
    empty = column_roles(
        ["id", "a", "b"], {"item": "id", "annotators": ["a", "b"]}, annotators=["a"]
    )
    assert empty["role"].tolist() == ["item", "annotator (wide form)", "not used"]
    assert empty["note"].iloc[2] == "holds no label at all: not an annotator"


def test_a_tool_export_shows_no_column_roles_but_says_which_importer_read_it():
    """A review saw a Label Studio JSON's id, data and annotations listed as "not used",
    though its 120 judgements came from them: a tool export's fields are the importer's."""
    from tests.helpers.paths import FIXTURES

    at = uploaded((FIXTURES / "label_studio_export.json").read_bytes(), "project.json")
    assert at.session_state["concord_annotations"].report.tool == "Label Studio"
    assert not any(list(d.value.columns) == ["column", "role", "note"] for d in at.dataframe)
    assert any("Read as a Label Studio export" in shown(c.value) for c in at.caption)


def test_a_category_order_typed_on_the_data_page_is_the_loaded_order():
    """The Agreement page said to declare an order for ordinal distances; the Data page
    had no way to do it."""
    data = b"item,annotator,label\n" + b"".join(
        f"i{i},{w},{lab}\n".encode()
        for i, labs in enumerate([("pos", "neu"), ("neg", "neg"), ("neu", "pos")])
        for w, lab in zip(("a", "b"), labs, strict=True)
    )
    at = uploaded(data, "order.csv")
    assert list(at.session_state["concord_annotations"].categories) == ["pos", "neu", "neg"]
    at.text_input(key="map_order_order.csv").set_value(" neg, neu ,pos").run()
    assert not at.exception
    ann = at.session_state["concord_annotations"]
    assert list(ann.categories) == ["neg", "neu", "pos"]
    from analytics.agreement import distance_options

    assert "ordinal" in distance_options(ann)
    at.text_input(key="map_order_order.csv").set_value("neg, pos").run()  # neu left out
    assert not at.exception and at.error  # labels outside the declared categories
