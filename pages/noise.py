"""Noise calculator: how many of the agreed items are coin-flips (Beigman Klebanov & Beigman 2009)."""

from __future__ import annotations

import streamlit as st

from analytics import AnnotationDataError, format_confidence
from analytics.agreement import fleiss_kappa
from analytics.noise import (
    NoiseBound,
    adding_annotators,
    adding_annotators_figure,
    agreement_probability,
    chance_difference,
    equal_rates,
    follow_up_defaults,
    kappa_noise_estimate,
    max_disagreements,
    noise_bound,
    posterior_figure,
    rates_table,
)
from analytics.overview import judge
from ui.cached import noise_result
from ui.crowd import annotator_picker
from ui.engine import engine_page
from ui.frame import via_the_frame
from ui.settings import (
    keep,
    kept_number,
    one_of,
    recall,
    recall_index,
    remember,
    report_settings,
    within,
)
from ui.severity import show_verdict
from ui.state import get_annotations
from ui.text import md
from ui.widgets import explain, show_error, show_figure, show_table, three_decimals

via_the_frame("pages/noise.py")  # opened by its address before the app frame ran

MODES = ["From the loaded data", "By hand"]
CONFIDENCES = [0.8, 0.9, 0.95, 0.975, 0.99, 0.995, 0.999]
SECTIONS = [
    "How many disagreements can we afford?",
    "Would more annotators help?",
    "Is system A really better than B?",
    "What does kappa say?",
]


def _show_bound(result: NoiseBound, key: str) -> None:
    """Metrics, the plain-language sentence and the posterior curve of a bound."""
    if not result.ok:
        st.warning(md(result.explain()))
        return
    c = st.columns(5)
    c[0].metric("Items (n)", f"{result.n_items:,}", help="Items judged by two or more annotators.")
    c[1].metric("Disagreed (d)", f"{result.n_disagreed:,}", help="Hard for sure.")
    c[2].metric(
        "Chance agreement p",
        f"{result.p:.4g}",
        help="The chance that the annotators agree on a hard item by coin-flip.",
    )
    c[3].metric(
        "Coin-flips, at most",
        f"{int(result.hidden_hard):,}",
        help="Hard items hiding among the agreed ones, at most (t0 - d).",
    )
    verdict = judge("noise", result.gamma)
    c[4].metric(
        "Noise, at most (γ)",
        verdict.shown,
        help="Share of coin-flips among the agreed items, at most: (t0 - d) / (n - d).",
    )
    show_verdict(verdict, result.explain(verdict.shown))
    st.caption(
        f"Expected number of coin-flips among the agreed items: {result.expected_hidden:,.1f}. "
        f"Method: {md(result.method)}."
    )
    show_figure(posterior_figure(result), "noise posterior", key=f"noise_post_{key}")


st.title("Noise calculator: how clean is the agreed gold standard?")
explain(
    """
Agreement coefficients do not tell you whether the items your annotators **agreed** on are
safe to use as a gold standard. Beigman Klebanov & Beigman (2009) model every item as **easy**
(everyone gives the same label) or **hard** (each annotator flips their own coin). Items with a
disagreement are hard for sure; but some hard items **hide among the agreed ones**, because
the coins happened to land the same way.

From the number of disagreements *d*, the number of items *n* and *p*, the chance that the
annotators agree on a hard item, the calculator says: *with 95% confidence, at most so many of
your agreed items are coin-flips*. That share, **γ**, is the noise level of a gold standard built
from the agreed items.

- *p* comes from how each annotator labels hard items (estimated from the disagreed items) and
  falls quickly as annotators are added: two annotators flipping fair coins agree half the time,
  five only one time in sixteen.
- Use the bound when comparing systems: a difference smaller than what noise alone can make
  proves nothing (section "Is system A really better than B?").
"""
)


@st.cache_data(max_entries=8, show_spinner=False)
def _kappa(fingerprint: str, _ann) -> float | None:
    """The data's Fleiss' kappa (None where it is not defined)."""
    try:
        return float(fleiss_kappa(_ann))
    except AnnotationDataError:
        return None


engine_page("noise")  # data on DuckDB/Spark: its own view, or why not
ann = get_annotations()
if ann is None:
    st.info(
        "No data set is loaded yet. Open **Upload** in the sidebar to load one, or use the "
        "calculator by hand below."
    )
    mode = MODES[1]
