"""A page opened by its address as the first visit to a fresh server runs in the app's frame.

Streamlit serves a ``pages/`` folder as its older multipage form until some session has
run ``st.navigation``: a bookmark of ``/noise`` opened right after ``run_app.sh`` showed
the noise page alone, with Streamlit's list of file names ("app", "agreement", ...) in the
sidebar and "No data set is loaded yet" (ui/frame.py).
"""

from __future__ import annotations

import pytest

from tests.helpers.browser import StreamlitServer, wait_for_app


@pytest.fixture(scope="module")
def server():  # this module's own server: the first visit is the one under test
    with StreamlitServer() as srv:
        yield srv


def test_a_page_opened_first_by_its_address_has_the_frame_and_the_sample(browser, server):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(server.url + "/noise")
        wait_for_app(page)
        page.get_by_role("heading", name="Noise calculator", exact=False).first.wait_for()
        nav = page.locator("[data-testid='stSidebarNav']").inner_text()
        assert "Noise calculator" in nav and "Agreement report" in nav
        assert "\napp\n" not in f"\n{nav}\n"  # not Streamlit's list of file names
        assert page.url.rstrip("/").endswith("/noise")
        main = page.locator("[data-testid='stMain']").inner_text()
        assert "No data set is loaded yet" not in main
        assert "crowd_intents.csv" in main  # the sample the frame loads on a first visit
    finally:
        context.close()
