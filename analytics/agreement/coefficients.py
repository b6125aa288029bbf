"""How much do the annotators agree? Every standard coefficient, right on missing data.

Public API (each takes an :class:`~analytics.data.model.Annotations` or a long
DataFrame, and returns a :class:`Coefficient`, a float that is NaN when undefined and
carries ``note`` and ``items_used``):

- :func:`percent_agreement`, :func:`cohen_kappa`, :func:`scott_pi`, :func:`fleiss_kappa`,
  :func:`conger_kappa`, :func:`brennan_prediger`, :func:`gwet_ac1`,
  :func:`krippendorff_alpha`;
- tables: :func:`agreement_report`, :func:`per_category`, :func:`pairwise`,
  :func:`contingency`, :func:`item_agreement`, :func:`agreement_levels`;
- :func:`default_distance`: the alpha distance that suits the label kind.

Every coefficient is written as a function of sums over items of per-item statistics
(:class:`analytics._core.bootstrap.ItemStatistic`), which makes the point estimate one pass of
numpy over integer codes and the bootstrap a matrix product of multinomial item counts.

Notation: item :math:`i` has :math:`r_{ik}` judgements in category :math:`k` and
:math:`r_i = \\sum_k r_{ik}`; :math:`q` categories; agreement weights :math:`w_{kl}`
(identity when unweighted). Multi-annotator kappa-type coefficients follow Gwet (2014,
*Handbook of Inter-Rater Reliability*, 4th ed., ch. 2-5) for missing judgements: the
observed agreement is averaged over the items with :math:`r_i \\ge 2`,

.. math:: p_a = \\frac{1}{n'} \\sum_{i: r_i \\ge 2}
          \\sum_k \\frac{r_{ik}(r^\\star_{ik} - 1)}{r_i (r_i - 1)},
          \\qquad r^\\star_{ik} = \\sum_l w_{kl} r_{il},

which is Fleiss's (1971) :math:`\\bar P` when every item has the same number of
judgements. Agreement is neither necessary nor sufficient for a good gold standard
(Beigman Klebanov & Beigman 2009, section 3; Passonneau & Carpenter 2014, section 2.1).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from scipy import sparse
from scipy import stats as sps

from analytics._core.bootstrap import (
    ItemStatistic,
    Patterns,
    bootstrap_replicates,
    percentile_interval,
)
from analytics._core.errors import AnnotationDataError
from analytics.agreement.coincidence import (
    alpha_from_coincidences,
    coincidence_matrix,
    pairs_within_groups,
    per_item_coincidences,
    resolve_distance,
    value_table,
)
from analytics.data import Annotations, LabelKind, as_annotations

__all__ = [
    "CAVEAT",
    "COEFFICIENTS",
    "Coefficient",
    "Pairwise",
    "agreement_levels",
    "agreement_report",
    "band",
    "brennan_prediger",
    "cohen_kappa",
    "conger_kappa",
    "contingency",
    "default_distance",
    "fleiss_kappa",
    "gwet_ac1",
    "item_agreement",
    "krippendorff_alpha",
    "pairwise",
    "per_category",
    "percent_agreement",
    "reading",
    "scott_pi",
]

Weights = None | str | np.ndarray | Sequence[Sequence[float]]


class Coefficient(float):
    """A coefficient value: a float (NaN when undefined) with the facts behind it.

    Attributes
    ----------
    note : str
        Why the value is NaN, or what the reader should know (e.g. how many pairs a mean
        is over).
    items_used : int
        How many items entered the computation.
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
UNSTABLE = (
    "no interval: the estimate lies outside the central range of its bootstrap resamples, so "
    "it is unstable under resampling (a mean over annotator pairs is, when many pairs share "
    "few items); rely on Fleiss' kappa, AC1 or alpha here"
)
MULTILABEL_ONLY_ALPHA = (
    "defined for single-label data only; for multi-label data use Krippendorff's alpha "
    "with a set distance, or the per-category view"
)


def _fail(reason: str, items_used: int = 0) -> Coefficient:
    return Coefficient(float("nan"), reason, items_used)


# ---------------------------------------------------------------------- preparation
@dataclass(frozen=True)
class _Prepared:
    """Everything the coefficients share, computed once per data set."""

    ann: Annotations
    counts: sparse.csr_matrix  # items x categories (all judgements)
    n_i: np.ndarray  # judgements per item
    item: np.ndarray  # deduplicated judgements (last per item and annotator), by item
    annotator: np.ndarray  # ... then by annotator
    label: np.ndarray
    repeats: bool  # some annotator judged some item more than once

    @property
    def n_pairable(self) -> int:
        return int((self.n_i >= 2).sum())

    @property
    def q(self) -> int:
        return self.ann.n_categories

    @cached_property
    def dense_counts(self) -> np.ndarray:
        """Items x categories as a dense float array (for the analytic standard errors)."""
        return self.counts.toarray().astype(float)

    @cached_property
    def pairs(self) -> _Pairs:
        """Every pair of judgements of an item by two annotators (Cohen, Scott, pairwise)."""
        return _pairs(self)

    @cached_property
    def patterns(self) -> Patterns:
        """Items grouped by identical judgements (only the bootstrap needs them)."""
        ann = self.ann
        if self.repeats or ann.n_annotators > 64:
            return Patterns.identity(ann.n_items)
        wide = np.full((ann.n_items, ann.n_annotators), -1, np.int64)
        wide[self.item, self.annotator] = self.label
        return Patterns.from_keys(wide)


def _coders(ann: Annotations | pd.DataFrame) -> Annotations:
    """One judgement per annotator and item (the last one, as :meth:`Annotations.wide_codes`).

    Agreement compares coders; an annotator's repeated look at an item is not a second
    coder, so repeats (loaded with ``duplicates="keep"``) must not pair with each other.
    :func:`agreement_report` says when this happened.
    """
    ann = as_annotations(ann)
    return ann.without_repeats("last") if ann.has_repeats else ann


def _prepare(ann: Annotations) -> _Prepared:
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
    return _Prepared(ann, counts, n_i, item, annotator, label, repeats)


