"""The few numbers the verdicts need that no other subpackage states directly."""

from __future__ import annotations

import math

import numpy as np

from analytics._core.validation import PROBABILITY_TOL, check_probabilities

__all__ = ["SURE", "expected_label_error", "judged_by_everyone"]

#: A model label is settled when its posterior is at least this.
SURE = 0.9


def expected_label_error(confidence) -> float:
    """The expected share of wrong model labels, from each item's top posterior.

    Parameters
    ----------
    confidence : array-like of float
        Each item's top posterior probability (``DawidSkeneResult.confidence``).

    Returns
    -------
    float
        :math:`\\frac{1}{n}\\sum_i (1 - \\max_k P(z_i = k \\mid x))`, the expected number of
        wrong labels per item if the model is right about its own uncertainty; NaN without
        items.

    Raises
    ------
    AnnotationDataError
        A confidence that is not a number between 0 and 1 (NaN included).

    References
    ----------
    Passonneau, R. J., & Carpenter, B. (2014). The benefits of a model of annotation.
    *TACL* 2, 311-326 (section 5: the posterior as the label's certainty).

    Examples
    --------
    >>> expected_label_error([1.0, 0.9, 0.8])
    0.1
    >>> expected_label_error([])
    nan
    """
    try:  # a sum of weighted posteriors can exceed 1 by rounding: that is 1
        raw = np.asarray(confidence, dtype=float)
        raw = np.where((raw > 1.0) & (raw <= 1.0 + PROBABILITY_TOL), 1.0, raw)
    except (TypeError, ValueError):
        raw = confidence  # check_probabilities says what is wrong with it
    values = check_probabilities(raw, "confidence")
    if values.size == 0:
        return math.nan
    return round(float(np.mean(1.0 - values)), 12)


def judged_by_everyone(item_codes, annotator_codes, n_annotators: int, items) -> bool:
    """Whether every annotator has already judged each of the given items.

    When they have, no one in the pool is left to give those items another judgement: more
    labels must come from new annotators (or an expert).

    Parameters
    ----------
    item_codes, annotator_codes : array-like of int, shape (n_judgements,)
        The judgements' item and annotator codes.
    n_annotators : int
        How many annotators the pool holds.
    items : array-like of int
        The item codes asked about.

    Returns
    -------
    bool
        True when each of ``items`` has judgements from all ``n_annotators`` (repeated
        judgements by one annotator count once); False for no items.

    Examples
    --------
    >>> judged_by_everyone([0, 0, 1], [0, 1, 0], 2, [0])
    True
    >>> judged_by_everyone([0, 0, 1], [0, 1, 0], 2, [0, 1])
    False
    """
    items = np.asarray(items, dtype=np.int64)
    if items.size == 0:
        return False
    item_codes = np.asarray(item_codes, dtype=np.int64)
    mask = np.isin(item_codes, items)
    pairs = np.unique(item_codes[mask] * max(n_annotators, 1) + np.asarray(annotator_codes)[mask])
    per_item = np.bincount(pairs // max(n_annotators, 1), minlength=int(items.max()) + 1)
    return bool((per_item[items] >= n_annotators).all())
