"""Exports carry the settings chosen on the pages, and say them (issue 17, point 5)."""

from __future__ import annotations

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from analytics import format_p_value
from analytics.data import load_sample
from analytics.report import ReportSettings, build_report, report_blocks
from tests.helpers.markup import shown


def chosen(at: AppTest) -> ReportSettings:
    """The settings the app would give the report (ui.settings.report_settings, read back)."""
    ann = at.session_state["concord_annotations"]
    stored = at.session_state["concord_page_settings"][ann.fingerprint]
    return ReportSettings(**stored)


def test_the_agreement_page_table_is_the_reports_table(app):
    app.switch_page("pages/agreement.py").run()
    app.segmented_control(key="agr_interval_mode").set_value("Fast (analytic where one exists)")
    app.select_slider(key="agr_conf").set_value(0.9).run()
    assert not app.exception
    on_screen = next(d.value for d in app.dataframe if "coefficient" in d.value.columns)
    settings = chosen(app)
    assert settings.agreement_n_boot == 0 and settings.agreement_confidence == 0.9
    ann = app.session_state["concord_annotations"]
    blocks = report_blocks(ann, ["agreement"], settings=settings)
    exported = next(b.table for b in blocks if b.title == "Agreement coefficients")
    exported, on_screen = exported.reset_index(drop=True), on_screen.reset_index(drop=True)
    # a numeric column with a missing cell is drawn as text ("–" where the grid wrote
    # "None") with three decimals, and p-values as the report and the CLI write them
    for c in on_screen.columns:
        if pd.api.types.is_numeric_dtype(exported[c]) and not pd.api.types.is_numeric_dtype(
            on_screen[c]
        ):
            write = format_p_value if c == "p_value" else "{:.3f}".format
            exported[c] = [("–" if pd.isna(v) else write(v)) for v in exported[c]]
    pd.testing.assert_frame_equal(exported, on_screen, check_dtype=False)


def test_the_export_page_states_the_settings(app):
    app.switch_page("pages/noise.py").run()
    app.select_slider(key="noise_confidence").set_value(0.99).run()
    app.switch_page("pages/agreement.py").run()
    app.segmented_control(key="agr_interval_mode").set_value("Fast (analytic where one exists)")
    app.run()
    app.switch_page("pages/export.py").run()
    assert not app.exception
    text = " ".join(shown(m.value) for m in app.markdown)
    assert "analytic intervals where one exists (no bootstrap)" in text
    assert "Noise bound: 99% confidence" in text


# A page shows again the settings it chose when the user comes back to it. Streamlit
# forgets a widget's value once its page is left; the report and the Export kept the
# choice, so the page had shown its defaults beside a report computed otherwise, and its
# next run had put the defaults back into the report.


def away_and_back(at: AppTest, page: str) -> None:
    at.switch_page("pages/export.py").run()
    assert not at.exception
    at.switch_page(page).run()
    assert not at.exception


def test_the_noise_calculator_keeps_its_confidence_and_annotators(app):
    app.switch_page("pages/noise.py").run()
    app.select_slider(key="noise_confidence").set_value(0.99)
    app.multiselect(key="noise_annotators").set_value(["w00", "w01", "w02"]).run()
    away_and_back(app, "pages/noise.py")
    assert app.select_slider(key="noise_confidence").value == 0.99
    assert app.multiselect(key="noise_annotators").value == ["w00", "w01", "w02"]
    assert chosen(app).noise_confidence == 0.99
    assert chosen(app).noise_annotators == ("w00", "w01", "w02")


def test_the_agreement_page_keeps_its_intervals_and_confidence(app):
    app.switch_page("pages/agreement.py").run()
    app.segmented_control(key="agr_interval_mode").set_value("Fast (analytic where one exists)")
    app.select_slider(key="agr_conf").set_value(0.9).run()
    away_and_back(app, "pages/agreement.py")
    assert app.segmented_control(key="agr_interval_mode").value == (
        "Fast (analytic where one exists)"
    )
    assert app.select_slider(key="agr_conf").value == 0.9
    assert chosen(app).agreement_n_boot == 0
    assert chosen(app).agreement_confidence == 0.9


def test_the_gold_labels_page_keeps_its_dawid_skene_settings(app):
    app.switch_page("pages/gold_labels.py").run()
    app.number_input(key="gl_smoothing").set_value(0.5)
    app.number_input(key="gl_max_iter").set_value(200)
    app.select_slider(key="gl_tol").set_value("1e-5").run()
    away_and_back(app, "pages/gold_labels.py")
    assert app.number_input(key="gl_smoothing").value == 0.5
    assert app.number_input(key="gl_max_iter").value == 200
    assert app.select_slider(key="gl_tol").value == "1e-5"
    assert chosen(app).ds_smoothing == 0.5 and chosen(app).ds_tol == 1e-5


def test_another_data_set_starts_from_the_defaults(app):
    app.switch_page("pages/noise.py").run()
    app.select_slider(key="noise_confidence").set_value(0.99).run()
    app.switch_page("pages/upload.py").run()
    app.selectbox(key="upload_sample").select("rte_snow2008").run()
    assert not app.exception
    app.switch_page("pages/noise.py").run()
    assert not app.exception
    assert app.select_slider(key="noise_confidence").value == 0.95


def test_the_report_lists_its_settings_and_uses_them():
    ann = load_sample("crowd_intents")
    settings = ReportSettings(agreement_n_boot=0, agreement_confidence=0.8, noise_confidence=0.99)
    html = build_report(ann, sections=["summary", "noise"], settings=settings)
    assert "Settings of this report" in html
    assert "Noise bound: 99% confidence" in html
    default = build_report(ann, sections=["noise"])
    # a different confidence gives a different bound: the setting was used, not only printed
    assert (
        html.split("Noise of the agreed subset</h2>")[1][:400]
        != default.split("Noise of the agreed subset</h2>")[1][:400]
    )


def test_settings_are_checked():
    from analytics import AnnotationDataError

    with pytest.raises(AnnotationDataError):
        ReportSettings(agreement_n_boot=-1)
    with pytest.raises(AnnotationDataError):
        ReportSettings(noise_confidence=1.5)
    with pytest.raises(AnnotationDataError, match="ReportSettings"):
        report_blocks(load_sample("crowd_intents"), ["summary"], settings={"n_boot": 3})
