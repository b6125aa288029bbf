"""Gold labels: choose an annotator model (or let Concord choose), see it, compare, evaluate.

Thin: every number and figure comes from :mod:`analytics.models` and
:mod:`analytics.dawid_skene` (whose views read any model's fit); slow results are kept
per data set (:func:`ui.cached.kept`, which lets them draw their own progress).
"""

from __future__ import annotations

import hashlib
import math
from contextlib import nullcontext

import pandas as pd
import streamlit as st

from analytics import AnnotationDataError, format_count
from analytics.data import DEFAULT_LIMITS, anonymous_annotators, read_gold_labels
from analytics.dawid_skene import (
    PICKS,
    annotator_information,
    annotator_table,
    confidence_histogram,
    confident_share,
    confusion_heatmaps,
    fit_summary,
    item_judgements,
    log_likelihood_figure,
    majority_agreement,
    model_labels_table,
    mutual_information_figure,
    pick_annotators,
    prevalence_comparison,
    prevalence_figure,
    uncertain_items,
)
from analytics.models import (
    accuracy_intervals_figure,
    annotator_gold_accuracy,
    applicable_models,
    best_calibrated,
    bootstrap,
    calibration,
    calibration_figure,
    comparison_figure,
    comparison_with_gold,
    disagreements,
    fit,
    gold_table,
    settings_table,
    split_notes,
    stack_parts,
)
from analytics.overview import (
    OWN_ACCOUNT,
    SURE,
    expected_label_error,
    format_right,
    judge,
    judge_measured_error,
    judge_own_error,
)
from ui.cached import kept
from ui.engine import engine_page
from ui.frame import via_the_frame
from ui.gold_views import ds_settings, least_accurate_first, show_multilabel_models
from ui.settings import (
    keep,
    kept_toggle,
    one_of,
    recall,
    recall_index,
    remember,
    report_settings,
    some_of,
    within,
)
from ui.severity import show_verdict
from ui.state import (
    SAMPLE_TRUTH_KEY,
    forget_gold,
    known_gold,
    remember_gold,
    require_annotations,
    sample_gold,
    uploaded_gold,
)
from ui.text import md
from ui.widgets import (
    MISSING,
    download_table,
    explain,
    show_error,
    show_figure,
    show_table,
    three_decimals,
)

via_the_frame("pages/gold_labels.py")  # opened by its address before the app frame ran

NAMES = {
    "auto": "auto (chosen or stacked without gold)",
    "majority": "majority vote",
    "one_coin": "one-coin Dawid-Skene",
    "mace": "MACE (trust and spam)",
    "glad": "GLAD (ability and item difficulty)",
    "dawid_skene": "Dawid-Skene (full confusion)",
    "hierarchical": "hierarchical Dawid-Skene",
}
SHORT = {m: name.split(" (")[0] for m, name in NAMES.items()}  # "GLAD", "MACE", ...
#: columns of an interval's two ends and its estimate: drawn alike (0.430 to 0.798, not 0.43)
INTERVALS = ("estimate", "low", "high", "accuracy", "accuracy_low", "accuracy_high")
SECTIONS = [
    "Models compared",
    "Annotators",
    "Prevalence and confidence",
    "Item browser",
    "Where models disagree",
    "Against gold",
    "Model uncertainty",
    "Fit details",
]


