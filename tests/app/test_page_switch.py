"""A page shows again the controls the user set when they come back to it.

Streamlit 1.67 drops the state of every widget its page did not draw, so with
``st.navigation`` a filter, a section or a budget went back to its default after a visit to
another page. The pages keep their choices through ``ui.settings`` (``keep``/``recall``):
choices that name things in the data (annotators, categories, items, documents) for that
data set only, the others for any data, brought within what newly loaded data allow.
"""

from __future__ import annotations

import io

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from analytics.engines import load_annotations
from tests.helpers.paths import ROOT

APP = str(ROOT / "app.py")


def away_and_back(at: AppTest, page: str, via: str = "pages/overview.py") -> None:
    """Open another page, then ``page`` again (Streamlit forgets the first page's widgets)."""
    at.switch_page(via).run()
    assert not at.exception, at.exception
    at.switch_page(page).run()
    assert not at.exception, at.exception


def upload(at: AppTest, name: str, text: str) -> None:
    """Load ``text`` as an uploaded file on the Data page."""
    at.switch_page("pages/upload.py").run()
    at.segmented_control(key="upload_mode").set_value("Upload a file").run()
    at.file_uploader(key="upload_file").set_value((name, text.encode(), "text/csv")).run()
    assert not at.exception, at.exception
    assert at.session_state["concord_annotations"].name == name


def test_agreement_filters_and_views_are_kept(app):
    app.switch_page("pages/agreement.py").run()
    app.multiselect(key="agr_annotators").set_value(["w00", "w01", "w02", "w03"])
    app.multiselect(key="agr_categories").set_value(["question", "request"]).run()
    app.radio(key="agr_cat_measure").set_value("alpha")
    app.selectbox(key="agr_pair_coef").set_value("gwet_ac1")
    app.segmented_control(key="agr_pair_order").set_value("as loaded").run()
    app.selectbox(key="agr_ct_a").set_value("w02")
    app.selectbox(key="agr_ct_b").set_value("w03").run()
    assert not app.exception
    away_and_back(app, "pages/agreement.py")
    assert app.multiselect(key="agr_annotators").value == ["w00", "w01", "w02", "w03"]
    assert app.multiselect(key="agr_categories").value == ["question", "request"]
    assert app.radio(key="agr_cat_measure").value == "alpha"
    assert app.selectbox(key="agr_pair_coef").value == "gwet_ac1"
    assert app.segmented_control(key="agr_pair_order").value == "as loaded"
    assert (app.selectbox(key="agr_ct_a").value, app.selectbox(key="agr_ct_b").value) == (
        "w02",
        "w03",
    )
    # the report below is the filtered one, not the whole data set's
    assert "4 annotators" in " ".join(c.value for c in app.caption)
    # other data, with some of the same names: the filters were these data's, not theirs
    upload(app, "same_names.csv", SAME_NAMES)
    app.switch_page("pages/agreement.py").run()
    assert not app.exception, app.exception
    assert app.multiselect(key="agr_annotators").value == []
    assert app.multiselect(key="agr_categories").value == []
    assert app.selectbox(key="agr_pair_coef").value == "gwet_ac1"  # any data: kept
    assert "3 annotators" in " ".join(c.value for c in app.caption)


def twelve_items(annotators: tuple[str, str, str], labels: tuple[str, str]) -> str:
    """A CSV of 12 items judged by three annotators: two agree, the third differs on half."""
    return "item,annotator,label\n" + "".join(
        f"i{i},{who},{labels[(i + k) % 2 if k == 2 else i % 2]}\n"
        for i in range(12)
        for k, who in enumerate(annotators)
    )


SAME_NAMES = twelve_items(("w00", "w01", "w02"), ("question", "request"))


def test_the_annotator_window_keeps_its_search_and_page(app):
    app.switch_page("pages/upload.py").run()
    app.selectbox(key="upload_sample").select("rte_snow2008").run()  # 164 annotators
    app.switch_page("pages/agreement.py").run()
    app.segmented_control(key="agr_interval_mode").set_value("Fast (analytic where one exists)")
    app.run()
    app.number_input(key="agr_pair_window_page_1").set_value(3).run()
    assert not app.exception, app.exception
    away_and_back(app, "pages/agreement.py")
    assert app.number_input(key="agr_pair_window_page_1").value == 3
    app.text_input(key="agr_pair_window_find").input("A1").run()
    away_and_back(app, "pages/agreement.py")
    assert app.text_input(key="agr_pair_window_find").value == "A1"


