"""Item by item: the model's labels, the uncertain ones, and accuracy against known gold.

Two "golds" meet here and are kept apart by name:

- :func:`model_labels_table`: the **model's labels** (inferred by Dawid-Skene, with their
  posterior): the app's download of the model's most likely labels, with confidence;
- :func:`gold_accuracy`: majority vote and the model scored against the user's **known
  gold** labels (an expert's labels, or a sample's true labels).

Majority-vote ties count 1/t when the gold label is among the t tied categories (the
expected result of breaking the tie by a fair coin).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_count
from analytics._core.ids import top_codes
from analytics._core.validation import check_number
from analytics.data import Annotations, as_annotations
from analytics.dawid_skene.em import category_codes, majority_posteriors
from analytics.dawid_skene.gold import gold_series
from analytics.dawid_skene.information import mutual_information
from analytics.dawid_skene.model import DawidSkeneResult, require_fitted

__all__ = ["gold_accuracy", "item_judgements", "model_labels_table", "uncertain_items"]


def _gold_codes_for(result: DawidSkeneResult, g: pd.Series) -> np.ndarray:
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
    """Accuracy of majority vote and of the model against the user's known gold labels.

    "Known gold" is a reference the user already has (an expert's labels, a sample's
    true labels), not the model's labels (:func:`model_labels_table`).

    Parameters
    ----------
    result : DawidSkeneResult
        A fitted model.
    gold : mapping or pandas.Series
        Item -> known true label, in the original label values (text is matched to the
        categories as in :func:`~analytics.dawid_skene.category_codes`). Items not in
        the data are ignored.
    exclude_clamped : bool, default True
        Leave out items whose label was clamped during fitting (``fit(..., gold=...)``),
        since the model was told their answer.

    Returns
    -------
    pandas.DataFrame
        Indexed by method (``majority vote``, then the model: ``Dawid-Skene``, or the
        ``model`` of a :func:`analytics.models.fit` result) with columns ``items``,
        ``correct``, ``accuracy`` and ``tied items`` (majority vote only).
        ``attrs["notes"]`` says how many gold labels are not among the categories.

    Raises
    ------
    AnnotationDataError
        No item has both a known gold label and a judgement, no gold label is among the
        categories, or an item is listed twice.
    ArgumentTypeError
        ``result`` is not a fit, or ``gold`` is a path, a table or a list
        (:func:`~analytics.dawid_skene.gold_series`).

    Notes
    -----
    Evaluated over items that have a gold label and at least one judgement:
    :math:`\\mathrm{accuracy} = \\mathrm{correct} / \\mathrm{items}`. Majority-vote ties
    score 1/t when the gold label is among the t tied categories. A gold label that is
    not among the categories (an expert's category no annotator used) counts as wrong
    for both; when no gold label is among them, the values do not match (``"yes"``
    against ``1``) and that is an error.

    References
    ----------
    Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, section 2.2 (the model's labels; majority
    vote as the baseline, Fig. 7).

    Dawid, A. P. and Skene, A. M. (1979). Maximum likelihood estimation of observer
    error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28, eq. 2.5 (the
    posterior whose largest entry is the model's label).
    """
    require_fitted(result, "gold_accuracy")
    gold = gold_series(gold)  # the one check of gold= (paths, tables, repeated items)
    if gold is None:
        gold = pd.Series(dtype=object)
    codes = _gold_codes_for(result, gold)
    use = _in_gold_index(result, gold) & (result.votes.sum(axis=1) > 0)
    matched = int(use.sum())
    if exclude_clamped and len(result.gold_items):
        use &= ~result.items.isin(result.gold_items)
    n = int(use.sum())
    if n == 0 and matched:  # the ids match: every gold item was clamped, none left to score
        raise AnnotationDataError(
            f"all {matched:,} items with a gold label were clamped to it while fitting, so "
            "none is left to score the model on.",
            hint="Clamp only part of the gold (e.g. a gold file for the clamped items and "
            "another for scoring), or score without clamping.",
        )
    if n == 0:
        raise AnnotationDataError(
            "no item has both a gold label and a judgement.",
            hint="Check that the gold file uses the same item ids as the labels.",
        )
    g = codes[use]
    valid = g >= 0
    if not valid.any():  # "yes"/"no" against 0/1: a mismatch, not a model right nowhere
        by_text = pd.Series(gold.to_numpy(object), index=gold.index.astype(str))
        scored = by_text[~by_text.index.duplicated()].reindex(result.items[use].astype(str))
        shown = ", ".join(repr(v) for v in pd.unique(scored.dropna().to_numpy(object))[:4])
        raise AnnotationDataError(
            f"none of the gold labels of the {format_count(n, 'item')} scored ({shown}) is "
            "among the categories "
            f"({', '.join(map(repr, list(result.categories)[:6]))}).",
            hint="Write the gold labels with the same values as the annotations.",
        )
    mv = majority_posteriors(result.votes)[use]
    mv_correct = float(mv[np.flatnonzero(valid), g[valid]].sum())
    tied = int(((mv > 0).sum(axis=1) > 1).sum())
    model = result.categories.get_indexer(result.labels)[use]  # a tie broken as the labels
    ds_correct = float((model[valid] == g[valid]).sum())
    out = pd.DataFrame(
        {
            "items": [n, n],
            "correct": [mv_correct, ds_correct],
            "accuracy": [mv_correct / n, ds_correct / n],
            "tied items": [tied, 0],
        },
        index=pd.Index(["majority vote", _model_name(result)], name="method"),
    )
    out.attrs["notes"] = ()
    if not valid.all():  # said, not only counted: a typo in a gold file reads as an error
        at = result.items[use][~valid]
        shown = ", ".join(repr(gold.get(i, gold.get(str(i)))) for i in at[:3])
        out.attrs["notes"] = (
            f"{format_count(int((~valid).sum()), 'gold label')} ({shown}) "
            f"{'is' if (~valid).sum() == 1 else 'are'} not among the categories, so no "
            "method can give it: counted as wrong for both.",
        )
    return out


def _model_name(result: DawidSkeneResult) -> str:
    """The row name of a fit in :func:`gold_accuracy`: its model's name (Dawid-Skene's by default)."""
    model = getattr(result, "model", "")
    return "Dawid-Skene" if model in ("", "dawid_skene") else model


def _in_gold_index(result: DawidSkeneResult, g: pd.Series) -> np.ndarray:
    keys = pd.Index([str(k).strip() if not isinstance(k, str) else k for k in g.index])
    return result.items.isin(keys)


def model_labels_table(result: DawidSkeneResult) -> pd.DataFrame:
    """The model's labels, one row per item with how sure the model is.

    This is the app's download of the model's most likely labels, with confidence:
    labels the model *infers*. It is not the known gold a user passes to ``fit(..., gold=...)`` (those
    items show ``clamped``), nor the multi-label expert gold standard
    (:func:`analytics.multilabel.gold_standard`).

    Parameters
    ----------
    result : DawidSkeneResult
        A fitted model.

    Returns
    -------
    pandas.DataFrame
        Columns: ``item``, ``label`` (original values), ``confidence`` (top posterior),
        ``judgements``, ``majority label`` (in a tie, the model's label when it is one of
        the tied categories, else the first of them),
        ``categories tied at top`` (how many categories share the top vote count; 1 = no
        tie), ``agrees with majority``, ``clamped`` (known gold given to the fit) and ``p(<category>)`` for
        every category.

    Notes
    -----
    An item's ``label`` is :math:`\\hat z_i = \\arg\\max_k p(z_i = k \\mid y)` and its
    ``confidence`` that maximum, where the posterior is the fitted model's
    :math:`p(z_i = k \\mid y) \\propto \\pi_k \\prod_j \\theta_{j, k, y_{ij}}`. The
    majority label is the most frequent label (ties: the model's label when it is among
    the tied categories, else the first of them).

    References
    ----------
    Dawid, A. P. and Skene, A. M. (1979). Maximum likelihood estimation of observer
    error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28, eq. 2.5 (the
    posterior of the true category).

    Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, section 2.2.1 (the posterior) and Fig. 7
    (model vs majority-vote labels).
    """
    require_fitted(result, "model_labels_table")
    cats = np.asarray(result.categories, dtype=object)
    votes = result.votes
    judged = votes.sum(axis=1)
    top = votes.max(axis=1) if votes.shape[1] else np.zeros(len(votes))
    n_top = (votes == top[:, None]).sum(axis=1)
    mv_code = top_codes(votes, result.categories)  # a tie: the first name
    model_code = result.categories.get_indexer(result.labels)
    in_tie = votes[np.arange(len(votes)), model_code] == top
    # a tie the model's label is part of is shown as that label, so a row never reads
    # "majority: a, agrees with majority" for a model label b tied with a
    mv_code = np.where(in_tie, model_code, mv_code)
    out = pd.DataFrame(
        {
            "item": np.asarray(result.items, dtype=object),
            "label": result.labels.to_numpy(),
            "confidence": result.confidence.to_numpy(),
            "judgements": judged,
            "majority label": np.where(judged > 0, cats[mv_code] if len(cats) else None, None),
            "categories tied at top": np.where(judged > 0, n_top, 0),
            "agrees with majority": (judged > 0) & in_tie,
            "clamped": result.items.isin(result.gold_items),
        }
    )
    posteriors = pd.DataFrame(  # one block: many categories would fragment the frame
        result.posteriors.to_numpy(), index=out.index, columns=[f"p({c})" for c in cats]
    )
    return pd.concat([out, posteriors], axis=1)


def item_judgements(
    ann: Annotations | pd.DataFrame, result: DawidSkeneResult, item: Any
) -> pd.DataFrame:
    """Every judgement of one item, with what the model thinks of its annotator.

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        The data the model was fitted on.
    result : DawidSkeneResult
        The fitted model.
    item : Any
        The item (its id, or the id as text).

    Returns
    -------
    pandas.DataFrame
        Columns: ``annotator``, ``label``, ``annotator accuracy`` (see
        :func:`annotator_table`), ``p(label | model label)`` (:math:`\\theta_{j,\\hat z, y}`:
        how often this annotator gives this label to items of the model's category) and
        ``mutual information (bits)``.

    Raises
    ------
    AnnotationDataError
        An unknown item, or a result fitted on another data set.

    Notes
    -----
    With :math:`\\hat z` the model's label of the item, a judgement :math:`y` by
    annotator :math:`j` gets :math:`\\theta_{j \\hat z y}` (an entry of the confusion
    matrix of Dawid & Skene 1979, section 2), the annotator's accuracy
    :math:`\\sum_k \\pi_k \\theta_{jkk}` and the mutual information :math:`I[Z; Y_j]` of
    their confusion matrix (:func:`~analytics.dawid_skene.mutual_information`).

    References
    ----------
    Dawid, A. P. and Skene, A. M. (1979). Maximum likelihood estimation of observer
    error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28, section 2.

    Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, section 2.2 (accuracy) and section 2.2.2
    (mutual information).
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
    z = int(result.categories.get_indexer(result.labels.iloc[[res_item]])[0])
    theta = result.confusion_array
    pi = result.prevalence.to_numpy()
    acc = result.annotator_accuracy.to_numpy()[res_rows]
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


def uncertain_items(
    result: DawidSkeneResult, below: float = 0.99, *, least_sure_first: bool = True
) -> pd.DataFrame:
    """The rows of :func:`model_labels_table` whose top posterior is below ``below``.

    Parameters
    ----------
    result : DawidSkeneResult
        A fitted model.
    below : float, default 0.99
        Keep items with ``confidence < below``: a posterior in (0, 1].
    least_sure_first : bool, default True
        Order by confidence, lowest first (stable); False keeps item order.

    Returns
    -------
    pandas.DataFrame
        The same columns as :func:`model_labels_table`.

    Raises
    ------
    AnnotationDataError
        ``below`` is not a number in (0, 1].
    ArgumentTypeError
        ``result`` is not a fitted model.

    Notes
    -----
    Keeps the items with :math:`\\max_k p(z_i = k \\mid y) <` ``below``.

    References
    ----------
    Dawid, A. P. and Skene, A. M. (1979). Maximum likelihood estimation of observer
    error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28, eq. 2.5 (the
    posterior of the true category).

    Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
    *Transactions of the ACL* 2, 311-326, Fig. 5 (items with posterior below 0.99).
    """
    table = model_labels_table(result)
    cut = check_number(below, "below")
    if not 0.0 < cut <= 1.0:
        raise AnnotationDataError(
            f"below must be a posterior in (0, 1], got {below!r}.",
            hint="Items whose top posterior is under it are kept: e.g. below=0.99; 1 keeps "
            "every item the model is not certain of.",
        )
    view = table[table["confidence"] < cut]
    return view.sort_values("confidence", kind="stable") if least_sure_first else view
