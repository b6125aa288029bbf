"""How sure is A_m? A percentile bootstrap interval over items.

The resampling is :mod:`analytics._core.bootstrap`, the one every coefficient of Concord
uses: A_m is a function of sums over items (:func:`~analytics.multilabel.am.am_statistic`),
so a replicate is a weighting of the items by multinomial counts, never a copy of the data.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analytics._core.bootstrap import (
    Patterns,
    bootstrap_replicates,
    check_resampling,
    percentile_interval,
)
from analytics.data import Annotations, as_annotations
from analytics.multilabel.am import am_agreement, am_statistic
from analytics.multilabel.engine import check_combinations

__all__ = ["AmInterval", "am_bootstrap"]


@dataclass(frozen=True)
class AmInterval:
    """A percentile bootstrap interval for A_m (items resampled with replacement).

    Attributes
    ----------
    a_m : float
        The point estimate on the data as given (:func:`~analytics.multilabel.am_agreement`).
    low, high : float
        The ``confidence`` percentile interval of the defined replicates (NaN when fewer
        than two replicates were defined).
    confidence : float
        Coverage of the interval, e.g. 0.95.
    n_boot : int
        Replicates drawn (0 when A_m is undefined on the data as given).
    n_valid : int
        Replicates where A_m was defined (P_e < 1).
    replicates : ndarray
        A_m of every replicate (NaN where undefined).
    combinations : {"clubbed", "four"}
        How chance agreement treats [0 1] and [1 0] (see :func:`am_agreement`).
    reason : str
        Empty when the interval is defined.
    """

    a_m: float
    low: float
    high: float
    confidence: float
    n_boot: int
    n_valid: int
    replicates: np.ndarray = field(repr=False)
    combinations: str = "clubbed"
    reason: str = ""


def am_bootstrap(
    ann: Annotations | pd.DataFrame,
    n_boot: int = 1000,
    confidence: float = 0.95,
    seed: int | None = 0,
    combinations: str = "clubbed",
) -> AmInterval:
    r"""Percentile bootstrap interval for A_m, resampling items with replacement.

    Each replicate draws as many items as were judged at least twice, with replacement,
    and recomputes P_o, P_e and A_m from the resampled items (P_e included: the
    annotators' proportions are re-estimated in every replicate).

    Parameters
    ----------
    ann : Annotations or DataFrame
        Multi-label annotations (single-label data count as one category per judgement),
        or a long DataFrame.
    n_boot : int, default 1000
        Number of replicates (at least 1).
    confidence : float, default 0.95
        Coverage of the interval, strictly between 0 and 1.
    seed : int or None, default 0
        Seed for numpy's random generator; the same seed gives the same interval. None
        draws fresh entropy.
    combinations : {"clubbed", "four"}, default "clubbed"
        The paper's three assignment combinations, or the four kept apart.

    Returns
    -------
    AmInterval
        NaN bounds with a ``reason`` when A_m is undefined on the data as given or in all
        but one replicate.

    Raises
    ------
    AnnotationDataError
        When ``n_boot``, ``confidence``, ``seed`` or ``combinations`` is not allowed; the
        message names the argument.

    Notes
    -----
    A replicate b gives every item i a count :math:`w_{bi}` (multinomial, :math:`\sum_i
    w_{bi} = I`, all items equally likely) and A_m is evaluated on the weighted sums, which
    is the same as recomputing equations 1-8 on :math:`w_{bi}` copies of every item. The
    interval is the :math:`(1 \mp \text{confidence}) / 2` quantiles of the defined
    replicates (Efron & Tibshirani 1993, ch. 13).

    References
    ----------
    Bhowmick, P. K., Mitra, P., & Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. Proceedings of the
    COLING workshop on Human Judgements in Computational Linguistics, 58-65 (A_m, eq. 1-8).

    Efron, B., & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall,
    chapter 13 (percentile intervals).

    Examples
    --------
    >>> from analytics import load_annotations
    >>> ann = load_annotations("sample_data/affect_multilabel.csv", multilabel_sep=";")
    >>> ci = am_bootstrap(ann, n_boot=200, seed=1)
    >>> ci.low < ci.a_m < ci.high, ci.n_valid
    (True, 200)
    """
    ann = as_annotations(ann)
    combos = check_combinations(combinations)
    confidence, n_boot, seed = check_resampling(confidence, n_boot, seed, min_boot=1)
    point = am_agreement(ann, combos)
    if point.reason and not np.isfinite(point.p_e):
        empty = np.full(0, np.nan)
        return AmInterval(point.a_m, np.nan, np.nan, confidence, 0, 0, empty, combos, point.reason)
    statistic, n_eligible = am_statistic(ann, combos)
    reps = bootstrap_replicates({"a_m": statistic}, Patterns.identity(n_eligible), n_boot, seed)[
        "a_m"
    ]
    low, high, n_valid = percentile_interval(reps, confidence)
    reason = ""
    if n_valid < 2:
        why = (
            "A_m was undefined in every bootstrap replicate (P_e = 1)."
            if n_valid == 0
            else "A_m was defined in only one bootstrap replicate (P_e = 1 in the others), "
            "too few for an interval."
        )
        reason = f"{why} On the data as given, {point.reason}" if point.reason else why
    return AmInterval(point.a_m, low, high, confidence, n_boot, n_valid, reps, combos, reason)