def _gold_choice(ann) -> tuple[pd.Series | None, str, str]:
    """The gold labels to evaluate against, a key for the caches, and a title.

    An uploaded file is kept for the session (every page evaluates against it) until it is
    removed from the uploader or another data set is loaded.
    """
    if sample_gold(ann)[1] is not None:
        use = st.checkbox(
            "Use the sample's true labels",
            value=st.session_state.get(SAMPLE_TRUTH_KEY, True),
            key="gl_sample_truth",
            help="Evaluate the models against them: this sample ships with the true label of "
            "every item; an uploaded gold file replaces it.",
        )
        st.session_state[SAMPLE_TRUTH_KEY] = use
    upload = st.file_uploader(
        "Gold labels for some items (optional): CSV with columns item, label",
        type=["csv", "tsv", "txt"],
        key="gl_gold",
        # what the reader takes (its size limit), not the app's 1 GiB for data sets
        max_upload_size=DEFAULT_LIMITS.max_bytes // 2**20,
        on_change=forget_gold,  # a file removed (or replaced) here is no longer the gold
    )
    if upload is not None:
        digest = hashlib.blake2b(upload.getvalue(), digest_size=10).hexdigest()
        kept = uploaded_gold(ann)
        try:
            if kept is None or kept[1] != digest:  # read once, not on every rerun
                remember_gold(ann, upload.name, digest, read_gold_labels(upload))
        except AnnotationDataError as exc:
            st.error(md(f"Could not read the gold file: {exc}"))
    elif (kept := uploaded_gold(ann)) is not None:
        st.caption(md(f"Gold labels: {kept[0]}, uploaded earlier in this session."))
        if st.button("Forget these gold labels", key="gl_forget_gold"):
            forget_gold()
            st.rerun()
    key, gold, what = known_gold(ann)
    if gold is None:
        return None, "", ""
    return gold, key, f"Against {what}"


def _auto_title(result) -> str:
    """What auto fitted, from its weights (``settings["weights"]``, ``{model: 1.0}`` when one
    model took all the weight): the model it chose, or the models it stacked."""
    weights = pd.Series(result.settings.get("weights") or {result.model: 1.0}, dtype=float)
    if result.settings.get("comparison") is None:
        return f"auto: {SHORT.get(result.model, result.model)} (nothing could be held out)"
    if len(weights) == 1:
        return f"auto: {SHORT.get(weights.index[0], weights.index[0])}, chosen without gold (held-out likelihood)"
    shares = ", ".join(
        f"{SHORT.get(m, m)} {w:.0%}" for m, w in weights.sort_values(ascending=False).items()
    )
    return f"auto: {len(weights)} models stacked without gold (held-out likelihood): {shares}"


def _intervals(df: pd.DataFrame) -> dict[str, str]:
    """``formats`` for a table's intervals: both ends and the estimate with three decimals."""
    return {c: "{:.3f}" for c in INTERVALS if c in df.columns}


st.title("Gold labels: one model of the annotators, chosen and checked")
explain(
    """
An **annotator model** estimates, from the labels alone, the **true label of every item with a
probability**, every annotator's **confusion matrix** (how often they give each label to items
of each true category: accuracy *and* bias), the **prevalence** of each category corrected for
the annotators' biases, and how many **bits of information** one label from each annotator
carries (Dawid & Skene 1979; Passonneau & Carpenter 2014).

No model wins on every crowd. **Majority vote** counts heads; **one-coin** models give each
annotator one accuracy; **MACE** separates trustworthy labels from spam; **GLAD** adds how hard
each item is; **Dawid-Skene** gives each annotator a full confusion matrix and overfits
annotators with few labels; **hierarchical Dawid-Skene** shrinks those annotators toward the
crowd while heavy annotators keep their own biases.

**auto** compares them by how well each predicts judgements it did not see (5-fold
cross-validation over items), without looking at any gold label, and averages their answers
with the weights that predict best (stacking); it says which models, with which weights, and
which single model it would pick. Every view below shows the model you choose. Upload gold
labels for some items (honeypots, expert-checked items) to see how often each model and each
annotator is right on them, and whether the models' confidence is honest; the item bootstrap
shows how sure the estimates themselves are.
"""
)

engine_page("gold_labels")  # data on DuckDB/Spark: its own view, or why not
ann = require_annotations()
if ann.is_multilabel:
    ml_gold, _, ml_title = _gold_choice(ann)
    show_multilabel_models(ann, ml_gold, ml_title)
    st.stop()
