"""Parts of the Gold labels page: the Dawid-Skene settings, and the multi-label view."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from analytics import AnnotationDataError
from analytics.dawid_skene import (
    per_category_figure,
    per_category_gold,
    per_category_labels,
    per_category_table,
)
from analytics.overview import judge
from analytics.report import ReportSettings
from ui.cached import ds_fit_per_category
from ui.severity import show_verdict
from ui.text import md
from ui.widgets import show_error, show_figure, show_table

INITS = {
    "majority": "Majority vote (ties split)",
    "soft": "Share of votes",
    "best": "Best of several starts (slower)",
}
TOLERANCES = {f"1e-{n}": 10.0**-n for n in range(4, 11)}  # shown -> relative change


def least_accurate_first(table: pd.DataFrame) -> pd.DataFrame:
    """An annotator accuracy table (``estimate`` or ``accuracy``) in the order
    :func:`~analytics.models.accuracy_intervals_figure` draws it, top to bottom: least
    accurate first (ties as given), annotators without an accuracy last."""
    column = "estimate" if "estimate" in table else "accuracy"
    return table.sort_values(column, kind="stable", na_position="last")


def ds_settings(earlier: ReportSettings | None = None) -> dict:
    """The Dawid-Skene settings (the report, the Overview and the Export use them too).

    ``earlier``: the settings the page chose for these data before, which the widgets start
    from (Streamlit forgets a widget's value when its page is left; the report keeps it).
    """
    earlier = earlier or ReportSettings()
    # the shown tolerance nearest the one chosen (a float read back from its label)
    shown_tol = min(TOLERANCES, key=lambda t: abs(np.log10(TOLERANCES[t] / earlier.ds_tol)))
    with st.expander("Dawid-Skene settings", expanded=False):
        st.caption(
            "They apply to the full-confusion Dawid-Skene model on this page (auto's "
            "comparison keeps every model's defaults), and to the Overview, the report and "
            "the Export."
        )
        c1, c2, c3 = st.columns(3)
        init = c1.selectbox(
            "Start from",
            list(INITS),
            index=list(INITS).index(earlier.ds_init) if earlier.ds_init in INITS else 0,
            format_func=INITS.get,
            key="gl_init",
            help="EM finds a local optimum; 'best' runs several starts and keeps the most "
            "likely fit.",
        )
        smoothing = c2.number_input(
            "Smoothing (pseudo-count)",
            min_value=0.0,
            max_value=10.0,
            value=float(earlier.ds_smoothing),
            step=0.01,
            format="%.3f",
            key="gl_smoothing",
            help="Added to every confusion-matrix cell and prevalence count (a Dirichlet "
            "prior). 0 gives the plain maximum-likelihood fit.",
        )
        max_iter = c3.number_input(
            "Most EM iterations", 1, 10_000, int(earlier.ds_max_iter), key="gl_max_iter"
        )
        tol = TOLERANCES[
            st.select_slider(
                "Stop when the log-likelihood changes by less than (relative)",
                options=list(TOLERANCES),
                value=shown_tol,
                key="gl_tol",
            )
        ]
    return {"init": init, "smoothing": float(smoothing), "max_iter": int(max_iter), "tol": tol}


def show_multilabel_models(ann, gold=None, gold_title: str = "") -> None:
    """Multi-label data: one yes/no Dawid-Skene model per category, and, with true label
    sets for some items (``gold``), how many of its sets and decisions are right."""
    st.info(
        "This data set is multi-label (each judgement is a set of categories), and the "
        "annotator models need one label per judgement: Concord fits **one yes/no "
        "Dawid-Skene model per category** (did the annotator include it?) and shows them "
        "together. Dependencies between categories are not modelled.",
        icon=":material/info:",
    )
    with st.spinner(f"Fitting {ann.n_categories} yes/no models…"):
        fits = ds_fit_per_category(ann)
    per_cat = per_category_table(fits)
    show_figure(per_category_figure(per_cat), "per-category prevalence", key="gl_ml_fig")
    # its "sure labels" are at least 0.99 sure (per_category_table): say so, since the
    # Overview calls a label sure from 90%
    shown = per_cat.rename(columns={"sure labels": "at least 99% sure"})
    show_table(shown, "per-category models", key="gl_ml_table", index=False)
    st.markdown(
        "**Each item's label set by the per-category models** (a category is in the set when "
        "its posterior P(yes) is at least 0.5), with every category's posterior:"
    )
    show_table(
        per_category_labels(fits), "per-category model labels", key="gl_ml_labels", index=False
    )
    if gold is None:
        return
    st.subheader(gold_title)
    try:
        scored = per_category_gold(fits, gold)
    except AnnotationDataError as exc:
        show_error(exc)
        return
    exact = scored.iloc[-1]
    error = 1.0 - float(exact["model"])
    verdict = judge("gold_error", error)
    show_verdict(
        verdict,
        f"Against the {int(exact['gold_items']):,} items with known label sets, "
        f"{verdict.shown} of the model's sets are wrong in at least one category "
        f"(majority vote: {1.0 - float(exact['majority']):.1%}).",
    )
    st.caption(
        md(
            "Per category: the share of yes/no decisions that are right (a majority tie "
            "counts 1/2); last row, whole sets."
        )
    )
    show_table(
        scored, "per-category accuracy on gold", key="gl_ml_gold", percents=("model", "majority")
    )
