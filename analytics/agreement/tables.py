"""Where do the annotators agree? Agreement per annotator pair and per item.

(Agreement per category is :mod:`analytics.agreement.categories`.)

- :func:`pairwise`: a coefficient for every pair of annotators (:class:`Pairwise`);
- :func:`contingency`: two annotators' labels against each other;
- :func:`item_agreement`, :func:`agreement_levels`, :func:`item_agreement_summary`:
  observed agreement on every item, and how the items spread over it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from analytics._core.budget import check_budget, estimate_bytes
from analytics._core.errors import AnnotationDataError, require
from analytics._core.validation import check_choice
from analytics.agreement.annotator_pairs import pair_labels, pair_margin_values, two_annotators
from analytics.agreement.pair_margins import pair_margin_blocks, pairwise_bytes
from analytics.agreement.prepared import (
    ANONYMOUS_RATERS,
    MULTILABEL_ONLY_ALPHA,
    coders,
    prepare,
)
from analytics.data import Annotations, anonymous_annotators

__all__ = [
    "ItemAgreementSummary",
    "Pairwise",
    "agreement_levels",
    "contingency",
    "item_agreement",
    "item_agreement_summary",
    "pairwise",
]


def _refuse_anonymous(ann: Annotations, what: str) -> None:
    """Count-table data (anonymous raters) have no annotator pairs to tabulate."""
    if anonymous_annotators(ann):
        raise AnnotationDataError(
            f"{what} {ANONYMOUS_RATERS}.",
            hint="Load the judgements (who gave which label), or use the coefficients "
            "defined on counts.",
        )


# ---------------------------------------------------------------------- pairwise matrix
class Pairwise(NamedTuple):
    """An annotator x annotator matrix of a coefficient and its shared-item counts.

    Attributes
    ----------
    values : DataFrame
        Annotators x annotators; NaN on the diagonal and for pairs that share no item.
    shared : DataFrame
        Items both judged (diagonal: the annotator's own items).
    coefficient : str
        The machine name of the coefficient.
    """

    values: pd.DataFrame
    shared: pd.DataFrame
    coefficient: str

    def most_shared(self) -> tuple[int, int]:
        """Positions (row, column) of the two different annotators who share most items.

        Ties go to the first pair in row order; with one annotator, ``(0, 0)``.
        """
        shared = self.shared.to_numpy().copy()
        np.fill_diagonal(shared, -1)
        ia, ib = np.unravel_index(int(np.argmax(shared)), shared.shape)
        return int(ia), int(ib)


_PAIRWISE = {
    "cohen_kappa": "cohen",
    "scott_pi": "scott",
    "percent_agreement": "percent",
    "krippendorff_alpha": "alpha",
    "gwet_ac1": "gwet",
}


def pairwise(ann: Annotations | pd.DataFrame, coefficient: str = "cohen_kappa") -> Pairwise:
    """The coefficient for every pair of annotators, over the items both judged.

    Parameters
    ----------
    ann : Annotations or DataFrame
        The judgements.
    coefficient : str, default "cohen_kappa"
        ``"cohen_kappa"``, ``"scott_pi"``, ``"percent_agreement"``, ``"gwet_ac1"``
        (two-annotator AC1) or ``"krippendorff_alpha"`` (nominal, two annotators).
        Multi-label data: ``"percent_agreement"`` only.

    Returns
    -------
    Pairwise

    Raises
    ------
    AnnotationDataError
        Unknown ``coefficient``, or one that needs single-label data; or the annotators x
        annotators tables would exceed the memory budget (checked before allocating).

    Notes
    -----
    The pairs are computed in blocks of annotators, each within a quarter of the memory
    budget (:mod:`~analytics.agreement.pair_margins`). Each pair's value is the two-annotator coefficient on the items both judged,
    from the pair's margins (:func:`~analytics.agreement.annotator_pairs.pair_values_from_margins`
    gives the formulas).

    References
    ----------
    Cohen, J. (1960), equation 1; Scott, W. A. (1955); Gwet, K. L. (2008);
    Krippendorff, K. (2011) (alpha of two observers).
    """
    ann = coders(ann)
    check_choice(coefficient, "coefficient", tuple(_PAIRWISE))
    _refuse_anonymous(ann, "a table of annotator pairs")
    names = ann.annotators
    a_n = ann.n_annotators
    if ann.is_multilabel and coefficient != "percent_agreement":
        raise AnnotationDataError(
            f"{coefficient} is {MULTILABEL_ONLY_ALPHA}.", hint="Choose percent_agreement."
        )
    check_budget(
        pairwise_bytes(a_n),
        f"the pairwise table of {a_n:,} annotators ({a_n * (a_n - 1) // 2:,} annotator pairs)",
        "Use agreement_report for the coefficients over all annotators, or pairwise on a "
        "subset of the annotators (Annotations.subset).",
    )
    shared = ann.coverage()
    values = np.full((a_n, a_n), np.nan)
    p = prepare(ann)
    which = _PAIRWISE[coefficient]
    if a_n >= 2 and len(p.item) and which == "percent":  # sets may be many: count directly
        for pairs in pair_margin_blocks(p, None, margins=False):
            n, agree = pairs.totals[:, 0], pairs.totals[:, 1]
            with np.errstate(invalid="ignore", divide="ignore"):
                vals = np.where(n > 0, agree / n, np.nan)
            values[pairs.first, pairs.second] = vals
            values[pairs.second, pairs.first] = vals
    elif a_n >= 2 and len(p.item):
        for pairs, vals, _ in pair_margin_values(p, None, which):
            values[pairs.first, pairs.second] = vals
            values[pairs.second, pairs.first] = vals
    frame = pd.DataFrame(values, index=names, columns=names)
    frame.index.name, frame.columns.name = "annotator", "annotator"
    return Pairwise(frame, shared, coefficient)


# ---------------------------------------------------------------------- contingency, items
def contingency(ann: Annotations | pd.DataFrame, a: Any, b: Any) -> pd.DataFrame:
    """Confusion matrix between annotators ``a`` (rows) and ``b`` (columns) on shared items.

    Parameters
    ----------
    ann : Annotations or DataFrame
        The judgements.
    a, b : annotator name
        The two annotators.

    Returns
    -------
    DataFrame
        Counts of shared items; rows and columns are the categories (multi-label data: the
        distinct label sets), named after the annotators.

    Raises
    ------
    AnnotationDataError
        An unknown annotator.

    Notes
    -----
    Cell :math:`(k, l)` is :math:`n_{kl}`, the number of items ``a`` labelled :math:`k`
    and ``b`` labelled :math:`l`: the agreement table whose proportions
    :math:`p_{kl} = n_{kl} / n` give Cohen's :math:`p_o = \\sum_k p_{kk}` and, from its
    margins, :math:`p_e = \\sum_k p_{k\\cdot} p_{\\cdot k}`.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educational and
    Psychological Measurement* 20(1), 37-46, equation 1 (the kappa computed from this
    table).
    """
    ann = coders(ann)
    _refuse_anonymous(ann, "a table of two annotators' labels")
    ia, ib = two_annotators(ann, a, b)
    p = prepare(ann)
    if ann.is_multilabel:
        names = _set_names(ann)
        q = len(names)
    else:
        names, q = list(ann.categories), ann.n_categories
    check_budget(
        estimate_bytes(q * q, copies=3),
        f"the {q:,} x {q:,} table of two annotators' categories",
        "Merge rare categories, or analyse a subset of the categories.",
    )
    la, lb = pair_labels(p, ia, ib)
    table = np.bincount(la * q + lb, minlength=q * q).reshape(q, q)
    return pd.DataFrame(
        table,
        index=pd.Index(names, name=str(ann.annotators[ia])),
        columns=pd.Index(names, name=str(ann.annotators[ib])),
    )


def _set_names(ann: Annotations) -> list[str]:
    """Display names of the distinct label sets: categories in declared order, "{}" if empty."""
    cats = [str(c) for c in ann.categories]
    return [
        ", ".join(c for c, on in zip(cats, row, strict=True) if on) or "{}"
        for row in ann.label_sets_table
    ]


def _top_labels(c, top: np.ndarray, names: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each item's most frequent label as text, every tied one joined by " / ", and
    whether there was a tie (``c``: the sparse items x labels counts; ``top``: row maxima)."""
    n = len(top)
    label = np.full(n, names[0] if len(names) else None, dtype=object)
    coo = c.tocoo()
    hit = (coo.data == top[coo.row]) & (coo.data > 0)
    rows, cols = coo.row[hit], coo.col[hit]
    order = np.lexsort((cols, rows))  # by item, then in category order
    rows, cols = rows[order], cols[order]
    n_top = np.bincount(rows, minlength=n)
    first = np.unique(rows, return_index=True)
    label[first[0]] = names[cols[first[1]]]
    tied = n_top > 1
    if tied.any():
        many = tied[rows]
        joined = pd.Series(names[cols[many]]).groupby(rows[many], sort=True).agg(" / ".join)
        label[joined.index.to_numpy()] = joined.to_numpy()
    return label, tied