else:
    mode = (
        st.segmented_control(
            "Mode",
            MODES,
            default=recall("noise_mode", MODES[0], fit=one_of(MODES)),
            required=True,
            key="noise_mode",
        )
        or MODES[0]
    )
    keep("noise_mode", mode)
# what this page chose for these data before: Streamlit forgets a widget's value when its
# page is left, and the report and the Export kept the choice, so the widgets start from it
earlier = report_settings(ann) if ann is not None else None
confidence = st.select_slider(
    "Confidence",
    options=CONFIDENCES,
    value=earlier.noise_confidence if earlier is not None else 0.95,
    key="noise_confidence",
    format_func=format_confidence,
    help="How sure the bound must be. Higher confidence gives a larger (more cautious) bound.",
)

result: NoiseBound | None = None
if mode == MODES[0] and ann is not None:
    st.subheader(f"From the loaded data: {md(ann.name)}")
    names = [str(a) for a in ann.annotators]
    # starts empty (= all): a crowd of hundreds would otherwise fill the page with chips
    picked = annotator_picker(
        "Annotators whose agreement makes the gold standard (empty: all)",
        names,
        key="noise_annotators",
        help="An item is agreed when every chosen annotator who labelled it gave the same label.",
        default=[a for a in earlier.noise_annotators or () if a in names],
    )
    chosen = picked or names
    remember(
        ann,
        noise_confidence=float(confidence),
        noise_annotators=tuple(picked) if picked and len(picked) < len(names) else None,
    )
    try:
        with st.spinner("Estimating the noise of the agreed items…"):
            result = noise_result(ann, chosen, float(confidence))
    except AnnotationDataError as exc:
        show_error(exc)
    if result is not None:
        for note in result.notes:
            st.caption(md(note))
        _show_bound(result, "data")
        if not result.rates.empty:
            st.markdown(
                "**How each annotator labels hard items** (their label shares on the disagreed "
                "items they judged, footnote 3 of Beigman Klebanov & Beigman 2009): the more "
                "alike and the more lopsided these are, the likelier a chance agreement."
            )
            rates = result.rates.sort_index(key=lambda names: names.astype(str))  # w00, w01...
            show_table(
                rates,
                "annotator rates on hard items",
                key="noise_rates",
                formats=three_decimals(rates),
            )
        gold = result.agreed_items()
        if len(gold):
            st.markdown(
                f"**The agreed gold standard**: {len(gold):,} items, with the agreed label, how "
                "many annotators labelled each, and *p*, that item's chance of a coin-flip "
                "agreement (lower is safer)."
            )
            show_table(gold, "agreed gold standard", key="noise_gold", index=False)
else:
    st.subheader("By hand")
    c1, c2 = st.columns(2)
    # the numbers typed by hand hold for any data: kept across data sets
    n_items = kept_number(c1, "Items (n)", min_value=1, value=1000, step=1, key="noise_n")
    n_dis = kept_number(
        c2,
        "Disagreed items (d)",
        min_value=0,
        value=100,
        step=1,
        key="noise_d",
        help="Items on which the annotators did not all give the same label.",
    )
    p_modes = ["Give p", "From each annotator's label shares on hard items"]
    p_mode = st.radio(
        "Chance agreement on a hard item",
        p_modes,
        index=recall_index("noise_p_mode", p_modes),
        horizontal=True,
        key="noise_p_mode",
    )
    keep("noise_p_mode", p_mode)
    p_value: float | None = None
    if p_mode == "Give p":
        p_value = kept_number(
            st,
            "p",
            min_value=0.0,
            max_value=1.0,
            value=0.5,
            step=0.01,
            format="%.4f",
            key="noise_p",
            help="Two annotators, two equally likely labels: 0.5. Five annotators: 0.0625.",
        )
    else:
        c3, c4 = st.columns(2)
        k = kept_number(c3, "Annotators", min_value=2, max_value=30, value=2, key="noise_k")
        m = kept_number(c4, "Categories", min_value=2, max_value=20, value=2, key="noise_m")
        rates = st.data_editor(rates_table(k, m), key=f"noise_rates_{k}_{m}", width="stretch")
        try:
            p_value = agreement_probability(rates)
            st.caption(
                f"p = sum over categories of the product of the annotators' shares = {p_value:.4g}"
            )
        except AnnotationDataError as exc:
            show_error(exc)
    if p_value is not None:
        try:
            result = noise_bound(int(n_items), int(n_dis), float(p_value), float(confidence))
        except AnnotationDataError as exc:
            show_error(exc)
        if result is not None:
            _show_bound(result, "hand")

