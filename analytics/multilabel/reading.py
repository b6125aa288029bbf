"""A_m in plain words, for the page and the report: bands, a summary sentence, numbers.

The words live here, beside the statistic, so that the page only shows them.
"""

from __future__ import annotations

import math

import pandas as pd

from analytics.multilabel.am import AmResult

__all__ = ["am_reading", "am_summary", "lowest_pair"]

# (lower bound, words), highest first; A_m at or above the bound reads as the words
_BANDS = (
    (0.8, "strong agreement beyond chance"),
    (0.67, "good agreement, enough for tentative conclusions"),
    (0.4, "moderate agreement: check the categories annotators confuse"),
)


def am_reading(a_m: float) -> str:
    """Words for a value of A_m, on the scale annotation teams use for kappa-like values.

    Parameters
    ----------
    a_m : float
        A_m (:func:`~analytics.multilabel.am_agreement`); NaN reads as "undefined".

    Returns
    -------
    str
        "strong agreement beyond chance" (0.8 or more), "good agreement, enough for
        tentative conclusions" (0.67 to 0.8), "moderate agreement: ..." (0.4 to 0.67),
        "weak agreement, little above chance" (above 0), "no agreement beyond chance".

    Notes
    -----
    The thresholds 0.8 and 0.67 are Krippendorff's for drawing conclusions from
    chance-corrected agreement; 0.4 only separates moderate from weak. Bhowmick et al. give
    no thresholds for A_m.

    References
    ----------
    Krippendorff, K. (2004). Content Analysis: An Introduction to Its Methodology (2nd ed.).
    Sage, p. 241 (alpha of 0.800, and 0.667 for tentative conclusions).

    Examples
    --------
    >>> am_reading(0.72)
    'good agreement, enough for tentative conclusions'
    >>> am_reading(float("nan"))
    'undefined'
    """
    if not math.isfinite(a_m):
        return "undefined"
    for bound, words in _BANDS:
        if a_m >= bound:
            return words
    return "weak agreement, little above chance" if a_m > 0 else "no agreement beyond chance"


def am_summary(am: AmResult, four: AmResult) -> str:
    """What A_m says about the data, and what the paper's clubbing of [1 0] and [0 1] did.

    Parameters
    ----------
    am : AmResult
        :func:`~analytics.multilabel.am_agreement` (the paper's three combinations).
    four : AmResult
        :func:`~analytics.multilabel.am_agreement_unclubbed` of the same data.

    Returns
    -------
    str
        Markdown; "" when A_m is undefined (``am.reason`` says why).
    """
    if am.reason:
        return ""
    return (
        f"A_m = {am.a_m:.2f}, {am_reading(am.a_m)}. Over {am.n_items:,} items judged "
        f"by two or more annotators ({am.n_annotator_pairs:,} annotator pairs, "
        f"{am.n_categories} categories). The paper's version counts one annotator's "
        "*[anger, not disgust]* meeting another's *[disgust, not anger]* as chance *agreement*, "
        f"which raises P_e; keeping the two apart gives {four.a_m:.2f}."
    )


def lowest_pair(pairs: pd.DataFrame) -> str:
    """The annotator pair with the lowest A_m, as a sentence ("" when no A_m is defined).

    Parameters
    ----------
    pairs : DataFrame
        :func:`~analytics.multilabel.pairwise_am` of the data.

    Returns
    -------
    str
    """
    if pairs.empty or not pairs["a_m"].notna().any():
        return ""
    worst = pairs.loc[pairs["a_m"].idxmin()]
    return (
        f"Lowest: {worst.annotator_a} and {worst.annotator_b} "
        f"(A_m {worst.a_m:.2f} over {worst.n_items:,} items)."
    )
