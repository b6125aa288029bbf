"""User strings shown through Streamlit's Markdown, as plain text.

Streamlit renders Markdown (and its own directives) in ``st.markdown``, ``st.caption``,
the alerts, headings, metric and expander labels, tab labels, radio and segmented-control
options, tooltips and toasts. A file, column, category, item or annotator name, or an
error message quoting one, must never become a link, an image, a colour, an icon or
LaTeX there: :func:`md` turns any text into Markdown that renders as exactly that text.

Only the app uses this module; the analytics library returns plain strings.
"""

from __future__ import annotations

import re
import string

__all__ = ["kind_text", "md", "md_lines"]

_PUNCTUATION = re.compile("([" + re.escape(string.punctuation) + "])")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# GitHub's autolink literals are found in the text *after* escapes are read, so an escaped
# "https://", "www." or "x@y.z" would still become a link: a word joiner (U+2060, no width,
# no break) between their characters keeps the text as it looks and the link out.
WORD_JOINER = "\u2060"
_AUTOLINK = re.compile(r"(?i)(?<=:)(?=\\/\\/)|(?<=www)(?=\\\.)|(?<=\\@)")
_EDGE_SPACE = re.compile(r"^[ \t]+|[ \t]+$")


def md(text: object) -> str:
    """``text`` as Markdown that Streamlit shows literally.

    Every ASCII punctuation character is backslash-escaped (CommonMark's escape, which
    also disarms Streamlit's ``:color[...]``, ``:material/...:`` and emoji directives
    and ``$`` LaTeX); a word joiner (U+2060, invisible) breaks ``://``, ``www.`` and
    ``@`` so that no link is detected in the text; line breaks become spaces and
    leading or trailing spaces are written as character references, so the text can sit
    inside ``**...**`` or a list item.

    Parameters
    ----------
    text : object
        Any value; it is shown as ``str(text)``.

    Returns
    -------
    str
        Markdown whose rendering is ``str(text)`` (line breaks shown as spaces).
    """
    out = _PUNCTUATION.sub(r"\\\1", _LINE_BREAK.sub(" ", str(text)))
    out = _AUTOLINK.sub(WORD_JOINER, out)
    return _EDGE_SPACE.sub(lambda m: "".join(f"&#{ord(c)};" for c in m.group()), out)


def md_lines(lines: list[str] | tuple[str, ...]) -> str:
    """Plain sentences as a Markdown bullet list, each shown literally (see :func:`md`)."""
    return "\n".join(f"- {md(line)}" for line in lines)


def kind_text(kind: object) -> str:
    """A label kind as the pages write it: "multi-label" (the library's value is
    ``"multilabel"``), "nominal", "ordinal", "numeric"."""
    value = str(getattr(kind, "value", kind))
    return "multi-label" if value == "multilabel" else value
