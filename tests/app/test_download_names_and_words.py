"""Every download is named after its data set, so downloads of two data sets never clash.

A review found ``annotations_long.csv`` and ``next_batch.csv`` beside
``concord_report_four.html``: some file names named the data set, others did not.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _script():
    import streamlit as st

    from analytics.data import load_sample
    from ui.state import set_annotations
    from ui.widgets import DOWNLOAD_STEM, data_file_name

    st.text(data_file_name("coverage.csv"))  # nothing loaded: as given
    set_annotations(load_sample("crowd_intents"))
    st.text(data_file_name("coverage.csv"))
    st.text(data_file_name("crowd_intents_next_batch.csv"))  # already named: not twice
    st.session_state[DOWNLOAD_STEM] = "news spans"  # a page of other data (Spans)
    st.text(data_file_name("gold_spans.json"))


def test_download_names_lead_with_the_data_set():
    at = AppTest.from_function(_script, default_timeout=60).run()
    assert not at.exception
    assert [t.value for t in at.text] == [
        "coverage.csv",
        "crowd_intents_coverage.csv",
        "crowd_intents_next_batch.csv",
        "news_spans_gold_spans.json",
    ]


def test_the_label_kind_reads_multi_label():
    """The sidebar and the Data page said "multilabel", the report and CLI "multi-label"."""
    from analytics.data import LabelKind
    from ui.text import kind_text

    assert kind_text(LabelKind.MULTILABEL) == "multi-label"
    assert kind_text(LabelKind.ORDINAL) == "ordinal"
