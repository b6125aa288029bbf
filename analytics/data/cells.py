"""What one cell of an annotation table means: missing, a number, a label set, an id.

The lowest layer of :mod:`analytics.data`: plain functions on single values, used by the
encoder (:mod:`analytics.data.encode`), the layout detection and the tool importers. It
imports nothing from the rest of the package but :mod:`analytics.data.codes` and
:mod:`analytics.data.text_index`.

>>> is_missing(" NA "), is_missing("0")
(True, False)
>>> looks_numeric(["1", "2.5", 3]), looks_numeric(["4_20"])
(True, False)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd

from analytics.data.codes import first_positions, first_seen, first_seen_kept, set_codes
from analytics.data.text_index import (
    arrow_factorize,
    factorize_runs,
    is_text,
    strip_leaves,
    text_heads,
    text_missing,
)

__all__ = [
    "EMPTY_SET_TOKENS",
    "GUARDED",
    "MISSING_TOKENS",
    "SET_TYPES",
    "CellColumn",
    "arrow_factorize",
    "first_seen",
    "id_text",
    "is_missing",
    "label_set",
    "label_text",
    "long_integer_text",
    "looks_numeric",
    "missing_tokens",
    "set_codes",
    "text_heads",
    "to_number",
    "unguard",
]

_NUMBER = re.compile(r"^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$")
#: A whole number of 16 to 308 digits: past 2**53 floats skip integers (longer ones are
#: not finite as floats, and refused as numbers).
_LONG_INTEGER = re.compile(r"^\s*[+-]?0*[1-9]\d{15,307}\s*$")
#: A whole number written without a point or exponent.
_WHOLE = re.compile(r"^\s*[+-]?\d+\s*$")
#: Cell texts (case-insensitive, stripped) that mean "not labelled".
MISSING_TOKENS = frozenset({"", "na", "n/a", "nan", "none", "null", "<na>", "nat"})
#: An explicit empty label set in a text cell ("none of these"); an empty cell is missing.
EMPTY_SET_TOKENS = frozenset({"{}", "[]", "set()", "\u2205"})
#: Python containers a DataFrame cell may hold as a multi-label set.
SET_TYPES = (set, frozenset, list, tuple, np.ndarray)


def is_missing(value: Any, tokens: frozenset = MISSING_TOKENS) -> bool:
    """Whether a cell value means "not labelled".

    Parameters
    ----------
    value : object
        One cell: None, a float, pandas ``NA``/``NaT``, text, ...
    tokens : frozenset of str, default MISSING_TOKENS
        The texts (lower case, stripped) that mean "not labelled" (see
        :func:`missing_tokens`).

    Returns
    -------
    bool
        True for None, NaN, ``pd.NA``, ``pd.NaT`` and the texts in
        :data:`MISSING_TOKENS` (case and surrounding blanks ignored).

    Examples
    --------
    >>> [is_missing(v) for v in (None, float("nan"), "", "null", "x", 0)]
    [True, True, True, True, False, False]
    """
    if value is None:
        return True
    if isinstance(value, float) and np.isnan(value):
        return True
    if value is pd.NA or value is pd.NaT:
        return True
    if isinstance(value, str) and value.strip().lower() in tokens:
        return True
    return False


def looks_numeric(values: Iterable[Any]) -> bool:
    """Whether every value is a number or a string that is plainly a decimal number.

    Deliberately stricter than ``float()``, which reads ``"4_20"`` as 420.

    Parameters
    ----------
    values : iterable
        Cell values (bools count as not numeric).

    Returns
    -------
    bool
        True if there is at least one value and all of them are numbers or decimal
        number texts (``"3"``, ``"-2.5"``, ``"1e3"``).

    Examples
    --------
    >>> looks_numeric(["1", " 2 ", 3.5]), looks_numeric([]), looks_numeric([True])
    (True, False, False)
    """
    seen = False
    for v in values:
        seen = True
        if isinstance(v, bool):
            return False
        if isinstance(v, (int, float, np.integer, np.floating, Decimal)):
            continue  # a Decimal (a DataFrame's, or Parquet's) is a number, as its text is
        if not (isinstance(v, str) and _NUMBER.match(v)):
            return False
    return seen


def long_integer_text(value: Any) -> bool:
    """Whether ``value`` is text of a whole number of 16 digits or more.

    Past 2**53 floats skip integers, so such texts are not read as numbers (two 19-digit
    labels would merge into one float): a label column holding one stays text.

    Examples
    --------
    >>> long_integer_text("9007199254740993"), long_integer_text("12"), long_integer_text(7)
    (True, False, False)
    """
    return isinstance(value, str) and _LONG_INTEGER.match(value) is not None


def to_number(value: Any) -> float | int:
    """A numeric cell as a Python number: whole numbers become ``int``.

    Parameters
    ----------
    value : int, float or str
        A value for which :func:`looks_numeric` holds.

    Returns
    -------
    int or float
        An ``int`` for integers and integral floats below 2**53, else a ``float``.

    Examples
    --------
    >>> to_number("3.0"), to_number(" 2.5 "), to_number(4)
    (3, 2.5, 4)
    """
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, str) and _WHOLE.match(value):
        return int(value)  # exact however long (an integer column's text, on an engine)
    f = float(value)
    return int(f) if f.is_integer() and abs(f) < 2**53 else f


def label_set(value: Any, sep: str | None) -> frozenset:
    """A multi-label cell as a set of category names.

    Parameters
    ----------
    value : object
        A container (set, list, tuple, array) of names, or text.
    sep : str or None
        Split text on this separator; None keeps the whole text as one name.

    Returns
    -------
    frozenset
        The names, stripped. The texts in :data:`EMPTY_SET_TOKENS` (``"{}"``, ...) and
        blank text give the empty set; any other value gives a one-element set of its text.
        Blank parts are no names: ``";x"`` split on ``";"`` and ``["", "x"]`` (or
        ``[None, "x"]``) are both ``{"x"}``.

    Examples
    --------
    >>> sorted(label_set("anger; fear", ";")), label_set("{}", ";"), label_set(["", "x"], ";")
    (['anger', 'fear'], frozenset(), frozenset({'x'}))
    """
    if isinstance(value, SET_TYPES):
        return frozenset(x for x in map(_element, value) if x)
    if isinstance(value, str):
        if value.strip() in EMPTY_SET_TOKENS:
            return frozenset()
        if sep is None:
            return frozenset([value.strip()]) if value.strip() else frozenset()
        return frozenset(p.strip() for p in value.split(sep) if p.strip())
    return frozenset([str(value)])


def _element(x: Any) -> str:
    """An element of a label list as a name; "" (dropped) for blank text, None and NaN."""
    if x is None or x is pd.NA or (isinstance(x, float) and x != x):
        return ""
    return x.strip() if isinstance(x, str) else str(x).strip()


def id_text(value: Any) -> str:
    """An item or annotator id as text; integral floats (from Excel, JSON) lose ``.0``.

    Parameters
    ----------
    value : object
        A cell that is not missing.

    Returns
    -------
    str
        The id as stripped text.

    Examples
    --------
    >>> id_text(12.0), id_text(" w1 ")
    ('12', 'w1')
    """
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return str(int(value))
    return str(value).strip()


def label_text(value: Any) -> str:
    """A single-label cell read as text (when the labels are not numbers).

    Parameters
    ----------
    value : object
        A label cell that is not missing (and not a set).

    Returns
    -------
    str
        Text stripped; integral floats without ``.0``; anything else through ``str``.

    Examples
    --------
    >>> label_text(" yes "), label_text(2.0), label_text(2.5)
    ('yes', '2', '2.5')
    """
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return str(int(value))
    return str(value)


#: A text cell a spreadsheet-safe export guarded with a leading ``'`` (see
#: :func:`analytics.data.spreadsheet_safe`): one or more ``'`` then ``= + - @`` TAB or CR.
GUARDED = r"^'+[=+\-@\t\r]"


def unguard(texts: pd.Index) -> pd.Index:
    """Undo the spreadsheet guard: drop the first ``'`` of texts that match :data:`GUARDED`.

    The export prefixes ``'`` to exactly the text cells that match ``^'*[=+-@TAB CR]``
    (and are not plain numbers), so removing one ``'`` where ``^'+[=+-@TAB CR]`` matches
    gives back every value: exports load back unchanged. Works on distinct values, so the
    cost does not grow with the number of cells.

    Parameters
    ----------
    texts : pandas.Index
        Distinct text values (or column names).

    Returns
    -------
    pandas.Index
        The same texts, unguarded (the index itself when none is guarded).

    Examples
    --------
    >>> unguard(pd.Index(["'=cmd", "''+1", "'plain", "x"])).tolist()
    ['=cmd', "'+1", "'plain", 'x']
    """
    if isinstance(texts.dtype, pd.StringDtype) and not texts.str.startswith("'").any():
        return texts  # no text starts with ': nothing guarded (one vectorised pass)
    text = pd.Series(texts.to_numpy(object), dtype=object).astype(str)
    guarded = text.str.match(GUARDED).to_numpy(bool)
    if not guarded.any():
        return texts
    out = texts.to_numpy(object).copy()
    out[guarded] = text[guarded].str.slice(1).to_numpy(object)
    return pd.Index(out, dtype=object)


def missing_tokens(missing: Iterable[Any] | None = None) -> frozenset:
    """The normalised set of texts read as "not labelled".

    Parameters
    ----------
    missing : iterable of str or None, default None
        Texts meaning "not labelled" (case and surrounding blanks ignored); None gives
        :data:`MISSING_TOKENS`. Blank text is always missing, so ``()`` means: only
        empty cells, None and NaN.

    Returns
    -------
    frozenset of str
        Lower-case, stripped tokens, always including ``""``.

    Examples
    --------
    >>> sorted(missing_tokens([" N/A ", "None"])), missing_tokens(())
    (['', 'n/a', 'none'], frozenset({''}))
    """
    if missing is None:
        return MISSING_TOKENS
    if isinstance(missing, str):
        missing = [missing]
    return frozenset({str(t).strip().lower() for t in missing} | {""})


#: pandas' inferred types of an object column that can hold no container and no bool.
_PLAIN_INFERRED = frozenset(
    {"string", "integer", "floating", "mixed-integer-float", "empty", "decimal"}
)


#: The largest int64 (unsigned labels above it were wrapped to negative numbers).
_INT64_MAX = np.iinfo(np.int64).max


@dataclass(frozen=True, eq=False)
class CellColumn:
    """One column of cells, factorized: the distinct values and each cell's code.

    Everything that judges a cell (missing? numeric? its text?) is decided once per
    distinct value (vectorised over ``uniques`` where they are text) and read back
    through ``codes``, so no Python runs per cell on plain columns.

    Parameters
    ----------
    codes : ndarray of int32 (Arrow-encoded) or int64, shape (n_cells,)
        Index into ``uniques``; -1 for None/NaN/NA and for container cells.
    uniques : pandas.Index
        The distinct plain values (bools as their text ``"True"``/``"False"``).
    missing : ndarray of bool, shape (n_uniques,)
        Which distinct values are missing tokens or blank text.
    containers : ndarray of bool or None
        Cells holding a list, tuple, set, array or dict (None when there are none).
    cells : ndarray of object or None
        The raw cells, kept only when there are containers (to read them one by one).
    firsts : (ndarray, ndarray) or None
        Each distinct value's first run (start, length), if encoded by runs (:meth:`first_runs`).
    strip_free : bool
        True when the distinct values are Arrow texts that blank-stripping leaves as
        they are (known from the missing-token check; False: not known).
    mixed_bools : bool
        True when booleans stood beside other values (text, numbers) and were read as
        their text ``"True"``/``"False"`` (the label encoding cautions about it).
    """

    codes: np.ndarray
    uniques: pd.Index
    missing: np.ndarray
    containers: np.ndarray | None
    cells: np.ndarray | None
    firsts: tuple[np.ndarray, np.ndarray] | None = None
    strip_free: bool = False
    mixed_bools: bool = False
    _cell_missing: np.ndarray | None = field(default=None, repr=False)

    @classmethod
    def of(cls, values: Any, tokens: frozenset = MISSING_TOKENS) -> CellColumn:
        """Factorize a column (Series or array) and judge its distinct values.

        Examples
        --------
        >>> col = CellColumn.of(pd.Series(["a", " a", "NA", None, "b"]))
        >>> col.codes.tolist(), col.missing.tolist(), col.cell_missing().tolist()
        ([0, 1, 2, -1, 3], [False, False, True, False], [False, False, True, True, False])
        """
        s = values if isinstance(values, pd.Series) else pd.Series(values, dtype=object)
        s = s.reset_index(drop=True)
        containers = cells = None
        mixed_bools = False
        if s.dtype == object and pd.api.types.infer_dtype(s, skipna=True) not in _PLAIN_INFERRED:
            raw = s.to_numpy(object)
            kinds = np.fromiter(
                (2 if isinstance(v, (*SET_TYPES, dict)) else isinstance(v, bool) for v in raw),
                np.int8,
                len(raw),
            )
            if (kinds == 2).any():
                containers, cells = kinds == 2, raw
            if kinds.any():
                mixed_bools = bool((kinds == 1).any() and ((kinds == 0) & ~pd.isna(raw)).any())
                plain = raw.copy()
                plain[kinds == 2] = None
                plain[kinds == 1] = [str(v) for v in raw[kinds == 1]]
                s = pd.Series(plain, dtype=object)
        elif pd.api.types.is_bool_dtype(s.dtype):
            s = (
                s.astype(object).where(s.notna(), None).map(lambda v: v if v is None else str(v))
            )  # two distinct values at most: "True", "False"
        codes, uniques, firsts = factorize_runs(s)
        if is_text(uniques):
            plain = unguard(uniques)
            if plain is not uniques:  # a spreadsheet-safe export: read back what it guarded
                remap, uniques = pd.factorize(plain)
                codes = np.where(codes >= 0, remap[np.maximum(codes, 0)], -1)
                uniques = pd.Index(uniques)
                firsts = None
        strip_free = False
        if is_text(uniques):
            miss, strip_free = text_missing(uniques, tokens)
        elif uniques.dtype == object:
            miss = np.fromiter((is_missing(v, tokens) for v in uniques), bool, len(uniques))
        else:
            miss = np.zeros(len(uniques), bool)
        codes = codes if codes.dtype == np.int32 else np.asarray(codes, np.int64)
        return cls(codes, uniques, miss, containers, cells, firsts, strip_free, mixed_bools)

    def first_runs(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Per distinct value: where its first run of cells starts, and the run's length.

        Known from the encoding when the column was encoded by runs; otherwise the first
        cells are found in a short prefix when the distinct values are few (runs of
        length 1), and None is returned when they are not all met in an eighth of the
        column (then :func:`~analytics.data.codes.first_seen_kept` renumbers the cells).
        """
        if self.firsts is not None:
            return self.firsts
        firsts = first_positions(self.codes, len(self.uniques), limit=len(self.codes) // 8)
        return None if firsts is None else (firsts, np.ones(len(firsts), np.int64))

    def cell_missing(self) -> np.ndarray:
        """Per cell: None/NaN/NA or a missing token (not containers); kept, read-only."""
        if self._cell_missing is not None:  # computed on the thread that factorized
            return self._cell_missing
        c, m = self.codes, self.missing  # no missing token: only None/NaN cells (-1)
        # a code of -1 reads the True appended last: one gather, not four passes
        out = c < 0 if not m.any() else np.append(m, True)[c]
        if self.containers is not None:
            out &= ~self.containers
        out.flags.writeable = False
        object.__setattr__(self, "_cell_missing", out)
        return out

    def texts(self, how: str = "id") -> pd.Index:
        """The text of each distinct value: ids (:func:`id_text`) or labels (:func:`label_text`)."""
        u = self.uniques
        if is_text(u):
            return pd.Index(u.str.strip(), dtype=object)
        if pd.api.types.is_integer_dtype(u.dtype):
            return pd.Index(u.astype(str), dtype=object)
        one = id_text if how == "id" else label_text
        return pd.Index([one(v) for v in u], dtype=object)

    def id_codes(self, keep: np.ndarray) -> tuple[np.ndarray, pd.Index, tuple]:
        """Id codes of the kept cells, in first-seen order, and the names behind them.

        Distinct raw ids with the same text (differing only by surrounding blanks) are
        one id; the third value is ``(how many ids were merged, two raw forms of the
        first)``, or ``()`` when none were.
        """
        merged: tuple = ()
        u = self.uniques
        if isinstance(u.dtype, pd.StringDtype) and (self.strip_free or strip_leaves(u)):
            # Arrow texts that stripping leaves as they are: their ids are all distinct
            codes, order = first_seen_kept(self.codes, keep, len(u), self.first_runs())
            # kept as Arrow strings: an object Index of 400,000 ids costs 20 ms to build
            same = len(order) == len(u) and bool((order[1:] > order[:-1]).all())  # identity
            return codes, u if same else u.take(order), merged
        texts = self.texts("id")
        if texts.is_unique:
            codes, order = first_seen_kept(self.codes, keep, len(u), self.first_runs())
            return codes, pd.Index(texts.to_numpy(object)[order], dtype=object), merged
        ck = self.codes if keep.all() else self.codes[keep]  # no copy when all are kept
        tcodes, tnames = pd.factorize(texts)
        codes, order = first_seen(tcodes[ck], len(tnames))
        used = np.zeros(len(texts), bool)
        used[ck] = True
        forms = np.bincount(tcodes[used], minlength=len(tnames))
        if (forms > 1).any():
            many = np.flatnonzero(forms > 1)
            merged = (len(many), list(self.uniques[used & (tcodes == many[0])][:2]))
        return codes, pd.Index(np.asarray(tnames, object)[order], dtype=object), merged

    def token_counts(self, rows: np.ndarray) -> pd.Series:
        """How many of the given cells hold each missing token other than blank.

        Parameters
        ----------
        rows : ndarray of bool, shape (n_cells,)
            The cells to count (e.g. the rows that have an item and an annotator).

        Returns
        -------
        pandas.Series of int
            Indexed by the token as written in the file (spellings that differ only in case
            counted together, under the most frequent one), sorted.
        """
        texts = pd.Index(self.texts("label"))
        norm = texts.str.lower().to_numpy(object)
        token = self.missing & (norm != "")
        if not token.any():  # only blank cells are missing: no token, no pass over the cells
            return pd.Series(np.zeros(0, np.int64), index=pd.Index([], dtype=object))
        counts = np.bincount(self.codes[rows & (self.codes >= 0)], minlength=len(norm))
        found = pd.DataFrame(
            {"text": texts.to_numpy(object)[token], "norm": norm[token], "n": counts[token]}
        )
        found = found[found["n"] > 0]
        shown = (
            found.sort_values("n", ascending=False, kind="stable").groupby("norm")["text"].first()
        )
        total = found.groupby("norm")["n"].sum()
        return pd.Series(total.to_numpy(), index=shown.reindex(total.index).to_numpy()).sort_index()

    def numeric(self) -> np.ndarray:
        """Per distinct value: is it a number, or text that is plainly a decimal number."""
        u = self.uniques
        if is_text(u):
            # whole numbers of 16 digits or more are not all exact as floats (distinct
            # 19-digit labels merged into one): such a text stays text
            long_int = np.asarray(u.str.match(_LONG_INTEGER.pattern), bool)
            return np.asarray(u.str.match(_NUMBER.pattern), bool) & ~long_int
        if pd.api.types.is_numeric_dtype(u.dtype) and not pd.api.types.is_bool_dtype(u.dtype):
            return np.ones(len(u), bool)
        return np.fromiter((looks_numeric([v]) for v in u), bool, len(u))

    def numbers(self) -> np.ndarray:
        """Per distinct value: the number as float64 (integers kept as int64), NaN for text."""
        u = self.uniques
        if pd.api.types.is_integer_dtype(u.dtype):
            if pd.api.types.is_unsigned_integer_dtype(u.dtype) and len(u) and u.max() > _INT64_MAX:
                return u.to_numpy(np.float64)  # past int64: as floats, never wrapped to < 0
            return u.to_numpy(np.int64)
        if is_text(u):
            text = pd.Series(u.str.strip(), dtype=object)
            return pd.to_numeric(text, errors="coerce").to_numpy(np.float64)
        return np.array([float(v) if looks_numeric([v]) else np.nan for v in u], np.float64)