def _weight_matrix(ann: Annotations, weights: Weights) -> tuple[np.ndarray, str]:
    """Agreement weights :math:`w_{kl}` (1 on the diagonal) and a label for notes.

    ``"linear"``: :math:`1 - |x_k - x_l| / (x_{max} - x_{min})`; ``"quadratic"``:
    :math:`1 - (x_k - x_l)^2 / (x_{max} - x_{min})^2` (Cohen 1968; Gwet 2014, section
    3.5), where :math:`x` are the category values (numeric categories) or their ranks in
    the declared order (text categories).
    """
    q = ann.n_categories
    if weights is None or (
        isinstance(weights, str) and weights in ("identity", "none", "unweighted")
    ):
        return np.eye(q), ""
    if isinstance(weights, str):
        try:
            x = ann.categories.to_numpy(dtype=float)
        except (TypeError, ValueError):
            x = np.arange(q, dtype=float)
        span = x.max() - x.min() if q else 0.0
        diff = np.abs(x[:, None] - x[None, :]) / (span if span > 0 else 1.0)
        if weights == "linear":
            return 1.0 - diff, "linear weights"
        if weights == "quadratic":
            return 1.0 - diff**2, "quadratic weights"
        raise AnnotationDataError(
            f"unknown weights {weights!r}.",
            hint="Use None, 'linear', 'quadratic', or a categories x categories matrix.",
        )
    w = np.asarray(weights, dtype=float)
    if w.shape != (q, q):
        raise AnnotationDataError(
            f"the weight matrix is {w.shape[0] if w.ndim else 0} x {w.shape[1] if w.ndim > 1 else 0}, "
            f"but there are {q} categories.",
            hint="Give one row and one column per category, in the declared order.",
        )
    if not np.allclose(np.diag(w), 1.0) or (w < 0).any() or (w > 1).any():
        raise AnnotationDataError(
            "agreement weights must lie in [0, 1] with 1 on the diagonal (full agreement).",
        )
    return w, "custom weights"


def _check_single_label(ann: Annotations, name: str) -> Coefficient | None:
    if ann.is_multilabel:
        return _fail(f"{name} is {MULTILABEL_ONLY_ALPHA}")
    return None


