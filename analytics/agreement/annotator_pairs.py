"""Two-annotator coefficients and their mean over annotator pairs.

Cohen's kappa, Scott's pi, percent agreement, two-annotator AC1 and nominal alpha of one
pair of annotators on the items both judged, computed from the pair's margins
``[shared, agreement, counts_a, counts_b]`` (see :class:`~analytics.agreement.prepared.
JudgementPairs`), for one pair (:func:`pair_coefficient`), for every pair at once
(:func:`pair_values_from_margins`, used by :func:`~analytics.agreement.pairwise`) and as
Light's (1971) mean over the pairs (:func:`pair_mean`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from analytics._core.bootstrap import ItemStatistic
from analytics._core.budget import check_budget, estimate_bytes
from analytics._core.errors import AnnotationDataError
from analytics.agreement.pair_margins import PairMargins, margin_bytes, pair_margin_blocks
from analytics.agreement.prepared import (
    ONE_CATEGORY,
    Built,
    Coefficient,
    Prepared,
    Weights,
    known_annotators_only,
    prepare,
    single_label_only,
    undefined,
)
from analytics.agreement.reading import FEW_SHARED
from analytics.agreement.weights import agreement_weights
from analytics.data import Annotations

__all__ = [
    "joint_table",
    "pair_coefficient",
    "pair_labels",
    "pair_mean",
    "pair_values_from_margins",
    "two_annotators",
]


def pair_values_from_margins(
    t: np.ndarray, w: np.ndarray | None, which: str, q: int
) -> tuple[np.ndarray, np.ndarray]:
    """Two-annotator coefficients from ``[shared, agreement, counts_a, counts_b]`` rows.

    Parameters
    ----------
    t : ndarray, shape (..., 2 + 2q)
        Per annotator pair (and replicate): shared items, (weighted) agreements, and the
        two annotators' category counts on the shared items.
    w : ndarray or None
        Agreement weights (None: unweighted).
    which : {"cohen", "scott", "percent", "gwet", "alpha"}
        ``cohen``: chance agreement from each annotator's margins; ``scott``: from the
        pooled margins; ``gwet``: two-annotator AC1; ``alpha``: nominal alpha of the two
        annotators on their shared items.
    q : int
        Number of categories.

    Returns
    -------
    values : ndarray, shape (...)
        NaN where undefined.
    shared : ndarray, shape (...)
        Items each pair shares.

    Notes
    -----
    With :math:`p_o` the (weighted) share of agreeing items and :math:`p_{k\\cdot}`,
    :math:`p_{\\cdot k}` the two annotators' margins, every coefficient is
    :math:`(p_o - p_e) / (1 - p_e)` with

    - Cohen: :math:`p_e = \\sum_{kl} w_{kl} p_{k\\cdot} p_{\\cdot l}`;
    - Scott: :math:`p_e = \\sum_k \\bar p_k^2`, :math:`\\bar p_k = (p_{k\\cdot} + p_{\\cdot k})/2`;
    - AC1: :math:`p_e = \\sum_k \\bar p_k (1 - \\bar p_k) / (q - 1)`;

    and alpha :math:`= 1 - (1 - p_o) / D_e` with :math:`m = 2n` values and
    :math:`D_e = (m^2 - \\sum_k (m \\bar p_k)^2) / (m (m - 1))`.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educational and
    Psychological Measurement* 20(1), 37-46, equation 1.
    Scott, W. A. (1955). Reliability of content analysis: the case of nominal scale
    coding. *Public Opinion Quarterly* 19(3), 321-325.
    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence
    of high agreement. *British Journal of Mathematical and Statistical Psychology* 61(1),
    29-48.
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School
    for Communication, University of Pennsylvania (alpha of two observers).
    """
    n = t[..., 0]
    with np.errstate(invalid="ignore", divide="ignore"):
        po = t[..., 1] / n
        row = t[..., 2 : 2 + q] / n[..., None]
        col = t[..., 2 + q :] / n[..., None]
        pooled = (row + col) / 2.0
        used = (pooled > 0).sum(axis=-1) >= 2
        if which == "percent":
            return np.where(n > 0, po, np.nan), n
        if which == "gwet":
            pe = (pooled * (1 - pooled)).sum(axis=-1) / (q - 1) if q > 1 else np.ones_like(n)
        elif which == "alpha":  # alpha = 1 - (m - 1) D_o / D_e with m = 2n values
            m = 2.0 * n
            de = (m**2 - ((pooled * m[..., None]) ** 2).sum(axis=-1)) / (m * (m - 1))
            return np.where(used & (n > 0), 1.0 - (1.0 - po) / de, np.nan), n
        else:
            left, right = (pooled, pooled) if which == "scott" else (row, col)
            pe = (
                (left * right).sum(axis=-1)
                if w is None
                else np.einsum("...k,kl,...l->...", left, w, right)
            )
        value = (po - pe) / (1.0 - pe)
    ok = (n > 0) & ~np.isclose(pe, 1.0) & (used if which == "gwet" else True)
    return np.where(ok, value, np.nan), n


def _pair_values(
    la: np.ndarray, lb: np.ndarray, w: np.ndarray | None, which: str, q: int
) -> tuple[np.ndarray, np.ndarray]:
    """Kappa (``cohen``) or pi (``scott``) of two annotators' labels on their shared items."""
    agree = (la == lb).sum() if w is None else w[la, lb].sum()
    margins = np.concatenate(
        [[len(la), agree], np.bincount(la, minlength=q), np.bincount(lb, minlength=q)]
    ).astype(float)
    return pair_values_from_margins(margins, w, which, q)