if anonymous_annotators(ann):  # a count table: no model of each annotator applies
    show_error(
        AnnotationDataError(
            "a count table's raters are anonymous, and the annotator models estimate each "
            "annotator: they need to know who gave which label.",
            hint="Load the judgements (item, annotator, label) to fit them. The Agreement "
            "report computes the coefficients defined on count tables.",
        )
    )
    st.stop()

c1, c2 = st.columns([2, 1])
with c1:
    # only the models these data allow (GLAD needs two annotators and two categories): a
    # model kept from other data that these do not allow gives way to auto
    offered = ["auto", *(m for m in NAMES if m in applicable_models(ann))]
    choice = st.selectbox(
        "Model",
        offered,
        index=recall_index("gl_model", offered),
        format_func=NAMES.get,
        key="gl_model",
    )
    keep("gl_model", choice)
    ds_options = ds_settings(report_settings(ann))  # as chosen before, if the page was left
with c2:
    gold, gold_key, gold_title = _gold_choice(ann)
remember(
    ann,
    ds_smoothing=ds_options["smoothing"],
    ds_init=ds_options["init"],
    ds_max_iter=ds_options["max_iter"],
    ds_tol=ds_options["tol"],
)
clamp = gold is not None and st.checkbox(
    "Use the gold labels while fitting the chosen model (semi-supervised)",
    value=recall("gl_clamp", False, scope=ann.fingerprint),
    key="gl_clamp",
    help="Clamped items keep their gold label and leave the evaluation. auto still chooses "
    "without them.",
)
if gold is not None:
    keep("gl_clamp", clamp, scope=ann.fingerprint)


def _options(model: str) -> dict:
    return ds_options if model == "dawid_skene" else {}


try:
    with st.status("Comparing the models…", expanded=False) as status:
        bar = st.progress(0.0, text="cross-validation (auto)")
        auto = kept(ann, ("auto",), lambda: fit(ann, progress=lambda p: bar.progress(min(p, 1.0))))
        table = auto.settings["comparison"]
        parts = auto.parameters.get("components", {})
        results = {}
        for name in applicable_models(ann):
            options = _options(name)
            bar.progress(1.0, text=f"fitting {NAMES[name]}")
            results[name] = kept(
                ann,
                ("fit", name, tuple(sorted(options.items()))),
                lambda n=name, o=options: parts[n] if n in parts and not o else fit(ann, n, **o),
            )
        results["auto"] = auto
        status.update(label=f"Compared {len(results) - 1} models.", state="complete")
    result = results[choice]
    if clamp:
        with st.spinner("Fitting with the gold labels clamped…"):
            options = _options(choice)
            result = kept(
                ann,
                ("clamped", choice, tuple(sorted(options.items())), gold_key),
                lambda: fit(ann, choice, gold=gold, **options),
            )
except AnnotationDataError as exc:
    show_error(exc)
    st.stop()

notes = list(result.notes)
if choice == "auto":
    st.info(md(notes.pop(0)))
alarms, remarks = split_notes(notes)
for note in alarms:
    st.warning(md(note))
# routine remarks (which start won) fold away when there are several: the alarms and the
# chosen model are what a viewer reads first
with st.expander(f"Notes from the fits ({len(remarks)})") if len(remarks) > 2 else nullcontext():
    for note in remarks:
        st.caption(md(note))

scored = None
if gold is not None:
    try:
        scored = gold_table({**results, choice: result}, gold)
    except AnnotationDataError as exc:
        show_error(exc)

