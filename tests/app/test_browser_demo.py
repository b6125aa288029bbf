"""Issue 17 in a real browser (Playwright driving Debian's chromium), one test per point.

Each test opens its own tab on one shared server, so a test never sees another's upload
(except through the server's memory of kept uploads, which is the point of the reload test).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.browser import CHROMIUM, ROOT, goto_page, sidebar, upload, wait_for_app

pytest.importorskip("playwright.sync_api")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not Path(CHROMIUM).exists(),
        reason="Debian's chromium is not installed (apt-get install chromium)",
    ),
]

SNOW_RTE = ROOT / "datasets" / "snow_rte" / "labels.csv"


def test_the_sidebar_and_its_report_follow_an_upload_at_once(page, tmp_path):
    """Point 1: no page change needed; the sidebar's report is the uploaded data set's."""
    upload(page, SNOW_RTE)
    page.get_by_text("Loaded: labels.csv").wait_for()
    text = sidebar(page, "800 items")
    assert "labels.csv" in text and "800 items" in text and "crowd_intents" not in text
    with page.expect_download() as info:
        page.get_by_test_id("stSidebar").get_by_test_id("stDownloadButton").first.click()
    target = tmp_path / "report.html"
    info.value.save_as(target)
    html = target.read_text(encoding="utf-8")
    assert "labels.csv" in html and "crowd_intents" not in html
    assert info.value.suggested_filename == "concord_report_labels.html"


def test_reloading_the_tab_keeps_the_upload(page):
    """Point 1: a reload shows the uploaded data set again, not the sample."""
    upload(page, SNOW_RTE)
    page.get_by_text("Loaded: labels.csv").wait_for()
    assert "data=" in page.url
    page.reload()
    wait_for_app(page)
    page.get_by_text("Loaded: labels.csv").wait_for()
    sidebar(page, "800 items")  # fails unless the sidebar shows it


def test_a_bad_noise_result_is_red_not_green(page):
    """Point 2: snow_temp's agreed subset is far noisier than 15%: red, 'Bad', rule stated."""
    upload(page, ROOT / "datasets" / "snow_temp" / "labels.csv")
    goto_page(page, "Noise calculator")
    main = page.get_by_test_id("stMain")
    errors = main.get_by_test_id("stAlertContentError")
    errors.first.wait_for()
    assert "Bad. With 95% confidence" in errors.first.inner_text()
    assert "noise" in errors.first.inner_text()
    successes = main.get_by_test_id("stAlertContentSuccess").all_inner_texts()
    assert not any("noise" in s for s in successes)
    assert "Severity rule:" in main.inner_text()


def test_the_sidebar_report_uses_the_agreement_pages_settings(page, tmp_path):
    """Point 5: exported numbers equal on-screen numbers, computed the stated way."""
    goto_page(page, "Agreement report")
    page.get_by_text("Fast (analytic where one exists)", exact=True).click()
    wait_for_app(page)
    alpha_on_screen = page.get_by_test_id("stMetricValue").first.inner_text()
    with page.expect_download() as info:
        page.get_by_test_id("stSidebar").get_by_test_id("stDownloadButton").first.click()
    target = tmp_path / "report.html"
    info.value.save_as(target)
    html = target.read_text(encoding="utf-8")
    assert "analytic intervals where one exists (no bootstrap)" in html
    assert f"Krippendorff&#x27;s alpha (nominal) = {alpha_on_screen}." in html


def test_a_wide_file_with_a_notes_column_asks_about_it(page, tmp_path):
    """Point 3: the notes column is named, and one click sets it aside."""
    path = tmp_path / "wide_notes.csv"
    path.write_text(
        "item,ann1,ann2,ann3,Notes\n"
        "q1,yes,yes,no,looks fine to me\nq2,no,no,no,ask Sam again\n"
        "q3,yes,no,yes,second pass needed\nq4,no,yes,no,check later please\n"
    )
    upload(page, path)
    main = page.get_by_test_id("stMain")
    assert "looks like free text" in main.inner_text()
    sidebar(page, "4 annotators")  # fails unless the sidebar shows it
    main.get_by_role("button", name="Ignore column 'Notes' and load again").click()
    wait_for_app(page)
    sidebar(page, "3 annotators")  # fails unless the sidebar shows it
    assert "looks like free text" not in main.inner_text()


