"""The answers at a glance: how each result reads (good, caution, bad) and why.

:func:`judge` applies Concord's stated rule for a kind of result (:data:`RULES`) and
returns a :class:`Verdict`; every page and the HTML report colour results by it, so the
same number reads the same everywhere.
"""

from analytics.overview.measures import expected_label_error
from analytics.overview.severity import RULES, Rule, Severity, Verdict, judge

__all__ = ["RULES", "Rule", "Severity", "Verdict", "expected_label_error", "judge"]