st.subheader(f"The chosen model: {_auto_title(result) if choice == 'auto' else NAMES[choice]}")
headline = fit_summary(result, SURE)  # "sure" as on the Overview, which calls the rest unsure
m1, m2, m3, m4 = st.columns(4)
# short labels (they must fit a quarter of a 1,024 px window); the details are in the help
m1.metric("Items", f"{headline.n_items:,}")
is_vote = result.model == "majority"  # chosen, or auto on too few items to compare
if is_vote:  # its confidence is 1 for any clear winner: no probability
    m2.metric(
        "Without a tie",
        f"{headline.confident_share:.1%}",
        help="Share of items whose vote has one clear winner. Majority vote's confidence is "
        "1 for any clear winner (a 3-2 vote as a 5-0 one) and 1/t in a t-way tie, not a "
        "probability, so it says nothing about how sure the label is.",
    )
else:
    m2.metric(
        f"At least {SURE:.0%} sure",
        f"{headline.confident_share:.1%}",
        help=f"Share of items whose most likely label has a posterior of at least {SURE:.2f}: "
        "the Overview calls the others unsure.",
    )
m3.metric(
    "Same as majority",
    "itself" if is_vote else f"{headline.majority_agreement:.1%}",
    help="Share of items where the model's label equals the majority vote (ties count 1/t).",
)
if scored is not None:
    m4.metric(
        "Right on gold",
        format_right(1.0 - float(scored.loc[choice, "accuracy"])),  # + the wrong share = 100%
        help=f"Share of the {int(scored.loc[choice, 'gold_items']):,} gold items (not "
        "clamped) whose model label is the gold label (ties count 1/t).",
    )
else:
    m4.metric(
        "Mean accuracy",
        f"{headline.mean_accuracy:.1%}",
        help="The annotators' mean estimated accuracy (the model's confusion matrices).",
    )
n_gold = 0 if scored is None else int(scored.loc[choice, "gold_items"])
if n_gold:
    # gold measures the error: the verdict is on it, not on the model's own account
    gold_error = 1.0 - float(scored.loc[choice, "accuracy"])
    gold_verdict, few = judge_measured_error(gold_error, n_gold)
    own = (
        ""
        if is_vote
        else f" By its own posteriors the model expected about "
        f"{judge('gold_error', expected_label_error(result.confidence)).shown} wrong."
    )
    show_verdict(
        gold_verdict,
        f"Against the {format_count(n_gold, 'item')} with known gold labels, {gold_verdict.shown} of the "
        f"model's labels are wrong ({gold_error * n_gold:,.0f} of {n_gold:,}).{few}{own}",
    )
elif scored is not None and clamp:  # every gold item clamped: none left to measure with
    st.info(
        "Every item with a gold label was clamped to it while fitting, so none is left to "
        "measure the model on (and the clamped posteriors say nothing about its errors). "
        "Untick 'Use the gold labels while fitting', or clamp part of the gold and score "
        "on the rest."
    )
elif is_vote:
    # its "posteriors" are 1 for a clear winner and 1/t in a tie: no uncertainty to read
    st.info(
        "Majority vote has no model of its own uncertainty: a 3-2 vote counts as sure as a "
        "5-0 one, and only ties look unsure. It cannot say how many of its labels are "
        "wrong; a model (auto) can, and gold labels on some items measure it."
    )
else:
    label_error = expected_label_error(result.confidence)
    error_verdict = judge_own_error(label_error)  # a lower bound: never "good" on its own
    expected = label_error * headline.n_items  # an expected count: 12.6% of 4 items is 0.5
    count = f"{expected:,.1f}" if expected < 10 else f"{expected:,.0f}"
    show_verdict(
        error_verdict,
        f"If the model is right about its own uncertainty, about {error_verdict.shown} of its "
        f"labels are wrong ({count} of {headline.n_items:,} items). Read it as a lower bound: fitted models are overconfident (Dawid-Skene on "
        "the RTE crowd data of Snow et al. 2008: 0.8% wrong by its own account, 7.3% against expert gold); gold "
        "labels give the true figure."
        + (
            " So it cannot show that the labels are good: upload gold labels for some items."
            if error_verdict.reason == OWN_ACCOUNT
            else ""
        ),
    )
