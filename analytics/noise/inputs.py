"""Starting values and input tables for asking the noise model by hand.

The noise calculator page (and anyone scripting the same questions) starts the follow-up
questions from the bound just computed, or from the paper's worked example when there is
none, and builds category rates of equally likely categories. These helpers keep that
arithmetic in the library.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analytics._core.validation import check_whole
from analytics.noise.bound import NoiseBound

__all__ = [
    "FollowUpDefaults",
    "easy_share",
    "equal_rates",
    "follow_up_defaults",
    "rates_table",
]


@dataclass(frozen=True)
class FollowUpDefaults:
    """Starting values of the follow-up questions.

    The defaults are the paper's worked example of section 3.1 (n = 1000, d = 100,
    p = 0.5: 900 agreed items, at most 125 of them coin-flips).

    Attributes
    ----------
    n_items : int, default 1000
        n.
    p : float, default 0.5
        Chance agreement on a hard item.
    n_agreed : int, default 900
        The agreed items (the gold standard's size, L).
    hidden_hard : int, default 125
        Coin-flips among the agreed items, at most (R).
    kappa : float, default 0.8
        The kappa the "what does kappa say?" question starts from (the data's Fleiss'
        kappa when there are data), and, clipped to [0, 1], the share of easy items the
        "would more annotators help?" question starts from (section 3.3: kappa estimates
        it).
    p_from_example : bool, default True
        Whether ``p`` (and ``hidden_hard``) are the example's, not a bound's: True also
        when the data's counts are used but their bound was undefined.
    categories : int or None, default None
        The categories the bound on data labelled hard items with (its rates' columns:
        for multi-label data each label set is one), where the "would more annotators
        help?" question starts; None without data.
    agreed_share : float or None, default None
        The data's share of agreed items when the items above are the example's (data
        with no agreed item: 0): :attr:`easy_share` never exceeds it. None: the items
        above are the data's own (or there are no data).

    References
    ----------
    Beigman Klebanov, B. & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4): 495-503. Section 3.1 (the worked example).
    """

    n_items: int = 1000
    p: float = 0.5
    n_agreed: int = 900
    hidden_hard: int = 125
    kappa: float = 0.8
    p_from_example: bool = True
    categories: int | None = None
    agreed_share: float | None = None

    @property
    def easy_share(self) -> float:
        """The share of easy items the "would more annotators help?" question starts from:
        :func:`easy_share` of this start's kappa, items and agreed items, and at most the
        data's agreed share when the items are the example's (data with no agreed item)."""
        share = easy_share(self.kappa, self.n_items, self.n_agreed)
        return share if self.agreed_share is None else min(share, self.agreed_share)

    def n_agreed_within(self, n_items: int) -> int:
        """The agreed items, at most ``n_items`` (a start that is always legal).

        Parameters
        ----------
        n_items : int
            The items now chosen.

        Returns
        -------
        int
            ``min(n_agreed, n_items)``.

        Examples
        --------
        >>> FollowUpDefaults().n_agreed_within(500)
        500
        """
        return min(self.n_agreed, int(n_items))

    def hidden_hard_within(self, n_gold: int) -> int:
        """The coin-flips, at most ``n_gold`` (they are among the gold items).

        Parameters
        ----------
        n_gold : int
            The gold-standard items now chosen.

        Returns
        -------
        int
            ``min(hidden_hard, n_gold)``.

        Examples
        --------
        >>> FollowUpDefaults().hidden_hard_within(100)
        100
        """
        return min(self.hidden_hard, int(n_gold))


def follow_up_defaults(result: NoiseBound | None, kappa: float | None = None) -> FollowUpDefaults:
    """Start the follow-up questions from a bound, or from the paper's example.

    An undefined bound of real data keeps the data's counts (items, agreed items) with the
    example's p, and says so (``p_from_example``).

    Parameters
    ----------
    result : NoiseBound or None
        The bound just computed (None, or one without an answer: the paper's example).
    kappa : float or None, default None
        The data's kappa (e.g. Fleiss'); None or NaN: 0.8, the example's. The kappa
        question otherwise paired the example's 0.8 with the data's counts.

    Returns
    -------
    FollowUpDefaults

    Examples
    --------
    >>> from analytics.noise import noise_bound
    >>> follow_up_defaults(noise_bound(2000, 100, 0.5)).n_agreed
    1900
    >>> follow_up_defaults(None).hidden_hard
    125
    >>> follow_up_defaults(noise_bound(30, 30, 0.5)).n_items  # nothing agreed: the example
    1000
    """
    k = {} if kappa is None or not np.isfinite(kappa) else {"kappa": float(kappa)}
    if result is None:
        return FollowUpDefaults(**k)
    if not result.ok:  # an undefined bound of real data: their counts, the example's p
        n, d = int(result.n_items), int(result.n_disagreed)
        if n < 1 or not 0 <= d < n:  # no agreed item: the gold-standard inputs need one
            # ... but no item of the data is easy: kappa's reading starts at 0
            return FollowUpDefaults(**k, agreed_share=0.0 if n >= 1 else None)
        return FollowUpDefaults(
            n_items=n,
            n_agreed=n - d,
            hidden_hard=min(FollowUpDefaults.hidden_hard, n - d),
            **k,
        )
    rates = getattr(result, "rates", None)  # on data: annotators x categories (+ a count)
    cats = None if rates is None else int(sum(c != "disagreed judged" for c in rates.columns))
    return FollowUpDefaults(
        n_items=int(result.n_items),
        p=float(result.p),
        n_agreed=int(result.n_agreed),
        hidden_hard=int(result.hidden_hard),
        p_from_example=False,
        categories=cats,
        **k,
    )


def easy_share(kappa: float, n_items: int, n_agreed: int) -> float:
    """Kappa read as the share of easy items, within what the data allow.

    Section 3.3 reads kappa as the share of easy items, and easy items are agreed by
    every annotator, so the share cannot exceed the agreed share:

    .. math:: e = \\min\\bigl(\\max(\\kappa, 0),\\ 1,\\ L / n\\bigr)

    with :math:`L` the agreed items of :math:`n`. Where kappa is above :math:`L / n` the
    data do not fit the reading (:func:`~analytics.noise.kappa_noise_estimate` says so);
    the agreed share is then the most the easy items can be.

    Parameters
    ----------
    kappa : float
        A chance-corrected agreement coefficient (NaN: undefined).
    n_items : int
        n, the items.
    n_agreed : int
        L, the items every annotator agrees on.

    Returns
    -------
    float
        The share in [0, 1]; NaN when kappa is NaN or there is no item.

    References
    ----------
    Beigman Klebanov, B. & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4): 495-503. Section 3.3.

    Examples
    --------
    >>> easy_share(0.8, 1000, 900), easy_share(0.486, 300, 87)
    (0.8, 0.29)
    """
    if not np.isfinite(kappa) or n_items <= 0:
        return float("nan")
    return float(min(max(kappa, 0.0), 1.0, n_agreed / n_items))


def equal_rates(n_categories: int) -> np.ndarray:
    """One annotator's rates on hard items when every category is equally likely.

    Parameters
    ----------
    n_categories : int
        m, a whole number >= 1.

    Returns
    -------
    numpy.ndarray
        m rates of ``1 / m`` (the ``hard_rates`` of
        :func:`~analytics.noise.adding_annotators`).

    Examples
    --------
    >>> equal_rates(4).tolist()
    [0.25, 0.25, 0.25, 0.25]
    """
    m = check_whole(n_categories, "n_categories", 1)
    return np.full(m, 1.0 / m)


def rates_table(n_annotators: int, n_categories: int) -> pd.DataFrame:
    """A table of category rates on hard items to start from: every category equally likely.

    Parameters
    ----------
    n_annotators : int
        k, a whole number >= 1 (rows "annotator 1" .. "annotator k").
    n_categories : int
        m, a whole number >= 1 (columns "category 1" .. "category m").

    Returns
    -------
    pandas.DataFrame
        k x m, every rate ``1 / m`` (the input of
        :func:`~analytics.noise.agreement_probability`).

    Examples
    --------
    >>> rates_table(2, 2)
                 category 1  category 2
    annotator 1         0.5         0.5
    annotator 2         0.5         0.5
    """
    k = check_whole(n_annotators, "n_annotators", 1)
    m = check_whole(n_categories, "n_categories", 1)
    return pd.DataFrame(
        1.0 / m,
        index=[f"annotator {i + 1}" for i in range(k)],
        columns=[f"category {j + 1}" for j in range(m)],
    )
