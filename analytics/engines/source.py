"""The source as the in-memory loader reads it, in SQL: ids and labels as stripped text.

The engines read the three columns the way :func:`analytics.data.load_annotations` does,
so that both give the same judgements:

- ids and labels are text with surrounding blanks dropped (``" joy"`` is ``"joy"``);
  whole floats lose ``.0`` (an annotator ``3.0`` is ``"3"``); booleans are ``"True"`` and
  ``"False"``;
- a missing-value text (:data:`~analytics.data.MISSING_TOKENS`, case and blanks ignored),
  NULL and NaN are missing. NaN is found through its text: DuckDB answers ``isnan`` from a
  Parquet file's statistics, which leave NaN out, so ``isnan`` can miss it;
- an integer item column keeps its type (it is only grouped and joined on);
- labels that are all numbers are numbers, ordered numerically (``"1", "2", "10"``), and
  several texts of one number (``"1"`` and ``"1.0"``) are one category.

One aggregate over the source (:func:`label_groups`) gives the distinct labels and what
the load report counts: rows, missing labels, rows without an item or annotator.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError, show_text
from analytics.data import (
    MISSING_TOKENS,
    SCALE_CAUTION,
    LabelKind,
    SkipNote,
    infer_kind,
    label_text,
    long_integer_text,
    looks_numeric,
    to_number,
)

__all__ = ["RAW", "Labels", "column_text", "label_groups", "raw_view", "read_labels"]

RAW = "concord_raw"
"""Every source row: ``item, annotator, label`` cleaned (missing as NULL), ``blanks``."""
INTEGER_NAMES = ("TINYINT", "SMALLINT", "INTEGER", "INT", "BIGINT", "HUGEINT", "LONG", "SHORT")
INTEGER_NAMES += ("BYTE", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT")
FLOAT_NAMES = ("FLOAT", "DOUBLE", "REAL")
TEXT_NAMES = ("VARCHAR", "STRING", "TEXT", "CHAR")
NAN_TEXTS = ("nan", "-nan")
"""How DuckDB (``nan``, ``-nan``) and Spark (``NaN``) write NaN as text, lower case."""


def _base(type_name: str) -> str:
    t = type_name.upper().split("(")[0].replace("TYPE", "").strip()
    for kind, names in (("integer", INTEGER_NAMES), ("float", FLOAT_NAMES)):
        if t in names:
            return kind
    if t in TEXT_NAMES:
        return "text"
    return "bool" if t in ("BOOLEAN", "BOOL") else "other"


#: What Python's ``str.strip()`` (the in-memory loader's) removes: every whitespace
#: character.
_SPACES = tuple(c for c in range(0x3001) if chr(c).isspace())


def _char(code: int, text_type: str) -> str:
    """SQL for one character. Spark's ``chr`` wraps at 256 (``chr(5760)`` is ``chr(128)``):
    there a character past it is decoded from its UTF-8 bytes, which no parser setting
    changes (a ``'\\u1680'`` literal depends on ``spark.sql.parser.escapedStringLiterals``)."""
    if text_type == "STRING" and code >= 256:
        return f"decode(unhex('{chr(code).encode().hex().upper()}'), 'UTF-8')"
    return f"chr({code})"


def _trim(text: str, text_type: str) -> str:
    """SQL that strips every whitespace character from both ends of ``text``."""
    spaces = " || ".join(_char(c, text_type) for c in _SPACES)
    return f"TRIM(BOTH {spaces} FROM {text})"


def _tokens(texts: Sequence[str]) -> str:
    return ", ".join("'" + t.replace("'", "''") + "'" for t in sorted(set(texts)))


def column_text(column: str, type_name: str, text_type: str) -> str:
    """The text of a column as the loader reads a cell, missing cells NULL.

    Parameters
    ----------
    column : str
        The quoted column.
    type_name : str
        Its type as the engine names it.
    text_type : str
        The dialect's text type.

    Returns
    -------
    str
        A SQL expression: the text stripped of surrounding blanks, NULL for a missing
        value (NULL, NaN, blank or a missing-value text).
    """
    base = _base(type_name)
    tokens = list(MISSING_TOKENS)
    if base == "bool":
        text = f"CASE WHEN {column} THEN 'True' WHEN NOT {column} THEN 'False' END"
    elif base == "float":
        tokens += list(NAN_TEXTS)
        raw = f"CAST({column} AS {text_type})"
        text = f"CASE WHEN {raw} LIKE '%.0' THEN SUBSTR({raw}, 1, LENGTH({raw}) - 2) ELSE {raw} END"
    elif base == "text":
        text = column
    else:
        text = f"CAST({column} AS {text_type})"
    trimmed = _trim(text, text_type)
    return f"CASE WHEN LOWER({trimmed}) IN ({_tokens(tokens)}) THEN NULL ELSE {trimmed} END"


def raw_view(scan: str, columns: dict[str, tuple[str, str]], text_type: str) -> str:
    """Every row of the source with its three columns cleaned (:func:`column_text`).

    Parameters
    ----------
    scan : str
        The FROM clause.
    columns : dict
        Per role (``item``, ``annotator``, ``label``), the quoted column and its type.
    text_type : str
        The dialect's text type.

    Returns
    -------
    str
        ``item, annotator, label, blanks``: an integer item column as it is; ``blanks``
        is 1 on a row where a text column had surrounding blanks around a value.
    """
    exprs, padded = {}, []
    for role, (col, type_name) in columns.items():
        keep = role == "item" and _base(type_name) == "integer"
        exprs[role] = col if keep else column_text(col, type_name, text_type)
        if _base(type_name) == "text":
            trimmed = _trim(col, text_type)
            padded.append(f"({col} <> {trimmed} AND {trimmed} <> '')")
    blanks = f"CASE WHEN {' OR '.join(padded)} THEN 1 ELSE 0 END" if padded else "0"
    return (
        f"SELECT {exprs['item']} AS item, {exprs['annotator']} AS annotator, "
        f"{exprs['label']} AS label, {blanks} AS blanks FROM {scan}"
    )


def source_view() -> str:
    """The judgement rows of :data:`RAW`: those with an item and an annotator."""
    return (
        f"SELECT item, annotator, label FROM {RAW} WHERE item IS NOT NULL AND annotator IS NOT NULL"
    )


def label_groups() -> str:
    """Per distinct label (NULL: missing), its rows, rows without an item or annotator,
    rows with both, and those rows' padded cells: one pass over the source."""
    ids = "item IS NOT NULL AND annotator IS NOT NULL"
    return (
        "SELECT label, COUNT(*) AS n, SUM(CASE WHEN item IS NULL THEN 1 ELSE 0 END) AS no_item, "
        "SUM(CASE WHEN item IS NOT NULL AND annotator IS NULL THEN 1 ELSE 0 END) AS no_annotator, "
        f"SUM(CASE WHEN {ids} THEN 1 ELSE 0 END) AS kept, "
        f"SUM(CASE WHEN {ids} THEN blanks ELSE 0 END) AS blanks FROM {RAW} GROUP BY label"
    )


