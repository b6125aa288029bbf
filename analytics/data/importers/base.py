"""What every tool reader shares: the reader record, option checks and label-set rules.

A tool reader turns one annotation tool's export (already read into a raw table by
:func:`analytics.data.reading.read_table`) into long data: one row per judgement with columns
``item``, ``annotator``, ``label``, the row number of each judgement in the file, and a
:class:`~analytics.data.load_report.LoadReport` that names the tool, what was chosen and
what was skipped. Label sets are frozensets in the ``label`` cell (the data model then
reads the data as multi-label); an explicit empty set is ``frozenset()``.
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.data.cells import MISSING_TOKENS, id_text, is_missing
from analytics.data.load_report import LoadReport, SkipNote

__all__ = [
    "ToolInfo",
    "ToolReader",
    "ToolResult",
    "finish",
    "id_problem",
    "is_name",
    "name_set",
    "parse_json_text",
    "preview",
    "settle_sets",
    "tool_id_text",
    "tool_ids",
]

ToolResult = tuple[pd.DataFrame, np.ndarray, LoadReport]
MAX_ROWS_SHOWN = 20


@dataclass(frozen=True)
class ToolInfo:
    """A recognised export and the choices its reader offers (for the upload page).

    Attributes
    ----------
    tool
        The tool's name, e.g. ``"Label Studio"``.
    choices
        For each option, the values that make sense for this file (first = default,
        when the option has a default).
    defaults
        The value each option takes when not given (None: no default, must be chosen
        when ``choices`` offers more than one value).
    help
        One line per option saying what it does.
    export
        Which of the tool's exports the table is, e.g. ``"JSON"``, ``"JSON-MIN"`` or
        ``"CSV"`` for Label Studio (for the page: "Recognised a Label Studio export
        (JSON-MIN)").
    """

    tool: str
    choices: dict[str, list[Any]] = field(default_factory=dict)
    defaults: dict[str, Any] = field(default_factory=dict)
    help: dict[str, str] = field(default_factory=dict)
    export: str = ""


@dataclass(frozen=True)
class ToolReader:
    """One annotation tool's export reader.

    ``recognise(table)`` decides from the content alone (column names and the shape of
    the cells), never from the file name. ``convert(table, rows, report, options)``
    returns :data:`ToolResult` or raises :class:`~analytics._core.errors.AnnotationDataError`
    naming the problem. ``describe(table)`` lists the choices for the page, and
    ``export(table, format)`` names which of the tool's exports the table is (``format``:
    the file format read, None when unknown).
    """

    name: str
    options: Mapping[str, str]
    recognise: Callable[[pd.DataFrame], bool]
    convert: Callable[[pd.DataFrame, np.ndarray, LoadReport, Mapping[str, Any]], ToolResult]
    describe: Callable[[pd.DataFrame], ToolInfo]
    export: Callable[[pd.DataFrame, str | None], str] = lambda table, fmt: ""

    def __call__(
        self,
        table: pd.DataFrame,
        rows: np.ndarray,
        report: LoadReport,
        options: Mapping[str, Any] | None = None,
    ) -> ToolResult | None:
        if not self.recognise(table):
            return None
        options = dict(options or {})
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            known = ", ".join(f"{k!r}" for k in self.options) or "none"
            raise AnnotationDataError(
                f"the option(s) {unknown} do not apply to a {self.name} export.",
                source=report.source,
                hint=f"Options for {self.name}: {known}.",
            )
        return self.convert(table, rows, report, options)


# ---------------------------------------------------------------------------- cells
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


def parse_json_text(text: str, *, field: str, row: int, source: str | None) -> Any:
    """JSON written inside a text cell (CSV exports), or an error naming the cell.

    Parameters
    ----------
    text : str
        The cell.
    field : str
        Its column, for the error.
    row : int
        Its row number, for the error.
    source : str or None
        The file name, for the error.

    Returns
    -------
    object
        The parsed value.

    Raises
    ------
    AnnotationDataError
        When the text is not JSON, nests too deeply or holds a number too long to read.
    """
    try:
        return json.loads(text)
    except RecursionError:
        why = "nests lists or objects too deeply to read"
    except ValueError as exc:  # JSONDecodeError, and integers over Python's digit limit
        why = f"is not valid JSON ({exc.msg if isinstance(exc, json.JSONDecodeError) else exc})"
    raise AnnotationDataError(
        f"the cell {why}.",
        source=source,
        column=field,
        rows=[row],
        hint="Check the file was not re-saved by a spreadsheet that altered the quotes.",
    )


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


def column(table: pd.DataFrame, name: str) -> np.ndarray:
    """A column as an object array (None where the column is absent).

    Parameters
    ----------
    table : pandas.DataFrame
        The export.
    name : str
        The column.

    Returns
    -------
    ndarray of object, shape (len(table),)
    """
    if name not in table.columns:
        return np.full(len(table), None, dtype=object)
    return table[name].to_numpy(dtype=object)


def skip(reason: str, rows: Sequence[int] | np.ndarray) -> SkipNote:
    """A :class:`~analytics.data.load_report.SkipNote` for rows skipped for one reason.

    Parameters
    ----------
    reason : str
        Why, in plain words.
    rows : sequence of int
        The skipped rows' numbers (all of them; the note keeps the first few).

    Returns
    -------
    SkipNote
    """
    rows = [int(r) for r in rows]
    return SkipNote(reason, len(rows), tuple(rows[:MAX_ROWS_SHOWN]))


def choose(
    value: Any, available: Sequence[Any], *, what: str, option: str, source: str, tool: str
) -> Any:
    """Check that a chosen value is among those the file offers.

    Parameters
    ----------
    value : object
        The user's choice.
    available : sequence
        The values the file offers.
    what, option, source, tool : str
        For the error message: what is chosen, the option's name, the file, the tool.

    Returns
    -------
    object
        ``value``.

    Raises
    ------
    AnnotationDataError
        When ``value`` is not available; the message lists what is.
    """
    if value not in available:
        shown = ", ".join(repr(a) for a in available) or "none"
        raise AnnotationDataError(
            f"there is no {what} {value!r} in this {tool} export.",
            source=source,
            hint=f"Choose {option}= from: {shown}.",
        )
    return value


# ---------------------------------------------------------------------------- label sets
def settle_sets(
    sets: Sequence[frozenset | None], multilabel: bool | None, declared_by: str = "as chosen"
) -> tuple[list[Any], bool, str]:
    """Decide whether chosen options are label sets or single labels.

    Tools store a choice as a list whether the control allowed one option or several,
    and the export does not always say which. Unless ``multilabel`` says so, the
    control is taken as multi-label exactly when some judgement holds more than one
    option. Single-label judgements become the option itself; a judgement with no
    option becomes None (missing) for single-label controls and the empty set (a real
    "none of these" judgement) for multi-label ones.

    Parameters
    ----------
    sets : sequence of frozenset or None
        The options each judgement chose (None: the judgement chose nothing).
    multilabel : bool or None
        Whether the control allows several options; None decides from the data.
    declared_by : str, default "as chosen"
        Says in words who set ``multilabel`` (the user, or the export).

    Returns
    -------
    labels : list
        Sets, or single labels (None where missing).
    multi : bool
        Whether the labels are sets.
    reason : str
        Why, in words.

    Raises
    ------
    AnnotationDataError
        When ``multilabel`` is False but a judgement chose several options.
    """
    widest = max((len(s) for s in sets if s is not None), default=0)
    if multilabel is None:
        multi = widest > 1
        reason = (
            "some judgements chose several options, so labels are read as sets (multi-label)"
            if multi
            else "no judgement chose more than one option, so labels are read as single labels"
        )
    else:
        multi = bool(multilabel)
        reason = (
            f"labels are read as sets, {declared_by}"
            if multi
            else f"labels are read as single labels, {declared_by}"
        )
        if not multi and widest > 1:
            raise AnnotationDataError(
                "some judgements chose several options, so they cannot be read as single labels.",
                hint="Leave multilabel unset (or True) to read them as label sets.",
            )
    if multi:
        return [s if s is not None else frozenset() for s in sets], True, reason
    return [next(iter(s)) if s else None for s in sets], False, reason


def missing_like_note(labels: Sequence[Any]) -> str | None:
    """Warn when a tool's category name is a word Concord reads as 'not labelled'.

    Parameters
    ----------
    labels : sequence
        Labels or label sets.

    Returns
    -------
    str or None
        The warning, or None when no name is one of the missing tokens.
    """
    names: set[str] = set()
    for v in labels:
        values = v if isinstance(v, frozenset) else (v,)
        names.update(
            x
            for x in values
            if isinstance(x, str) and x.strip() and x.strip().lower() in MISSING_TOKENS
        )
    if not names:
        return None
    return (
        f"The category name(s) {sorted(names)} read as 'not labelled' in Concord, so single "
        "labels with that name count as missing; rename the option in the tool's export "
        "to keep it as a category."
    )


# ---------------------------------------------------------------------------- result
def finish(
    report: LoadReport,
    *,
    tool: str,
    items: Sequence[Any],
    annotators: Sequence[Any],
    labels: Sequence[Any],
    rows: Sequence[int] | np.ndarray,
    skipped: Sequence[SkipNote] = (),
    notes: Sequence[str] = (),
    columns: Mapping[str, Any] | None = None,
    n_rows: int | None = None,
    label_field: str = "label",
) -> ToolResult:
    """Package the long table, its row numbers and the updated report.

    Parameters
    ----------
    report : LoadReport
        The report so far.
    tool : str
        The tool's name (recorded in the report).
    items, annotators, labels : sequence
        One entry per judgement.
    rows : sequence of int
        The file row number of each judgement.
    skipped : sequence of SkipNote, default ()
        Rows skipped by the reader (notes with no rows are dropped).
    notes : sequence of str, default ()
        Decisions to report.
    columns : mapping or None, default None
        The fields used, for the report.
    n_rows : int or None, default None
        The rows (entries) the reader read, when they are not the file's records (a
        Label Studio task holds several annotations): the report then counts these, so
        that rows = judgements + skipped + missing.
    label_field : str, default "label"
        The field the labels came from, for the error on a label that is not one.

    Returns
    -------
    ToolResult

    Raises
    ------
    AnnotationDataError
        When no judgement is left, or a label is a list, an object, ... (not a label or
        a label set).
    """
    n = len(items)
    if not (n == len(annotators) == len(labels) == len(rows)):  # pragma: no cover - internal
        raise AssertionError("long columns differ in length")
    kept = [s for s in skipped if s.count]
    if n == 0:
        why = "; ".join(str(s) for s in kept) or "no annotations found"
        raise AnnotationDataError(
            f"the {tool} export holds no judgements to analyse ({why}).",
            source=report.source,
            hint="Check that the export contains submitted annotations.",
        )
    label_arr = np.empty(n, dtype=object)
    label_arr[:] = list(labels)
    odd = [
        k
        for k, v in enumerate(label_arr)
        if not isinstance(v, frozenset) and id_problem(v, bools=True)
    ]
    if odd:
        raise AnnotationDataError(
            f"a label holds {id_problem(label_arr[odd[0]], bools=True)} "
            f"({preview(label_arr[odd[0]])}), not a label.",
            source=report.source,
            column=label_field,
            rows=[int(rows[k]) for k in odd],
            hint="A label is text or a number (a list of names where the tool writes sets).",
        )
    long = pd.DataFrame(
        {
            "item": np.asarray(items, dtype=object),
            "annotator": np.asarray(annotators, dtype=object),
            "label": label_arr,
        }
    )
    warn = missing_like_note(label_arr)
    all_notes = [*report.notes, *notes, *([warn] if warn else [])]
    new = LoadReport(
        **{
            **report.__dict__,
            "tool": tool,
            "skipped": (*report.skipped, *kept),
            "notes": tuple(all_notes),
            "columns": dict(columns or {}),
            **({"n_rows": int(n_rows)} if n_rows is not None else {}),
        }
    )
    return long, np.asarray(rows, dtype=np.int64), new
