"""Multi-label: A_m, where annotators disagree, the gold standard of Algorithm 1, set-distance alpha."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from analytics import AnnotationDataError, format_number
from analytics import agreement as ag
from analytics import multilabel as ml
from analytics.data import SAMPLES
from analytics.overview import judge
from ui.engine import engine_page
from ui.frame import via_the_frame
from ui.loaders import load_sample_cached
from ui.settings import keep, kept_toggle, one_of, recall
from ui.severity import show_verdict
from ui.state import require_annotations, set_annotations, set_source
from ui.text import md
from ui.widgets import (
    download_table,
    explain,
    show_error,
    show_figure,
    show_table,
    statistic_formats,
    three_decimals,
)

via_the_frame("pages/multilabel.py")  # opened by its address before the app frame ran

MULTILABEL_SAMPLE = "affect_multilabel"
LARGE_UNITS = 50_000  # item-pair units above which slow sections wait for a click (1,000
# resamples of 50,000 units take about half a second here)
STYLE_ROWS = 3_000  # highlight tie-breaks row by row up to this many items


@st.cache_data(max_entries=16, show_spinner=False)
def _core(fingerprint: str, _ann) -> dict:
    return {
        "am": ml.am_agreement(_ann),
        "am4": ml.am_agreement_unclubbed(_ann),
        "pairs": ml.pairwise_am(_ann),
        "bands": ml.items_by_agreement(_ann),
        "disagreement": ml.category_disagreement(_ann),
        "confusion": ml.category_pair_confusion(_ann),
        "per_category": ag.per_category(_ann, n_boot=0),
        "pair_types": ml.set_pair_types(_ann),
        "exact": ag.percent_agreement(_ann),  # what the Agreement page calls agreement
    }


@st.cache_data(max_entries=16, show_spinner=False)
def _bootstrap(fingerprint: str, _ann, n_boot: int, confidence: float) -> ml.AmInterval:
    return ml.am_bootstrap(_ann, n_boot=n_boot, confidence=confidence, seed=0)


@st.cache_data(max_entries=16, show_spinner=False)
def _gold(fingerprint: str, _ann) -> ml.LabelSetGoldStandard:
    return ml.gold_standard(_ann)


@st.cache_data(max_entries=16, show_spinner=False)
def _alphas(fingerprint: str, _ann) -> pd.DataFrame:
    return ml.set_distance_alphas(_ann)


st.title("Multi-label agreement")
explain(
    """
When an annotator may give an item **several labels** (emotions, topics, antecedents), two
annotators can agree partly. This page measures that, following two papers:

- **A_m** (Bhowmick, Mitra & Basu 2008): for every *pair of categories* (say anger and disgust)
  two annotators agree on an item when they give both categories the same yes/no. A_m is the
  share of such agreements, corrected for chance like Cohen's kappa: 1 is perfect, 0 is chance.
- Where the disagreement sits: per annotator pair, per category, and between two categories
  (one annotator said *anger*, the other *disgust*).
- A **gold standard** by the paper's Algorithm 1: a category goes to an item when most of its
  annotators gave it; ties go to the side whose annotators have agreed with the majority more
  often so far (their *expert coder index*).
- **Krippendorff's alpha with set distances** (Poesio & Artstein 2005): alpha that gives partial
  credit when two label sets overlap, under four ways of measuring the overlap.

