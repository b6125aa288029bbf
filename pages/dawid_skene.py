"""Dawid-Skene: the model's labels with confidence, annotator confusion matrices, information."""

from __future__ import annotations

import hashlib

import pandas as pd
import streamlit as st

from analytics import AnnotationDataError
from analytics.data import SAMPLES, read_gold_labels, sample_truth
from analytics.dawid_skene import (
    PICKS,
    annotator_information,
    annotator_table,
    confidence_histogram,
    confident_share,
    confusion_heatmaps,
    fit_summary,
    gold_accuracy,
    item_judgements,
    log_likelihood_figure,
    majority_agreement,
    model_labels_table,
    mutual_information_figure,
    per_category_figure,
    per_category_labels,
    per_category_table,
    pick_annotators,
    prevalence_comparison,
    prevalence_figure,
    uncertain_items,
)
from analytics.overview import expected_label_error, judge
from ui.cached import ds_fit, ds_fit_per_category
from ui.engine import engine_page
from ui.settings import remember
from ui.severity import show_verdict
from ui.state import get_sample_key, require_annotations
from ui.text import md
from ui.widgets import download_table, explain, show_error, show_figure, show_table

INITS = {
    "majority": "Majority vote (ties split)",
    "soft": "Share of votes",
    "best": "Best of several starts (slower)",
}
SECTIONS = ["Annotators", "Prevalence and confidence", "Item browser", "Fit details"]
TOLERANCES = {
    "1e-4": 1e-4,
    "1e-5": 1e-5,
    "1e-6": 1e-6,
    "1e-7": 1e-7,
    "1e-8": 1e-8,
    "1e-9": 1e-9,
    "1e-10": 1e-10,
}  # shown -> the relative change that stops EM


def _read_gold(upload) -> tuple[pd.Series, str]:
    """The uploaded known gold labels, and a key for the fit cache."""
    return read_gold_labels(upload), hashlib.blake2b(upload.getvalue(), digest_size=10).hexdigest()


@st.cache_data(max_entries=4, show_spinner=False)
def _sample_gold(key: str) -> pd.Series | None:
    return sample_truth(key)


def _sample_with_truth(ann) -> str | None:
    """The key of the bundled sample that is loaded, if it has known true labels."""
    key = get_sample_key()
    sample = SAMPLES.get(key)
    return key if sample and sample.truth and ann.name == sample.file else None


st.title("Dawid-Skene: gold labels you can trust")
explain(
    """
The **Dawid-Skene model** (Dawid & Skene 1979; Passonneau & Carpenter 2014) does what agreement
coefficients cannot: it estimates, from the labels alone,

- the **true label of every item with a probability** (how sure the model is),
- every annotator's **confusion matrix**: how often they give each label to items of each
  true category, so accuracy *and bias* per category,
- the **prevalence** of each category, corrected for annotators' biases,
- how many **bits of information** one label from each annotator carries.

Labels from accurate annotators count for more; a biased annotator still helps when their bias is
consistent; a *spammer* (same label distribution whatever the item) is ignored automatically.
Use the model's labels as your gold standard and review the items it is unsure about.
"""
)

engine_page("dawid_skene")  # data on DuckDB/Spark: its own view, or why not
ann = require_annotations()
if ann.is_multilabel:
    st.info(
        "This data set is multi-label (each judgement is a set of categories), and the "
        "Dawid-Skene model needs one label per judgement: Concord fits **one yes/no model per "
        "category** (did the annotator include it?) and shows them together. Dependencies "
        "between categories are not modelled.",
        icon=":material/info:",
    )
    with st.spinner(f"Fitting {ann.n_categories} yes/no models…"):
        fits = ds_fit_per_category(ann)
    per_cat = per_category_table(fits)
    show_figure(per_category_figure(per_cat), "per-category prevalence", key="ds_ml_fig")
    show_table(per_cat, "per-category models", key="ds_ml_table", index=False)
    st.markdown(
        "**Each item's label set by the per-category models** (a category is in the set when "
        "its posterior P(yes) is at least 0.5), with every category's posterior:"
    )
    show_table(
        per_category_labels(fits), "per-category model labels", key="ds_ml_labels", index=False
    )
    st.stop()

