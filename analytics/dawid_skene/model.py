"""The Dawid-Skene annotator model: gold labels with confidence, per-annotator confusion.

Dawid & Skene (1979), as presented by Passonneau & Carpenter (2014), section 2.2. Every
item :math:`i` has a true category :math:`z_i \\sim \\mathrm{Categorical}(\\pi)`; a label
from annotator :math:`j` is :math:`y \\sim \\mathrm{Categorical}(\\theta_{j, z_i})`, where
row :math:`k` of annotator :math:`j`'s confusion matrix :math:`\\theta_j` is the
distribution of labels they give to items whose true category is :math:`k`.

:func:`fit` estimates :math:`\\pi` and :math:`\\theta` by EM (a MAP estimate under
Dirichlet priors, the paper's "additively smoothed MLE") and returns, for every item, the
posterior probability of every category. Judgements may be missing (an annotator labels
any subset of items) or repeated (one annotator labels one item several times: each
repeat is an independent draw).

Implementation notes (why it is fast)
-------------------------------------
All judgements are coded once into a sparse items x (annotator, label) count matrix
:math:`C`. Then one EM iteration is two sparse-dense products and a log-sum-exp:

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
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy import sparse

from analytics._core.dawid_skene_checks import (
    check_confusions,
    check_observed,
    check_prevalence,
    check_settings,
    pseudo_counts,
)
from analytics._core.errors import AnnotationDataError
from analytics.data import Annotations, as_annotations
from analytics.dawid_skene.information import mutual_information

__all__ = [
    "INIT_METHODS",
    "DawidSkeneResult",
    "category_codes",
    "fit",
    "log_likelihood",
    "majority_posteriors",
    "mutual_information",
    "posterior",
]

INIT_METHODS = ("majority", "soft", "random", "best")
N_RANDOM_STARTS = 3  # random starts tried by init="best", besides majority and soft


# ---------------------------------------------------------------------- result
@dataclass(frozen=True, eq=False)
class DawidSkeneResult:
    """A fitted Dawid-Skene model.

    Attributes
    ----------
    prevalence : pandas.Series
        :math:`\\pi`, the estimated share of items in each true category (index: categories).
    posteriors : pandas.DataFrame
        Items x categories, :math:`p(z_i = k \\mid y, \\hat\\theta, \\hat\\pi)`; rows sum to 1.
    labels : pandas.Series
        Item -> most probable category, in the original label values. Exact posterior
        ties go to the category listed first.
    confidence : pandas.Series
        Item -> the top posterior probability.
    log_likelihood : ndarray
        The true penalised log-likelihood (log posterior density up to a constant) of the
        parameters at the start of every EM iteration, then of the final parameters; it
        never decreases (EM and MAP-EM are ascent methods).
    n_iter : int
        EM iterations run (M-steps after the initial one).
    converged : bool
        True if the relative change of the log-likelihood fell below ``tol``.
    confusion_array : ndarray, shape (n_annotators, n_categories, n_categories)
        :math:`\\theta` as numbers: annotator x true x given.
    expected_counts : ndarray, same shape
        Posterior-weighted judgement counts behind :math:`\\theta` (before smoothing).
    votes : ndarray, shape (n_items, n_categories)
        Raw judgement counts per item and category (for majority-vote comparisons).
    judgements : pandas.Series
        Annotator -> number of judgements.
    gold_items : pandas.Index
        Items whose true label was clamped to a given gold label.
    settings : dict
        The arguments of :func:`fit`.
    notes : tuple of str
        Plain-language warnings about the data (one annotator, one category, ...).
    """

    prevalence: pd.Series
    posteriors: pd.DataFrame
    labels: pd.Series
    confidence: pd.Series
    log_likelihood: np.ndarray
    n_iter: int
    converged: bool
    confusion_array: np.ndarray
    expected_counts: np.ndarray
    votes: np.ndarray
    judgements: pd.Series
    gold_items: pd.Index = field(default_factory=lambda: pd.Index([]))
    settings: dict[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def categories(self) -> pd.Index:
        return self.prevalence.index

    @property
    def annotators(self) -> pd.Index:
        return self.judgements.index

    @property
    def items(self) -> pd.Index:
        return self.posteriors.index

    @cached_property
    def confusion(self) -> dict[Any, pd.DataFrame]:
        """Annotator -> confusion matrix (rows = true category, columns = given label)."""
        cats = self.categories
        true_idx = pd.Index(cats, name="true category")
        given_idx = pd.Index(cats, name="given label")
        return {
            a: pd.DataFrame(self.confusion_array[j], index=true_idx, columns=given_idx)
            for j, a in enumerate(self.annotators)
        }

    @property
    def final_log_likelihood(self) -> float:
        return float(self.log_likelihood[-1]) if len(self.log_likelihood) else float("nan")

    def __repr__(self) -> str:
        state = "converged" if self.converged else "not converged"
        return (
            f"DawidSkeneResult({len(self.items)} items, {len(self.annotators)} annotators, "
            f"{len(self.categories)} categories; {self.n_iter} iterations, {state}, "
            f"log-likelihood {self.final_log_likelihood:.6g})"
        )


# ---------------------------------------------------------------------- one item
def posterior(
    prevalence: ArrayLike,
    confusions: Sequence[ArrayLike] | np.ndarray,
    observed: Sequence[int | None] | np.ndarray,
) -> np.ndarray:
    """Posterior over the true category of one item, from given parameters (Bayes' rule).

    .. math::

        p(z = k \\mid y, \\theta, \\pi) \\propto \\pi_k \\prod_j \\theta_{j, k, y_j}

    (Passonneau & Carpenter 2014, section 2.2.1). Computed in log space.

    Parameters
    ----------
    prevalence
        :math:`\\pi`, a probability vector of length K (non-negative, finite, summing to
        1 within 1e-9).
    confusions
        Shape (J, K, K): ``confusions[j]`` is annotator j's K x K matrix (rows: true
        category, columns: given label); every row is a probability vector like
        ``prevalence``.
    observed
        J entries: ``observed[j]`` is the 0-based index (0 .. K - 1) of the label annotator
        j gave, or **-1 or None when annotator j did not label the item** (that annotator
        then contributes nothing). Indices must be whole numbers (``1.0`` is accepted as
        1; ``1.7``, NaN, text and negative numbers other than -1 are refused, never
        truncated).

    Returns
    -------
    ndarray of length K, summing to 1.

    Raises
    ------
    AnnotationDataError
        Parameters of the wrong shape (the message names the expected shape), rows that
        are not probability vectors, bad label indices, or labels that have probability
        zero under every category.

    Examples
    --------
    The paper's worked example: majority says category 1, the model says 2.

    >>> th = [[[.75, .25], [.40, .60]], [[.65, .35], [.30, .70]], [[.9, .1], [.2, .8]]]
    >>> posterior([0.2, 0.8], th, [0, 0, 1]).round(2)
    array([0.11, 0.89])
    """
    pi = check_prevalence(prevalence)
    k = pi.shape[0]
    theta = check_confusions(confusions, k)
    obs = check_observed(observed, k, theta.shape[0])
    seen = obs >= 0
    with np.errstate(divide="ignore"):
        log_p = np.log(pi) + np.log(theta[seen, :, obs[seen]]).sum(axis=0)
    if not np.isfinite(log_p).any():
        raise AnnotationDataError(
            "every category has probability zero for these labels: some observed label has "
            "probability zero under every true category (or where the prevalence is not zero).",
            hint="Check the confusion matrices, or smooth them so no cell is exactly 0.",
        )
    log_p -= log_p.max()
    p = np.exp(log_p)
    return p / p.sum()


# ---------------------------------------------------------------------- helpers
def category_codes(categories: pd.Index, values: Sequence[Any] | np.ndarray) -> np.ndarray:
    """0-based codes of label values among ``categories``; -1 where a value is unknown.

    Matches exactly first, then by text (``"1"`` matches the category ``1``; data read
    with ``dtype=str`` often arrives as text), then by number (``"1.0"`` matches ``1``).
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


