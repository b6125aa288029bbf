"""A fitted annotator model read as plain arrays, checked against the data it must describe.

Every function of :mod:`analytics.next_labels` works on any fitted annotator model that
carries these fields (duck typing, so that every model of the model family works once it
exists, not only :class:`analytics.dawid_skene.DawidSkeneResult`):

- ``posteriors``: a DataFrame, items x categories, each row the posterior over the item's
  true category;
- ``prevalence``: a Series, category -> share of items;
- the annotators' confusion matrices (true x given): either ``confusion_array`` (an array
  annotator x true x given, with the annotator names in ``annotators``) or ``confusion``
  (a mapping annotator -> K x K DataFrame).

:func:`model_view` turns such a result into a :class:`ModelView` (arrays in the data's
integer codes) and refuses, with an :class:`~analytics._core.errors.AnnotationDataError`
that says what to pass, a result fitted on other data than the annotations given with it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError, show_text
from analytics._core.ids import name_order, name_ranks
from analytics.data import Annotations, LabelKind

__all__ = ["ModelView", "annotator_codes", "judged_pairs", "model_arrays", "model_view"]

_FIT_HINT = (
    "Pass the result of a model fitted on these same annotations, e.g. "
    "analytics.dawid_skene.fit(ann), together with that ann."
)


@dataclass(frozen=True)
class ModelView:
    """A fitted model as arrays aligned with an :class:`~analytics.data.Annotations`.

    Attributes
    ----------
    posteriors : ndarray, shape (n_items, K)
        Row ``i`` is the posterior of item ``ann.items[i]``.
    confusion : ndarray, shape (n_annotators, K, K)
        Slice ``j`` is the confusion matrix (true x given) of ``ann.annotators[j]``.
    prevalence : ndarray, shape (K,)
    items, annotators, categories : pandas.Index
        The data's names, in code order.
    """

    posteriors: np.ndarray
    confusion: np.ndarray
    prevalence: np.ndarray
    items: pd.Index
    annotators: pd.Index
    categories: pd.Index


def _confusions(result: Any) -> tuple[pd.Index, np.ndarray]:
    """(annotator names, annotator x true x given array) from either field spelling."""
    array = getattr(result, "confusion_array", None)
    names = getattr(result, "annotators", None)
    if array is not None and names is not None:
        return pd.Index(names), np.asarray(array, float)
    mapping = getattr(result, "confusion", None)
    if isinstance(mapping, Mapping) and len(mapping):
        keys = list(mapping)
        stack = [np.asarray(m, float) for m in mapping.values()]
        return pd.Index(keys), np.stack(stack)
    raise AnnotationDataError(
        f"a {type(result).__name__} carries no annotator confusion matrices "
        "(neither confusion_array with annotators nor a confusion mapping).",
        hint=_FIT_HINT,
    )


def _mismatch(what: str, missing: Iterable[Any]) -> AnnotationDataError:
    shown = ", ".join(show_text(m) for m in list(missing)[:3])
    return AnnotationDataError(
        f"the fitted model was not fitted on these annotations: {what} {shown} "
        "is in the data but not in the model.",
        hint=_FIT_HINT,
    )


def model_arrays(result: Any) -> tuple[pd.Index, np.ndarray, np.ndarray, np.ndarray]:
    """(annotator names, confusion J x K x K, prevalence K, posteriors N x K) of a result.

    Raises
    ------
    AnnotationDataError
        A field is missing, the shapes disagree, or a distribution is not a probability
        vector.
    """
    post = getattr(result, "posteriors", None)
    prev = getattr(result, "prevalence", None)
    if not isinstance(post, pd.DataFrame) or not isinstance(prev, pd.Series):
        raise AnnotationDataError(
            f"a {type(result).__name__} is not a fitted annotator model "
            "(it needs a posteriors DataFrame and a prevalence Series).",
            hint=_FIT_HINT,
        )
    names, theta = _confusions(result)
    q, pi = post.to_numpy(float), prev.to_numpy(float)
    k = len(pi)
    if q.shape[1] != k or theta.shape[1:] != (k, k) or len(names) != len(theta):
        raise AnnotationDataError(
            "the fitted model's posteriors, prevalence and confusion matrices disagree "
            "on the number of categories or annotators.",
            hint=_FIT_HINT,
        )
    for what, arr in (("posteriors", q), ("confusion matrices", theta), ("prevalence", pi)):
        if (
            not np.isfinite(arr).all()
            or (arr < 0).any()
            or not np.allclose(arr.sum(-1), 1, atol=1e-6)
        ):
            raise AnnotationDataError(
                f"the fitted model's {what} are not probability vectors "
                "(finite, >= 0, each summing to 1).",
                hint=_FIT_HINT,
            )
    return names, theta, pi, q


def model_view(result: Any, ann: Annotations) -> ModelView:
    """Read a fitted model's parameters in the integer codes of ``ann``.

    Parameters
    ----------
    result : fitted model
        Anything with ``posteriors``, ``prevalence`` and confusion matrices (see the
        module docstring), e.g. :func:`analytics.dawid_skene.fit`'s result.
    ann : Annotations
        The annotations the model was fitted on.

    Returns
    -------
    ModelView

    Raises
    ------
    AnnotationDataError
        ``ann`` is not single-label :class:`~analytics.data.Annotations`; the result
        lacks a field; its items, categories or annotators do not cover the data's; its
        posteriors, prevalence or confusion rows are not probability vectors.
    """
    if not isinstance(ann, Annotations):
        raise AnnotationDataError(
            f"ann must be Annotations, not {type(ann).__name__}.",
            hint="Load it with analytics.load_annotations(...).",
        )
    if ann.is_multilabel:
        raise AnnotationDataError(
            "next labels need single-label annotations; these are multi-label.",
            hint="Fit and plan one binary model per category.",
        )
    names, theta, _, _ = model_arrays(result)
    post, prev = result.posteriors, result.prevalence
    k = len(ann.categories)
    cats = pd.Index(prev.index)
    col = cats.get_indexer(ann.categories) if len(cats) == k else np.full(k, -1)
    if (col < 0).any() or list(post.columns) != list(cats):
        missing = [c for c, n in zip(ann.categories, col, strict=True) if n < 0] or list(cats)
        raise _mismatch("category", missing)
    rows = pd.Index(post.index).get_indexer(ann.items)
    if (rows < 0).any() or len(post.index) != ann.n_items:
        missing = ann.items[rows < 0] if (rows < 0).any() else post.index.difference(ann.items)
        raise _mismatch("item", missing)
    who = names.get_indexer(ann.annotators)
    if (who < 0).any():
        raise _mismatch("annotator", ann.annotators[who < 0])
    q = post.to_numpy(float)[rows][:, col]
    theta = theta[who][:, col][:, :, col]
    pi = prev.to_numpy(float)[col]
    return ModelView(q, theta, pi, ann.items, ann.annotators, ann.categories)


def annotator_codes(view: ModelView, annotators: Any) -> np.ndarray:
    """Codes of the named annotators (one name or a list of names).

    Raises
    ------
    AnnotationDataError
        A name is not an annotator of the data, or the list is empty.
    """
    names = [annotators] if np.isscalar(annotators) else list(annotators)
    if not names:
        raise AnnotationDataError(
            "annotators is empty.", hint="Name at least one annotator, or pass None for all."
        )
    codes = view.annotators.get_indexer(pd.Index(names, dtype=object))
    if (codes < 0).any():
        as_text = view.annotators.astype(str).get_indexer([str(n) for n in names])
        codes = np.where(codes < 0, as_text, codes)
    if (codes < 0).any():
        bad = [n for n, c in zip(names, codes, strict=True) if c < 0]
        raise AnnotationDataError(
            f"unknown annotator {show_text(bad[0])}"
            + (f" (and {len(bad) - 1} more)" if len(bad) > 1 else "")
            + ": annotators must be among the data's annotators.",
            hint=f"Choose among {', '.join(show_text(a) for a in view.annotators[:5])}"
            + (" ..." if len(view.annotators) > 5 else "")
            + ".",
        )
    return codes.astype(np.int64)


def judged_pairs(ann: Annotations) -> np.ndarray:
    """Sorted unique ``item_code * n_annotators + annotator_code`` of every judgement.

    A sort and a comparison with the neighbour: :func:`numpy.unique` hashes first in
    numpy 2.4 and is about 70 times slower on a million keys.
    """
    return _unique_pairs(ann.item_codes, ann.annotator_codes, ann.n_annotators)


def _unique_pairs(items: np.ndarray, anns: np.ndarray, n_annotators: int) -> np.ndarray:
    keys = np.sort(items.astype(np.int64) * n_annotators + anns)
    return keys[np.r_[True, keys[1:] != keys[:-1]]] if len(keys) else keys


def view_in_name_order(view: ModelView, ann: Annotations) -> tuple[ModelView, np.ndarray]:
    """The fitted model with items and annotators in their names' sorted order, and the
    judged pairs (:func:`judged_pairs`) numbered the same way.

    A batch's random draws (the ``random`` strategy's order, a random annotator) and its
    ties (equal gains or confidences: the lower code goes first) then follow the names,
    so the same judgements in another row order plan the same batch.

    Examples
    --------
    >>> frame = pd.DataFrame({"item": ["b", "a"], "annotator": ["y", "x"], "label": [0, 1]})
    >>> ann = Annotations.from_frame(frame)
    >>> view = ModelView(np.eye(2), np.stack([np.eye(2)] * 2), np.full(2, 0.5),
    ...                  ann.items, ann.annotators, ann.categories)
    >>> named, judged = view_in_name_order(view, ann)
    >>> list(named.items), named.posteriors[:, 0].tolist(), judged.tolist()
    (['a', 'b'], [0.0, 1.0], [0, 3])
    """
    items, anns = name_order(view.items), name_order(view.annotators)
    item_rank, ann_rank = name_ranks(view.items), name_ranks(view.annotators)
    named = ModelView(
        view.posteriors[items],
        view.confusion[anns],
        view.prevalence,
        view.items[items],
        view.annotators[anns],
        view.categories,
    )
    n = ann.n_annotators
    return named, _unique_pairs(item_rank[ann.item_codes], ann_rank[ann.annotator_codes], n)


def in_name_order(ann: Annotations) -> Annotations:
    """The same single-label judgements, numbered and ordered by name, not by the file.

    Items and annotators are coded by the sorted order of their names, nominal categories
    too (a declared order, ordinal or numeric, is kept), and the rows sorted by item,
    annotator and label: random draws made over codes or rows (a replay's start, its
    random strategy) then follow the data, so the same judgements in another row order
    give the same replay.

    Examples
    --------
    >>> frame = pd.DataFrame({"item": ["b", "a", "b"], "annotator": ["y", "x", "x"],
    ...                       "label": ["n", "p", "p"]})
    >>> canon = in_name_order(Annotations.from_frame(frame))
    >>> list(canon.items), canon.item_codes.tolist(), list(canon.categories)
    (['a', 'b'], [0, 1, 1], ['n', 'p'])
    """
    item_rank, ann_rank = name_ranks(ann.items), name_ranks(ann.annotators)
    label_rank, categories = np.arange(ann.n_categories), ann.categories
    if ann.kind is LabelKind.NOMINAL:
        label_rank, categories = name_ranks(categories), categories[name_order(categories)]
    items = item_rank[ann.item_codes]
    anns = ann_rank[ann.annotator_codes]
    labels = label_rank[ann.label_codes]
    rows = np.lexsort((labels, anns, items))
    return Annotations(
        items[rows],
        anns[rows],
        labels[rows],
        ann.items[name_order(ann.items)],
        ann.annotators[name_order(ann.annotators)],
        categories,
        kind=ann.kind,
        name=ann.name,
    )
