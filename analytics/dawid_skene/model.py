"""The Dawid-Skene annotator model: each item's most likely label, per-annotator confusion.

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

The EM engine itself (sparse coding, starts, E- and M-steps) is in
:mod:`analytics.dawid_skene.em`.

Three kinds of "gold" meet in Concord; in this family:

- the **model's labels** (:attr:`DawidSkeneResult.labels`, downloaded by
  :func:`~analytics.dawid_skene.model_labels_table` as "gold labels with confidence"):
  what the model infers, with a posterior probability;
- the **known gold**: true labels the user already has for some items, passed as
  ``fit(..., gold=...)`` (those items are clamped) or scored with
  :func:`~analytics.dawid_skene.gold_accuracy`;
- not here: the multi-label **expert gold standard** of Bhowmick et al. (Algorithm 1),
  :func:`analytics.multilabel.gold_standard`.

References
----------
Dawid, A. P. and Skene, A. M. (1979). Maximum likelihood estimation of observer
error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28.

Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
*Transactions of the ACL* 2, 311-326.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from analytics._core.budget import check_budget, estimate_bytes
from analytics._core.errors import AnnotationDataError, require
from analytics._core.ids import top_codes
from analytics._core.lazy import engine_answer, is_lazy
from analytics._core.validation import (
    check_choice,
    check_confusions,
    check_finite,
    check_prevalence,
    check_settings,
)
from analytics.data import Annotations, anonymous_annotators, as_annotations, refuse_scale
from analytics.dawid_skene.em import (
    INIT_METHODS,
    EMEngine,
    data_notes,
    design_matrix,
    gold_codes,
    pseudo_counts,
)
from analytics.dawid_skene.initial import initial_error_counts
from analytics.dawid_skene.starts import best_run

__all__ = ["DawidSkeneResult", "check_param_tol", "fit", "log_likelihood", "require_fitted"]

ANON = "a count table's raters are anonymous (load the judgements instead)."


# ---------------------------------------------------------------------- result
def require_fitted(result: Any, call: str) -> None:
    """Refuse anything but a fitted model (annotations passed where the fit goes, say)."""
    require(
        result,
        isinstance(result, DawidSkeneResult),
        "a fitted model (what dawid_skene.fit or models.fit returns)",
        hint=f"Fit the annotations first: {call}(fit(ann)).",
    )


@dataclass(frozen=True, eq=False)
class DawidSkeneResult:
    """A fitted Dawid-Skene model (what :func:`fit` returns).

    ``labels`` are the model's labels (inferred), not the known gold labels a user may
    pass to :func:`fit`; the items clamped to those are ``gold_items``.

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
        True if the relative change of the log-likelihood fell below ``tol`` (and, with
        ``param_tol``, no parameter moved by ``param_tol`` or more in the last iteration).
    confusion_array : ndarray, shape (n_annotators, n_categories, n_categories)
        :math:`\\theta` as numbers: annotator x true x given.
    expected_counts : ndarray, same shape
        Posterior-weighted judgement counts behind :math:`\\theta` (before smoothing).
    votes : ndarray, shape (n_items, n_categories)
        Raw judgement counts per item and category (for majority-vote comparisons).
    judgements : pandas.Series
        Annotator -> number of judgements.
    gold_items : pandas.Index
        Items whose true label was clamped to a known gold label (``fit(..., gold=...)``);
        empty when no known gold was given.
    settings : dict
        The arguments of :func:`fit`.
    notes : tuple of str
        Plain-language warnings about the data (one annotator, one category, ...).
    parameter_change : float
        The largest absolute change of a prevalence or confusion entry in the last EM
        iteration (NaN when none was run): how far the parameters still moved.
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
    parameter_change: float = float("nan")

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

    @cached_property
    def annotator_accuracy(self) -> pd.Series:
        """Annotator -> the chance that one of their labels is right.

        Notes
        -----
        .. math::

            \\mathrm{acc}_j = \\sum_k \\pi_k \\theta_{jkk}

        the probability that annotator :math:`j`'s label on a random item equals its true
        category (Passonneau & Carpenter 2014, section 2.2; the ``accuracy`` column of
        :func:`~analytics.dawid_skene.annotator_table`).
        """
        diag = np.diagonal(self.confusion_array, axis1=1, axis2=2)
        return pd.Series(diag @ self.prevalence.to_numpy(), index=self.annotators, name="accuracy")

    @property
    def mean_accuracy(self) -> float:
        """The mean of :attr:`annotator_accuracy` over annotators (each counts once).

        NaN when there is no annotator.
        """
        acc = self.annotator_accuracy
        return float(acc.mean()) if len(acc) else float("nan")

    @property
    def final_log_likelihood(self) -> float:
        """The last entry of ``log_likelihood`` (NaN if none)."""
        return float(self.log_likelihood[-1]) if len(self.log_likelihood) else float("nan")

    def __repr__(self) -> str:
        state = "converged" if self.converged else "not converged"
        return (
            f"DawidSkeneResult({len(self.items)} items, {len(self.annotators)} annotators, "
            f"{len(self.categories)} categories; {self.n_iter} iterations, {state}, "
            f"log-likelihood {self.final_log_likelihood:.6g})"
        )


