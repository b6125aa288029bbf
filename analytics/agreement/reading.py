"""What a coefficient means in plain words, for annotation teams.

:func:`band` gives a value its verbal label (Landis & Koch 1977 for kappa-type
coefficients, Krippendorff's thresholds for alpha), :func:`reading` one or two sentences on
a value and its interval, and :data:`CAVEAT` what agreement cannot tell.
"""

from __future__ import annotations

import re

import numpy as np

from analytics._core.errors import AnnotationDataError, require, show_text
from analytics._core.formatting import format_judged_value, snap_to_edges
from analytics._core.validation import check_confidence

__all__ = ["CAVEAT", "FEW_SHARED", "KNOWN_COEFFICIENTS", "band", "reading", "shown_value"]

#: How a mean over annotator pairs notes the pairs that share few items (in its note).
FEW_SHARED = "of the pairs averaged share fewer than 10 items (noisy)"

CAVEAT = (
    "Agreement is neither necessary nor sufficient for a good gold standard. Annotators who "
    "make the same mistakes agree (two wrongs make a right), and when one category dominates, "
    "accurate annotators can still get a low kappa (Passonneau & Carpenter 2014, section 2.1). "
    "Even a kappa of 0.8 leaves about a fifth of the items to guesswork (Beigman Klebanov & "
    "Beigman 2009, section 3). Use agreement to find problems with guidelines and annotators; "
    "judge the labels themselves with a model of the annotators (Dawid-Skene) and expert checks."
)
"""What agreement cannot tell, in one paragraph (shown beside every agreement report)."""

_BANDS = [  # Landis & Koch (1977), for kappa-type coefficients
    (0.0, "less than chance agreement"),
    (0.20, "slight agreement beyond chance"),
    (0.40, "fair agreement beyond chance"),
    (0.60, "moderate agreement beyond chance"),
    (0.80, "substantial agreement beyond chance"),
    (1.0 + 1e-9, "almost perfect agreement beyond chance"),
]


_ALPHA_GOOD, _ALPHA_TENTATIVE = 0.8, 0.667  # Krippendorff (2004), chapter 11


#: The coefficients :func:`band` and :func:`reading` know, as agreement_report names them.
KNOWN_COEFFICIENTS = (
    "Percent agreement",
    "Cohen's kappa",
    "Scott's pi",
    "Fleiss' kappa",
    "Conger's kappa",
    "Brennan-Prediger",
    "Gwet's AC1",
    "Gwet's AC2",
    "Krippendorff's alpha",
)
# a word of one of them, in a display name ("Fleiss' kappa (linear weights)") or a function
# name ("scott_pi")
_KNOWN_WORD = re.compile(r"percent|alpha|kappa|scott|\bpi\b|_pi\b|ac[12]\b|brennan|prediger", re.I)


def _thresholds(coefficient: str) -> tuple[float, ...]:
    """Where :func:`band`'s label for the coefficient changes (unknown names refused)."""
    require(coefficient, isinstance(coefficient, str), "a coefficient name (text)")
    if not _KNOWN_WORD.search(coefficient):
        raise AnnotationDataError(
            f"unknown coefficient {show_text(coefficient)}.",
            hint=f"Use one of: {', '.join(KNOWN_COEFFICIENTS)} (a note in brackets after the "
            "name, such as ' (nominal)', is fine).",
        )
    name = coefficient.lower()
    if name.startswith("percent"):
        return ()
    if "alpha" in name:
        return (_ALPHA_GOOD, _ALPHA_TENTATIVE)
    return tuple(top for top, _ in _BANDS[:-1])


