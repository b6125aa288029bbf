"""What one cell of a tool's export may be: ids, option names, and how a cell is shown.

Every importer reads its ids through :func:`tool_id_text` / :func:`tool_ids`, which refuse
lists, objects and other values that are not ids with an error naming the field and the
row (never the value's JSON text as an id), and shows values in messages through
:func:`preview`, which stays short for huge or deeply nested values.
"""

from __future__ import annotations

import reprlib
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.data.cells import id_text, is_missing

__all__ = [
    "TaxonomyPaths",
    "id_problem",
    "is_name",
    "name_set",
    "preview",
    "tool_id_text",
    "tool_ids",
]

_PREVIEW = reprlib.Repr()
_PREVIEW.maxlevel, _PREVIEW.maxstring, _PREVIEW.maxother = 3, 40, 40
_PREVIEW.maxlist = _PREVIEW.maxdict = _PREVIEW.maxtuple = _PREVIEW.maxset = 4


def preview(value: Any) -> str:
    """A short, bounded text of any cell for an error message (deep or huge values too).

    Parameters
    ----------
    value : object
        A cell, possibly a large nested list or object.

    Returns
    -------
    str
        At most about 80 characters.

    Examples
    --------
    >>> preview([1, 2])
    '[1, 2]'
    >>> len(preview(list(range(10_000)))) < 80
    True
    """
    return _PREVIEW.repr(value)[:80]


def id_problem(value: Any, *, bools: bool = False) -> str | None:
    """Why a cell cannot be an item or annotator id; None when it can (or is missing).

    An id is text or a number. Lists, objects, sets and bytes are not (a tool wrote
    something else there, or the file was edited); booleans only where ``bools``
    allows them (a table's input column may hold true/false, a tool's id field not).

    Parameters
    ----------
    value : object
        One cell.
    bools : bool, default False
        Whether true/false count as ids.

    Returns
    -------
    str or None
        E.g. ``"a list"``, in words for a message.

    Examples
    --------
    >>> id_problem([1, 2]), id_problem({"id": 1}), id_problem(7), id_problem(None)
    ('a list', 'an object', None, None)
    """
    if isinstance(value, (list, tuple, np.ndarray)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, (set, frozenset)):
        return "a set"
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "binary data"
    if isinstance(value, (bool, np.bool_)) and not bools:
        return "true/false"
    if not isinstance(value, (str, int, float, np.integer, np.floating, bool, np.bool_)):
        if value is None or value is pd.NA or value is pd.NaT:
            return None
        return f"a {type(value).__name__}"
    return None


def _id_text(value: Any) -> str | None:
    if is_missing(value):
        return None
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value)).lower()
    return id_text(value)


def _wrong_id(
    problem: str, value: Any, field: str, rows: Sequence[int], source: str | None, in_column: bool
) -> AnnotationDataError:
    where = "the cell" if in_column else f"the field '{field}'"
    return AnnotationDataError(
        f"{where} holds {problem} ({preview(value)}), not an id: "
        f"'{field}' must be text or a number.",
        source=source,
        column=field if in_column else None,
        rows=list(rows),
        hint="Correct those values or export the file again from the tool; Concord does not "
        "turn lists or objects into ids.",
    )


def tool_id_text(
    value: Any,
    *,
    field: str = "id",
    row: int | None = None,
    source: str | None = None,
    bools: bool = False,
) -> str | None:
    """An item or annotator id as text (integral floats lose '.0'), None if missing.

    Parameters
    ----------
    value : object
        A cell of a tool's export.
    field : str, default "id"
        The field the value came from, for the error message.
    row : int or None, default None
        The row (record) number, for the error message.
    source : str or None, default None
        The file name, for the error message.
    bools : bool, default False
        Whether true/false are ids (written ``true``/``false``).

    Returns
    -------
    str or None
        The id as :func:`analytics.data.cells.id_text` writes it.

    Raises
    ------
    AnnotationDataError
        When the value is a list, an object or another value that is not an id
        (see :func:`id_problem`), naming the field and the row.

    Examples
    --------
    >>> tool_id_text(12.0), tool_id_text(" w1 "), tool_id_text(None)
    ('12', 'w1', None)
    """
    problem = id_problem(value, bools=bools)
    if problem is not None:
        raise _wrong_id(problem, value, field, [] if row is None else [row], source, False)
    return _id_text(value)


