"""The Export page's list of other pages names the pages the app actually has."""

from __future__ import annotations

import ast
import re

from streamlit.testing.v1 import AppTest

from tests.helpers.paths import ROOT


def navigation_titles() -> list[str]:
    """The titles of the pages app.py registers with st.navigation, in order."""
    tree = ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))
    return [
        kw.value.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "Page"
        for kw in node.keywords
        if kw.arg == "title"
    ]


def test_where_the_other_results_are_names_every_page_by_its_title():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("pages/export.py").run()
    assert not at.exception, at.exception
    (listing,) = [m.value for m in at.markdown if "- **Agreement report**:" in m.value]
    named = re.findall(r"^- \*\*(.+?)\*\*:", listing, flags=re.MULTILINE)
    titles = navigation_titles()
    assert "Gold labels" in titles and "Dawid-Skene" not in titles
    assert not set(named) - set(titles), set(named) - set(titles)  # no page that is gone
    # every page with downloads of its own, in the sidebar's order
    assert named == [t for t in titles if t not in ("Data", "Export")]
