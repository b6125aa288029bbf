"""The one result type of every annotator model, and the coded data the models share.

Every model of :mod:`analytics.models` returns a :class:`ModelResult`: a
:class:`~analytics.dawid_skene.DawidSkeneResult` (same fields, same shapes: ``posteriors``
items x categories, ``confusion_array`` annotators x true x given, ``prevalence``,
``log_likelihood`` trace, ...) plus the model's name and its own parameters. Code written
for a Dawid-Skene fit (the reports, the heatmaps, ``analytics.next_labels``) therefore
works on every model.

References
----------
Dawid, A. P. and Skene, A. M. (1979). Maximum likelihood estimation of observer
error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from scipy import sparse

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_count
from analytics._core.ids import top_codes
from analytics.data import Annotations, as_annotations, refuse_scale
from analytics.dawid_skene import DawidSkeneResult, design_matrix, gold_codes, gold_series

__all__ = [
    "Coded",
    "ModelResult",
    "check_gold",
    "code",
    "expected_counts",
    "make_result",
]


@dataclass(frozen=True, eq=False)
class ModelResult(DawidSkeneResult):
    """A fitted annotator model: a :class:`~analytics.dawid_skene.DawidSkeneResult` plus
    the model's name and its own parameters.

    Attributes
    ----------
    model : str
        The model's name (one of :data:`analytics.models.MODELS`).
    parameters : dict
        Parameters that are not confusion matrices: e.g. GLAD's annotator ability
        ``alpha`` and item easiness ``beta``, MACE's ``trust`` and ``spam``
        distributions, the hierarchical model's population Dirichlet ``population``.
        Arrays are in the order of ``annotators``/``items``/``categories``.

    Notes
    -----
    ``confusion_array[j]`` is always annotator j's K x K matrix of
    :math:`p(\\text{given} \\mid \\text{true})`: for a model with per-item parameters
    (GLAD) it is the average over the items (see that model's docstring).
    """

    model: str = ""
    parameters: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        state = "converged" if self.converged else "not converged"
        return (
            f"ModelResult({self.model}: {len(self.items)} items, {len(self.annotators)} "
            f"annotators, {len(self.categories)} categories; {self.n_iter} iterations, "
            f"{state}, log-likelihood {self.final_log_likelihood:.6g})"
        )


@dataclass(frozen=True, eq=False)
class Coded:
    """Single-label annotations coded once for every model.

    Attributes
    ----------
    ann : Annotations
    ii, jj, yy : ndarray of int64, shape (n_judgements,)
        Item, annotator and label code of every judgement.
    c, ct : scipy.sparse matrices
        Items x (annotator, label) counts and its transpose
        (:func:`analytics.dawid_skene.design_matrix`).
    votes : ndarray, shape (n_items, K)
        Judgement counts per item and category.
    gold : ndarray of int64, shape (n_items,)
        The clamped category of each item, -1 where none.
    """

    ann: Annotations
    ii: np.ndarray
    jj: np.ndarray
    yy: np.ndarray
    c: sparse.csr_matrix
    ct: sparse.csc_matrix
    votes: np.ndarray
    gold: np.ndarray

    @property
    def n_items(self) -> int:
        return self.ann.n_items

    @property
    def n_annotators(self) -> int:
        return self.ann.n_annotators

    @property
    def k(self) -> int:
        return self.ann.n_categories


def code(
    ann: Annotations | pd.DataFrame, gold: Mapping[Any, Any] | pd.Series | None = None
) -> Coded:
    """Check and code annotations for the models.

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        Single-label annotations.
    gold : mapping or pandas.Series, default None
        Known gold (item -> label) to clamp.

    Returns
    -------
    Coded

    Raises
    ------
    AnnotationDataError
        Multi-label data, no judgements, numbers on a scale (:func:`refuse_scale`), or
        gold labels that do not match the data (:func:`check_gold`).
    """
    ann = as_annotations(ann)
    if ann.is_multilabel:
        raise AnnotationDataError(
            "the annotator models need one label per judgement, and this data set is "
            "multi-label (each judgement is a set of categories).",
            hint="Fit one yes/no model per category: analytics.dawid_skene.fit_per_category"
            "(ann), as the Gold labels page does for multi-label data.",
        )
    if ann.n_judgements == 0:
        raise AnnotationDataError("there are no judgements to fit a model to.")
    refuse_scale(ann)
    check_gold(ann, gold)
    c, ct = design_matrix(ann)
    return Coded(
        ann=ann,
        ii=ann.item_codes,
        jj=ann.annotator_codes,
        yy=ann.label_codes,
        c=c,
        ct=ct,
        votes=ann.count_matrix(),
        gold=gold_codes(ann, gold),
    )


def check_gold(ann: Annotations, gold: Mapping[Any, Any] | pd.Series | None) -> pd.Series | None:
    """Known gold labels checked against the data: item -> category, items as in the data.

    Parameters
    ----------
    ann : Annotations
    gold : mapping, pandas.Series or None
        Item -> true label (original values or their text). Missing labels are dropped.

    Returns
    -------
    pandas.Series or None
        Indexed by the data's item names, values the data's categories; None for None.

    Raises
    ------
    AnnotationDataError
        An item listed twice, items that are not in the data (the message names up to
        five), or labels that are not categories of the data.
    ArgumentTypeError
        A path, a DataFrame or a list instead of a Series or mapping
        (:func:`analytics.dawid_skene.gold_series`).
    """
    g = gold_series(gold)  # the one check of gold=, shared with analytics.dawid_skene
    if g is None:
        return None
    rows = ann.items.get_indexer(pd.Index(g.index, dtype=object))
    if (rows < 0).any():
        text = ann.items.astype(str).get_indexer(pd.Index([str(k).strip() for k in g.index]))
        rows = np.where(rows < 0, text, rows)
    missing = g.index[rows < 0]
    if len(missing):
        shown = ", ".join(repr(m) for m in list(missing[:5]))
        raise AnnotationDataError(
            f"{format_count(len(missing), 'gold item')} {'is' if len(missing) == 1 else 'are'} "
            f"not in the data set: {shown}.",
            hint=f"Data items look like {list(ann.items[:3])}; remove the others from the "
            "gold file or load the data set they belong to.",
        )
    codes = gold_codes(ann, g)  # refuses labels that are not categories
    out = pd.Series(np.asarray(ann.categories, dtype=object)[codes[rows]], index=ann.items[rows])
    return out.rename("gold")


def expected_counts(coded: Coded, q: np.ndarray) -> np.ndarray:
    """Posterior-weighted judgement counts, annotator x true x given."""
    j, k = coded.n_annotators, coded.k
    return np.asarray(coded.ct @ q).reshape(j, k, k).transpose(0, 2, 1)


def make_result(
    coded: Coded,
    model: str,
    q: np.ndarray,
    pi: np.ndarray,
    theta: np.ndarray,
    trace: np.ndarray,
    n_iter: int,
    converged: bool,
    *,
    settings: dict[str, Any],
    notes: tuple[str, ...] = (),
    parameters: dict[str, Any] | None = None,
) -> ModelResult:
    """Wrap a model's arrays into a :class:`ModelResult` (labels, confidence, names)."""
    ann = coded.ann
    cats = ann.categories
    top = top_codes(q, cats)  # a tie: the first name, not the first seen
    if not converged:
        notes = (
            *notes,
            f"The {model} fit did not converge in {n_iter} iterations; its labels may "
            "still change with more iterations (raise max_iter).",
        )
    return ModelResult(
        prevalence=pd.Series(pi, index=cats, name="prevalence"),
        posteriors=pd.DataFrame(q, index=ann.items, columns=cats),
        labels=pd.Series(np.asarray(cats, dtype=object)[top], index=ann.items, name="label"),
        confidence=pd.Series(q.max(axis=1), index=ann.items, name="confidence"),
        log_likelihood=np.asarray(trace, float),
        n_iter=int(n_iter),
        converged=bool(converged),
        confusion_array=theta,
        expected_counts=expected_counts(coded, q),
        votes=coded.votes,
        judgements=ann.judgements_per_annotator(),
        gold_items=ann.items[coded.gold >= 0],
        settings={**settings, "n_gold": int((coded.gold >= 0).sum())},
        notes=tuple(notes),
        model=model,
        parameters=dict(parameters or {}),
    )
