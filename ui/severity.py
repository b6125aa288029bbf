"""Results shown in their severity's colour, with the rule that judged them.

Every page shows a judged result through :func:`show_verdict` (green for good, amber for
caution, red for bad, grey when undefined), and the caption under it states the rule, so a
bad result is never green and no colour goes unexplained. The rules live in
:mod:`analytics.overview` (the HTML report uses the same ones).
"""

from __future__ import annotations

import streamlit as st

from analytics.overview import Severity, Verdict
from ui.text import md

ICONS = {
    Severity.GOOD: ":material/check_circle:",
    Severity.CAUTION: ":material/warning:",
    Severity.BAD: ":material/error:",
    Severity.UNDEFINED: ":material/help:",
}
ALERTS = {
    Severity.GOOD: st.success,
    Severity.CAUTION: st.warning,
    Severity.BAD: st.error,
    Severity.UNDEFINED: st.info,
}


def show_verdict(verdict: Verdict, sentence: str) -> None:
    """The plain-language sentence in its severity's colour, with the rule beneath.

    ``sentence`` is plain text (escaped here); the alert starts with the severity word so
    the colour is never the only signal.
    """
    alert = ALERTS[verdict.severity]
    alert(f"**{verdict.label.capitalize()}.** {md(sentence)}", icon=ICONS[verdict.severity])
    st.caption(md(f"Severity rule: {verdict.rule.describe()}."))
