"""A_m in plain words, for the page and the report: bands, a summary sentence, numbers.

The words live here, beside the statistic, so that the page only shows them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_count, format_number
from analytics._core.validation import check_number
from analytics.multilabel.am import AmResult
from analytics.overview import Severity, format_judged, judge

__all__ = ["am_reading", "am_summary", "lowest_pair"]

# the words of each verdict of Concord's agreement rule (analytics.overview.RULES)
_WORDS = {
    Severity.GOOD: "good: reliable by Krippendorff's standard (0.800 or more)",
    Severity.CAUTION: "caution: enough only for tentative conclusions (Krippendorff: 0.667 to "
    "0.800)",
    Severity.BAD: "bad: below Krippendorff's 0.667, too low to draw conclusions from; check "
    "the categories annotators confuse",
}


def am_reading(a_m: float) -> str:
    """Words for a value of A_m, by the same rule that colours it on every page.

    Parameters
    ----------
    a_m : float
        A_m (:func:`~analytics.multilabel.am_agreement`): at most 1, as
        :math:`(P_o - P_e) / (1 - P_e)` with :math:`P_o \\le 1` is, and finite (it has no
        lower bound: :math:`P_o = 0` gives :math:`-P_e / (1 - P_e)`); NaN reads as
        "undefined".

    Returns
    -------
    str
        The verdict of :func:`analytics.overview.judge` ("agreement") in words: "good: ..."
        (0.800 or more), "caution: ..." (0.667 to 0.800), "bad: ..." (below 0.667; at or
        below 0 it also says there is no agreement beyond chance), "undefined".

    Raises
    ------
    AnnotationDataError
        ``a_m`` is not a number, is infinite or is above 1.

    Notes
    -----
    One voice: the words follow the good/caution/bad rule the page shows beside the
    number, Krippendorff's thresholds for chance-corrected agreement, and not a second
    scale (a Landis & Koch style "moderate" for 0.41-0.60 read as a contradiction beside
    "Bad"). Bhowmick et al. give no thresholds for A_m.

    References
    ----------
    Krippendorff, K. (2004). Content Analysis: An Introduction to Its Methodology (2nd ed.).
    Sage, p. 241 (alpha of 0.800, and 0.667 for tentative conclusions).

    Examples
    --------
    >>> am_reading(0.72)
    'caution: enough only for tentative conclusions (Krippendorff: 0.667 to 0.800)'
    >>> am_reading(0.428)[:35]
    "bad: below Krippendorff's 0.667, to"
    >>> am_reading(float("nan"))
    'undefined'
    """
    value = check_number(a_m, "A_m")
    if not np.isnan(value) and not (np.isfinite(value) and value <= 1 + 1e-9):
        raise AnnotationDataError(
            f"A_m cannot be {value!r}: it is at most 1 (perfect agreement) and finite.",
            hint="Pass the a_m of am_agreement(ann) or pairwise_am(ann).",
        )
    verdict = judge("agreement", a_m)
    if verdict.severity is Severity.UNDEFINED:
        return "undefined"
    words = _WORDS[verdict.severity]
    return words + ("; no agreement beyond chance" if a_m <= 0 else "")


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
        Plain text (a page escapes it before showing it as Markdown); "" when A_m is
        undefined (``am.reason`` says why). Its example of the clubbing uses the data's
        own first two categories (``am.categories``), "a" and "b" when they are unknown.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"item": ["1", "1", "2", "2", "3", "3"],
    ...                    "annotator": ["u", "v"] * 3,
    ...                    "label": [{"a"}, {"a", "b"}, {"b"}, {"b"}, {"c"}, {"a", "c"}]})
    >>> from analytics.multilabel import am_agreement, am_agreement_unclubbed
    >>> text = am_summary(am_agreement(df), am_agreement_unclubbed(df))
    >>> text[text.index("counts"):text.index(" as chance")]
    "counts one annotator's [a, not b] meeting another's [b, not a]"
    """
    if am.reason:
        return ""
    first, second = am.categories[:2] if len(am.categories) >= 2 else ("a", "b")
    return (
        f"A_m = {format_judged('agreement', am.a_m)}, {am_reading(am.a_m)}. Over "
        f"{format_count(am.n_items, 'item')} judged by two or more annotators "
        f"({format_count(am.n_annotator_pairs, 'annotator pair')}, "
        f"{format_count(am.n_categories, 'category', 'categories')}). The "
        f"paper's version counts one annotator's [{first}, not {second}] meeting another's "
        f"[{second}, not {first}] as chance agreement, which raises P_e; keeping the two "
        f"apart gives {format_number(four.a_m)}."
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
        f"(A_m {format_number(worst.a_m)} over {format_count(int(worst.n_items), 'item')})."
    )
