"""Tables that read a fitted Dawid-Skene model: annotators, prevalence, confidence, gold.

These are the comparisons Passonneau & Carpenter (2014) make: prevalence by the model vs
majority vote vs raw label frequency (their Fig. 4), the share of items whose posterior is
at least 0.99 (Fig. 5), per-annotator accuracy and bias (Fig. 6), model vs majority
labels (Fig. 7) and mutual information per annotator (Fig. 8).

Majority-vote ties follow one stated rule everywhere: an item whose top vote count is
shared by t categories gives each of them 1/t (the expected result of breaking the tie by
a fair coin). So a tied item counts 1/t "correct" when the gold label is among the tied
categories, and 1/t "in agreement" when the model's label is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.data import Annotations, as_annotations
from analytics.dawid_skene.information import entropy, mutual_information
from analytics.dawid_skene.model import DawidSkeneResult, category_codes, majority_posteriors

__all__ = [
    "annotator_information",
    "annotator_table",
    "confident_share",
    "gold_accuracy",
    "gold_labels_table",
    "item_judgements",
    "majority_agreement",
    "prevalence_comparison",
    "spammer_scores",
]

ALL = "all categories"


def _majority(result: DawidSkeneResult) -> np.ndarray:
    return majority_posteriors(result.votes)


def _expected_accuracy(result: DawidSkeneResult) -> np.ndarray:
    """Per annotator: sum_k pi_k theta_jkk, the chance one of their labels is right."""
    diag = np.diagonal(result.confusion_array, axis1=1, axis2=2)
    return diag @ result.prevalence.to_numpy()


def spammer_scores(confusion: np.ndarray) -> np.ndarray:
    """How alike an annotator's confusion rows are: 1 = spammer, 0 = rows disjoint.

    .. math::

        S_j = 1 - \\binom{K}{2}^{-1} \\sum_{k < m}
              \\tfrac12 \\lVert \\theta_{jk} - \\theta_{jm} \\rVert_1

    one minus the mean total-variation distance between pairs of rows. Identical rows
    (the label does not depend on the true category, Passonneau & Carpenter 2014, "Spam
    annotators") give 1; a perfect annotator (or a consistent relabeller) gives 0.
    NaN with fewer than two categories.
    """
    theta = np.asarray(confusion, dtype=float)
    k = theta.shape[-1]
    if k < 2:
        return np.full(theta.shape[0], np.nan)
    a, b = np.triu_indices(k, 1)
    tv = 0.5 * np.abs(theta[:, a, :] - theta[:, b, :]).sum(axis=2)
    return 1.0 - tv.mean(axis=1)


def annotator_table(result: DawidSkeneResult) -> pd.DataFrame:
    """One row per annotator: judgements, accuracy, bias, information, spammer score.

    Columns
    -------
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
    """
    theta = result.confusion_array
    pi = result.prevalence.to_numpy()
    cats = list(result.categories)
    out = pd.DataFrame(index=result.annotators)
    out.index.name = "annotator"
    out["judgements"] = result.judgements.to_numpy()
    out["accuracy"] = _expected_accuracy(result)
    diag = np.diagonal(theta, axis1=1, axis2=2)
    for i, c in enumerate(cats):
        out[f"accuracy on {c}"] = diag[:, i]
    use = np.einsum("k,jkm->jm", pi, theta) - pi
    for i, c in enumerate(cats):
        out[f"bias toward {c}"] = use[:, i]
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

    Columns: ``judgements``, ``mutual information (bits)``, and ``share of maximum``
    (:math:`I[Z;Y] / H[Z]`: 1 means one label from them settles the category).
    """
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

    ``model``: :math:`\\hat\\pi`; ``majority vote``: share of items whose majority label is
    the category (ties split); ``raw frequency``: share of all judgements with that label.
    Items without judgements are left out of the majority-vote share.
    """
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

    One row per category (the model's label, as text so it can sit beside the last
    row) and a last row for all categories. Columns: ``items`` (with this model label), ``confident items`` (posterior >=
    threshold), ``share of all items`` and ``share of this label``.
    """
    k = len(result.categories)
    codes = result.posteriors.to_numpy().argmax(axis=1) if k else np.zeros(0, np.int64)
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

    One row per model label and one for all categories; a tied majority counts 1/t when
    the model's label is among the t tied categories. Items without judgements are left
    out. Columns: ``items``, ``agree`` (fractional with ties), ``share``.
    """
    judged = result.votes.sum(axis=1) > 0
    k = len(result.categories)
    q = result.posteriors.to_numpy()[judged]
    model = q.argmax(axis=1) if k else np.zeros(0, np.int64)
    mv = _majority(result)[judged]
    credit = mv[np.arange(len(model)), model] if len(model) else np.zeros(0)
    items = np.append(np.bincount(model, minlength=k), len(model))
    agree = np.append(np.bincount(model, weights=credit, minlength=k), credit.sum())
    idx = pd.Index([*map(str, result.categories), ALL], dtype=object, name="model label")
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(items > 0, agree / items, np.nan)
    return pd.DataFrame({"items": items, "agree": agree, "share": share}, index=idx)


def _gold_codes_for(result: DawidSkeneResult, gold: Mapping[Any, Any] | pd.Series) -> np.ndarray:
    g = gold if isinstance(gold, pd.Series) else pd.Series(gold)
    keys = pd.Index([str(k).strip() if not isinstance(k, str) else k for k in g.index])
    rows = result.items.get_indexer(keys)
    out = np.full(len(result.items), -1, np.int64)
    ok = rows >= 0
    codes = category_codes(result.categories, g.to_numpy()[ok])
    out[rows[ok]] = codes  # -1 stays for gold labels outside the categories
    return out


def gold_accuracy(
    result: DawidSkeneResult,
    gold: Mapping[Any, Any] | pd.Series,
    *,
    exclude_clamped: bool = True,
) -> pd.DataFrame:
    """Accuracy of majority vote and of the model against known gold labels.

    Evaluated over items that have a gold label and at least one judgement. Majority-vote
    ties score 1/t when the gold label is among the t tied categories. A gold label that
    is not among the categories counts as wrong for both. Items whose label was clamped
    during fitting (``fit(..., gold=...)``) are left out unless ``exclude_clamped`` is
    False, since the model was told their answer.

    Returns
    -------
    DataFrame indexed by method (``majority vote``, ``Dawid-Skene``) with columns
    ``items``, ``correct``, ``accuracy`` and ``tied items`` (majority vote only).
    """
    codes = _gold_codes_for(result, gold)
    use = _in_gold_index(result, gold) & (result.votes.sum(axis=1) > 0)
    if exclude_clamped and len(result.gold_items):
        use &= ~result.items.isin(result.gold_items)
    n = int(use.sum())
    if n == 0:
        raise AnnotationDataError(
            "no item has both a gold label and a judgement (after leaving out clamped items).",
            hint="Check that the gold file uses the same item ids as the labels.",
        )
    g = codes[use]
    valid = g >= 0
    mv = _majority(result)[use]
    mv_correct = float(mv[np.flatnonzero(valid), g[valid]].sum())
    tied = int(((mv > 0).sum(axis=1) > 1).sum())
    model = result.posteriors.to_numpy()[use].argmax(axis=1)
    ds_correct = float((model[valid] == g[valid]).sum())
    out = pd.DataFrame(
        {
            "items": [n, n],
            "correct": [mv_correct, ds_correct],
            "accuracy": [mv_correct / n, ds_correct / n],
            "tied items": [tied, 0],
        },
        index=pd.Index(["majority vote", "Dawid-Skene"], name="method"),
    )
    return out


def _in_gold_index(result: DawidSkeneResult, gold: Mapping[Any, Any] | pd.Series) -> np.ndarray:
    g = gold if isinstance(gold, pd.Series) else pd.Series(gold)
    keys = pd.Index([str(k).strip() if not isinstance(k, str) else k for k in g.index])
    return result.items.isin(keys)


def gold_labels_table(result: DawidSkeneResult) -> pd.DataFrame:
    """The download: one row per item with the model's label and how sure it is.

    Columns: ``item``, ``label`` (original values), ``confidence``, ``judgements``,
    ``majority label`` (first tied category when tied), ``majority tied`` (how many
    categories share the top count; 1 = no tie), ``agrees with majority``, ``clamped``
    (gold given to the fit) and ``p(<category>)`` for every category.
    """
    cats = np.asarray(result.categories, dtype=object)
    votes = result.votes
    judged = votes.sum(axis=1)
    top = votes.max(axis=1) if votes.shape[1] else np.zeros(len(votes))
    n_top = (votes == top[:, None]).sum(axis=1)
    mv_code = votes.argmax(axis=1) if votes.shape[1] else np.zeros(len(votes), np.int64)
    model_code = result.posteriors.to_numpy().argmax(axis=1)
    in_tie = votes[np.arange(len(votes)), model_code] == top
    out = pd.DataFrame(
        {
            "item": np.asarray(result.items, dtype=object),
            "label": result.labels.to_numpy(),
            "confidence": result.confidence.to_numpy(),
            "judgements": judged,
            "majority label": np.where(judged > 0, cats[mv_code] if len(cats) else None, None),
            "majority tied": np.where(judged > 0, n_top, 0),
            "agrees with majority": (judged > 0) & in_tie,
            "clamped": result.items.isin(result.gold_items),
        }
    )
    for i, c in enumerate(cats):
        out[f"p({c})"] = result.posteriors.to_numpy()[:, i]
    return out


def item_judgements(
    ann: Annotations | pd.DataFrame, result: DawidSkeneResult, item: Any
) -> pd.DataFrame:
    """Every judgement of one item, with what the model thinks of its annotator.

    Columns: ``annotator``, ``label``, ``annotator accuracy`` (see
    :func:`annotator_table`), ``p(label | model label)`` (how often this annotator gives
    this label to items of the model's category) and ``mutual information (bits)``.
    """
    ann = as_annotations(ann)
    row = ann.items.get_indexer([item])[0]
    if row < 0:
        row = ann.items.get_indexer([str(item)])[0]
    if row < 0:
        raise AnnotationDataError(f"unknown item {item!r}.")
    sel = np.flatnonzero(ann.item_codes == row)
    a = ann.annotator_codes[sel]
    y = ann.label_codes[sel]
    res_rows = result.annotators.get_indexer(ann.annotators[a])
    res_item = result.items.get_indexer([ann.items[row]])[0]
    if (res_rows < 0).any() or res_item < 0:
        raise AnnotationDataError("this result was fitted on another data set.")
    z = int(result.posteriors.to_numpy()[res_item].argmax())
    theta = result.confusion_array
    pi = result.prevalence.to_numpy()
    acc = _expected_accuracy(result)[res_rows]
    mi = mutual_information(theta[res_rows], pi) if len(res_rows) else np.zeros(0)
    return pd.DataFrame(
        {
            "annotator": np.asarray(ann.annotators, dtype=object)[a],
            "label": np.asarray(ann.categories, dtype=object)[y],
            "annotator accuracy": acc,
            "p(label | model label)": theta[res_rows, z, y],
            "mutual information (bits)": mi,
        }
    )
