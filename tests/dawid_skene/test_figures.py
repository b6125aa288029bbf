"""Figures: titles, axis titles, content, and degenerate inputs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError, Annotations
from analytics.dawid_skene import annotator_table, fit
from analytics.dawid_skene.figures import (
    confidence_histogram,
    confusion_heatmaps,
    log_likelihood_figure,
    mutual_information_figure,
    pick_annotators,
    prevalence_figure,
)


def _ann(rows):
    return Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))


@pytest.fixture(scope="module")
def res():
    rng = np.random.default_rng(1)
    rows = []
    for i in range(60):
        z = rng.integers(3)
        for j in range(5):
            acc = 0.5 + 0.1 * j
            y = z if rng.random() < acc else rng.integers(3)
            rows.append((f"i{i}", f"w{j}", f"c{y}"))
    return fit(_ann(rows))


def _titled(fig):
    assert fig.layout.title.text
    return fig


def test_pick_annotators(res):
    table = annotator_table(res)
    least = pick_annotators(res, "least accurate", 2)
    most = pick_annotators(res, "most accurate", 2)
    assert least == list(table["accuracy"].sort_values().index[:2])
    assert most == list(table["accuracy"].sort_values(ascending=False).index[:2])
    assert pick_annotators(res, "chosen", chosen=["w3", "w1"]) == ["w3", "w1"]
    # an unknown annotator was dropped without a word: now named in an error
    with pytest.raises(AnnotationDataError, match="not in the fit: 'nobody'"):
        pick_annotators(res, "chosen", chosen=["w3", "nobody"])
    with pytest.raises(AnnotationDataError, match="unknown pick 'random'"):
        pick_annotators(res, "random")


def test_confusion_heatmaps_grid(res):
    fig = _titled(confusion_heatmaps(res, ["w0", "w1", "w2", "w4"], columns=3))
    heat = [t for t in fig.data if t.type == "heatmap"]
    assert len(heat) == 4
    np.testing.assert_allclose(np.array(heat[1].z), res.confusion["w1"].to_numpy())
    assert all(t.zmin == 0 and t.zmax == 1 for t in heat)
    assert fig.layout.xaxis4.title.text == "given label"  # bottom row of a 2 x 3 grid
    assert "true category" in fig.layout.yaxis.title.text
    empty = confusion_heatmaps(res, [])
    assert empty.layout.annotations[0].text == "No annotator selected."


def test_other_figures(res):
    prev = _titled(prevalence_figure(res))
    assert [t.name for t in prev.data] == ["model", "majority vote", "raw frequency"]
    assert prev.layout.yaxis.title.text and prev.layout.xaxis.title.text
    hist = _titled(confidence_histogram(res))
    assert len(hist.data[0].x) == len(res.items)
    mi = _titled(mutual_information_figure(res))
    assert mi.data[0].x[0] == str(annotator_table(res)["mutual information (bits)"].idxmax())
    ll = _titled(log_likelihood_figure(res))
    np.testing.assert_allclose(ll.data[0].y, res.log_likelihood)
    assert "iterations" in ll.layout.annotations[0].text


def test_degenerate_figures_explain_themselves():
    one = fit(_ann([("i1", "a", "x"), ("i1", "b", "x"), ("i2", "a", "x")]))
    fig = mutual_information_figure(one)
    assert "one category" in fig.layout.annotations[0].text
    assert confusion_heatmaps(one).data  # still draws 1 x 1 matrices


def test_confusion_grid_names_the_rows_once_per_row_of_panels(res):
    """Issue 17.9: category names of a right-hand panel ran into its left neighbour."""
    fig = confusion_heatmaps(res, ["w0", "w1", "w2", "w4"], columns=3)
    shown = {
        name: fig.layout[name].showticklabels
        for name in fig.layout
        if name.startswith("yaxis") and fig.layout[name].showticklabels is not None
    }
    # panels 1 and 4 start a row (yaxis, yaxis4); panels 2 and 3 (yaxis2, yaxis3) do not
    assert shown == {"yaxis": True, "yaxis2": False, "yaxis3": False, "yaxis4": True}