download_table(
    model_labels_table(result),
    f"{choice} labels with confidence",
    key="gl_labels",
    index=False,
    label="Download the model's labels with confidence (CSV)",
)

section = st.segmented_control(
    "Show",
    SECTIONS,
    default=recall("gl_section", SECTIONS[0], fit=one_of(SECTIONS)),
    required=True,
    key="gl_section",
)
section = section or SECTIONS[0]
keep("gl_section", section)

if section == "Models compared":
    if table is None:
        st.info(
            "No item has two judgements, so no judgement can be held out and predicted from "
            "the others: auto is majority vote."
        )
    else:
        shown = comparison_with_gold(table, scored)
        top = auto.model if auto.model in shown.index else None
        show_figure(comparison_figure(shown, chosen=top), "model comparison", key="gl_cmp")
        # the best model's paired SE against itself is 0 by construction: a dash, not 0.000
        best = shown["heldout_ll"].idxmax()
        se_text = [MISSING if m == best else f"{v:.3f}" for m, v in shown["heldout_se"].items()]
        show_table(
            shown,
            "model comparison",
            key="gl_cmp_table",
            formats=_intervals(shown),
            texts={"heldout_se": se_text},
        )
        st.caption(
            f"Held-out log-likelihood: nats per judgement on {table.attrs.get('n_heldout', 0):,} "
            "judgements hidden from the fit (higher is better); heldout_se and the error bars "
            "are paired standard errors against the best model (none for the best itself, "
            "the reference). Iterations, convergence, log-likelihood and "
            "seconds are those of the comparison's own fit of each model to all the "
            "judgements, from a majority-vote start; the fits this page shows (Fit details) "
            "are the best of several starts and may differ. Accuracy (with gold) is never "
            "used to choose; it is the accuracy of each model's fit as this page shows it "
            "when chosen (Dawid-Skene with the settings above, auto's mixture as weighted)."
        )
        if auto.model == "stacked":
            weights = (
                auto.parameters["weights"].sort_values(ascending=False).rename("weight").to_frame()
            )
            st.caption("auto's weights (the mixture that best predicts the held-out judgements):")
            show_table(weights, "auto weights", key="gl_weights")

elif section == "Annotators":
    annotators = annotator_table(result)
    c1, c2 = st.columns([2, 1])
    how = (
        c1.segmented_control(
            "Annotators to draw",
            list(PICKS),
            default=recall("gl_pick", PICKS[0], fit=one_of(PICKS)),
            required=True,
            key="gl_pick",
        )
        or PICKS[0]
    )
    keep("gl_pick", how)
    most = min(24, len(annotators))
    n = (
        c2.slider(
            "How many",
            1,
            most,
            recall("gl_n", min(6, len(annotators)), fit=within(1, most)),
            key="gl_n",
        )
        if len(annotators) > 1
        else len(annotators)
    )
    if len(annotators) > 1:
        keep("gl_n", n)
    chosen = None
    if how == "chosen":  # names of these data's annotators: kept for these data alone
        chosen = st.multiselect(
            "Annotators",
            list(annotators.index),
            default=recall(
                "gl_chosen",
                list(annotators.index[: min(3, len(annotators))]),
                scope=ann.fingerprint,
                fit=some_of(annotators.index),
            ),
            key="gl_chosen",
        )
        keep("gl_chosen", chosen, scope=ann.fingerprint)
    picked = pick_annotators(result, how, n, chosen)
    show_figure(confusion_heatmaps(result, picked), "confusion matrices", key="gl_heat")
    st.caption(
        "Rows are the true category, columns the label given; darker is more probable. A dark "
        "diagonal is an accurate annotator; a dark column is a bias toward that label; rows that "
        "all look alike are a spammer."
    )
    show_table(annotators.sort_values("accuracy"), "annotator table", key="gl_annotators")
    show_figure(mutual_information_figure(result), "mutual information", key="gl_mi")
    st.caption(
        "Mutual information: the expected reduction in uncertainty about an item's true label "
        "from one label by this annotator, in bits. The dashed line is the most any label can "
        "give (the uncertainty before seeing one)."
    )
    with st.expander("Mutual information table"):
        show_table(annotator_information(result), "mutual information", key="gl_mi_table")

