"""More argument checks of the agreement functions (issue 12): each bad value raises
:class:`AnnotationDataError` naming the argument."""

from __future__ import annotations

import numpy as np
import pytest

from analytics import AnnotationDataError
from analytics import agreement as ag
from analytics.agreement.chance import chance_agreement
from analytics.agreement.paradox import kappa_paradox
from tests.helpers.builders import from_coders
from tests.helpers.references import KRIPPENDORFF_2011

ANN = from_coders(KRIPPENDORFF_2011, kind="numeric")


@pytest.mark.parametrize("points", [1, 0, -5, 2.5, float("nan"), "100", None, True])
def test_kappa_paradox_checks_points(points):
    with pytest.raises(AnnotationDataError, match="points"):
        kappa_paradox(ANN, points=points)


def test_kappa_paradox_good_points_still_pass():
    assert len(kappa_paradox(ANN, points=2).prevalence) == 2
    assert len(kappa_paradox(ANN, points=5.0).prevalence) == 5


@pytest.mark.parametrize("coefficient", ["kappa", "", None, 3, "Cohen_Kappa"])
def test_pairwise_checks_coefficient(coefficient):
    with pytest.raises(AnnotationDataError, match="coefficient") as info:
        ag.pairwise(ANN, coefficient)
    assert "cohen_kappa" in str(info.value)  # the message lists the allowed ones


@pytest.mark.parametrize("coefficient", ["cohen_kappa", "fleiss", None, 1])
def test_chance_agreement_checks_coefficient(coefficient):
    with pytest.raises(AnnotationDataError, match="coefficient") as info:
        chance_agreement(coefficient, np.array([0.5, 0.5]))
    assert "fleiss_kappa" in str(info.value)


def test_chance_agreement_good_names_still_pass():
    shares = np.array([0.9, 0.1])
    values = [float(chance_agreement(c, shares)[0]) for c in ag.chance.FLEISS_FAMILY]
    assert values == pytest.approx([0.82, 0.18, 0.5])


def test_per_category_bars_draws_one_or_both_coefficients_and_checks_measure():
    table = ag.per_category(from_coders(KRIPPENDORFF_2011), n_boot=0)
    assert len(ag.per_category_bars(table, "alpha").data) == 1
    both = ag.per_category_bars(table, measure="both")
    assert [t.name for t in both.data] == ["Fleiss' kappa", "Krippendorff's alpha"]
    with pytest.raises(AnnotationDataError, match="measure"):
        ag.per_category_bars(table, measure="kappa")