# ---------------------------------------------------------------------- fit
def _check_size(ann: Annotations) -> None:
    """Refuse, before EM allocates, a model over the memory budget: every annotator's
    K x K confusion matrix and every item's K posteriors, several copies each."""
    k, n_a = ann.n_categories, ann.n_annotators
    check_budget(
        estimate_bytes(n_a * k * k, ann.n_items * k, copies=8),
        f"the Dawid-Skene model of {n_a:,} annotators x {k:,} x {k:,} confusion matrices "
        f"and {ann.n_items:,} items x {k:,} posteriors",
        "Merge rare categories, or fit a subset of the annotators or items (Annotations.subset).",
    )


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
    initial_error: Any = None,
    initial_error_strategy: str = "addition",
    finish: str = "e_step",
    param_tol: float | None = None,
) -> DawidSkeneResult:
    """Fit the Dawid-Skene model by EM; return posteriors, prevalence and confusion matrices.

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        Single-label annotations (nominal, ordinal or numeric labels are all treated as
        unordered categories). Multi-label data are refused: fit one binary model per
        category instead (``ann.subset`` does not do this; see ``docs/dawid_skene.md``).
    max_iter : int, default 500
        Most EM iterations to run: a whole number >= 0 (0: the parameters of the first
        M-step only).
    tol : float, default 1e-7
        Stop when :math:`|\\ell_t - \\ell_{t-1}| / |\\ell_{t-1}| < tol` for the true
        penalised log-likelihood: a finite number >= 0; 0 never stops early (runs exactly
        ``max_iter`` iterations, as the benchmark does to time iterations).
    param_tol : float or None, default None
        Also require that no prevalence or confusion entry moved by ``param_tol`` or more
        in the last iteration (``result.parameter_change``), so that "converged" means
        the parameters stopped moving: a finite number >= 0, or None for the
        log-likelihood rule alone. On 10^7 judgements a relative change of 1e-7 is one
        nat spread over 10^6 items: it stopped EM while confusion entries still moved by
        1.6e-3, and ``param_tol=1e-4`` waited for them (``docs/scale.md``).
    smoothing : float, default 0.01
        Additive pseudo-count :math:`a = b` added to every confusion cell and every
        prevalence count (a MAP estimate): a finite number >= 0; 0 gives the unsmoothed
        maximum-likelihood fit.
    prior : None, float, array_like of shape (K, K) or pandas.DataFrame, default None
        Extra pseudo-counts for every annotator's confusion matrix, on top of
        ``smoothing``: one number (the same in every cell), or a K x K array or
        DataFrame (true x given), finite and >= 0. Nothing else is broadcast: a single
        row of K numbers is refused. A prior heavier on the diagonal, e.g.
        ``2 * np.eye(K)``, says "annotators are usually right" and keeps sparse
        annotators away from extreme estimates.
    init : {"majority", "soft", "random", "best"}, default "majority"
        ``"majority"``: start from majority vote, ties split equally;
        ``"soft"``: start from the share of votes per category;
        ``"random"``: random posteriors drawn with ``seed``;
        ``"best"``: run from majority, soft and 3 jittered vote starts (vote counts
        plus uniform noise), and with ``gold`` also from parameters estimated on the
        gold items alone; keep the fit with the highest penalised log-likelihood
        (EM finds a local optimum; on the public data sets the majority start is
        sometimes not the best one). ``"random"`` starts may converge to a solution
        with the categories permuted (the likelihood cannot tell them apart).
    gold : mapping or pandas.Series, default None
        **Known gold**: true labels the user already has for some items (item -> label,
        in the original label values; read a CSV with
        ``analytics.data.gold_labels.read_gold_labels``). Those items are clamped to
        their label throughout (semi-supervised EM) and listed in
        ``result.gold_items``. Items not in the data are not used (the notes say how
        many). Not to be confused with the model's own labels, ``result.labels``.
    seed : int, default 0
        Random seed (a whole number >= 0) for the random starts (``init="random"`` or
        ``"best"``, drawn in sorted name order, not row order); the fit is otherwise deterministic.
    initial_error : array_like, mapping or DataFrame, default None
        Confusion counts known before the fit (crowd-kit's ``initial_error``), read by
        :func:`~analytics.dawid_skene.initial.initial_error_counts`; they enter the first
        M-step only, added to its expected counts (``initial_error_strategy="addition"``)
        or instead of them (``"assign"``).
    initial_error_strategy : {"addition", "assign"}, default "addition"
        How ``initial_error`` enters the first M-step: added to the expected counts, or
        in place of them (every annotator's matrix must then be given), as crowd-kit's
        ``DawidSkene(initial_error_strategy=...)``.
    finish : {"e_step", "m_step"}, default "e_step"
        ``"e_step"``: posteriors of the final parameters. ``"m_step"``: the posteriors
        the final M-step was made from, as crowd-kit's ``DawidSkene(n_iter)`` reports
        (with ``max_iter=0``, ``init="soft"``, ``smoothing=0``: its ``n_iter=0`` state).

    Returns
    -------
    DawidSkeneResult
        Posteriors, the model's labels and their confidence, prevalence, confusion
        matrices and the log-likelihood trace.

    Raises
    ------
    AnnotationDataError
        No judgements, multi-label data, numbers on a scale
        (:func:`~analytics.data.refuse_scale`), gold labels that do not match, a bad setting
        (named, with its expected shape or range), or confusion matrices and posteriors
        (annotators x K² + items x K numbers) over the memory budget, checked before EM.
    ArgumentTypeError
        ``gold`` or ``initial_error`` of the wrong kind (a path or text, a table).

    Notes
    -----
    Maximises the penalised log-likelihood (log posterior density up to a constant)

    .. math::

        \\ell(\\pi, \\theta) = \\sum_i \\log \\sum_k \\pi_k \\prod_{n: ii[n]=i}
            \\theta_{jj[n], k, y[n]}
          + \\sum_k b_k \\log \\pi_k + \\sum_j \\sum_{k,k'} a_{kk'} \\log \\theta_{jkk'}

    with Dirichlet priors :math:`\\theta_{jk} \\sim \\mathrm{Dir}(a_k + 1)`,
    :math:`\\pi \\sim \\mathrm{Dir}(b + 1)`. The E-step is Bayes' rule per item
    (:func:`posterior`); the M-step sets :math:`\\theta_{jkk'} \\propto N_{jkk'} + a_{kk'}`
    and :math:`\\pi_k \\propto \\sum_i p(z_i = k) + b_k` from the expected counts
    :math:`N`. For an item with a clamped gold label :math:`g` the inner sum is replaced
    by the single term :math:`k = g`.

    References
    ----------
    Dawid, A. P. and Skene, A. M. (1979). Maximum likelihood estimation of observer
    error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28, eqs. 2.3-2.5.

    Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, section 2.2.

    Examples
    --------
    >>> import pandas as pd
    >>> from analytics.data import Annotations
    >>> rows = [("i1", "a", "x"), ("i1", "b", "x"), ("i2", "a", "y"), ("i2", "b", "y")]
    >>> ann = Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))
    >>> result = fit(ann)
    >>> result.labels.tolist()
    ['x', 'y']
    >>> bool(result.converged)
    True
    """
    ann = ann if is_lazy(ann) else as_annotations(ann)
    refuse_scale(ann)  # scores on a scale have no categories (every model's rule)
    if is_lazy(ann):
        if initial_error is not None or finish != "e_step":
            raise AnnotationDataError(
                "initial_error= and finish= (crowd-kit's step-by-step state) are not "
                f"computed on the {ann.engine} engine.",
                source=ann.name,
                hint="Leave them at their defaults, or load the data in memory (engine='memory').",
            )
        return engine_answer(
            "dawid_skene.fit",
            ann,
            max_iter=max_iter,
            tol=tol,
            param_tol=param_tol,
            smoothing=smoothing,
            prior=prior,
            init=init,
            gold=gold,
            seed=seed,
        )
    if ann.is_multilabel:
        raise AnnotationDataError(
            "the Dawid-Skene model needs one label per judgement, and this data set is "
            "multi-label (each judgement is a set of categories).",
            hint="Fit one yes/no model per category: analytics.dawid_skene.fit_per_category"
            "(ann), as the Gold labels page does for multi-label data.",
        )
    if ann.n_judgements == 0:
        raise AnnotationDataError("there are no judgements to fit a model to.")
    if anonymous_annotators(ann):
        raise AnnotationDataError("Dawid-Skene needs to know who gave which label: " + ANON)
    max_iter, tol, smoothing, init, seed = check_settings(
        max_iter=max_iter,
        tol=tol,
        smoothing=smoothing,
        init=init,
        seed=seed,
        init_methods=INIT_METHODS,
    )
    param_tol = check_param_tol(param_tol)
    k, n_a = ann.n_categories, ann.n_annotators
    _check_size(ann)
    alpha = pseudo_counts(smoothing, prior, k, ann.categories)
    beta = np.full(k, float(smoothing))
    clamped = gold_codes(ann, gold)
    c, ct = design_matrix(ann)
    votes = ann.count_matrix()
    engine = EMEngine(c, ct, n_a, k, alpha, beta, clamped)
    first = initial_error_counts(ann, initial_error, initial_error_strategy)
    check_choice(finish, "finish", ("e_step", "m_step"))
    run, start, n_runs, disagree = best_run(
        engine,
        votes,
        init,
        seed,
        max_iter,
        tol,
        names=(ann.items, ann.categories),
        initial_error=first,
        finish=finish,
        param_tol=param_tol,
    )
    q, pi, theta, counts = run.q, run.pi, run.theta, run.counts
    notes = data_notes(ann)
    unused = 0 if gold is None else len(gold) - int((clamped >= 0).sum())
    if unused > 0:  # not used, and said (the command line had said nothing)
        notes += (f"{unused:,} of the {len(gold):,} gold labels name items not in the data.",)
    if init == "best":
        notes += (*disagree, f"Best of {n_runs} starts: {start} (highest log-likelihood).")
    cats = ann.categories
    post, top = pd.DataFrame(q, index=ann.items, columns=cats), top_codes(q, cats)
    return DawidSkeneResult(
        prevalence=pd.Series(pi, index=cats, name="prevalence"),
        posteriors=post,
        labels=pd.Series(np.asarray(cats, dtype=object)[top], index=ann.items, name="label"),
        confidence=pd.Series(q.max(axis=1), index=ann.items, name="confidence"),
        log_likelihood=run.trace,
        n_iter=run.n_iter,
        converged=run.converged,
        confusion_array=theta,
        expected_counts=counts,
        votes=votes,
        judgements=ann.judgements_per_annotator(),
        gold_items=ann.items[clamped >= 0],
        settings={
            "max_iter": max_iter,
            "tol": tol,
            "param_tol": param_tol,
            "smoothing": smoothing,
            "prior": None if prior is None else np.asarray(prior).tolist(),
            "init": init,
            "n_gold": int((clamped >= 0).sum()),
            "seed": seed,
            "initial_error": first and initial_error_strategy,
            "finish": finish,
        },
        notes=notes,
        parameter_change=run.parameter_change,
    )