elif section == "Prevalence and confidence":
    show_figure(prevalence_figure(result), "prevalence", key="gl_prev")
    show_table(prevalence_comparison(result), "prevalence", key="gl_prev_table")
    st.caption(
        "Where the model's prevalence differs from majority vote, annotators are biased toward "
        "or against that category."
    )
    show_figure(confidence_histogram(result, SURE), "posterior confidence", key="gl_conf")
    show_table(confident_share(result, SURE), "confident labels per category", key="gl_share")
    show_table(majority_agreement(result), "model vs majority agreement", key="gl_agree")

elif section == "Item browser":
    c1, c2 = st.columns([2, 1])
    below = c1.slider(
        "Show items whose top posterior is below",
        0.01,
        1.0,
        recall("gl_below", 0.99, fit=within(0.01, 1.0)),
        0.01,
        key="gl_below",
    )
    orders = ["least sure first", "item order"]
    order = c2.selectbox("Order", orders, index=recall_index("gl_order", orders), key="gl_order")
    keep("gl_below", below)
    keep("gl_order", order)
    view = uncertain_items(result, below, least_sure_first=order == "least sure first")
    st.caption(f"{len(view):,} of {headline.n_items:,} items are below {below:.2f}.")
    if view.empty:
        st.info("No item is below this confidence: the model is sure of every label.")
    else:
        show_table(view, "low-confidence items", key="gl_items", index=False)
        offered_items = list(view["item"][:2000])
        pick = st.selectbox(
            "Look at one item",
            offered_items,
            index=recall_index("gl_item", offered_items, scope=ann.fingerprint),
            key="gl_item",
        )
        keep("gl_item", pick, scope=ann.fingerprint)
        judgements = item_judgements(ann, result, pick)
        st.markdown(f"**{md(pick)}**: every judgement, and what the model makes of it")
        show_table(judgements, f"judgements of {pick}", key="gl_item_judgements", index=False)
        post = result.posteriors.loc[pick].rename("posterior").to_frame()
        show_table(post, f"posterior of {pick}", key="gl_item_posterior")

elif section == "Where models disagree":
    compared = {**results, choice: result}
    view = disagreements(compared, choice)
    st.caption(
        f"On {view.attrs['share']:.1%} of the items at least one other model gives another "
        "label than the chosen one: the table lists them, most disputed first (`disagree`: "
        "how many models differ), and the matrix gives the share of items each pair of "
        "models labels differently."
    )
    show_table(view, "model disagreements", key="gl_disagree", index=False)
    show_table(view.attrs["pairwise"], "pairwise disagreement", key="gl_pairwise")

elif section == "Against gold":
    if gold is None:
        st.info(
            "Upload gold labels for some items (above, beside the model) to see how often each "
            "model and each annotator is right on them, and whether the confidence is honest."
        )
    elif scored is not None:
        st.subheader(gold_title)
        formats = three_decimals(scored) | _intervals(scored)  # not "0.867 to 1"
        show_table(scored, "accuracy on gold", key="gl_gold_table", formats=formats)
        st.caption(
            "Accuracy on the gold items with a 95% interval (Wilson's; ties count 1/t); "
            "items clamped in a fit are left out of its row."
        )
        try:
            curves = {m: calibration(r, gold) for m, r in {**results, choice: result}.items()}
            best = best_calibrated(curves)
            show_figure(
                calibration_figure(curves, shown={choice, best}), "calibration", key="gl_calib"
            )
            st.caption(
                "Points below the diagonal are over-confident: items at that confidence are "
                "right less often than the model claims. ECE is the average gap, weighted by "
                "items. Drawn: the model chosen above and the best calibrated one; click a "
                "model in the legend to add it. Majority vote is never picked as the best "
                "calibrated: its confidence is 1 for any clear winner (1/t in a tie), not a "
                "probability, so its ECE says little."
            )
            per_annotator = least_accurate_first(annotator_gold_accuracy(ann, gold))  # as drawn
            show_figure(
                accuracy_intervals_figure(per_annotator, title="Annotators on the gold items"),
                "annotator gold accuracy",
                key="gl_ann_gold",
            )
            show_table(
                per_annotator,
                "annotator gold accuracy",
                key="gl_ann_gold_table",
                formats=_intervals(per_annotator),
            )
        except AnnotationDataError as exc:
            show_error(exc)

