"""Loading annotations: one entry point for paths, uploads and DataFrames.

:func:`load_annotations` reads the table (:mod:`analytics.data.reading`), converts a
recognised annotation-tool export (:mod:`analytics.data.importers`), finds the layout
and columns (:mod:`analytics.data.layout`) and encodes the judgements into an
:class:`~analytics.data.model.Annotations` (:mod:`analytics.data.encode`). Every
decision (format, encoding, layout, columns, label kind, separator) is recorded in the
result's ``report``; every row that does not become a judgement is counted there with its
reason. Bad input raises :class:`~analytics._core.errors.AnnotationDataError` and nothing
else. :func:`as_annotations` is the door every analysis function goes through.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError, show_text, wrong_type
from analytics._core.formatting import format_count
from analytics._core.lazy import is_lazy
from analytics._core.threads import in_parallel
from analytics.data.cells import SET_TYPES, CellColumn, missing_tokens
from analytics.data.count_tables import COUNT_LAYOUTS, from_contingency_table, from_count_table
from analytics.data.encode import encode_frame, factorized
from analytics.data.header_rows import refuse_repeated_header, refuse_repeated_header_of
from analytics.data.importers import convert_tool_export
from analytics.data.kinds import LabelKind
from analytics.data.layout import detect_separator, holds_only_flat_cells, to_long
from analytics.data.limits import Limits
from analytics.data.load_report import LoadReport
from analytics.data.model import Annotations
from analytics.data.options import check_options
from analytics.data.reading import DEFAULT_MAX_BYTES, read_table, stream_name

__all__ = ["RawTable", "as_annotations", "load_annotations"]

#: pandas' inferred types of an object column that cannot hold a nested or binary cell.


class RawTable(NamedTuple):
    """A file already read by :func:`~analytics.data.reading.read_table`, to load later.

    :func:`read_table` returns one (as a plain tuple); pass it, or ``RawTable(*result)``,
    to :func:`load_annotations` to load without reading the file again (the Data page
    previews, describes and loads one parsed table). The table is not modified.

    Parameters
    ----------
    table : pandas.DataFrame
        The raw cells.
    rows : ndarray of int
        Each row's number in the file.
    report : LoadReport
        What reading found (source, format, encoding, notes).

    Examples
    --------
    >>> from analytics.data.reading import read_table
    >>> raw = RawTable(*read_table("sample_data/crowd_intents.csv"))
    >>> load_annotations(raw).n_judgements == load_annotations(
    ...     "sample_data/crowd_intents.csv").n_judgements
    True
    """

    table: pd.DataFrame
    rows: np.ndarray
    report: LoadReport


def load_annotations(
    source: Any,
    *,
    item: str | None = None,
    annotator: str | None = None,
    label: str | None = None,
    format: str | None = None,
    multilabel_sep: str | None = None,
    categories: Sequence[Any] | None = None,
    duplicates: str = "error",
    kind: str | LabelKind | None = None,
    layout: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    sheet: str | int | None = None,
    name: str | None = None,
    tool_options: dict[str, Any] | None = None,
    limits: Limits | None = None,
    missing: Iterable[str] | None = None,
) -> Annotations:
    """Load annotations from a file, an upload or a DataFrame.

    Parameters
    ----------
    source : str, os.PathLike, bytes, file-like, pandas.DataFrame or RawTable
        A path, a file-like object with ``.read()`` (``st.file_uploader`` gives one, with
        a ``.name``), raw bytes, a DataFrame (multi-label cells may be sets or lists), or
        a table already read: a :class:`RawTable`, or the tuple
        :func:`~analytics.data.reading.read_table` returns (then ``format``, ``sheet``,
        ``max_bytes`` and ``limits`` were applied when it was read).
    item, annotator, label : str or None, default None
        Column names, when the common names are not used. Recognised without naming:
        item/task/unit/id/orig_id, annotator/worker/rater/coder/user/annotator_id,
        label/response/answer/category/value (case-insensitive; ``INPUT:``/``OUTPUT:``
        prefixes ignored).
    format : str or None, default None
        ``"csv"``, ``"tsv"``, ``"json"``, ``"jsonl"``, ``"excel"`` or ``"parquet"``;
        by default from the extension, else from the content.
    multilabel_sep : str or None, default None
        Split label cells on this separator into sets (e.g. ``";"`` for ``anger;fear``).
        Detected (``;`` or ``|``) and reported when None; ``""`` turns detection off.
    categories : sequence or None, default None
        Declared categories in order (ordinal scales; categories nobody used still count).
        Declaring text categories keeps numeric-looking labels as text.
    duplicates : str, default "error"
        One annotator judging one item more than once: ``"error"``,
        ``"first"``, ``"last"`` or ``"keep"``.
    kind : str, LabelKind or None, default None
        ``"nominal"``, ``"ordinal"``, ``"numeric"`` or ``"multilabel"``; inferred if None.
    layout : str or None, default None
        ``"long"`` or ``"wide"``; detected if None (the report says why). Count tables are
        never guessed: ``"counts"`` reads an items x categories count table (anonymous
        raters), ``"contingency"`` a two-rater contingency table
        (:mod:`analytics.data.count_tables`; ``categories`` then picks the columns).
    max_bytes : int, default DEFAULT_MAX_BYTES
        Refuse files larger than this (200 MiB: 209,715,200 bytes).
    sheet : str, int or None, default None
        Excel sheet name or index (default: the first).
    name : str or None, default None
        Display name (default: the file name).
    tool_options : dict or None, default None
        Choices for annotation-tool exports (Label Studio ``from_name``, MTurk ``answer``
        column, Prodigy ``annotator_key``, ...): see :data:`analytics.data.importers.TOOL_OPTIONS`.
    limits : Limits or None, default None
        Resource limits on the file (:class:`~analytics.data.limits.Limits`: size, inflated
        size, cells, JSON depth and digits); by default ``Limits(max_bytes=max_bytes)``.
    missing : iterable of str or None, default None
        Cell texts read as "not labelled" (case and surrounding blanks ignored). None
        means :data:`~analytics.data.cells.MISSING_TOKENS` (``NA``, ``N/A``, ``NaN``,
        ``None``, ``null``, ``<NA>``, ``NaT``); ``()`` means only empty or blank cells,
        None and NaN (always missing). A token read as missing in as many label cells as
        the rarest category is named in the report's cautions.

    Returns
    -------
    Annotations
        With ``report`` (:class:`~analytics.data.load_report.LoadReport`) describing every
        decision and every skipped row.

    Raises
    ------
    AnnotationDataError
        For any input that cannot be read; the message names file, column and rows.

    Examples
    --------
    >>> ann = load_annotations("sample_data/ratings_ordinal_wide.csv", kind="ordinal")
    >>> ann.n_items, ann.n_annotators, ann.kind.value, ann.report.layout
    (200, 6, 'ordinal', 'wide')
    >>> ann.report.n_missing > 0
    True
    """
    # a generator given as categories or missing is read once here: the check below
    # would use it up and leave the loader an empty list
    if categories is not None and iter(categories) is categories:
        categories = list(categories)
    if missing is not None and iter(missing) is missing:
        missing = list(missing)
    options = {
        "item": item,
        "annotator": annotator,
        "label": label,
        "format": format,
        "multilabel_sep": multilabel_sep,
        "categories": categories,
        "layout": layout,
        "max_bytes": max_bytes,
        "sheet": sheet,
        "name": name,
        "tool_options": tool_options,
        "limits": limits,
        "missing": missing,
    }
    check_options(**options)
    try:
        return _load(source, duplicates=duplicates, kind=kind, **options)
    except AnnotationDataError:
        raise
    except (MemoryError, KeyboardInterrupt):
        raise
    except Exception as exc:  # a guard only: every known bad input has its own message
        if os.environ.get("CONCORD_STRICT_ERRORS"):
            raise  # the test suite sets this, so an internal bug fails a test instead of hiding
        src = (
            name
            or (stream_name(source) if getattr(source, "name", None) else None)
            or (source.report.source if isinstance(source, RawTable) else None)
            or (os.path.basename(str(source)) if isinstance(source, (str, os.PathLike)) else None)
        )
        raise AnnotationDataError(
            "Concord could not read this file: this looks like a bug in Concord, please "
            "report it (with the file, if you can share it).",
            source=str(src) if src else None,
            hint="Meanwhile, saving the data as CSV with item, annotator and label columns "
            "usually works.",
        ) from exc


def _refuse_nested_cells(
    long: pd.DataFrame, rows: np.ndarray, columns: dict[str, Any], source: str
) -> None:
    """Object cells ({...}) and nested lists are not ids or labels: refuse, never repr them.

    A JSON list of names in a label cell is a label set (the data model reads it so);
    anything else nested would load as its Python text, e.g. "{'value': 'x'}".
    """

    def name(x: Any) -> bool:  # None in a list is an empty part, dropped as CSV's `x;` is
        return x is None or (isinstance(x, (str, int, float)) and not isinstance(x, bool))

    wide = "annotators" in columns
    for role in ("item", "annotator", "label"):
        col = long[role]
        if holds_only_flat_cells(col):
            continue  # typed or plain columns hold no nested cell: no look at each cell
        cells = col.to_numpy(object)
        binary = np.fromiter((isinstance(v, (bytes, bytearray)) for v in cells), bool, len(cells))
        if binary.any():
            first = int(np.flatnonzero(binary)[0])
            where = long["annotator"].iat[first] if wide and role == "label" else columns.get(role)
            raise AnnotationDataError(
                f"the {role} cells hold binary values (e.g. {str(cells[first])[:40]}), "
                "not text or numbers.",
                source=source,
                column=None if where is None else str(where),
                rows=rows[binary].tolist(),
                hint="Store that column as text (a string column) and load the file again.",
            )
        if role == "label":
            bad = np.fromiter(
                (
                    isinstance(v, dict)
                    or (isinstance(v, SET_TYPES) and not all(name(x) for x in v))
                    for v in cells
                ),
                bool,
                len(cells),
            )
        else:
            bad = np.fromiter((isinstance(v, (dict, *SET_TYPES)) for v in cells), bool, len(cells))
        if bad.any():
            first = int(np.flatnonzero(bad)[0])
            col = long["annotator"].iat[first] if wide and role == "label" else columns.get(role)
            odd = [x for x in cells[first] if not name(x)] if role == "label" else []
            if isinstance(cells[first], SET_TYPES) and odd:  # a list of labels, one not a name
                raise AnnotationDataError(
                    f"a list of labels holds {_shown(odd[0])}, a {type(odd[0]).__name__} and "
                    f"not a label name (e.g. {_shown(cells[first])}).",
                    source=source,
                    column=None if col is None else str(col),
                    rows=rows[bad].tolist(),
                    hint="Write every label in a list as text or a number, not a list or "
                    "object (a yes/no answer as the text 'true' or 'false').",
                )
            raise AnnotationDataError(
                f"the {role} cells hold lists or objects (JSON objects, nested lists, list "
                f"columns; e.g. {_shown(cells[first])}), which are not {role}s Concord can read.",
                source=source,
                column=None if col is None else str(col),
                rows=rows[bad].tolist(),
                hint="If this is an annotation tool's export, load the tool's own format "
                "(Label Studio JSON, Prodigy JSONL, MTurk CSV, Toloka TSV); otherwise flatten "
                "those cells to text, or to lists of label names.",
            )


def _load(
    source: Any,
    *,
    item,
    annotator,
    label,
    format,
    multilabel_sep,
    categories,
    duplicates,
    kind,
    layout,
    max_bytes,
    sheet,
    name,
    tool_options,
    limits,
    missing,
) -> Annotations:
    if isinstance(source, Annotations):
        return source
    deferred = None  # a delimited table read here whose repeated header is yet to check
    if _is_raw_table(source):
        source = RawTable(*source)
        if source.table.empty and not len(source.table.columns):
            raise AnnotationDataError("the table has no columns.", source=source.report.source)
    if isinstance(source, pd.DataFrame):
        if source.empty:
            raise AnnotationDataError("the DataFrame is empty.", source=name or "<DataFrame>")
        df = source.copy()
        df.columns = [str(c) for c in df.columns]
        rows = np.arange(1, len(df) + 1)
        report = LoadReport(source=name or "<DataFrame>", format="dataframe", n_rows=len(df))
    elif isinstance(source, RawTable):
        df, rows, report = source
        # read with or without the repeated-header check: made again (cheap in long form)
        deferred = (df, rows) if report.format in ("csv", "tsv") else None
    else:
        df, rows, report = read_table(
            source,
            format=format,
            max_bytes=max_bytes,
            sheet=sheet,
            limits=limits,
            check_repeated_header=False,
        )
        # the repeated-header check of delimited text is made below, on one column's
        # distinct values once the columns are factorized (refuse_repeated_header_of)
        deferred = (df, rows) if report.format in ("csv", "tsv") else None
    display = name or report.source
    span_shaped = _looks_like_spans(df.columns)
    if layout in COUNT_LAYOUTS:
        if deferred is not None:
            refuse_repeated_header(*deferred, report.source)
        build = from_count_table if layout == "counts" else from_contingency_table
        extra = {"categories": categories} if layout == "counts" else {}
        kind_name = None if kind is None else LabelKind.parse(kind).value
        return build(
            df, kind=kind_name, name=display, report=report, limits=limits or None, **extra
        )
    tool = convert_tool_export(df, rows, report, options=tool_options)
    if tool is not None and deferred is not None:
        refuse_repeated_header(*deferred, report.source)
        deferred = None
    if tool is not None:
        df, rows, report = tool
        long, _, _, chosen, _, cautions = to_long(
            df, rows, report, item="item", annotator="annotator", label="label", layout="long"
        )
        columns = {**report.columns}
        why = f"Converted from a {report.tool} export (one judgement per row)."
    else:
        long, rows, columns, chosen, why, cautions = to_long(
            df, rows, report, item=item, annotator=annotator, label=label, layout=layout
        )
        _refuse_nested_cells(long, rows, columns, report.source)
    notes = list(report.notes)
    sep = multilabel_sep or None  # "" means: never split cells
    lk = LabelKind.parse(kind) if kind is not None else None
    tokens = missing_tokens(missing)
    # the three columns factorized side by side (NumPy and Arrow release the GIL)
    labels, *id_cells = in_parallel(
        [partial(factorized, long[c], tokens) for c in ("label", "item", "annotator")],
        len(long),
    )
    if deferred is not None:
        cells = dict(zip(("label", "item", "annotator"), (labels, *id_cells), strict=True))
        refuse_repeated_header_of(deferred, report.source, chosen, columns, cells)
    if multilabel_sep is None and lk in (None, LabelKind.MULTILABEL):
        detected = detect_separator(labels)
        if detected is not None and (lk is LabelKind.MULTILABEL or _mostly_text(labels)):
            sep = detected
            notes.append(f"The multi-label separator {detected!r} was detected in the label cells.")
    if cautions:
        report = LoadReport(**{**report.__dict__, "cautions": (*report.cautions, *cautions)})
    report = LoadReport(
        **{
            **report.__dict__,
            "layout": chosen,
            "layout_reason": why,
            "columns": columns,
            "notes": tuple(notes),
        }
    )
    try:
        enc = encode_frame(
            long,
            kind=lk,
            categories=categories,
            multilabel_sep=sep,
            duplicates=duplicates,
            name=display,
            row_numbers=rows,
            report=report,
            missing=tokens,
            label_cells=labels,
            id_cells=tuple(id_cells),
        )
    except AnnotationDataError as exc:
        if not span_shaped or type(exc) is not AnnotationDataError:
            raise
        # a span table (many spans per annotator and document) read as judgements fails
        # here, typically as repeated judgements: say what the file more likely is
        raise AnnotationDataError(
            exc.problem,
            source=exc.source,
            column=exc.column,
            rows=exc.rows,
            sheet=exc.sheet,
            hint=SPAN_HINT + (f" If not, {exc.hint[:1].lower()}{exc.hint[1:]}" if exc.hint else ""),
        ) from None
    enc = _name_empty_annotator_columns(enc, columns)
    if len(enc.annotators) == 1:  # a load that leaves one annotator says what it cannot do
        caution = (
            f"Only one annotator ({show_text(enc.annotators[0])}) is left: agreement and the "
            "annotator models compare two or more, so they are undefined for these data."
        )
        enc = _with_caution(enc, caution)
    return Annotations.from_encoded(enc, display, labels=long["label"])


def _with_caution(enc: Any, caution: str) -> Any:
    """``enc`` with one more caution in its load report."""
    report = LoadReport(**{**enc.report.__dict__, "cautions": (*enc.report.cautions, caution)})
    return dataclasses.replace(enc, report=report)


def _name_empty_annotator_columns(enc: Any, columns: dict[str, Any]) -> Any:
    """A wide table's annotator columns with no label at all, named in the report.

    Such a column is no annotator (an annotator is someone who judged something), so the
    count of annotators is below the count of columns the layout reason gives; the
    report's cautions say which columns those are, never leaving them to be guessed.
    """
    if "annotators" not in columns:
        return enc
    present = {str(a) for a in enc.annotators}
    empty = [str(c).strip() for c in columns["annotators"] if str(c).strip() not in present]
    if not empty:
        return enc
    shown = ", ".join(f"'{c}'" for c in empty[:8]) + (" ..." if len(empty) > 8 else "")
    one = len(empty) == 1
    caution = (
        f"{format_count(len(empty), 'annotator column')} {'holds' if one else 'hold'} no label "
        f"at all ({shown}): not counted as {'an annotator' if one else 'annotators'}."
    )
    return _with_caution(enc, caution)


#: The hint on a loading error of a table with ``start`` and ``end`` columns.
SPAN_HINT = (
    "The columns start and end make this look like a span file (item, annotator, start, "
    "end, label: pieces of text marked in documents): load it on the Spans page, or with "
    "analytics.spans.load_spans."
)


def _looks_like_spans(columns: Any) -> bool:
    """Whether a table has the ``start`` and ``end`` columns of span offsets."""
    names = {str(c).strip().lower() for c in columns}
    return {"start", "end"} <= names


def _shown(cell: Any) -> str:
    """A nested cell as a person reads it (a NumPy array as its list), cut to 60 characters."""
    return str(cell.tolist() if isinstance(cell, np.ndarray) else cell)[:60]


def _is_raw_table(source: Any) -> bool:
    """A RawTable, or the (table, rows, report) tuple read_table returns."""
    return isinstance(source, tuple) and (
        len(source) == 3
        and isinstance(source[0], pd.DataFrame)
        and isinstance(source[2], LoadReport)
    )


def _mostly_text(labels: CellColumn) -> bool:
    """Whether the distinct text labels are not all numbers (so a separator may split)."""
    text = np.fromiter((isinstance(v, str) for v in labels.uniques), bool, len(labels.uniques))
    plain = text & ~labels.missing
    return bool(plain.any()) and not bool(labels.numeric()[plain].all())


def as_annotations(data: Annotations | pd.DataFrame, **kwargs: Any) -> Annotations:
    """Accept an :class:`Annotations` or a long DataFrame (item, annotator, label).

    Every public analytics function calls this first, so scripts may pass a DataFrame.

    Parameters
    ----------
    data : Annotations or pandas.DataFrame
        Annotations are returned as they are; a DataFrame is loaded.
    **kwargs
        Passed to :func:`load_annotations` for a DataFrame (``kind=``, ...).

    Returns
    -------
    Annotations

    Raises
    ------
    ArgumentTypeError
        For anything else (a path, say: load files with :func:`load_annotations`); an
        :class:`AnnotationDataError` and a ``TypeError``.
    AnnotationDataError
        When the DataFrame cannot be read as annotations.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": ["x", "y"]})
    >>> ann = as_annotations(df)
    >>> as_annotations(ann) is ann
    True
    """
    if isinstance(data, Annotations):
        return data
    if isinstance(data, pd.DataFrame):
        return load_annotations(data, **kwargs)
    if is_lazy(data):  # a function with no engine answer: never pull the data in silently
        raise AnnotationDataError(
            f"this analysis needs every judgement in memory, and the data are held by the "
            f"{data.engine} engine; the in-memory path is never substituted for a requested "
            "engine.",
            source=data.name,
            hint="On an engine: agreement_report, the coefficient functions, "
            "noise_from_annotations and dawid_skene.fit; otherwise load a subset in memory.",
        )
    is_path = isinstance(data, (str, os.PathLike))
    raise wrong_type(
        data,
        "Annotations or a pandas DataFrame",
        hint="Load the file first: ann = analytics.load_annotations(path)."
        if is_path
        else "Load a file with analytics.load_annotations(path), or pass a long DataFrame "
        "(item, annotator and label columns).",
    )
