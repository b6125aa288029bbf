"""Next labels: which items to send for another judgement, how many are enough, the batch file."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from analytics import AnnotationDataError, format_percent
from analytics.agreement import fleiss_kappa
from analytics.dawid_skene import fit
from analytics.models import gold_table
from analytics.next_labels import (
    EXPORT_FORMATS,
    STRATEGIES,
    Plan,
    accuracy_curve_figure,
    batch_csv,
    label_studio_tasks,
    mturk_input_csv,
    next_batch,
    plan,
    replay,
    replay_figure,
    replay_summary,
)
from analytics.noise import adding_annotators, easy_share, equal_rates, noise_from_annotations
from ui.cached import ds_fit, kept
from ui.engine import engine_page
from ui.frame import via_the_frame
from ui.settings import (
    keep,
    kept_number,
    kept_toggle,
    recall,
    recall_index,
    report_settings,
    within,
)
from ui.state import known_gold, require_annotations
from ui.text import md
from ui.widgets import data_file_name, explain, show_error, show_figure, show_table

via_the_frame("pages/next_labels.py")  # opened by its address before the app frame ran

# the "would two more annotators help" table's columns that are shares, shown as percents
ALONE = "agreement alone: share of agreed items that may be coin-flips (bound)"
MODEL = "model: a new run's expected accuracy"
SHARES = (MODEL, ALONE)

STRATEGY_NAMES = {
    "gain": "Expected information gain (the model's choice)",
    "uncertainty": "Least confident items first",
    "random": "Random items (for comparison)",
}


@st.cache_data(max_entries=16, show_spinner=False)
def _batch(
    fingerprint: str,
    model_key: tuple,
    _result,
    _ann,
    budget: int,
    cap: int,
    stop_at: float,
    strategy: str,
    assign: bool,
    per_annotator: int,
) -> pd.DataFrame:
    annotators = list(_ann.annotators) if assign else None
    return next_batch(
        _result,
        _ann,
        budget,
        per_item_cap=cap,
        annotators=annotators,
        stop_at=stop_at,
        strategy=strategy,
        per_annotator_cap=per_annotator if assign and per_annotator > 0 else None,
    )


@st.cache_data(max_entries=8, show_spinner=False)
def _plan(
    fingerprint: str,
    model_key: tuple,
    _result,
    target: float | None,
    current: bool,
    max_k: int = 10,
) -> Plan:
    # plan's own draws and seed: the command line's next-batch gives the same plan
    return plan(_result, target, current=current, max_k=max_k if not current else 5)


@st.cache_data(max_entries=8, show_spinner=False)
def _kappa_and_agreed(fingerprint: str, _ann) -> tuple[float, int, int]:
    """Fleiss' kappa and the noise bound's items and agreed items (both pass over every
    judgement: kept, not recomputed on every slider move)."""
    bound = noise_from_annotations(_ann)
    return float(fleiss_kappa(_ann)), int(bound.n_items), int(bound.n_agreed)


st.title("Next labels: what to label next, and how many labels are enough")
explain(
    """
Concord tells you how good your labels are; this page says **what to do about it**
(Passonneau & Carpenter 2014, section 6; Sheng, Provost & Ipeirotis 2008).

- **The next batch.** Under the Dawid-Skene model every item has a posterior over its true
  label. One more judgement is expected to remove some of that uncertainty: the *expected
  information gain*, in bits, exact over every answer the annotator could give. The batch
  takes the judgements worth most, one at a time; an item that already has one in the batch is
  re-scored before it can get a second.
- **How many labels are enough.** Simulating the fitted model gives the expected accuracy of
  the model's labels with *k* more judgements per item, with an interval: a power calculation
  for annotation.
- **Replay.** On data that already has many judgements per item, the strategies are tested
  honestly: start from one judgement per item and let each strategy choose which of the
  existing judgements to "buy" next.
