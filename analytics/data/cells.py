"""What one cell of an annotation table means: missing, a number, a label set, an id.

The lowest layer of :mod:`analytics.data`: plain functions on single values, used by the
encoder (:mod:`analytics.data.encode`), the layout detection and the tool importers. It
imports nothing from the rest of the package.

>>> is_missing(" NA "), is_missing("0")
(True, False)
>>> looks_numeric(["1", "2.5", 3]), looks_numeric(["4_20"])
(True, False)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

__all__ = [
    "EMPTY_SET_TOKENS",
    "MISSING_TOKENS",
    "SET_TYPES",
    "id_text",
    "is_missing",
    "label_set",
    "label_text",
    "looks_numeric",
    "to_number",
]

_NUMBER = re.compile(r"^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$")
#: Cell texts (case-insensitive, stripped) that mean "not labelled".
MISSING_TOKENS = frozenset({"", "na", "n/a", "nan", "none", "null", "<na>", "nat"})
#: An explicit empty label set in a text cell ("none of these"); an empty cell is missing.
EMPTY_SET_TOKENS = frozenset({"{}", "[]", "set()", "\u2205"})
#: Python containers a DataFrame cell may hold as a multi-label set.
SET_TYPES = (set, frozenset, list, tuple, np.ndarray)


def is_missing(value: Any) -> bool:
    """Whether a cell value means "not labelled".

    Parameters
    ----------
    value : object
        One cell: None, a float, pandas ``NA``/``NaT``, text, ...

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
    if isinstance(value, str) and value.strip().lower() in MISSING_TOKENS:
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
        if isinstance(v, (int, float, np.integer, np.floating)):
            continue
        if not (isinstance(v, str) and _NUMBER.match(v)):
            return False
    return seen


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

    Examples
    --------
    >>> sorted(label_set("anger; fear", ";")), label_set("{}", ";")
    (['anger', 'fear'], frozenset())
    """
    if isinstance(value, SET_TYPES):
        return frozenset(str(x).strip() if not isinstance(x, str) else x.strip() for x in value)
    if isinstance(value, str):
        if value.strip() in EMPTY_SET_TOKENS:
            return frozenset()
        if sep is None:
            return frozenset([value.strip()]) if value.strip() else frozenset()
        return frozenset(p.strip() for p in value.split(sep) if p.strip())
    return frozenset([str(value)])


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
