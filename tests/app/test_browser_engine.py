"""End-to-end on DuckDB (issue 18): a Parquet file typed as a path, every page on the engine.

Uses the shared server and chromium of tests/app/conftest.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.test_engine_pages import N_ITEMS, crowd
from tests.helpers.browser import CHROMIUM, goto_page, sidebar, wait_for_app

pytest.importorskip("playwright.sync_api")
pytest.importorskip("duckdb")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not Path(CHROMIUM).exists(),
        reason="Debian's chromium is not installed (apt-get install chromium)",
    ),
]


def main_text(page) -> str:
    return page.get_by_test_id("stMain").inner_text()


def test_a_parquet_path_opened_on_duckdb_then_every_page(page, tmp_path):
    path = tmp_path / "judgements.parquet"
    crowd(N_ITEMS).to_parquet(path)
    page.get_by_text("Open a large file (path)", exact=True).click()
    wait_for_app(page)
    box = page.get_by_placeholder("/data/judgements.parquet or /data/judgements/")
    box.fill(str(tmp_path / "nowhere.parquet"))
    box.press("Enter")
    wait_for_app(page)
    assert "no file or folder at this path" in main_text(page)  # in plain words
    box.fill(str(path))
    box.press("Enter")
    wait_for_app(page)
    assert "by default read in memory" in main_text(page)
    page.get_by_test_id("stRadio").get_by_text("DuckDB", exact=True).click()
    wait_for_app(page)
    page.get_by_role("button", name="Open (DuckDB)").click()
    wait_for_app(page)
    page.get_by_text("Loaded: judgements.parquet (on DuckDB)").wait_for()
    assert f"{N_ITEMS:,}" in page.get_by_test_id("stMetricValue").all_inner_texts()
    sidebar(page, "Engine: DuckDB")  # fails unless the sidebar shows it
    expected = {
        "Overview": "showing 10,000 of 10,050 items, sampled",
        "Agreement report": "Krippendorff's alpha",
        "Noise calculator": "showing 10,000 of 10,050 items, sampled",
        "Gold labels": "other annotator models",
        "Next labels": "not defined at this scale",
        "Multi-label": "one label per judgement",
        "Export": "built in memory only",
    }
    for title, said in expected.items():
        goto_page(page, title)
        assert page.locator("[data-testid='stException']").count() == 0, title
        text = main_text(page)
        assert "held by DuckDB" in text, title
        assert said in text, title
    # the sidebar still names the engine and the file after every page switch
    side = page.get_by_test_id("stSidebar").inner_text()
    assert "judgements.parquet" in side and "Engine: DuckDB" in side