def test_gold_labels_model_section_and_views_are_kept(app):
    app.switch_page("pages/gold_labels.py").run()
    app.selectbox(key="gl_model").set_value("mace").run()
    app.segmented_control(key="gl_section").set_value("Annotators").run()
    app.segmented_control(key="gl_pick").set_value("chosen").run()
    app.multiselect(key="gl_chosen").set_value(["w01", "w05"])
    app.slider(key="gl_n").set_value(4).run()
    # another section drops these widgets too: they come back as set
    app.segmented_control(key="gl_section").set_value("Item browser").run()
    app.slider(key="gl_below").set_value(0.8)
    app.selectbox(key="gl_order").set_value("item order").run()
    item = app.selectbox(key="gl_item").options[1]
    app.selectbox(key="gl_item").set_value(item).run()
    assert not app.exception, app.exception
    away_and_back(app, "pages/gold_labels.py")
    assert app.selectbox(key="gl_model").value == "mace"
    assert app.segmented_control(key="gl_section").value == "Item browser"
    assert app.slider(key="gl_below").value == 0.8
    assert app.selectbox(key="gl_order").value == "item order"
    assert app.selectbox(key="gl_item").value == item
    app.segmented_control(key="gl_section").set_value("Annotators").run()
    assert app.segmented_control(key="gl_pick").value == "chosen"
    assert app.multiselect(key="gl_chosen").value == ["w01", "w05"]
    assert app.slider(key="gl_n").value == 4
    app.segmented_control(key="gl_section").set_value("Model uncertainty").run()
    app.select_slider(key="gl_nboot").set_value(20).run()
    away_and_back(app, "pages/gold_labels.py", via="pages/noise.py")
    assert app.select_slider(key="gl_nboot").value == 20


ONE_ANNOTATOR = "item,annotator,label\n" + "".join(f"i{i},solo,{'ab'[i % 2]}\n" for i in range(8))


def test_a_model_other_data_do_not_allow_gives_way_to_auto(app):
    app.switch_page("pages/gold_labels.py").run()
    app.selectbox(key="gl_model").set_value("glad").run()
    app.segmented_control(key="gl_section").set_value("Fit details").run()
    away_and_back(app, "pages/gold_labels.py")
    assert app.selectbox(key="gl_model").value == "glad"
    upload(app, "solo.csv", ONE_ANNOTATOR)  # GLAD needs two annotators
    app.switch_page("pages/gold_labels.py").run()
    assert not app.exception, app.exception
    model = app.selectbox(key="gl_model")
    assert model.value == "auto"
    assert "GLAD (ability and item difficulty)" not in model.options
    # the section holds for any data: kept
    assert app.segmented_control(key="gl_section").value == "Fit details"


SMALL = twelve_items(("x", "y", "z"), ("a", "b"))


def test_next_labels_settings_are_kept_and_the_budget_fits_smaller_data(app):
    app.switch_page("pages/next_labels.py").run()
    app.slider(key="nl_budget").set_value(1000)
    app.selectbox(key="nl_strategy").set_value("uncertainty")
    app.slider(key="nl_cap").set_value(3)
    app.slider(key="nl_stop").set_value(0.9)
    app.checkbox(key="nl_assign").check().run()
    app.number_input(key="nl_per_annotator").set_value(4)
    app.slider(key="nl_target_percent").set_value(97.5).run()
    assert not app.exception, app.exception
    away_and_back(app, "pages/next_labels.py")
    assert app.slider(key="nl_budget").value == 1000
    assert app.selectbox(key="nl_strategy").value == "uncertainty"
    assert app.slider(key="nl_cap").value == 3
    assert app.slider(key="nl_stop").value == 0.9
    assert app.checkbox(key="nl_assign").value is True
    assert app.number_input(key="nl_per_annotator").value == 4
    assert app.slider(key="nl_target_percent").value == 97.5
    upload(app, "small.csv", SMALL)  # 12 items: at most 60 judgements in a batch
    app.switch_page("pages/next_labels.py").run()
    assert not app.exception, app.exception
    budget = app.slider(key="nl_budget")
    assert (budget.max, budget.value) == (60, 60)  # brought within what the data allow
    assert app.selectbox(key="nl_strategy").value == "uncertainty"  # any data: kept
    batch = next(d.value for d in app.dataframe if "expected_gain" in d.value.columns)
    assert len(batch) <= 60