"""
)

engine_page("next_labels")  # data on DuckDB/Spark: its own view, or why not
ann = require_annotations()
if ann.is_multilabel:
    st.error(
        "This data set is multi-label. Next labels needs one label per judgement: plan one "
        "yes/no data set per category instead."
    )
    st.stop()
gold_key, gold, gold_what = known_gold(ann)  # uploaded gold, a sample's true labels, or none

# the model the Overview, the report and the Export use: the Gold labels page's settings
settings = report_settings(ann)
options = settings.fit_options()
model_key = tuple(sorted(options.items()))  # the cached batch and plans follow the settings
try:
    with st.spinner("Fitting the Dawid-Skene model…"):
        result = ds_fit(ann, **options)[0]
except AnnotationDataError as exc:
    show_error(exc)
    st.stop()

st.subheader("The next batch")
st.caption(
    "**Model:** "
    + md(settings.describe()[-1].rstrip("."))
    + " (the Gold labels page's Dawid-Skene settings, which the Overview, the report and "
    "the Export use too; the batch, the curve and the replay all use this model)."
)
# the choices below hold for any data: kept across data sets (the budget brought within
# what these data allow)
c1, c2 = st.columns(2)
top = max(1, min(5000, ann.n_items * 5))
budget = c1.slider(
    "Budget (judgements)",
    1,
    top,
    recall("nl_budget", min(100, top), fit=within(1, top)),
    key="nl_budget",
)
strategies = list(STRATEGIES)
strategy = c2.selectbox(
    "Strategy",
    strategies,
    index=recall_index("nl_strategy", strategies),
    format_func=STRATEGY_NAMES.get,
    key="nl_strategy",
)
c3, c4, c5 = st.columns(3)
cap = c3.slider(
    "Most judgements of one item", 1, 5, recall("nl_cap", 2, fit=within(1, 5)), key="nl_cap"
)
stop_at = c4.slider(
    "Stop at confidence",
    0.50,
    1.00,
    recall("nl_stop", 0.99, fit=within(0.5, 1.0)),
    0.01,
    key="nl_stop",
    help="Items whose top posterior is at least this get no more judgements.",
)
assign = c5.checkbox(
    "Assign annotators",
    value=recall("nl_assign", False),
    key="nl_assign",
    help="Name, for every judgement, the annotator with the largest expected gain who has "
    "not judged the item yet. Off: the platform picks an annotator who has not judged it.",
)
for name, value in (
    ("nl_budget", budget),
    ("nl_strategy", strategy),
    ("nl_cap", cap),
    ("nl_stop", stop_at),
    ("nl_assign", assign),
):
    keep(name, value)
per_annotator = 0
if assign:
    per_annotator = kept_number(
        c5,
        "Most judgements per annotator (0: no limit)",
        min_value=0,
        value=10,
        step=1,
        key="nl_per_annotator",
        help="Without a limit the annotator the model trusts most takes every judgement "
        "they can: the model's trust in one annotator is itself uncertain.",
    )

try:
    batch = _batch(
        ann.fingerprint,
        model_key,
        result,
        ann,
        int(budget),
        int(cap),
        float(stop_at),
        strategy,
        assign,
        int(per_annotator),
    )
except AnnotationDataError as exc:
    show_error(exc)
    st.stop()

for note in batch.attrs.get("notes", ()):
    st.info(md(note))
conf = result.confidence.reindex(ann.items).to_numpy()
after = conf.copy()
if len(batch):
    last = batch.groupby("item", sort=False)["expected_confidence"].last()
    after[ann.items.get_indexer(last.index)] = last.to_numpy()
m1, m2, m3, m4 = st.columns(4)
m1.metric("Judgements in the batch", f"{len(batch):,}")
m2.metric("Items", f"{batch['item'].nunique():,}")
m3.metric("Expected gain", f"{batch['expected_gain'].sum():.1f} bits")
m4.metric(
    "Expected accuracy",
    format_percent(after.mean()),
    f"{100 * (after.mean() - conf.mean()):+.1f} points" if len(batch) else None,
    help="The mean of the items' expected top posteriors after the batch, by the model's "
    "own account (fitted models are overconfident); the change is in percentage points.",
)
# its CSV is the first of the export formats below, not a second button beside the table
show_table(batch, "next batch", key="nl_batch", index=False, download=False)
st.caption(
    "current_confidence: the model's top posterior now; expected_gain: bits this judgement is "
    "expected to add (given the earlier ones in the batch); expected_confidence: the item's "
    "expected top posterior after it."
    + (
        ""
        if assign or not batch["item"].duplicated().any()
        else " Without assigned annotators, a second judgement of an item is scored as if the "
        "first came from an average annotator: close when the annotators err alike, rough "
        "when they do not; assign annotators for exact figures."
    )
)
d1, d2, d3 = st.columns(3)
for col, fmt, label, make in (
    (d1, "csv", "Batch (CSV)", batch_csv),
    (d2, "label_studio", "Label Studio tasks (JSON)", label_studio_tasks),
    (d3, "mturk", "Mechanical Turk input (CSV)", mturk_input_csv),
):
    name, mime = EXPORT_FORMATS[fmt]
    col.download_button(
        label,
        data=(lambda make=make: make(batch).encode("utf-8")) if len(batch) else b"",
        file_name=data_file_name(name),
        mime=mime,
        key=f"nl_dl_{fmt}",
        on_click="ignore",
        icon=":material/download:",
        disabled=not len(batch),
    )

st.subheader("How many labels are enough?")
try:
    with st.spinner("Simulating the fitted model…"):
        more = _plan(ann.fingerprint, model_key, result, None, True)
    measured = None
    if gold is not None:
        try:  # only the gold point needs them: gold that cannot be scored is said, not fatal
            measured = float(gold_table({"m": result}, gold).loc["m", "accuracy"])
        except AnnotationDataError as exc:
            show_error(exc)
    show_figure(
        accuracy_curve_figure(
            more,
            now=float(conf.mean()),
            after_batch=float(after.mean()) if len(batch) else None,  # no star for nothing
            batch_size=len(batch),
            n_items=ann.n_items,
            measured_now=measured,
        ),
        "expected accuracy",
        key="nl_curve",
    )
    st.caption(
        "Expected accuracy is the model's own: the share of labels that match the true category "
        "if the model is right about the annotators. Against expert gold on public data it is "
        "close for 1-3 judgements per item on RTE and a few points optimistic on harder sets, "
        "more so with more judgements (hard items fool several annotators at once)."
        + (
            " The star is this batch, placed at its judgements per item: aimed at the items "
            "where they tell the most, it can sit above the curve, which spreads them over "
            "every item."
            if len(batch)
            else ""
        )
        + (
            ""
            if measured is None
            # the percentage first: after "your gold labels (gold.csv)" it read "(gold.csv) (40.0%)"
            else f" The open circle, {format_percent(measured)}, is today's labels against "
            f"{md(gold_what)}: its gap to the diamond is how much the model overrates itself "
            "today, and the curve is likely high by at least as much."
        )
    )
    percent = st.slider(  # in percent, as the sentences beside it write it (not 0.950)
        "Target accuracy for a new run like this one (%)",
        80.0,
        99.9,
        recall("nl_target_percent", 95.0, fit=within(80.0, 99.9)),
        0.1,
        key="nl_target_percent",
        format="%.1f%%",
    )
    keep("nl_target_percent", percent)
    target = percent / 100
    new_run = _plan(ann.fingerprint, model_key, result, float(target), False)
    st.markdown(md(f"A new run with annotators like these: {new_run.reason}"))
    show_table(
        new_run.curve,
        "judgements per item for a new run",
        key="nl_new_run",
        index=False,
        percents=("accuracy", "low", "high"),
    )
    for note in new_run.notes:
        st.caption(md(note))
    per_item_now = ann.n_judgements / max(ann.n_items, 1)
    k_now = int(max(2, round(per_item_now)))
    if k_now + 2 > 10:  # the curve above stops at 10 per item: simulate as far as needed
        new_run = _plan(ann.fingerprint, model_key, result, float(target), False, k_now + 2)
    st.caption(
        "Two accuracies for about the same design, both the model's own: 'now' on the chart "
        f"({format_percent(conf.mean())}, {per_item_now:.1f} judgements per item) is these "
        "items given the judgements they actually received, scored with the fitted "
        "annotators' error rates as if they were known exactly. The table "
        f"({format_percent(new_run.accuracy_at(k_now))} at {k_now}) is a new run from "
        "scratch: each simulated replicate first redraws the annotators' error rates within "
        "what these data allow, then gives fresh items k judgements from annotators picked at "
        "random, so it also carries the uncertainty about the annotators, which usually pulls "
        "it down. Neither is wrong: plan a new run with the table."
    )
    st.markdown("**For a new run like this one: would two more annotators per item help?**")
    kappa, n_bound, n_agreed = _kappa_and_agreed(ann.fingerprint, ann)
    easy = easy_share(kappa, n_bound, n_agreed)  # the agreed items cap kappa's easy share
    capped = np.isfinite(easy) and easy < min(max(kappa, 0.0), 1.0)
    as_easy = (
        f"Fleiss' kappa {kappa:.3f}, capped at the {easy:.1%} of items every annotator "
        "agrees on (easy items are all agreed),"
        if capped
        else f"Fleiss' kappa {kappa:.3f}"
    )
    side = pd.DataFrame(
        {
            "judgements per item": [k_now, k_now + 2],
            MODEL: [
                new_run.accuracy_at(k_now),
                new_run.accuracy_at(k_now + 2),
            ],
        }
    )
    if np.isfinite(easy):
        noise = adding_annotators(
            ann.n_items,
            easy,
            equal_rates(ann.n_categories),
            [k_now, k_now + 2],
        )
        side[ALONE] = noise["gamma"].to_numpy()
    show_table(
        side,
        "would two more annotators help",
        key="nl_two_more",
        index=False,
        percents=SHARES,
    )
    if np.isfinite(easy):
        st.caption(
            "The agreement-alone column is the Noise calculator's 'more annotators' projection "
            f"({as_easy} as the share of easy items, hard items labelled with "
            "equally likely categories), for each row's judgements per item; the Noise "
            "calculator's headline bound is measured on these data with their own rates, so "
            "it can differ."
        )
    st.caption(
        "Both columns are about a new run from scratch with this many judgements per item, "
        "not about these labels (the Overview's 'right now' is these labels' own figure). "
        "The model's answer simulates the fitted annotators. The Noise calculator's answer uses "
        "agreement alone (Beigman Klebanov & Beigman 2009, section 5.3, with "
        f"{as_easy} read as the share of easy items): how many of the items all annotators "
        "agree on could be coin-flips, at 95% confidence."
    )
except AnnotationDataError as exc:
    show_error(exc)

st.subheader("Replay on the loaded data")
per_item = np.bincount(ann.item_codes, minlength=ann.n_items)
if per_item.max(initial=0) < 2:
    st.info(
        "Every item has one judgement: there is nothing to replay. Replay needs data where items "
        "were judged several times."
    )
else:
    st.caption(
        md(f"Scored against {gold_what}.")
        if gold is not None
        else "Scored against the model fitted on every judgement."
    )
    if kept_toggle(st, "Run the replay", key="nl_replay", scope=ann.fingerprint):
        bar = st.progress(0.0, text="Replaying the strategies…")
        try:
            # kept, not st.cache_data: a cached function may not draw on the bar made here
            # (Streamlit replays that on the next hit and fails)
            table = kept(
                ann,
                ("replay", gold_key, model_key),
                lambda: replay(
                    ann,
                    gold,
                    fitter=lambda part: fit(part, **options),  # the settings above
                    progress=lambda f: bar.progress(min(f, 1.0)),
                ),
            )
        except AnnotationDataError as exc:
            show_error(exc)
        else:
            bar.empty()
            show_figure(replay_figure(table), "replay", key="nl_replay_fig")
            summary = replay_summary(table)
            st.caption(
                f"Judgements each strategy needs to reach the accuracy of the model fitted on "
                f"every judgement ({format_percent(summary.attrs['level'])}), read between "
                "the curve's points (to the nearest judgement), and against random (below 1: "
                "fewer). A curve that stops early stopped buying: every judgement left had no "
                "expected gain. The curves start from one judgement per item: no two "
                "annotators have yet judged the same item, so the first Dawid-Skene fits "
                "cannot tell good annotators from poor ones and can start below a plain "
                "vote of the same judgements."
            )
            show_table(
                summary,
                "replay summary",
                key="nl_replay_summary",
                formats={"judgements": "{:,.0f}"},
            )
            show_table(table, "replay", key="nl_replay_table", index=False)
