"""Dawid-Skene on multi-label data: one yes/no model per category, read together.

A multi-label judgement is a set of categories; the Dawid-Skene model needs one label per
judgement. :func:`category_yes_no` turns each category into a yes/no data set (did the
annotator include it?), :func:`fit_per_category` fits one binary model per category, and
:func:`per_category_table`, :func:`per_category_labels` and :func:`per_category_figure`
show the fits side by side.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from analytics._core.errors import AnnotationDataError, show_text
from analytics._core.formatting import plotly_labels
from analytics._core.style import ACCENT, MUTED, apply_layout
from analytics.data import Annotations, LabelKind, label_set, separator_for
from analytics.dawid_skene.model import DawidSkeneResult, fit
from analytics.dawid_skene.reports import fit_summary

__all__ = [
    "category_yes_no",
    "fit_per_category",
    "per_category_figure",
    "per_category_gold",
    "per_category_labels",
    "per_category_table",
]

YES, NO = "yes", "no"


def category_yes_no(ann: Annotations, category: Any) -> Annotations:
    """One category of multi-label data as a yes/no data set.

    Parameters
    ----------
    ann : Annotations
        Multi-label annotations.
    category : object
        One of ``ann.categories``.

    Returns
    -------
    Annotations
        The same items, annotators and judgements; each label is ``"yes"`` when the
        judgement's set holds ``category``, else ``"no"`` (an explicit empty set is "no").

    Raises
    ------
    AnnotationDataError
        Single-label data, or an unknown category.
    """
    if not ann.is_multilabel:
        raise AnnotationDataError("yes/no data sets per category need multi-label data.")
    if category not in ann.categories:
        raise AnnotationDataError(
            f"unknown category {category!r}.", hint=f"Choose from: {list(ann.categories)[:10]}."
        )
    k = ann.categories.get_loc(category)
    return Annotations(
        ann.item_codes,
        ann.annotator_codes,
        np.where(ann.label_matrix[:, k], 1, 0),
        ann.items,
        ann.annotators,
        pd.Index([NO, YES]),
        kind=LabelKind.NOMINAL,
        name=f"{ann.name} [{category}]",
    )


def fit_per_category(ann: Annotations, **fit_options: Any) -> dict[Any, DawidSkeneResult]:
    """One binary Dawid-Skene model per category of multi-label data.

    Parameters
    ----------
    ann : Annotations
        Multi-label annotations.
    **fit_options
        Passed to :func:`~analytics.dawid_skene.fit` (``smoothing``, ``init``,
        ``max_iter``, ``tol``, ...) for every category.

    Returns
    -------
    dict
        Category -> its fitted model (categories yes/no), in category order.

    Raises
    ------
    AnnotationDataError
        No category at all (every label set empty).

    Notes
    -----
    Each category is modelled on its own: an annotator's confusion matrix for category
    *k* is :math:`P(\\text{says } k \\text{ present} \\mid k \\text{ truly present})` and
    its complement, the item's posterior is :math:`P(k \\in z_i \\mid y)`. Dependencies
    between categories (e.g. two that are never given together) are not modelled.

    References
    ----------
    Dawid, A. P., & Skene, A. M. (1979). Maximum likelihood estimation of observer
    error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28.
    Passonneau, R. J., & Carpenter, B. (2014). The benefits of a model of annotation.
    *TACL* 2, 311-326.
    """
    if not ann.n_categories:  # pages and reports say this instead of crashing
        raise AnnotationDataError(
            f"every label set of {show_text(ann.name)} is empty, so no category has a "
            "yes/no model to fit.",
            hint="Label sets need at least one category somewhere in the data.",
        )
    return {c: fit(category_yes_no(ann, c), **fit_options) for c in ann.categories}


def _p_yes(result: DawidSkeneResult) -> pd.Series:
    return result.posteriors[YES] if YES in result.posteriors else result.posteriors.iloc[:, -1]


def per_category_table(fits: dict[Any, DawidSkeneResult]) -> pd.DataFrame:
    """The per-category fits side by side.

    Returns
    -------
    pandas.DataFrame
        One row per category: ``category``; ``prevalence`` (the model's share of items
        holding it, :math:`\\pi_{yes}`); ``raw share`` (share of judgements that include
        it); ``sure labels`` (share of items with a top posterior of at least 0.99);
        ``mean accuracy`` (annotators' mean accuracy on this yes/no question);
        ``iterations``; ``converged``.
    """
    rows = []
    for cat, res in fits.items():
        summary = fit_summary(res)
        votes = res.votes
        raw = float(votes[:, -1].sum() / votes.sum()) if votes.sum() else float("nan")
        rows.append(
            {
                "category": cat,
                "prevalence": float(res.prevalence.get(YES, np.nan)),
                "raw share": raw,
                "sure labels": summary.confident_share,
                "mean accuracy": summary.mean_accuracy,
                "iterations": res.n_iter,
                "converged": res.converged,
            }
        )
    return pd.DataFrame(rows)


def per_category_labels(fits: dict[Any, DawidSkeneResult], threshold: float = 0.5) -> pd.DataFrame:
    """Each item's label set by the per-category models, with each category's P(yes).

    Parameters
    ----------
    fits : dict
        From :func:`fit_per_category`.
    threshold : float, default 0.5
        A category is in the item's set when its posterior P(yes) is at least this.

    Returns
    -------
    pandas.DataFrame
        ``item``, ``labels`` (the set joined with ";", ``{}`` when empty), then one
        ``P(<category>)`` column per category.
    """
    if not fits:
        return pd.DataFrame(columns=["item", "labels"])
    probs = pd.DataFrame({c: _p_yes(r) for c, r in fits.items()})
    cats = list(probs.columns)
    inside = probs.to_numpy() >= threshold
    labels = [";".join(str(cats[j]) for j in np.flatnonzero(row)) or "{}" for row in inside]
    out = pd.DataFrame({"item": probs.index, "labels": labels})
    for c in cats:
        out[f"P({c})"] = probs[c].to_numpy()
    return out


def per_category_figure(table: pd.DataFrame) -> go.Figure:
    """Bars per category: the model's prevalence beside the raw share of judgements."""
    fig = go.Figure()
    names = plotly_labels(table["category"])
    fig.add_bar(x=names, y=table["prevalence"], name="model prevalence", marker_color=ACCENT)
    fig.add_bar(x=names, y=table["raw share"], name="raw share of judgements", marker_color=MUTED)
    apply_layout(
        fig,
        title="Each category by its own yes/no model",
        x_title="category",
        y_title="share of items",
    )
    fig.update_layout(barmode="group")
    fig.update_xaxes(type="category")
    return fig


def per_category_gold(
    fits: dict[Any, DawidSkeneResult], gold: pd.Series, sep: str | None = None
) -> pd.DataFrame:
    """The per-category models and the majority against known true label sets.

    Parameters
    ----------
    fits : dict
        From :func:`fit_per_category`.
    gold : pandas.Series
        Item -> true label set: a set, or text joined with ``sep`` (``"{}"``, blank and
        the loader's other empty-set texts for the empty set), as
        :func:`analytics.data.sample_truth` gives it; read as the loader reads a cell
        (:func:`analytics.data.label_set`).
    sep : str or None, default None
        The separator of a set written as text; None: ``;``, or ``|`` when a category
        name holds ``;`` (as Concord's exports choose, so their files read back).

    Returns
    -------
    pandas.DataFrame
        One row per category, then ``whole set``; columns
        ``gold_items`` (items with a true set and a judgement), ``model`` (share of them
        whose yes/no decision, P(yes) at least 0.5, is right) and ``majority`` (the same
        for "more than half of the item's annotators included it", a tie counting 1/2).
        The last row scores whole sets: right only when every category is, a majority
        set with t ties counting :math:`2^{-t}` (the chance a coin toss per tie gets all
        of them right).

    Raises
    ------
    AnnotationDataError
        No gold item has a judgement, or a true set names a category the data do not
        have.

    Examples
    --------
    >>> from analytics.data import load_sample, sample_truth
    >>> table = per_category_gold(fit_per_category(load_sample("affect_multilabel")),
    ...                           sample_truth("affect_multilabel"))
    >>> table.index[-1], int(table["gold_items"].iloc[-1])
    ('whole set', 300)
    """
    if not fits:
        raise AnnotationDataError("there is no category to score.")
    cats = list(fits)
    if sep is None:
        sep = separator_for(cats) or ";"
    first = next(iter(fits.values()))
    items = pd.Index(first.items)
    judged = first.votes.sum(axis=1) > 0
    sets = {
        str(k).strip(): label_set(v, sep)
        for k, v in (gold if isinstance(gold, pd.Series) else pd.Series(gold)).items()
    }
    use = items.isin(list(sets)) & judged
    if not use.any():
        raise AnnotationDataError(
            "no item has both a gold label set and a judgement.",
            hint="Check that the gold file uses the same item ids as the labels.",
        )
    names = {str(c): c for c in cats}
    unknown = sorted({x for s in sets.values() for x in s} - set(names))
    if unknown:
        raise AnnotationDataError(
            f"gold label sets name categories the data do not have: {', '.join(unknown[:5])}.",
            hint=f"Categories: {', '.join(map(str, cats))}.",
        )
    truth = np.array(
        [[str(c) in sets[str(i)] for c in cats] for i in items[use]], dtype=bool
    )  # one row per gold item: a few hundred, read once
    model = np.column_stack([_p_yes(fits[c]).to_numpy()[use] >= 0.5 for c in cats])
    votes = [fits[c].votes[use] for c in cats]
    yes = np.column_stack([v[:, -1] for v in votes])
    no = np.column_stack([v[:, 0] for v in votes])
    # majority credit per decision: 1 right, 0 wrong, 1/2 a tie
    credit = np.where(yes == no, 0.5, ((yes > no) == truth).astype(float))
    right = model == truth
    out = pd.DataFrame(
        {
            "gold_items": int(use.sum()),
            "model": right.mean(axis=0),
            "majority": credit.mean(axis=0),
        },
        index=pd.Index([str(c) for c in cats], name="category"),
    )
    out.loc["whole set"] = [
        int(use.sum()),
        float(right.all(axis=1).mean()),
        float(np.prod(credit, axis=1).mean()),
    ]
    out["gold_items"] = out["gold_items"].astype(int)
    return out
