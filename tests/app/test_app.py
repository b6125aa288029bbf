"""The whole app through its entry point: every page starts without exceptions."""

from __future__ import annotations

import pytest

from tests.helpers.markup import failures, shown

PAGES = [
    "pages/upload.py",
    "pages/agreement.py",
    "pages/multilabel.py",
    "pages/spans.py",
    "pages/noise.py",
    "pages/gold_labels.py",
    "pages/next_labels.py",
    "pages/export.py",
]


def test_opens_with_the_sample_loaded(app):
    assert app.session_state["concord_annotations"].n_items == 300
    assert any("crowd_intents.csv" in shown(m.value) for m in app.sidebar.markdown)


def test_the_opening_sample_is_compared_with_its_known_truth(app):
    """The sample's description promises known true labels: the Gold labels page uses them."""
    assert app.session_state["concord_sample"] == "crowd_intents"
    app.switch_page("pages/gold_labels.py").run()
    assert not app.exception
    assert app.checkbox(key="gl_sample_truth").value
    assert any(m.label == "Right on gold" for m in app.metric)
    app.segmented_control(key="gl_section").set_value("Against gold").run()
    assert any("known true labels" in h.value for h in app.subheader)


@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs_on_the_default_sample(app, page):
    app.switch_page(page).run()
    assert not app.exception, page
    assert not failures(app), failures(app)


@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs_on_multilabel_data(app, page):
    from analytics.data import load_sample

    app.session_state["concord_annotations"] = load_sample("affect_multilabel")
    app.switch_page(page).run()
    assert not app.exception, page


def test_data_set_survives_page_switches(app):
    from analytics.data import load_sample

    ratings = load_sample("ratings_ordinal")
    app.session_state["concord_annotations"] = ratings
    app.session_state["concord_source"] = "set by a script"
    for page in PAGES:
        app.switch_page(page).run()
    assert app.session_state["concord_annotations"] is ratings


def _alerts(at) -> str:
    """Every verdict and message the page shows, as plain text."""
    return " ".join(
        shown(e.value)
        for kind in ("success", "warning", "error", "info", "markdown")
        for e in getattr(at, kind)
    )


def test_uploaded_gold_is_kept_for_the_session_and_used_by_every_page(app):
    """Gold uploaded on Gold labels stays when the page is left, and the Overview, the Next
    labels replay and the report are judged against it (it had been dropped on leaving)."""
    from analytics.data import sample_truth

    truth = sample_truth("crowd_intents")
    part = truth.iloc[:120].rename_axis("item").reset_index(name="label")
    app.switch_page("pages/gold_labels.py").run()
    app.file_uploader(key="gl_gold").set_value(
        ("expert.csv", part.to_csv(index=False).encode(), "text/csv")
    ).run()
    assert not app.exception and not app.error
    assert any(m.label == "Right on gold" for m in app.metric)
    said = _alerts(app)
    assert "Against the 120 items with known gold labels" in said
    app.switch_page("pages/overview.py").run()
    assert not app.exception
    overview = _alerts(app)
    assert "120 items with known gold labels" in overview
    app.switch_page("pages/gold_labels.py").run()
    assert any("expert.csv, uploaded earlier" in shown(c.value) for c in app.caption)
    assert any(m.label == "Right on gold" for m in app.metric)
    # forgetting it goes back to the sample's own true labels (all 300 items)
    app.button(key="gl_forget_gold").click().run()
    said = _alerts(app)
    assert "Against the 300 items with known gold labels" in said
    # unticking those is remembered by the Overview too
    app.checkbox(key="gl_sample_truth").uncheck().run()
    app.switch_page("pages/overview.py").run()
    overview = _alerts(app)
    assert "known gold labels" not in overview and "own posteriors" in overview