An empty set (*none of these*) is a real judgement; an item an annotator skipped is left out of
that annotator's comparisons.
"""
)

engine_page("multilabel")  # data on DuckDB/Spark: its own view, or why not
ann = require_annotations()
if not ann.is_multilabel:
    st.info(
        f"**{md(ann.name)}** is single-label: each judgement is one category, so there is no partial "
        "agreement to measure. The Agreement report covers single-label data. Load the "
        "multi-label sample to see this page at work."
    )
    if st.button(f"Load the sample: {SAMPLES[MULTILABEL_SAMPLE].title}", key="ml_load_sample"):
        set_annotations(load_sample_cached(MULTILABEL_SAMPLE))
        set_source(f"sample: {SAMPLES[MULTILABEL_SAMPLE].title}", sample=MULTILABEL_SAMPLE)
        st.rerun()
    st.stop()

try:
    with st.spinner("Comparing every pair of annotators on every item…"):
        core = _core(ann.fingerprint, ann)
except AnnotationDataError as exc:
    show_error(exc)
    st.stop()

am, am4 = core["am"], core["am4"]
large = am.n_units > LARGE_UNITS

# ------------------------------------------------------------------ A_m headline
st.subheader("A_m: agreement on multi-label annotation")
if am.reason:
    st.warning(md(f"A_m is undefined: {am.reason}"))
with st.expander("Bootstrap settings", expanded=False):  # kept for any data
    resamples, coverages = [200, 500, 1000, 2000], [0.8, 0.9, 0.95, 0.99]
    n_boot = st.select_slider(
        "Bootstrap resamples",
        resamples,
        value=recall("ml_n_boot", 1000, fit=one_of(resamples)),
        key="ml_n_boot",
    )
    confidence = st.select_slider(
        "Interval coverage",
        coverages,
        value=recall("ml_confidence", 0.95, fit=one_of(coverages)),
        format_func=lambda v: f"{v:.0%}",
        key="ml_confidence",
    )
    keep("ml_n_boot", n_boot)
    keep("ml_confidence", confidence)
run_boot = not am.reason and (
    not large
    or kept_toggle(
        st,
        "Compute the bootstrap interval (slow on this much data)",
        key="ml_boot",
        scope=ann.fingerprint,  # these toggles are kept for these data alone
    )
)
interval = None
if run_boot:
    with st.spinner(f"Resampling the items {n_boot:,} times…"):
        interval = _bootstrap(ann.fingerprint, ann, int(n_boot), float(confidence))

c1, c2, c3, c4 = st.columns(4)
am_verdict = judge("agreement", am.a_m, am.reason)
am_shown = am_verdict.shown if not am.reason else format_number(am.a_m)
c1.metric(
    "A_m",
    am_shown,
    help="Bhowmick et al. (2008), equations 1-8: (P_o - P_e) / (1 - P_e).",
)
if interval is not None and not interval.reason:
    c1.caption(f"{interval.confidence:.0%} interval {interval.low:.3f} to {interval.high:.3f}")
c2.metric(
    "Observed agreement P_o",
    format_number(am.p_o),
    help="Share of (item, annotator pair, category pair) on which both gave the same "
    "yes/no to both categories.",
)
c3.metric(
    "Chance agreement P_e",
    format_number(am.p_e),
    help="Equation 8, with [0 1] and [1 0] counted as one combination, as in the paper.",
)
c4.metric(
    "A_m, four combinations",
    format_number(am4.a_m),
    help="The same with [0 1] and [1 0] kept apart in chance agreement.",
)
st.caption(
    "P_o is not the percent agreement the Agreement page shows "
    f"({format_number(core['exact'])} here). P_o gives partial credit: it is the share of "
    "(item, two annotators, two categories) on which both annotators gave the same yes/no "
    "to both categories, so two label sets that share some labels agree in part. Percent "
    "agreement is the share of (item, two annotators) whose whole label sets are exactly "
    "the same."
)
show_verdict(
    am_verdict,
    f"A_m = {am_shown}: chance-corrected agreement on label sets, read by the "
    "same thresholds as alpha.",
)
if not am.reason:
    st.markdown(f"**Reading:** {md(ml.am_summary(am, am4))}")  # category names as text
if interval is not None and len(interval.replicates):
    with st.expander("How sure is A_m? The bootstrap distribution", expanded=False):
        st.markdown(
            f"The items were resampled {interval.n_boot:,} times with replacement and A_m "
            f"recomputed each time; the middle {interval.confidence:.0%} of the results is the interval."
        )
        show_figure(ml.am_bootstrap_histogram(interval), "am_bootstrap", key="ml_boot_hist")

tabs = st.tabs(
    [
        "Annotator pairs",
        "Items",
        "Categories",
        "Category pairs",
        "Gold standard",
        "Alpha with set distances",
    ]
)

with tabs[0]:
    st.markdown(
        "P_o, P_e and A_m for every two annotators over the items both judged "
        "(the paper's table 2)."
    )
    pairs = core["pairs"]
    show_figure(ml.pairwise_am_heatmap(pairs), "pairwise_am", key="ml_pairs_heat")
    if 0 < len(pairs) <= 30:
        show_figure(ml.pairwise_am_bars(pairs), "pairwise_am_bars", key="ml_pairs_bars")
    show_table(pairs, "pairwise_am", key="ml_pairs", index=False, formats=statistic_formats(pairs))
    if lowest := ml.lowest_pair(pairs):
        st.caption(md(lowest))

with tabs[1]:
    st.markdown(
        "How many items fall in each band of observed agreement P_i (the paper's "
        "table 3). Items in the lowest bands are the ones to discuss or re-annotate."
    )
    bands = core["bands"]
    show_figure(ml.items_by_agreement_bars(bands), "items_by_agreement", key="ml_bands_fig")
    show_table(
        bands, "items_by_agreement", key="ml_bands", index=False, formats=statistic_formats(bands)
    )
    if bands.attrs.get("reason"):
        st.caption(md(f"No item has an observed agreement: {bands.attrs['reason']}"))
    elif bands.attrs.get("n_without_agreement"):
        st.caption(
            f"{bands.attrs['n_without_agreement']:,} items were judged by only one "
            "annotator and have no agreement value."
        )

with tabs[2]:
    st.markdown(
        "How often two annotators disagreed about each category (the paper's table 4), "
        "and chance-corrected agreement on each category taken alone as a yes/no "
        "question."
    )
    dis = core["disagreement"]
    show_figure(
        ml.category_disagreement_bars(dis), "category_disagreement_total", key="ml_dis_bars"
    )
    if len(dis) <= 60:
        show_figure(
            ml.category_disagreement_heatmap(dis), "category_disagreement", key="ml_dis_heat"
        )
    show_table(dis.reset_index(), "category_disagreement", key="ml_dis", index=False)
    per_cat = core["per_category"]
    show_figure(
        ag.per_category_bars(per_cat, measure="both"), "per_category_agreement", key="ml_percat_fig"
    )
    per_cat = per_cat.drop(columns=["kappa_low", "kappa_high", "alpha_low", "alpha_high"])
    show_table(
        per_cat,
        "per_category_agreement",
        key="ml_percat",
        index=False,
        formats=statistic_formats(per_cat),
    )

with tabs[3]:
    st.markdown(
        "How often one annotator chose category *a* (not *b*) where another chose *b* "
        "(not *a*), over all annotator pairs (the paper's table 5 and figure 2). Large "
        "counts point to categories the guidelines should separate better."
    )
    conf = core["confusion"]
    show_figure(
        ml.category_pair_confusion_heatmap(conf), "category_pair_confusion", key="ml_conf_heat"
    )
    show_figure(ml.category_pair_bars(conf), "category_pairs", key="ml_conf_bars")
    # counts (floats only for the empty lower triangle): whole numbers
    show_table(conf, "category_pair_confusion", key="ml_conf", formats=three_decimals(conf))

with tabs[4]:
    st.markdown(
        "Algorithm 1 of Bhowmick et al. (2008): each category goes to an item when more of its "
        "annotators gave it than did not. **Ties** are broken by the annotators' *expert coder "
        "index* (how many majority decisions each has sided with so far, walking the items in "
        "file order); a tie the index cannot break leaves the category out (*unresolved*)."
    )
    with st.spinner("Walking the items…"):
        gold = _gold(ann.fingerprint, ann)
    frame = gold.to_frame()
    n_broken, n_unres = len(gold.tie_broken), len(gold.unresolved)
    g1, g2, g3 = st.columns(3)
    g1.metric("Items", f"{len(frame):,}")
    g2.metric("Tie-broken decisions", f"{n_broken:,}")
    g3.metric("Unresolved ties", f"{n_unres:,}")
    if gold.matrix.shape[1] == 0:
        st.caption(
            "There are no categories (every judgement is the empty set), so every "
            "item's gold label set is empty and there was nothing to decide."
        )
    elif gold.ties.empty:
        st.caption(
            "No ties: every decision had a clear majority (as always with an odd number "
            "of annotators per item)."
        )
    only_ties = kept_toggle(
        st,
        "Only items with a tie",
        key="ml_gold_ties",
        scope=ann.fingerprint,
        disabled=gold.ties.empty,
    )
    shown = gold.to_frame(ties_only=True) if only_ties else frame
    if len(shown) <= STYLE_ROWS:

        def _highlight(row: pd.Series) -> list[str]:
            colour = (
                "background-color: #fff3bf"
                if row["tie_broken"]
                else "background-color: #ffe3e3"
                if row["unresolved"]
                else ""
            )
            return [colour] * len(row)

        st.dataframe(
            shown.style.apply(_highlight, axis=1),
            width="stretch",
            hide_index=True,
            key="ml_gold_table",
        )
        st.caption("Yellow: a tie broken by the expert index. Red: an unresolved tie.")
    else:
        st.dataframe(shown, width="stretch", hide_index=True, key="ml_gold_table")
    download_table(frame, "gold_standard", key="ml_gold", index=False)
    c_left, c_right = st.columns(2)
    with c_left:
        show_figure(ml.gold_distribution_bars(gold), "gold_distribution", key="ml_gold_dist")
    with c_right:
        show_figure(ml.expert_index_bars(gold), "expert_index", key="ml_gold_rho")
    if len(gold.ties):
        st.markdown("Every tied decision, with the expert indices that settled it:")
        show_table(gold.ties, "gold_ties", key="ml_gold_ties_table", index=False)

with tabs[5]:
    st.markdown(
        "Krippendorff's alpha compares whole label sets and gives partial credit when they "
        "overlap (Poesio & Artstein 2005). How much credit depends on the distance between "
        "two sets: **Passonneau** (0, 1/3, 2/3, 1 for equal, subset, overlap, disjoint), "
        "**MASI** (Passonneau 2006), **Jaccard** and **Dice**."
    )
    run_alpha = not large or kept_toggle(
        st, "Compute alpha (slow on this much data)", key="ml_alpha", scope=ann.fingerprint
    )
    if run_alpha:
        try:
            with st.spinner("Computing alpha with four distances…"):
                alphas = _alphas(ann.fingerprint, ann)
        except AnnotationDataError as exc:
            show_error(exc)
        else:
            cols = st.columns(len(alphas))
            for col, row in zip(cols, alphas.itertuples(), strict=True):
                col.metric(
                    f"alpha, {row.distance}",
                    format_number(row.alpha),
                    help=md(row.note) if row.note else None,
                )
            st.markdown(md(ml.set_distance_sentence(core["pair_types"], alphas)))
            show_figure(
                ml.set_distance_alpha_bars(alphas), "set_distance_alpha", key="ml_alpha_fig"
            )
            types = core["pair_types"]
            show_table(
                types,
                "set_relations",
                key="ml_pair_types",
                index=False,
                formats=statistic_formats(types),
            )
