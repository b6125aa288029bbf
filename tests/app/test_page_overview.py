"""The Overview page: five answers and one recommendation, displayed from analytics."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from analytics import Annotations
from analytics.data import load_sample
from analytics.overview import overview
from tests.helpers.markup import shown
from tests.helpers.paths import ROOT, load_public

APP = str(ROOT / "app.py")


def run_overview(ann: Annotations) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    at.session_state["concord_annotations"] = ann
    at.switch_page("pages/overview.py").run()
    assert not at.exception
    return at


def test_the_sample_shows_five_answers_and_the_recommendation():
    ann = load_sample("crowd_intents")
    at = run_overview(ann)
    expected = overview(ann)
    texts = " ".join(shown(x.value) for x in [*at.error, *at.warning, *at.success, *at.info])
    assert expected.recommendation.text in texts
    assert "w19" in expected.recommendation.text
    for answer in expected.answers:
        assert answer.sentence in texts
    assert [m.value for m in at.metric] == [a.number for a in expected.answers]
    # every answer states its rule
    assert sum("Severity rule:" in shown(c.value) for c in at.caption) == 5


@pytest.mark.parametrize("name", ["snow_rte", "welinder_bluebirds"])
def test_shared_data_sets(name):
    labels, _ = load_public(name)
    ann = Annotations.from_frame(labels, name=name)
    at = run_overview(ann)
    assert len(at.metric) == 5
    assert at.error or at.warning or at.success
