"""What every tool reader shares: the reader record, option checks and label-set rules.

A tool reader turns one annotation tool's export (already read into a raw table by
:func:`analytics.data.reading.read_table`) into long data: one row per judgement with columns
``item``, ``annotator``, ``label``, the row number of each judgement in the file, and a
:class:`~analytics.data.load_report.LoadReport` that names the tool, what was chosen and
what was skipped. Label sets are frozensets in the ``label`` cell (the data model then
reads the data as multi-label); an explicit empty set is ``frozenset()``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.data.cells import MISSING_TOKENS
from analytics.data.importers.tool_cells import id_problem, preview
from analytics.data.load_report import LoadReport, SkipNote

__all__ = [
    "ToolInfo",
    "ToolReader",
    "ToolResult",
    "choose",
    "choose_hint",
    "column",
    "finish",
    "settle_sets",
    "skip",
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
        refuse_repeated_columns(table, self.name, report.source)
        options = dict(options or {})
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            known = ", ".join(f"{k!r}" for k in self.options) or "none"
            raise AnnotationDataError(
                f"the option {unknown} does not apply to a {self.name} export."
                if len(unknown) == 1
                else f"the options {unknown} do not apply to a {self.name} export.",
                source=report.source,
                hint=f"Options for {self.name}: {known}.",
            )
        return self.convert(table, rows, report, options)


# ---------------------------------------------------------------------------- columns
def refuse_repeated_columns(table: pd.DataFrame, tool: str, source: str | None) -> None:
    """A tool's export names each field once; a repeated column name is an error.

    Parameters
    ----------
    table : pandas.DataFrame
        The export.
    tool : str
        The tool recognised, for the message.
    source : str or None
        The file name.

    Raises
    ------
    AnnotationDataError
        Naming the repeated columns.
    """
    repeated = sorted({str(c) for c in table.columns[table.columns.duplicated()]})
    if repeated:
        one = len(repeated) == 1
        raise AnnotationDataError(
            f"this looks like a {tool} export, but the column {'name' if one else 'names'} "
            f"{', '.join(repr(c) for c in repeated)} {'appears' if one else 'appear'} more than "
            "once.",
            source=source,
            hint="Each field of the export has one column; rename or remove the copies.",
        )


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
            hint=f"{choose_hint(option)} From: {shown}.",
        )
    return value


def choose_hint(option: str) -> str:
    """How to choose a tool export's ``option`` at each door: the library, the command
    line and the Data page (``load_annotations`` takes it in ``tool_options``)."""
    return (
        f"Choose one with tool_options={{'{option}': '...'}} (command line: --tool-option "
        f"{option}=...; Data page: the tool's choice box)."
    )


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
    one = len(names) == 1
    return (
        f"The category {'name' if one else 'names'} {sorted(names)} "
        f"{'reads' if one else 'read'} as 'not labelled' in Concord, so single "
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
