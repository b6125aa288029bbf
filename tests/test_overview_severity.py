"""Severity rules (issue 17, point 2): thresholds, direction, undefined values."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analytics import AnnotationDataError
from analytics._core.formatting import format_judged_value
from analytics.overview import RULES, Severity, format_judged, judge


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


# --- the value printed beside a verdict (reviewer: "0.667 ... below 0.667") ---------------


@pytest.mark.parametrize(
    ("kind", "value", "shown"),
    [
        ("agreement", 2 / 3, "0.6667"),  # 0.667 would read as at the threshold
        ("agreement", 0.7999, "0.7999"),  # 0.800 would read as good
        ("agreement", 0.79999999, "0.799999"),  # six decimals at most, rounded down
        ("agreement", 0.8, "0.800"),  # on the threshold: the inclusive rule agrees
        ("agreement", 0.667, "0.667"),
        ("agreement", 0.42822, "0.428"),  # far from a threshold: three decimals
        ("agreement", 0.6670000001, "0.667001"),  # above it, rounded up at six
        ("noise", 0.1504, "15.04%"),  # 15.0% would read as caution
        ("noise", 0.15, "15.0%"),
        ("noise", 0.0501, "5.01%"),
        ("weak_annotators", 0.0, "0.0%"),
        ("agreement", float("nan"), "n/a"),
    ],
)
def test_format_judged_never_rounds_onto_a_threshold(kind, value, shown):
    assert format_judged(kind, value) == shown
    assert judge(kind, value).shown == shown


def _parse(text: str) -> float:
    return float(text[:-1]) / 100 if text.endswith("%") else float(text)


@given(
    st.sampled_from(sorted(RULES)),
    st.one_of(
        st.floats(-1, 1, allow_nan=False),
        # values within a rounding step of a threshold
        st.sampled_from([0.8, 0.667, 0.05, 0.15, 0.1, 0.0]).flatmap(
            lambda t: st.floats(t - 1e-3, t + 1e-3, allow_nan=False)
        ),
    ),
)
def test_the_printed_value_gets_the_same_verdict(kind, value):
    shown = format_judged(kind, value)
    assert judge(kind, _parse(shown)).label == judge(kind, value).label, shown
    decimals = len(shown.rstrip("%").partition(".")[2])
    assert decimals <= (4 if RULES[kind].percent else 6)


def test_format_judged_value_on_band_edges():
    assert format_judged_value(0.5999, [0.2, 0.4, 0.6], digits=2) == "0.5999"
    assert format_judged_value(0.61, [0.2, 0.4, 0.6], digits=2) == "0.61"
    assert format_judged_value(float("inf"), [0.5]) == "n/a"


def test_format_judged_names_unknown_kinds():
    with pytest.raises(AnnotationDataError):
        format_judged("nonsense", 0.5)


def test_float_error_at_a_threshold_is_the_threshold_for_verdict_and_print():
    """0.1 + 0.7 is 0.7999999999999999: it is 0.8, good, printed 0.800 (the readings, the
    verdicts and the printed values snap alike, in analytics._core.formatting)."""
    v = 0.1 + 0.7
    assert v < 0.8
    assert judge("agreement", v).severity is Severity.GOOD
    assert judge("agreement", v).value == v  # the verdict keeps the value as given
    assert format_judged("agreement", v) == "0.800"
    assert judge("agreement", 0.6670000001).severity is Severity.CAUTION  # a real difference
