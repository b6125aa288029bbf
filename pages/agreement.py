"""Agreement report: how much do the annotators agree, how sure are we, and where not?"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
import streamlit as st

from analytics import AnnotationDataError, Annotations, format_count, format_p_value
from analytics.agreement import (
    CAVEAT,
    ORDERS,
    agreement_levels,
    agreement_report,
    annotator_order,
    contingency,
    contingency_heatmap,
    default_distance,
    distance_options,
    forest_plot,
    item_agreement,
    item_agreement_histogram,
    kappa_paradox,
    kappa_paradox_figure,
    pairwise,
    pairwise_heatmap,
    pairwise_window,
    per_category,
    per_category_bars,
    reading,
    shown_value,
)
from analytics.noise import noise_from_annotations
from analytics.overview import format_judged, judge
from ui.crowd import annotator_picker, window
from ui.engine import engine_page
from ui.frame import via_the_frame
from ui.settings import (
    AGREEMENT_BOOTSTRAP,
    bootstrap_is_quick,
    keep,
    kept_toggle,
    one_of,
    recall,
    recall_index,
    remember,
    report_settings,
    some_of,
)
from ui.severity import show_verdict
from ui.state import require_annotations
from ui.text import md
from ui.widgets import explain, show_error, show_figure, show_table, three_decimals

via_the_frame("pages/agreement.py")  # opened by its address before the app frame ran

PER_CATEGORY_DEFAULT_LIMIT = 50_000  # items; above this the per-category tab waits for a click
# Tabs compute their contents even when hidden: above this many judgements the pairs, items
# and paradox tabs wait for a click, so the first render stays under 3 s (issue 17.10).
LAZY_TABS_JUDGEMENTS = 200_000
PAIRWISE_LABELS = {
    "cohen_kappa": "Cohen's kappa",
    "scott_pi": "Scott's pi",
    "gwet_ac1": "Gwet's AC1",
    "krippendorff_alpha": "Krippendorff's alpha (nominal)",
    "percent_agreement": "Percent agreement",
}


# ---------------------------------------------------------------------- cached computations
# The report's coefficient-scale columns, shown to three decimals (the CSV keeps all). A
# comment, not a docstring: Streamlit's magic would print a bare string on the page.
NUMBER_COLUMNS = ("value", "ci_low", "ci_high", "se", "analytic_low", "analytic_high")


@st.cache_data(max_entries=16, show_spinner=False)
def _report(
    fp: str, _ann: Annotations, confidence: float, n_boot: int, distance: str
) -> tuple[pd.DataFrame, float]:
    start = time.perf_counter()
    report = agreement_report(_ann, confidence=confidence, n_boot=n_boot, seed=0, distance=distance)
    return report, time.perf_counter() - start


@st.cache_data(max_entries=16, show_spinner=False)
def _per_category(fp: str, _ann: Annotations, confidence: float, n_boot: int) -> pd.DataFrame:
    return per_category(_ann, confidence=confidence, n_boot=n_boot, seed=0)


@st.cache_data(max_entries=16, show_spinner=False)
def _paradox(fp: str, _ann: Annotations):
    return kappa_paradox(_ann)


def _shown_value(name: str, value: float) -> str:
    """A coefficient's value as the cards and the table print it: three decimals, more
    near the agreement rule's thresholds (percent agreement is not judged by the rule)."""
    return f"{value:.3f}" if name == "Percent agreement" else format_judged("agreement", value)


def _kappa_max_caption(fp: str, sub: Annotations) -> str:
    """Cohen's kappa beside the largest kappa the annotators' marginals allow."""
    view = _paradox(fp, sub)
    kappa, kmax = view.cohen_kappa, view.kappa_max
    if view.reason or not np.isfinite(kmax):
        return f"Kappa maximum: undefined ({view.reason or kmax.reason})."
    share = f" ({kappa / kmax:.0%} of it reached)" if np.isfinite(kappa) and kmax > 0 else ""
    return (
        f"Cohen's kappa of these data: {kappa:.3f}. The largest kappa these annotators' own "
        f"category shares allow (kappa maximum, Cohen 1960): {kmax:.3f}{share}. A kappa near "
        "its maximum is held down by how differently the annotators use the categories, "
        "not by disagreement on items."
    )