def item_agreement(ann: Annotations | pd.DataFrame) -> pd.DataFrame:
    """Observed agreement on every item.

    Parameters
    ----------
    ann : Annotations or DataFrame
        The judgements (multi-label data compare whole label sets).

    Returns
    -------
    DataFrame
        Indexed by item: ``judgements``, ``agreement`` (share of agreeing pairs of
        judgements; NaN with one judgement), ``top_votes`` (judgements in the most frequent
        label), ``top_share``, ``top_label`` (text: the label; on a tie every tied label,
        in category order, joined by ``" / "``, e.g. ``"neu / pos"``; multi-label data:
        the set as text, categories in declared order, ``{}`` for the empty set) and
        ``tied`` (True when two or more labels share the top votes).

    Notes
    -----
    .. math:: p_i = \\frac{\\sum_k r_{ik}(r_{ik}-1)}{r_i(r_i-1)}

    Fleiss's (1971) :math:`P_i`; their mean over items with two or more
    judgements is the observed agreement of :func:`~analytics.agreement.fleiss_kappa`.

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin* 76(5), 378-382.
    """
    ann = coders(ann)
    p = prepare(ann)
    c = p.counts
    n_i = p.n_i.astype(float)
    agree = np.asarray(c.multiply(c).sum(axis=1)).ravel() - n_i
    with np.errstate(invalid="ignore", divide="ignore"):
        share_pairs = np.where(n_i >= 2, agree / (n_i * (n_i - 1)), np.nan)
    top = np.asarray(c.max(axis=1).toarray()).ravel() if c.shape[1] else np.zeros(len(n_i))
    names = _set_names(ann) if ann.is_multilabel else [str(x) for x in ann.categories]
    top_label, tied = _top_labels(c, top, np.asarray(names, dtype=object))
    frame = pd.DataFrame(
        {
            "judgements": p.n_i.astype(np.int64),
            "agreement": share_pairs,
            "top_votes": top.astype(np.int64),
            "top_share": np.divide(top, n_i, out=np.full(len(n_i), np.nan), where=n_i > 0),
            "top_label": top_label,
            "tied": tied,
        },
        index=ann.items,
    )
    frame.index.name = "item"
    return frame