with st.expander("Model settings", expanded=False):
    c1, c2, c3 = st.columns(3)
    init = c1.selectbox(
        "Start from",
        list(INITS),
        format_func=INITS.get,
        key="ds_init",
        help="EM finds a local optimum; 'best' runs several starts and keeps the most likely fit.",
    )
    smoothing = c2.number_input(
        "Smoothing (pseudo-count)",
        min_value=0.0,
        max_value=10.0,
        value=0.01,
        step=0.01,
        format="%.3f",
        key="ds_smoothing",
        help="Added to every confusion-matrix cell and prevalence count (a Dirichlet prior). "
        "0 gives the plain maximum-likelihood fit.",
    )
    max_iter = c3.number_input("Most EM iterations", 1, 10_000, 500, key="ds_max_iter")
    tol = TOLERANCES[
        st.select_slider(
            "Stop when the log-likelihood changes by less than (relative)",
            options=list(TOLERANCES),
            value="1e-7",
            key="ds_tol",
        )
    ]
    sample = _sample_with_truth(ann)
    use_truth = sample is not None and st.checkbox(
        "Compare with the sample's known true labels",
        value=True,
        key="ds_sample_truth",
        help="This sample ships with the true label of every item; an uploaded gold file "
        "below replaces it.",
    )
    gold_file = st.file_uploader(
        "Expert gold labels (optional): CSV with columns item, label",
        type=["csv", "tsv", "txt"],
        key="ds_gold",
    )
    clamp = st.checkbox(
        "Use these gold labels while fitting (semi-supervised)",
        value=False,
        key="ds_clamp",
        help="Clamped items keep their gold label; accuracy is then measured on the others.",
    )

remember(
    ann, ds_smoothing=float(smoothing), ds_init=init, ds_max_iter=int(max_iter), ds_tol=float(tol)
)
gold, gold_key, gold_title = None, "", "Against your expert gold labels"
if gold_file is not None:
    try:
        gold, gold_key = _read_gold(gold_file)
    except AnnotationDataError as exc:
        st.error(md(f"Could not read the gold file: {exc}"))
elif use_truth:
    gold, gold_key = _sample_gold(sample), f"sample:{sample}"
    gold_title = "Against the sample's known true labels"

try:
    with st.status("Fitting the Dawid-Skene model…", expanded=False) as status:
        st.write(
            f"EM over {ann.n_judgements:,} judgements of {ann.n_items:,} items by "
            f"{ann.n_annotators:,} annotators ({ann.n_categories} categories)."
        )
        use_gold = gold if (clamp and gold is not None) else None
        result, seconds = ds_fit(
            ann,
            smoothing=smoothing,
            init=init,
            max_iter=max_iter,
            tol=tol,
            gold_key=gold_key,
            gold=use_gold,
        )
        state = "converged" if result.converged else "stopped at the iteration limit"
        status.update(
            label=f"Fitted: {result.n_iter} EM iterations, {state} ({seconds:.2f} s).",
            state="complete",
        )
except AnnotationDataError as exc:
    show_error(exc)
    st.stop()

for note in result.notes:
    st.warning(md(note))

headline = fit_summary(result)
m1, m2, m3, m4 = st.columns(4)
# short labels (they must fit a quarter of a 1,024 px window); the details are in the help
m1.metric("Items", f"{headline.n_items:,}")
m2.metric(
    "Sure labels",
    f"{headline.confident_share:.1%}",
    help="Share of items whose most likely label has a posterior of at least 0.99.",
)
m3.metric(
    "Same as majority",
    f"{headline.majority_agreement:.1%}",
    help="Share of items where the model's label equals the majority vote (ties count 1/t).",
)
m4.metric(
    "Mean accuracy",
    f"{headline.mean_accuracy:.1%}",
    help="The annotators' mean estimated accuracy (the model's confusion matrices).",
)
label_error = expected_label_error(result.confidence)
show_verdict(
    judge("gold_error", label_error),
    f"If the model is right about its own uncertainty, about {label_error:.1%} of its "
    f"labels are wrong ({label_error * headline.n_items:,.0f} of {headline.n_items:,} items). "
    "Read it as a lower bound: fitted models are overconfident (RTE in datasets/: 0.8% by "
    "its own account, 7.3% against expert gold); known gold below gives the true figure.",
)
st.caption(
    f"For {headline.confident_share:.0%} of items the model is at least 99% sure of "
    f"the label. It disagrees with majority vote on {headline.majority_disagreement:.0%} of "
    "items: those are where annotators' known biases and accuracies overturn a head count."
)