@st.cache_data(max_entries=16, show_spinner=False)
def _pairwise(fp: str, _ann: Annotations, coefficient: str):
    return pairwise(_ann, coefficient)


@st.cache_data(max_entries=16, show_spinner=False)
def _order(fp: str, coef: str, _pw, how: str) -> list:
    return annotator_order(_pw, how)


def _show_pairs(fp: str, sub: Annotations, coef: str, data: str) -> None:
    """The pairwise tab: heatmap, tables and two annotators side by side (``data``: the
    loaded data set's fingerprint, which the annotators chosen here are kept for)."""
    pw = _pairwise(fp, sub, coef)
    order_by = (
        st.segmented_control(
            "Order",
            list(ORDERS),
            default=recall("agr_pair_order", "clustered", fit=one_of(ORDERS)),
            required=True,
            key="agr_pair_order",
            help="Clustered: annotators who agree with each other sit together (average "
            "linkage), so groups show as blocks. Most shared items: the busiest first.",
        )
        or "clustered"
    )
    keep("agr_pair_order", order_by)
    ordered = _order(fp, coef, pw, order_by)
    shown = window(ordered, key="agr_pair_window", scope=data)
    fig = pairwise_heatmap(pairwise_window(pw, shown))
    fig.update_layout(height=max(420, 18 * len(shown) + 160))
    show_figure(fig, f"pairwise {coef}", key="agr_pair_fig")
    # the tables in the heatmap's order (clustered tables in file order did not match it)
    in_order = pairwise_window(pw, ordered)
    # the diagonal (an annotator with itself) has no value: "–", not the grid's "None"
    values = in_order.values
    show_table(values, f"pairwise {coef}", key="agr_pair_values", formats=three_decimals(values))
    st.markdown("**Items shared by each pair** (diagonal: items the annotator judged)")
    show_table(in_order.shared, "shared items per pair", key="agr_pair_shared")
    st.markdown("**Two annotators side by side**")
    ia, ib = pw.most_shared()
    names = list(sub.annotators)
    ca, cb = st.columns(2)
    a = ca.selectbox(
        "Annotator (rows)",
        names,
        index=recall_index("agr_ct_a", names, ia, scope=data),
        key="agr_ct_a",
    )
    b = cb.selectbox(
        "Annotator (columns)",
        names,
        index=recall_index("agr_ct_b", names, ib, scope=data),
        key="agr_ct_b",
    )
    keep("agr_ct_a", a, scope=data)
    keep("agr_ct_b", b, scope=data)
    if a == b:
        st.info("Choose two different annotators.")
    else:
        table = contingency(sub, a, b)
        show_figure(contingency_heatmap(table), f"contingency {a} {b}", key="agr_ct_fig")
        show_table(table, f"contingency {a} {b}", key="agr_ct_table")


@st.cache_data(max_entries=16, show_spinner=False)
def _agreed_share(fp: str, _ann: Annotations) -> float:
    """The share of items every annotator agrees on, as the Noise calculator counts them
    (Fleiss' kappa is read as a share of easy items only up to it)."""
    try:
        bound = noise_from_annotations(_ann)
    except AnnotationDataError:
        return float("nan")
    return bound.n_agreed / bound.n_items if bound.n_items else float("nan")


@st.cache_data(max_entries=16, show_spinner=False)
def _items(fp: str, _ann: Annotations) -> tuple[pd.DataFrame, pd.DataFrame]:
    return item_agreement(_ann), agreement_levels(_ann)


@st.cache_data(max_entries=8, show_spinner=False)
def _paradox_figure(fp: str, _ann: Annotations):
    return kappa_paradox_figure(_ann)


