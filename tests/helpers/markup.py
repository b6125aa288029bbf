"""Hostile names and a reading of Markdown source back to the text it shows.

AppTest hands back the Markdown source of an element, not what the browser shows.
:func:`shown` undoes what CommonMark undoes (backslash escapes, numeric character
references) and drops the invisible word joiner ``ui.text.md`` puts into would-be links;
:func:`is_literal` says whether a source shows a string with none of its characters
starting markup.
"""

from __future__ import annotations

import io
import re
import string

import pandas as pd

# A file name, categories, annotators and an item that each try one kind of markup.
HOSTILE_FILE = "[win a prize](mailto:x@y.z) :red[URGENT] $x^2$.csv"
HOSTILE_CATEGORIES = [
    "![x](https://example.com/p.png)",
    "<b>bold</b>",
    ":material/home:",
    "www.example.com & <a href='https://example.com'>link</a>",
]
HOSTILE_ANNOTATORS = ["*star*", "_under_", "# hash", ":smile: `tick`", "=cmd|' /C calc'!A0"]
HOSTILE_ITEM = "<span style='color:red'>item</span> $$\\int$$"

#: The invisible character ``ui.text.md`` puts into would-be links (U+2060).
WORD_JOINER = "\u2060"
_PUNCTUATION = set(string.punctuation)
_ESCAPE = re.compile(r"\\([" + re.escape(string.punctuation) + "])")
_ESCAPE_OR_REFERENCE = re.compile(r"\\([" + re.escape(string.punctuation) + r"])|&#(\d+);")
_AUTOLINK = re.compile(r"(?i)https?://|www\.|[\w.+-]@[\w-]")


def shown(source: str) -> str:
    """The text a Markdown source shows: escapes and references undone, joiners dropped."""
    return _ESCAPE_OR_REFERENCE.sub(
        lambda m: m.group(1) or chr(int(m.group(2))), source.replace(WORD_JOINER, "")
    )


def escaped(literal: str) -> re.Pattern:
    """``literal`` as Markdown in which no character is active.

    Every ASCII punctuation character backslash-escaped, spaces plain or as character
    references, line breaks as spaces, and any character optionally followed by a word joiner.
    """
    pieces = []
    for char in literal:
        if char in _PUNCTUATION:
            piece = re.escape("\\" + char)
        elif char in "\r\n\t ":
            piece = r"(?:\s|&#\d+;)"
        else:
            piece = re.escape(char)
        pieces.append(piece + "\u2060?")
    return re.compile("\u2060?" + "".join(pieces))


def is_literal(source: str, literal: str) -> bool:
    """Whether ``source`` shows ``literal`` with none of its characters active.

    The literal appears escaped (:func:`escaped`), and once the escapes are read no part
    of it looks like a link to GitHub's autolinking (a word joiner breaks ``://``,
    ``www.`` and ``@``).
    """
    match = escaped(literal).search(source)
    if match is None:
        return False
    return _AUTOLINK.search(_ESCAPE.sub(r"\1", match.group())) is None


def hostile_frame(multilabel: bool = False) -> pd.DataFrame:
    """A long table of judgements where every item, annotator and category is hostile.

    Twelve items (the first is :data:`HOSTILE_ITEM`), the five :data:`HOSTILE_ANNOTATORS`
    each judging every item, labels from :data:`HOSTILE_CATEGORIES` with enough
    disagreement that every statistic is defined; multi-label sets are joined with ";".
    """
    items = [HOSTILE_ITEM, *(f"i{k}" for k in range(1, 12))]
    cats = HOSTILE_CATEGORIES
    rows = []
    for i, item in enumerate(items):
        for j, annotator in enumerate(HOSTILE_ANNOTATORS):
            first = cats[(i + (j * i) % 3) % len(cats)]
            label = f"{first};{cats[(i + j) % len(cats)]}" if multilabel and j % 2 else first
            rows.append((item, annotator, label))
    return pd.DataFrame(rows, columns=["item", "annotator", "label"])


def hostile_file(multilabel: bool = False) -> io.BytesIO:
    """:func:`hostile_frame` as a CSV upload named :data:`HOSTILE_FILE`."""
    buffer = io.BytesIO(hostile_frame(multilabel).to_csv(index=False).encode("utf-8"))
    buffer.name = HOSTILE_FILE
    return buffer


def hostile_annotations(multilabel: bool = False):
    """:func:`hostile_file` loaded (``multilabel_sep`` given, so nothing is guessed)."""
    from analytics import load_annotations

    return load_annotations(hostile_file(multilabel), multilabel_sep=";" if multilabel else "")


def failures(at) -> list[str]:
    """The red boxes that report a failure: every ``st.error`` except a "Bad." verdict.

    A result judged bad (``ui.severity.show_verdict``) is shown in red on purpose.
    """
    return [e.value for e in at.error if not e.value.startswith("**Bad.**")]
