"""The pages on an engine: judgements held by DuckDB (or Spark), never pulled into memory.

Every page that reads the loaded data set calls :func:`engine_page` first. In memory it
does nothing. On an engine it says what the engine computes on this page
(:func:`analytics.engines.engine_support`), then either lets the page run (Overview, Noise
calculator: their analyses take the handle), draws the page's engine view and stops
(Agreement report, Gold labels / Dawid-Skene), or says plainly why the page is not defined
at this scale and what to do, and stops.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from analytics import AnnotationDataError, format_count
from analytics.agreement import agreement_report, default_distance, distance_options, forest_plot
from analytics.dawid_skene import ENGINE_ITEMS_SHOWN, ENGINE_STARTS, annotator_table
from analytics.engines import engine_support, is_lazy, sampled_note
from ui.cached import busy, ds_fit
from ui.settings import AGREEMENT_BOOTSTRAP, keep, kept_number, one_of, recall, recall_index
from ui.state import get_annotations
from ui.text import md
from ui.widgets import page_link, show_error, show_figure, show_table

ENGINE_NAMES = {"memory": "in memory", "duckdb": "DuckDB", "spark": "Spark"}
#: Where the engine's source is described (path and size), set by the Data page.
ENGINE_SOURCE_KEY = "concord_engine_source"


def engine_name(what: Any) -> str:
    """An engine (its name, or a data set's) in words: "DuckDB", "Spark", "in memory"."""
    engine = what if isinstance(what, str) else getattr(what, "engine", "memory")
    return ENGINE_NAMES.get(engine, str(engine))


def sampled_caption(ann: Any, what: str = "items") -> None:
    """The caption under a per-item view of an engine's data (nothing when none is left out)."""
    note = sampled_note(min(ENGINE_ITEMS_SHOWN, ann.n_items), ann.n_items, what, ann.engine)
    if note:
        st.caption(md(f"Per-item views: {note[0].lower()}{note[1:]}"))


def sidebar_engine(ann: Any) -> None:
    """The sidebar's lines for a data set on an engine: the engine and the source's size."""
    source = st.session_state.get(ENGINE_SOURCE_KEY) or {}
    size = f" · {md(source['size'])}" if source.get("size") else ""
    st.caption(f"Engine: **{engine_name(ann)}**{size}")
    st.caption(
        "The report and the Export page need every judgement in memory; each engine page "
        "has its own downloads."
    )


def engine_page(page: str) -> None:
    """Draw ``page`` for a data set on an engine, or say why it is not defined there.

    Returns (and the page runs as usual) for an in-memory data set or none, and for pages
    whose analyses take the engine's handle; otherwise stops the page.
    """
    ann = get_annotations()
    if ann is None or not is_lazy(ann):
        return
    support = engine_support(page, ann.engine)
    where = f"**{md(ann.name)}** is held by **{engine_name(ann)}**"
    if not support.on_engine:
        st.info(
            f"{where} ({format_count(ann.n_judgements, 'judgement')}). {md(support.what)}",
            icon=":material/database:",
        )
        if support.todo:
            st.markdown(md(support.todo))
        page_link(
            "pages/upload.py", "Open the Data page to load other data", ":material/upload_file:"
        )
        if page != "spans":  # the span page has data of its own
            st.stop()
        return
    st.info(f"{where}. {md(support.what)}", icon=":material/database:")
    view = _VIEWS.get(page)
    if view is not None:
        view(ann)
        st.stop()
    sampled_caption(ann)  # the page runs on the handle; its per-item views are sampled


# ---------------------------------------------------------------------- Agreement report
@st.cache_data(max_entries=8, show_spinner=False)
def _engine_report(fp: str, _ann: Any, confidence: float, n_boot: int, distance: str):
    with busy(_ann):
        return agreement_report(
            _ann, confidence=confidence, n_boot=n_boot, seed=0, distance=distance
        )


def _agreement_view(ann: Any) -> None:
    # the engine's choices are kept for its data set when the page is left
    fp = ann.fingerprint
    c1, c2, c3 = st.columns(3)
    levels, resamples = [0.8, 0.9, 0.95, 0.99], [0, 200, 500, AGREEMENT_BOOTSTRAP]
    confidence = c1.select_slider(
        "Confidence",
        levels,
        value=recall("eng_agr_conf", 0.95, scope=fp, fit=one_of(levels)),
        key="eng_agr_conf",
    )
    n_boot = c2.select_slider(
        "Bootstrap resamples",
        resamples,
        value=recall("eng_agr_boot", AGREEMENT_BOOTSTRAP, scope=fp, fit=one_of(resamples)),
        key="eng_agr_boot",
        help="Items are resampled through their count patterns: as cheap at 10^8 judgements "
        "as at 10^4.",
    )
    options = distance_options(ann)
    distance = c3.selectbox(
        "Krippendorff's alpha distance",
        options,
        index=recall_index(
            "eng_agr_distance",
            options,
            options.index(default_distance(ann)) if default_distance(ann) in options else 0,
            scope=fp,
        ),
        key="eng_agr_distance",
    )
    for name, value in (
        ("eng_agr_conf", confidence),
        ("eng_agr_boot", n_boot),
        ("eng_agr_distance", distance),
    ):
        keep(name, value, scope=fp)
    try:
        with st.spinner(f"{engine_name(ann)} is counting the judgements…"):
            report = _engine_report(ann.fingerprint, ann, confidence, int(n_boot), distance)
    except AnnotationDataError as exc:
        show_error(exc)
        return
    show_figure(forest_plot(report), "agreement coefficients", key="eng_agr_forest")
    show_table(report, "agreement report", key="eng_agr_table", index=False)
    st.caption(
        "Every coefficient is computed on all "
        f"{format_count(ann.n_items, 'item')}; the intervals are percentile bootstrap "
        "intervals over items. The pairwise heatmap, per-category and per-item views are "
        "not shown: they need every judgement in memory."
    )


# ---------------------------------------------------------------------- Dawid-Skene
def _ds_view(ann: Any) -> None:
    st.subheader(f"The Dawid-Skene model, fitted by {engine_name(ann)}")
    fp = ann.fingerprint  # the choices are kept for this data set when the page is left
    c1, c2, c3 = st.columns(3)
    starts = list(ENGINE_STARTS)
    init = c1.selectbox(
        "Start from", starts, index=recall_index("eng_ds_init", starts, scope=fp), key="eng_ds_init"
    )
    keep("eng_ds_init", init, scope=fp)
    smoothing = kept_number(
        c2,
        "Smoothing",
        min_value=0.001,
        max_value=10.0,
        value=0.01,
        key="eng_ds_smoothing",
        scope=fp,
    )
    max_iter = kept_number(
        c3, "Most iterations", min_value=1, max_value=1000, value=200, key="eng_ds_iter", scope=fp
    )
    try:
        with st.spinner(f"{engine_name(ann)} is fitting the model…"):
            result, seconds = ds_fit(
                ann, smoothing=smoothing, init=init, max_iter=int(max_iter), tol=1e-7
            )
    except AnnotationDataError as exc:
        show_error(exc)
        return
    m = st.columns(4)
    m[0].metric("Iterations", f"{result.n_iter:,}")
    m[1].metric("Converged", "yes" if result.converged else "no")
    m[2].metric("Log-likelihood", f"{result.final_log_likelihood:,.1f}")
    m[3].metric("Fit time", f"{seconds:.1f} s")
    st.subheader("Prevalence of each category")
    show_table(result.prevalence.to_frame(), "prevalence", key="eng_ds_prev")
    st.subheader("Annotators")
    show_table(annotator_table(result), "annotators", key="eng_ds_annotators")
    st.subheader("The model's labels")
    labels = pd.DataFrame({"label": result.labels, "confidence": result.confidence})
    sampled_caption(ann)
    show_table(labels, "model labels (sample)", key="eng_ds_labels")
    for note in result.notes:
        st.caption(md(note))


_VIEWS = {"agreement": _agreement_view, "gold_labels": _ds_view}