def _lazy_on(ann: Annotations, label: str, key: str, data: str) -> bool:
    """True at once for data up to LAZY_TABS_JUDGEMENTS; above, a toggle (off at first on
    the loaded data set, whose fingerprint is ``data``) decides."""
    if ann.n_judgements <= LAZY_TABS_JUDGEMENTS:
        return True
    return kept_toggle(
        st,
        label,
        key=key,
        scope=data,
        help=f"Off at first on {ann.n_judgements:,} judgements so the page opens quickly; "
        "the result is kept once computed.",
    )


# ---------------------------------------------------------------------- page
st.title("Agreement report")
explain(
    """
**How much do the annotators agree, beyond what chance would give?** Each coefficient compares the
agreement observed with the agreement expected by chance: **1** is perfect agreement, **0** is
chance level, below 0 is worse than chance.

- *Percent agreement*: the share of pairs of judgements of the same item that agree (no chance correction).
- *Cohen's kappa* and *Scott's pi* compare two annotators (with more, the mean over all pairs).
- *Fleiss' kappa*, *Conger's kappa*, *Brennan-Prediger* and *Gwet's AC1* handle many annotators.
  AC1 stays stable when one category dominates (the *kappa paradox*, see its tab).
- *Krippendorff's alpha* uses every judgement, handles missing judgements and lets you choose how
  far apart two labels are (the *distance*: nominal, ordinal, interval, ratio; set distances for
  multi-label data).

Intervals come from resampling the items (bootstrap): they say how much the value could change
with other items of the same kind. Items judged by one annotator only count for nothing in most
coefficients; the table says how many items each coefficient used.
"""
)

engine_page("agreement")  # data on DuckDB/Spark: its own view, or why not
ann = require_annotations()
# what this page chose for these data before: Streamlit forgets a widget's value when its
# page is left, and the report and the Export kept the choice, so the widgets start from it
earlier = report_settings(ann)

with st.container(border=True):
    left, mid, right = st.columns([2, 2, 1.4])
    with left:
        chosen_annotators = annotator_picker(
            "Annotators (empty: all)",
            ann.annotators,
            key="agr_annotators",
            help="Restrict the report to some annotators.",
            # the filters name this data set's annotators and categories: kept for it alone
            default=recall(
                "agr_annotators", [], scope=ann.fingerprint, fit=some_of(ann.annotators)
            ),
        )
    chosen_categories = mid.multiselect(
        "Categories (empty: all)",
        list(ann.categories),
        default=recall("agr_categories", [], scope=ann.fingerprint, fit=some_of(ann.categories)),
        key="agr_categories",
        help="Single-label data: judgements in other categories are left out. "
        "Multi-label data: sets are restricted to these categories.",
    )
    options = distance_options(ann)
    default = default_distance(ann)
    start = earlier.distance if earlier.distance in options else default
    distance = right.selectbox(
        "Distance for alpha",
        options,
        index=options.index(start) if start in options else 0,
        key="agr_distance",
        help=md(
            f"Default for {ann.kind.value} labels: {default}."
            + (
                " Only nominal here: these text labels have no declared order, so an ordinal "
                "distance would depend on the order of the rows. Give their order on the Data "
                "page (Columns and parsing, Category order) to get the others."
                if options == ["nominal"]
                else ""
            )
            + (
                " passonneau_dkpro and masi_dkpro are DKPro Agreement's readings (the empty "
                "set is a subset of every set; DKPro's MASI is the Jaccard distance times "
                "Passonneau's)."
                if ann.is_multilabel
                else ""
            )
        ),
    )
    c1, c2 = st.columns([2, 1])
    quick = bootstrap_is_quick(ann)
    interval_mode = c1.segmented_control(
        "Confidence intervals",
        ["Bootstrap (1,000 resamples)", "Fast (analytic where one exists)"],
        default="Bootstrap (1,000 resamples)"
        if earlier.agreement_n_boot
        else "Fast (analytic where one exists)",
        required=True,
        key="agr_interval_mode",
        help="Bootstrap: resample items 1,000 times (a BCa interval, or the basic one when "
        "the estimate is too biased for BCa; a mean over annotator pairs gets the jackknife's "
        "bias-corrected interval instead: the ci_method column says which). "
        "Fast: analytic standard errors where one exists (Fleiss, Conger, Brennan-Prediger, "
        "AC1/AC2, alpha with a nominal, interval or ratio distance, percent agreement; Cohen's "
        "kappa and Scott's pi of two annotators). Either way the table shows the analytic "
        "SE, p-value and interval beside the chosen interval.",
    )
    if not quick:
        c1.caption(
            "Opened with fast intervals because these data are large; the time the bootstrap "
            "takes is shown once it has run."
        )
    confidence = c2.select_slider(
        "Confidence",
        [0.80, 0.90, 0.95, 0.99],
        value=earlier.agreement_confidence,
        key="agr_conf",
    )