# ---------------------------------------------------------------------- further questions
st.divider()
st.subheader("More questions")
data_kappa = None
if mode == MODES[0] and ann is not None and not ann.is_multilabel:
    data_kappa = _kappa(ann.fingerprint, ann)  # the kappa and easy-share questions start here
start = follow_up_defaults(result, kappa=data_kappa)
if start.p_from_example and (result is not None or mode != MODES[0]):
    source = "the data" if mode == MODES[0] else "the numbers above"
    st.caption(
        f"These questions start from {start.n_items:,} items, as {source} give, with the "
        f"paper's example p = {start.p:g}: {source} give no bound with their own p (see "
        "above). Change it below."
        if result is not None and start.n_items == result.n_items
        else "These questions start from the paper's worked example (1,000 items, p = 0.5): "
        f"{source} give no bound to start from (see above)."
    )
# the inputs start from the bound above: keyed by it, they follow a new data set or a switch
# to "By hand" (a widget keeps its own value under a fixed key, whatever value= says); what
# is typed into them is kept for that start (restart=sfx) when the page is left
sfx = f"{mode}_{start.n_items}_{start.p:.6g}_{start.n_agreed}_{start.kappa:.6g}"
section = st.segmented_control(
    "Question",
    SECTIONS,
    default=recall("noise_section", SECTIONS[0], fit=one_of(SECTIONS)),
    required=True,
    key="noise_section",
)
keep("noise_section", section)