def test_the_noise_calculator_keeps_its_mode_questions_and_numbers(app):
    app.switch_page("pages/noise.py").run()
    app.segmented_control(key="noise_section").set_value(
        "How many disagreements can we afford?"
    ).run()
    app.number_input(key="noise_rev_g").set_value(8.0).run()
    app.segmented_control(key="noise_mode").set_value("By hand").run()
    app.number_input(key="noise_n").set_value(500)
    app.number_input(key="noise_d").set_value(40)
    app.number_input(key="noise_p").set_value(0.3).run()
    app.segmented_control(key="noise_section").set_value("Is system A really better than B?").run()
    app.selectbox(key="noise_cd_bound").set_value("exact").run()
    (r_key,) = [w.key for w in app.number_input if w.key.startswith("noise_cd_r_")]
    app.number_input(key=r_key).set_value(7).run()
    assert not app.exception, app.exception
    away_and_back(app, "pages/noise.py")
    assert app.segmented_control(key="noise_mode").value == "By hand"
    assert app.number_input(key="noise_n").value == 500
    assert app.number_input(key="noise_d").value == 40
    assert app.number_input(key="noise_p").value == 0.3
    assert app.segmented_control(key="noise_section").value == "Is system A really better than B?"
    assert app.selectbox(key="noise_cd_bound").value == "exact"
    assert app.number_input(key=r_key).value == 7  # typed for this start: kept for it
    app.segmented_control(key="noise_section").set_value(
        "How many disagreements can we afford?"
    ).run()
    assert app.number_input(key="noise_rev_g").value == 8.0


def test_the_spans_page_keeps_its_matching_and_views(app):
    app.switch_page("pages/spans.py").run()
    app.segmented_control(key="spans_match").set_value("overlap")
    app.select_slider(key="spans_boot").set_value(200).run()
    app.selectbox(key="spans_pair_label").set_value("LOC")
    app.selectbox(key="spans_quorum").set_value(2).run()
    (doc,) = [w for w in app.selectbox if w.key.startswith("spans_doc_")]
    second = doc.options[1]
    doc.set_value(doc.options[1]).run()
    assert not app.exception, app.exception
    away_and_back(app, "pages/spans.py")
    assert app.segmented_control(key="spans_match").value == "overlap"
    assert app.select_slider(key="spans_boot").value == 200
    assert app.selectbox(key="spans_pair_label").value == "LOC"
    assert app.selectbox(key="spans_quorum").value == 2
    (doc,) = [w for w in app.selectbox if w.key.startswith("spans_doc_")]
    assert doc.value == second.split(" · ")[0]


NO_TEXTS = (
    "item,annotator,start,end,label\n"
    "d1,a,0,5,PER\nd1,b,0,5,PER\nd2,a,3,9,ORG\nd2,b,4,9,ORG\nd3,a,1,4,PER\nd3,b,1,4,ORG\n"
)


def test_token_matching_kept_for_span_data_without_texts_falls_back_to_exact(app):
    app.switch_page("pages/spans.py").run()
    app.segmented_control(key="spans_match").set_value("token")
    app.selectbox(key="spans_pair_label").set_value("LOC").run()
    away_and_back(app, "pages/spans.py")
    assert app.segmented_control(key="spans_match").value == "token"
    app.file_uploader(key="spans_upload").set_value(
        ("plain.csv", NO_TEXTS.encode(), "text/csv")
    ).run()
    assert not app.exception, app.exception
    match = app.segmented_control(key="spans_match")
    assert match.options == ["exact", "overlap"] and match.value == "exact"
    # LOC is not among these data's labels: the label choice starts over
    assert app.selectbox(key="spans_pair_label").value == "all labels"


def test_the_multilabel_page_keeps_its_bootstrap_settings_and_tie_filter(app):
    app.switch_page("pages/upload.py").run()
    app.selectbox(key="upload_sample").select("affect_multilabel").run()
    app.switch_page("pages/multilabel.py").run()
    app.select_slider(key="ml_n_boot").set_value(200)
    app.select_slider(key="ml_confidence").set_value(0.9)
    app.toggle(key="ml_gold_ties").set_value(True).run()
    assert not app.exception, app.exception
    away_and_back(app, "pages/multilabel.py")
    assert app.select_slider(key="ml_n_boot").value == 200
    assert app.select_slider(key="ml_confidence").value == 0.9
    assert app.toggle(key="ml_gold_ties").value is True


def test_the_engine_views_keep_their_settings(tmp_path):
    pytest.importorskip("duckdb")
    path = tmp_path / "judgements.parquet"
    pd.read_csv(io.StringIO(SMALL)).to_parquet(path)
    at = AppTest.from_file(APP, default_timeout=180)
    at.session_state["concord_annotations"] = load_annotations(str(path), engine="duckdb")
    at.run()
    at.switch_page("pages/agreement.py").run()
    at.select_slider(key="eng_agr_conf").set_value(0.9)
    at.select_slider(key="eng_agr_boot").set_value(200).run()
    at.switch_page("pages/gold_labels.py").run()
    at.number_input(key="eng_ds_smoothing").set_value(0.5)
    at.number_input(key="eng_ds_iter").set_value(50).run()
    assert not at.exception, at.exception
    away_and_back(at, "pages/agreement.py")
    assert at.select_slider(key="eng_agr_conf").value == 0.9
    assert at.select_slider(key="eng_agr_boot").value == 200
    away_and_back(at, "pages/gold_labels.py")
    assert at.number_input(key="eng_ds_smoothing").value == 0.5
    assert at.number_input(key="eng_ds_iter").value == 50
