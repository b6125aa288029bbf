"""The margins of every annotator pair, block by block, within the memory budget.

Two-annotator coefficients need, per annotator pair ``a < b``, only
``[shared, agreement, counts_a, counts_b]`` (see
:class:`~analytics.agreement.prepared.JudgementPairs`). Two engines give them, in blocks of
first annotators that each fit a quarter of the memory budget, in the same order and with
the same numbers:

- **pairs of judgements** (:meth:`Prepared.pair_blocks`): every pair of judgements of an
  item, summed by annotator pair. Its cost grows with the pairs of judgements, so it suits
  sparse data (many items, few annotators each).
- **matrix products**: with :math:`J` the items x annotators indicator of who judged what
  and :math:`Y_k` the indicator of label :math:`k`, a block :math:`R` of first annotators
  has ``shared = J_R^T J``, ``agreement = sum_kl w_kl Y_kR^T Y_l``,
  ``counts_a[k] = Y_kR^T J`` and ``counts_b[k] = J_R^T Y_k``: dense products that cost
  items x annotators² x categories multiply-adds, far fewer machine steps than one Python
  pass per pair of judgements when every annotator judged most items (60 items x 5,000
  annotators: 750 million pairs of judgements, tens of seconds of products).

:func:`pair_margin_blocks` picks the matrix products when the data are dense enough and
their items x annotators x categories arrays fit in a quarter of the budget.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from analytics._core.budget import budget_bytes, estimate_bytes
from analytics.agreement.prepared import Prepared

__all__ = ["PairMargins", "margin_bytes", "pair_margin_blocks", "pairwise_bytes", "use_products"]


@dataclass(frozen=True)
class PairMargins:
    """One block of annotator pairs and their margins.

    Attributes
    ----------
    first, second : ndarray of int
        The annotator codes of each pair (``first < second``), sorted by first, then second.
    totals : ndarray, shape (n_pairs, 2 + 2q) or (n_pairs, 2)
        ``[shared, agreement, counts_a, counts_b]`` (only the first two with
        ``margins=False``).
    """

    first: np.ndarray
    second: np.ndarray
    totals: np.ndarray


def margin_bytes(q: int) -> int:
    """Estimated bytes per annotator pair of its margins and the coefficient's temporaries."""
    return estimate_bytes(2 + 2 * q, copies=6)


def pairwise_bytes(n_annotators: int) -> int:
    """Estimated memory of ``pairwise``'s annotators x annotators tables (values, shared
    items, their frames and the sparse product behind the shared counts)."""
    return estimate_bytes(n_annotators**2, copies=6)


def use_products(p: Prepared, weighted: bool = False) -> bool:
    """Whether the matrix products are the cheaper engine for these data (see module)."""
    n_i, a_n, q = p.ann.n_items, p.ann.n_annotators, p.q
    dense = estimate_bytes(n_i * a_n * q, copies=3 + weighted)
    products = float(n_i) * a_n * a_n * (3 + 3 * q)  # multiply-adds, ~1 ns each
    return a_n >= 2 and dense <= budget_bytes() / 4 and products < 100.0 * p.n_judgement_pairs


def pair_margin_blocks(
    p: Prepared, w: np.ndarray | None, *, margins: bool = True
) -> Iterator[PairMargins]:
    """The margins of every annotator pair sharing an item, in blocks within the budget.

    Parameters
    ----------
    p : Prepared
        The prepared data.
    w : ndarray or None
        Agreement weights (None: unweighted, agreement is identity of labels).
    margins : bool, default True
        False: only ``[shared, agreement]`` (percent agreement, where the distinct label
        sets of multi-label data may be many).

    Yields
    ------
    PairMargins
        In order of first, then second annotator; pairs that share no item left out.
    """
    q = p.q if margins else 0
    if not p.ann.is_multilabel and use_products(p, w is not None):  # sets: pairs of judgements
        yield from _product_blocks(p, w, margins)
        return
    for block in p.pair_blocks(margin_bytes(q)):
        if margins:
            totals = block.totals(w)
        else:
            totals = np.column_stack(
                [
                    np.bincount(block.pair, minlength=block.n_pairs),
                    np.bincount(block.pair, weights=block.agreement(w), minlength=block.n_pairs),
                ]
            ).astype(float)
        yield PairMargins(block.first, block.second, totals)


def _product_blocks(p: Prepared, w: np.ndarray | None, margins: bool) -> Iterator[PairMargins]:
    n_i, a_n, q = p.ann.n_items, p.ann.n_annotators, p.q
    judged = np.zeros((n_i, a_n))
    judged[p.item, p.annotator] = 1.0
    onehot = np.zeros((n_i, a_n, q))
    onehot[p.item, p.annotator, p.label] = 1.0
    by_label = onehot.transpose(0, 2, 1).reshape(n_i * q, a_n)  # row (i, k): who said k on i
    if w is None:
        partner = by_label
    else:  # partner[(i, k), b] = w[k, label of b on i]: agreement = by_label_a . partner_b
        partner = np.zeros((n_i, q, a_n))
        partner[p.item, :, p.annotator] = w[:, p.label].T
        partner = partner.reshape(n_i * q, a_n)
    per_row = estimate_bytes(a_n * (2 + 2 * q), copies=3) + margin_bytes(q) * a_n
    step = int(max(1, min(a_n, budget_bytes() / 4 // per_row)))
    upper = np.arange(a_n)
    for start in range(0, a_n, step):
        rows = slice(start, min(start + step, a_n))
        r = rows.stop - rows.start
        shared = judged[:, rows].T @ judged  # r x A
        agree = by_label[:, rows].T @ partner  # sum over items and labels
        keep = (shared > 0) & (upper[None, :] > (start + np.arange(r))[:, None])
        ra, cb = np.nonzero(keep)
        at = ra * a_n + cb  # flat (a, b) positions: contiguous row gathers below
        totals = np.empty((len(at), 2 + 2 * q if margins else 2))
        totals[:, 0] = shared.ravel()[at]
        totals[:, 1] = agree.ravel()[at]
        if margins:  # counts_a[a, b, k] from (b, a, k) rows, counts_b[a, b, k] from (a, b, k)
            counts_a = judged.T @ onehot[:, rows].reshape(n_i, r * q)  # A x (r q)
            totals[:, 2 : 2 + q] = counts_a.reshape(a_n * r, q)[cb * r + ra]
            counts_b = judged[:, rows].T @ onehot.reshape(n_i, a_n * q)  # r x (A q)
            totals[:, 2 + q :] = counts_b.reshape(r * a_n, q)[at]
        yield PairMargins(ra + start, cb, totals)
