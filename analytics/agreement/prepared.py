"""What every agreement coefficient shares: the value type, the reasons, the prepared data.

- :class:`Coefficient`: a float (NaN when undefined) carrying ``note`` and ``items_used``;
  :func:`undefined` makes the NaN one with its reason.
- :class:`Prepared` (made by :func:`prepare`): the item x category counts, one judgement
  per annotator and item, and, on demand, the :class:`JudgementPairs` (every pair of
  judgements of an item by two annotators) and the bootstrap patterns.
- :func:`coders` keeps one judgement per annotator and item (the agreement weights
  :math:`w_{kl}` that ``weights=`` asks for are in :mod:`analytics.agreement.weights`).

Notation (used by every module of :mod:`analytics.agreement`): item :math:`i` has
:math:`r_{ik}` judgements in category :math:`k` and :math:`r_i = \\sum_k r_{ik}`;
:math:`q` categories; agreement weights :math:`w_{kl}` (identity when unweighted).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd
from scipy import sparse

from analytics._core.bootstrap import ItemStatistic, Patterns
from analytics._core.budget import budget_bytes, check_budget
from analytics._core.ids import name_order, name_ranks
from analytics.agreement.coincidence import pairs_after, pairs_within_groups
from analytics.data import Annotations, anonymous_annotators, as_annotations

__all__ = [
    "ANONYMOUS_RATERS",
    "JUDGEMENT_PAIR_BYTES",
    "MULTILABEL_ONLY_ALPHA",
    "NO_PAIRS",
    "ONE_CATEGORY",
    "ONE_CATEGORY_RAW",
    "Built",
    "Coefficient",
    "JudgementPairs",
    "Prepared",
    "Weights",
    "coders",
    "join_notes",
    "known_annotators_only",
    "prepare",
    "single_label_only",
    "undefined",
]

Weights = None | str | np.ndarray | Sequence[Sequence[float]]
"""``weights=``: None (unweighted), a family of
:data:`~analytics.agreement.weights.WEIGHT_FAMILIES` (``"linear"``, ``"quadratic"``, ...) or a
q x q matrix."""


class Coefficient(float):
    """A coefficient value: a float (NaN when undefined) with the facts behind it.

    Parameters
    ----------
    value : float
        The coefficient (NaN when undefined).
    note : str, default ""
        Why the value is NaN, or what the reader should know.
    items_used : int, default 0
        How many items entered the computation.

    Attributes
    ----------
    note : str
        Why the value is NaN, or what the reader should know (e.g. how many pairs a mean
        is over).
    items_used : int
        How many items entered the computation.

    Examples
    --------
    >>> c = Coefficient(float("nan"), "no pairs", 0)
    >>> c.reason
    'no pairs'
    >>> Coefficient(0.5, "linear weights", 10) * 2
    1.0
    """

    note: str
    items_used: int

    def __new__(cls, value: float, note: str = "", items_used: int = 0) -> Coefficient:
        obj = super().__new__(cls, value)
        obj.note = note
        obj.items_used = int(items_used)
        return obj

    @property
    def reason(self) -> str:
        """Why the value is NaN (empty when it is not)."""
        return self.note if np.isnan(self) else ""

    def __repr__(self) -> str:
        extra = f", note={self.note!r}" if self.note else ""
        return f"Coefficient({float(self)!r}, items_used={self.items_used}{extra})"


Built = tuple[Coefficient, "ItemStatistic | Callable[[], ItemStatistic] | None"]
"""A coefficient and its bootstrap statistic (or a function building it; None if undefined)."""

# ---------------------------------------------------------------------- reasons
NO_PAIRS = "no item was judged by two or more annotators, so there is nothing to compare"
ONE_CATEGORY = (
    "every judgement is in the same category, so chance agreement is 1 and agreement "
    "beyond chance is undefined (not perfect: there was nothing to disagree about)"
)
ONE_CATEGORY_RAW = (
    "every judgement is in the same category: the annotators never had to choose, so raw "
    "agreement says nothing (it would be a trivial 100%)"
)
MULTILABEL_ONLY_ALPHA = (
    "defined for single-label data only; for multi-label data use Krippendorff's alpha "
    "with a set distance, or the per-category view"
)


def undefined(reason: str, items_used: int = 0) -> Coefficient:
    """A NaN :class:`Coefficient` that says why."""
    return Coefficient(float("nan"), reason, items_used)


def join_notes(*parts: str) -> str:
    """The non-empty notes joined by "; "."""
    return "; ".join(x for x in parts if x)


ANONYMOUS_RATERS = (
    "needs to know which rater gave which label, and the raters of a count table are "
    "anonymous; on counts use percent agreement, Fleiss' kappa, Gwet's AC1/AC2, "
    "Brennan-Prediger or Krippendorff's alpha"
)


def known_annotators_only(ann: Annotations, name: str) -> Coefficient | None:
    """A NaN coefficient for count-table data (anonymous raters), else None."""
    if anonymous_annotators(ann):
        return undefined(f"{name} {ANONYMOUS_RATERS}")
    return None


def single_label_only(ann: Annotations, name: str) -> Coefficient | None:
    """A NaN coefficient for multi-label data (``name`` compares single labels), else None."""
    if ann.is_multilabel:
        return undefined(f"{name} is {MULTILABEL_ONLY_ALPHA}")
    return None


# ---------------------------------------------------------------------- preparation
@dataclass(frozen=True)
class Prepared:
    """Everything the coefficients share, computed once per data set (:func:`prepare`).

    Attributes
    ----------
    ann : Annotations
        The data (one judgement per annotator and item, see :func:`coders`).
    counts : scipy.sparse.csr_matrix
        Items x categories (multi-label data: items x distinct label sets), all judgements.
    n_i : ndarray of int
        Judgements per item, :math:`r_i`.
    item, annotator, label : ndarray of int
        The deduplicated judgements (the last per item and annotator), sorted by item, then
        annotator.
    repeats : bool
        Some annotator judged some item more than once.
    """

    ann: Annotations
    counts: sparse.csr_matrix
    n_i: np.ndarray
    item: np.ndarray
    annotator: np.ndarray
    label: np.ndarray
    repeats: bool

    @property
    def n_pairable(self) -> int:
        """Items with two or more judgements."""
        return int((self.n_i >= 2).sum())

    @property
    def q(self) -> int:
        """The number of declared categories."""
        return self.ann.n_categories

    @cached_property
    def dense_counts(self) -> np.ndarray:
        """Items x categories as a dense float array (for the analytic standard errors)."""
        return self.counts.toarray().astype(float)

    @cached_property
    def pairs(self) -> JudgementPairs:
        """Every pair of judgements of an item by two annotators, at once (the bootstrap).

        Raises
        ------
        AnnotationDataError
            When they would not fit in the memory budget (:meth:`pair_blocks` splits them).
        """
        cost = self.pair_costs(0.0).sum()
        check_budget(
            cost,
            f"all {self.n_judgement_pairs:,} pairs of judgements at once (items judged by "
            f"{self.ann.n_annotators:,} annotators)",
            "Pass n_boot=0 (the values are computed in blocks), or analyse a subset of the "
            "annotators (Annotations.subset).",
        )
        return JudgementPairs.of(self)

    @cached_property
    def judgement_pairs_per_annotator(self) -> np.ndarray:
        """Per annotator, the judgement pairs in which it is the first (lower-coded) one."""
        return np.bincount(
            self.annotator, weights=pairs_after(self.item), minlength=self.ann.n_annotators
        )

    @property
    def n_judgement_pairs(self) -> int:
        """Pairs of judgements of the same item by two annotators."""
        return int(self.judgement_pairs_per_annotator.sum())

    def pair_costs(self, bytes_per_pair: float) -> np.ndarray:
        """Estimated bytes, per first annotator, of its judgement pairs and annotator pairs.

        ``bytes_per_pair`` is what the caller keeps per annotator pair (e.g. the margins).
        """
        per_first = self.judgement_pairs_per_annotator
        later = self.ann.n_annotators - 1 - np.arange(self.ann.n_annotators)
        return JUDGEMENT_PAIR_BYTES * per_first + bytes_per_pair * np.minimum(per_first, later)

    def pair_blocks(self, bytes_per_pair: float) -> Iterator[JudgementPairs]:
        """The judgement pairs in blocks of first annotators, each in a quarter of the budget.

        The blocks, in order, hold exactly the pairs of :attr:`pairs` in the same order
        (``first`` and ``second`` are global annotator codes; ``pair`` indexes the block).

        Parameters
        ----------
        bytes_per_pair : float
            What the caller allocates per annotator pair of a block.

        Raises
        ------
        AnnotationDataError
            When one annotator's pairs alone exceed the budget (checked before building).
        """
        cost = self.pair_costs(bytes_per_pair)
        cum = np.cumsum(cost)
        cap = budget_bytes() / 4.0
        start, a_n = 0, self.ann.n_annotators
        while start < a_n:
            done = cum[start - 1] if start else 0.0
            stop = max(int(np.searchsorted(cum, done + cap, side="right")), start + 1)
            block = cum[stop - 1] - done
            if block > budget_bytes():
                check_budget(
                    block,
                    f"the {int(self.judgement_pairs_per_annotator[start]):,} pairs of judgements "
                    f"of annotator {self.ann.annotators[start]!r} with the others",
                    "Analyse a subset of the items or of the annotators (Annotations.subset).",
                )
            yield JudgementPairs.of(self, range(start, min(stop, a_n)))
            start = stop

    @cached_property
    def patterns(self) -> Patterns:
        """Items grouped by identical judgements (only the bootstrap needs them).

        In the data's own order, not the file's: patterns are keyed by the annotators' and
        categories' name ranks, and items are drawn by their names' rank, so the same
        judgements in another row order resample alike (codes follow first appearance).
        """
        ann = self.ann
        by_name = name_order(ann.items)  # item codes, by name
        if self.repeats or ann.n_annotators > 64:
            return Patterns(np.arange(ann.n_items), by_name, np.ones(ann.n_items, np.int64))
        a_rank, l_rank = name_ranks(ann.annotators), name_ranks(ann.categories)
        if ann.is_multilabel:  # label codes are label sets: rank them by their categories
            sets = np.asarray(ann.label_sets_table)[:, name_order(ann.categories)]
            order = np.lexsort(sets.T[::-1]) if sets.size else np.arange(len(sets))
            l_rank = np.empty(len(sets), np.int64)
            l_rank[order] = np.arange(len(sets))
        wide = np.full((ann.n_items, ann.n_annotators), -1, np.int64)
        wide[self.item, a_rank[self.annotator]] = l_rank[self.label]
        grouped = Patterns.from_keys(wide)
        return Patterns(grouped.of_item[by_name], grouped.first_item, grouped.multiplicity)


def coders(ann: Annotations | pd.DataFrame) -> Annotations:
    """One judgement per annotator and item (the last one, as :meth:`Annotations.wide_codes`).

    Agreement compares coders; an annotator's repeated look at an item is not a second
    coder, so repeats (loaded with ``duplicates="keep"``) must not pair with each other.
    :func:`~analytics.agreement.agreement_report` says when this happened.

    Parameters
    ----------
    ann : Annotations or DataFrame
        The judgements (a long DataFrame is read with :func:`as_annotations`).

    Returns
    -------
    Annotations
        ``ann`` itself when nobody judged an item twice.
    """
    ann = as_annotations(ann)
    return ann.without_repeats("last") if ann.has_repeats else ann


def prepare(ann: Annotations) -> Prepared:
    """The counts and deduplicated judgements every coefficient starts from.

    Parameters
    ----------
    ann : Annotations
        The data (usually already through :func:`coders`).

    Returns
    -------
    Prepared
    """
    n_i = np.bincount(ann.item_codes, minlength=ann.n_items)
    n_cols = len(ann.label_sets_table) if ann.is_multilabel else ann.n_categories
    counts = sparse.csr_matrix(
        (np.ones(ann.n_judgements), (ann.item_codes, ann.label_codes)),
        shape=(ann.n_items, n_cols),
    )
    counts.sum_duplicates()
    # one judgement per (item, annotator), the last one, as wide_codes() has it
    key = ann.item_codes * max(ann.n_annotators, 1) + ann.annotator_codes
    if len(key) and (np.diff(key) < 0).any():
        order = np.argsort(key, kind="stable")  # stable: repeats stay in input order
    else:
        order = np.arange(len(key))
    sorted_key = key[order]
    last_of_run = np.r_[sorted_key[1:] != sorted_key[:-1], True] if len(key) else np.zeros(0, bool)
    repeats = not last_of_run.all()
    if repeats:
        order = order[last_of_run]
    item, annotator, label = (
        ann.item_codes[order],
        ann.annotator_codes[order],
        ann.label_codes[order],
    )
    return Prepared(ann, counts, n_i, item, annotator, label, repeats)


# ---------------------------------------------------------------------- pairs of judgements
JUDGEMENT_PAIR_BYTES = 96
"""Estimated peak bytes per pair of judgements while a block of pairs is built and summed
(positions, annotators, keys, labels, the pair index: about a dozen 8-byte numbers)."""


@dataclass(frozen=True)
class JudgementPairs:
    """Every pair of judgements of one item by two annotators (``a < b``).

    Two-annotator coefficients need, per annotator pair, only the number of shared items,
    the (weighted) agreements and the two annotators' category counts: ``2 + 2q`` numbers,
    not a ``q x q`` table, so many categories and many annotator pairs stay cheap.

    Attributes
    ----------
    item, pair, la, lb : ndarray of int
        Per judgement pair: the item, the annotator pair (index into ``first``/``second``),
        and the two labels.
    first, second : ndarray of int
        Per annotator pair: the two annotators' codes.
    q, n_items : int
        Categories (columns of the margins) and items.
    """

    item: np.ndarray
    pair: np.ndarray
    la: np.ndarray
    lb: np.ndarray
    first: np.ndarray
    second: np.ndarray
    q: int
    n_items: int

    @classmethod
    def of(cls, p: Prepared, first: range | None = None) -> JudgementPairs:
        """The judgement pairs of the prepared data (whose first annotator is in ``first``).

        No budget check here: :attr:`Prepared.pairs` and :meth:`Prepared.pair_blocks` check.
        """
        a_n = max(p.ann.n_annotators, 1)
        lo, width = (0, a_n) if first is None else (first.start, len(first))
        among = None if first is None else (p.annotator >= first.start) & (p.annotator < first.stop)
        left, right = pairs_within_groups(p.item, among=among)
        a, b = p.annotator[left], p.annotator[right]  # a < b: judgements sorted by annotator
        key = (a - lo) * a_n + b
        if width * a_n <= 2 * len(key) + 4096:  # dense keys: count them, no sort
            seen = np.bincount(key, minlength=width * a_n) > 0
            pair_idx = (np.cumsum(seen) - 1)[key]
            uniq = np.flatnonzero(seen)
        else:
            uniq, pair_idx = np.unique(key, return_inverse=True)
        return cls(
            p.item[left],
            pair_idx.reshape(-1),
            p.label[left],
            p.label[right],
            uniq // a_n + lo,
            uniq % a_n,
            p.q,
            p.ann.n_items,
        )

    @property
    def n_pairs(self) -> int:
        """Annotator pairs that share at least one item."""
        return len(self.first)

    def agreement(self, w: np.ndarray | None) -> np.ndarray:
        """Agreement of each judgement pair: 1/0, or the weight ``w[la, lb]``."""
        return (self.la == self.lb).astype(float) if w is None else w[self.la, self.lb]

    def totals(self, w: np.ndarray | None) -> np.ndarray:
        """Pairs x (2 + 2q): ``[shared, agreement, counts_a, counts_b]`` over all items."""
        n_p, q = self.n_pairs, self.q
        return np.column_stack(
            [
                np.bincount(self.pair, minlength=n_p),
                np.bincount(self.pair, weights=self.agreement(w), minlength=n_p),
                np.bincount(self.pair * q + self.la, minlength=n_p * q).reshape(n_p, q),
                np.bincount(self.pair * q + self.lb, minlength=n_p * q).reshape(n_p, q),
            ]
        ).astype(float)

    def stats(self, w: np.ndarray | None) -> sparse.csr_matrix:
        """Items x (pairs * (2 + 2q)): per pair ``[shared, agreement, counts_a, counts_b]``."""
        q, width = self.q, 2 + 2 * self.q
        base = self.pair * width
        agree = self.agreement(w)
        rows = np.tile(self.item, 4)
        cols = np.concatenate([base, base + 1, base + 2 + self.la, base + 2 + q + self.lb])
        data = np.concatenate([np.ones(len(base)), agree, np.ones(len(base)), np.ones(len(base))])
        return sparse.csr_matrix((data, (rows, cols)), shape=(self.n_items, self.n_pairs * width))
