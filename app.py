"""Concord: the Streamlit entry point.

The frame of the app: page setup, navigation, the loaded data set in the sidebar, and a
sample loaded on the first visit so that every page shows results at once.

    streamlit run app.py
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from PIL import Image

from analytics import format_count
from analytics.data import DEFAULT_SAMPLE, SAMPLES
from analytics.engines import is_lazy
from ui.engine import sidebar_engine
from ui.frame import open_wanted_page
from ui.loaders import load_sample_cached
from ui.report import report_button
from ui.settings import report_settings
from ui.state import get_annotations, restore_kept, set_annotations, set_source, sync_url
from ui.text import kind_text, md

# the favicon is a file in the repository: a Material or emoji icon would be fetched from the
# internet, and show nothing offline
FAVICON = Image.open(Path(__file__).resolve().parent / "ui" / "favicon.png")
st.set_page_config(page_title="Concord", page_icon=FAVICON, layout="wide")
# metric cards wrap their label and value instead of cutting them to "0.4…" in a narrow
# window (Streamlit ends them with an ellipsis); values shrink a little below 1,000 px
st.html(
    """<style>
[data-testid="stMetric"] [data-testid="stMarkdownContainer"],
[data-testid="stMetric"] [data-testid="stMarkdownContainer"] p {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important;
  word-break: normal !important; overflow-wrap: normal !important;
}
@media (max-width: 1000px) {
  [data-testid="stMetricValue"] { font-size: 1.5rem !important; }
}
</style>"""
)

if get_annotations() is None and not st.session_state.get("concord_started"):
    st.session_state["concord_started"] = True
    if not restore_kept():  # a reloaded tab shows its upload again (named in the URL)
        set_annotations(load_sample_cached(DEFAULT_SAMPLE))
        set_source(f"sample: {SAMPLES[DEFAULT_SAMPLE].title}", sample=DEFAULT_SAMPLE)

PAGES = [
    st.Page("pages/upload.py", title="Data", icon=":material/upload_file:", default=True),
    st.Page("pages/overview.py", title="Overview", icon=":material/fact_check:"),
    st.Page("pages/agreement.py", title="Agreement report", icon=":material/groups:"),
    st.Page("pages/multilabel.py", title="Multi-label", icon=":material/label:"),
    st.Page("pages/spans.py", title="Spans", icon=":material/format_underlined:"),
    st.Page("pages/noise.py", title="Noise calculator", icon=":material/blur_on:"),
    st.Page("pages/gold_labels.py", title="Gold labels", icon=":material/verified:"),
    st.Page("pages/next_labels.py", title="Next labels", icon=":material/playlist_add:"),
    st.Page("pages/export.py", title="Export", icon=":material/download:"),
]

page = st.navigation(PAGES)
open_wanted_page()  # a page opened by its address before the frame had run

shown_settings = None
with st.sidebar:
    ann = get_annotations()
    st.markdown("### Concord")
    if ann is None:
        st.caption("No data set loaded.")
    else:
        st.markdown(f"**{md(ann.name)}**")
        st.caption(
            " · ".join(
                [
                    format_count(ann.n_items, "item"),
                    format_count(ann.n_annotators, "annotator"),
                    format_count(ann.n_judgements, "judgement"),
                    format_count(ann.n_categories, "category", "categories"),
                    md(kind_text(ann.kind)),
                ]
            )
        )
        if is_lazy(ann):  # on DuckDB/Spark: the engine and the size; no report (memory only)
            sidebar_engine(ann)
        else:
            shown_settings = report_settings(ann)
            report_button(ann, shown_settings, key="sidebar")

page.run()

# The sidebar was drawn before the page ran; if the page loaded another data set (an
# upload, a sample) or changed a setting the report uses, draw everything again at once so
# that the sidebar (and its report download) never describes what the page no longer shows.
# The fingerprint is the content's: the same file uploaded under another name has the same
# one, so the name is compared too (the sidebar names the file).


def _shown_as(data) -> tuple[str, str] | None:
    return None if data is None else (data.fingerprint, data.name)


now = get_annotations()
if _shown_as(now) != _shown_as(ann) or (
    now is not None and not is_lazy(now) and report_settings(now) != shown_settings
):
    st.rerun()
sync_url()
