"""Severity rules (issue 17, point 2): thresholds, direction, undefined values."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analytics import AnnotationDataError
from analytics.overview import RULES, Severity, judge


@pytest.mark.parametrize(
    ("kind", "value", "expected"),
    [
        ("agreement", 0.8, "good"),  # Krippendorff: 0.800 is reliable
        ("agreement", 0.7999, "caution"),
        ("agreement", 0.667, "caution"),
        ("agreement", 0.6669, "bad"),
        ("agreement", -0.2, "bad"),
        ("noise", 0.571, "bad"),  # the example: 57.1% noise must not be green
        ("noise", 0.05, "good"),
        ("noise", 0.0501, "caution"),
        ("noise", 0.15, "caution"),
        ("noise", 0.1501, "bad"),
        ("gold_error", 0.0, "good"),
        ("weak_annotators", 0.0, "good"),
        ("weak_annotators", 0.01, "caution"),
        ("weak_annotators", 0.5, "bad"),
    ],
)
def test_thresholds(kind, value, expected):
    assert judge(kind, value).label == expected


@pytest.mark.parametrize("value", [math.nan, None, math.inf])
def test_no_value_is_undefined_with_its_reason(value):
    verdict = judge("noise", value, "fewer than two annotators")
    assert verdict.severity is Severity.UNDEFINED
    assert "fewer than two annotators" in verdict.describe()


def test_unknown_kind_is_refused():
    with pytest.raises(AnnotationDataError, match="unknown kind"):
        judge("vibes", 0.5)


def test_every_rule_states_its_thresholds_and_source():
    for rule in RULES.values():
        text = rule.describe()
        assert "good" in text and "caution" in text and "bad" in text
        assert rule.source in text


@given(
    kind=st.sampled_from(sorted(RULES)),
    a=st.floats(-1, 1, allow_nan=False),
    b=st.floats(-1, 1, allow_nan=False),
)
def test_severity_is_monotone_in_the_value(kind, a, b):
    order = {"good": 0, "caution": 1, "bad": 2}
    rule = RULES[kind]
    better, worse = (max(a, b), min(a, b)) if rule.higher_is_better else (min(a, b), max(a, b))
    assert order[judge(kind, better).label] <= order[judge(kind, worse).label]
