"""The report checks its arguments up front (issue 12): a bad ``n_boot``, ``confidence``
or section raises :class:`AnnotationDataError` naming it, never a section that says
"Not computed for this data"."""

from __future__ import annotations

import pandas as pd
import pytest

from analytics import AnnotationDataError
from analytics.report import SECTIONS, build_report, build_report_zip, report_blocks

DF = pd.DataFrame(
    {
        "item": [1, 1, 2, 2, 3, 3, 4, 4],
        "annotator": ["a", "b"] * 4,
        "label": ["x", "x", "y", "y", "x", "y", "y", "y"],
    }
)
FUNCTIONS = [report_blocks, build_report, build_report_zip]


@pytest.mark.parametrize("function", FUNCTIONS)
@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"n_boot": -1}, "n_boot"),
        ({"n_boot": 2.5}, "n_boot"),
        ({"n_boot": "100"}, "n_boot"),
        ({"n_boot": None}, "n_boot"),
        ({"confidence": 1.5}, "confidence"),
        ({"confidence": 0}, "confidence"),
        ({"confidence": 95}, "confidence"),
        ({"confidence": float("nan")}, "confidence"),
        ({"confidence": "95%"}, "confidence"),
    ],
)
def test_bad_arguments_raise_up_front(function, kwargs, name):
    seen: list[str] = []
    with pytest.raises(AnnotationDataError, match=name):
        function(DF, ["summary", "noise"], progress=seen.append, **kwargs)
    assert seen == []  # refused before any section started


@pytest.mark.parametrize("function", FUNCTIONS)
@pytest.mark.parametrize("sections", [["nope"], ["summary", "Agreement"], [3]])
def test_unknown_sections_name_the_section_and_the_allowed_ones(function, sections):
    with pytest.raises(AnnotationDataError, match="unknown report sections") as info:
        function(DF, sections)
    text = str(info.value)
    assert repr(sections[-1]) in text
    assert all(s in text for s in SECTIONS)


def test_good_arguments_still_pass():
    blocks = report_blocks(DF, ["summary", "noise"], n_boot=0.0, confidence=0.9)
    assert {b.section for b in blocks} == {"summary", "noise"}
    assert not any(b.text.startswith("Not computed") and "confidence" in b.text for b in blocks)


def test_model_labels_are_not_called_gold_labels():
    blocks = report_blocks(DF, ["dawid_skene"], n_boot=0)
    titles = [b.title for b in blocks]
    assert "The model's most likely labels, with confidence" in titles
    assert not any("gold label" in t.lower() for t in titles)
