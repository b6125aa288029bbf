"""The Agreement report page, run headless with Streamlit's AppTest."""

from __future__ import annotations

import json

import pandas as pd
from streamlit.testing.v1 import AppTest

from analytics import Annotations, format_p_value
from analytics.agreement import agreement_report
from tests.helpers.app import run_page
from tests.helpers.builders import from_coders
from tests.helpers.markup import shown
from tests.helpers.paths import load_public
from tests.helpers.references import KRIPPENDORFF_2011


def _run(ann: Annotations | None) -> AppTest:
    at = run_page("agreement", ann)
    return at


def _figures(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def test_no_data_shows_an_info_message():
    at = _run(None)
    assert not at.exception
    assert any("No data set" in i.value for i in at.info)


def test_report_on_published_data():
    ann = from_coders(KRIPPENDORFF_2011, kind="numeric")
    at = _run(ann)
    assert not at.exception
    report = at.dataframe[0].value
    values = dict(zip(report["coefficient"], report["value"], strict=True))
    assert values["Krippendorff's alpha (interval)"] == "0.849"
    assert values["Krippendorff's alpha (nominal)"] == "0.743"
    # the table prints each value as its card does
    cards = {m.label: m.value for m in at.metric}
    assert cards and all(values[name] == shown for name, shown in cards.items())
    assert report["ci_low"].notna().all()
    labels = [m.label for m in at.metric]
    assert "Krippendorff's alpha (interval)" in labels
    titles = [f["layout"]["title"]["text"] for f in _figures(at)]
    assert any("confidence intervals" in t for t in titles)
    assert any("kappa paradox" in t for t in titles)
    assert any("Pairwise" in t for t in titles)
    text = " ".join(shown(m.value) for m in at.markdown)  # shown: sentences are escaped
    assert "interval" in text and "agreement beyond chance" in text
    captions = " ".join(shown(c.value) for c in at.caption)
    assert "kappa maximum, Cohen 1960" in captions
    # what an interval means is said once, under the list, not after every coefficient
    (listing,) = [shown(m.value) for m in at.markdown if shown(m.value).startswith("- ")]
    assert listing.count("% interval ") == len(report) and "plausibly" not in listing
    assert captions.count("could plausibly lie anywhere in it") == 1


def test_filters_and_distance_change_the_report():
    ann = from_coders(KRIPPENDORFF_2011, kind="numeric")
    at = _run(ann)
    at.selectbox(key="agr_distance").set_value("ordinal").run()
    assert not at.exception
    names = at.dataframe[0].value["coefficient"].tolist()
    assert "Krippendorff's alpha (ordinal)" in names
    at.multiselect(key="agr_annotators").set_value(["c0", "c1"]).run()
    assert not at.exception
    report = at.dataframe[0].value
    assert "Cohen's kappa" in report["coefficient"].tolist()  # two annotators: plain Cohen
    at.segmented_control(key="agr_interval_mode").set_value(
        "Fast (analytic where one exists)"
    ).run()
    assert not at.exception
    methods = at.dataframe[0].value["ci_method"].tolist()
    assert any("analytic" in m for m in methods)


def test_degenerate_data_show_reasons_not_tracebacks():
    df = pd.DataFrame(
        {"item": ["a", "a", "b", "b"], "annotator": ["x", "y", "x", "y"], "label": ["p"] * 4}
    )
    ann = Annotations.from_frame(df, kind="nominal", categories=["p", "q"])
    at = _run(ann)
    assert not at.exception
    report = at.dataframe[0].value
    # undefined coefficients show the dash (the grid wrote "None" for a missing number)
    assert (report.loc[report["coefficient"] != "Percent agreement", "value"] == "–").all()
    assert any("undefined" in w.value for w in at.warning)


def test_public_crowd_data_and_multilabel():
    labels, _ = load_public("snow_wsd")
    ann = Annotations.from_frame(labels, kind="nominal")
    at = _run(ann)
    assert not at.exception
    ml = pd.DataFrame(
        {
            "item": ["a", "a", "b", "b", "c", "c"],
            "annotator": ["x", "y"] * 3,
            "label": ["p|q", "p", "q", "q", "", "{}"],
        }
    )
    at = _run(Annotations.from_frame(ml, multilabel_sep="|"))
    assert not at.exception
    names = at.dataframe[0].value["coefficient"].tolist()
    assert "Krippendorff's alpha (masi)" in names
    # the headline tiles are measures of label sets, not kappa and AC1 (n/a on sets)
    tiles = [m.label for m in at.metric]
    assert "Gwet's AC1" not in tiles and "Fleiss' kappa" not in tiles
    assert "Krippendorff's alpha (masi)" in tiles and "Percent agreement" in tiles


def test_multilabel_item_table_is_displayable():
    ml = pd.DataFrame(
        {
            "item": ["a", "a", "b", "b"],
            "annotator": ["x", "y"] * 2,
            "label": ["p|q", "{}", "q", "q"],
        }
    )
    at = _run(Annotations.from_frame(ml, multilabel_sep="|"))
    assert not at.exception
    tables = [df.value for df in at.dataframe]
    items = next(t for t in tables if "top_label" in t.columns)
    # item a is a 1-1 tie between two sets: both are named, not the first one alone
    assert set(items["top_label"]) <= {"p, q / {}", "{} / p, q", "q"}
    assert items["tied"].tolist().count(True) == 1


def test_a_count_table_shows_the_count_coefficients_and_says_why_others_are_missing():
    from analytics.data import from_count_table
    from tests.agreement.test_count_tables import DISTRIB_6RATERS

    at = _run(from_count_table(DISTRIB_6RATERS))
    assert not at.exception
    report = at.dataframe[0].value.set_index("coefficient")
    # irrCAC README: fleiss.kappa.dist(distrib.6raters) = 0.4139265 (to 1e-7 in
    # tests/agreement/test_count_tables.py; the page shows three decimals)
    assert report.loc["Fleiss' kappa", "value"] == "0.414"
    conger = report.loc["Conger's kappa"]
    assert conger["value"] == "–" and "anonymous" in conger["note"]


def test_gold_labels_page_refuses_a_count_table_in_words():
    from analytics.data import from_count_table
    from tests.agreement.test_count_tables import DISTRIB_6RATERS

    at = run_page("gold_labels", from_count_table(DISTRIB_6RATERS), timeout=120)
    assert not at.exception
    assert any("anonymous" in shown(e.value) for e in at.error)


def test_dkpro_set_distance_is_a_choice_on_multilabel_data():
    from tests.agreement.test_set_distances import dkpro_study

    at = _run(dkpro_study())
    assert not at.exception
    at.selectbox(key="agr_distance").set_value("passonneau_dkpro").run()
    assert not at.exception
    report = at.dataframe[0].value.set_index("coefficient")
    # DKPro Agreement SetAnnotationsTest: alpha 0.186 with SetAnnotationDistanceFunction
    row = next(name for name in report.index if "passonneau_dkpro" in name)
    assert float(report.loc[row, "value"]) == 0.186


def test_summary_table_shows_a_dash_not_none_for_missing_values():
    """Light's mean and Scott's pi over pairs have no p-value: the cell read "None"."""
    import numpy as np

    from tests.helpers.builders import random_coders

    ann = from_coders(random_coders(np.random.default_rng(0), 30, 3, 3))
    at = _run(ann)
    assert not at.exception
    cells = at.dataframe[0].value  # what the grid draws: a Styler's na_rep was ignored
    pairs = "Cohen's kappa (Light's mean over pairs)"
    assert not cells.astype(str).isin(["None", "nan", "NaN", "<NA>"]).any().any()
    assert not cells.isna().any().any()
    row = cells[cells["coefficient"] == pairs].iloc[0]
    assert row["p_value"] == "–" and row["analytic_low"] == "–"
    value = agreement_report(ann).set_index("coefficient").loc[pairs, "value"]
    assert f"{float(row['value']):.3f}" == f"{value:.3f}"
    # the caption no longer says every interval is the bootstrap's
    caption = next(shown(c.value) for c in at.caption if "Intervals from" in shown(c.value))
    assert "the ci_method column says how theirs were made" in caption
    assert pairs in caption
    # nor does the interval switch's help (it said every coefficient gets a BCa interval)
    help_text = next(b.proto.help for b in at.get("button_group") if "Bootstrap:" in b.proto.help)
    assert "jackknife" in help_text and "every coefficient gets a BCa" not in help_text


def test_a_report_with_no_interval_says_so_instead_of_listing_every_coefficient():
    """One item: the caption read "Intervals from 1,000 bootstrap resamples over items,
    except for" all eight coefficients."""
    ann = Annotations.from_frame(
        pd.DataFrame({"item": "x", "annotator": ["a", "b", "c"], "label": ["y", "y", "n"]})
    )
    at = _run(ann)
    assert not at.exception
    caption = next(shown(c.value) for c in at.caption if "1 item," in shown(c.value))
    assert "No intervals: too few items are compared" in caption
    assert "except for" not in caption and "Intervals from" not in caption


def test_p_values_read_like_the_report_and_the_cli():
    """A p-value of 1e-120 reads "< 0.001" (as in the HTML report and the CLI), not 1.7e-120."""
    ann = from_coders(KRIPPENDORFF_2011, kind="numeric")
    at = _run(ann)
    assert not at.exception
    table = at.dataframe[0].value
    p = dict(zip(table["coefficient"], table["p_value"], strict=True))
    numbers = agreement_report(ann).set_index("coefficient")["p_value"]
    assert p == {c: format_p_value(numbers[c]) for c in p}
    assert "< 0.001" in p.values()  # this data set has p-values far below 0.001
    assert not any("e-" in v for v in p.values())


def test_the_pairwise_table_shows_a_dash_on_its_diagonal_not_none():
    """The grid wrote the diagonal's NaN (an annotator with itself) as a grey "None"."""
    import numpy as np

    from tests.helpers.builders import random_coders

    ann = from_coders(random_coders(np.random.default_rng(1), 30, 4, 3))
    at = _run(ann)
    assert not at.exception
    names = [str(a) for a in ann.annotators]
    square = [
        d.value for d in at.dataframe if sorted(str(c) for c in d.value.columns) == sorted(names)
    ]  # the pairwise values and the shared-items counts (in the heatmap's order)
    values = next(t for t in square if (t.astype(str) == "–").any().any())
    assert all(values.iloc[i, i] == "–" for i in range(len(names)))
    assert not values.astype(str).isin(["None", "nan", "NaN", "<NA>"]).any().any()
    off = values.to_numpy()[~np.eye(len(names), dtype=bool)]
    assert all(len(v.split(".")[-1]) == 3 for v in off)  # three decimals, as elsewhere


def _sentiment(categories: list[str] | None = None) -> Annotations:
    """Text labels; item i3 is a 2-2 split (neu, neu, pos, pos)."""
    labels = [
        ("pos", "pos", "pos", "neu"),
        ("neg", "neg", "neu", "neg"),
        ("neu", "neg", "neu", "neu"),
        ("neu", "neu", "pos", "pos"),
        ("neg", "neg", "neg", "neg"),
    ]
    df = pd.DataFrame(
        [(f"i{i}", f"a{j}", lab) for i, row in enumerate(labels) for j, lab in enumerate(row)],
        columns=["item", "annotator", "label"],
    )
    return Annotations.from_frame(df, categories=categories)


def test_unordered_text_offers_only_the_nominal_distance_and_says_why():
    at = _run(_sentiment())
    assert not at.exception
    assert at.selectbox(key="agr_distance").options == ["nominal"]
    # said in the control's help (a caption there left a gap beside the other controls)
    helptext = shown(at.selectbox(key="agr_distance").help)
    assert "Only nominal" in helptext and "no declared order" in helptext
    at = _run(_sentiment(categories=["neg", "neu", "pos"]))
    assert at.selectbox(key="agr_distance").options == ["nominal", "ordinal"]
    at.selectbox(key="agr_distance").set_value("ordinal").run()
    assert not at.exception
    report = at.dataframe[0].value.set_index("coefficient")
    assert report.loc["Krippendorff's alpha (ordinal)", "value"] != "–"


def test_items_table_shows_a_tie_as_a_tie():
    at = _run(_sentiment(categories=["neg", "neu", "pos"]))
    assert not at.exception
    items = next(d.value for d in at.dataframe if "top_label" in d.value.columns)
    tied = items[items["tied"]]
    assert tied["top_label"].tolist() == ["neu / pos"]
    assert "on a tie" in " ".join(shown(c.value) for c in at.caption)


def test_whole_number_codes_are_cautioned_beside_the_headline():
    df = pd.DataFrame(
        {
            "item": [f"q{i // 3}" for i in range(12)],
            "annotator": ["r1", "r2", "r3"] * 4,
            "label": [4, 5, 3, 1, 2, 1, 5, 5, 4, 3, 3, 2],
        }
    )
    at = _run(Annotations.from_frame(df))
    assert not at.exception
    assert any("read as nominal codes" in w.value for w in at.warning)
    at = _run(Annotations.from_frame(df, kind="ordinal"))
    assert not any("read as nominal codes" in w.value for w in at.warning)


def test_ordinal_data_show_the_weighted_coefficients_in_the_tiles():
    df = pd.DataFrame(
        {
            "item": [f"q{i // 3}" for i in range(12)],
            "annotator": ["r1", "r2", "r3"] * 4,
            "label": [4, 5, 3, 1, 2, 1, 5, 5, 4, 3, 3, 2],
        }
    )
    at = _run(Annotations.from_frame(df, kind="ordinal"))
    assert not at.exception
    tiles = [m.label for m in at.metric]
    assert tiles[0] == "Krippendorff's alpha (ordinal)"
    assert "Gwet's AC2 (quadratic weights)" in tiles and "Gwet's AC1" not in tiles
    assert "Fleiss' kappa" not in tiles


def test_the_tie_example_uses_the_datas_own_categories():
    """The Items caption's example was always 'neu / pos', whatever the data's labels."""
    ann = _sentiment()
    at = _run(ann)
    captions = " ".join(shown(c.value) for c in at.caption)
    assert f"e.g. '{ann.categories[0]} / {ann.categories[1]}'" in captions


def test_the_summary_reads_kappa_as_easy_items_only_where_the_data_fit():
    """The sample: Fleiss' kappa 0.486, 29% of items agreed by everyone. The summary had
    said "about 49% of items look like ones everyone gets right" beside the Items tab's
    "29% of 300 items: full agreement"; the Noise calculator says the data do not fit."""
    from analytics.data import load_sample

    at = _run(load_sample("crowd_intents"))
    assert not at.exception
    text = "\n".join(shown(m.value) for m in at.markdown)
    assert "cannot be read here as a share of easy items" in text
    assert "only 29% are" in text and "everyone gets right" not in text


def test_the_pairwise_tables_follow_the_heatmaps_order():
    """The heatmap is clustered (w19, w17, w18...), the tables below it were in file order
    (w06, w03, w00...): they now list the annotators as the heatmap does, in every order."""
    from analytics.data import load_sample

    ann = load_sample("crowd_intents")
    at = _run(ann)
    assert not at.exception
    names = {str(a) for a in ann.annotators}
    for order in ("clustered", "most shared items"):
        if order != "clustered":
            at.segmented_control(key="agr_pair_order").set_value(order).run()
            assert not at.exception
        heat = next(  # the pairwise heatmap: annotators on both axes
            f
            for f in _figures(at)
            if f["data"][0].get("type") == "heatmap"
            and set(map(str, f["data"][0].get("x") or [])) == names
        )
        x = [str(v) for v in heat["data"][0]["x"]]
        assert set(x) == names and x != [str(a) for a in ann.annotators]  # reordered
        square = [d.value for d in at.dataframe if {str(c) for c in d.value.columns} == names]
        assert len(square) == 2, order  # the coefficients and the shared items
        for table in square:
            assert [str(c) for c in table.columns] == x, order
            assert [str(i) for i in table.index] == x, order