try:
    if section == SECTIONS[0]:
        st.markdown(
            "The reverse question: for the gold standard to be at most γ noise, how many "
            "disagreements can a project of this size afford?"
        )
        c1, c2, c3 = st.columns(3)
        n_r = kept_number(
            c1,
            "Items",
            min_value=1,
            value=start.n_items,
            key="noise_rev_n",
            restart=sfx,
        )
        p_r = kept_number(
            c2,
            "p",
            min_value=0.0,
            max_value=1.0,
            value=start.p,
            format="%.6f",
            key="noise_rev_p",
            restart=sfx,
        )
        g_r = kept_number(
            c3, "Noise at most (%)", min_value=0.0, max_value=100.0, value=5.0, key="noise_rev_g"
        )
        rev = max_disagreements(int(n_r), float(p_r), g_r / 100, float(confidence))
        if rev.reason:
            st.warning(md(rev.explain()))
        else:
            st.metric("Disagreements you can afford", f"{rev.max_disagreed:,}")
            st.info(md(rev.explain()))
    elif section == SECTIONS[1]:
        st.markdown(
            "Requiring more annotators to agree lowers p, so fewer coin-flips slip into the "
            "agreed items (section 5.3). Give the share of easy items (kappa is an estimate of "
            "it) and how hard items are labelled."
        )
        c1, c2, c3 = st.columns(3)
        n_a = kept_number(
            c1,
            "Items",
            min_value=1,
            value=start.n_items,
            key="noise_add_n",
            restart=sfx,
        )
        e_a = kept_number(
            c2,
            "Easy items (%)",
            min_value=0.0,
            max_value=100.0,
            value=round(100 * start.easy_share, 1),
            key="noise_add_e",
            restart=sfx,
            help="Starts at the data's Fleiss' kappa (section 3.3: kappa estimates the share "
            "of easy items), at most the share of agreed items (easy items are all agreed), "
            "or 80% by hand.",
        )
        # the data's categories as the bound counts them (a multi-label set is one)
        m_data = (
            (start.categories or ann.n_categories) if mode == MODES[0] and ann is not None else 2
        )
        m_a = kept_number(
            c3,
            "Categories on hard items (equally likely)",
            min_value=2,
            max_value=20,
            value=min(max(int(m_data), 2), 20),  # the data's categories, when data are loaded
            key="noise_add_m",
            restart=f"{sfx}_{m_data}",
        )
        k_lo, k_hi = st.slider(
            "Annotators",
            2,
            15,
            recall("noise_add_k", (2, 10), fit=within(2, 15)),
            key="noise_add_k",
        )
        keep("noise_add_k", (k_lo, k_hi))
        with st.spinner("Computing the bound for each number of annotators…"):
            table = adding_annotators(
                int(n_a),
                e_a / 100,
                equal_rates(m_a),
                range(k_lo, k_hi + 1),
                float(confidence),
            )
        show_figure(adding_annotators_figure(table), "adding annotators", key="noise_add")
        show_table(
            table,
            "adding annotators",
            key="noise_add_table",
            index=False,
            # p and true_noise fall toward 0 with more annotators: three significant digits
            # (0.000244), where three decimals printed 0.000
            formats=three_decimals(table) | dict.fromkeys(("p", "true_noise"), "{:.3g}"),
        )
        st.caption(
            "p: the chance that all the annotators agree on a hard item; "
            "expected_agreed: easy items plus the hard ones agreed by chance; "
            "expected_disagreed: the most likely whole number of disagreements (rounded, as "
            "the paper does), so the two need not add up to the items; t0: the most hard "
            "items there can be, at the chosen confidence, for that many disagreements; "
            "hidden_hard: t0 less the disagreements, the coin-flips that can hide among the "
            "agreed items; gamma: hidden_hard as a share of the agreed items, the bound; "
            "true_noise: the expected "
            "share of coin-flips. A what-if from kappa's share of easy items and equally "
            "likely categories on hard items, not from the disagreements observed: its row "
            "for the data's own number of annotators need not equal the bound above."
        )
    elif section == SECTIONS[2]:
        st.markdown(
            "Two systems equally good on the easy items still differ on the coin-flip items "
            "by chance (section 4.1). A difference smaller than this proves nothing."
        )
        c1, c2, c3 = st.columns(3)
        l_c = kept_number(
            c1,
            "Gold-standard items (L)",
            min_value=1,
            value=start.n_agreed,
            key="noise_cd_l",
            restart=sfx,
        )
        r_c = kept_number(
            c2,
            "Coin-flips among them (R)",
            min_value=0,
            value=start.hidden_hard_within(l_c),
            key="noise_cd_r",
            restart=sfx,
        )
        bounds = ["chebyshev", "normal", "exact"]
        bound = c3.selectbox(
            "Bound",
            bounds,
            index=recall_index("noise_cd_bound", bounds),
            format_func={"chebyshev": "Chebyshev", "normal": "normal", "exact": "exact"}.get,
            key="noise_cd_bound",
            help="Chebyshev (the paper's, safe for any R), normal (large R) or exact.",
        )
        keep("noise_cd_bound", bound)
        cd = chance_difference(int(l_c), int(r_c), bound, float(confidence))
        st.metric(
            "Difference in correct answers noise alone can make",
            f"{cd.difference:.0f}" if float(cd.difference).is_integer() else f"{cd.difference:.1f}",
            help="A lead must be larger than this, a whole number of answers, to be beyond chance.",
        )
        st.info(md(cd.explain()))
    elif section == SECTIONS[3]:
        st.markdown(
            "Kappa can be read as the share of easy items (section 3.3). Easy items are all "
            "agreed, so the rest of the agreed items are coin-flips: a quick estimate, without "
            "the confidence margin of the bound above."
        )
        c1, c2, c3 = st.columns(3)
        kap = kept_number(
            c1,
            "Kappa",
            min_value=-1.0,
            max_value=1.0,
            value=round(min(max(start.kappa, -1.0), 1.0), 3),
            format="%.3f",
            key="noise_kappa",
            restart=sfx,
            help="Starts at the loaded data's Fleiss' kappa (0.8 by hand).",
        )
        n_k = kept_number(
            c2,
            "Items",
            min_value=1,
            value=start.n_items,
            key="noise_kappa_n",
            restart=sfx,
        )
        a_k = kept_number(
            c3,
            "Agreed items",
            min_value=0,
            value=start.n_agreed_within(n_k),
            key="noise_kappa_a",
            restart=sfx,
        )
        kn = kappa_noise_estimate(float(kap), int(n_k), int(a_k))
        if kn.reason:
            st.warning(md(kn.explain()))
        else:
            kn_verdict = judge("noise", kn.noise)
            st.metric("Noise of the agreed items (kappa's reading)", kn_verdict.shown)
            show_verdict(kn_verdict, kn.explain(kn_verdict.shown))
except AnnotationDataError as exc:
    show_error(exc)
