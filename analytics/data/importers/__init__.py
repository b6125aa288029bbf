"""Recognise exports of annotation tools and turn them into long (item, annotator, label) data.

Each tool reader (a :class:`~analytics.data.importers.base.ToolReader`) returns None when the
table is not that tool's export, else ``(long_table, rows, report)``. The loader asks
them in turn after reading the file and before choosing long or wide form. Recognition
is by content (column names and the shape of the cells), never by file name.

Supported: Label Studio JSON, JSON-MIN, CSV and TSV, Prodigy JSONL (``db-out``), Amazon Mechanical Turk batch
results CSV and Toloka result TSV. Plain item/annotator/label tables (and crowd-kit style
``task, worker, label`` with ``INPUT:``/``OUTPUT:`` prefixes) need no reader: the column
synonyms of :mod:`analytics.data.layout` cover them.

Tool-specific choices travel in one ``options`` dict, e.g.
``{"from_name": "sentiment"}`` for Label Studio or ``{"answer": "Answer.topic"}`` for
MTurk; :func:`describe_tool_export` lists the choices a file offers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.data.importers import label_studio, label_studio_flat, mturk, prodigy, toloka
from analytics.data.importers.base import (
    ToolInfo,
    ToolReader,
    ToolResult,
    refuse_repeated_columns,
)
from analytics.data.importers.options import ToolOption, build_options, check_option, parse_option
from analytics.data.load_report import LoadReport

__all__ = [
    "TOOL_OPTIONS",
    "TOOL_READERS",
    "ToolInfo",
    "ToolOption",
    "ToolReader",
    "convert_tool_export",
    "describe_tool_export",
    "parse_tool_option",
]

TOOL_READERS: list[ToolReader] = [
    label_studio.READER,
    label_studio_flat.READER,
    prodigy.READER,
    mturk.READER,
    toloka.READER,
]
#: Every option any reader understands: its type, the tools it applies to and what it
#: does (see :mod:`analytics.data.importers.options` for the table).
TOOL_OPTIONS: dict[str, ToolOption] = build_options(TOOL_READERS)


def parse_tool_option(key: str, value: str) -> tuple[str, Any]:
    """Convert one ``--tool-option KEY=VALUE`` from the command line to the option's type.

    ``bool`` options take true/false, yes/no, 1/0 or on/off (any case); ``multilabel``
    also takes ``auto`` (None: decide from the data). ``str`` options take the text
    stripped of surrounding spaces (not empty). ``int`` options take a whole number.
    ``item_columns`` (``list[str]``) takes column names separated by commas (empty
    parts dropped).

    Parameters
    ----------
    key : str
        The option's name.
    value : str
        Its text.

    Returns
    -------
    tuple
        ``(key, value)``, ready for ``dict(...)`` and
        ``load_annotations(..., tool_options=)``.

    Raises
    ------
    AnnotationDataError
        For an unknown key (the message lists the known ones with their types) or a
        value that does not convert.
    """
    return parse_option(key, value, TOOL_OPTIONS)


def convert_tool_export(
    table: pd.DataFrame,
    rows: np.ndarray,
    report: LoadReport,
    options: Mapping[str, Any] | Iterable[tuple[str, Any]] | None = None,
) -> ToolResult | None:
    """The long form of a recognised tool export, or None if no tool recognises it.

    Parameters
    ----------
    table, rows, report : pandas.DataFrame, ndarray of int, LoadReport
        What :func:`analytics.data.reading.read_table` returned.
    options : mapping, iterable of pairs or None, default None
        Tool-specific choices (see :data:`TOOL_OPTIONS`), a dict or (name, value)
        pairs; None or ``{}`` for the defaults. Options given for a file that no tool recognises, or that do not
        apply to the recognised tool, are an error (they would otherwise be ignored
        silently).

    Returns
    -------
    ToolResult or None
        The long table (item, annotator, label), its row numbers and the report.

    Raises
    ------
    AnnotationDataError
        When a recognised export is malformed, or an option is wrong.
    """
    options = dict(options or {})
    unknown = sorted(set(options) - set(TOOL_OPTIONS))
    if unknown:
        raise AnnotationDataError(
            f"unknown tool {'option' if len(unknown) == 1 else 'options'} {unknown}.",
            source=report.source,
            hint=f"Known options: {', '.join(sorted(TOOL_OPTIONS))}.",
        )
    for key, value in options.items():
        try:
            check_option(key, value, TOOL_OPTIONS)
        except AnnotationDataError as exc:
            raise AnnotationDataError(exc.problem, source=report.source, hint=exc.hint) from None
    for reader in TOOL_READERS:
        out = reader(table, rows, report, options)
        if out is not None:
            return out
    if options:
        raise AnnotationDataError(
            f"tool options {sorted(options)} were given, but the file is not an export of "
            f"a tool Concord recognises ({', '.join(dict.fromkeys(r.name for r in TOOL_READERS))}).",
            source=report.source,
            hint="Leave the tool options out for plain item/annotator/label tables.",
        )
    return None


def describe_tool_export(table: pd.DataFrame, *, format: str | None = None) -> ToolInfo | None:
    """Which tool made this table, which of its exports, and the choices its reader offers.

    For the upload page: read the file with :func:`analytics.data.reading.read_table`, call
    this, say "Recognised a {info.tool} export ({info.export})", offer ``info.choices``,
    then load with the chosen options. Malformed exports are described as far as they
    can be; loading them raises the error that names the problem.

    Parameters
    ----------
    table : pandas.DataFrame
        A raw table.
    format : str or None, default None
        The format the table was read from (``report.format`` of ``read_table``), which
        tells a Label Studio CSV export from its TSV; None: judged from the table alone.

    Returns
    -------
    ToolInfo or None
        None for a table no tool made.

    Raises
    ------
    AnnotationDataError
        Only this (never another exception), for a table that cannot be described.
    """
    for reader in TOOL_READERS:
        if reader.recognise(table):
            refuse_repeated_columns(table, reader.name, None)
            return replace(reader.describe(table), export=reader.export(table, format))
    return None