# ---------------------------------------------------------------------- percent agreement
def _percent_statistic(p: _Prepared) -> ItemStatistic:
    c = p.counts
    agree = np.asarray(c.multiply(c).sum(axis=1)).ravel() - p.n_i
    pairs = (p.n_i * (p.n_i - 1)).astype(float)
    stats = np.column_stack([agree, pairs])

    def finish(t: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(t[:, 1] > 0, t[:, 0] / t[:, 1], np.nan)

    return ItemStatistic(stats, finish)


def percent_agreement(ann: Annotations | pd.DataFrame) -> Coefficient:
    """Share of agreeing pairs among all pairs of judgements of the same item.

    .. math:: p_o = \\frac{\\sum_i \\sum_k r_{ik} (r_{ik} - 1)}{\\sum_i r_i (r_i - 1)}

    Every annotator pair counts once on every item both judged, so this is the mean over
    annotator pairs of their agreement on shared items, each pair weighted by how many
    items it shares (with complete data, the plain mean over pairs: NLTK's ``avg_Ao``).
    Not chance-corrected. Multi-label data compare whole label sets.
    """
    return _percent(_prepare(_coders(ann)))[0]


def _percent(p: _Prepared) -> Built:
    if p.n_pairable == 0:
        return _fail(NO_PAIRS), None
    if np.count_nonzero(np.asarray(p.counts.sum(axis=0)).ravel()) < 2:
        # Degenerate data give NaN with a reason, never a 1 (the guide and issue 3): with one
        # category in use the 100% is an artefact of the data, not evidence of agreement.
        return _fail(ONE_CATEGORY_RAW, p.n_pairable), None
    stat = _percent_statistic(p)
    return Coefficient(stat.value(), "", p.n_pairable), stat


# ---------------------------------------------------------------------- Fleiss family
def _fleiss_family_stats(p: _Prepared, w: np.ndarray) -> sparse.csr_matrix:
    """Per item: ``[pa_i, [r_i >= 2], 1, r_ik / r_i (q columns)]``."""
    c = p.counts.astype(float)
    n_i = p.n_i.astype(float)
    if np.allclose(w, np.eye(len(w))):
        sum_q = np.asarray(c.multiply(c).sum(axis=1)).ravel() - n_i
    else:
        cw = np.asarray(c @ w.T)
        sum_q = np.asarray(c.multiply(cw - 1.0).sum(axis=1)).ravel()
    two = n_i >= 2
    pa_i = np.where(two, sum_q / np.maximum(n_i * (n_i - 1), 1), 0.0)
    share = sparse.diags(1.0 / np.maximum(n_i, 1)) @ c
    head = sparse.csr_matrix(np.column_stack([pa_i, two.astype(float), np.ones_like(n_i)]))
    return sparse.hstack([head, share], format="csr")


def _fleiss_family_statistic(p: _Prepared, w: np.ndarray, which: str) -> ItemStatistic:
    q = p.q
    stats = _fleiss_family_stats(p, w)
    w_sum = float(w.sum())

    def finish(t: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            pa = t[:, 0] / t[:, 1]
            pi = t[:, 3:] / t[:, [2]]
            if which == "fleiss":
                pe = np.einsum("bk,kl,bl->b", pi, w, pi)
            elif which == "gwet":
                pe = (
                    w_sum * (pi * (1.0 - pi)).sum(axis=1) / (q * (q - 1))
                    if q > 1
                    else np.ones(len(t))
                )
            else:  # brennan_prediger
                pe = np.full(len(t), w_sum / q**2)
            value = (pa - pe) / (1.0 - pe)
        degenerate = (t[:, 1] == 0) | ((pi > 0).sum(axis=1) < 2) | np.isclose(pe, 1.0)
        return np.where(degenerate, np.nan, value)

    return ItemStatistic(stats, finish)


def _fleiss_note(p: _Prepared) -> str:
    n = p.n_i[p.n_i >= 2]
    if len(n) and n.min() != n.max():
        return (
            f"items have {n.min()}-{n.max()} judgements: observed agreement averaged over the "
            f"{len(n):,} items with 2+ (Gwet 2014's form for missing judgements)"
        )
    return ""


def _family(p: _Prepared, weights: Weights, which: str, name: str) -> Built:
    bad = _check_single_label(p.ann, name)
    if bad is not None:
        return bad, None
    if p.n_pairable == 0:
        return _fail(NO_PAIRS), None
    w, wlabel = _weight_matrix(p.ann, weights)
    stat = _fleiss_family_statistic(p, w, which)
    value = stat.value()
    if np.isnan(value):
        return _fail(ONE_CATEGORY, p.n_pairable), None
    note = "; ".join(x for x in (wlabel, _fleiss_note(p)) if x)
    return Coefficient(value, note, p.n_pairable), stat


def fleiss_kappa(ann: Annotations | pd.DataFrame) -> Coefficient:
    """Fleiss's (1971) kappa, the multi-annotator Scott's pi.

    .. math:: \\kappa_F = \\frac{p_a - p_e}{1 - p_e},\\qquad
              p_e = \\sum_k \\pi_k^2,\\qquad \\pi_k = \\frac{1}{n} \\sum_i \\frac{r_{ik}}{r_i}

    This is Siegel & Castellan's K (Beigman Klebanov & Beigman 2009, equation 2) and
    Fleiss (1971) equations 1-9 with complete data; with unequal numbers of judgements per
    item, Gwet's (2014, equation 2.9) generalisation (as in ``irrCAC``).
    """
    return _family(_prepare(_coders(ann)), None, "fleiss", "Fleiss' kappa")[0]


def gwet_ac1(ann: Annotations | pd.DataFrame, weights: Weights = None) -> Coefficient:
    """Gwet's AC1 (AC2 when weighted), paradox-resistant chance correction (Gwet 2008).

    .. math:: p_e = \\frac{\\sum_{kl} w_{kl}}{q (q - 1)} \\sum_k \\pi_k (1 - \\pi_k)

    Uses every item with two or more judgements for :math:`p_a` and every judgement
    for :math:`\\pi_k` (Gwet 2014, equations 5.x; ``irrCAC`` ``gwet.ac1.raw``).
    """
    return _family(_prepare(_coders(ann)), weights, "gwet", "Gwet's AC1")[0]


def brennan_prediger(ann: Annotations | pd.DataFrame) -> Coefficient:
    """Brennan & Prediger's (1981) coefficient: chance agreement :math:`p_e = 1/q`.

    :math:`q` is the number of declared categories (used or not), so declaring more
    categories raises the value.
    """
    return _family(_prepare(_coders(ann)), None, "bp", "Brennan-Prediger")[0]


# ---------------------------------------------------------------------- Conger
def _conger_statistic(p: _Prepared, w: np.ndarray) -> ItemStatistic:
    a, q = p.ann.n_annotators, p.q
    head = _fleiss_family_stats(p, w)[:, :2]
    classif = sparse.csr_matrix(
        (np.ones(len(p.item)), (p.item, p.annotator * q + p.label)), shape=(p.ann.n_items, a * q)
    )
    stats = sparse.hstack([head, classif], format="csr")

    def finish(t: np.ndarray) -> np.ndarray:
        pa = t[:, 0] / np.where(t[:, 1] > 0, t[:, 1], np.nan)
        cl = t[:, 2:].reshape(len(t), a, q)
        n_g = cl.sum(axis=2)
        active = n_g > 0
        r = active.sum(axis=1).astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            pgk = np.where(active[..., None], cl / np.where(active, n_g, 1.0)[..., None], 0.0)
            pbar = pgk.sum(axis=1) / r[:, None]
            outer = np.einsum("bgk,bgl->bkl", pgk, pgk)
            mean_outer = pbar[:, :, None] * pbar[:, None, :]
            s2 = (outer - r[:, None, None] * mean_outer) / (r - 1.0)[:, None, None]
            pe = np.einsum("kl,bkl->b", w, mean_outer - s2 / r[:, None, None])
            value = (pa - pe) / (1.0 - pe)
        degenerate = (r < 2) | ((pbar > 0).sum(axis=1) < 2) | np.isclose(pe, 1.0)
        return np.where(degenerate, np.nan, value)

    return ItemStatistic(stats, finish)


def conger_kappa(ann: Annotations | pd.DataFrame) -> Coefficient:
    """Conger's (1980) kappa, the multi-annotator Cohen's kappa.

    Chance agreement averages Cohen's pairwise chance agreement over annotator pairs,

    .. math:: p_e = \\sum_{kl} w_{kl} \\left(\\bar p_k \\bar p_l - s^2_{kl} / r\\right)

    with :math:`p_{gk}` the share of annotator :math:`g`'s judgements in category
    :math:`k`, :math:`\\bar p_k` its mean over the :math:`r` annotators and :math:`s^2_{kl}`
    their covariance (Gwet 2014, equation 2.14; ``irrCAC`` ``conger.kappa.raw``). Each
    annotator's shares are over the items they judged.
    """
    return _conger(_prepare(_coders(ann)))[0]


def _conger(p: _Prepared) -> Built:
    ann = p.ann
    bad = _check_single_label(ann, "Conger's kappa")
    if bad is not None:
        return bad, None
    if ann.n_annotators < 2:
        return _fail("only one annotator: Conger's kappa compares annotators"), None
    if p.n_pairable == 0:
        return _fail(NO_PAIRS), None
    stat = _conger_statistic(p, np.eye(p.q))
    value = stat.value()
    if np.isnan(value):
        return _fail(ONE_CATEGORY, p.n_pairable), None
    notes = [_fleiss_note(p)]
    if p.repeats:
        notes.append(
            "repeated judgements: each annotator's last judgement of an item gives the marginals"
        )
    return Coefficient(value, "; ".join(n for n in notes if n), p.n_pairable), stat


# ---------------------------------------------------------------------- pairwise (Cohen, Scott)
@dataclass(frozen=True)
class _Pairs:
    """Every pair of judgements of one item by two annotators (``a < b``).

    Two-annotator coefficients need, per annotator pair, only the number of shared items,
    the (weighted) agreements and the two annotators' category counts: ``2 + 2q`` numbers,
    not a ``q x q`` table, so many categories and many annotator pairs stay cheap.
    """

    item: np.ndarray  # per judgement pair
    pair: np.ndarray  # index into first/second
    la: np.ndarray
    lb: np.ndarray
    first: np.ndarray  # per annotator pair
    second: np.ndarray
    q: int
    n_items: int

    @property
    def n_pairs(self) -> int:
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


def _pairs(p: _Prepared) -> _Pairs:
    a_n = max(p.ann.n_annotators, 1)
    left, right = pairs_within_groups(p.item)
    a, b = p.annotator[left], p.annotator[right]  # a < b: judgements sorted by annotator
    uniq, pair_idx = np.unique(a * a_n + b, return_inverse=True)
    return _Pairs(
        p.item[left],
        pair_idx.reshape(-1),
        p.label[left],
        p.label[right],
        uniq // a_n,
        uniq % a_n,
        p.q,
        p.ann.n_items,
    )


def _pair_values_from_margins(
    t: np.ndarray, w: np.ndarray | None, which: str, q: int
) -> tuple[np.ndarray, np.ndarray]:
    """Two-annotator coefficients from ``[shared, agreement, counts_a, counts_b]`` rows.

    ``which``: ``cohen`` (Cohen 1960: p_e from each annotator's marginals), ``scott``
    (pooled marginals), ``percent``, ``gwet`` (two-annotator AC1) or ``alpha`` (nominal
    alpha of two annotators on their shared items). Returns values and shared counts.
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


def _pair_values(tables: np.ndarray, w: np.ndarray, which: str) -> tuple[np.ndarray, np.ndarray]:
    """Kappa (``cohen``) or pi (``scott``) from a joint table (q x q); and the count."""
    q = tables.shape[-1]
    margins = np.concatenate(
        [[tables.sum(), (tables * w).sum()], tables.sum(axis=1), tables.sum(axis=0)]
    )
    value, n = _pair_values_from_margins(margins, w, which, q)
    return value, n


def _mean_pair_statistic(pairs: _Pairs, w: np.ndarray | None, which: str) -> ItemStatistic:
    n_pairs, q = pairs.n_pairs, pairs.q

    def finish(t: np.ndarray) -> np.ndarray:
        vals, _ = _pair_values_from_margins(t.reshape(len(t), n_pairs, 2 + 2 * q), w, which, q)
        ok = np.isfinite(vals)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.where(ok, vals, 0).sum(axis=1) / ok.sum(axis=1)
        return np.where(ok.any(axis=1), mean, np.nan)

    return ItemStatistic(pairs.stats(w), finish)


def _two_annotators(ann: Annotations, a: Any, b: Any) -> tuple[int, int]:
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


def _pair_coefficient(
    ann: Annotations, a: Any, b: Any, weights: Weights, which: str, name: str
) -> Coefficient:
    bad = _check_single_label(ann, name)
    if bad is not None:
        return bad
    w, wlabel = _weight_matrix(ann, weights)
    p = _prepare(ann)
    if a is None and b is None:
        return _pair_mean(p, weights, which, name)[0]
    ia, ib = _two_annotators(ann, a, b)
    if ia == ib:
        return _fail(f"{a!r} and {b!r} are the same annotator")
    table = _joint_table(p, ia, ib)
    value, n = _pair_values(table, w, which)
    if n == 0:
        return _fail(f"annotators {a!r} and {b!r} judged no item in common")
    if np.isnan(value):
        return _fail(f"{ONE_CATEGORY} (on the {int(n)} items {a!r} and {b!r} share)", int(n))
    return Coefficient(float(value), wlabel, int(n))


def _pair_mean(p: _Prepared, weights: Weights, which: str, name: str) -> Built:
    """Mean of a two-annotator coefficient over the annotator pairs (Light 1971)."""
    ann = p.ann
    bad = _check_single_label(ann, name)
    if bad is not None:
        return bad, None
    w, wlabel = _weight_matrix(ann, weights)
    if ann.n_annotators < 2:
        return _fail(f"only one annotator: {name} compares pairs of annotators"), None
    pairs = p.pairs
    if pairs.n_pairs == 0:
        return _fail("no two annotators judged a common item"), None
    w_or_none = None if wlabel == "" else w
    vals, n_pair = _pair_values_from_margins(pairs.totals(w_or_none), w_or_none, which, p.q)
    ok = np.isfinite(vals)
    shared = int((np.bincount(p.item, minlength=ann.n_items) >= 2).sum())
    if not ok.any():
        return _fail(f"{ONE_CATEGORY} (for every annotator pair)", shared), None
    all_pairs = ann.n_annotators * (ann.n_annotators - 1) // 2
    parts = [wlabel] if wlabel else []
    if all_pairs > 1:
        parts.append(f"mean over {int(ok.sum())} of {all_pairs} annotator pairs")
        if int(ok.sum()) < all_pairs:
            parts.append(f"{all_pairs - int(ok.sum())} pairs share no items or are undefined")
        few = int((ok & (n_pair < 10)).sum())
        if few:
            parts.append(f"{few} of the pairs averaged share fewer than 10 items (noisy)")
    return (
        Coefficient(float(vals[ok].mean()), "; ".join(parts), shared),
        lambda: _mean_pair_statistic(pairs, w_or_none, which),
    )


def _joint_table(p: _Prepared, ia: int, ib: int) -> np.ndarray:
    q = p.q
    la = np.full(p.ann.n_items, -1)
    lb = np.full(p.ann.n_items, -1)
    sel_a, sel_b = p.annotator == ia, p.annotator == ib
    la[p.item[sel_a]] = p.label[sel_a]
    lb[p.item[sel_b]] = p.label[sel_b]
    both = (la >= 0) & (lb >= 0)
    return np.bincount(la[both] * q + lb[both], minlength=q * q).reshape(q, q).astype(float)


def cohen_kappa(
    ann: Annotations | pd.DataFrame, a: Any = None, b: Any = None, weights: Weights = None
) -> Coefficient:
    """Cohen's (1960) kappa between annotators ``a`` and ``b`` on the items both judged.

    .. math:: \\kappa = \\frac{p_o - p_e}{1 - p_e},\\quad
              p_o = \\sum_{kl} w_{kl} p_{kl},\\quad p_e = \\sum_{kl} w_{kl} p_{k\\cdot} p_{\\cdot l}

    Cohen (1960) equation 1; weighted kappa (``weights`` linear, quadratic, or a matrix
    of agreement weights) as Cohen (1968). With neither ``a`` nor ``b``, Light's (1971)
    kappa: the mean of the pairwise kappas over the annotator pairs that share items.
    """
    ann = _coders(ann)
    return _pair_coefficient(ann, a, b, weights, "cohen", "Cohen's kappa")


def scott_pi(ann: Annotations | pd.DataFrame, a: Any = None, b: Any = None) -> Coefficient:
    """Scott's (1955) pi: chance agreement from the two annotators' pooled distribution.

    .. math:: p_e = \\sum_k \\left(\\frac{p_{k\\cdot} + p_{\\cdot k}}{2}\\right)^2

    With neither ``a`` nor ``b``, the mean over annotator pairs (for the multi-annotator
    generalisation, see :func:`fleiss_kappa`).
    """
    ann = _coders(ann)
    return _pair_coefficient(ann, a, b, None, "scott", "Scott's pi")


# ---------------------------------------------------------------------- Krippendorff's alpha
def default_distance(ann: Annotations | pd.DataFrame) -> str:
    """The alpha distance that suits the label kind.

    nominal -> ``"nominal"``, ordinal -> ``"ordinal"``, numeric -> ``"interval"``,
    multi-label -> ``"masi"`` (MASI, Passonneau 2006: partial credit for overlapping
    sets, more for subsets; the distance NLTK uses for set-valued labels).
    """
    ann = _coders(ann)
    return {
        LabelKind.NOMINAL: "nominal",
        LabelKind.ORDINAL: "ordinal",
        LabelKind.NUMERIC: "interval",
        LabelKind.MULTILABEL: "masi",
    }[ann.kind]


def _alpha_statistic(ann: Annotations, distance: str | Callable) -> ItemStatistic:
    table = value_table(ann)
    pmat, rows, cols = per_item_coincidences(table.counts)

    def finish(t: np.ndarray) -> np.ndarray:
        return alpha_from_coincidences(t, rows, cols, table, distance, symmetric_upper=True)

    return ItemStatistic(pmat, finish)


def krippendorff_alpha(
    ann: Annotations | pd.DataFrame, distance: str | Callable = "nominal"
) -> Coefficient:
    """Krippendorff's alpha from the coincidence matrix (Krippendorff 2011).

    .. math:: \\alpha = 1 - (n - 1)\\frac{\\sum_{ck} o_{ck} \\delta^2_{ck}}
                                         {\\sum_{ck} n_c n_k \\delta^2_{ck}}

    Parameters
    ----------
    distance
        ``"nominal"``, ``"ordinal"`` (Krippendorff's frequency-based metric
        :math:`\\delta^2_{ck} = (\\sum_{g=c}^k n_g - (n_c + n_k)/2)^2`, categories in their
        declared order), ``"interval"`` :math:`(c - k)^2`, ``"ratio"``
        :math:`((c - k)/(c + k))^2`; for multi-label data a set distance from
        :mod:`analytics.agreement.set_distances` (``"masi"``, ``"passonneau"``, ``"jaccard"``,
        ``"dice"``) or ``"nominal"`` (sets equal or not); or a callable
        ``f(label_1, label_2) -> float`` returning the disagreement :math:`\\delta^2`
        (symmetric, 0 for equal labels; called once per pair of distinct values; labels
        are category names, or frozensets for multi-label data).

    Every pairable judgement counts: items with a single judgement are left out,
    items with any number of judgements above one count with weight :math:`1/(m_u - 1)`.
    """
    return _alpha(_coders(ann), distance)[0]


def _alpha(ann: Annotations, distance: str | Callable) -> Built:
    name = resolve_distance(distance, ann.kind)
    if name in ("interval", "ratio") and not pd.api.types.is_numeric_dtype(ann.categories):
        raise AnnotationDataError(
            f"the {name} distance needs numeric labels; these are text.",
            hint="Use 'nominal' or 'ordinal' (ordinal uses the declared category order).",
        )
    if ann.n_judgements == 0:
        return _fail("there are no judgements"), None
    table = value_table(ann)
    o, m = coincidence_matrix(table.counts)
    used = int((m >= 2).sum())
    if used == 0:
        return _fail(NO_PAIRS), None
    value = alpha_from_coincidences(o.data, o.row, o.col, table, name, symmetric_upper=False)[0]
    if np.isnan(value):
        reason = (
            "every pairable judgement has the same value (or all values are at distance 0), "
            "so expected disagreement is 0 and alpha is undefined"
        )
        return _fail(reason, used), None
    note = f"{_distance_label(name)} distance"
    if name == "ordinal" and not pd.api.types.is_numeric_dtype(ann.categories):
        order = ", ".join(map(str, ann.categories[:8])) + (" ..." if ann.n_categories > 8 else "")
        how = (
            "declared order" if ann.report.categories_declared else "first-seen order, NOT declared"
        )
        note += f" (categories in {how}: {order})"
    return Coefficient(float(value), note, used), lambda: _alpha_statistic(ann, name)


def _distance_label(name: str | Callable) -> str:
    return name if isinstance(name, str) else getattr(name, "__name__", "custom")


# ---------------------------------------------------------------------- the report
COEFFICIENTS = {
    "percent_agreement": "Percent agreement",
    "cohen_kappa": "Cohen's kappa",
    "scott_pi": "Scott's pi",
    "fleiss_kappa": "Fleiss' kappa",
    "conger_kappa": "Conger's kappa",
    "brennan_prediger": "Brennan-Prediger",
    "gwet_ac1": "Gwet's AC1",
    "krippendorff_alpha": "Krippendorff's alpha",
}
"""Machine name -> display name of the coefficients in :func:`agreement_report`."""

_CHANCE_CORRECTED = set(COEFFICIENTS) - {"percent_agreement"}


def _report_entries(p: _Prepared, distance: str | Callable) -> list[tuple[str, Built]]:
    """(display name, (point estimate, bootstrap statistic)) for every report row."""
    ann = p.ann
    two = ann.n_annotators == 2
    entries: list[tuple[str, Built]] = [
        ("Percent agreement", _percent(p)),
        (
            "Cohen's kappa" if two else "Cohen's kappa (Light's mean over pairs)",
            _pair_mean(p, None, "cohen", "Cohen's kappa"),
        ),
        (
            "Scott's pi" if two else "Scott's pi (mean over pairs)",
            _pair_mean(p, None, "scott", "Scott's pi"),
        ),
        ("Fleiss' kappa", _family(p, None, "fleiss", "Fleiss' kappa")),
        ("Conger's kappa", _conger(p)),
        ("Brennan-Prediger", _family(p, None, "bp", "Brennan-Prediger")),
        ("Gwet's AC1", _family(p, None, "gwet", "Gwet's AC1")),
    ]
    if ann.kind in (LabelKind.ORDINAL, LabelKind.NUMERIC):
        entries.append(("Gwet's AC2 (quadratic weights)", _family(p, "quadratic", "gwet", "AC2")))
        entries.append(
            (
                "Cohen's kappa (quadratic weights)",
                _pair_mean(p, "quadratic", "cohen", "Cohen's kappa"),
            )
        )
    name = resolve_distance(distance, ann.kind)
    for d in [name] if name == "nominal" else ["nominal", name]:
        entries.append((f"Krippendorff's alpha ({_distance_label(d)})", _alpha(ann, d)))
    return entries


def agreement_report(
    ann: Annotations | pd.DataFrame,
    confidence: float = 0.95,
    n_boot: int = 1000,
    seed: int = 0,
    *,
    distance: str | Callable | None = None,
) -> pd.DataFrame:
    """Every coefficient, with a confidence interval, in one tidy table.

    Parameters
    ----------
    confidence
        Coverage of the intervals (0.95: 95% intervals).
    n_boot
        Bootstrap resamples of the items (0: no bootstrap; then the analytic standard
        error is used where one exists).
    seed
        Seed of the resampling, for reproducible intervals.
    distance
        Alpha's distance (keyword only); default :func:`default_distance`. Nominal alpha
        is always included.

    Returns
    -------
    DataFrame
        Columns ``coefficient, value, ci_low, ci_high, ci_method, items_used, note``.
        Intervals are bootstrap percentile intervals over items (every coefficient from
        the same resamples), or with ``n_boot=0`` the analytic standard error where one
        exists (Gwet 2014's linearisation for Fleiss, Brennan-Prediger and AC1; Cohen
        1960 for a single pair), labelled in ``ci_method``.
    """
    original = as_annotations(ann)
    ann = _coders(original)
    repeat_note = (
        f"{original.n_judgements - ann.n_judgements:,} repeated judgements (same annotator, same "
        "item): only each annotator's last judgement of an item is compared"
        if ann is not original
        else ""
    )
    if not 0 < confidence < 1:
        raise AnnotationDataError(f"confidence must be between 0 and 1, not {confidence}.")
    p = _prepare(ann)
    entries = _report_entries(p, default_distance(ann) if distance is None else distance)
    boot: dict[str, np.ndarray] = {}
    if n_boot > 0:
        to_boot = {
            name: stat() if callable(stat) and not isinstance(stat, ItemStatistic) else stat
            for name, (_, stat) in entries
            if stat is not None
        }
        boot = bootstrap_replicates(to_boot, p.patterns, n_boot, seed)
    rows = []
    for name, (value, _) in entries:
        lo = hi = float("nan")
        method, note = "", value.note
        if name in boot:
            lo, hi, n_ok = percentile_interval(boot[name], confidence)
            method = f"bootstrap over items ({n_boot:,} resamples, percentile)"
            if n_ok < n_boot:
                note = _join(note, f"{n_boot - n_ok} resamples undefined, left out of the interval")
            if np.isfinite(lo) and not lo - 1e-12 <= value <= hi + 1e-12:
                lo = hi = float("nan")
                method = f"bootstrap over items ({n_boot:,} resamples): interval withheld"
                note = _join(note, UNSTABLE)
        elif n_boot <= 0 and np.isfinite(value):
            se, method = _analytic_se(ann, p, name)
            if np.isfinite(se):
                lo, hi = _t_interval(value, se, confidence, ann.n_items)
            else:
                method = "none (no analytic standard error; use the bootstrap)"
        rows.append(
            (name, float(value), lo, hi, method, value.items_used, _join(note, repeat_note))
        )
    return pd.DataFrame(
        rows,
        columns=["coefficient", "value", "ci_low", "ci_high", "ci_method", "items_used", "note"],
    )


def _join(*parts: str) -> str:
    return "; ".join(x for x in parts if x)


def _t_interval(value: float, se: float, confidence: float, n: int) -> tuple[float, float]:
    """Value +- t quantile x SE, the upper bound capped at 1 (as ``irrCAC``)."""
    half = sps.t.ppf(0.5 + confidence / 2.0, max(n - 1, 1)) * se
    return float(value - half), float(min(1.0, value + half))


def _analytic_se(ann: Annotations, p: _Prepared, name: str) -> tuple[float, str]:
    """Standard error of a report row, where a standard analytic formula exists."""
    if name in ("Fleiss' kappa", "Brennan-Prediger", "Gwet's AC1"):
        which = {"Fleiss' kappa": "fleiss", "Brennan-Prediger": "bp", "Gwet's AC1": "gwet"}[name]
        return _gwet_se(p, np.eye(p.q), which), "analytic SE (Gwet 2014 linearisation), t interval"
    if name == "Cohen's kappa" and ann.n_annotators == 2:
        se = _cohen_se(_joint_table(p, 0, 1))
        return se, "analytic SE (Fleiss, Cohen & Everitt 1969), t interval"
    return float("nan"), ""


def _cohen_se(table: np.ndarray) -> float:
    """Large-sample SE of unweighted Cohen's kappa (Fleiss, Cohen & Everitt 1969).

    .. math:: \\mathrm{var} = \\frac{\\sum_k p_{kk}[1 - (p_{k\\cdot} + p_{\\cdot k})(1-\\kappa)]^2
              + (1-\\kappa)^2 \\sum_{k \\ne l} p_{kl}(p_{\\cdot k} + p_{l\\cdot})^2
              - [\\kappa - p_e(1-\\kappa)]^2}{n (1 - p_e)^2}
    """
    n = table.sum()
    if n == 0:
        return float("nan")
    prob = table / n
    row, col = prob.sum(axis=1), prob.sum(axis=0)
    pe = float(row @ col)
    if np.isclose(pe, 1.0):
        return float("nan")
    kappa = (np.trace(prob) - pe) / (1 - pe)
    term_a = (np.diag(prob) * (1 - (row + col) * (1 - kappa)) ** 2).sum()
    term_b = prob * (col[:, None] + row[None, :]) ** 2
    np.fill_diagonal(term_b, 0.0)
    term_c = (kappa - pe * (1 - kappa)) ** 2
    var = (term_a + (1 - kappa) ** 2 * term_b.sum() - term_c) / ((1 - pe) ** 2 * n)
    return float(np.sqrt(max(var, 0.0)))


def _gwet_se(p: _Prepared, w: np.ndarray, which: str) -> float:
    """Gwet's (2014) linearised variance of Fleiss's kappa, AC1, Brennan-Prediger.

    :math:`v = \\frac{1}{n(n-1)} \\sum_i (\\kappa^\\star_i - \\kappa)^2` with
    :math:`\\kappa^\\star_i = \\frac{n}{n'}\\frac{p_{a|i} - p_e [r_i \\ge 2]}{1 - p_e}
    - 2 (1 - \\kappa) \\frac{p_{e|i} - p_e}{1 - p_e}` (``irrCAC``; no finite-population
    correction).
    """
    c = p.dense_counts
    n_i = p.n_i.astype(float)
    n, q = len(n_i), p.q
    two = n_i >= 2
    n2 = two.sum()
    sum_q = (c * (c @ w.T - 1.0)).sum(axis=1)
    pa_i = np.where(two, sum_q / np.maximum(n_i * (n_i - 1), 1), 0.0)
    pa = pa_i.sum() / n2
    pi = (c / n_i[:, None]).mean(axis=0)
    if which == "fleiss":
        pe = float(pi @ w @ pi)
        pe_i = c @ ((w @ pi + w.T @ pi) / 2.0) / n_i
    elif which == "gwet":
        pe = float(w.sum() * (pi * (1 - pi)).sum() / (q * (q - 1)))
        pe_i = w.sum() / (q * (q - 1)) * (c @ (1 - pi)) / n_i
    else:
        pe = float(w.sum() / q**2)
        pe_i = np.full(n, pe)
    kappa = (pa - pe) / (1 - pe)
    k_i = (n / n2) * (pa_i - pe * two) / (1 - pe)
    k_i = k_i - 2 * (1 - kappa) * (pe_i - pe) / (1 - pe)
    return float(np.sqrt(((k_i - kappa) ** 2).sum() / (n * (n - 1)))) if n > 1 else float("nan")


# ---------------------------------------------------------------------- per category
def per_category(
    ann: Annotations | pd.DataFrame,
    confidence: float = 0.95,
    n_boot: int = 1000,
    seed: int = 0,
) -> pd.DataFrame:
    """One-vs-rest agreement per category: Fleiss's kappa_j and alpha_j, with intervals.

    For category :math:`j`, every judgement becomes "j" or "not j" (multi-label data:
    the category is in the set or not). Fleiss (1971, equation 13):

    .. math:: \\kappa_j = 1 - \\frac{\\sum_i r_{ij} (r_i - r_{ij})}
                                    {\\sum_i r_i (r_i - 1)\\, \\bar p_j (1 - \\bar p_j)}

    (with unequal :math:`r_i`, the Gwet form of :func:`fleiss_kappa` on the binary data),
    and nominal alpha on the same binary data.

    Returns
    -------
    DataFrame
        One row per category: ``category, judgements, prevalence, fleiss_kappa,
        kappa_low, kappa_high, alpha, alpha_low, alpha_high, note``.
    """
    ann = _coders(ann)
    counts = np.asarray(ann.count_matrix(), dtype=float)  # items x categories (sets: membership)
    n_i = np.bincount(ann.item_codes, minlength=ann.n_items).astype(float)
    stat_k, stat_a = _per_category_statistics(counts, n_i)
    p = _prepare(ann)
    kappa = stat_k.finish(stat_k.totals(np.ones((1, ann.n_items))))[0]
    alpha = stat_a.finish(stat_a.totals(np.ones((1, ann.n_items))))[0]
    lo_k = hi_k = lo_a = hi_a = np.full(ann.n_categories, np.nan)
    if n_boot > 0 and ann.n_items:
        reps = bootstrap_replicates({"k": stat_k, "a": stat_a}, p.patterns, n_boot, seed)
        lo_k, hi_k = _columnwise_interval(reps["k"], confidence)
        lo_a, hi_a = _columnwise_interval(reps["a"], confidence)
    judged = counts.sum(axis=0)
    pairable = n_i >= 2
    prevalence = np.divide(judged, n_i.sum(), out=np.full(len(judged), np.nan), where=n_i.sum() > 0)
    notes = []
    for j in range(ann.n_categories):
        c_j = counts[pairable, j]
        rest = n_i[pairable] - c_j
        if not pairable.any():
            notes.append(NO_PAIRS)
        elif c_j.sum() == 0:
            notes.append("nobody used this category on an item with 2+ judgements")
        elif rest.sum() == 0:
            notes.append("every judgement used this category, so there is nothing to tell apart")
        else:
            notes.append("")
    return pd.DataFrame(
        {
            "category": list(ann.categories),
            "judgements": judged.astype(np.int64),
            "prevalence": prevalence,
            "fleiss_kappa": kappa,
            "kappa_low": lo_k,
            "kappa_high": hi_k,
            "alpha": alpha,
            "alpha_low": lo_a,
            "alpha_high": hi_a,
            "note": notes,
        }
    )


def _per_category_statistics(
    counts: np.ndarray, n_i: np.ndarray
) -> tuple[ItemStatistic, ItemStatistic]:
    """Per-category one-vs-rest Fleiss kappa and nominal alpha, vectorised over categories."""
    q = counts.shape[1]
    rest = n_i[:, None] - counts
    two = (n_i >= 2).astype(float)
    denom = np.maximum(n_i * (n_i - 1), 1)[:, None]
    pa = two[:, None] * (counts * (counts - 1) + rest * (rest - 1)) / denom
    share = counts / np.maximum(n_i, 1)[:, None]
    stats_k = np.column_stack([pa, share, two, np.ones_like(n_i)])

    def finish_k(t: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            p_a = t[:, :q] / t[:, [2 * q]]
            pi = t[:, q : 2 * q] / t[:, [2 * q + 1]]
            pe = pi**2 + (1 - pi) ** 2
            value = (p_a - pe) / (1 - pe)
        return np.where((pi > 0) & (pi < 1) & (t[:, [2 * q]] > 0), value, np.nan)

    # alpha: disagreeing pairs 2 r_ij (r_i - r_ij) / (r_i - 1) and pairable margins
    dis = two[:, None] * 2.0 * counts * rest / np.maximum(n_i - 1, 1)[:, None]
    stats_a = np.column_stack([dis, two[:, None] * counts, two * n_i])

    def finish_a(t: np.ndarray) -> np.ndarray:
        n = t[:, [2 * q]]
        n1 = t[:, q : 2 * q]
        with np.errstate(invalid="ignore", divide="ignore"):
            value = 1.0 - (n - 1.0) * t[:, :q] / (2.0 * n1 * (n - n1))
        return np.where((n1 > 0) & (n1 < n), value, np.nan)

    return ItemStatistic(stats_k, finish_k), ItemStatistic(stats_a, finish_a)


def _columnwise_interval(reps: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    out = np.array([percentile_interval(col, confidence)[:2] for col in reps.T]).reshape(-1, 2)
    return out[:, 0], out[:, 1]


# ---------------------------------------------------------------------- pairwise matrix
class Pairwise(NamedTuple):
    """An annotator x annotator matrix of a coefficient and its shared-item counts."""

    values: pd.DataFrame
    shared: pd.DataFrame
    coefficient: str


_PAIRWISE = ("cohen_kappa", "scott_pi", "percent_agreement", "krippendorff_alpha", "gwet_ac1")


def pairwise(ann: Annotations | pd.DataFrame, coefficient: str = "cohen_kappa") -> Pairwise:
    """The coefficient for every pair of annotators, over the items both judged.

    ``coefficient``: ``"cohen_kappa"``, ``"scott_pi"``, ``"percent_agreement"``,
    ``"gwet_ac1"`` (two-annotator AC1) or ``"krippendorff_alpha"`` (nominal, two
    annotators). The diagonal is NaN; ``shared`` counts the items both judged (diagonal:
    the annotator's own items). Pairs that share no item are NaN.
    """
    ann = _coders(ann)
    if coefficient not in _PAIRWISE:
        raise AnnotationDataError(
            f"unknown pairwise coefficient {coefficient!r}.",
            hint=f"Use one of: {', '.join(_PAIRWISE)}.",
        )
    names = ann.annotators
    a_n = ann.n_annotators
    shared = ann.coverage()
    values = np.full((a_n, a_n), np.nan)
    if ann.is_multilabel and coefficient != "percent_agreement":
        raise AnnotationDataError(
            f"{coefficient} is {MULTILABEL_ONLY_ALPHA}.", hint="Choose percent_agreement."
        )
    p = _prepare(ann)
    if a_n >= 2 and len(p.item):
        pairs = p.pairs
        which = {
            "cohen_kappa": "cohen",
            "scott_pi": "scott",
            "percent_agreement": "percent",
            "gwet_ac1": "gwet",
            "krippendorff_alpha": "alpha",
        }[coefficient]
        if which == "percent":  # multi-label sets may be many: count agreements directly
            n = np.bincount(pairs.pair, minlength=pairs.n_pairs).astype(float)
            agree = np.bincount(pairs.pair, weights=(pairs.la == pairs.lb), minlength=pairs.n_pairs)
            with np.errstate(invalid="ignore", divide="ignore"):
                vals = np.where(n > 0, agree / n, np.nan)
        else:
            vals, _ = _pair_values_from_margins(pairs.totals(None), None, which, p.q)
        values[pairs.first, pairs.second] = vals
        values[pairs.second, pairs.first] = vals
    frame = pd.DataFrame(values, index=names, columns=names)
    frame.index.name, frame.columns.name = "annotator", "annotator"
    return Pairwise(frame, shared, coefficient)


# ---------------------------------------------------------------------- contingency, items
def contingency(ann: Annotations | pd.DataFrame, a: Any, b: Any) -> pd.DataFrame:
    """Confusion matrix between annotators ``a`` (rows) and ``b`` (columns) on shared items.

    Multi-label data: rows and columns are the distinct label sets.
    """
    ann = _coders(ann)
    ia, ib = _two_annotators(ann, a, b)
    p = _prepare(ann)
    if ann.is_multilabel:
        names = _set_names(ann)
        q = len(names)
    else:
        names, q = list(ann.categories), ann.n_categories
    la = np.full(ann.n_items, -1)
    lb = np.full(ann.n_items, -1)
    la[p.item[p.annotator == ia]] = p.label[p.annotator == ia]
    lb[p.item[p.annotator == ib]] = p.label[p.annotator == ib]
    both = (la >= 0) & (lb >= 0)
    table = np.bincount(la[both] * q + lb[both], minlength=q * q).reshape(q, q)
    frame = pd.DataFrame(
        table,
        index=pd.Index(names, name=str(ann.annotators[ia])),
        columns=pd.Index(names, name=str(ann.annotators[ib])),
    )
    return frame


def _set_names(ann: Annotations) -> list[str]:
    """Display names of the distinct label sets: categories in declared order, "{}" if empty."""
    cats = [str(c) for c in ann.categories]
    return [
        ", ".join(c for c, on in zip(cats, row, strict=True) if on) or "{}"
        for row in ann.label_sets_table
    ]


def item_agreement(ann: Annotations | pd.DataFrame) -> pd.DataFrame:
    """Observed agreement on every item.

    Returns
    -------
    DataFrame
        Indexed by item: ``judgements``, ``agreement`` (share of agreeing pairs of
        judgements, :math:`\\sum_k r_{ik}(r_{ik}-1) / (r_i(r_i-1))`; NaN with one
        judgement), ``top_votes`` (judgements in the most frequent label), ``top_share``,
        ``top_label`` (ties: the first in category order; multi-label data: the set as text,
        categories in declared order, ``{}`` for the empty set).
    """
    ann = _coders(ann)
    p = _prepare(ann)
    c = p.counts
    n_i = p.n_i.astype(float)
    agree = np.asarray(c.multiply(c).sum(axis=1)).ravel() - n_i
    with np.errstate(invalid="ignore", divide="ignore"):
        share_pairs = np.where(n_i >= 2, agree / (n_i * (n_i - 1)), np.nan)
    top = np.asarray(c.max(axis=1).toarray()).ravel() if c.shape[1] else np.zeros(len(n_i))
    top_code = np.asarray(c.argmax(axis=1)).ravel() if c.shape[1] else np.zeros(len(n_i), int)
    labels = np.asarray(_set_names(ann) if ann.is_multilabel else ann.categories, dtype=object)
    frame = pd.DataFrame(
        {
            "judgements": p.n_i.astype(np.int64),
            "agreement": share_pairs,
            "top_votes": top.astype(np.int64),
            "top_share": np.divide(top, n_i, out=np.full(len(n_i), np.nan), where=n_i > 0),
            "top_label": labels[top_code] if len(labels) else None,
        },
        index=ann.items,
    )
    frame.index.name = "item"
    return frame


def agreement_levels(ann: Annotations | pd.DataFrame) -> pd.DataFrame:
    """Items by agreement level, as table 3 of Bhowmick, Mitra & Basu (2008).

    One row per (judgements, top_votes) combination: how many items had ``top_votes`` of
    their ``judgements`` judgements on the same label, and what share of items that is.
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


# ---------------------------------------------------------------------- plain-language readings
CAVEAT = (
    "Agreement is neither necessary nor sufficient for a good gold standard. Annotators who "
    "make the same mistakes agree (two wrongs make a right), and when one category dominates, "
    "accurate annotators can still get a low kappa (Passonneau & Carpenter 2014, section 2.1). "
    "Even a kappa of 0.8 leaves about a fifth of the items to guesswork (Beigman Klebanov & "
    "Beigman 2009, section 3). Use agreement to find problems with guidelines and annotators; "
    "judge the labels themselves with a model of the annotators (Dawid-Skene) and expert checks."
)

_BANDS = [  # Landis & Koch (1977), for kappa-type coefficients
    (0.0, "less than chance agreement"),
    (0.20, "slight agreement beyond chance"),
    (0.40, "fair agreement beyond chance"),
    (0.60, "moderate agreement beyond chance"),
    (0.80, "substantial agreement beyond chance"),
    (1.0 + 1e-9, "almost perfect agreement beyond chance"),
]


def band(coefficient: str, value: float) -> str:
    """A verbal label for a value: Landis & Koch (1977) bands, Krippendorff's thresholds for alpha."""
    if not np.isfinite(value):
        return "undefined"
    if coefficient.lower().startswith("percent"):
        return f"{value:.0%} of pairs of judgements agree"
    if "alpha" in coefficient.lower():
        if value >= 0.8:
            return "reliable by Krippendorff's standard (alpha of 0.8 or more)"
        if value >= 0.667:
            return "good enough only for tentative conclusions (Krippendorff: 0.667 to 0.8)"
        return "not reliable by Krippendorff's standard (below 0.667)"
    for top, label in _BANDS:
        if value < top:
            return label
    return _BANDS[-1][1]


def reading(
    coefficient: str,
    value: float,
    ci_low: float = float("nan"),
    ci_high: float = float("nan"),
    confidence: float = 0.95,
    note: str = "",
) -> str:
    """One or two plain sentences reading a coefficient and its interval, for annotation teams.

    >>> reading("Cohen's kappa", 0.62, 0.58, 0.66)  # doctest: +ELLIPSIS
    "0.62: substantial agreement beyond chance; the 95% interval 0.58-0.66 ..."
    """
    if not np.isfinite(value):
        return f"Undefined: {note}." if note else "Undefined for these data."
    text = f"{value:.2f}: {band(coefficient, value)}"
    if coefficient.lower().startswith("percent"):
        text = f"{value:.2f}: {band(coefficient, value)} (not corrected for chance)"
    if np.isfinite(ci_low) and np.isfinite(ci_high):
        lo_band, hi_band = band(coefficient, ci_low), band(coefficient, ci_high)
        text += (
            f"; the {confidence:.0%} interval {ci_low:.2f}-{ci_high:.2f} says that with other items "
            f"of the same kind the value could plausibly lie anywhere in that range"
        )
        if lo_band != hi_band and not coefficient.lower().startswith("percent"):
            text += f", from '{lo_band}' to '{hi_band}', so the verbal label is uncertain"
    text += "."
    if coefficient.startswith("Fleiss") and 0 < value <= 1:
        text += (
            f" Read as a share of easy items (Beigman Klebanov & Beigman 2009, section 3.3): about "
            f"{value:.0%} of items look like ones everyone gets right; the rest behave like guesses."
        )
    return text
