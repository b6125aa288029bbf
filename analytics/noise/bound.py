"""The noise bound of an agreed gold standard: equation (1) of Beigman Klebanov & Beigman
(2009), "From annotator agreement to noise models", Computational Linguistics 35(4).

The model: every item is *easy* (all annotators give the same label) or *hard* (each
annotator independently flips their own coin). Disagreed items are hard for sure; some
hard items hide among the agreed ones because the coins happened to agree. Given ``d``
disagreements among ``n`` items and ``p``, the chance that the annotators agree on a hard
item (:mod:`analytics.noise.chance_agreement`), the paper's equation (1) gives the
posterior of the number of hard items (:mod:`analytics.noise.posterior`), and so, with a
confidence (the paper's alpha), an upper bound ``gamma`` on the share of coin-flips in the
agreed gold standard.

- :func:`noise_bound`: equation (1): ``t0``, ``gamma``, the posterior, as a
  :class:`NoiseBound`.
- :func:`closed_form_bound`: the same bound in closed form, for very wide posteriors.

The questions the paper answers with the bound are :mod:`analytics.noise.questions`; the
pipeline on loaded data is :mod:`analytics.noise.from_annotations`. Import everything from
:mod:`analytics.noise`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Self

import numpy as np
import pandas as pd
from scipy import special

from analytics._core.formatting import format_confidence, format_percent
from analytics._core.validation import check_confidence, check_counts, check_probability
from analytics.noise.log_beta import log_space_tail
from analytics.noise.posterior import equation1_posterior, uniform_window
from analytics.noise.results import ExplainedResult

__all__ = ["NoiseBound", "closed_form_bound", "noise_bound"]

NAN = float("nan")
# Posterior probabilities below this fraction of the peak are left out of the Series.
SERIES_FLOOR = 1e-16
# Beyond this many counts in the posterior's window (p close to 1), equation (1) with the
# uniform prior is evaluated in closed form (incomplete beta) instead of term by term.
MAX_WINDOW = 1_000_000
MAX_SERIES = 20_000


@dataclass(frozen=True, eq=False)
class NoiseBound(ExplainedResult):
    """The noise bound of an agreed gold standard (equation 1 of the paper).

    Built by :func:`noise_bound` (or, for loaded data, by
    :func:`~analytics.noise.noise_from_annotations`); :meth:`from_posterior` and
    :meth:`undefined` build one from a computed posterior or for a question without an
    answer.

    Attributes
    ----------
    n_items, n_disagreed : int
        n and d.
    p : float
        Chance that the annotators agree on a hard item (for per-item p, their mean).
    confidence : float
        The confidence, the paper's alpha (e.g. 0.95).
    t0 : int or float
        Smallest t with ``P(X > t | A_d) < 1 - confidence``, X the number of hard items
        (NaN when undefined, see ``reason``).
    hidden_hard : int or float
        ``t0 - d``: at most this many agreed items are coin-flips.
    gamma : float
        ``(t0 - d) / (n - d)``: the noise level of the agreed items, at most.
    posterior : pandas.Series
        ``P(X = h | A_d)`` indexed by h, the number of hard items (probabilities below
        1e-16 of the peak left out).
    tail_at_t0 : float
        ``P(X > t0 | A_d)``, just below ``1 - confidence``.
    expected_hidden : float
        Posterior mean of the hidden hard items.
    prior : str, default "uniform"
        ``"uniform"`` (the paper's footnote 5) or ``"given"``.
    method : str, default "equation (1)"
        How it was computed.
    reason : str, default ""
        Why the bound is NaN (empty when it is not).
    notes : tuple of str, default ()
        Decisions worth telling the user.
    tail_series : pandas.Series or None, default None
        ``P(X > t | A_d)`` computed exactly when the posterior was thinned for display
        (None: :meth:`tail` sums the posterior).

    Notes
    -----
    ``t0 = min {t : P(X > t | A_d) < 1 - alpha}`` and ``gamma = (t0 - d) / (n - d)``.

    References
    ----------
    Beigman Klebanov, B. & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4): 495-503. Equation (1), section 2.
    """

    n_items: int
    n_disagreed: int
    p: float
    confidence: float
    t0: float
    hidden_hard: float
    gamma: float
    posterior: pd.Series
    tail_at_t0: float
    expected_hidden: float
    prior: str = "uniform"
    method: str = "equation (1)"
    reason: str = ""
    notes: tuple[str, ...] = ()
    tail_series: pd.Series | None = field(default=None, repr=False)

    @property
    def n_agreed(self) -> int:
        """``n - d``, the agreed items."""
        return self.n_items - self.n_disagreed

    @property
    def ok(self) -> bool:
        """True when the bound is defined (``reason`` is empty)."""
        return not self.reason

    @classmethod
    def undefined(
        cls, n: int, d: int, p: float, confidence: float, reason: str, **fields: Any
    ) -> Self:
        """A bound without an answer: every number NaN, the posterior empty.

        Parameters
        ----------
        n, d : int
            n and d as given.
        p : float
            p as given (NaN when it could not be estimated).
        confidence : float
            The confidence (the paper's alpha).
        reason : str
            Why there is no bound, in plain words.
        **fields
            Further fields of the class (``prior``, ``notes``, and for subclasses their
            own).

        Returns
        -------
        NoiseBound
            An instance of the class it is called on.

        Examples
        --------
        >>> NoiseBound.undefined(10, 10, 0.5, 0.95, "no agreed items.").explain()
        'No noise bound: no agreed items.'
        """
        empty = pd.Series([], dtype=float, name="probability")
        empty.index.name = "hard items"
        return cls(n, d, p, confidence, NAN, NAN, NAN, empty, NAN, NAN, reason=reason, **fields)

    @classmethod
    def from_posterior(
        cls,
        n: int,
        d: int,
        p: float,
        confidence: float,
        offset: int,
        pmf: np.ndarray,
        **fields: Any,
    ) -> Self:
        """``t0``, ``gamma`` and the posterior Series read off the posterior of J = X - d.

        Parameters
        ----------
        n, d : int
            n and d, with ``d < n``.
        p : float
            Chance agreement on a hard item (for per-item p, their mean).
        confidence : float
            The confidence (the paper's alpha), strictly between 0 and 1.
        offset : int
            The smallest count of hidden hard items in ``pmf``.
        pmf : numpy.ndarray
            ``pmf[r] = P(J = offset + r | A_d)``, summing to 1 (from
            :func:`~analytics.noise.posterior.equation1_posterior` or, for per-item p,
            :func:`~analytics.noise.hidden_hard_posterior`).
        **fields
            Further fields of the class (``prior``, ``method``, ``notes``, ...).

        Returns
        -------
        NoiseBound
            An instance of the class it is called on.

        Notes
        -----
        The tail ``P(J > j) = sum_{i > j} pmf[i]`` is summed from the right (no
        cancellation); ``t0 - d`` is the first j with ``P(J > j) < 1 - confidence`` and
        ``gamma = (t0 - d) / (n - d)``.

        References
        ----------
        Beigman Klebanov, B. & Beigman, E. (2009). From annotator agreement to noise
        models. *Computational Linguistics* 35(4): 495-503. Equation (1), section 2.

        Examples
        --------
        >>> NoiseBound.from_posterior(4, 1, 0.5, 0.9, 0, np.array([0.5, 0.3, 0.2])).t0
        3
        """
        rev = np.cumsum(pmf[::-1])[::-1]
        tail = np.append(rev[1:], 0.0)  # P(J > offset + r)
        first = int(np.argmax(tail < 1.0 - confidence))
        hidden = offset + first
        t0 = d + hidden
        h = d + offset + np.arange(len(pmf))
        keep = pmf >= pmf.max() * SERIES_FLOOR
        lo_k, hi_k = int(np.argmax(keep)), len(keep) - int(np.argmax(keep[::-1]))
        post = pd.Series(
            pmf[lo_k:hi_k], index=pd.Index(h[lo_k:hi_k], name="hard items"), name="probability"
        )
        expected = float(pmf @ (offset + np.arange(len(pmf))))
        return cls(
            n_items=n,
            n_disagreed=d,
            p=p,
            confidence=confidence,
            t0=int(t0),
            hidden_hard=int(hidden),
            gamma=hidden / (n - d),
            posterior=post,
            tail_at_t0=float(tail[first]),
            expected_hidden=expected,
            **fields,
        )

    def tail(self) -> pd.Series:
        """``P(X > t | A_d)`` for each t of :attr:`posterior` (the curve cut at 1 - alpha).

        Returns
        -------
        pandas.Series
            Indexed like :attr:`posterior`, named ``"P(X > t)"``; summed from the right,
            or the exact tail when the posterior was thinned for display.
        """
        if self.tail_series is not None:  # thinned posterior: computed exactly, not summed
            return self.tail_series
        pmf = self.posterior.to_numpy()
        rev = np.cumsum(pmf[::-1])[::-1]
        return pd.Series(np.append(rev[1:], 0.0), index=self.posterior.index, name="P(X > t)")

    def explain(self, shown: str | None = None) -> str:
        """One plain-language sentence for an annotation team.

        Parameters
        ----------
        shown : str or None, default None
            The noise bound as printed beside its verdict
            (:func:`analytics.overview.format_judged`); None: one decimal of a percentage.
        """
        if self.reason:
            return f"No noise bound: {self.reason}"
        return (
            f"With {format_confidence(self.confidence)} confidence, at most "
            f"{int(self.hidden_hard):,} of your {self.n_agreed:,} agreed items "
            f"{'is a coin-flip' if int(self.hidden_hard) == 1 else 'are coin-flips'} "
            "(hard items the annotators agreed on by chance): the agreed gold standard is at "
            f"most {format_percent(self.gamma) if shown is None else shown} noise."
        )

    def as_frame(self) -> pd.DataFrame:
        """The numbers as a two-column table.

        Returns
        -------
        pandas.DataFrame
            Columns ``measure, value``: n, d, n - d, p, confidence, t0, t0 - d, gamma and
            the expected hidden hard items.
        """
        rows = [
            ("items (n)", self.n_items),
            ("disagreed items (d)", self.n_disagreed),
            ("agreed items (n - d)", self.n_agreed),
            ("chance agreement on a hard item (p)", self.p),
            ("confidence", self.confidence),
            ("hard items, upper bound (t0)", self.t0),
            ("coin-flips among agreed items, at most (t0 - d)", self.hidden_hard),
            ("noise level, at most (gamma)", self.gamma),
            ("coin-flips among agreed items, expected", self.expected_hidden),
        ]
        return pd.DataFrame(rows, columns=["measure", "value"]).astype({"value": object})


def closed_form_bound(n: int, d: int, p: float, confidence: float) -> NoiseBound:
    """Equation (1) with the uniform prior in closed form, for very wide posteriors.

    :func:`noise_bound` uses it when the posterior spreads over more than 1,000,000 counts
    (p close to 1, few disagreements); it gives the same bound as the term-by-term sum
    (tested to 1e-9).

    Parameters
    ----------
    n : int
        n, all items; a whole number >= 1 (not checked: call :func:`noise_bound`).
    d : int
        d, the disagreed items, ``0 <= d < n``.
    p : float
        Chance agreement on a hard item, in [0, 1] (p = 1 only with d = 0).
    confidence : float
        The confidence (the paper's alpha), strictly between 0 and 1.

    Returns
    -------
    NoiseBound
        With ``method`` "equation (1), closed form (incomplete beta)"; the posterior
        Series is thinned to at most 20,000 points for display (said in ``notes``), and
        its exact tail kept in ``tail_series``. Memory does not grow with n: only the
        counts shown are built.

    Notes
    -----
    Under the uniform prior ``J = X - d`` is a negative binomial cut at ``top = n - d``, so
    ``P(J > j | A_d) = (F(top) - F(j)) / F(top)`` with ``F(k) = I_{1-p}(d + 1, k + 1)``
    (the negative binomial cdf, a regularised incomplete beta); the mean of the cut
    distribution is ``(d + 1) p / (1 - p) F'(top - 1) / F(top)`` with ``F'`` the cdf for
    d + 2 successes. ``t0`` by bisection.

    References
    ----------
    Beigman Klebanov, B. & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4): 495-503. Equation (1), with the uniform prior of
    footnote 5.

    Examples
    --------
    >>> closed_form_bound(1000, 100, 0.5, 0.95).t0
    225
    """
    top = n - d
    if p >= 1.0:  # flat weights on 0..top (only reachable with d = 0)

        def tail(j: np.ndarray) -> np.ndarray:
            return (top - np.asarray(j, dtype=float)) / (top + 1.0)

        expected = top / 2.0
    else:
        f_top = float(special.betainc(d + 1.0, top + 1.0, 1.0 - p))
        if f_top > 0.0:

            def tail(j: np.ndarray) -> np.ndarray:
                f = special.betainc(d + 1.0, np.asarray(j, dtype=float) + 1.0, 1.0 - p)
                return np.clip((f_top - f) / f_top, 0.0, 1.0)

            below = float(special.betainc(d + 2.0, top, 1.0 - p)) if top >= 1 else 0.0
            expected = (d + 1.0) * p / (1.0 - p) * below / f_top
        else:  # F(top) underflows (nearly every agreed item hard): its logarithm instead
            tail, expected = log_space_tail(d, top, p)
    lo, hi = 0, top  # smallest j with tail(j) < 1 - confidence lies in [lo, hi]
    while lo < hi:
        mid = (lo + hi) // 2
        if tail(np.array([mid]))[0] < 1.0 - confidence:
            hi = mid
        else:
            lo = mid + 1
    stride = max(1, math.ceil((top + 1) / MAX_SERIES))
    shown = np.arange(0, top + 1, stride)  # only the counts shown: at most MAX_SERIES of them
    above = tail(shown)
    probs = np.where(shown > 0, tail(shown - 1), 1.0) - above
    index = pd.Index(d + shown, name="hard items")
    post = pd.Series(probs, index=index, name="probability")
    return NoiseBound(
        n_items=n,
        n_disagreed=d,
        p=p,
        confidence=confidence,
        t0=int(d + lo),
        hidden_hard=int(lo),
        gamma=lo / top,
        posterior=post,
        tail_at_t0=float(tail(np.array([lo]))[0]),
        expected_hidden=float(expected),
        method="equation (1), closed form (incomplete beta)",
        notes=(
            f"The posterior is spread over {top + 1:,} counts; the curve shows every {stride:,}th.",
        )
        if stride > 1
        else (),
        tail_series=pd.Series(above, index=index, name="P(X > t)"),
    )


def noise_bound(
    n_items: int,
    n_disagreed: int,
    p: float,
    confidence: float = 0.95,
    prior: Sequence[float] | np.ndarray | pd.Series | None = None,
) -> NoiseBound:
    """Upper bound on the coin-flips among the agreed items: equation (1).

    Parameters
    ----------
    n_items : int
        n, all items (agreed and disagreed), a whole number >= 1.
    n_disagreed : int
        d, the items on which the annotators disagreed, ``0 <= d <= n``.
    p : float
        Chance that the annotators agree on a hard item (:func:`~analytics.noise.chance_agreement.agreement_probability`),
        in [0, 1].
    confidence : float, default 0.95
        The confidence, the paper's alpha, strictly between 0 and 1.
    prior : array-like of float or pandas.Series, optional
        ``P(B_h)`` for h = 0..n (array of n + 1 weights, or a Series indexed by h; need
        not sum to 1). Default None: uniform on 0..n, the paper's footnote 5 (the paper
        writes 1..n; the two differ only when d = 0).

    Returns
    -------
    NoiseBound
        NaN (with ``reason``) when there are no agreed items, when p = 1 but
        disagreements were seen, or when the prior excludes every ``h >= d``.

    Raises
    ------
    AnnotationDataError
        Impossible counts, p or confidence, or a prior that is not n + 1 non-negative
        numbers.

    Notes
    -----
    ``P(X > t | A_d) = sum_{i=t+1}^n C(i, d) p^(i-d) P(B_i) / sum_{i=d}^n C(i, d) p^(i-d) P(B_i)``;
    ``t0`` is the smallest t with ``P(X > t | A_d) < 1 - alpha`` and
    ``gamma = (t0 - d) / (n - d)``.

    Computed exactly in log space (``gammaln``). With the uniform prior only the window
    of h holding all but exp(-40) of the mass is evaluated, so n = 10,000,000 takes
    milliseconds; beyond a window of 1,000,000 counts, :func:`closed_form_bound`. The
    paper's section 3.1 example (n = 1000, d = 100, p = 0.5) gives t0 = 225 and
    gamma = 125/900 = 13.9%; the paper prints 13.8% (125/900 truncated).

    References
    ----------
    Beigman Klebanov, B. & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4): 495-503. Equation (1), section 2; the uniform prior
    is footnote 5; the worked example is section 3.1.

    Examples
    --------
    >>> r = noise_bound(1000, 100, 0.5)
    >>> r.t0, r.hidden_hard
    (225, 125)
    """
    n, d = check_counts(n_items, n_disagreed)
    p = check_probability(p, "p")
    confidence = check_confidence(confidence)
    kind = "uniform" if prior is None else "given"
    if n == d:
        return NoiseBound.undefined(
            n,
            d,
            p,
            confidence,
            "there are no agreed items, so there is no gold standard to bound.",
            prior=kind,
        )
    if p == 1.0 and d > 0:
        return NoiseBound.undefined(
            n,
            d,
            p,
            confidence,
            "p = 1 says hard items always agree, yet disagreements were seen; check p.",
            prior=kind,
        )
    if prior is None:
        lo, hi = uniform_window(n, d, p)
        if hi - lo + 1 > MAX_WINDOW:
            return closed_form_bound(n, d, p, confidence)
    offset, pmf = equation1_posterior(n, d, p, prior)
    if pmf.sum() == 0:
        return NoiseBound.undefined(
            n, d, p, confidence, f"the prior gives no weight to {d} or more hard items.", prior=kind
        )
    return NoiseBound.from_posterior(n, d, p, confidence, offset, pmf, prior=kind)
