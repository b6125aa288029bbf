"""Pairs of judgements on the same item: the machinery under every multi-label measure.

Every measure of Bhowmick, Mitra & Basu (2008) compares two annotators on one item. This
module lists, once and fully vectorised, every such comparison (an *item-pair unit*: one
item and two annotators who both judged it) and aggregates per annotator pair with sparse
matrices, so that no Python loop runs over items, judgements or categories.

Missing judgements. :meth:`Annotations.binary` cannot tell an empty set from a missing
judgement; :meth:`Annotations.judged` can. Here only real judgements are paired, so an empty
set ("none of these") is compared like any other set, and an annotator who did not judge an
item takes no part in that item. Repeated judgements (same annotator, same item) keep the
last one in input order, as :meth:`Annotations.binary` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from scipy import sparse

from analytics._core.budget import check_budget, estimate_bytes
from analytics.data import Annotations

__all__ = ["JudgementPairs", "judgement_pairs", "last_judgements", "ragged_positions"]


def ragged_positions(counts: np.ndarray) -> np.ndarray:
    """0, 1, ..., counts[0]-1, 0, 1, ..., counts[1]-1, ... (position inside each group).

    Parameters
    ----------
    counts : ndarray of int
        Size of each group.

    Returns
    -------
    ndarray of int64, shape (counts.sum(),)

    Examples
    --------
    >>> ragged_positions(np.array([2, 0, 3])).tolist()
    [0, 1, 0, 1, 2]
    """
    counts = np.asarray(counts, np.int64)
    total = int(counts.sum())
    return np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)


def last_judgements(ann: Annotations) -> np.ndarray:
    """Indices of the judgements to use: the last one per (item, annotator) in input order.

    Parameters
    ----------
    ann : Annotations
        Any annotations.

    Returns
    -------
    ndarray of int64
        Judgement indices, one per judged (item, annotator).
    """
    n = ann.n_judgements
    if n == 0:
        return np.zeros(0, np.int64)
    key = ann.item_codes * max(ann.n_annotators, 1) + ann.annotator_codes
    # np.unique on the reversed keys returns the first index in reversed order, i.e. the last.
    _, first_rev = np.unique(key[::-1], return_index=True)
    return (n - 1 - first_rev).astype(np.int64)


def _label_rows(ann: Annotations) -> tuple[np.ndarray, np.ndarray]:
    """(set code per judgement, table of distinct sets) for any label kind.

    Multi-label data use :attr:`Annotations.label_sets_table`; single-label data are the
    one-hot special case (one category per judgement).
    """
    if ann.is_multilabel:
        return ann.label_codes, np.asarray(ann.label_sets_table, bool)
    return ann.label_codes, np.eye(ann.n_categories, dtype=bool)


@dataclass(frozen=True)
class JudgementPairs:
    """Every item-pair unit of a data set, with the label sets on both sides.

    Attributes
    ----------
    n_items, n_annotators, n_categories : int
    table : ndarray of bool, shape (n_sets, n_categories)
        The distinct label sets.
    item, annotator, code : ndarray of int64, shape (n_used,)
        The judgements used (last per item and annotator), sorted by item, then annotator.
    unit_item, unit_pair : ndarray of int64, shape (n_units,)
        Item and annotator-pair index of each unit.
    unit_x, unit_y : ndarray of int64, shape (n_units,)
        Set codes given by the lower- and the higher-numbered annotator of the pair.
    pairs : ndarray of int64, shape (n_pairs, 2)
        Annotator codes (x < y) of every annotator pair that shares at least one item.
    """

    n_items: int
    n_annotators: int
    n_categories: int
    table: np.ndarray
    item: np.ndarray
    annotator: np.ndarray
    code: np.ndarray
    unit_item: np.ndarray
    unit_pair: np.ndarray
    unit_x: np.ndarray
    unit_y: np.ndarray
    pairs: np.ndarray

    @property
    def n_units(self) -> int:
        return len(self.unit_item)

    @property
    def n_pairs(self) -> int:
        return len(self.pairs)

    @cached_property
    def x_rows(self) -> np.ndarray:
        """Label set of the first annotator of each unit (n_units x n_categories)."""
        return self.table[self.unit_x]

    @cached_property
    def y_rows(self) -> np.ndarray:
        """Label set of the second annotator of each unit (n_units x n_categories)."""
        return self.table[self.unit_y]

    @cached_property
    def judges_per_item(self) -> np.ndarray:
        """How many annotators judged each item."""
        return np.bincount(self.item, minlength=self.n_items)

    @cached_property
    def assigned_per_item(self) -> np.ndarray:
        """Items x categories: how many annotators assigned each category (int64)."""
        onehot = sparse.csr_matrix(
            (np.ones(len(self.item)), (self.item, np.arange(len(self.item)))),
            shape=(self.n_items, len(self.item)),
        )
        rows = self.table[self.code].astype(np.float64)
        return np.rint(np.asarray(onehot @ rows)).astype(np.int64)

    def per_pair(self, values: np.ndarray) -> np.ndarray:
        """Sum ``values`` (n_units or n_units x k) over the units of each annotator pair."""
        ind = sparse.csr_matrix(
            (np.ones(self.n_units), (self.unit_pair, np.arange(self.n_units))),
            shape=(self.n_pairs, self.n_units),
        )
        return np.asarray(ind @ values)

    def per_item(self, values: np.ndarray) -> np.ndarray:
        """Sum ``values`` (n_units,) over the units of each item."""
        return np.bincount(self.unit_item, weights=values, minlength=self.n_items)


def judgement_pairs(ann: Annotations) -> JudgementPairs:
    """List every (item, annotator x, annotator y) with x < y who both judged the item.

    Vectorised: judgements are sorted by item and annotator; judgement number r of an item
    with n judges pairs with the n - r - 1 judgements after it. The number of units is
    the sum over items of n_i (n_i - 1) / 2.

    Parameters
    ----------
    ann : Annotations
        Multi-label annotations (single-label data: one category per judgement).

    Returns
    -------
    JudgementPairs
        Every item-pair unit, the judgements used and the distinct label sets; the base of
        every measure of Bhowmick, Mitra & Basu (2008), which compare two annotators on one
        item (section 3.1).

    Raises
    ------
    AnnotationDataError
        When the units would exceed the memory budget (checked before they are built).
    """
    codes, table = _label_rows(ann)
    used = last_judgements(ann)
    order = np.lexsort((ann.annotator_codes[used], ann.item_codes[used]))
    used = used[order]
    item = ann.item_codes[used]
    annot = ann.annotator_codes[used]
    code = codes[used]

    n_used = len(used)
    ends = np.searchsorted(item, item, side="right")
    partners = ends - np.arange(n_used) - 1  # later judgements of the same item
    n_units = int(partners.sum())
    check_budget(  # the units and the A_m engine's per-unit rows: about a dozen numbers each
        estimate_bytes(n_units, copies=16),
        f"the {n_units:,} pairs of judgements (item, annotator x, annotator y) of multi-label "
        f"agreement ({ann.n_annotators:,} annotators)",
        "Analyse a subset of the annotators or items (Annotations.subset).",
    )
    first = np.repeat(np.arange(n_used), partners)
    second = first + ragged_positions(partners) + 1

    n_a = max(ann.n_annotators, 1)
    pair_key = annot[first] * n_a + annot[second]
    pair_keys, unit_pair = np.unique(pair_key, return_inverse=True)
    pairs = np.stack([pair_keys // n_a, pair_keys % n_a], axis=1).astype(np.int64)
    return JudgementPairs(
        n_items=ann.n_items,
        n_annotators=ann.n_annotators,
        n_categories=ann.n_categories,
        table=table,
        item=item,
        annotator=annot,
        code=code,
        unit_item=item[first],
        unit_pair=unit_pair.reshape(-1).astype(np.int64),
        unit_x=code[first],
        unit_y=code[second],
        pairs=pairs.reshape(-1, 2),
    )