def _gold_codes(ann: Annotations, gold: Mapping[Any, Any] | pd.Series | None) -> np.ndarray:
    """Item -> clamped category code (-1 where no gold label)."""
    out = np.full(ann.n_items, -1, np.int64)
    if gold is None:
        return out
    g = pd.Series(gold) if not isinstance(gold, pd.Series) else gold
    g = g[[not _is_na(v) for v in g.to_numpy()]]
    if g.empty:
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


def _is_na(v: Any) -> bool:
    return v is None or (isinstance(v, float) and np.isnan(v)) or v is pd.NA


def majority_posteriors(votes: np.ndarray) -> np.ndarray:
    """Majority vote as a distribution per item, ties split equally.

    An item whose top count is shared by t categories gives each of them 1/t; an item
    with no judgement gives every category 1/K. ``votes`` is items x categories counts.
    """
    votes = np.asarray(votes, dtype=float)
    k = votes.shape[1]
    if votes.shape[0] == 0 or k == 0:
        return np.zeros_like(votes)
    top = votes.max(axis=1, keepdims=True)
    winners = (votes == top).astype(float)
    return winners / winners.sum(axis=1, keepdims=True)


def _design(ann: Annotations) -> tuple[sparse.csr_matrix, sparse.csc_matrix]:
    """Items x (annotator, label) counts C (CSR) and its transpose (a CSC view).

    Repeated judgements simply add up in C: each is an independent draw.
    """
    n_i, n_a, k = ann.n_items, ann.n_annotators, ann.n_categories
    code = ann.annotator_codes * k + ann.label_codes
    c = sparse.csr_matrix((np.ones(ann.n_judgements), (ann.item_codes, code)), shape=(n_i, n_a * k))
    c.sum_duplicates()
    return c, c.T