model_labels = model_labels_table(result)
download_table(
    model_labels, f"{ann.name} model labels with confidence", key="ds_model_labels", index=False
)

if gold is not None:
    try:
        acc = gold_accuracy(result, gold)
        st.subheader(gold_title)
        show_table(acc, "accuracy against gold", key="ds_gold_acc")
        mv, ds = acc["accuracy"]
        st.caption(
            f"Majority vote gets {mv:.1%} right (ties count as a fair coin flip), the model "
            f"{ds:.1%}, over {int(acc['items'].iloc[0]):,} items with a gold label."
        )
    except AnnotationDataError as exc:
        show_error(exc)

section = st.segmented_control("Show", SECTIONS, default=SECTIONS[0], key="ds_section")

if section == "Annotators":
    table = annotator_table(result)
    c1, c2 = st.columns([2, 1])
    how = (
        c1.segmented_control("Annotators to draw", list(PICKS), default=PICKS[0], key="ds_pick")
        or PICKS[0]
    )
    n = (
        c2.slider("How many", 1, min(24, len(table)), min(6, len(table)), key="ds_n")
        if len(table) > 1
        else len(table)
    )
    chosen = None
    if how == "chosen":
        chosen = st.multiselect(
            "Annotators",
            list(table.index),
            default=list(table.index[: min(3, len(table))]),
            key="ds_chosen",
        )
    picked = pick_annotators(result, how, n, chosen)
    show_figure(confusion_heatmaps(result, picked), "confusion matrices", key="ds_heat")
    st.caption(
        "Rows are the true category, columns the label given; darker is more probable. A dark "
        "diagonal is an accurate annotator; a dark column is a bias toward that label; rows that "
        "all look alike are a spammer."
    )
    show_table(table.sort_values("accuracy"), "annotator table", key="ds_annotators")
    show_figure(mutual_information_figure(result), "mutual information", key="ds_mi")
    st.caption(
        "Mutual information: the expected reduction in uncertainty about an item's true label "
        "from one label by this annotator, in bits. The dashed line is the most any label can "
        "give (the uncertainty before seeing one)."
    )
    with st.expander("Mutual information table"):
        show_table(annotator_information(result), "mutual information", key="ds_mi_table")

elif section == "Prevalence and confidence":
    show_figure(prevalence_figure(result), "prevalence", key="ds_prev")
    show_table(prevalence_comparison(result), "prevalence", key="ds_prev_table")
    st.caption(
        "Where the model's prevalence differs from majority vote, annotators are biased toward "
        "or against that category."
    )
    show_figure(confidence_histogram(result), "posterior confidence", key="ds_conf")
    show_table(confident_share(result), "confident labels per category", key="ds_share")
    show_table(majority_agreement(result), "model vs majority agreement", key="ds_agree")

elif section == "Item browser":
    c1, c2 = st.columns([2, 1])
    below = c1.slider(
        "Show items whose top posterior is below", 0.0, 1.0, 0.99, 0.01, key="ds_below"
    )
    order = c2.selectbox("Order", ["least sure first", "item order"], key="ds_order")
    view = uncertain_items(result, below, least_sure_first=order == "least sure first")
    st.caption(f"{len(view):,} of {len(model_labels):,} items are below {below:.2f}.")
    if view.empty:
        st.info("No item is below this confidence: the model is sure of every label.")
    else:
        show_table(view, "low-confidence items", key="ds_items", index=False)
        pick = st.selectbox("Look at one item", list(view["item"][:2000]), key="ds_item")
        judgements = item_judgements(ann, result, pick)
        st.markdown(f"**{md(pick)}**: every judgement, and what the model makes of it")
        show_table(judgements, f"judgements of {pick}", key="ds_item_judgements", index=False)
        post = result.posteriors.loc[pick].rename("posterior").to_frame()
        show_table(post, f"posterior of {pick}", key="ds_item_posterior")

else:
    show_figure(log_likelihood_figure(result), "log-likelihood", key="ds_ll")
    st.caption(
        "EM never lowers this curve. The fit stops when an iteration changes it by less than "
        "the tolerance (relative); a long flat stretch followed by a rise is a plateau."
    )
    st.json(result.settings)
