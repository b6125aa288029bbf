"""ui.text.md: any string becomes Markdown that Streamlit shows as exactly that string."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers.markup import (
    HOSTILE_ANNOTATORS,
    HOSTILE_CATEGORIES,
    HOSTILE_FILE,
    HOSTILE_ITEM,
    is_literal,
    shown,
)
from ui.text import WORD_JOINER, md, md_lines

HOSTILE = [HOSTILE_FILE, *HOSTILE_CATEGORIES, *HOSTILE_ANNOTATORS, HOSTILE_ITEM]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_names_show_literally(text):
    source = md(text)
    assert shown(source) == text
    assert is_literal(source, text)
    assert is_literal(f"**{source}**", text) and is_literal(f"- {source}", text)


def test_every_markup_character_is_escaped():
    source = md(string.punctuation)
    assert source.replace(WORD_JOINER, "") == "".join("\\" + c for c in string.punctuation)
    assert shown(source) == string.punctuation


@pytest.mark.parametrize(
    ("text", "broken"),
    [
        ("see https://example.com now", "https\\:" + WORD_JOINER + "\\/\\/"),
        ("see HTTP://example.com now", "HTTP\\:" + WORD_JOINER + "\\/\\/"),
        ("www.example.com", "www" + WORD_JOINER + "\\."),
        ("WWW.example.com", "WWW" + WORD_JOINER + "\\."),
        ("mail x@y.z", "x\\@" + WORD_JOINER + "y"),
    ],
)
def test_would_be_links_are_broken_by_an_invisible_joiner(text, broken):
    """GitHub autolinks are found after escapes are read: escaping alone leaves a link."""
    assert broken in md(text)
    assert shown(md(text)) == text and is_literal(md(text), text)


def test_line_breaks_become_spaces_and_edge_spaces_survive_emphasis():
    assert shown(md("a\nb\r\nc\rd")) == "a b c d"
    source = md("  padded\t")
    assert source == "&#32;&#32;padded&#9;"
    assert shown(source) == "  padded\t"


def test_a_character_reference_in_the_text_stays_text():
    assert shown(md("&#32; &amp;")) == "&#32; &amp;"


def test_values_are_shown_as_their_text():
    assert md(3) == "3" and md(-1.5) == "\\-1\\.5" and md(None) == "None"


def test_a_list_of_sentences():
    lines = ["1. first", "# second", "*third*"]
    source = md_lines(lines)
    assert source.splitlines() == [f"- {md(line)}" for line in lines]
    assert [shown(line[2:]) for line in source.splitlines()] == lines


# any text but line breaks (shown as spaces) and the word joiner itself (shown() drops it)
@settings(deadline=None)  # timings vary on a shared machine
@given(st.text(alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\r\n\u2060")))
def test_any_text_round_trips(text):
    source = md(text)
    assert shown(source) == text
    assert is_literal(source, text)
