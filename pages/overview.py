"""Overview: can we benchmark on this? Five answers and one recommendation.

Thin: :func:`analytics.overview.overview` computes everything (with the settings chosen on
the other pages); this page only shows it.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from analytics import AnnotationDataError, format_count
from analytics.data import table_to_csv
from analytics.overview import Answer, overview, scale_reason
from ui.cached import ds_fit, ds_fit_per_category, noise_result
from ui.engine import engine_page
from ui.frame import via_the_frame
from ui.settings import report_settings
from ui.severity import ICONS, show_verdict
from ui.state import known_gold, require_annotations
from ui.text import md
from ui.widgets import data_file_name, explain, page_link, show_error

via_the_frame("pages/overview.py")  # opened by its address before the app frame ran


@st.cache_data(max_entries=8, show_spinner=False)
def _overview(
    fingerprint: str, settings_key: tuple, gold_key: str, _ann, _settings, _noise, _fits, _gold
):
    return overview(
        _ann,
        confidence=_settings.noise_confidence,
        annotators=_settings.noise_annotators,
        distance=_settings.distance,
        noise=_noise,
        fits=_fits,
        gold=_gold,
    )


def _answers(ann, settings):
    """The overview, reusing the noise bound and the model the other pages cached."""
    options = settings.fit_options()
    noise = fits = None
    with st.status("Answering the five questions…", expanded=False) as status:
        if scale_reason(ann) is None:  # else only agreement applies: nothing else to fit
            st.write("The noise bound of the agreed items…")
            noise = noise_result(ann, settings.noise_annotators, settings.noise_confidence)
            st.write("The annotator model (Dawid-Skene)…")
            try:
                if ann.is_multilabel:
                    fits = list(ds_fit_per_category(ann, **options).values())
                else:
                    fits = [ds_fit(ann, **options)[0]]
            except AnnotationDataError:
                fits = None  # overview() fits again and says why it cannot
        st.write("Agreement, and the answers…")
        # gold uploaded on the Gold labels page, or a bundled sample's true labels: the gold
        # answer is then measured, not estimated
        gold_key, gold, what = known_gold(ann)
        unused = None
        try:
            result = _overview(
                ann.fingerprint, settings.key(), gold_key, ann, settings, noise, fits, gold
            )
        except AnnotationDataError as exc:
            if gold is None:
                raise
            # gold the model cannot score (a label no annotator used, no item of these
            # data) had stopped the page with a traceback: answer without it, and say why
            unused = AnnotationDataError(
                f"{what[:1].upper()}{what[1:]} could not be scored, so question 4 gives the "
                f"model's own account instead: {exc}"
            )
            result = _overview(
                ann.fingerprint, settings.key(), "", ann, settings, noise, fits, None
            )
        status.update(
            label="Answered (kept for this data set and these settings).", state="complete"
        )
    return result, unused


def _show_answer(answer: Answer, n: int) -> None:
    with st.container(border=True):
        left, right = st.columns([1, 4])
        left.metric(answer.question, answer.number, label_visibility="collapsed")
        left.caption(f"{ICONS[answer.verdict.severity]} {answer.verdict.label}")
        with right:
            st.markdown(f"**{n}. {md(answer.question)}**")
            show_verdict(answer.verdict, answer.sentence)
            page_link(answer.page, f"Explained on: {answer.page_title}", ":material/arrow_forward:")


engine_page("overview")  # data on DuckDB/Spark: its own view, or why not
ann = require_annotations()
st.title("Overview: can we benchmark on this?")
explain(
    """
Five questions, each answered in one sentence with its number, how it reads (**good**,
**caution** or **bad**, by the rule printed under it) and the page that explains it; then the
one thing to do next. The answers use the settings chosen on the other pages (the report's
first section is this overview too).
"""
)
settings = report_settings(ann)
result, gold_unused = _answers(ann, settings)
if gold_unused is not None:
    show_error(gold_unused)

rec = result.recommendation
st.subheader("What to do next")
alert = {"bad": st.error, "caution": st.warning, "good": st.success}.get(
    rec.severity.value, st.info
)
alert(f"**{md(rec.text)}**", icon=ICONS[rec.severity])
page_link(rec.page, f"Go to: {rec.page_title}", ":material/arrow_forward:")
if rec.items:
    st.download_button(
        f"Download the {format_count(len(rec.items), 'item')} (CSV)",
        data=lambda: table_to_csv(pd.DataFrame({"item": list(rec.items)}), index=False).encode(),
        file_name=data_file_name("items_to_relabel.csv"),
        mime="text/csv",
        key="ov_items",
        on_click="ignore",
        icon=":material/download:",
    )

st.subheader("The five answers")
for n, answer in enumerate(result.answers, start=1):
    _show_answer(answer, n)
