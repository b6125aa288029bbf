"""Each page's chosen settings, remembered so that the report and the exports use them.

A page calls :func:`remember` with its choices on every run; :func:`report_settings`
builds the :class:`~analytics.report.ReportSettings` for the loaded data set from what the
pages remembered, or from each page's own defaults for a page not visited yet, so the
sidebar's report and the Export page's files hold the numbers the pages show.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from analytics import Annotations
from analytics.agreement import bootstrap_cost
from analytics.engines import is_lazy
from analytics.report import ReportSettings

SETTINGS_KEY = "concord_page_settings"
# The Agreement page opens with bootstrap intervals only where 1,000 resamples take about
# a second: the pairwise means (Light's kappa, Scott's pi) cost items x annotator pairs.
BOOTSTRAP_DEFAULT_BUDGET = 2_000_000  # items x annotator pairs
AGREEMENT_BOOTSTRAP = 1000


def bootstrap_is_quick(ann: Annotations) -> bool:
    """Whether the Agreement page opens with bootstrap intervals for this data set.

    Always on an engine: its bootstrap resamples the distinct count patterns, not items.
    """
    if is_lazy(ann):
        return True
    return bootstrap_cost(ann) <= BOOTSTRAP_DEFAULT_BUDGET


def page_defaults(ann: Annotations) -> dict[str, Any]:
    """What each page starts with, as ``ReportSettings`` fields."""
    return {
        "agreement_n_boot": AGREEMENT_BOOTSTRAP if bootstrap_is_quick(ann) else 0,
        "agreement_confidence": 0.95,
    }


def remember(ann: Annotations, **values: Any) -> None:
    """Record a page's choices (``ReportSettings`` field names) for this data set."""
    store = st.session_state.setdefault(SETTINGS_KEY, {})
    mine = store.setdefault(ann.fingerprint, {})
    mine.update(values)
    for stale in [k for k in store if k != ann.fingerprint]:  # one data set at a time
        del store[stale]


def report_settings(ann: Annotations) -> ReportSettings:
    """The settings the pages chose for this data set (their defaults where unvisited)."""
    chosen = st.session_state.get(SETTINGS_KEY, {}).get(ann.fingerprint, {})
    return ReportSettings(**{**page_defaults(ann), **chosen})
