"""Which column is which, and long or wide form: the layout of an annotation table.

:func:`detect_columns` finds the item, annotator and label columns by name
(:data:`ROLE_SYNONYMS`); :func:`to_long` decides long or wide form and returns one
judgement per row; :func:`detect_separator` finds a multi-label separator in the label
cells. Every decision comes with a reason the load report shows the user.

>>> detect_columns(["Task", "WorkerId", "Answer"])
{'item': 'Task', 'annotator': 'WorkerId', 'label': 'Answer'}
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError, show_text
from analytics.data.cells import EMPTY_SET_TOKENS, MISSING_TOKENS, CellColumn
from analytics.data.free_text import free_text_cautions
from analytics.data.load_report import LoadReport

__all__ = [
    "FLAT_INFERRED",
    "ROLE_SYNONYMS",
    "SEPARATOR_SHARE",
    "detect_columns",
    "detect_separator",
    "holds_only_flat_cells",
    "to_long",
]

#: Column names (lower case, blanks and dashes as ``_``) recognised for each role.
ROLE_SYNONYMS: dict[str, tuple[str, ...]] = {
    "item": (
        "item",
        "task",
        "unit",
        "id",
        "orig_id",
        "item_id",
        "task_id",
        "unit_id",
        "itemid",
        "taskid",
        "hitid",
        "doc_id",
        "document_id",
        "example_id",
        "sentence_id",
        "text_id",
    ),
    "annotator": (
        "annotator",
        "worker",
        "rater",
        "coder",
        "user",
        "annotator_id",
        "worker_id",
        "workerid",
        "rater_id",
        "coder_id",
        "user_id",
        "judge",
        "labeler",
        "labeller",
    ),
    "label": (
        "label",
        "response",
        "answer",
        "category",
        "value",
        "rating",
        "class",
        "annotation",
        "judgement",
        "judgment",
        "labels",
        "choice",
        "choices",
    ),
}
_SEPARATOR_CANDIDATES = (";", "|")
#: The share of non-missing text label cells that must hold a separator for it to split.
SEPARATOR_SHARE = 0.2
#: pandas' inferred types of an object column that holds no nested or binary cell.
FLAT_INFERRED = frozenset(
    {"string", "integer", "floating", "mixed-integer-float", "boolean", "empty"}
)
_NUMERIC_ID = re.compile(r"^\s*[+-]?\d+(\.\d+)?\s*$")


def _norm(col: Any) -> str:
    text = str(col).strip().lower()
    # INPUT:/OUTPUT: prefixes (Toloka, crowd-kit) are dropped; GOLDEN: columns keep their
    # prefix so an expert answer never competes with the crowd's for the label role
    text = re.sub(r"^(input|output):", "", text)
    return re.sub(r"[\s\-]+", "_", text)


def detect_columns(
    columns: Sequence[str],
    *,
    item: str | None = None,
    annotator: str | None = None,
    label: str | None = None,
    source: str | None = None,
) -> dict[str, str | None]:
    """Find the item, annotator and label columns by name (case-insensitive synonyms).

    Columns named by the caller win. A role that several columns could fill is an error
    listing the candidates (name the one you mean), unless exactly one of them is the
    role's own name (``item`` beside ``id``).

    Parameters
    ----------
    columns : sequence of str
        The table's column names.
    item, annotator, label : str or None, default None
        Columns the caller named for a role; they must exist.
    source : str or None, default None
        The file name, for error messages.

    Returns
    -------
    dict
        ``{"item": ..., "annotator": ..., "label": ...}``: the column for each role, None
        where no column matched (case and blanks ignored; ``INPUT:``/``OUTPUT:``
        prefixes dropped; see :data:`ROLE_SYNONYMS`).

    Raises
    ------
    AnnotationDataError
        When a named column does not exist, or several columns could fill a role.

    Examples
    --------
    >>> detect_columns(["id", "item", "rater", "x"])
    {'item': 'item', 'annotator': 'rater', 'label': None}
    """
    given = {"item": item, "annotator": annotator, "label": label}
    cols = [str(c) for c in columns]
    for role, col in given.items():
        if col is not None and col not in cols:
            raise AnnotationDataError(
                f"there is no column '{col}' for the {role}.",
                source=source,
                column=col,
                hint=f"Columns present: {', '.join(cols)}.",
            )
    found: dict[str, str | None] = {}
    taken = {c for c in given.values() if c is not None}
    for role, synonyms in ROLE_SYNONYMS.items():
        if given[role] is not None:
            found[role] = given[role]
            continue
        matches = [c for c in cols if _norm(c) in synonyms and c not in taken]
        if len(matches) > 1:
            # the role's own name wins ('item' beside 'id'); any other tie is ambiguous
            exact = [c for c in matches if _norm(c) == role]
            if len(exact) != 1:
                raise AnnotationDataError(
                    f"several columns could hold the {role}: {matches}.",
                    source=source,
                    column=matches[0],
                    hint=f"Say which one with {role}='...'.",
                )
            matches = exact
        found[role] = matches[0] if matches else None
        if found[role] is not None:
            taken.add(found[role])
    return found


def to_long(
    df: pd.DataFrame,
    rows: np.ndarray,
    report: LoadReport,
    *,
    item: str | None,
    annotator: str | None,
    label: str | None,
    layout: str | None,
) -> tuple[pd.DataFrame, np.ndarray, dict[str, Any], str, str, list[str]]:
    """Decide long or wide form and return a long frame (item, annotator, label).

    Long form when item, annotator and label columns are found (with three columns, two
    recognised, the third takes the remaining role, and the reason says it was a
    guess). Otherwise wide form: one row per item (the item column, or a first column
    with a distinct value on every row), every other column one annotator.

    Parameters
    ----------
    df : pandas.DataFrame
        The raw table (:func:`~analytics.data.reading.read_table`).
    rows : ndarray of int
        The file row number of each row of ``df``.
    report : LoadReport
        The report so far (its ``source`` names the file in errors).
    item, annotator, label : str or None
        Columns named by the caller (None: detect).
    layout : {"long", "wide"} or None
        Force a layout; None detects it.

    Returns
    -------
    long : pandas.DataFrame
        Columns ``item``, ``annotator``, ``label``, one judgement (or empty cell) per row.
    rows : ndarray of int
        The file row number of each row of ``long``.
    columns : dict
        The columns used: ``item``/``annotator``/``label``, or ``item``/``annotators``.
    layout : str
        ``"long"`` or ``"wide"``.
    reason : str
        Why, in plain words.
    cautions : list of str
        Guesses the user should check (e.g. a header that looks like data).

    Raises
    ------
    AnnotationDataError
        When the roles cannot be told apart, an unknown layout is asked for, or wide
        data repeats an item id.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> wide = pd.DataFrame({"item": ["q1", "q2"], "r1": [1, 2], "r2": [1, None]})
    >>> long, rows, cols, layout, why, _ = to_long(
    ...     wide, np.array([2, 3]), LoadReport(), item=None, annotator=None, label=None,
    ...     layout=None)
    >>> layout, long["annotator"].tolist(), rows.tolist()
    ('wide', ['r1', 'r2', 'r1', 'r2'], [2, 2, 3, 3])
    """
    name = report.source
    cautions: list[str] = []
    cols = list(df.columns)
    if not cols:
        raise AnnotationDataError(
            "the records have no fields (e.g. a JSON list of empty objects {}).",
            source=name,
            hint="Each record needs item, annotator and label fields (long form), or an item "
            "field and one field per annotator (wide form).",
        )
    repeated = list(dict.fromkeys(c for c in pd.Index(cols)[pd.Index(cols).duplicated()]))
    if repeated:  # a DataFrame allows it; names the header check could not see (JSON keys)
        one = len(repeated) == 1
        raise AnnotationDataError(
            f"the column {'name' if one else 'names'} "
            f"{', '.join(show_text(c) for c in repeated[:5])} {'appears' if one else 'appear'} "
            "more than once.",
            source=name,
            column=str(repeated[0]),
            hint="Column names must be unique: rename one of them.",
        )
    found = detect_columns(cols, item=item, annotator=annotator, label=label, source=name)
    named = any(v is not None for v in (item, annotator, label))
    if layout not in (None, "long", "wide"):
        raise AnnotationDataError(f"unknown layout {layout!r}.", hint="Use 'long' or 'wide'.")
    guess = ""
    known = [r for r in ("annotator", "label") if found[r] is not None]
    if layout in (None, "long") and known and len(cols) == 3 and None in found.values():
        # Three columns, some recognised: the others take the remaining roles in the
        # usual order (item, annotator, label). The report says it was a guess.
        free = [c for c in cols if c not in found.values()]
        roles = [r for r in ("item", "annotator", "label") if found[r] is None]
        found.update(zip(roles, free, strict=True))
        guess = (
            " Guessed "
            + " and ".join(f"'{found[r]}' as the {r} column" for r in roles)
            + " (three columns, the others recognised); name the columns if that is wrong."
        )
    long_ok = None not in found.values()
    if layout == "long" or (layout is None and long_ok):
        missing = [r for r, c in found.items() if c is None]
        if missing:
            raise AnnotationDataError(
                f"could not tell which column holds the {' and the '.join(missing)}.",
                source=name,
                hint=f"Columns present: {', '.join(map(str, cols))}. Name them with "
                + ", ".join(f"{m}='...'" for m in missing)
                + ".",
            )
        why = (
            "Long form: the columns were named by you."
            if named
            else f"Long form: found item column '{found['item']}', annotator column "
            f"'{found['annotator']}' and label column '{found['label']}'."
        )
        why += guess
        extra = [c for c in cols if c not in found.values()]
        if extra:
            shown = ", ".join(str(c) if str(c).strip() else "(no name)" for c in extra[:8])
            why += f" Other columns ignored: {shown}{'...' if len(extra) > 8 else ''}."
        # the columns keep their dtype (Arrow-backed text stays so): no per-cell objects
        out = pd.DataFrame(
            {
                role: df[found[role]].reset_index(drop=True)
                for role in ("item", "annotator", "label")
            }
        )
        return out, rows, found, "long", why, cautions
    partial = [r for r in ("annotator", "label") if found[r] is not None]
    if layout is None and partial:
        missing = [r for r, c in found.items() if c is None]
        raise AnnotationDataError(
            f"found {' and '.join(f'{r} column {found[r]!r}' for r in partial)} but no "
            f"{' and no '.join(missing)} column.",
            source=name,
            hint=f"Columns present: {', '.join(map(str, cols))}. Name the missing one with "
            + ", ".join(f"{m}='...'" for m in missing)
            + ", or pass layout='wide' if every column besides the item is an annotator.",
        )
    # wide form: one row per item, one column per annotator
    item_col = found["item"]
    if item_col is None:
        first = cols[0]
        _refuse_nested_ids(df[first], rows, first, name)
        values = df[first].to_numpy(object)
        if layout == "wide" or (len(cols) >= 2 and pd.Series(values).nunique() == len(values)):
            item_col = first
            why_item = f"its first column '{first}' has a distinct value on every row, so it is read as the item id"
        else:
            raise AnnotationDataError(
                "could not tell which column holds the items, and the data is not in wide form "
                "(no column has a distinct id on every row).",
                source=name,
                hint=f"Columns present: {', '.join(map(str, cols))}. Name them with item='...', "
                "annotator='...', label='...'.",
            )
    else:
        why_item = f"'{item_col}' is the item column"
    ann_cols = [c for c in cols if c != item_col]
    if not ann_cols:
        raise AnnotationDataError("wide form needs at least one annotator column.", source=name)
    _refuse_nested_ids(df[item_col], rows, item_col, name)
    ids = df[item_col].to_numpy(object)
    dup = pd.Series(ids).duplicated(keep=False).to_numpy()
    if dup.any():
        raise AnnotationDataError(
            f"wide form needs one row per item, but item ids repeat in column '{item_col}'.",
            source=name,
            column=str(item_col),
            rows=rows[dup].tolist(),
            hint="For long data (one judgement per row) name the columns with item=, annotator=, label=.",
        )
    why = (
        f"Wide form: {why_item}, and each of the other {len(ann_cols)} columns is one annotator "
        "(no annotator and label columns were found)."
    )
    block = df[ann_cols].to_numpy(object)  # once: column by column, 2.4 s for 60,000
    cells = {str(v).strip() for v in block.reshape(-1)[:20_000]}
    header_as_data = [
        c for c in [item_col, *ann_cols] if str(c).strip() in cells or _NUMERIC_ID.match(str(c))
    ]
    if header_as_data:
        caution = (
            f"The header names {header_as_data[:3]} look like data values: if the file has no "
            "header row, add one (item, annotator, label for long form)."
        )
        why += " " + caution
        cautions.append(caution)
    cautions += free_text_cautions(df, ann_cols, block) + _contingency_caution(ids, ann_cols, block)
    n_i, n_a = len(df), len(ann_cols)
    out = pd.DataFrame(
        {
            "item": np.repeat(ids, n_a),
            "annotator": np.tile(np.asarray(ann_cols, dtype=object), n_i),
            "label": block.reshape(-1),
        }
    )
    return (
        out,
        np.repeat(rows, n_a),
        {"item": item_col, "annotators": ann_cols},
        "wide",
        why,
        cautions,
    )


def _contingency_caution(ids: np.ndarray, ann_cols: list, block: np.ndarray) -> list[str]:
    """A wide table whose row names are its column names, holding counts: a contingency
    table read as wide form (rater1,pos,neg / pos,10,2 / neg,3,5 had become 2 items and
    "categories" 10, 2, 3, 5 without a word). Count tables are never guessed: a caution."""
    if not 2 <= len(ann_cols) <= 1000 or len(ids) != len(ann_cols):
        return []  # decided on the sizes: no look at the ids of a long wide table
    names = [str(c).strip() for c in ann_cols]
    if sorted(str(v).strip() for v in ids) != sorted(names):
        return []
    counts = pd.to_numeric(pd.Series(block.reshape(-1)), errors="coerce")
    if counts.isna().any() or (counts < 0).any() or (counts % 1 != 0).any():
        return []
    return [
        "The row names are the column names and the cells are counts: this looks like a "
        "two-rater contingency table (rows: rater 1, columns: rater 2). If so, read it with "
        "layout='contingency' (on the Data page: Layout, 'contingency table (two raters)')."
    ]


def holds_only_flat_cells(col: pd.Series) -> bool:
    """Whether a column can hold no list, dict, set or bytes cell (no look at each cell).

    >>> holds_only_flat_cells(pd.Series(["a", "b"])), holds_only_flat_cells(pd.Series([["a"]]))
    (True, False)
    """
    return col.dtype != object or pd.api.types.infer_dtype(col, skipna=True) in FLAT_INFERRED


def _refuse_nested_ids(col: pd.Series, rows: np.ndarray, column: Any, name: str) -> None:
    """A would-be item column holding lists, objects or binary cells: an error, never hashed."""
    if holds_only_flat_cells(col):
        return  # typed or plain columns hold no nested cell: no look at each cell
    cells = col.to_numpy(object)
    nested = (dict, set, frozenset, list, tuple, np.ndarray, bytes, bytearray)
    bad = np.fromiter((isinstance(v, nested) for v in cells), bool, len(cells))
    if bad.any():
        raise AnnotationDataError(
            f"the item cells hold lists, objects or binary values (e.g. "
            f"{str(cells[np.flatnonzero(bad)[0]])[:40]}), which are not item ids.",
            source=name,
            column=str(column),
            rows=np.asarray(rows)[bad].tolist(),
            hint="An item id is text or a number: flatten those cells to text, or name the "
            "item column with item='...'.",
        )


def detect_separator(labels: Any, tokens: frozenset = MISSING_TOKENS) -> str | None:
    """The multi-label separator used in text label cells, if any.

    A candidate (``;``, then ``|``) is the separator when both hold:

    1. at least :data:`SEPARATOR_SHARE` (20%) of the non-missing text label cells
       contain it, or at least one does and another holds an explicit empty set
       (``{}``, ``[]``, ``set()``, ``∅``: Concord's own exports write them), and
    2. at least half of the distinct parts it splits them into are labels in their own
       right: seen alone in a cell, or in two or more different multi-part cells.

    So two ``A|B`` cells among 100 do not make a file multi-label (1), and one column of
    free text that happens to hold semicolons is not split when its pieces never recur (2).

    Parameters
    ----------
    labels : ndarray, pandas.Series or CellColumn
        Label cells.
    tokens : frozenset of str, default MISSING_TOKENS
        Texts that mean "not labelled" (not counted).

    Returns
    -------
    str or None
        The separator, or None.

    Examples
    --------
    >>> detect_separator(np.array(["anger;fear", "joy", "fear", None], dtype=object))
    ';'
    >>> detect_separator(np.array(["A|B"] * 2 + ["A", "B", "C"] * 33, dtype=object)) is None
    True
    """
    col = labels if isinstance(labels, CellColumn) else CellColumn.of(labels, tokens)
    u = col.uniques
    text = np.fromiter((isinstance(v, str) for v in u), bool, len(u)) & ~col.missing
    if not text.any():
        return None
    texts = pd.Index(u[text], dtype=object)
    empty_sets = any(t.strip() in EMPTY_SET_TOKENS for t in texts)
    counts = None  # cells per text, counted only when a text holds a candidate separator
    for sep in _SEPARATOR_CANDIDATES:
        has = np.asarray(texts.str.contains(sep, regex=False), bool)
        if not has.any():
            continue
        if counts is None:
            counts = np.bincount(col.codes[col.codes >= 0], minlength=len(u))[text]
        share = counts[has].sum() / counts.sum()
        if share < SEPARATOR_SHARE and not empty_sets:
            continue
        alone = {t.strip() for t in texts[~has]}
        seen_in: dict[str, int] = {}
        for t in texts[has]:
            for part in {p.strip() for p in t.split(sep) if p.strip()}:
                seen_in[part] = seen_in.get(part, 0) + 1
        labels_too = sum(p in alone or n >= 2 for p, n in seen_in.items())
        if seen_in and labels_too >= len(seen_in) / 2:
            return sep
    return None