def shown_value(coefficient: str, value: float) -> str:
    """A coefficient's value or interval end as the reading prints it: three decimals, as
    every table and card prints statistics, more (up to six) when rounding would put the
    value on or across a band's edge.

    Parameters
    ----------
    coefficient : str
        The coefficient's display name, as for :func:`band` (its bands' edges are the
        thresholds the value must not be rounded across); an unknown name raises
        :class:`~analytics.AnnotationDataError`.
    value : float
        The value or interval end.

    Returns
    -------
    str
        The value with three decimals (up to six near an edge, e.g. ``"0.6667"`` for
        2/3 against alpha's 0.667); ``"n/a"`` for NaN.

    Examples
    --------
    >>> shown_value("Fleiss' kappa", 0.1952), shown_value("Fleiss' kappa", 0.2801)
    ('0.195', '0.280')
    """
    return format_judged_value(value, _thresholds(coefficient), digits=3, max_digits=6)


def band(coefficient: str, value: float) -> str:
    """A verbal label for a coefficient's value.

    Parameters
    ----------
    coefficient : str
        The coefficient's display name: names starting with "percent" are raw agreement,
        names containing "alpha" are Krippendorff's alpha, the other names of
        :data:`KNOWN_COEFFICIENTS` kappa-type.
    value : float
        The value (NaN: ``"undefined"``).

    Returns
    -------
    str

    Raises
    ------
    AnnotationDataError
        A name that is none of :data:`KNOWN_COEFFICIENTS` (an ArgumentTypeError when it
        is not text).

    Notes
    -----
    Kappa-type coefficients: below 0 "less than chance", then the bands 0-0.20, 0.21-0.40,
    0.41-0.60, 0.61-0.80 and 0.81-1 (slight, fair, moderate, substantial, almost perfect).
    Alpha: at least 0.8 reliable, 0.667 to 0.8 only for tentative conclusions, below
    0.667 not reliable. A value within float error of an edge is the edge
    (:func:`~analytics._core.formatting.snap_to_edges`): 0.39999999999999997 reads as 0.4.

    References
    ----------
    Landis, J. R., & Koch, G. G. (1977). The measurement of observer agreement for
    categorical data. *Biometrics* 33(1), 159-174 (the benchmark bands).
    Krippendorff, K. (2004). *Content Analysis: An Introduction to Its Methodology*, 2nd
    ed., Sage, chapter 11 (the 0.8 and 0.667 thresholds).

    Examples
    --------
    >>> band("Fleiss' kappa", 0.5)
    'moderate agreement beyond chance'
    >>> band("Krippendorff's alpha (nominal)", 0.7)
    'good enough only for tentative conclusions (Krippendorff: 0.667 to 0.8)'
    >>> band("Brennan-Prediger", 0.39999999999999997) == band("Brennan-Prediger", 0.4)
    True
    """
    value = snap_to_edges(value, _thresholds(coefficient))
    if not np.isfinite(value):
        return "undefined"
    if coefficient.lower().startswith("percent"):
        return f"{value:.0%} of pairs of judgements agree"
    if "alpha" in coefficient.lower():
        if value >= _ALPHA_GOOD:
            return "reliable by Krippendorff's standard (alpha of 0.8 or more)"
        if value >= _ALPHA_TENTATIVE:
            return "good enough only for tentative conclusions (Krippendorff: 0.667 to 0.8)"
        return "not reliable by Krippendorff's standard (below 0.667)"
    for top, label in _BANDS:
        if value < top:
            return label
    return _BANDS[-1][1]