# ---------------------------------------------------------------------- EM core
@dataclass
class _Run:
    q: np.ndarray
    pi: np.ndarray
    theta: np.ndarray
    counts: np.ndarray
    trace: np.ndarray
    n_iter: int
    converged: bool


class _EM:
    """The EM updates on coded data; everything is numpy/scipy, no per-item loops."""

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

    def run(self, q0: np.ndarray, max_iter: int, tol: float) -> _Run:
        """EM from initial posteriors ``q0`` until the relative change of the
        penalised log-likelihood is below ``tol`` or ``max_iter`` M-steps were made.

        Every trace entry is the objective of the parameters the posteriors were
        computed from, so the returned posteriors, parameters and last trace entry
        belong together.
        """
        pi, theta, counts = self.m_step(self.clamp(q0))
        trace: list[float] = []
        n_iter, converged = 0, False
        while True:
            q, ll = self.e_step(pi, theta)
            trace.append(ll)
            if len(trace) > 1:
                prev = trace[-2]
                if abs(ll - prev) / max(abs(prev), np.finfo(float).tiny) < tol:
                    converged = True
                    break
            if n_iter >= max_iter:
                break
            pi, theta, counts = self.m_step(q)
            n_iter += 1
        return _Run(q, pi, theta, counts, np.asarray(trace), n_iter, converged)

    def m_step(self, q: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """MAP update: Dirichlet mode = (expected count + pseudo-count) / row total."""
        j, k = self.n_annotators, self.k
        # counts[(j, given), true] -> annotator x true x given
        counts = np.asarray(self.ct @ q).reshape(j, k, k).transpose(0, 2, 1)
        # ct is C's CSC transpose (a free view): the CSC kernel streams through q in item
        # order and scatters into the small (annotator, label) x K result that stays in
        # cache, about 2x faster than a CSR copy of the transpose, which gathers q rows.
        num = counts + self.alpha
        den = num.sum(axis=2, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            theta = np.where(den > 0, num / np.where(den > 0, den, 1.0), 1.0 / k)
        pi_num = np.einsum("ik->k", q) + self.beta  # faster than q.sum(axis=0) here
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
        ll = float(ll_items.sum()) + _penalty(self.alpha, log_theta) + _penalty(self.beta, log_pi)
        return s, ll


def _row_reduce(op: np.ufunc, a: np.ndarray) -> np.ndarray:
    """``op.reduce(a, axis=1)`` for a tall, narrow array, one column at a time.

    numpy reduces a short inner axis (K = a handful of categories) slowly; K vectorised
    passes over the columns are several times faster for 10^5-10^6 items.
    """
    out = a[:, 0].copy()
    for col in range(1, a.shape[1]):
        op(out, a[:, col], out=out)
    return out


def _penalty(pseudo: np.ndarray, log_p: np.ndarray) -> float:
    """Log Dirichlet density up to a constant: sum of (alpha - 1) log p, with 0 log 0 = 0."""
    pseudo = np.broadcast_to(pseudo, log_p.shape)
    used = pseudo > 0
    return float((pseudo[used] * log_p[used]).sum())


def _init_posteriors(votes: np.ndarray, init: str, seed: int) -> np.ndarray:
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


# ---------------------------------------------------------------------- fit
def fit(
    ann: Annotations | pd.DataFrame,
    *,
    max_iter: int = 500,
    tol: float = 1e-7,
    smoothing: float = 0.01,
    prior: ArrayLike | pd.DataFrame | None = None,
    init: str = "majority",
    gold: Mapping[Any, Any] | pd.Series | None = None,
    seed: int = 0,
) -> DawidSkeneResult:
    """Fit the Dawid-Skene model by EM; return posteriors, prevalence and confusion matrices.

    Maximises the penalised log-likelihood (log posterior density up to a constant)

    .. math::

        \\ell(\\pi, \\theta) = \\sum_i \\log \\sum_k \\pi_k \\prod_{n: ii[n]=i}
            \\theta_{jj[n], k, y[n]}
          + \\sum_k b_k \\log \\pi_k + \\sum_j \\sum_{k,k'} a_{kk'} \\log \\theta_{jkk'}

    (Passonneau & Carpenter 2014, section 2.2, with Dirichlet priors
    :math:`\\theta_{jk} \\sim \\mathrm{Dir}(a_k + 1)`, :math:`\\pi \\sim \\mathrm{Dir}(b + 1)`;
    Dawid & Skene 1979, eqs. 2.3-2.5). For an item with a clamped gold label :math:`g`
    the inner sum is replaced by the single term :math:`k = g`.

    Parameters
    ----------
    ann
        Single-label annotations (nominal, ordinal or numeric labels are all treated as
        unordered categories). Multi-label data are refused: fit one binary model per
        category instead (``ann.subset`` does not do this; see ``docs/dawid_skene.md``).
    max_iter
        Most EM iterations to run: a whole number >= 1.
    tol
        Stop when :math:`|\\ell_t - \\ell_{t-1}| / |\\ell_{t-1}| < tol` for the true
        penalised log-likelihood: a finite number >= 0; 0 never stops early (runs exactly
        ``max_iter`` iterations, as the benchmark does to time iterations).
    smoothing
        Additive pseudo-count :math:`a = b` added to every confusion cell and every
        prevalence count (a MAP estimate): a finite number >= 0; 0 gives the unsmoothed
        maximum-likelihood fit.
    prior
        Extra pseudo-counts for every annotator's confusion matrix, on top of
        ``smoothing``: one number (the same in every cell), or a K x K array or
        DataFrame (true x given), finite and >= 0. Nothing else is broadcast: a single
        row of K numbers is refused. A prior
        heavier on the diagonal, e.g. ``2 * np.eye(K)``, says "annotators are usually
        right" and keeps sparse annotators away from extreme estimates.
    init
        ``"majority"``: start from majority vote, ties split equally (default);
        ``"soft"``: start from the share of votes per category;
        ``"random"``: random posteriors drawn with ``seed``;
        ``"best"``: run from majority, soft and 3 jittered vote starts (vote counts
        plus uniform noise), and with ``gold`` also from parameters estimated on the
        gold items alone; keep the fit with the highest penalised log-likelihood
        (EM finds a local optimum; on the public data sets the majority start is
        sometimes not the best one). ``"random"`` starts may converge to a solution
        with the categories permuted (the likelihood cannot tell them apart).
    gold
        Known true labels for some items (item -> label, in the original label values);
        those items are clamped to their label throughout (semi-supervised EM). Items not
        in the data are ignored.
    seed
        Random seed (a whole number >= 0) for the random starts (``init="random"`` or
        ``"best"``); the fit is otherwise deterministic.

    Returns
    -------
    DawidSkeneResult

    Raises
    ------
    AnnotationDataError
        No judgements, multi-label data, gold labels that do not match, or a bad setting
        (the message names the setting and the expected shape or range).
    """
    ann = as_annotations(ann)
    if ann.is_multilabel:
        raise AnnotationDataError(
            "the Dawid-Skene model needs one label per judgement, and this data set is "
            "multi-label (each judgement is a set of categories).",
            hint="Fit one binary model per category: for each category, label a judgement "
            "'yes' if its set contains the category and 'no' otherwise.",
        )
    if ann.n_judgements == 0:
        raise AnnotationDataError("there are no judgements to fit a model to.")
    max_iter, tol, smoothing, init, seed = check_settings(
        max_iter=max_iter,
        tol=tol,
        smoothing=smoothing,
        init=init,
        seed=seed,
        init_methods=INIT_METHODS,
    )
    k, n_a = ann.n_categories, ann.n_annotators
    alpha = pseudo_counts(smoothing, prior, k, ann.categories)
    beta = np.full(k, float(smoothing))
    gold_codes = _gold_codes(ann, gold)

    c, ct = _design(ann)
    votes = ann.count_matrix()
    em = _EM(c, ct, n_a, k, alpha, beta, gold_codes)
    starts = (
        [("majority", seed), ("soft", seed)]
        + [("jittered", seed + r) for r in range(N_RANDOM_STARTS)]
        if init == "best"
        else [(init, seed)]
    )
    if init == "best" and (gold_codes >= 0).any():
        starts.append(("gold", seed))
    runs = [em.run(_init_posteriors(votes, how, s), max_iter, tol) for how, s in starts]
    best = max(range(len(runs)), key=lambda r: runs[r].trace[-1])
    run = runs[best]
    q, pi, theta, counts = run.q, run.pi, run.theta, run.counts
    trace, n_iter, converged = run.trace, run.n_iter, run.converged

    notes = _notes(ann, gold_codes)
    if init == "best":
        notes += (f"Best of {len(runs)} starts: {starts[best][0]} (highest log-likelihood).",)
    cats = ann.categories
    post = pd.DataFrame(q, index=ann.items, columns=cats)
    top = q.argmax(axis=1) if k else np.zeros(ann.n_items, np.int64)
    return DawidSkeneResult(
        prevalence=pd.Series(pi, index=cats, name="prevalence"),
        posteriors=post,
        labels=pd.Series(np.asarray(cats, dtype=object)[top], index=ann.items, name="label"),
        confidence=pd.Series(q.max(axis=1), index=ann.items, name="confidence"),
        log_likelihood=trace,
        n_iter=n_iter,
        converged=converged,
        confusion_array=theta,
        expected_counts=counts,
        votes=votes,
        judgements=ann.judgements_per_annotator(),
        gold_items=ann.items[gold_codes >= 0],
        settings={
            "max_iter": max_iter,
            "tol": tol,
            "smoothing": smoothing,
            "prior": None if prior is None else np.asarray(prior).tolist(),
            "init": init,
            "n_gold": int((gold_codes >= 0).sum()),
            "seed": seed,
        },
        notes=notes,
    )


def log_likelihood(
    ann: Annotations | pd.DataFrame,
    prevalence: ArrayLike,
    confusion: ArrayLike,
    *,
    smoothing: float = 0.0,
    prior: ArrayLike | pd.DataFrame | None = None,
) -> float:
    """The objective :func:`fit` maximises, evaluated at given parameters.

    ``prevalence`` has one entry per category of ``ann``; ``confusion`` is
    annotators x true x given in the order of ``ann.annotators``. With ``smoothing=0``
    and no prior this is the plain log-likelihood, so fits made by other software can be
    compared on the same scale. ``prevalence`` and every confusion row must be probability
    vectors (finite, non-negative, summing to 1 within 1e-9); ``smoothing`` and ``prior``
    are checked as in :func:`fit`. Bad input raises :class:`AnnotationDataError`.
    """
    ann = as_annotations(ann)
    k = ann.n_categories
    pi = check_prevalence(prevalence, k)
    theta = check_confusions(
        confusion, k, ann.n_annotators, list(ann.annotators), list(ann.categories)
    )
    alpha = pseudo_counts(smoothing, prior, k, ann.categories)  # checks smoothing too
    c, ct = _design(ann)
    em = _EM(
        c,
        ct,
        ann.n_annotators,
        k,
        alpha,
        np.full(k, float(smoothing)),
        np.full(ann.n_items, -1, np.int64),
    )
    return em.e_step(pi, theta)[1]


def _notes(ann: Annotations, gold_codes: np.ndarray) -> tuple[str, ...]:
    notes = []
    if ann.n_categories < 2:
        notes.append(
            "Only one category is used, so every item is certain and the annotators carry "
            "no information (mutual information and spammer scores are undefined)."
        )
    if ann.n_annotators < 2:
        notes.append(
            "There is only one annotator: the model cannot tell their errors from the truth "
            "(many parameter values fit equally well), so its posteriors and confusion "
            "matrix mean little; collect labels from a second annotator."
        )
    per_item = np.bincount(ann.item_codes, minlength=ann.n_items)
    single = int((per_item == 1).sum())
    if single and single == ann.n_items:
        notes.append(
            "No item was labelled by two or more annotators, so annotator accuracy cannot "
            "be estimated (the model is not identified); treat the results as unreliable."
        )
    elif single > 0.5 * ann.n_items:
        notes.append(
            f"{single:,} of {ann.n_items:,} items have a single judgement; their gold "
            "labels rest on one annotator."
        )
    if ann.kind.value in ("numeric", "ordinal"):
        notes.append(
            "The labels are treated as unordered categories (the model ignores their order "
            "and distances)."
        )
    return tuple(notes)
