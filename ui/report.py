"""The report downloads offered on every page and on the Export page.

The report is computed with the settings the pages chose (:func:`ui.settings.report_settings`),
so its numbers are the ones on screen, and it lists those settings in its first section.
"""

from __future__ import annotations

import re

import streamlit as st

from analytics import Annotations
from analytics.report import ReportSettings, build_report, build_report_zip
from ui.state import known_gold


def _stem(ann: Annotations) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", ann.name.rsplit(".", 1)[0]).strip("_") or "concord"


@st.cache_data(max_entries=4, show_spinner=False)
def report_html(
    fingerprint: str, settings_key: tuple, gold_key: str, _ann: Annotations, _settings, _gold
) -> bytes:
    return build_report(_ann, settings=_settings, gold=_gold).encode("utf-8")


@st.cache_data(max_entries=4, show_spinner=False)
def report_zip(
    fingerprint: str, settings_key: tuple, gold_key: str, _ann: Annotations, _settings, _gold
) -> bytes:
    return build_report_zip(_ann, settings=_settings, gold=_gold)


def report_button(
    ann: Annotations, settings: ReportSettings, *, key: str = "report", zip_too: bool = False
) -> None:
    """ "Download report" (self-contained HTML, made on click), and optionally the zip.

    The report's overview is judged against the gold labels the pages use
    (:func:`ui.state.known_gold`), so it says what the Overview page says.
    """
    gold_key, gold, _ = known_gold(ann)
    st.download_button(
        "Download report",
        data=lambda: report_html(ann.fingerprint, settings.key(), gold_key, ann, settings, gold),
        file_name=f"concord_report_{_stem(ann)}.html",
        mime="text/html",
        key=f"dl_report_{key}",
        on_click="ignore",
        icon=":material/summarize:",
        help="One HTML file with every section for this data set, computed with the settings "
        "chosen on the pages (listed in its first section); opens offline.",
        width="stretch",
    )
    if zip_too:
        st.download_button(
            "Download report + all tables (zip)",
            data=lambda: report_zip(ann.fingerprint, settings.key(), gold_key, ann, settings, gold),
            file_name=f"concord_report_{_stem(ann)}.zip",
            mime="application/zip",
            key=f"dl_report_zip_{key}",
            on_click="ignore",
            icon=":material/folder_zip:",
            width="stretch",
        )