n_boot = AGREEMENT_BOOTSTRAP if (interval_mode or "").startswith("Bootstrap") else 0
keep("agr_annotators", chosen_annotators, scope=ann.fingerprint)
keep("agr_categories", chosen_categories, scope=ann.fingerprint)
# the report and the Export page use exactly these choices (the filters below are the page's own)
remember(ann, agreement_n_boot=n_boot, agreement_confidence=confidence, distance=distance)

try:
    sub = (
        ann.subset(annotators=chosen_annotators or None, categories=chosen_categories or None)
        if (chosen_annotators or chosen_categories)
        else ann
    )
except AnnotationDataError as exc:
    show_error(exc)
    st.stop()

if sub.n_judgements == 0:
    st.warning("No judgement is left with these filters. Choose more annotators or categories.")
    st.stop()

fp = sub.fingerprint
try:
    with st.spinner("Computing the coefficients and their intervals..."):
        report, seconds = _report(fp, sub, confidence, n_boot, distance)
except AnnotationDataError as exc:
    show_error(exc)
    st.stop()

# rows whose interval is not the bootstrap's (a mean over pairs: the jackknife's)
not_bootstrap = [
    r.coefficient
    for r in report.itertuples()
    if r.ci_method and not str(r.ci_method).startswith("bootstrap")
]
# no row resampled at all (fewer than 10 items compared): "except for" every coefficient
# read as if each had been given another kind of interval
none_resampled = bool(n_boot) and all(
    str(r.ci_method).startswith("none") for r in report.itertuples()
)
took = f"{seconds:.1f} s" if seconds >= 0.1 else "under 0.1 s"  # "0.0 s" read as a cache hit
st.caption(
    f"{format_count(sub.n_items, 'item')}, {format_count(sub.n_annotators, 'annotator')}, "
    f"{format_count(sub.n_judgements, 'judgement')}, "
    f"{format_count(sub.n_categories, 'category', 'categories')} ({sub.kind.value}). "
    + (
        "No intervals: too few items are compared to resample them (the note column says "
        f"how many); computed in {took}."
        if none_resampled
        else f"Intervals from {n_boot:,} bootstrap resamples over items"
        + (
            f", except for {', '.join(not_bootstrap[:-1]) + ' and ' if len(not_bootstrap) > 1 else ''}"
            f"{not_bootstrap[-1]}: the ci_method column says how theirs "
            "were made"
            if not_bootstrap
            else ""
        )
        + f"; computed in {took}."
        if n_boot
        else f"Analytic intervals where one exists, computed in {took}."
    )
)

tab_summary, tab_cat, tab_pairs, tab_items, tab_paradox = st.tabs(
    ["Summary", "Per category", "Annotator pairs", "Items", "Kappa paradox"]
)

