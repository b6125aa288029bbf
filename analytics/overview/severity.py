"""Good, caution or bad: one stated rule per kind of result, the same on every page and report.

A :class:`Rule` holds two thresholds and where they come from; :func:`judge` turns a value
into a :class:`Verdict` (its severity, the value, the rule in words). Pages colour a
result by its verdict (green, amber, red; grey when undefined) and the HTML report prints
the same word, so no result is shown as good unless its rule says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_judged_value, format_percent, snap_to_edges

__all__ = [
    "OWN_ACCOUNT",
    "RULES",
    "Rule",
    "Severity",
    "Verdict",
    "format_judged",
    "format_right",
    "judge",
    "judge_measured_error",
    "judge_own_error",
    "shown_share",
]


class Severity(StrEnum):
    """How a result reads: good, caution, bad, or undefined (no value)."""

    GOOD = "good"
    CAUTION = "caution"
    BAD = "bad"
    UNDEFINED = "undefined"


@dataclass(frozen=True)
class Rule:
    """Two thresholds that split a measure into good, caution and bad.

    Parameters
    ----------
    measure : str
        What the value is, in words (e.g. "Krippendorff's alpha").
    higher_is_better : bool
        True: good when ``value >= good``, caution when ``value >= caution``, else bad.
        False: good when ``value <= good``, caution when ``value <= caution``, else bad.
    good : float
        The good threshold (inclusive).
    caution : float
        The caution threshold (inclusive).
    percent : bool
        Whether the value is a share shown as a percentage.
    source : str
        Where the thresholds come from.
    """

    measure: str
    higher_is_better: bool
    good: float
    caution: float
    percent: bool
    source: str

    def _fmt(self, x: float) -> str:
        return f"{x:.0%}" if self.percent else f"{x:.3f}"

    def format(self, value: float) -> str:
        """The value as printed beside its verdict: never rounded onto or across a threshold.

        Three decimals (one of a percentage for a share), more, up to six (four), when
        rounding would make the value equal to a threshold it is not, or put it on the
        other side (:func:`~analytics._core.formatting.format_judged_value`): 2/3 is
        ``"0.6667"`` beside "bad < 0.667". ``"n/a"`` for NaN.
        """
        if value is None:
            return "n/a"
        digits, most = (1, 4) if self.percent else (3, 6)
        return format_judged_value(
            float(value), (self.good, self.caution), digits, most, percent=self.percent
        )

    def describe(self) -> str:
        """The rule in one line, e.g. ``good >= 0.800, caution 0.667-0.800, bad < 0.667``."""
        g, c = self._fmt(self.good), self._fmt(self.caution)
        if self.higher_is_better:
            text = f"good ≥ {g}, caution {c} to {g}, bad < {c}"
        elif self.good == 0:  # "good <= 0%" reads oddly: say none
            text = f"good: none, caution up to {c}, bad > {c}"
        else:
            text = f"good ≤ {g}, caution {g} to {c}, bad > {c}"
        return f"{self.measure}: {text} ({self.source})"

    def judge(self, value: float, reason: str = "") -> Verdict:
        """The verdict on one value (NaN or None: undefined, with ``reason``)."""
        if value is None or not math.isfinite(float(value)):
            return Verdict(Severity.UNDEFINED, math.nan, self, reason or "no value")
        v = snap_to_edges(value, (self.good, self.caution))  # 0.7999999999999999 is 0.8
        if self.higher_is_better:
            sev = (
                Severity.GOOD
                if v >= self.good
                else Severity.CAUTION
                if v >= self.caution
                else Severity.BAD
            )
        else:
            sev = (
                Severity.GOOD
                if v <= self.good
                else Severity.CAUTION
                if v <= self.caution
                else Severity.BAD
            )
        return Verdict(sev, float(value), self, reason)


@dataclass(frozen=True)
class Verdict:
    """A value judged by a rule.

    Parameters
    ----------
    severity : Severity
        Good, caution, bad or undefined.
    value : float
        The value judged (NaN when undefined).
    rule : Rule
        The rule that judged it.
    reason : str
        Why it is undefined ("" otherwise, or a note).
    """

    severity: Severity
    value: float
    rule: Rule
    reason: str = ""

    @property
    def shown(self) -> str:
        """The value as printed beside this verdict (:meth:`Rule.format`)."""
        return self.rule.format(self.value)

    @property
    def label(self) -> str:
        """The severity word: ``"good"``, ``"caution"``, ``"bad"`` or ``"undefined"``."""
        return self.severity.value

    def describe(self) -> str:
        """``"caution: <rule>"``: the verdict and the thresholds that gave it."""
        if self.severity is Severity.UNDEFINED:
            return f"undefined ({self.reason}); {self.rule.describe()}"
        return f"{self.label}: {self.rule.describe()}"


_NOISE_SOURCE = (
    "Concord's convention: Northcutt, Athalye & Mueller 2021 found about 3% label errors in "
    "common test sets enough to change model rankings"
)

RULES: dict[str, Rule] = {
    "agreement": Rule(
        "chance-corrected agreement",
        higher_is_better=True,
        good=0.8,
        caution=0.667,
        percent=False,
        source="Krippendorff 2004, chapter 11",
    ),
    "noise": Rule(
        "noise of the agreed items, at most",
        higher_is_better=False,
        good=0.05,
        caution=0.15,
        percent=True,
        source=_NOISE_SOURCE,
    ),
    "gold_error": Rule(
        "share of wrong model labels (measured on gold labels; expected by the model itself, a "
        "lower bound, it reads caution at best)",
        higher_is_better=False,
        good=0.05,
        caution=0.15,
        percent=True,
        source=_NOISE_SOURCE,
    ),
    "uncertain_items": Rule(
        "share of items whose model label is less than 90% sure",
        higher_is_better=False,
        good=0.05,
        caution=0.15,
        percent=True,
        source=_NOISE_SOURCE,
    ),
    "weak_annotators": Rule(
        "share of annotators near chance",
        higher_is_better=False,
        good=0.0,
        caution=0.10,
        percent=True,
        source="Concord's convention: any annotator near chance deserves a look",
    ),
}
"""The rules Concord applies, by kind of result.