elif section == "Model uncertainty":
    st.caption(
        "The item bootstrap refits the chosen model on items drawn with replacement: the "
        "spread of its estimates across refits is how sure the model itself is."
    )
    refits = [20, 50, 100, 200]
    n_boot = st.select_slider(
        "Bootstrap refits", refits, value=recall("gl_nboot", 50, fit=one_of(refits)), key="gl_nboot"
    )
    keep("gl_nboot", n_boot)
    if kept_toggle(st, "Run the item bootstrap", key="gl_boot", scope=ann.fingerprint):
        bar = st.progress(0.0, text="bootstrap")
        unc = kept(
            ann,
            (
                "bootstrap",
                choice,
                tuple(sorted(_options(choice).items())),
                gold_key if clamp else "",
                n_boot,
            ),
            lambda: bootstrap(ann, result, n_boot=n_boot, progress=lambda p: bar.progress(p)),
        )
        bar.progress(1.0, text="bootstrap done")
        st.caption(md(unc.method + "."))
        st.metric("Items whose label changes in some refit", f"{unc.share_changed:.1%}")
        show_figure(
            accuracy_intervals_figure(
                unc.annotator_accuracy, title="Annotator accuracy (bootstrap)"
            ),
            "annotator accuracy intervals",
            key="gl_boot_fig",
        )
        for frame, title, key in (
            (
                least_accurate_first(unc.annotator_accuracy),
                "annotator accuracy intervals",
                "gl_boot_acc",
            ),
            (unc.prevalence, "prevalence intervals", "gl_boot_prev"),
        ):
            show_table(frame, title, key=key, formats=_intervals(frame))

else:
    seconds = result.settings.get("seconds")
    took = f" ({seconds:.2f} s)" if isinstance(seconds, float) and math.isfinite(seconds) else ""
    if result.model == "majority":  # counted in one pass
        st.caption(f"Counted in one pass, without iterations or a likelihood to climb{took}.")
    else:
        stacked = result.model == "stacked"
        if stacked:
            state = "certified optimal" if result.converged else "not certified optimal"
            head = f"Weights: {result.n_iter} Newton steps, {state}{took}."
            how = (
                "The stacking objective, the mixture's held-out log score in nats per "
                "held-out judgement (as in Models compared), never falls from one step to "
                "the next. The steps stop when its gradient shows that no other weights could "
                "score more than 1e-8 nats per item higher. Each part's own fit (iterations, "
                "convergence, time) is below."
            )
        else:
            state = "converged" if result.converged else "stopped at the iteration limit"
            head = f"{result.n_iter} iterations, {state}{took}."
            how = (
                "EM never lowers this curve (the log-likelihood of all the judgements with the "
                "model's priors; for the hierarchical model its evidence lower bound). The fit "
                "stops when an iteration changes it by less than the tolerance (relative); a "
                "long flat stretch followed by a rise is a plateau."
            )
        st.caption(head)
        show_figure(log_likelihood_figure(result), "log-likelihood", key="gl_ll")
        st.caption(how)
        if stacked:
            show_table(stack_parts(result), "auto's parts", key="gl_parts")
    show_table(settings_table(result), "fit settings", key="gl_settings", index=False)
