"""Finding ids in an index (as given, else as text), and orders that follow the names.

:func:`name_order` and :func:`name_ranks` order items, annotators and categories by their
names, so draws made in that order do not follow the file's rows; :func:`top_codes` takes
each item's top category with a tie broken the same way.

A CSV's ids are text while a mapping written in Python may hold numbers: ``{2: ...}``
names the item ``'2'`` of a loaded file. :func:`id_positions` is the one rule that gold
labels (:func:`analytics.dawid_skene.gold_within`, :mod:`analytics.models.evaluation`) and
span options (``completed=``, ``text=`` of :func:`analytics.spans.load_spans`) follow.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["TIE", "id_positions", "name_order", "name_ranks", "top_codes"]


def id_positions(keys: Iterable[Any], index: pd.Index) -> np.ndarray:
    """Each key's position in ``index`` (unique ids), or -1 when it names none.

    Parameters
    ----------
    keys : iterable
        The ids to find.
    index : pandas.Index
        The ids they may name, unique.

    Returns
    -------
    ndarray of int64
        A key found as it is gives its position; else one whose text equals the text of
        exactly one id gives that id's (a text shared by two ids, ``1`` and ``'1'``, names
        neither); else -1.

    Examples
    --------
    >>> id_positions([2, "a", "b"], pd.Index(["a", "2"])).tolist()
    [1, 0, -1]
    """
    keys = pd.Index(list(keys), dtype=object)
    rows = np.asarray(index.get_indexer(keys), np.int64)
    missing = rows < 0
    if missing.any() and len(index):
        text = pd.Index(index.astype(str), dtype=object)
        by_text = pd.Series(np.arange(len(index)), index=text)[~text.duplicated(keep=False)]
        found = by_text.reindex(keys[missing].astype(str)).to_numpy(float)
        rows[missing] = np.where(np.isnan(found), -1, found).astype(np.int64)
    return rows


def name_ranks(names: pd.Index) -> np.ndarray:
    """Each name's rank in the sorted order of the names' text: an order the file's row
    order cannot change.

    Codes number items, annotators and categories in first-seen order, so a random draw
    made in code order (cross-validation folds, resamples) changes when the same rows
    come in another order. Drawing in rank order instead makes the result a function of
    the data alone.

    Parameters
    ----------
    names : pandas.Index
        Item, annotator or category names, unique.

    Returns
    -------
    ndarray of int64, shape (len(names),)
        A permutation of ``0 .. len(names) - 1``: ``ranks[code]`` is the code's place
        when the names are sorted as text (two names with the same text, ``1`` and
        ``'1'``, keep their code order).

    Examples
    --------
    >>> name_ranks(pd.Index(["b", "a", "c"])).tolist()
    [1, 0, 2]
    """
    order = name_order(names)
    ranks = np.empty(len(order), np.int64)
    ranks[order] = np.arange(len(order))
    return ranks


def name_order(names: pd.Index) -> np.ndarray:
    """The codes in the sorted order of their names' text: the inverse of :func:`name_ranks`
    (``name_order(names)[name_ranks(names)]`` is ``0 .. n - 1``), for drawing in that order.

    Parameters
    ----------
    names : pandas.Index
        Item, annotator or category names, unique.

    Returns
    -------
    ndarray of int64, shape (len(names),)
        ``order[k]`` is the code of the k-th name as text (ties keep their code order).

    Examples
    --------
    >>> name_order(pd.Index(["b", "a", "c"])).tolist()
    [1, 0, 2]
    >>> name_order(pd.Index(["c", "a", "b"])).tolist()
    [1, 2, 0]
    """
    # a str Index (what the loader gives) sorts in Arrow, not per name in Python
    return np.asarray(pd.Index(names).astype(str).argsort(kind="stable"), np.int64)


#: Posteriors within this of an item's highest are a tie (round-off between two fits of
#: the same judgements in another row order is far below it).
TIE = 1e-12


def top_codes(scores: np.ndarray, categories: pd.Index) -> np.ndarray:
    """Each row's highest-scoring category, a tie broken by the names, not by the file.

    Category codes follow first appearance in the file, so ``scores.argmax(axis=1)`` gave
    a tied item (two annotators, one label each) the label that happened to come first:
    the same judgements with the rows shuffled got other labels. A tie (scores within
    :data:`TIE` of the highest) goes to the first category in value order (numbers) or
    text order (names): crowd-kit's rule (``idxmax`` over columns in sorted label order),
    whose published majority-vote accuracies the models' tests reproduce with it.

    Parameters
    ----------
    scores : ndarray, shape (n, K)
        Posteriors or vote counts, one row per item.
    categories : pandas.Index
        The K category names, in code order.

    Returns
    -------
    ndarray of int64, shape (n,)
        Category codes (0 for every row when K is 0).

    Examples
    --------
    >>> q = np.array([[0.5, 0.5], [0.2, 0.8]])
    >>> top_codes(q, pd.Index(["y", "x"])).tolist()
    [1, 1]
    >>> top_codes(q, pd.Index([10, 9])).tolist()
    [1, 1]
    """
    scores = np.asarray(scores, float)
    if scores.shape[1] == 0:
        return np.zeros(len(scores), np.int64)
    cats = pd.Index(categories)
    numeric = pd.api.types.is_numeric_dtype(cats.dtype) and not pd.api.types.is_bool_dtype(cats)
    prefer = np.asarray(cats.argsort(kind="stable"), np.int64) if numeric else name_order(cats)
    ranked = scores[:, prefer]
    tied = ranked >= ranked.max(axis=1, keepdims=True) - TIE
    return prefer[tied.argmax(axis=1)]