def reading(
    coefficient: str,
    value: float,
    ci_low: float = float("nan"),
    ci_high: float = float("nan"),
    confidence: float = 0.95,
    note: str = "",
    *,
    explain_interval: bool = True,
    agreed_share: float = float("nan"),
) -> str:
    """One or two plain sentences reading a coefficient and its interval, for annotation teams.

    Parameters
    ----------
    coefficient : str
        The coefficient's display name (as in :func:`~analytics.agreement.agreement_report`).
    value : float
        Its value (NaN: the sentence gives ``note`` as the reason).
    ci_low, ci_high : float, default NaN
        The interval (NaN: none).
    confidence : float, default 0.95
        The interval's coverage, strictly between 0 and 1.
    note : str, default ""
        Why the value is undefined, if it is; for a defined mean over annotator pairs, a
        note naming pairs that share fewer than 10 items adds a caution sentence.
    explain_interval : bool, default True
        Say what the interval means ("with other items of the same kind the value could
        plausibly lie anywhere in that range"). False gives the interval alone, for a list of
        readings that explains it once.
    agreed_share : float, default NaN
        The share of items (judged twice or more) on which every annotator agrees. Fleiss'
        kappa between 0 and 1 is read as the share of easy items only when it does not
        exceed this share (easy items are agreed by everyone); above it the sentence says
        the data do not fit that reading. NaN: not known, the reading is given.

    Returns
    -------
    str

    Raises
    ------
    AnnotationDataError
        An unknown coefficient (as :func:`band`) or a confidence not strictly between 0
        and 1.

    Notes
    -----
    The verbal label is :func:`band`'s; when the interval's ends fall in different bands
    the sentence says the label is uncertain. Values have three decimals, more (up to six)
    when rounding would put one on or across the edge of its band: alpha = 2/3 reads
    "0.6667: not reliable ... (below 0.667)", not "0.667". Fleiss' kappa between 0 and 1 is also read
    as the share of "easy" items everyone gets right, unless more items would be easy than
    are agreed (``agreed_share``).

    References
    ----------
    Landis, J. R., & Koch, G. G. (1977). *Biometrics* 33(1), 159-174 (the bands).
    Beigman Klebanov, B., & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4), 495-503, section 3.3 (kappa as a share of easy
    items).

    Examples
    --------
    >>> reading("Cohen's kappa", 0.62, 0.58, 0.66)  # doctest: +ELLIPSIS
    "0.620: substantial agreement beyond chance; the 95% interval 0.580 to 0.660 ..."
    >>> reading("Cohen's kappa", 0.70, 0.65, 0.75, explain_interval=False)
    '0.700: substantial agreement beyond chance; the 95% interval 0.650 to 0.750.'
    """
    confidence = check_confidence(confidence)
    _thresholds(coefficient)  # refuses an unknown name, even for an undefined value
    if not np.isfinite(value):
        return f"Undefined: {note}." if note else "Undefined for these data."
    text = f"{shown_value(coefficient, value)}: {band(coefficient, value)}"
    if coefficient.lower().startswith("percent"):
        text += " (not corrected for chance)"
    if np.isfinite(ci_low) and np.isfinite(ci_high):
        lo_band, hi_band = band(coefficient, ci_low), band(coefficient, ci_high)
        text += (
            f"; the {confidence:.0%} interval {shown_value(coefficient, ci_low)} to "
            f"{shown_value(coefficient, ci_high)}"
        )
        if explain_interval:
            text += (
                " says that with other items of the same kind the value could plausibly "
                "lie anywhere in that range"
            )
        if lo_band != hi_band and not coefficient.lower().startswith("percent"):
            text += f", from '{lo_band}' to '{hi_band}', so the verbal label is uncertain"
    text += "."
    few = next((part for part in note.split("; ") if FEW_SHARED in part), None)
    if few:  # a mean over pairs: pairs sharing two items weigh as much as the others
        text += (
            f" Caution: {few.replace(' (noisy)', '')}, and each pair counts as much as any "
            "other in the mean, so a few pairs that agree on a couple of items can lift it "
            "(even above percent agreement)."
        )
    if coefficient.startswith("Fleiss") and 0 < value <= 1:
        if value > agreed_share + 1e-9:  # NaN (not known) compares False
            # as many digits as tell the two apart ("29% ... but only 29%" said nothing)
            digits = next((d for d in range(4) if f"{value:.{d}%}" != f"{agreed_share:.{d}%}"), 4)
            fmt = f".{digits}%"
            text += (
                " It cannot be read here as a share of easy items (Beigman Klebanov & Beigman "
                f"2009, section 3.3): that would make about {value:{fmt}} of items easy, "
                f"agreed by everyone, but only {agreed_share:{fmt}} are; the data do not fit "
                "that reading."
            )
        else:
            text += (
                " Read as a share of easy items (Beigman Klebanov & Beigman 2009, section "
                f"3.3): about {value:.0%} of items look like ones everyone gets right; the "
                "rest behave like guesses."
            )
    return text
