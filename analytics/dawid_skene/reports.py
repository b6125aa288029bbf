"""Tables that read a fitted Dawid-Skene model: annotators, prevalence, confidence, labels.

These are the comparisons Passonneau & Carpenter (2014) make: prevalence by the model vs
majority vote vs raw label frequency (their Fig. 4), the share of items whose posterior is
at least 0.99 (Fig. 5), per-annotator accuracy and bias (Fig. 6), model vs majority
labels (Fig. 7) and mutual information per annotator (Fig. 8).

Majority-vote ties follow one stated rule everywhere: an item whose top vote count is
shared by t categories gives each of them 1/t (the expected result of breaking the tie by
a fair coin). So a tied item counts 1/t "in agreement" when the model's label is among
the tied categories. Item-level tables (the model's labels, accuracy against known gold)
are in :mod:`analytics.dawid_skene.labels`.

References
----------
Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
*Transactions of the ACL* 2, 311-326.

Dawid, A. P. and Skene, A. M. (1979). Maximum likelihood estimation of observer
error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.validation import check_confusions, check_probability
from analytics.dawid_skene.em import majority_posteriors
from analytics.dawid_skene.information import entropy, mutual_information
from analytics.dawid_skene.model import DawidSkeneResult, require_fitted

__all__ = [
    "FitSummary",
    "annotator_information",
    "annotator_table",
    "confident_share",
    "fit_summary",
    "majority_agreement",
    "prevalence_comparison",
    "spammer_scores",
]

ALL = "all categories"


def _majority(result: DawidSkeneResult) -> np.ndarray:
    return majority_posteriors(result.votes)


def spammer_scores(confusion: Any) -> np.ndarray:
    """How alike an annotator's confusion rows are: 1 = spammer, 0 = rows disjoint.

    Parameters
    ----------
    confusion : array_like, shape (J, K, K)
        One confusion matrix per annotator (rows: true category, columns: given label),
        every row a probability vector (sums to 1).

    Returns
    -------
    ndarray of shape (J,)
        Scores in [0, 1]; NaN with fewer than two categories.

    Raises
    ------
    AnnotationDataError
        ``confusion`` is not J x K x K, or a row holds a negative or non-finite number or
        does not sum to 1 (:func:`~analytics._core.validation.check_confusions`).

    Notes
    -----
    .. math::

        S_j = 1 - \\binom{K}{2}^{-1} \\sum_{k < m}
              \\tfrac12 \\lVert \\theta_{jk} - \\theta_{jm} \\rVert_1

    one minus the mean total-variation distance between pairs of rows. Identical rows
    (the label does not depend on the true category: Passonneau & Carpenter 2014,
    section 2.2, "spam annotators") give 1; a perfect annotator (or a consistent
    relabeller) gives 0. Raykar & Yu (2012) score the same idea, distance of the
    confusion matrix from one with identical rows, with squared differences instead;
    this total-variation form is Concord's own scale, bounded by 1 for any K.

    The sum over row pairs is taken per column from the sorted column,
    :math:`\\sum_{k<m} |x_k - x_m| = \\sum_i (2i - K + 1)\\, x_{(i)}`, so the cost is
    :math:`K^2 \\log K` per annotator (not :math:`K^3`) and the memory one copy of the
    confusion matrices.

    References
    ----------
    Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, section 2.2 (spam annotators: identical
    confusion rows).

    Raykar, V. C. and Yu, S. (2012). Eliminating spammers and ranking annotators for
    crowdsourced labeling tasks. *Journal of Machine Learning Research* 13, 491-518.

    Examples
    --------
    >>> spammer_scores([[[0.5, 0.5], [0.5, 0.5]], [[1.0, 0.0], [0.0, 1.0]]]).tolist()
    [1.0, 0.0]
    """
    try:
        shape = np.shape(confusion)
    except ValueError:  # ragged nested lists: check_confusions says what it must be
        shape = ()
    theta = check_confusions(confusion, int(shape[-1]) if len(shape) == 3 else 0)
    k = theta.shape[-1]
    if k < 2:
        return np.full(theta.shape[0], np.nan)
    # sum over row pairs k < m of |x_k - x_m| = sum_i (2i - K + 1) x_(i) over the sorted
    # column: K^2 log K per annotator and one sorted copy, not K^3 differences
    ranks = 2.0 * np.arange(k) - (k - 1)
    spread = np.einsum("jkc,k->j", np.sort(theta, axis=1), ranks)
    return 1.0 - 0.5 * spread / (k * (k - 1) / 2.0)


def annotator_table(result: DawidSkeneResult) -> pd.DataFrame:
    """One row per annotator: judgements, accuracy, bias, information, spammer score.

    Parameters
    ----------
    result : DawidSkeneResult
        A fitted model.

    Returns
    -------
    pandas.DataFrame
        Indexed by annotator, with the columns below.

    Notes
    -----
    The columns:

    judgements
        How many labels the annotator gave.
    accuracy
        :math:`\\sum_k \\pi_k \\theta_{jkk}`: the probability that a label from this
        annotator on a random item is right.
    accuracy on <k>
        :math:`\\theta_{jkk}`: how often they give label k to items that are truly k.
    bias toward <k>
        :math:`\\sum_m \\pi_m \\theta_{jmk} - \\pi_k`: how much more (positive) or less
        (negative) often they use label k than it is true.
    mutual information (bits)
        :func:`analytics.dawid_skene.information.mutual_information` of their confusion matrix.
    spammer score
        :func:`spammer_scores`: 1 = labels ignore the item, 0 = labels fully informative.
    note
        Why a value is missing or shaky.

    This is the paper's per-annotator reading of the fitted confusion matrices
    (Passonneau & Carpenter 2014, section 2.2 and Fig. 6).

    References
    ----------
    Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, section 2.2 and Fig. 6 (accuracy and bias per
    annotator); section 2.2.2 (mutual information).

    Dawid, A. P. and Skene, A. M. (1979). Maximum likelihood estimation of observer
    error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28, section 2
    (the confusion matrices :math:`\\theta_j` and the prevalence :math:`\\pi`).
    """
    require_fitted(result, "annotator_table")
    theta = result.confusion_array
    pi = result.prevalence.to_numpy()
    cats = list(result.categories)
    out = pd.DataFrame(index=result.annotators)
    out.index.name = "annotator"
    out["judgements"] = result.judgements.to_numpy()
    out["accuracy"] = result.annotator_accuracy.to_numpy()
    diag = np.diagonal(theta, axis1=1, axis2=2)
    use = np.einsum("k,jkm->jm", pi, theta) - pi
    per_category = pd.DataFrame(  # one block, not 2K column insertions (many categories)
        np.hstack([diag, use]),
        index=out.index,
        columns=[f"accuracy on {c}" for c in cats] + [f"bias toward {c}" for c in cats],
    )
    out = pd.concat([out, per_category], axis=1)
    out["mutual information (bits)"] = mutual_information(theta, pi) if len(theta) else []
    out["spammer score"] = spammer_scores(theta) if len(theta) else []
    note = np.full(len(out), "", dtype=object)
    if len(cats) < 2:
        note[:] = "one category: nothing to learn from a label"
    else:
        few = out["judgements"].to_numpy() < 2 * len(cats)
        note[few] = "few judgements: estimates lean on the smoothing"
    out["note"] = note
    return out


def annotator_information(result: DawidSkeneResult) -> pd.DataFrame:
    """Mutual information of every annotator, most informative first (paper's Fig. 8).

    Parameters
    ----------
    result : DawidSkeneResult
        A fitted model.

    Returns
    -------
    pandas.DataFrame
        Indexed by annotator; columns ``judgements``, ``mutual information (bits)`` and
        ``share of maximum``.

    Notes
    -----
    ``share of maximum`` is :math:`I[Z;Y] / H[Z]`: 1 means one label from the annotator
    settles the category (:func:`~analytics.dawid_skene.mutual_information`; Passonneau
    & Carpenter 2014, section 2.2.2).

    References
    ----------
    Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326.

    Cover, T. M. and Thomas, J. A. (1991). *Elements of Information Theory*. Wiley,
    chapter 2.
    """
    require_fitted(result, "annotator_information")
    pi = result.prevalence.to_numpy()
    mi = mutual_information(result.confusion_array, pi) if len(result.annotators) else []
    h = entropy(pi)
    out = pd.DataFrame(
        {
            "judgements": result.judgements.to_numpy(),
            "mutual information (bits)": mi,
            "share of maximum": np.asarray(mi, dtype=float) / h if h > 0 else np.nan,
        },
        index=result.annotators,
    )
    out.index.name = "annotator"
    return out.sort_values("mutual information (bits)", ascending=False, kind="stable")


def prevalence_comparison(result: DawidSkeneResult) -> pd.DataFrame:
    """Prevalence of each category three ways (paper's Fig. 4).

    Parameters
    ----------
    result : DawidSkeneResult
        A fitted model.

    Returns
    -------
    pandas.DataFrame
        Indexed by category; columns ``model``, ``majority vote``, ``raw frequency``.

    Notes
    -----
    ``model``: :math:`\\hat\\pi`; ``majority vote``: share of items whose majority label is
    the category (ties split); ``raw frequency``: share of all judgements with that label.
    Items without judgements are left out of the majority-vote share.

    References
    ----------
    Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, Fig. 4.
    """
    require_fitted(result, "prevalence_comparison")
    judged = result.votes.sum(axis=1) > 0
    mv = _majority(result)[judged]
    raw = result.votes.sum(axis=0).astype(float)
    out = pd.DataFrame(
        {
            "model": result.prevalence.to_numpy(),
            "majority vote": mv.mean(axis=0) if len(mv) else np.nan,
            "raw frequency": raw / raw.sum() if raw.sum() > 0 else np.nan,
        },
        index=result.categories,
    )
    out.index.name = "category"
    return out


def confident_share(result: DawidSkeneResult, threshold: float = 0.99) -> pd.DataFrame:
    """How many items the model labels with posterior >= ``threshold`` (paper's Fig. 5).

    Parameters
    ----------
    result : DawidSkeneResult
        A fitted model.
    threshold : float, default 0.99
        The top posterior an item needs to count as confident.

    Returns
    -------
    pandas.DataFrame
        One row per category (the model's label, as text so it can sit beside the last
        row) and a last row for all categories. Columns: ``items`` (with this model
        label), ``confident items`` (posterior >= threshold), ``share of all items`` and
        ``share of this label``.

    Raises
    ------
    AnnotationDataError
        ``threshold`` is not a number between 0 and 1.
    ArgumentTypeError
        ``result`` is not a fitted model (annotations, say).

    References
    ----------
    Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, Fig. 5.
    """
    require_fitted(result, "confident_share")
    threshold = check_probability(threshold, "threshold")
    k = len(result.categories)
    codes = result.categories.get_indexer(result.labels) if k else np.zeros(0, np.int64)
    sure = result.confidence.to_numpy() >= threshold
    items = np.bincount(codes, minlength=k)
    confident = np.bincount(codes[sure], minlength=k)
    n = len(result.items)
    idx = pd.Index([*map(str, result.categories), ALL], dtype=object, name="category")
    items_all = np.append(items, n)
    conf_all = np.append(confident, int(sure.sum()))
    with np.errstate(invalid="ignore", divide="ignore"):
        return pd.DataFrame(
            {
                "items": items_all,
                "confident items": conf_all,
                "share of all items": conf_all / n if n else np.nan,
                "share of this label": np.where(items_all > 0, conf_all / items_all, np.nan),
            },
            index=idx,
        )


def majority_agreement(result: DawidSkeneResult) -> pd.DataFrame:
    """How often the model's label equals the majority-vote label (paper's Fig. 7).

    Parameters
    ----------
    result : DawidSkeneResult
        A fitted model.

    Returns
    -------
    pandas.DataFrame
        One row per model label and one for all categories; columns ``items``,
        ``agree`` (fractional with ties) and ``share``.

    Notes
    -----
    A tied majority counts 1/t when the model's label is among the t tied categories.
    Items without judgements are left out.

    References
    ----------
    Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, Fig. 7.
    """
    require_fitted(result, "majority_agreement")
    judged = result.votes.sum(axis=1) > 0
    k = len(result.categories)
    model = result.categories.get_indexer(result.labels[judged]) if k else np.zeros(0, np.int64)
    mv = _majority(result)[judged]
    credit = mv[np.arange(len(model)), model] if len(model) else np.zeros(0)
    items = np.append(np.bincount(model, minlength=k), len(model))
    agree = np.append(np.bincount(model, weights=credit, minlength=k), credit.sum())
    idx = pd.Index([*map(str, result.categories), ALL], dtype=object, name="model label")
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(items > 0, agree / items, np.nan)
    return pd.DataFrame({"items": items, "agree": agree, "share": share}, index=idx)


@dataclass(frozen=True)
class FitSummary:
    """The headline numbers of a fit, as the page, the report and the CLI show them.

    Attributes
    ----------
    n_items : int
        Items in the data.
    threshold : float
        The posterior a label needs to count as confident.
    confident_share : float
        Share of items whose top posterior is at least ``threshold`` (NaN without items).
    majority_agreement : float
        Share of judged items whose model label equals the majority vote (ties count
        1/t), as in :func:`majority_agreement`.
    mean_accuracy : float
        :attr:`DawidSkeneResult.mean_accuracy`: the mean over annotators of
        :math:`\\sum_k \\pi_k \\theta_{jkk}`.
    """

    n_items: int
    threshold: float
    confident_share: float
    majority_agreement: float
    mean_accuracy: float

    @property
    def majority_disagreement(self) -> float:
        """Share of judged items where the model overturns the majority vote."""
        return 1.0 - self.majority_agreement


def fit_summary(result: DawidSkeneResult, threshold: float = 0.99) -> FitSummary:
    """The headline numbers of a fitted model.

    Parameters
    ----------
    result : DawidSkeneResult
        A fitted model.
    threshold : float, default 0.99
        The posterior a label needs to count as confident (Passonneau & Carpenter 2014,
        Fig. 5, use 0.99).

    Returns
    -------
    FitSummary

    Raises
    ------
    AnnotationDataError
        ``threshold`` is not a number between 0 and 1.
    ArgumentTypeError
        ``result`` is not a fitted model (annotations, say).

    Notes
    -----
    ``confident_share`` is the last row of :func:`confident_share`: the share of items
    with :math:`\\max_k p(z_i = k \\mid y) \\ge` ``threshold``, the posterior of Dawid &
    Skene (1979), eq. 2.5. ``majority_agreement`` is the last row of
    :func:`majority_agreement`. ``mean_accuracy`` is the mean over annotators of
    :math:`\\sum_k \\pi_k \\theta_{jkk}`.

    References
    ----------
    Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, Fig. 5 (share of items with posterior at
    least 0.99) and Fig. 7 (model vs majority-vote labels).

    Dawid, A. P. and Skene, A. M. (1979). Maximum likelihood estimation of observer
    error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28, eq. 2.5.
    """
    require_fitted(result, "fit_summary")
    threshold = check_probability(threshold, "threshold")
    share = confident_share(result, threshold)
    agree = majority_agreement(result)
    return FitSummary(
        n_items=len(result.items),
        threshold=float(threshold),
        confident_share=float(share.iloc[-1]["share of all items"]),
        majority_agreement=float(agree.iloc[-1]["share"]),
        mean_accuracy=result.mean_accuracy,
    )
