"""Is system A really better than system B? Section 4.1 of Beigman Klebanov & Beigman
(2009): the difference in correct answers that the coin-flip items of a gold standard can
make between two systems by chance alone.

A difference smaller than :func:`chance_difference` proves nothing. Import it from
:mod:`analytics.noise`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_confidence, format_count, format_percent
from analytics._core.validation import (
    check_choice,
    check_confidence,
    check_number,
    check_whole,
)
from analytics.noise.results import ExplainedResult

__all__ = ["CHANCE_BOUNDS", "ChanceDifference", "chance_difference"]

NAN = float("nan")

CHANCE_BOUNDS = ("chebyshev", "normal", "exact")


@dataclass(frozen=True)
class ChanceDifference(ExplainedResult):
    """How many more "correct" answers one system can get than another by noise alone.

    Built by :func:`chance_difference`.

    Attributes
    ----------
    n_gold : int
        L, items in the gold standard.
    n_noisy : float
        R, coin-flip items among them.
    bound : str
        ``"chebyshev"``, ``"normal"`` or ``"exact"``.
    confidence : float
        The confidence, the paper's alpha.
    sd : float
        ``sqrt(R / 2)``, the sd of S.
    multiplier : float
        The difference in sds (NaN for ``"exact"`` with R = 0).
    difference : float
        The difference in correct answers noise alone can make.
    share : float
        ``difference / L``.
    reason : str, default ""
        Why there is no answer (empty when there is one).
    capped : bool, default False
        The bound went past R and was cut to R: noise on R coin-flip items cannot make a
        larger difference.

    Notes
    -----
    ``S = sum_{i=1}^R X_i``, ``X_i`` in {-1, 0, 1} with probabilities 1/4, 1/2, 1/4, so
    ``sd = sqrt(R / 2)``; ``difference = multiplier * sd`` (Chebyshev: ``1 / sqrt(1 - alpha)``;
    normal: the two-sided z) or, for ``"exact"``, the smallest c with
    ``P(|S| > c) <= 1 - alpha`` (``S + R ~ Binomial(2R, 1/2)``).

    References
    ----------
    Beigman Klebanov, B. & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4): 495-503. Section 4.1 (the
    normal bound: footnote 9).
    """

    n_gold: int
    n_noisy: float
    bound: str
    confidence: float
    sd: float
    multiplier: float
    difference: float
    share: float
    reason: str = ""
    capped: bool = False

    def explain(self) -> str:
        """One plain-language sentence for an annotation team."""
        if self.reason:
            return f"No chance difference: {self.reason}"
        need = self.smallest_lead
        bound = "Chebyshev" if self.bound == "chebyshev" else self.bound
        how = (
            f"with {format_confidence(self.confidence)} probability ({bound} bound)"
            if not self.capped
            else f"as many as there are coin-flip items (the {bound} bound at "
            f"{format_confidence(self.confidence)} allows more than that)"
        )
        verdict = (
            f"only a lead of {need:,} or more ({format_percent(need / self.n_gold)}) is beyond "
            "chance; smaller differences prove nothing."
            if need <= self.n_gold
            else f"no lead among these {self.n_gold:,} items is beyond chance."
        )
        return (
            f"Two systems that are equally good on the easy items can still differ by up to "
            f"{format_count(round(self.difference, 1), 'correct answer')} "
            f"({format_percent(self.share)} of the {format_count(self.n_gold, 'gold item')}) "
            f"by chance alone, {how}: {verdict}"
        )

    @property
    def smallest_lead(self) -> int:
        """The fewest extra correct answers beyond the chance bound: ``floor(difference) + 1``
        (a lead equal to the bound is still within it). A bound within rounding of a whole
        number is that number: sqrt(10 / 2) / sqrt(0.05) is 10, computed 9.999999999999995,
        so the smallest lead is 11, not 10."""
        return math.floor(self.difference + 1e-9 * max(1.0, self.difference)) + 1


def chance_difference(
    n_gold: int, n_noisy: float, bound: str = "chebyshev", confidence: float = 0.95
) -> ChanceDifference:
    """Section 4.1: the difference in correct answers noise alone can produce.

    Parameters
    ----------
    n_gold : int
        L, items in the gold standard, a whole number >= 1.
    n_noisy : float
        R, coin-flip items among them (e.g. ``NoiseBound.hidden_hard``), ``0 <= R <= L``.
    bound : str, default "chebyshev"
        ``"chebyshev"`` (the paper's, ``P(|S| > k sd) <= 1/k^2``), ``"normal"`` (footnote 9,
        for large R) or ``"exact"`` (the exact distribution of S; R must be whole). Case
        does not matter.
    confidence : float, default 0.95
        The confidence, the paper's alpha, strictly between 0 and 1.

    Returns
    -------
    ChanceDifference

    Raises
    ------
    AnnotationDataError
        An unknown bound, impossible L, R or confidence, or a fractional R with
        ``"exact"``.

    Notes
    -----
    Chebyshev: ``difference = sqrt(R / 2) / sqrt(1 - alpha)``; normal:
    ``z_{(1 + alpha) / 2} sqrt(R / 2)``; exact: the smallest c with
    ``2 P(Binomial(2R, 1/2) > R + c) <= 1 - alpha``.

    References
    ----------
    Beigman Klebanov, B. & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4): 495-503. Section 4.1;
    footnote 9 for the normal bound.

    Examples
    --------
    >>> round(chance_difference(900, 125).difference, 1)
    35.4
    """
    bound = check_choice(str(bound).lower(), "bound", CHANCE_BOUNDS)
    confidence = check_confidence(confidence)
    L = check_whole(n_gold, "n_gold", 1)
    R = check_number(n_noisy, "n_noisy")
    if not 0 <= R <= L:
        raise AnnotationDataError(
            f"n_noisy (R = {n_noisy}) must lie between 0 and n_gold (L = {L}): the coin-flip "
            "items are among the gold items."
        )
    sd = math.sqrt(R / 2.0)
    if bound == "chebyshev":
        mult = 1.0 / math.sqrt(1.0 - confidence)
        diff = mult * sd
    elif bound == "normal":
        mult = float(stats.norm.ppf(0.5 + confidence / 2.0))
        diff = mult * sd
    else:
        if R != int(R):
            raise AnnotationDataError("the exact bound needs a whole number of noisy items.")
        r = int(R)
        # P(|S| > c) = 2 P(Binomial(2R, 1/2) > R + c); smallest c with that <= 1 - alpha
        c = np.arange(0, r + 1)
        tails = 2.0 * stats.binom.sf(r + c, 2 * r, 0.5)
        diff = float(c[np.argmax(tails <= 1.0 - confidence)])
        mult = diff / sd if sd > 0 else NAN
    # |S| <= R: R coin-flip items cannot differ by more than R (a bound within rounding of
    # R is R: 9.999999999999995 for R = 10 at 95%)
    tol = 1e-9 * max(1.0, R)
    capped = diff > R + tol
    diff = R if diff >= R - tol else diff
    return ChanceDifference(L, R, bound, confidence, sd, mult, diff, diff / L, capped=capped)
