"""Gold labels: choose an annotator model (or let Concord choose), compare, evaluate."""

from __future__ import annotations

import hashlib

import pandas as pd
import streamlit as st

from analytics import AnnotationDataError
from analytics.data import SAMPLES, read_gold_labels, sample_truth
from analytics.dawid_skene import confusion_heatmaps, model_labels_table, pick_annotators
from analytics.models import (
    MODELS,
    accuracy_intervals_figure,
    annotator_gold_accuracy,
    bootstrap,
    calibration,
    calibration_figure,
    comparison_figure,
    disagreements,
    fit,
    gold_table,
)
from ui.engine import engine_page
from ui.state import get_sample_key, require_annotations
from ui.text import md
from ui.widgets import download_table, explain, show_error, show_figure, show_table

NAMES = {
    "auto": "auto (models stacked without gold)",
    "majority": "majority vote",
    "one_coin": "one-coin Dawid-Skene",
    "mace": "MACE (trust and spam)",
    "glad": "GLAD (ability and item difficulty)",
    "dawid_skene": "Dawid-Skene (full confusion)",
    "hierarchical": "hierarchical Dawid-Skene",
}


def _memo(key: tuple, make):
    """Results kept in the session (at most 8): the work reports progress as it runs,
    which a st.cache_data function may not do with elements made outside it."""
    store = st.session_state.setdefault("gl_results", {})
    if key not in store:
        if len(store) >= 8:
            store.pop(next(iter(store)))
        store[key] = make()
    return store[key]


@st.cache_data(max_entries=8, show_spinner=False)
def _fit_all(fingerprint: str, _ann, models: tuple[str, ...]) -> dict:
    return {m: fit(_ann, m) for m in models}


@st.cache_data(max_entries=8, show_spinner=False)
def _fit_clamped(fingerprint: str, _ann, model: str, gold_key: str, _gold) -> object:
    return fit(_ann, model, gold=_gold)


@st.cache_data(max_entries=4, show_spinner=False)
def _sample_gold(key: str) -> pd.Series | None:
    return sample_truth(key)


def _gold_choice(ann) -> tuple[pd.Series | None, str]:
    key = get_sample_key()
    sample = SAMPLES.get(key)
    has_truth = bool(sample and sample.truth and ann.name == sample.file)
    use_truth = has_truth and st.checkbox(
        "Evaluate against the sample's known true labels", value=True, key="gl_sample_truth"
    )
    upload = st.file_uploader(
        "Gold labels for some items (optional): CSV with columns item, label",
        type=["csv", "tsv", "txt"],
        key="gl_gold",
    )
    if upload is not None:
        try:
            digest = hashlib.blake2b(upload.getvalue(), digest_size=10).hexdigest()
            return read_gold_labels(upload), digest
        except AnnotationDataError as exc:
            st.error(md(f"Could not read the gold file: {exc}"))
    elif use_truth:
        return _sample_gold(key), f"sample:{key}"
    return None, ""


st.title("Gold labels: one model of the annotators, chosen and checked")
explain(
    """
No annotator model wins on every crowd. **Majority vote** counts heads; **one-coin** models give
each annotator one accuracy; **MACE** separates trustworthy labels from spam; **GLAD** adds how
hard each item is; **Dawid-Skene** gives each annotator a full confusion matrix (accuracy *and*
bias per category) and overfits annotators with few labels; **hierarchical Dawid-Skene** shrinks
those annotators toward the crowd while heavy annotators keep their own biases.

**auto** compares them by how well each predicts judgements it did not see (5-fold cross-validation
over items), without looking at any gold label, and averages their answers with the weights that
predict best (stacking); it says which models, with which weights, and which single model it
would pick. Upload gold labels
for some items (honeypots, expert-checked items) to see how often each model and each annotator is
right on them, and whether the models' confidence is honest. The bootstrap at the bottom refits
the model on resampled items to show how sure the estimates themselves are.
"""
)

engine_page("gold_labels")  # data on DuckDB/Spark: its own view, or why not
ann = require_annotations()
if ann.is_multilabel:
    st.error(
        "This data set is multi-label (each judgement is a set of categories). These models "
        "need one label per judgement: fit one yes/no data set per category instead."
    )
    st.stop()

c1, c2 = st.columns([2, 1])
choice = c1.selectbox("Model", list(NAMES), format_func=NAMES.get, key="gl_model")
with c2:
    gold, gold_key = _gold_choice(ann)
clamp = gold is not None and st.checkbox(
    "Use the gold labels while fitting the chosen model (semi-supervised)",
    value=False,
    key="gl_clamp",
    help="Clamped items keep their gold label and leave the evaluation. auto still chooses "
    "without them.",
)

candidates = tuple(
    m for m in MODELS if m != "glad" or (ann.n_annotators > 1 and ann.n_categories > 1)
)
try:
    with st.status("Comparing the models…", expanded=False) as status:
        bar = st.progress(0.0, text="cross-validation")
        auto = _memo(
            ("auto", ann.fingerprint),
            lambda: fit(ann, progress=lambda p: bar.progress(min(p, 1.0))),
        )
        table = auto.settings["comparison"]
        results = {**_fit_all(ann.fingerprint, ann, candidates), "auto": auto}
        status.update(label=f"Compared {len(candidates)} models.", state="complete")