class ItemAgreementSummary(NamedTuple):
    """How the items spread over observed agreement (:func:`item_agreement_summary`).

    Parameters
    ----------
    n_items : int
        Items with two or more judgements (the ones with an agreement).
    mean : float
        Mean item agreement, Fleiss's (1971) :math:`\\bar P` (NaN without such items).
    full_share : float
        Share of those items on which every pair of judgements agrees (NaN without such
        items).
    """

    n_items: int
    mean: float
    full_share: float


def item_agreement_summary(items: pd.DataFrame) -> ItemAgreementSummary:
    """Mean item agreement and the share of items in full agreement.

    Parameters
    ----------
    items : DataFrame
        A table of :func:`item_agreement` (its ``agreement`` column).

    Returns
    -------
    ItemAgreementSummary
        Over the items with a defined agreement (two or more judgements).

    Notes
    -----
    The mean is Fleiss's (1971) :math:`\\bar P = \\frac{1}{n'} \\sum_i p_i` over the
    :math:`n'` items with :math:`r_i \\ge 2`; the full share is the fraction of those
    items with :math:`p_i = 1`.

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin* 76(5), 378-382 (:math:`P_i` and their mean
    :math:`\\bar P`, the observed agreement of kappa).
    """
    require(
        items,
        isinstance(items, pd.DataFrame) and "agreement" in items.columns,
        "the table item_agreement returns",
        hint="Summarise the item table: item_agreement_summary(item_agreement(ann)).",
    )
    values = items["agreement"].dropna()
    if values.empty:
        return ItemAgreementSummary(0, float("nan"), float("nan"))
    return ItemAgreementSummary(
        len(values), float(values.mean()), float((values >= 1 - 1e-12).mean())
    )


def agreement_levels(ann: Annotations | pd.DataFrame) -> pd.DataFrame:
    """Items by agreement level, as table 3 of Bhowmick, Mitra & Basu (2008).

    Parameters
    ----------
    ann : Annotations or DataFrame
        The judgements.

    Returns
    -------
    DataFrame
        One row per (judgements, top_votes) combination: ``level`` ("3 of 4 agree"),
        ``judgements``, ``top_votes``, ``items`` (how many items had ``top_votes`` of their
        ``judgements`` judgements on the same label) and ``share`` of all items.

    References
    ----------
    Bhowmick, P. K., Mitra, P., & Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. *Proceedings of the
    Workshop on Human Judgements in Computational Linguistics* (COLING 2008), table 3.
    """
    items = item_agreement(ann)
    table = (
        items.groupby(["judgements", "top_votes"])
        .size()
        .rename("items")
        .reset_index()
        .sort_values(["judgements", "top_votes"], ascending=[True, False], ignore_index=True)
    )
    total = max(int(table["items"].sum()), 1)
    table["share"] = table["items"] / total
    table["level"] = [
        f"{t} of {j} agree" for j, t in zip(table["judgements"], table["top_votes"], strict=True)
    ]
    return table[["level", "judgements", "top_votes", "items", "share"]]