with tab_summary:
    headline = report.set_index("coefficient")
    alpha_name = next(
        (n for n in headline.index if n.startswith("Krippendorff") and distance in n),
        headline.index[-1],
    )
    picks = [alpha_name, "Gwet's AC1", "Fleiss' kappa", "Percent agreement"]
    weighted = [n for n in headline.index if n.startswith(("Gwet's AC2", "Cohen's kappa ("))]
    weighted = [n for n in weighted if "weights" in n]
    if weighted:  # ordinal or numeric labels: the weighted forms, beside an ordered alpha
        picks = [alpha_name, *weighted[:2], "Percent agreement"]
    if sub.is_multilabel:  # kappa and AC1 compare single labels: n/a tiles said nothing
        others = [n for n in headline.index if n.startswith("Krippendorff") and n != alpha_name]
        picks = [alpha_name, *others, "Percent agreement"][:4]
    cols = st.columns(len(picks))
    for col, name in zip(cols, picks, strict=True):
        row = headline.loc[name]
        value = row["value"]
        ci = (
            # as the reading below prints it: more digits where 0.20 would hide a band edge
            f"{confidence:.0%} interval {shown_value(name, row['ci_low'])} to "
            f"{shown_value(name, row['ci_high'])}"
            if np.isfinite(row["ci_low"])
            else "no interval"
        )
        col.metric(
            name,
            "n/a" if not np.isfinite(value) else _shown_value(name, value),
            ci,
            delta_color="off",
            delta_arrow="off",  # the interval is context, not a change up or down
            help=md(row["note"]) if row["note"] else None,
        )
    if ann.report.kind_caution:  # 1-5 ratings read as codes: every disagreement counts alike
        st.warning(
            "These whole-number labels were read as nominal codes; if they are a scale, "
            "choose the label kind ordinal (Data page, Label kind) for ordinal measures.",
            icon=":material/warning:",
        )
    alpha_row = headline.loc[alpha_name]
    show_verdict(
        judge("agreement", alpha_row["value"], alpha_row["note"]),
        f"{alpha_name}: "
        + reading(
            alpha_name,
            alpha_row["value"],
            alpha_row["ci_low"],
            alpha_row["ci_high"],
            confidence,
            alpha_row["note"],
        ),
    )
    st.info(CAVEAT, icon=":material/info:")
    agreed = _agreed_share(fp, sub)
    st.markdown("**What the numbers say**")
    st.markdown(
        "\n".join(
            f"- **{md(r.coefficient)}** — "
            + md(
                reading(
                    r.coefficient,
                    r.value,
                    r.ci_low,
                    r.ci_high,
                    confidence,
                    r.note,
                    explain_interval=False,
                    agreed_share=agreed,
                )
            )
            for r in report.itertuples()
        )
    )
    if report["ci_low"].notna().any():  # said once, not after every coefficient
        st.caption(
            f"Each {confidence:.0%} interval: with other items of the same kind, the value "
            "could plausibly lie anywhere in it."
        )
    show_figure(forest_plot(report), "agreement forest plot", key="agr_forest")
    nan_rows = report[report["value"].isna()]
    if len(nan_rows):
        st.warning(
            "Some coefficients are undefined for these data:\n"
            + "\n".join(f"- **{md(r.coefficient)}**: {md(r.note)}" for r in nan_rows.itertuples())
        )
    numbers = [c for c in NUMBER_COLUMNS if c in report.columns]
    report = report.astype(dict.fromkeys([*numbers, "p_value"], float))
    # a row without a p-value or interval (a mean over pairs has none by design) shows "–"
    show_table(
        report,
        "agreement report",
        key="agr_report",
        index=False,
        formats=dict.fromkeys([c for c in numbers if c != "value"], "{:.3f}"),
        texts={
            # as the cards print them (alpha = 2/3 reads 0.6667, not 0.667, beside its verdict)
            "value": [
                "–" if not np.isfinite(v) else _shown_value(c, v)
                for c, v in zip(report["coefficient"], report["value"], strict=True)
            ],
            # as the HTML report and the CLI write them ("< 0.001", not 1.7e-120)
            "p_value": [format_p_value(p) for p in report["p_value"]],
        },
    )