def check_param_tol(param_tol: Any) -> float | None:
    """``param_tol`` of :func:`fit`, checked: None, or a finite number >= 0.

    Examples
    --------
    >>> check_param_tol(1e-4)
    0.0001
    """
    if param_tol is None:
        return None
    hint = "Use e.g. 1e-4 (the largest change of a confusion entry), or None."
    value = check_finite(param_tol, "param_tol", hint=hint)
    if value < 0:
        raise AnnotationDataError(f"param_tol must be >= 0, got {param_tol!r}.", hint=hint)
    return value


def log_likelihood(
    ann: Annotations | pd.DataFrame,
    prevalence: ArrayLike,
    confusion: ArrayLike,
    *,
    smoothing: float = 0.0,
    prior: ArrayLike | pd.DataFrame | None = None,
) -> float:
    """The objective :func:`fit` maximises, evaluated at given parameters.

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        Single-label annotations.
    prevalence : array_like, shape (K,)
        One probability per category of ``ann`` (finite, non-negative, summing to 1
        within 1e-9).
    confusion : array_like, shape (J, K, K)
        Annotators x true x given, in the order of ``ann.annotators``; every row a
        probability vector like ``prevalence``.
    smoothing : float, default 0.0
        As in :func:`fit`; with 0 and no prior this is the plain log-likelihood, so fits
        made by other software can be compared on the same scale.
    prior : None, float, array_like of shape (K, K) or pandas.DataFrame, default None
        As in :func:`fit`.

    Returns
    -------
    float
        :math:`\\ell(\\pi, \\theta)` in nats.

    Raises
    ------
    AnnotationDataError
        Parameters of the wrong shape or not probability vectors, or a bad setting.

    Notes
    -----
    .. math::

        \\ell(\\pi, \\theta) = \\sum_i \\log \\sum_k \\pi_k \\prod_{n: ii[n]=i}
            \\theta_{jj[n], k, y[n]}
          + \\sum_k b_k \\log \\pi_k + \\sum_j \\sum_{k,k'} a_{kk'} \\log \\theta_{jkk'}

    with :math:`a = b =` ``smoothing`` (plus ``prior`` in :math:`a`).

    References
    ----------
    Dawid, A. P. and Skene, A. M. (1979). Maximum likelihood estimation of observer
    error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28, eq. 2.3.
    """
    ann = as_annotations(ann)
    k = ann.n_categories
    pi = check_prevalence(prevalence, k)
    theta = check_confusions(
        confusion, k, ann.n_annotators, list(ann.annotators), list(ann.categories)
    )
    alpha = pseudo_counts(smoothing, prior, k, ann.categories)  # checks smoothing too
    c, ct = design_matrix(ann)
    em = EMEngine(
        c,
        ct,
        ann.n_annotators,
        k,
        alpha,
        np.full(k, float(smoothing)),
        np.full(ann.n_items, -1, np.int64),
    )
    return em.e_step(pi, theta)[1]
