"""The ``gold=`` argument: known true labels, item -> label, checked once for every model.

:func:`gold_series` is the one reading of ``gold=`` shared by
:func:`analytics.dawid_skene.fit` (through :func:`~analytics.dawid_skene.gold_codes`),
:func:`analytics.dawid_skene.gold_accuracy` and :mod:`analytics.models` (``fit``,
``compare``, ``gold_table``), so that every one accepts and refuses the same things with
the same words.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import pandas as pd

from analytics._core.errors import AnnotationDataError, ArgumentTypeError, show_text, wrong_type

__all__ = ["gold_series"]

_EXPECTED = "gold labels as a pandas Series or a mapping item -> label"


def gold_series(gold: Any) -> pd.Series | None:
    """Known gold labels as a Series indexed by item, missing labels dropped.

    Parameters
    ----------
    gold : mapping, pandas.Series or None
        Item -> true label. Read a gold file with
        :func:`analytics.data.read_gold_labels` first, and turn a table of two columns
        into a Series (``df.set_index("item")["label"]``): both are refused as they are.

    Returns
    -------
    pandas.Series or None
        The labels, indexed by item as given (not yet matched to any data); None for None.

    Raises
    ------
    ArgumentTypeError
        A path or file name, a DataFrame, or anything else that is not a Series or a
        mapping (a list would be read as items 0, 1, 2, ...).
    AnnotationDataError
        An item listed more than once.

    Examples
    --------
    >>> gold_series({"m1": "question", "m2": None}).to_dict()
    {'m1': 'question'}
    """
    if gold is None:
        return None
    if isinstance(gold, (str, bytes, os.PathLike)):
        raise wrong_type(
            gold,
            _EXPECTED,
            hint="Read a gold file first: gold=analytics.data.read_gold_labels(path).",
        )
    if isinstance(gold, pd.DataFrame):  # pd.read_csv(gold file): pandas' own errors misled
        raise ArgumentTypeError(
            f"gold is a table (columns {', '.join(map(show_text, gold.columns[:4]))}), not "
            "one label per item.",
            hint="Pass a Series indexed by item, e.g. gold=df.set_index('item')['label'], or "
            "read the file with analytics.data.read_gold_labels(path).",
        )
    if not isinstance(gold, (pd.Series, Mapping)):
        raise wrong_type(gold, _EXPECTED, hint="E.g. gold={'item 1': 'label', ...}.")
    g = gold if isinstance(gold, pd.Series) else pd.Series(dict(gold), dtype=object)
    g = g[g.notna().to_numpy()]
    twice = g.index[g.index.duplicated()]
    if len(twice):
        raise AnnotationDataError(
            f"the gold labels list item {twice[0]!r} more than once.",
            hint="Keep one gold label per item.",
        )
    return g