def tool_ids(
    values: Sequence[Any] | np.ndarray,
    rows: Sequence[int] | np.ndarray,
    *,
    field: str,
    source: str | None,
    bools: bool = False,
    in_column: bool = True,
) -> np.ndarray:
    """A column of ids as text (None where missing), refusing every cell that is not an id.

    Parameters
    ----------
    values : sequence
        The cells, one per row.
    rows : sequence of int
        Their row numbers in the file.
    field : str
        The column (or JSON field) they came from.
    source : str or None
        The file name.
    bools : bool, default False
        Whether true/false are ids.
    in_column : bool, default True
        Name ``field`` as the error's column (a table's column) rather than as a field.

    Returns
    -------
    ndarray of object
        Text ids, None where the cell is missing.

    Raises
    ------
    AnnotationDataError
        Naming the field and every row whose cell is a list, an object, ... (not an id).
    """
    cells = values if isinstance(values, np.ndarray) and values.ndim == 1 else list(values)
    out = np.empty(len(cells), dtype=object)
    bad: list[int] = []
    for k, v in enumerate(cells):
        if id_problem(v, bools=bools) is not None:
            bad.append(k)
            continue
        out[k] = _id_text(v)
    if bad:
        first = cells[bad[0]]
        raise _wrong_id(
            str(id_problem(first, bools=bools)),
            first,
            field,
            [int(rows[k]) for k in bad],
            source,
            in_column,
        )
    return out


def is_name(value: Any) -> bool:
    """An option name as JSON writes it: text or a number (not a list, object, bool or null).

    Parameters
    ----------
    value : object
        One element of a tool's list of chosen options.

    Returns
    -------
    bool
    """
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, (float, np.floating)):
        return bool(np.isfinite(value))
    return isinstance(value, (str, int, np.integer))


def name_set(value: Any) -> frozenset[str] | None:
    """A JSON list of option names as a set of text; None when ``value`` is not such a list.

    Tools write chosen options as a list of names or ids. Anything else (a string, which
    would split into characters, nested lists, objects, nulls) is not guessed at: the
    caller raises an error naming the field and the row.

    Parameters
    ----------
    value : object
        A tool's record of the chosen options.

    Returns
    -------
    frozenset of str or None
    """
    if isinstance(value, list) and all(is_name(x) for x in value):
        # text stays as written (even "None": finish() warns about such names)
        return frozenset(x if isinstance(x, str) else str(_id_text(x)) for x in value)
    return None


class TaxonomyPaths:
    """Taxonomy paths read as category names (joined with ``/``), never two paths as one.

    A path's names are joined with ``/``: ``["Sports", "Football"]`` is the category
    ``Sports/Football``. An option whose own name holds ``/`` would make ``["A/B"]`` and
    ``["A", "B"]`` the same category; when two different paths of one file join to one
    name, :meth:`join` refuses, naming both and their rows.

    Parameters
    ----------
    source : str
        The file's name, for error messages.
    column : str or None, default None
        The column (control) the paths come from, for error messages.

    Examples
    --------
    >>> paths = TaxonomyPaths("x.json")
    >>> sorted(paths.join([["Sports", "Football"], ["News"]], row=1))
    ['News', 'Sports/Football']
    """

    def __init__(self, source: str, column: str | None = None) -> None:
        self.source, self.column = source, column
        self._seen: dict[str, tuple[tuple[str, ...], int]] = {}

    def join(self, paths: Sequence[Sequence[Any]], row: int) -> frozenset[str]:
        """The category names of one answer's paths; an error if one collides."""
        names = []
        for path in paths:
            parts = tuple(str(x) for x in path)
            name = "/".join(parts)
            first, first_row = self._seen.setdefault(name, (parts, row))
            if first != parts:
                raise AnnotationDataError(
                    f"the taxonomy paths {list(first)} (row {first_row}) and {list(parts)} "
                    f"(row {row}) both read as the category '{name}', because an option's "
                    "name holds '/'.",
                    source=self.source,
                    column=self.column,
                    rows=sorted({first_row, row}),
                    hint="Rename the option whose name holds '/' (in the labelling config "
                    "and the file), so that each path reads as its own category.",
                )
            names.append(name)
        return frozenset(names)
