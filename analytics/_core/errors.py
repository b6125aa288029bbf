"""The one exception type for bad annotation data, and how user strings appear in it.

Every message is one readable paragraph whatever the file holds: names taken from the
user's file (file, sheet, column) are quoted, an empty name is said to be empty, control
characters are shown escaped, and very long strings are cut with an ellipsis.

>>> str(AnnotationDataError("no label.", source="a.csv", column="", rows=[3]))
"file 'a.csv', column (no name), row 3: no label."
>>> show_text("two\\nlines")
"'two\\\\nlines'"
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

__all__ = [
    "MAX_MESSAGE_CHARS",
    "MAX_NAME_CHARS",
    "AnnotationDataError",
    "ArgumentTypeError",
    "check_known",
    "require",
    "show_text",
    "wrong_type",
]

#: Names from the user's file (file, sheet, column) are cut to this many characters.
MAX_NAME_CHARS = 80
#: The problem and the hint are each cut to this many characters.
MAX_MESSAGE_CHARS = 600
# characters that would break a one-paragraph message or hide text: controls, format
# characters (bidi overrides, zero-width), line and paragraph separators, surrogates
_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


def _escape(text: str) -> str:
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if unicodedata.category(ch) in _ESCAPED_CATEGORIES:
            code = ord(ch)
            out.append(
                {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(ch)
                or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
            )
        else:
            out.append(ch)
    return "".join(out)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def show_text(value: Any, limit: int = MAX_NAME_CHARS) -> str:
    """A user's string as it should appear inside a message: quoted, escaped, cut.

    Parameters
    ----------
    value : Any
        The string (anything else is shown as its ``str``).
    limit : int, default MAX_NAME_CHARS
        The most characters shown between the quotes; longer text ends in "…".

    Returns
    -------
    str
        ``'text'`` (or ``"text"`` when the text holds a single quote); ``(no name)`` for an
        empty or all-whitespace string.

    Examples
    --------
    >>> show_text("label"), show_text("  "), show_text("it's")
    ("'label'", '(no name)', '"it\\'s"')
    >>> show_text("x" * 100, limit=10)
    "'xxxxxxxxx…'"
    """
    text = str(value)
    if not text.strip() and not any(unicodedata.category(c) == "Cc" for c in text):
        return "(no name)"
    # escape a bounded prefix only: escaping can lengthen text, never shorten it
    shown = _cut(_escape(text[: limit + 1]), limit)
    quote = '"' if "'" in shown and '"' not in shown else "'"
    return f"{quote}{shown}{quote}"


class AnnotationDataError(ValueError):
    """Raised for annotation data that cannot be read or does not make sense.

    The message always says where the problem is (file, sheet, column, rows) and how to
    fix it, so that the app can show it to a person as it is. Names from the file are
    quoted with :func:`show_text`; the problem and the hint have control characters
    escaped and are cut at :data:`MAX_MESSAGE_CHARS`, so the message is always one
    readable paragraph. The attributes keep the values as given.

    Parameters
    ----------
    problem : str
        What is wrong, in plain words (the only positional argument).
    source : str or None, default None
        The file name (or ``"<DataFrame>"``), when known.
    column : str or None, default None
        The column involved, when one is (``""``: a column without a name).
    rows : sequence of int or None, default None
        1-based row numbers involved (as a person counts them in the file, the header
        being row 1 for delimited files); only the first five are printed, with how many
        more.
    hint : str or None, default None
        How to fix it: a sentence of its own after the problem.
    sheet : str or None, default None
        The workbook sheet involved, when one is.

    Attributes
    ----------
    problem, source, column, rows, hint, sheet
        The arguments as given (``rows`` as a list, empty when None); ``str(error)`` is
        the composed message: ``"file 'a.csv', column 'label', row 3: problem. hint"``.
    """

    def __init__(
        self,
        problem: str,
        *,
        source: str | None = None,
        column: str | None = None,
        rows: Sequence[int] | None = None,
        hint: str | None = None,
        sheet: str | None = None,
    ) -> None:
        self.problem = problem
        self.source = source
        self.column = column
        self.rows = list(rows) if rows is not None else []
        self.hint = hint
        self.sheet = sheet
        super().__init__(self._compose())

    def _compose(self) -> str:
        where = []
        if self.source:
            where.append(f"file {show_text(self.source)}")
        if self.sheet is not None:
            where.append(f"sheet {show_text(self.sheet)}")
        if self.column is not None:
            where.append(f"column {show_text(self.column)}")
        if self.rows:
            shown = ", ".join(str(r) for r in self.rows[:5])
            more = f" and {len(self.rows) - 5} more" if len(self.rows) > 5 else ""
            label = "row" if len(self.rows) == 1 else "rows"
            where.append(f"{label} {shown}{more}")
        problem = _cut(_escape(str(self.problem)[: MAX_MESSAGE_CHARS + 1]), MAX_MESSAGE_CHARS)
        text = (", ".join(where) + ": " if where else "") + problem
        if self.hint:
            # the hint is a sentence of its own: a problem written without its full stop
            # ("no column 'item'") gets one, so the two do not run together
            if not problem.rstrip().endswith((".", "!", "?", ":", ";", "…")):
                text = text.rstrip() + "."
            text += " " + _cut(_escape(str(self.hint)[: MAX_MESSAGE_CHARS + 1]), MAX_MESSAGE_CHARS)
        return text


class ArgumentTypeError(AnnotationDataError, TypeError):
    """An argument of the wrong kind (a path where annotations go, annotations where a
    fitted result goes): an :class:`AnnotationDataError`, so the app and the command line
    show it in plain words, and a ``TypeError``, as Python code expects."""


def wrong_type(value: Any, expected: str, *, hint: str | None = None) -> ArgumentTypeError:
    """The :class:`ArgumentTypeError` for ``value``, naming what was expected and what came.

    Parameters
    ----------
    value : Any
        The argument given.
    expected : str
        What was expected, in words ("Annotations or a pandas DataFrame").
    hint : str or None, default None
        How to get one.

    Examples
    --------
    >>> print(wrong_type("a.csv", "Annotations"))
    expected Annotations, got str ('a.csv').
    """
    if isinstance(value, str):
        shown = f" ({show_text(value, 40)})"
    elif isinstance(value, (int, float)):
        shown = f" ({value!r})"
    else:
        shown = ""
    return ArgumentTypeError(f"expected {expected}, got {type(value).__name__}{shown}.", hint=hint)


def require(value: Any, test: bool, expected: str, *, hint: str | None = None) -> None:
    """Raise :func:`wrong_type`'s error unless ``test`` holds.

    Examples
    --------
    >>> require([], True, "a list")
    """
    if not test:
        raise wrong_type(value, expected, hint=hint)


def check_known(names: Any, known: Any, argument: str, where: str) -> list:
    """Names that must all be in ``known`` (annotators of a fit, of a table), as a list.

    One name is a list of one, not its letters. An unknown name is an error that counts
    and shows the unknown ones and what the known ones look like.

    Examples
    --------
    >>> check_known("a", ["a", "b"], "annotators", "the fit")
    ['a']
    """
    names = [names] if isinstance(names, (str, bytes)) else list(names)
    unknown = [n for n in names if n not in known]
    if unknown:
        noun = "annotator" if len(unknown) == 1 else "annotators"
        raise AnnotationDataError(
            f"{argument} names {len(unknown):,} {noun} not in {where}: "
            f"{', '.join(map(repr, unknown[:5]))}.",
            hint=f"Its annotators look like {list(known[:5])}.",
        )
    return names
