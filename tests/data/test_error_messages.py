"""AnnotationDataError: a message is one readable paragraph whatever the user's strings are."""

from __future__ import annotations

import io

import pytest

from analytics import AnnotationDataError, load_annotations
from analytics._core.errors import MAX_MESSAGE_CHARS, MAX_NAME_CHARS, show_text


def test_an_empty_or_blank_column_name_is_said_to_have_no_name():
    for blank in ("", "   "):
        message = str(AnnotationDataError("no labels.", source="a.csv", column=blank))
        assert message == "file 'a.csv', column (no name): no labels."


def test_control_characters_are_shown_escaped_and_the_message_is_one_line():
    err = AnnotationDataError(
        "label 'a\nb' is odd\r.",
        source="evil\n\x1b[31mname.csv",
        column="col\tumn\u202e",
        hint="fix\x00 it",
    )
    message = str(err)
    assert "\n" not in message and "\x1b" not in message and "\u202e" not in message
    assert message == (
        "file 'evil\\n\\x1b[31mname.csv', column 'col\\tumn\\u202e': "
        "label 'a\\nb' is odd\\r. fix\\x00 it"
    )
    # the attributes keep what was given
    assert err.source == "evil\n\x1b[31mname.csv" and err.column == "col\tumn\u202e"


def test_long_names_and_long_problems_are_cut_with_an_ellipsis():
    name = "n" * 5000 + ".csv"
    err = AnnotationDataError("p" * 5000, source=name, column="c" * 300, hint="h" * 5000)
    message = str(err)
    assert f"file '{'n' * (MAX_NAME_CHARS - 1)}…'" in message
    assert f"column '{'c' * (MAX_NAME_CHARS - 1)}…'" in message
    assert (
        message.count("p") == MAX_MESSAGE_CHARS - 1 and message.count("h") == MAX_MESSAGE_CHARS - 1
    )
    assert len(message) < 2 * MAX_MESSAGE_CHARS + 3 * MAX_NAME_CHARS


def test_show_text_quotes_escapes_and_cuts():
    assert show_text("label") == "'label'"
    assert show_text("it's") == '"it\'s"'
    assert show_text("\t") == "'\\t'"  # a tab is visible, not "no name"
    assert show_text(3) == "'3'"
    assert show_text("é日本") == "'é日本'"  # letters stay letters
    assert show_text("abcdef", limit=4) == "'abc…'"


def test_the_sheet_is_named_between_file_and_column():
    err = AnnotationDataError("bad.", source="w.xlsx", sheet="Data 2", column="label", rows=[4])
    assert str(err) == "file 'w.xlsx', sheet 'Data 2', column 'label', row 4: bad."
    assert err.sheet == "Data 2"


def test_a_hostile_file_name_reaches_the_loader_message_escaped():
    upload = io.BytesIO(b"label\nx\ny\n")
    upload.name = "a\nb.csv"
    with pytest.raises(AnnotationDataError) as info:
        load_annotations(upload)
    assert "\n" not in str(info.value) and "'a\\nb.csv'" in str(info.value)


def test_a_file_without_a_header_is_told_to_add_one(tmp_path):
    """act_MS as published has no header (worker, item, label, gold): its first row's two
    1s read 'the header names column '1' more than once', which sends a user to rename a
    column that is not there; the hint now says the first row looks like data."""
    from analytics import AnnotationDataError, load_annotations

    path = tmp_path / "MS.csv"
    path.write_text(
        "A12YUYYSIZ8GT2,country.00072.mp3,1,1\nA12YUYYSIZ8GT2,disco.00041.mp3,4,3\n",
        encoding="utf-8",
    )
    with pytest.raises(AnnotationDataError, match="more than once") as info:
        load_annotations(path)
    assert "first row looks like data" in str(info.value)
    assert "item, annotator, label" in str(info.value)
    # a real header with a repeated name keeps its own hint alone
    path.write_text("item,annotator,label,label\na,b,c,d\n", encoding="utf-8")
    with pytest.raises(AnnotationDataError) as named:
        load_annotations(path)
    assert "looks like data" not in str(named.value)


def test_kind_numeric_on_labels_that_are_not_all_numbers_names_them_and_their_rows():
    """The error named the file and column only: in a column of numbers with one 'inf'
    or 'n/a ' the user had to hunt for the cell."""
    text = "item,annotator,label\n1,a,1\n1,b,2\n2,a,1.5\n2,b,inf\n3,a,2.5\n3,b,1\n"
    with pytest.raises(AnnotationDataError) as info:
        load_annotations(io.BytesIO(text.encode()), format="csv", kind="numeric")
    message = str(info.value)
    assert "column 'label', row 5" in message and "'inf'" in message
    assert "not numbers" in message and "nominal or ordinal" in message
