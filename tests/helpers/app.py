"""Run one page of the app with Streamlit's AppTest."""

from __future__ import annotations

from tests.helpers.paths import ROOT


def run_page(page: str, ann=None, *, timeout: float = 60):
    """Run ``pages/<page>.py`` with AppTest, with ``ann`` as the loaded data set (or none)."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "pages" / f"{page}.py"), default_timeout=timeout)
    if ann is not None:
        at.session_state["concord_annotations"] = ann
    at.run()
    return at
