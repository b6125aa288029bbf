"""Float error at a band's edge: 0.39999999999999997 is 0.4, and reads as 0.4 does."""

from __future__ import annotations

import pytest

from analytics.agreement import band, reading

JUST_BELOW, JUST_ABOVE = 0.39999999999999997, 0.4000000000000001


@pytest.mark.parametrize("value", [JUST_BELOW, JUST_ABOVE])
def test_values_within_float_error_of_an_edge_band_as_the_edge(value):
    assert value != 0.4
    assert band("Brennan-Prediger", value) == band("Brennan-Prediger", 0.4)
    assert band("Krippendorff's alpha (nominal)", value * 2) == band(
        "Krippendorff's alpha (nominal)", 0.8
    )


def test_the_reading_shows_the_edge_and_its_band_not_float_noise():
    # two.csv's Brennan-Prediger: value 0.65, interval 0.39999999999999997 to 0.85
    text = reading("Brennan-Prediger", 0.65, JUST_BELOW, 0.8499999999999999)
    assert "0.3999" not in text and "interval 0.400 to 0.850" in text
    assert "from 'moderate agreement beyond chance'" in text
    text = reading("Brennan-Prediger", JUST_ABOVE)
    assert text.startswith("0.400: moderate agreement") and "0.4000" not in text
    # a value truly below the edge still says so, with the decimals that show it
    text = reading("Brennan-Prediger", 0.65, 0.3996873067016222, 0.85)
    assert "interval 0.3997 to 0.850" in text and "from 'fair agreement" in text
