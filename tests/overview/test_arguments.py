"""Argument checks of the overview: confidences outside [0, 1] and unknown distance names
are refused up front, not read as a negative error rate or an "undefined" answer."""

from __future__ import annotations

import numpy as np
import pytest

from analytics import AnnotationDataError
from analytics import overview as ov
from analytics.data import load_sample


@pytest.mark.parametrize("confidence", [[1.5], [0.5, -0.1], [np.nan], ["high"]])
def test_expected_label_error_refuses_confidences_outside_zero_one(confidence):
    with pytest.raises(AnnotationDataError, match="confidence must"):
        ov.expected_label_error(np.array(confidence))  # [1.5] was -0.5


def test_expected_label_error_takes_a_posterior_rounded_just_above_one():
    assert ov.expected_label_error([1.0 + 1e-15, 0.5]) == pytest.approx(0.25)
    assert np.isnan(ov.expected_label_error([]))


def test_overview_refuses_an_unknown_distance_up_front():
    ann = load_sample("crowd_intents")
    with pytest.raises(AnnotationDataError, match="unknown distance 'foo'"):
        ov.overview(ann, distance="foo")  # was an "undefined: unknown distance" answer
