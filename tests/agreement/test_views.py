"""Agreement tables and figures: per category, pairwise, contingency, items, readings."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

from analytics import Annotations
from analytics import agreement as ag
from analytics.agreement import figures as af
from analytics.data import load_sample
from tests.helpers.builders import from_coders, from_table
from tests.helpers.paths import load_public
from tests.helpers.references import KRIPPENDORFF_2011


def test_beigman_klebanov_section_3_1_two_annotators():
    # 1,000 instances, 900 agreements, categories equiprobable: K (their equation 2) = 0.8
    ann = from_table([[450, 50], [50, 450]])
    assert ag.fleiss_kappa(ann) == pytest.approx(0.8, abs=1e-12)
    assert ag.cohen_kappa(ann, "A", "B") == pytest.approx(0.8, abs=1e-12)
    assert "80% of items" in ag.reading("Fleiss' kappa", 0.8)


def test_pairwise_matrix_agrees_with_two_annotator_calls():
    ann = from_coders(KRIPPENDORFF_2011, kind="numeric")
    for coef, fn in [("cohen_kappa", ag.cohen_kappa), ("scott_pi", ag.scott_pi)]:
        pw = ag.pairwise(ann, coef)
        assert pw.values.shape == (4, 4)
        assert np.isnan(np.diag(pw.values.to_numpy())).all()
        for a in ann.annotators:
            for b in ann.annotators:
                if a != b:
                    assert pw.values.loc[a, b] == pytest.approx(fn(ann, a, b))
    pw = ag.pairwise(ann, "percent_agreement")
    sub = ann.subset(annotators=["c0", "c2"])
    assert pw.values.loc["c0", "c2"] == pytest.approx(ag.percent_agreement(sub))
    assert pw.shared.loc["c0", "c2"] == 8
    alpha_pair = ag.pairwise(ann, "krippendorff_alpha").values.loc["c1", "c3"]
    shared = ann.subset(annotators=["c1", "c3"])
    both = [i for i in shared.items if (shared.to_frame()["item"] == i).sum() == 2]
    assert alpha_pair == pytest.approx(ag.krippendorff_alpha(shared.subset(items=both)))
    ac1_pair = ag.pairwise(ann, "gwet_ac1").values.loc["c1", "c3"]
    assert ac1_pair == pytest.approx(ag.gwet_ac1(shared.subset(items=both)))


def test_contingency_counts_shared_items():
    ann = from_table([[3, 1], [2, 4]], labels=["x", "y"])
    table = ag.contingency(ann, "A", "B")
    assert table.to_numpy().tolist() == [[3, 1], [2, 4]]
    assert table.index.name == "A" and table.columns.name == "B"


def test_item_agreement_and_levels():
    ann = from_coders([[0, 0, 1, 0], [0, 1, 1, None], [0, 1, 2, None]], categories=[0, 1, 2])
    items = ag.item_agreement(ann)
    assert items["agreement"].tolist()[:3] == pytest.approx([1.0, 1 / 3, 1 / 3])
    assert math.isnan(items["agreement"].iloc[3])
    assert items["top_votes"].tolist() == [3, 2, 2, 1]
    levels = ag.agreement_levels(ann)
    assert levels["items"].sum() == 4
    assert set(levels["level"]) == {"3 of 3 agree", "2 of 3 agree", "1 of 1 agree"}


def test_per_category_for_multilabel_data():
    df = pd.DataFrame(
        {
            "item": ["a", "a", "b", "b", "c", "c", "d", "d"],
            "annotator": ["x", "y"] * 4,
            "label": ["p|q", "p", "q", "q", "{}", "p", "p|q", "p|q"],
        }
    )
    ann = Annotations.from_frame(df, multilabel_sep="|")
    table = ag.per_category(ann, n_boot=50)
    assert table["category"].tolist() == ["p", "q"]
    # category q: membership per judgement (a: 1,0; b: 1,1; c: 0,0; d: 1,1) as nominal data
    binary = from_coders([[1, 1, 0, 1], [0, 1, 0, 1]], categories=[0, 1])
    assert table.loc[1, "alpha"] == pytest.approx(ag.krippendorff_alpha(binary))
    assert table.loc[1, "fleiss_kappa"] == pytest.approx(ag.fleiss_kappa(binary))
    report = ag.agreement_report(ann, n_boot=30)
    alpha_row = report[report["coefficient"] == "Krippendorff's alpha (masi)"].iloc[0]
    assert np.isfinite(alpha_row["value"])
    # 4 items: too few to resample, and the note says so
    assert np.isnan(alpha_row["ci_low"]) and "no resampled interval" in alpha_row["note"]
    assert "single-label" in report.loc[report["coefficient"] == "Fleiss' kappa", "note"].iloc[0]


def test_readings_are_plain_and_cover_undefined_values():
    text = ag.reading("Cohen's kappa", 0.62, 0.58, 0.66)
    assert text.startswith(
        "0.620: substantial agreement beyond chance; the 95% interval 0.580 to 0.660"
    )
    wide = ag.reading("Gwet's AC1", 0.5, 0.3, 0.7)
    assert "uncertain" in wide
    assert "reliable" in ag.reading("Krippendorff's alpha (nominal)", 0.85)
    assert (
        ag.reading("Fleiss' kappa", float("nan"), note="no shared items")
        == "Undefined: no shared items."
    )
    assert "not corrected for chance" in ag.reading("Percent agreement", 0.9)


def _titles_and_axes(fig):
    layout = fig.to_plotly_json()["layout"]
    return layout["title"]["text"], layout


def test_figures_have_titles_axes_and_the_right_scales():
    ann = from_coders(KRIPPENDORFF_2011, kind="numeric")
    report = ag.agreement_report(ann, n_boot=50)
    figs = {
        "pairwise": af.pairwise_heatmap(ag.pairwise(ann)),
        "forest": af.forest_plot(report),
        "category": af.per_category_bars(ag.per_category(ann, n_boot=20)),
        "contingency": af.contingency_heatmap(ag.contingency(ann, "c0", "c1")),
        "items": af.item_agreement_histogram(ag.item_agreement(ann)),
        "paradox": af.kappa_paradox_figure(ann),
    }
    for name, fig in figs.items():
        title, layout = _titles_and_axes(fig)
        assert title, name
        assert layout["xaxis"].get("title", {}).get("text"), name
        assert len(fig.data) >= 1, name
    heat = figs["pairwise"].data[0]
    assert heat.zmid == 0 and heat.zmin == -1  # diverging, centred on chance
    assert heat.customdata is not None  # shared items on hover
    pct = af.pairwise_heatmap(ag.pairwise(ann, "percent_agreement")).data[0]
    assert pct.zmid is None
    # every cell with two decimals ("0.40" and "1.00", never "0.4" beside "0.41"), no "-0.00"
    cells = [t for row in [*heat.text, *pct.text] for t in row if t]
    assert cells and all(re.fullmatch(r"-?\d\.\d\d", t) and t != "-0.00" for t in cells)
    forest = figs["forest"].data[0]
    assert list(forest.y) == report["coefficient"].tolist()
    paradox = figs["paradox"]
    assert {t.name for t in paradox.data} >= {"kappa", "AC1", "prevalence"}


def test_paradox_curve_reproduces_passonneau_carpenter():
    ann = from_table([[900, 50], [50, 0]], labels=["yes", "no"])
    fig = af.kappa_paradox_figure(ann)
    kappa = next(t for t in fig.data if t.name == "kappa")
    x = np.asarray(kappa.x)
    at95 = np.interp(0.95, x, np.asarray(kappa.y))
    assert at95 == pytest.approx(-0.0526, abs=2e-3)
    marker = next(t for t in fig.data if t.name == "kappa, two categories at 95%")
    assert marker.x[0] == pytest.approx(0.95)
    # two categories: the marker is the data's kappa, (0.9 - 0.905) / (1 - 0.905) exactly
    assert marker.y[0] == pytest.approx(-0.005 / 0.095)
    assert marker.y[0] == pytest.approx(at95, abs=2e-3)


def test_degenerate_figures_explain_themselves():
    ann = from_coders([[0, None], [None, 1]], categories=[0, 1])
    for fig in [
        af.pairwise_heatmap(ag.pairwise(ann)),
        af.forest_plot(ag.agreement_report(ann, n_boot=10)),
        af.per_category_bars(ag.per_category(ann, n_boot=10)),
        af.contingency_heatmap(ag.contingency(ann, "c0", "c1")),
        af.item_agreement_histogram(ag.item_agreement(ann)),
        af.kappa_paradox_figure(ann),
    ]:
        texts = [a.text for a in fig.layout.annotations]
        assert any(len(t) > 20 for t in texts), texts


def test_public_data_report_runs_and_is_consistent():
    labels, _ = load_public("snow_rte")
    ann = Annotations.from_frame(labels, kind="nominal")
    report = ag.agreement_report(ann, n_boot=100).set_index("coefficient")
    assert report.loc["Krippendorff's alpha (nominal)", "value"] == pytest.approx(
        ag.krippendorff_alpha(ann)
    )
    assert report.loc["Fleiss' kappa", "items_used"] == 800
    assert "annotator pairs" in report.loc["Cohen's kappa (Light's mean over pairs)", "note"]
    assert report["ci_low"].notna().all()
    # pairs of snow_rte share 2.7 items on average: the means over pairs are biased down by
    # about as much as they vary (issue 14: the percentile interval had the estimate at its
    # top), so their interval is the jackknife's bias-corrected one: above the estimate
    for name in report.index[report.index.str.contains("over pairs")]:
        row = report.loc[name]
        assert "jackknife" in row["ci_method"] and "bias -0.0" in row["ci_method"]
        assert row["ci_low"] <= row["value"] < (row["ci_low"] + row["ci_high"]) / 2


def test_unstable_pair_means_get_no_interval_but_a_reason():
    # act_MS: 44 annotators, most pairs share a handful of items; the mean of pairwise kappas
    # lies outside its own bootstrap distribution, so its interval is withheld
    labels, _ = load_public("act_MS")
    ann = Annotations.from_frame(labels, kind="nominal")
    report = ag.agreement_report(ann, n_boot=200).set_index("coefficient")
    light = report.loc["Cohen's kappa (Light's mean over pairs)"]
    assert np.isfinite(light["value"]) and np.isnan(light["ci_low"])
    assert "no interval" in light["note"] and "fewer than 10 items" in light["note"]
    assert "jackknife bias" in light["note"]
    fleiss = report.loc["Fleiss' kappa"]
    assert fleiss["ci_low"] <= fleiss["value"] <= fleiss["ci_high"]


def test_a_negative_interval_reads_unambiguously():
    """'interval -0.17-1.00' read like a subtraction; ends are joined by 'to'."""
    text = ag.reading("Gwet's AC1", 0.42, -0.17, 1.0)
    assert "interval -0.170 to 1.000" in text


def test_per_category_error_bars_have_a_colour_of_their_own():
    """Bars coloured by value passed numbers to the error bars as their colour
    (plotly.js: 'Invalid color specifier', drawn black)."""
    ann = load_sample("crowd_intents")
    fig = af.per_category_bars(ag.per_category(ann, n_boot=50))
    bars = fig.data[0]
    assert not isinstance(bars.marker.color, str)  # coloured by value
    assert isinstance(bars.error_y.color, str)


def test_a_mean_over_pairs_that_lean_on_sparse_pairs_carries_a_caution():
    """A review saw Light's kappa 0.81, "almost perfect", above percent agreement 0.76 on
    data where three of six pairs shared only two items; the note saying so sat in a table
    column scrolled off screen. The reading now says it."""
    import pandas as pd

    from analytics import load_annotations
    from analytics.agreement import agreement_report, reading

    rows = [
        (f"i{i}", w, "xyz"[(i + (w == "c") * (i % 3 == 0)) % 3]) for i in range(30) for w in "abc"
    ]
    rows += [("i0", "d", "x"), ("i1", "d", "y")]  # d shares two items with each of a, b, c
    ann = load_annotations(pd.DataFrame(rows, columns=["item", "annotator", "label"]))
    report = agreement_report(ann, n_boot=0).set_index("coefficient")
    light = report.loc["Cohen's kappa (Light's mean over pairs)"]
    text = reading("Cohen's kappa (Light's mean over pairs)", light["value"], note=light["note"])
    assert "Caution: 3 of the pairs averaged share fewer than 10 items" in text
    fleiss = report.loc["Fleiss' kappa"]
    assert "Caution" not in reading("Fleiss' kappa", fleiss["value"], note=fleiss["note"])


def test_kappa_is_read_as_easy_items_only_where_the_agreed_items_allow():
    """Section 3.3 reads kappa as the share of easy items, all agreed by everyone: the
    sample's kappa 0.486 against 87 of 300 items agreed cannot be read so, and the
    Agreement page said "about 49% of items look like ones everyone gets right" beside
    "29% of 300 items: full agreement" (the Noise calculator said the data do not fit)."""
    from analytics import load_annotations
    from analytics.agreement import fleiss_kappa, reading
    from analytics.noise import kappa_noise_estimate, noise_from_annotations
    from tests.helpers.paths import SAMPLE_DATA

    ann = load_annotations(SAMPLE_DATA / "crowd_intents.csv")
    kappa, bound = float(fleiss_kappa(ann)), noise_from_annotations(ann)
    share = bound.n_agreed / bound.n_items
    text = reading("Fleiss' kappa", kappa, agreed_share=share)
    assert "cannot be read here as a share of easy items" in text
    assert "only 29% are" in text and "everyone gets right" not in text
    assert kappa_noise_estimate(kappa, bound.n_items, bound.n_agreed).reason  # same verdict
    fits = reading("Fleiss' kappa", 0.24, agreed_share=0.30)
    assert "about 24% of items look like ones everyone gets right" in fits
    assert reading("Fleiss' kappa", 0.24) == fits  # not known: the reading is given


def test_easy_share_is_kappa_within_the_agreed_share():
    from analytics.noise import FollowUpDefaults, easy_share

    assert easy_share(0.8, 1000, 900) == 0.8
    assert easy_share(0.486, 300, 87) == pytest.approx(0.29)
    assert easy_share(-0.1, 10, 5) == 0.0 and easy_share(1.0, 10, 10) == 1.0
    assert np.isnan(easy_share(float("nan"), 10, 5)) and np.isnan(easy_share(0.5, 0, 0))
    start = FollowUpDefaults(n_items=300, n_agreed=87, kappa=0.486)
    assert start.easy_share == pytest.approx(0.29)


def test_the_easy_share_is_zero_when_no_item_is_agreed():
    """No agreed item: the follow-up questions start from the paper's example items (they
    need an agreed item), but kappa's share of easy items starts at 0, not at the
    example's 90% cap."""
    from analytics.noise import follow_up_defaults, noise_bound

    start = follow_up_defaults(noise_bound(40, 40, 0.5), kappa=0.2)
    assert start.n_items == 1000 and start.easy_share == 0.0
    assert follow_up_defaults(None, kappa=0.2).easy_share == pytest.approx(0.2)