def pair_margin_values(
    p: Prepared, w: np.ndarray | None, which: str
) -> Iterator[tuple[PairMargins, np.ndarray, np.ndarray]]:
    """Per block of annotator pairs (:func:`~analytics.agreement.pair_margins.
    pair_margin_blocks`): the block, the values and the shared items of ``which`` (see
    :func:`pair_values_from_margins`)."""
    for block in pair_margin_blocks(p, w):
        vals, shared = pair_values_from_margins(block.totals, w, which, p.q)
        yield block, vals, shared


def _mean_pair_statistic(p: Prepared, w: np.ndarray | None, which: str) -> ItemStatistic:
    pairs = p.pairs  # all at once: checked against the budget
    n_pairs, q = pairs.n_pairs, pairs.q
    check_budget(
        estimate_bytes(4 * len(pairs.pair), copies=5) + margin_bytes(q) * n_pairs,
        f"the bootstrap of a mean over {n_pairs:,} annotator pairs",
        "Pass n_boot=0 for the value without a bootstrap interval, or analyse a subset of "
        "the annotators (Annotations.subset).",
    )

    def finish(t: np.ndarray) -> np.ndarray:
        vals, _ = pair_values_from_margins(t.reshape(len(t), n_pairs, 2 + 2 * q), w, which, q)
        ok = np.isfinite(vals)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.where(ok, vals, 0).sum(axis=1) / ok.sum(axis=1)
        return np.where(ok.any(axis=1), mean, np.nan)

    return ItemStatistic(pairs.stats(w), finish)


def two_annotators(ann: Annotations, a: Any, b: Any) -> tuple[int, int]:
    """The codes of annotators ``a`` and ``b`` (a name, or its text form).

    Raises
    ------
    AnnotationDataError
        Only one of the two is given, or one is not an annotator of ``ann``.
    """
    if (a is None) != (b is None):
        raise AnnotationDataError("give both annotators a and b, or neither (mean over all pairs).")
    codes = []
    for who in (a, b):
        idx = ann.annotators.get_indexer([who])[0]
        if idx < 0:
            idx = ann.annotators.get_indexer([str(who)])[0]
        if idx < 0:
            raise AnnotationDataError(
                f"unknown annotator {who!r}.",
                hint=f"Annotators: {', '.join(map(str, ann.annotators[:10]))}"
                + (" ..." if ann.n_annotators > 10 else "."),
            )
        codes.append(int(idx))
    return codes[0], codes[1]


def pair_labels(p: Prepared, ia: int, ib: int) -> tuple[np.ndarray, np.ndarray]:
    """The labels of annotators ``ia`` and ``ib`` on the items both judged (item order)."""
    la = np.full(p.ann.n_items, -1)
    lb = np.full(p.ann.n_items, -1)
    sel_a, sel_b = p.annotator == ia, p.annotator == ib
    la[p.item[sel_a]] = p.label[sel_a]
    lb[p.item[sel_b]] = p.label[sel_b]
    both = (la >= 0) & (lb >= 0)
    return la[both], lb[both]


