"""The Overview on multi-label data sends the user to a page that takes multi-label data.

The Next labels page refuses multi-label data, so neither the recommendation nor any answer
may send a multi-label user there; the Gold labels page (one yes/no model per category) does.
"""

from __future__ import annotations

import pytest

from analytics.data import load_sample
from analytics.overview import overview


@pytest.fixture(scope="module")
def affect():
    return overview(load_sample("affect_multilabel"))


def test_the_relabel_advice_points_at_gold_labels_not_next_labels(affect):
    rec = affect.recommendation
    assert rec.text.startswith(f"Relabel these {len(rec.items):,} items")
    assert "Next labels" not in rec.text
    assert "Gold labels page" in rec.text and "category" in rec.text
    assert (rec.page, rec.page_title) == ("pages/gold_labels.py", "Gold labels")


def test_no_answer_names_next_labels_on_multilabel_data(affect):
    for answer in affect.answers:
        assert "Next labels" not in answer.sentence, answer.key
        assert answer.page != "pages/next_labels.py", answer.key
