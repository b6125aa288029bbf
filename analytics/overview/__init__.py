"""Can we benchmark on this? The answers at a glance, and how each result reads.

- :func:`overview`: the five answers (how much do annotators agree, how noisy is the
  agreed subset, which annotators are biased and how, how sure are the gold labels,
  would more labels help), each a sentence with its number, severity and page, and the
  one recommendation that follows (:class:`Overview`, :class:`Answer`,
  :class:`Recommendation`). The Overview page and the report only display it.
- :func:`judge` applies Concord's stated rule for a kind of result (:data:`RULES`) and
  returns a :class:`Verdict` (good, caution, bad, undefined); every page and the HTML
  report colour results by it, so the same number reads the same everywhere;
  :func:`format_judged` prints the value beside its verdict without rounding it onto or
  across a threshold.
- :func:`scale_reason`: why the answers after the first do not apply to numbers on a
  scale (they compare labels as categories); :func:`overview` then leaves them undefined.
- :func:`expected_label_error`: the expected share of wrong model labels, judged by
  :func:`judge_own_error` (a lower bound: never "good" until gold labels measure it).
"""

from analytics.overview.answers import (
    CHANCE_SPAMMER_SCORE,
    MERGE_SHARE,
    SURE,
    Answer,
    Overview,
    Recommendation,
    overview,
)
from analytics.overview.measures import expected_label_error
from analytics.overview.scale import scale_reason
from analytics.overview.severity import (
    OWN_ACCOUNT,
    RULES,
    Rule,
    Severity,
    Verdict,
    format_judged,
    format_right,
    judge,
    judge_measured_error,
    judge_own_error,
    shown_share,
)

__all__ = [
    "CHANCE_SPAMMER_SCORE",
    "MERGE_SHARE",
    "OWN_ACCOUNT",
    "RULES",
    "SURE",
    "Answer",
    "Overview",
    "Recommendation",
    "Rule",
    "Severity",
    "Verdict",
    "expected_label_error",
    "format_judged",
    "format_right",
    "judge",
    "judge_measured_error",
    "judge_own_error",
    "overview",
    "scale_reason",
    "shown_share",
]
