"""End-to-end: the real app in a real browser (Playwright driving Debian's chromium).

Uploads a file through the page's uploader, visits every page through the sidebar,
checks that figures render and key numbers appear, downloads the HTML report, and
uploads a malformed file to see a readable error and no traceback. Saves a screenshot
of each page to test-artifacts/screenshots/ (ignored by git); scripts/update_screenshots.sh
saves them to docs/screenshots/ instead (the README's pictures).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.helpers.browser import (
    CHROMIUM,
    ROOT,
    SCREENSHOTS,
    goto_page,
    upload,
    wait_for_app,
)

pytest.importorskip("playwright.sync_api")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not Path(CHROMIUM).exists(),
        reason="Debian's chromium is not installed (apt-get install chromium)",
    ),
]

PAGES = {
    "Data": "data",
    "Overview": "overview",
    "Agreement report": "agreement",
    "Multi-label": "multilabel",
    "Spans": "spans",
    "Noise calculator": "noise",
    "Gold labels": "gold_labels",
    "Next labels": "next_labels",
    "Export": "export",
}


def assert_no_traceback(page) -> None:
    assert page.locator("[data-testid='stException']").count() == 0


def assert_figures_render(page, minimum: int = 1) -> None:
    """Figures are present and drawn (marks in their SVG), even those in hidden tabs."""
    page.wait_for_selector(
        "[data-testid='stPlotlyChart'] .js-plotly-plot .main-svg", timeout=30_000, state="attached"
    )
    charts = page.locator("[data-testid='stPlotlyChart'] .js-plotly-plot")
    assert charts.count() >= minimum
    drawn = page.locator(
        "[data-testid='stPlotlyChart'] .js-plotly-plot :is(.bars path, .hm, .heatmaplayer image, .scatterlayer path, .trace)"
    )
    assert drawn.count() > 0


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=False)


def test_first_visit_shows_a_loaded_sample(page):
    assert page.get_by_text("Loaded: crowd_intents.csv").is_visible()
    assert_figures_render(page)
    assert_no_traceback(page)
    shot(page, "data")


def test_upload_then_every_page(page, tmp_path):
    upload(page, ROOT / "sample_data" / "affect_multilabel.csv")
    page.get_by_text("Loaded: affect_multilabel.csv").wait_for()
    metric_values = page.get_by_test_id("stMetricValue").all_inner_texts()
    assert "300" in metric_values and "1,003" in metric_values
    for title, name in PAGES.items():
        if title == "Data":
            continue
        goto_page(page, title)
        assert_no_traceback(page)
        if name == "gold_labels":  # one yes/no model per category on multi-label data
            assert "multi-label" in page.get_by_test_id("stMain").inner_text()
            assert_figures_render(page)
        elif name == "next_labels":  # single-label only: the page says so
            assert "multi-label" in page.get_by_test_id("stMain").inner_text()
        elif name not in ("export", "overview"):
            assert_figures_render(page)
    # the sidebar still shows the uploaded data set after every page switch
    assert "affect_multilabel.csv" in page.get_by_test_id("stSidebar").inner_text()


def test_clicking_the_selected_upload_segment_keeps_the_upload(page):
    """A click on the selected "Upload a file" segment once switched to the sample."""
    upload(page, ROOT / "sample_data" / "affect_multilabel.csv")
    page.get_by_text("Loaded: affect_multilabel.csv").wait_for()
    segment = page.get_by_test_id("stMain").get_by_text("Upload a file", exact=True).first
    for visit in range(2):  # on the page the upload was made, then after another page
        if visit:
            goto_page(page, "Overview")
            goto_page(page, "Data")
        for _ in range(2):
            segment.click()
            wait_for_app(page)
        assert_no_traceback(page)
        assert "affect_multilabel.csv" in page.get_by_test_id("stSidebar").inner_text()
        assert "crowd_intents" not in page.get_by_test_id("stSidebar").inner_text()
        assert page.get_by_text("Loaded: affect_multilabel.csv").is_visible()
        assert page.get_by_test_id("stFileUploaderDropzoneInput").count() == 1
        assert page.get_by_test_id("stSelectbox").filter(has_text="Sample data set").count() == 0


def test_every_page_on_the_sample_with_screenshots(page):
    # multi-label last but one: visiting it loads the multi-label sample
    order = [
        "Data",
        "Overview",
        "Agreement report",
        "Noise calculator",
        "Gold labels",
        "Next labels",
        "Spans",
        "Multi-label",
        "Export",
    ]
    for title, name in ((t, PAGES[t]) for t in order):
        goto_page(page, title)
        assert_no_traceback(page)
        if name == "multilabel":
            # single-label sample: the page explains itself and offers the multi-label sample
            assert "single-label" in page.get_by_test_id("stMain").inner_text()
            page.get_by_role("button", name=re.compile("Load the sample")).click()
            wait_for_app(page)
            assert_no_traceback(page)
        if name not in ("export", "overview"):
            assert_figures_render(page)
        shot(page, name)


def test_key_numbers_appear(page):
    goto_page(page, "Agreement report")
    text = page.get_by_test_id("stMain").inner_text()
    assert "Krippendorff" in text and "Fleiss" in text
    goto_page(page, "Gold labels")
    text = page.get_by_test_id("stMain").inner_text()
    assert "auto stacked" in text and "Held-out log-likelihood" in text
    page.get_by_test_id("stMain").get_by_text("Prevalence and confidence", exact=True).click()
    wait_for_app(page)
    assert_no_traceback(page)
    assert "raw frequency" in page.get_by_test_id("stMain").inner_text()


def test_download_the_html_report(page, tmp_path):
    goto_page(page, "Export")
    with page.expect_download() as info:
        page.get_by_test_id("stDownloadButton").filter(has_text="report").first.click()
    target = tmp_path / "report.html"
    info.value.save_as(target)
    html = target.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") or html.lstrip().lower().startswith("<!doctype html>")
    assert "Krippendorff" in html and "Dawid" in html
    assert "<script src=" not in html  # self-contained: opens offline


def test_malformed_upload_shows_a_readable_error(page, tmp_path):
    bad = tmp_path / "broken.csv"
    bad.write_text("item,annotator,label\n1,a,x\n2,b\n")
    upload(page, bad)
    alert = page.get_by_test_id("stAlertContentError")
    alert.first.wait_for()
    assert "broken.csv" in alert.first.inner_text() and "row 3" in alert.first.inner_text()
    assert_no_traceback(page)


if os.environ.get("CONCORD_BROWSER_DEBUG"):  # pragma: no cover
    print("browser tests use", CHROMIUM)


def test_export_page_downloads_the_gold_labels(page, tmp_path):
    goto_page(page, "Export")
    with page.expect_download() as info:
        page.get_by_test_id("stDownloadButton").filter(has_text="Dawid-Skene").first.click()
    target = tmp_path / "gold.csv"
    info.value.save_as(target)
    lines = target.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("item,label,confidence") and len(lines) == 301


def test_metric_cards_are_never_cut_with_an_ellipsis_in_a_narrow_window(page):
    """At 800 px a review read "0.4…", "Krippendor…" and "Expected ac…" on the cards."""
    page.set_viewport_size({"width": 800, "height": 1000})
    cut = """() => Array.from(document.querySelectorAll('[data-testid=stMetric] *'))
        .filter(e => getComputedStyle(e).textOverflow === 'ellipsis'
                     && e.scrollWidth > e.clientWidth + 1)
        .map(e => e.textContent)"""
    for title in ("Overview", "Agreement report", "Gold labels", "Next labels"):
        goto_page(page, title)
        assert_no_traceback(page)
        assert page.locator("[data-testid=stMetric]").count(), title
        assert page.evaluate(cut) == [], title
