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


def test_the_annotation_downloads_say_how_to_load_them_back_as_they_are():
    """An ordinal 1-7 scale came back nominal with five categories from the page's own
    downloads, which had said they 'load back into Concord unchanged'."""
    from analytics import load_annotations
    from tests.helpers.app import run_page

    ann = load_annotations(
        ROOT / "sample_data" / "ratings_ordinal_wide.csv",
        kind="ordinal",
        categories=[1, 2, 3, 4, 5, 6, 7],
    )
    for page in ("export", "upload"):
        at = run_page(page, ann)
        assert not at.exception, at.exception
        from tests.helpers.markup import shown

        said = next(
            shown(c.value) for c in at.caption if "to get these annotations back" in shown(c.value)
        )
        assert "label kind ordinal; category order 1, 2, 3, 4, 5, 6, 7" in said
        assert "kind='ordinal', categories=[1, 2, 3, 4, 5, 6, 7]" in said
    plain = run_page("export", load_annotations(ROOT / "sample_data" / "crowd_intents.csv"))
    assert not [c for c in plain.caption if "to get these annotations back" in c.value]


def test_no_model_labels_are_offered_for_numbers_on_a_scale():
    """The Gold labels page refuses the models on scores of many values; the Export page
    still offered the Dawid-Skene labels of 80 values read as categories."""
    from analytics import Annotations
    from tests.helpers.app import run_page
    from tests.helpers.builders import scores_on_a_scale
    from tests.helpers.markup import shown

    at = run_page("export", Annotations.from_frame(scores_on_a_scale()))
    assert not at.exception, at.exception
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Agreement coefficients CSV" in labels
    assert not [label for label in labels if "Dawid-Skene" in label], labels
    assert any("numbers on a scale" in shown(c.value) for c in at.caption)