def test_the_easy_items_sentence_tells_the_two_shares_apart():
    from analytics.agreement import reading

    text = reading("Fleiss' kappa", 0.2904, agreed_share=0.29)
    assert "about 29.04% of items easy" in text and "only 29.00% are" in text


def test_no_annotator_is_not_called_one_annotator():
    from analytics.agreement import agreement_report

    empty = load_sample("crowd_intents").subset(annotators=[])
    notes = agreement_report(empty, n_boot=0)["note"]
    assert not notes.str.contains("only one annotator").any()
    assert notes.str.contains("no annotator: Cohen's kappa compares pairs").any()


@pytest.mark.parametrize("name", ["crowd_intents.csv", "affect_multilabel.csv"])
def test_bootstrap_intervals_do_not_depend_on_the_row_order(name):
    """The resamples are drawn in the data's own order (items by name, patterns keyed by the
    annotators' and categories' names): reordering the rows had moved intervals in the third
    decimal (Fleiss' kappa by up to 0.004), a seed in disguise."""
    from analytics import load_annotations
    from analytics.agreement import agreement_report, per_category
    from tests.helpers.paths import SAMPLE_DATA

    rows = pd.read_csv(SAMPLE_DATA / name, dtype=str, keep_default_na=False)
    one = load_annotations(rows)
    other = load_annotations(rows.sample(frac=1, random_state=5))
    assert list(one.items) != list(other.items)
    a, b = (agreement_report(x, n_boot=300) for x in (one, other))
    np.testing.assert_allclose(
        a[["ci_low", "ci_high"]].to_numpy(float),
        b[["ci_low", "ci_high"]].to_numpy(float),
        atol=1e-12,
    )
    if not one.is_multilabel:
        c, d = (per_category(x, n_boot=200).set_index("category") for x in (one, other))
        cols = [col for col in c.columns if col.endswith(("_low", "_high"))]
        np.testing.assert_allclose(
            c[cols].to_numpy(float), d.loc[c.index, cols].to_numpy(float), atol=1e-12
        )


def test_intervals_of_tied_replicates_do_not_depend_on_the_row_order():
    """Many replicates of a statistic of counts equal the estimate; summed in another order
    the estimate differed from them in the last bits, and BCa's share of replicates below
    it (ties count half) moved: Brennan-Prediger's interval read [0.45, 0.85] or [0.45,
    0.90] for the same judgements in reverse order."""
    from analytics import load_annotations
    from analytics.agreement import agreement_report

    for seed in range(6):
        rng = np.random.default_rng(seed)
        truth = rng.choice(3, 20, p=[0.8, 0.1, 0.1])
        rows = pd.DataFrame(
            [
                (f"i{i:02d}", f"a{a}", int(truth[i] if rng.random() < 0.8 else rng.integers(3)))
                for i in range(20)
                for a in range(3)
            ],
            columns=["item", "annotator", "label"],
        )
        a, b = (
            agreement_report(load_annotations(df), n_boot=200, seed=0)
            for df in (rows, rows.iloc[::-1].reset_index(drop=True))
        )
        np.testing.assert_allclose(
            a[["ci_low", "ci_high"]].to_numpy(float),
            b[["ci_low", "ci_high"]].to_numpy(float),
            atol=1e-12,
        )