@dataclass(frozen=True)
class Labels:
    """What :func:`read_labels` decided: categories, the code of each label text, counts.

    Attributes
    ----------
    categories : pandas.Index
        The categories in order.
    codes : pandas.DataFrame
        ``value`` (a label text) and ``code`` (its category), one row per text used.
    numeric : bool
        Whether the labels are numbers.
    kind : LabelKind
        The label kind (inferred by the loader's rule when not given).
    kind_reason : str
        Why that kind.
    n_rows, n_missing : int
        Rows read, and label cells missing on rows with an item and an annotator.
    skipped : tuple of SkipNote
        Rows without an item or an annotator.
    cautions : tuple of str
        Stripped blanks, several texts of one number.
    kind_caution : str
        :data:`~analytics.data.kinds.SCALE_CAUTION` when it applies.
    """

    categories: pd.Index
    codes: pd.DataFrame
    numeric: bool
    kind: LabelKind
    kind_reason: str
    n_rows: int
    n_missing: int
    skipped: tuple
    cautions: tuple
    kind_caution: str


def read_labels(
    groups: pd.DataFrame,
    declared: Sequence[Any] | None,
    kind: str | LabelKind | None,
    numeric_column: bool,
    names: dict[str, str],
    source: str,
) -> Labels:
    """Categories, label codes, kind and report counts from :func:`label_groups`.

    Parameters
    ----------
    groups : pandas.DataFrame
        The answer of :func:`label_groups`.
    declared : sequence or None
        Declared categories in order.
    kind : str, LabelKind or None
        The declared kind.
    numeric_column : bool
        Whether the label column has a number type.
    names : dict
        The column of each role, for messages.
    source : str
        The file, for messages.

    Returns
    -------
    Labels

    Raises
    ------
    AnnotationDataError
        No judgement, labels that are not finite numbers, labels outside the declared
        categories, duplicate categories, a numeric kind for text labels.
    """
    count = {c: int(pd.to_numeric(groups[c]).fillna(0).sum()) for c in groups.columns[1:]}
    missing = groups["label"].isna()
    kept = pd.to_numeric(groups["kept"]).fillna(0).to_numpy(np.int64)
    used = [str(v) for v in groups.loc[~missing & (kept > 0), "label"]]
    n_missing = int(kept[missing.to_numpy()].sum())
    skipped = tuple(
        SkipNote(f"no {role} id (column '{names[role]}' empty)", count[key])
        for role, key in (("item", "no_item"), ("annotator", "no_annotator"))
        if count[key]
    )
    if not used:
        why = f" ({n_missing:,} empty label cells)" if n_missing else ""
        raise AnnotationDataError(
            f"no judgements: none of the {count.get('n', 0):,} rows has an item, an annotator "
            f"and a label{why}.",
            source=source,
            column=names["label"],
            hint="Check that the file holds judgements and that the label column is the right one.",
        )
    text_declared = declared is not None and any(isinstance(c, str) for c in declared)
    if text_declared and numeric_column and looks_numeric(declared):  # "1,2,3" typed
        declared, text_declared = [to_number(c) for c in declared], False
    # as in memory: a text column with a whole number of 16 digits or more stays text (it
    # would merge with its neighbours as a float); an integer column's values are exact
    numeric = (
        not text_declared
        and looks_numeric(used)
        and (numeric_column or not any(long_integer_text(t) for t in used))
    )
    if numeric_column and not numeric and not text_declared:
        bad = next(t for t in used if not looks_numeric([t]))
        raise AnnotationDataError(
            f"labels such as {bad!r} are not finite numbers.",
            source=source,
            column=names["label"],
            hint="Correct those cells (or leave them empty for 'not labelled').",
        )
    keys = [to_number(t) for t in used] if numeric else used
    if declared is not None:
        cats = pd.Index([to_number(c) if numeric else label_text(c) for c in declared])
        if not cats.is_unique:
            raise AnnotationDataError("declared categories contain duplicates.", source=source)
    else:
        cats = pd.Index(sorted(set(keys)))
    code = cats.get_indexer(pd.Index(keys, dtype=object))
    if (code < 0).any():
        unknown = sorted({used[i] for i in np.flatnonzero(code < 0)}, key=str)
        raise AnnotationDataError(
            f"labels outside the declared categories: {unknown[:5]}.",
            source=source,
            column=names["label"],
            hint="Declare every category used, or leave categories out.",
        )
    lk, reason = _kind(kind, cats, numeric, source, names["label"])
    cautions = []
    padded = pd.to_numeric(groups["blanks"]).fillna(0).to_numpy(np.int64)
    blanks = int(padded[~missing.to_numpy()].sum())
    if blanks:
        cautions.append(
            f"{blanks:,} judgement{'s' if blanks != 1 else ''} had blanks around the item, "
            "annotator or label; they were dropped (' joy' read as 'joy'), as the in-memory "
            "loader does, so ids and labels differing only by blanks are one."
        )
    per = pd.Series(used).groupby(code).unique()
    merged = per[per.map(len) > 1]
    if numeric and len(merged):
        shown = ", ".join(repr(t) for t in sorted(merged.iloc[0])[:3])
        cautions.append(
            f"Labels {shown} in column {show_text(names['label'])} are the same number, so "
            "they are read as one category. If they are different codes, declare the "
            "categories as text to keep them apart."
        )
    scale = kind is None and lk is LabelKind.NOMINAL and numeric and len(cats) >= 3
    return Labels(
        categories=cats,
        codes=pd.DataFrame({"value": used, "code": code.astype(np.int32)}),
        numeric=numeric,
        kind=lk,
        kind_reason=reason,
        n_rows=count.get("n", 0),
        n_missing=n_missing,
        skipped=skipped,
        cautions=tuple(cautions),
        kind_caution=SCALE_CAUTION if scale else "",
    )


def _kind(
    kind: str | LabelKind | None, cats: pd.Index, numeric: bool, source: str, label: str
) -> tuple[LabelKind, str]:
    if kind is None:
        return infer_kind(list(cats), numeric=numeric)
    lk = LabelKind.parse(kind)
    if lk is LabelKind.MULTILABEL:
        raise AnnotationDataError("the engines read single-label data only.", source=source)
    if lk is LabelKind.NUMERIC and not numeric:
        raise AnnotationDataError(
            "the labels are text, so they cannot be numeric.",
            source=source,
            column=label,
            hint="Choose nominal or ordinal.",
        )
    return lk, f"Label kind: {lk.value} (as chosen)."
