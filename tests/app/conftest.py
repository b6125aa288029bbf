"""Shared fixtures of the app tests: the app under AppTest (``app``), and for the browser
tests one app server and one chromium per test module.

A test module that defines its own ``page`` (or ``server``) fixture overrides these.
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers.browser import CHROMIUM, CHROMIUM_ARGS, StreamlitServer, wait_for_app
from tests.helpers.paths import ROOT


@pytest.fixture(scope="module")
def server():
    with StreamlitServer() as srv:
        yield srv


@pytest.fixture(scope="module")
def browser():
    playwright_sync = pytest.importorskip("playwright.sync_api")
    with playwright_sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    """A fresh tab (its own context: no upload or download leaks between tests)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    pg.goto(server.url)
    wait_for_app(pg)
    yield pg
    context.close()


@pytest.fixture
def app() -> AppTest:
    """The whole app (its frame and the first page), run once, as a visitor opens it."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    assert not at.exception
    return at