with tab_cat:
    st.markdown(
        "Each category against all the others: do the annotators agree on *this* category? "
        "Low values point at categories whose guidelines need work."
    )
    run_cat = kept_toggle(
        st,
        "Compute per-category agreement",
        value=sub.n_items <= PER_CATEGORY_DEFAULT_LIMIT,
        key="agr_cat_on",
        scope=ann.fingerprint,
    )
    if run_cat:
        with st.spinner("Per-category agreement..."):
            table = _per_category(fp, sub, confidence, n_boot)
        measures = ["fleiss_kappa", "alpha", "percent_agreement", "specific_agreement"]
        measure = st.radio(
            "Measure",
            measures,
            index=recall_index("agr_cat_measure", measures),
            horizontal=True,
            key="agr_cat_measure",
            format_func=lambda m: {
                "fleiss_kappa": "Fleiss' kappa",
                "alpha": "Krippendorff's alpha",
                "percent_agreement": "Percent agreement",
                "specific_agreement": "Specific agreement",
            }[m],
            help="Percent agreement: the share of pairs of judgements that agree on 'this "
            "category or not' (DKPro's per-category agreement). Specific agreement: when one "
            "judgement of an item says this category, how often another one does too. Neither "
            "is corrected for chance.",
        )
        keep("agr_cat_measure", measure)
        show_figure(per_category_bars(table, measure), "agreement per category", key="agr_cat_fig")
        show_table(
            table,
            "agreement per category",
            key="agr_cat_table",
            index=False,
            formats=three_decimals(table),
        )
        undefined = table[table[measure].isna()]
        if len(undefined):
            st.caption(
                md(
                    "Undefined: "
                    + "; ".join(f"{r.category}: {r.note}" for r in undefined.itertuples())
                )
            )

with tab_pairs:
    coef_options = ["percent_agreement"] if sub.is_multilabel else list(PAIRWISE_LABELS)
    coef = st.selectbox(
        "Coefficient",
        coef_options,
        index=recall_index("agr_pair_coef", coef_options),
        format_func=PAIRWISE_LABELS.__getitem__,
        key="agr_pair_coef",
    )
    keep("agr_pair_coef", coef)
    if sub.n_annotators < 2:
        st.info("Only one annotator is selected: there are no pairs to compare.")
    elif not _lazy_on(sub, "Compute the pairwise table", "agr_pairs_on", ann.fingerprint):
        pass
    else:
        try:  # past the memory budget the pairwise table is refused, in plain words
            _show_pairs(fp, sub, coef, ann.fingerprint)
        except AnnotationDataError as exc:
            show_error(exc)

with tab_items:
    if _lazy_on(sub, "Compute agreement per item", "agr_items_on", ann.fingerprint):
        items, levels = _items(fp, sub)
        show_figure(item_agreement_histogram(items), "agreement per item", key="agr_items_fig")
        st.markdown("**Items by agreement level** (as table 3 of Bhowmick et al. 2008)")
        show_table(
            levels,
            "items by agreement level",
            key="agr_levels",
            index=False,
            formats=three_decimals(levels),
        )
        st.markdown("**Every item** (sorted: least agreement first)")
        st.caption(
            "top_label: the most frequent label; on a tie (tied is true) every tied label, "
            "in category order"
            + (
                md(f", e.g. '{ann.categories[0]} / {ann.categories[1]}'.")
                if ann.n_categories >= 2 and not ann.is_multilabel
                else "."
            )
        )
        show_table(
            items.sort_values("agreement", na_position="last"),
            "agreement per item",
            key="agr_items",
        )

with tab_paradox:
    st.markdown(
        "When one category dominates, chance agreement is high, so kappa can be low even though "
        "annotators agree on almost every item (Feinstein & Cicchetti 1990). Passonneau & "
        "Carpenter (2014) give the example of two annotators agreeing on 90% of the items with "
        "95% prevalence: kappa is **-0.05**. Gwet's AC1 does not collapse this way. The right "
        "panel keeps your observed agreement fixed and lets the majority category's share grow."
    )
    if _lazy_on(sub, "Draw the kappa-paradox chart", "agr_paradox_on", ann.fingerprint):
        show_figure(_paradox_figure(fp, sub), "kappa paradox", key="agr_paradox")
        try:
            st.caption(md(_kappa_max_caption(fp, sub)))
        except AnnotationDataError as exc:
            show_error(exc)