except AnnotationDataError as exc:
    show_error(exc)
    st.stop()

chosen = choice
result = results[chosen]
if clamp:
    try:
        result = _fit_clamped(ann.fingerprint, ann, chosen, gold_key, gold)
    except AnnotationDataError as exc:
        show_error(exc)
notes = list(result.notes)
if chosen == "auto":
    st.info(md(notes.pop(0)))
# a note that questions the result is a warning; the routine ones (which start won) are
# captions, so the page does not shout six times on ordinary data
ALARMS = ("not identified", "converge", "iteration limit", "disagree", "cannot", "refused")
for note in notes:
    if any(word in note.lower() for word in ALARMS):
        st.warning(md(note))
    else:
        st.caption(md(note))

if table is not None:
    st.subheader("Models compared")
    shown = table.copy()
    if gold is not None:
        try:
            scored = gold_table(results, gold)
            shown = shown.join(scored[["accuracy", "accuracy_low", "accuracy_high", "gold_items"]])
            st.caption("Accuracy on the gold items, auto included:")
            show_table(scored, "accuracy on gold", key="gl_gold_table")
        except AnnotationDataError as exc:
            show_error(exc)
    top = auto.model if auto.model in shown.index else None
    show_figure(comparison_figure(shown, chosen=top), "model comparison", key="gl_cmp")
    show_table(shown, "model comparison", key="gl_cmp_table")
    st.caption(
        f"Held-out log-likelihood: nats per judgement on {table.attrs.get('n_heldout', 0):,} "
        "judgements hidden from the fit (higher is better); error bars are paired standard "
        "errors against the best model. Accuracy (with gold) is never used to choose."
    )
    if auto.model == "stacked":
        weights = auto.parameters["weights"].rename("weight").to_frame()
        st.caption("auto's weights (the mixture that best predicts the held-out judgements):")
        show_table(weights, "auto weights", key="gl_weights")

st.subheader(f"The chosen model: {NAMES[chosen]}")
m1, m2, m3 = st.columns(3)
m1.metric("Items", f"{len(result.items):,}")
m2.metric("Labels with posterior ≥ 0.99", f"{(result.confidence >= 0.99).mean():.1%}")
m3.metric("Mean annotator accuracy", f"{result.mean_accuracy:.1%}")
download_table(
    model_labels_table(result), f"{ann.name} {chosen} labels", key="gl_labels", index=False
)
picked = pick_annotators(result, "least accurate", min(6, len(result.annotators)))
show_figure(confusion_heatmaps(result, picked), "confusion matrices", key="gl_heat")
st.caption(
    "The six least accurate annotators under this model: rows are the true category, columns "
    "the label given. The Dawid-Skene page has the full views of a Dawid-Skene fit."
)

st.subheader("Where the models disagree")
view = disagreements(results, chosen)
st.caption(
    f"{view.attrs['share']:.1%} of items get a different label from at least one other model; "
    "the table lists them, most disputed first, and the matrix the share of items each pair of "
    "models labels differently."
)
show_table(view.head(2000), "model disagreements", key="gl_disagree", index=False)
show_table(view.attrs["pairwise"], "pairwise disagreement", key="gl_pairwise")

if gold is not None:
    st.subheader("Evaluation against the gold labels")
    try:
        curves = {m: calibration(r, gold) for m, r in results.items()}
        show_figure(calibration_figure(curves), "calibration", key="gl_calib")
        st.caption(
            "Points below the diagonal are over-confident: items at that confidence are right "
            "less often than the model claims. ECE is the average gap, weighted by items."
        )
        per_annotator = annotator_gold_accuracy(ann, gold)
        show_figure(
            accuracy_intervals_figure(per_annotator, title="Annotators on the gold items"),
            "annotator gold accuracy",
            key="gl_ann_gold",
        )
        show_table(per_annotator, "annotator gold accuracy", key="gl_ann_gold_table")
    except AnnotationDataError as exc:
        show_error(exc)

st.subheader("How sure is the model itself?")
n_boot = st.select_slider("Bootstrap refits", [20, 50, 100, 200], value=50, key="gl_nboot")
if st.toggle("Run the item bootstrap", value=False, key="gl_boot"):
    bar = st.progress(0.0, text="bootstrap")
    fit_key = gold_key if clamp else ""
    unc = _memo(
        ("bootstrap", ann.fingerprint, chosen, fit_key, n_boot),
        lambda: bootstrap(ann, result, n_boot=n_boot, progress=lambda p: bar.progress(p)),
    )
    st.caption(md(unc.method + "."))
    st.metric("Items whose label changes in some refit", f"{unc.share_changed:.1%}")
    show_figure(
        accuracy_intervals_figure(unc.annotator_accuracy, title="Annotator accuracy (bootstrap)"),
        "annotator accuracy intervals",
        key="gl_boot_fig",
    )
    show_table(unc.annotator_accuracy, "annotator accuracy intervals", key="gl_boot_acc")
    show_table(unc.prevalence, "prevalence intervals", key="gl_boot_prev")
