"""Argument checks of the multi-label tables, figures and readings: a bad value raises
:class:`AnnotationDataError` naming it (an ArgumentTypeError for the wrong kind), never a
bare numpy error or a silent answer."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError
from analytics import multilabel as ml
from analytics._core.errors import ArgumentTypeError
from analytics.data import load_sample


@pytest.fixture(scope="module")
def mlann():
    return load_sample("affect_multilabel")


def test_items_by_agreement_refuses_bins_that_are_not_numbers(mlann):
    with pytest.raises(ArgumentTypeError, match="bins as a sequence of numbers"):
        ml.items_by_agreement(mlann, bins="abc")  # was "could not convert string to float"
    with pytest.raises(ArgumentTypeError, match="bins"):
        ml.items_by_agreement(mlann, bins=0.5)


@pytest.mark.parametrize(
    ("bins", "words"),
    [
        ((0, float("nan"), 1), "finite, increasing"),  # was a band "0 <= P_i <= nan"
        ((0, float("inf")), "finite, increasing"),
        ((0.5, 0.2, 1), "finite, increasing"),
        ((0.5,), "at least two"),
        ((-1, 2), r"within \[0, 1\]"),  # was one band holding every item
        ((0, 1.5), r"within \[0, 1\]"),
    ],
)
def test_items_by_agreement_refuses_bad_edges(mlann, bins, words):
    with pytest.raises(AnnotationDataError, match=words):
        ml.items_by_agreement(mlann, bins=bins)


def test_items_by_agreement_good_edges_still_pass(mlann):
    table = ml.items_by_agreement(mlann, bins=(0, 0.5, 1))
    assert table["n_items"].sum() + table.attrs["n_without_agreement"] == mlann.n_items


@pytest.mark.parametrize(("value", "words"), [(0, "at least 2"), (1, "at least 2"), (2.5, "whole")])
def test_pairwise_am_heatmap_checks_max_annotators(mlann, value, words):
    with pytest.raises(AnnotationDataError, match=f"max_annotators must be .*{words}"):
        ml.pairwise_am_heatmap(ml.pairwise_am(mlann), max_annotators=value)  # was IndexError


def test_pairwise_am_heatmap_refuses_another_table(mlann):
    with pytest.raises(ArgumentTypeError, match="pairwise_am"):
        ml.pairwise_am_heatmap(pd.DataFrame())
    fig = ml.pairwise_am_heatmap(ml.pairwise_am(mlann), max_annotators=2)
    assert "the 2 sharing most items" in fig.layout.title.text


@pytest.mark.parametrize("value", [5.0, 1.01, float("inf"), float("-inf")])
def test_am_reading_refuses_values_a_m_cannot_take(value):
    # A_m = (P_o - P_e) / (1 - P_e) is at most 1; it has no finite lower bound
    with pytest.raises(AnnotationDataError, match="at most 1"):
        ml.am_reading(value)  # 5.0 read "good: reliable"


def test_am_reading_refuses_text_and_reads_every_possible_value():
    with pytest.raises(AnnotationDataError, match="A_m must be a number"):
        ml.am_reading("0.9")
    assert ml.am_reading(1.0).startswith("good")
    assert ml.am_reading(-3.0).endswith("no agreement beyond chance")
    assert ml.am_reading(np.nan) == "undefined"
