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
from analytics._core.ids import id_positions

__all__ = ["gold_series", "gold_within"]

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


def gold_within(gold: Any, items: pd.Index) -> tuple[pd.Series | None, int]:
    """The gold labels of the items in ``items``, and how many gold labels were left out.

    A gold file often covers more than the data loaded (the whole set's gold beside half of
    its judgements). :func:`analytics.models.gold_table` refuses gold for items it has not
    fitted; the Overview, the report and the pages score on the overlap and say how many
    were left out. Ids match as given, else as text (a CSV's ``'7'`` is the item ``7``).

    Parameters
    ----------
    gold : mapping, pandas.Series or None
        As for :func:`gold_series`.
    items : pandas.Index
        The items of the data (or of a fit).

    Returns
    -------
    (pandas.Series or None, int)
        The gold labels whose item is in ``items``, indexed by those items (None for
        None); the number of gold labels left out.

    Examples
    --------
    >>> kept, out = gold_within({"a": "x", "b": "y", 3: "z"}, pd.Index(["a", "3"]))
    >>> kept.to_dict(), out
    ({'a': 'x', '3': 'z'}, 1)
    """
    gold = gold_series(gold)
    if gold is None:
        return None, 0
    rows = id_positions(gold.index, items)
    inside = rows >= 0
    kept = pd.Series(gold.to_numpy(object)[inside], index=items[rows[inside]], name=gold.name)
    return kept, int((~inside).sum())