def joint_table(p: Prepared, ia: int, ib: int) -> np.ndarray:
    """The q x q table of annotator ``ia``'s labels (rows) against ``ib``'s on shared items.

    Raises
    ------
    AnnotationDataError
        When the q x q table would exceed the memory budget (checked before allocating).
    """
    q = p.q
    check_budget(
        estimate_bytes(q * q, copies=2),
        f"the {q:,} x {q:,} table of two annotators' categories",
        "Merge rare categories, or analyse a subset of the categories.",
    )
    la, lb = pair_labels(p, ia, ib)
    return np.bincount(la * q + lb, minlength=q * q).reshape(q, q).astype(float)


def pair_coefficient(
    ann: Annotations, a: Any, b: Any, weights: Weights, which: str, name: str
) -> Coefficient:
    """``which`` (``cohen`` or ``scott``) for annotators ``a`` and ``b``, or their mean."""
    bad = single_label_only(ann, name) or known_annotators_only(ann, name)
    if bad is not None:
        return bad
    w, wlabel = agreement_weights(ann, weights)
    from_data = prepare(ann)
    if a is None and b is None:
        return pair_mean(from_data, weights, which, name)[0]
    ia, ib = two_annotators(ann, a, b)
    if ia == ib:
        return undefined(f"{a!r} and {b!r} are the same annotator")
    value, n = _pair_values(*pair_labels(from_data, ia, ib), w, which, from_data.q)
    if n == 0:
        return undefined(f"annotators {a!r} and {b!r} judged no item in common")
    if np.isnan(value):
        return undefined(f"{ONE_CATEGORY} (on the {int(n)} items {a!r} and {b!r} share)", int(n))
    return Coefficient(float(value), wlabel, int(n))


def pair_mean(p: Prepared, weights: Weights, which: str, name: str) -> Built:
    """Mean of a two-annotator coefficient over the annotator pairs (Light 1971).

    Returns
    -------
    Built
        The mean, with a note on how many pairs it is over, and a function building its
        bootstrap statistic.

    References
    ----------
    Light, R. J. (1971). Measures of response agreement for qualitative data: some
    generalizations and alternatives. *Psychological Bulletin* 76(5), 365-377.
    """
    ann = p.ann
    bad = single_label_only(ann, name) or known_annotators_only(ann, name)
    if bad is not None:
        return bad, None
    w_or_none, wlabel = agreement_weights(ann, weights)
    if ann.n_annotators < 2:
        who = "no annotator" if ann.n_annotators == 0 else "only one annotator"
        return undefined(f"{who}: {name} compares pairs of annotators"), None
    if p.n_judgement_pairs == 0:
        return undefined("no two annotators judged a common item"), None
    total, n_ok, few = 0.0, 0, 0
    for _, vals, n_pair in pair_margin_values(p, w_or_none, which):  # blocks within budget
        ok = np.isfinite(vals)
        total += float(vals[ok].sum())
        n_ok += int(ok.sum())
        few += int((ok & (n_pair < 10)).sum())
    shared = int((np.bincount(p.item, minlength=ann.n_items) >= 2).sum())
    if not n_ok:
        return undefined(f"{ONE_CATEGORY} (for every annotator pair)", shared), None
    all_pairs = ann.n_annotators * (ann.n_annotators - 1) // 2
    parts = [wlabel] if wlabel else []
    if all_pairs > 1:
        parts.append(f"mean over {n_ok} of {all_pairs} annotator pairs")
        if n_ok < all_pairs:
            left = all_pairs - n_ok
            parts.append(
                f"{left} {'pair shares' if left == 1 else 'pairs share'} no items or "
                f"{'is' if left == 1 else 'are'} undefined"
            )
        if few:
            parts.append(f"{few} {FEW_SHARED}")
    return (
        Coefficient(total / n_ok, "; ".join(parts), shared),
        lambda: _mean_pair_statistic(p, w_or_none, which),
    )