References
----------
Krippendorff, K. (2004). *Content Analysis: An Introduction to Its Methodology*, 2nd ed.,
Sage, chapter 11 (alpha >= 0.800 reliable; 0.667 to 0.800 for tentative conclusions).
Northcutt, C. G., Athalye, A., & Mueller, J. (2021). Pervasive label errors in test sets
destabilize machine learning benchmarks. *NeurIPS Datasets and Benchmarks*.
"""


def format_judged(kind: str, value: float) -> str:
    """A value as printed beside its verdict, by the rule for its kind of result.

    Parameters
    ----------
    kind : str
        A key of :data:`RULES`.
    value : float
        The value judged.

    Returns
    -------
    str
        Three decimals (a percentage with one), more when rounding would put the value on
        or across one of the rule's thresholds (up to six; four for a percentage), so the
        number never contradicts its verdict; ``"n/a"`` for NaN.

    Examples
    --------
    >>> format_judged("agreement", 2 / 3), format_judged("agreement", 0.7999)
    ('0.6667', '0.7999')
    >>> format_judged("agreement", 0.8), format_judged("agreement", 0.42822)
    ('0.800', '0.428')
    >>> format_judged("noise", 0.1504)
    '15.04%'
    """
    return judge(kind, value).shown


def judge(kind: str, value: float, reason: str = "") -> Verdict:
    """Judge a value by Concord's rule for its kind of result.

    Parameters
    ----------
    kind : {"agreement", "noise", "gold_error", "uncertain_items", "weak_annotators"}
        The kind of result (a key of :data:`RULES`).
    value : float
        The value; NaN or None gives an undefined verdict.
    reason : str, default ""
        Why the value is undefined, when it is.

    Returns
    -------
    Verdict

    Notes
    -----
    ``agreement`` (alpha, kappa, AC1): good >= 0.800, caution 0.667 to 0.800, bad < 0.667.
    ``noise`` (gamma, the noise bound of the agreed items) and ``gold_error`` (one minus
    the mean top posterior of the model labels) and ``uncertain_items`` (the share of items
    whose model label is less than 90% sure): good <= 5%, caution 5% to 15%, bad > 15%.
    ``weak_annotators`` (the share of annotators whose labels are near chance): good at 0,
    caution up to 10%, bad above.

    References
    ----------
    Krippendorff, K. (2004). *Content Analysis*, 2nd ed., Sage, chapter 11.
    Northcutt, C. G., Athalye, A., & Mueller, J. (2021). Pervasive label errors in test
    sets destabilize machine learning benchmarks. *NeurIPS Datasets and Benchmarks*.

    Examples
    --------
    >>> judge("noise", 0.571).label
    'bad'
    >>> judge("agreement", 0.7).label
    'caution'
    >>> judge("agreement", float("nan"), "one annotator").describe()[:30]
    'undefined (one annotator); cha'
    """
    if kind not in RULES:
        raise AnnotationDataError(
            f"unknown kind of result {kind!r}.", hint=f"Choose from: {', '.join(RULES)}."
        )
    return RULES[kind].judge(value, reason)


OWN_ACCOUNT = (
    "the model's own account of its errors, a lower bound (fitted models run overconfident), "
    "cannot show that its labels are good: only gold labels can"
)
"""The reason :func:`judge_own_error` gives when it withholds "good"."""


def judge_own_error(value: float, reason: str = "") -> Verdict:
    """Judge the share of wrong model labels *expected by the model itself*: never "good".

    The model's own account (one minus the mean top posterior) is a lower bound on its
    error: fitted models are overconfident (Dawid-Skene on the RTE crowd data of Snow et
    al. 2008 expects 0.8% wrong, expert gold finds 7.3%; on Welinder's bluebirds 0.3%
    against 10.2%). A lower bound above a threshold proves the error is at least that bad,
    so caution and bad stand; one below the good threshold proves nothing, so it reads
    caution, with :data:`OWN_ACCOUNT` as the reason, until gold labels measure the error.

    Parameters
    ----------
    value : float
        The model's expected share of wrong labels.
    reason : str, default ""
        Why the value is undefined, when it is.

    Returns
    -------
    Verdict
        As ``judge("gold_error", value)``, except caution instead of good.

    Examples
    --------
    >>> judge_own_error(0.003).label, judge_own_error(0.003).reason[:26]
    ('caution', "the model's own account of")
    >>> judge_own_error(0.2).label
    'bad'
    """
    verdict = judge("gold_error", value, reason)
    if verdict.severity is Severity.GOOD:
        return Verdict(Severity.CAUTION, verdict.value, verdict.rule, OWN_ACCOUNT)
    return verdict


def judge_measured_error(
    value: float, n_gold: int, confidence: float = 0.95
) -> tuple[Verdict, str]:
    """Judge the share of wrong model labels measured on gold items: "good" needs enough.

    Five gold items, all right, measure 0% wrong, but Wilson's 95% interval for the error
    then reaches about 43%: so few items cannot even tell good labels from bad ones. A
    value that reads good whose interval reaches past the caution threshold (into bad)
    reads caution, and a sentence says why; caution and bad stand (the point estimate
    already says as much).

    Parameters
    ----------
    value : float
        The measured share of wrong labels (ties credited 1/t).
    n_gold : int
        The gold items it was measured on.
    confidence : float, default 0.95
        The interval's confidence.

    Returns
    -------
    (Verdict, str)
        As ``judge("gold_error", value)``, except caution instead of good when the
        interval reaches past the caution threshold; then the sentence that says so
        (else "").

    Examples
    --------
    >>> verdict, why = judge_measured_error(0.0, 5)
    >>> verdict.label, why[:33]
    ('caution', ' On 5 gold items that is too few ')
    >>> judge_measured_error(0.0, 800)[0].label
    'good'
    """
    verdict = judge("gold_error", value)
    if verdict.severity is not Severity.GOOD:
        return verdict, ""
    from analytics.models import accuracy_interval  # imported here: the models are heavy

    _, low, _ = accuracy_interval(n_gold * (1.0 - value), n_gold, confidence)
    reaches = 1.0 - float(low)
    if reaches <= verdict.rule.caution:
        return verdict, ""
    why = (
        f" On {n_gold:,} gold item{'' if n_gold == 1 else 's'} that is too few to call it good: "
        f"the {confidence:.0%} interval of the error reaches {format_percent(reaches)}, past "
        f"the {format_percent(verdict.rule.caution)} that reads bad."
    )
    return Verdict(Severity.CAUTION, verdict.value, verdict.rule, why.strip()), why


def shown_share(shown: str, value: float) -> float:
    """A share as its printed percentage says (``"7.3%"`` -> 0.073), else ``value``.

    Examples
    --------
    >>> shown_share("7.3%", 0.0725), shown_share("n/a", 0.5)
    (0.073, 0.5)
    """
    try:
        return float(shown.rstrip("%")) / 100 if shown.endswith("%") else value
    except ValueError:
        return value


def format_right(error: float) -> str:
    """The share of right labels printed beside ``judge("gold_error", error).shown``, so
    that the two read 100% together: 742 right of 800 print as 7.3% wrong and 92.7% right
    (0.9275 alone prints 92.8%).

    Examples
    --------
    >>> judge("gold_error", 1 - 742 / 800).shown, format_right(1 - 742 / 800)
    ('7.3%', '92.7%')
    >>> format_right(1 / 20_000)  # a share that is not 1 never prints as 100.0%
    '>99.9%'
    """
    shown = shown_share(judge("gold_error", error).shown, error)
    if shown == 0 and error > 0:  # "0.0%" wrong, some wrong: not "100.0%" right
        return format_percent(1.0 - error)
    return format_percent(1.0 - shown)