@pytest.mark.parametrize("source", [None, ROOT / "datasets" / "welinder_bluebirds" / "labels.csv"])
def test_the_overview_answers_five_questions(page, source):
    """The answer page, on the sample and on a shared data set."""
    if source is not None:
        upload(page, source)
    goto_page(page, "Overview")
    main = page.get_by_test_id("stMain")
    main.get_by_text("What to do next").wait_for()
    text = main.inner_text()
    for question in (
        "How much do the annotators agree?",
        "How noisy is the agreed subset?",
        "Which annotators are biased, and how?",
        "How sure are the gold labels?",
        "Would more labels help?",
    ):
        assert question in text
    assert text.count("Severity rule:") == 5
    assert text.count("Explained on:") == 5
    if source is None:
        assert "Annotator w19 labels at chance" in text
    assert page.locator("[data-testid='stException']").count() == 0


def test_a_500_annotator_data_set_renders_every_page_readably(page, tmp_path):
    """Point 4: a crowd of 500 annotators; every page opens, heatmaps page 40 at a time.

    Timing targets are measured by benchmarks/bench_pages.py at 1,000,000 judgements; on
    this shared test machine each page only has to finish within a generous bound.
    """
    import time

    import numpy as np

    rng = np.random.default_rng(0)
    n_items, per_item, n_ann = 2_000, 5, 500
    truth = rng.integers(0, 4, n_items)
    rows = ["item,annotator,label"]
    for i in range(n_items):
        for a in rng.choice(n_ann, per_item, replace=False):
            lab = truth[i] if rng.random() < 0.8 else rng.integers(0, 4)
            rows.append(f"i{i},w{a:03d},c{lab}")
    path = tmp_path / "crowd500.csv"
    path.write_text("\n".join(rows) + "\n")
    upload(page, path)
    sidebar(page, "500 annotators")  # fails unless the sidebar shows it
    # Gold labels fits six models and cross-validates them: its hierarchical model alone took
    # 66 s here (453 variational iterations; a library cost reported for issue 15), so that
    # page gets 300 s until the model is faster
    limits = {"Gold labels": 300}
    for title in ("Overview", "Agreement report", "Noise calculator", "Gold labels", "Export"):
        start = time.perf_counter()
        goto_page(page, title, timeout=limits.get(title, 60) * 1000)
        assert time.perf_counter() - start < limits.get(title, 60), title
        assert page.locator("[data-testid='stException']").count() == 0, title
        if title == "Agreement report":
            page.get_by_role("tab", name="Annotator pairs").click()
            assert "Showing annotators 1-40 of 500" in page.get_by_test_id("stMain").inner_text()
        if title == "Noise calculator":  # no wall of 500 chips: the picker starts empty
            assert (
                page.get_by_test_id("stMultiSelect")
                .first.locator("span[data-baseweb='tag']")
                .count()
                == 0
            )


def _truncated(locator) -> list[str]:
    """Texts whose box is narrower than the text (cut off with an ellipsis or hidden)."""
    return locator.evaluate_all(
        "els => els.filter(e => [e, ...e.querySelectorAll('*')].some("
        "n => n.clientWidth > 0 && n.scrollWidth > n.clientWidth + 1)).map(e => e.innerText)"
    )


def test_labels_are_not_cut_at_1024_px(browser, server):
    """Point 9: Gold labels metric labels and the Export buttons fit a 1,024 px window."""
    context = browser.new_context(viewport={"width": 1024, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    pg.goto(server.url)
    wait_for_app(pg)
    try:
        goto_page(pg, "Gold labels")
        labels = pg.get_by_test_id("stMetricLabel")
        assert labels.count() >= 4
        assert _truncated(labels) == []
        goto_page(pg, "Export")
        buttons = pg.get_by_test_id("stDownloadButton").locator("button")
        assert buttons.count() >= 4
        assert _truncated(buttons) == []
    finally:
        context.close()


def test_the_favicon_is_served_by_the_app_itself(page, server):
    """Point 9: nothing is fetched from the internet for the tab icon (works offline)."""
    hrefs = page.locator("link[rel~='icon']").evaluate_all("els => els.map(e => e.href)")
    assert hrefs, "no favicon link"
    assert all(h.startswith(server.url) for h in hrefs), hrefs
