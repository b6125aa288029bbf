"""The EM engine behind :func:`analytics.dawid_skene.fit`: coding, starts and updates.

Dawid & Skene (1979), section 2 (the EM algorithm for the observer error-rates), as
presented by Passonneau & Carpenter (2014), section 2.2, with Dirichlet priors (a MAP
estimate, the paper's "additively smoothed MLE").

Implementation notes (why it is fast)
-------------------------------------
All judgements are coded once into a sparse items x (annotator, label) count matrix
:math:`C` (:func:`design_matrix`). Then one EM iteration is two sparse-dense products and
a log-sum-exp:

- E-step: :math:`\\log p(z_i = k, y_i) = \\log\\pi_k + (C \\, T)_{ik}` where
  :math:`T_{(j,k'),k} = \\log\\theta_{jkk'}` (log space, so hundreds of labels per item
  do not underflow).
- M-step: expected counts :math:`N_{(j,k'),k} = (C^\\top Q)_{(j,k'),k}` with :math:`Q` the
  posteriors; then :math:`\\theta_{jkk'} \\propto N_{jkk'} + a_{kk'}` and
  :math:`\\pi_k \\propto \\sum_i Q_{ik} + b_k`.

There is no Python loop over items, annotators or judgements. Hand-written code beats
crowd-kit's pandas ``groupby``/``join`` per iteration by orders of magnitude here (see
``benchmarks/bench_dawid_skene.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import sparse

from analytics._core.errors import AnnotationDataError
from analytics._core.validation import check_prior, check_smoothing
from analytics.data import Annotations
from analytics.dawid_skene.gold import gold_series

__all__ = [
    "INIT_METHODS",
    "N_RANDOM_STARTS",
    "EMEngine",
    "EMRun",
    "category_codes",
    "data_notes",
    "design_matrix",
    "gold_codes",
    "initial_posteriors",
    "majority_posteriors",
    "penalty",
    "pseudo_counts",
    "sizes_notes",
]

INIT_METHODS = ("majority", "soft", "random", "best")
N_RANDOM_STARTS = 3  # random starts tried by init="best", besides majority and soft


# ---------------------------------------------------------------------- helpers
def category_codes(categories: pd.Index, values: Sequence[Any] | np.ndarray) -> np.ndarray:
    """0-based codes of label values among ``categories``; -1 where a value is unknown.

    Parameters
    ----------
    categories : pandas.Index
        The categories of a data set.
    values : sequence or ndarray
        Label values, e.g. known gold labels read as text.

    Returns
    -------
    ndarray of int64
        One code per value; -1 where a value matches no category.

    Notes
    -----
    Matches exactly first, then by text (``"1"`` matches the category ``1``; data read
    with ``dtype=str`` often arrives as text), then by number (``"1.0"`` matches ``1``).

    Examples
    --------
    >>> category_codes(pd.Index([0, 1]), ["1", "1.0", 0, "x"]).tolist()
    [1, 1, 0, -1]
    """
    values = list(values)
    codes = np.asarray(categories.get_indexer(pd.Index(values, dtype=object)), np.int64)
    if (codes >= 0).all():
        return codes
    by_text = {str(c).strip(): i for i, c in enumerate(categories)}
    by_num: dict[float, int] = {}
    for i, c in enumerate(categories):
        try:
            by_num.setdefault(float(c), i)
        except (TypeError, ValueError):
            continue
    for n in np.flatnonzero(codes < 0):
        v = values[n]
        code = by_text.get(str(v).strip(), -1)
        if code < 0 and by_num:
            try:
                code = by_num.get(float(str(v).strip().replace("_", "x")), -1)
            except ValueError:
                code = -1
        codes[n] = code
    return codes


def gold_codes(ann: Annotations, gold: Mapping[Any, Any] | pd.Series | None) -> np.ndarray:
    """The category code each item is clamped to by known gold labels (-1: not clamped).

    Parameters
    ----------
    ann : Annotations
        The data being fitted.
    gold : mapping, pandas.Series or None
        Known gold: item -> true label (original values or text). Missing labels and
        items not in the data are ignored.

    Returns
    -------
    ndarray of int64, shape (n_items,)

    Raises
    ------
    AnnotationDataError
        An item listed twice, none of the gold items in the data, or a gold label that is
        not a category; an ArgumentTypeError for a path or a DataFrame (:func:`gold_series`).
    """
    out = np.full(ann.n_items, -1, np.int64)
    g = gold_series(gold)  # the one check of gold=, shared with analytics.models
    if g is None or g.empty:
        return out
    keys = list(g.index)
    rows = ann.items.get_indexer(pd.Index(keys, dtype=object))
    miss = rows < 0
    if miss.any():
        text = ann.items.get_indexer(pd.Index([str(k).strip() for k in keys], dtype=object))
        rows = np.where(miss, text, rows)
    known = rows >= 0
    if not known.any():
        raise AnnotationDataError(
            "none of the gold items is in the data set.",
            hint=f"Gold items look like {keys[:3]}; data items look like {list(ann.items[:3])}.",
        )
    codes = category_codes(ann.categories, g.to_numpy()[known])
    if (codes < 0).any():
        bad = sorted({str(v) for v in g.to_numpy()[known][codes < 0]})[:5]
        raise AnnotationDataError(
            f"gold labels {bad} are not among the categories {list(ann.categories)[:10]}.",
            hint="Correct the gold file or declare the missing categories.",
        )
    out[rows[known]] = codes
    return out


def majority_posteriors(votes: np.ndarray) -> np.ndarray:
    """Majority vote as a distribution per item, ties split equally.

    Parameters
    ----------
    votes : ndarray, shape (n_items, n_categories)
        Judgement counts per item and category.

    Returns
    -------
    ndarray of the same shape
        An item whose top count is shared by t categories gives each of them 1/t; an
        item with no judgement gives every category 1/K.

    Examples
    --------
    >>> majority_posteriors(np.array([[2, 1, 0], [1, 1, 0]])).tolist()
    [[1.0, 0.0, 0.0], [0.5, 0.5, 0.0]]
    """
    votes = np.asarray(votes, dtype=float)
    k = votes.shape[1]
    if votes.shape[0] == 0 or k == 0:
        return np.zeros_like(votes)
    top = votes.max(axis=1, keepdims=True)
    winners = (votes == top).astype(float)
    return winners / winners.sum(axis=1, keepdims=True)


def design_matrix(ann: Annotations) -> tuple[sparse.csr_matrix, sparse.csc_matrix]:
    """Items x (annotator, label) counts C (CSR) and its transpose (a CSC view).

    Column ``j * K + k`` counts annotator j's label k.

    Repeated judgements simply add up in C: each is an independent draw.
    """
    n_i, n_a, k = ann.n_items, ann.n_annotators, ann.n_categories
    code = ann.annotator_codes * k + ann.label_codes
    c = sparse.csr_matrix((np.ones(ann.n_judgements), (ann.item_codes, code)), shape=(n_i, n_a * k))
    c.sum_duplicates()
    return c, c.T


# ---------------------------------------------------------------------- EM core
@dataclass
class EMRun:
    """One EM run: final posteriors ``q``, parameters, expected counts and the trace."""

    q: np.ndarray
    pi: np.ndarray
    theta: np.ndarray
    counts: np.ndarray
    trace: np.ndarray
    n_iter: int
    converged: bool
    parameter_change: float = float("nan")


class EMEngine:
    """The EM updates on coded data; everything is numpy/scipy, no per-item loops.

    Parameters
    ----------
    c, ct : scipy.sparse matrices
        :func:`design_matrix` of the data.
    n_annotators, k : int
        J and K.
    alpha : ndarray, shape (K, K)
        Pseudo-counts of every confusion matrix (:func:`pseudo_counts`).
    beta : ndarray, shape (K,)
        Pseudo-counts of the prevalence.
    gold : ndarray of int64, shape (n_items,)
        :func:`gold_codes`: the clamped category per item, -1 where none.

    References
    ----------
    Dawid, A. P. and Skene, A. M. (1979). Maximum likelihood estimation of observer
    error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28, section 2.
    """

    def __init__(
        self,
        c: sparse.csr_matrix,
        ct: sparse.csc_matrix,
        n_annotators: int,
        k: int,
        alpha: np.ndarray,
        beta: np.ndarray,
        gold: np.ndarray,
    ) -> None:
        self.c, self.ct = c, ct
        self.n_items = c.shape[0]
        self.n_annotators, self.k = n_annotators, k
        self.alpha, self.beta = alpha, beta  # pseudo-counts (Dirichlet parameter - 1)
        self.gold_rows = np.flatnonzero(gold >= 0)
        self.gold_codes = gold[self.gold_rows]

    def clamp(self, q: np.ndarray) -> np.ndarray:
        if len(self.gold_rows):
            q[self.gold_rows] = 0.0
            q[self.gold_rows, self.gold_codes] = 1.0
        return q

    def run(
        self,
        q0: np.ndarray,
        max_iter: int,
        tol: float,
        *,
        initial_error: tuple[str, np.ndarray] | None = None,
        finish: str = "e_step",
        param_tol: float | None = None,
    ) -> EMRun:
        """EM from initial posteriors ``q0`` until the relative change of the
        penalised log-likelihood is below ``tol`` (and, with ``param_tol``, no prevalence
        or confusion entry moved by ``param_tol`` or more in the last iteration) or
        ``max_iter`` M-steps were made.

        Every trace entry is the objective of the parameters the posteriors were
        computed from, so the returned posteriors, parameters and last trace entry
        belong together. ``initial_error`` (``("addition" | "assign", counts)``, counts
        annotator x true x given) enters the first M-step only. ``finish="m_step"``
        returns, instead of the posteriors of the final parameters, the posteriors the
        final M-step was made from (crowd-kit's ``DawidSkene`` state after ``n_iter``
        iterations; with ``max_iter=0`` the start itself). The run's
        ``parameter_change`` is that largest absolute change in the last iteration (NaN
        when none was made).
        """
        q_used = self.clamp(q0)
        pi, theta, counts = self.m_step(q_used, initial_error)
        trace: list[float] = []
        n_iter, converged, moved = 0, False, float("nan")
        while True:
            q, ll = self.e_step(pi, theta)
            trace.append(ll)
            if len(trace) > 1:
                prev = trace[-2]
                flat = abs(ll - prev) / max(abs(prev), np.finfo(float).tiny) < tol
                if flat and (param_tol is None or moved < param_tol):
                    converged = True
                    break
            if n_iter >= max_iter:
                break
            new_pi, theta_new, counts = self.m_step(q)
            moved = parameter_change(pi, theta, new_pi, theta_new)
            pi, theta = new_pi, theta_new
            q_used = q
            n_iter += 1
        shown = q_used if finish == "m_step" else q
        return EMRun(shown, pi, theta, counts, np.asarray(trace), n_iter, converged, moved)

    def m_step(
        self, q: np.ndarray, initial_error: tuple[str, np.ndarray] | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """MAP update: Dirichlet mode = (expected count + pseudo-count) / row total.

        ``initial_error`` ("addition", counts) adds historical counts to the expected
        counts; ("assign", counts) replaces them (crowd-kit's ``initial_error``).
        """
        counts = self.expected_counts(q)
        if initial_error is not None:
            how, extra = initial_error
            counts = counts + extra if how == "addition" else extra.astype(float)
        return self.parameters(counts, np.einsum("ik->k", q))

    def expected_counts(self, q: np.ndarray) -> np.ndarray:
        """Posterior-weighted judgement counts, annotator x true x given."""
        j, k = self.n_annotators, self.k
        # counts[(j, given), true] -> annotator x true x given
        # ct is C's CSC transpose (a free view): the CSC kernel streams through q in item
        # order and scatters into the small (annotator, label) x K result that stays in
        # cache, about 2x faster than a CSR copy of the transpose, which gathers q rows.
        return np.asarray(self.ct @ q).reshape(j, k, k).transpose(0, 2, 1)

    def parameters(
        self, counts: np.ndarray, q_totals: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(pi, theta, counts)`` from the expected counts and the posteriors' column sums.

        :math:`\\theta_{jkk'} \\propto N_{jkk'} + a_{kk'}`, :math:`\\pi_k \\propto
        \\sum_i q_{ik} + b_k` (uniform where a row has no mass at all).
        """
        k = self.k
        num = counts + self.alpha
        den = num.sum(axis=2, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            theta = np.where(den > 0, num / np.where(den > 0, den, 1.0), 1.0 / k)
        pi_num = q_totals + self.beta
        pi = pi_num / pi_num.sum() if pi_num.sum() > 0 else np.full(k, 1.0 / k)
        return pi, theta, counts

    def e_step(self, pi: np.ndarray, theta: np.ndarray) -> tuple[np.ndarray, float]:
        """Posteriors and the penalised log-likelihood of (pi, theta)."""
        j, k = self.n_annotators, self.k
        with np.errstate(divide="ignore"):
            log_theta = np.log(theta)
            log_pi = np.log(pi)
        table = log_theta.transpose(0, 2, 1).reshape(j * k, k)  # row (j, given) -> true
        s = self.c @ table
        s += log_pi
        # a clamped item contributes its complete-data log-likelihood log p(z=g, y)
        gold_ll = s[self.gold_rows, self.gold_codes]
        top = _row_reduce(np.maximum, s)
        top[~np.isfinite(top)] = 0.0
        s -= top[:, None]
        np.exp(s, out=s)
        z = _row_reduce(np.add, s)
        s *= (1.0 / z)[:, None]  # one reciprocal per item, then multiplies
        with np.errstate(divide="ignore"):
            ll_items = top + np.log(z)
        if len(self.gold_rows):
            ll_items[self.gold_rows] = gold_ll
            self.clamp(s)
        ll = float(ll_items.sum()) + penalty(self.alpha, log_theta) + penalty(self.beta, log_pi)
        return s, ll


def parameter_change(
    pi: np.ndarray, theta: np.ndarray, new_pi: np.ndarray, new_theta: np.ndarray
) -> float:
    """The largest absolute change of a prevalence or confusion entry between two M-steps.

    Parameters
    ----------
    pi, new_pi : ndarray, shape (K,)
        Prevalence before and after.
    theta, new_theta : ndarray, shape (J, K, K)
        Confusion matrices before and after.

    Returns
    -------
    float
        :math:`\\max(\\max_k |\\pi'_k - \\pi_k|, \\max_{jkl} |\\theta'_{jkl} - \\theta_{jkl}|)`
        (0 when there are no entries).

    Examples
    --------
    >>> parameter_change(np.array([0.5, 0.5]), np.full((1, 2, 2), 0.5),
    ...                  np.array([0.75, 0.25]), np.full((1, 2, 2), 0.5))
    0.25
    """
    return max(_largest_change(pi, new_pi), _largest_change(theta, new_theta))


def _largest_change(old: Any, new: Any) -> float:
    """Largest absolute entry change of an array, or of a tuple of arrays (the models
    of :mod:`analytics.models` keep their parameters as tuples, e.g. MACE's trust and
    spam, GLAD's abilities and difficulties); None entries and empty arrays count 0."""
    if isinstance(old, tuple):
        return max((_largest_change(a, b) for a, b in zip(old, new, strict=True)), default=0.0)
    if old is None or new is None:
        return 0.0
    old, new = np.asarray(old, float), np.asarray(new, float)
    return float(np.abs(new - old).max()) if old.size and old.shape == new.shape else 0.0


def _row_reduce(op: np.ufunc, a: np.ndarray) -> np.ndarray:
    """``op.reduce(a, axis=1)`` for a tall, narrow array, one column at a time.

    numpy reduces a short inner axis (K = a handful of categories) slowly; K vectorised
    passes over the columns are several times faster for 10^5-10^6 items.
    """
    out = a[:, 0].copy()
    for col in range(1, a.shape[1]):
        op(out, a[:, col], out=out)
    return out


def penalty(pseudo: np.ndarray, log_p: np.ndarray) -> float:
    """Log Dirichlet density up to a constant: sum of (alpha - 1) log p, with 0 log 0 = 0."""
    pseudo = np.broadcast_to(pseudo, log_p.shape)
    used = pseudo > 0
    return float((pseudo[used] * log_p[used]).sum())


def initial_posteriors(votes: np.ndarray, init: str, seed: int) -> np.ndarray:
    """The posteriors EM starts from.

    Parameters
    ----------
    votes : ndarray, shape (n_items, n_categories)
        Judgement counts per item and category.
    init : str
        ``"majority"`` (ties split), ``"soft"`` (share of votes), ``"gold"`` (zeros: the
        parameters then come from the clamped items alone), ``"jittered"`` (votes plus
        up to one random vote per category) or ``"random"`` (Dirichlet draws).
    seed : int
        Seed of the random starts.

    Returns
    -------
    ndarray of the same shape as ``votes``
    """
    if init == "majority":
        return majority_posteriors(votes)
    if init == "soft":
        tot = votes.sum(axis=1, keepdims=True)
        k = votes.shape[1]
        return np.where(tot > 0, votes / np.where(tot > 0, tot, 1), 1.0 / max(k, 1))
    if init == "gold":
        # parameters from the clamped gold items alone (rows of zeros elsewhere)
        return np.zeros(votes.shape)
    rng = np.random.default_rng(seed)
    if init == "jittered":
        # vote counts plus up to one random vote per category: near majority vote, so
        # the start cannot land on a relabelled (category-permuted) solution
        noisy = votes + rng.random(votes.shape)
        return noisy / noisy.sum(axis=1, keepdims=True)
    return rng.dirichlet(np.ones(votes.shape[1]), size=votes.shape[0])


def pseudo_counts(smoothing: Any, prior: Any, k: int, categories: pd.Index) -> np.ndarray:
    """Dirichlet pseudo-counts (alpha - 1) added to every annotator's confusion rows.

    Parameters
    ----------
    smoothing : float
        The same pseudo-count in every cell (checked: finite, >= 0).
    prior : None, number, array_like of shape (K, K) or pandas.DataFrame
        Extra pseudo-counts on top (see
        :func:`analytics._core.validation.check_prior`).
    k : int
        The number of categories K.
    categories : pandas.Index
        The categories, in the order of the rows and columns of ``prior``.

    Returns
    -------
    ndarray of shape (K, K)

    Examples
    --------
    >>> pseudo_counts(0.5, [[1, 0], [0, 1]], 2, pd.Index(["a", "b"])).tolist()
    [[1.5, 0.5], [0.5, 1.5]]
    """
    return np.full((k, k), check_smoothing(smoothing)) + check_prior(prior, k, categories)


def data_notes(ann: Annotations) -> tuple[str, ...]:
    """Plain-language warnings about data the model cannot learn much from.

    Parameters
    ----------
    ann : Annotations
        Single-label annotations.

    Returns
    -------
    tuple of str
        One sentence per problem: one category, one annotator, items with a single
        judgement, ordered labels read as unordered categories.
    """
    per_item = np.bincount(ann.item_codes, minlength=ann.n_items)
    single = int((per_item == 1).sum())
    return sizes_notes(ann.n_categories, ann.n_annotators, ann.n_items, single, ann.kind.value)


def sizes_notes(
    n_categories: int, n_annotators: int, n_items: int, single: int, kind: str
) -> tuple[str, ...]:
    """:func:`data_notes` from the sizes (``single``: items with one judgement)."""
    notes = []
    if n_categories < 2:
        notes.append(
            "Only one category is used, so every item is certain and the annotators carry "
            "no information (mutual information and spammer scores are undefined)."
        )
    if n_annotators < 2:
        notes.append(
            "There is only one annotator: the model cannot tell their errors from the truth "
            "(many parameter values fit equally well), so its posteriors and confusion "
            "matrix mean little; collect labels from a second annotator."
        )
    if single and single == n_items:
        notes.append(
            "No item was labelled by two or more annotators, so annotator accuracy cannot "
            "be estimated (the model is not identified); treat the results as unreliable."
        )
    elif single > 0.5 * n_items:
        notes.append(
            f"{single:,} of {n_items:,} items have a single judgement; their gold "
            "labels rest on one annotator."
        )
    if kind in ("numeric", "ordinal"):
        notes.append(
            "The labels are treated as unordered categories (the model ignores their order "
            "and distances)."
        )
    return tuple(notes)
