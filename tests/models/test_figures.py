"""Model figures and the disagreement view: they draw what the tables say, names literally."""

from __future__ import annotations

import pandas as pd

from analytics import Annotations
from analytics.models import (
    accuracy_intervals_figure,
    annotator_gold_accuracy,
    bootstrap,
    calibration,
    calibration_figure,
    compare,
    comparison_figure,
    disagreements,
    fit,
)
from tests.models.helpers import public


def test_comparison_figure_with_and_without_gold():
    ann, gold = public("snow_wsd")
    table = compare(ann, ["majority", "one_coin"], gold=gold)
    fig = comparison_figure(table, chosen=table.index[0])
    assert len(fig.data) == 2
    assert list(fig.data[1].y) == list(table["accuracy"])
    plain = comparison_figure(table.drop(columns=["accuracy"]))
    assert len(plain.data) == 1
    assert "No model" in comparison_figure(table.iloc[:0]).layout.annotations[0].text


def test_calibration_and_interval_figures():
    ann, gold = public("welinder_bluebirds")
    r = fit(ann, "dawid_skene")
    fig = calibration_figure({"dawid_skene": calibration(r, gold)})
    assert "ECE" in fig.data[1].name
    empty = calibration_figure({})
    assert "No gold item" in empty.layout.annotations[0].text
    u = bootstrap(ann, r, n_boot=5)
    fig = accuracy_intervals_figure(u.annotator_accuracy, title="bootstrap", top=10)
    assert len(fig.data[0].x) == 10
    assert fig.data[0].x[0] == u.annotator_accuracy["estimate"].min()
    gold_fig = accuracy_intervals_figure(annotator_gold_accuracy(ann, gold), title="gold")
    assert len(gold_fig.data[0].x) == ann.n_annotators


def test_hostile_names_are_drawn_literally():
    rows = [("i1", "<b>x</b>", "a"), ("i1", "y", "a"), ("i2", "<b>x</b>", "b"), ("i2", "y", "b")]
    ann = Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))
    u = bootstrap(ann, fit(ann, "majority"), n_boot=3)
    fig = accuracy_intervals_figure(u.annotator_accuracy, title="t")
    assert "&lt;b&gt;x&lt;/b&gt;" in list(fig.data[0].y)


def test_disagreements():
    ann, _ = public("act_MS")
    results = {m: fit(ann, m, init="majority") for m in ("one_coin", "dawid_skene")}
    results["majority"] = fit(ann, "majority")
    view = disagreements(results, "one_coin")
    assert (view["disagree"] >= 1).all() and view["disagree"].is_monotonic_decreasing
    differ = (results["dawid_skene"].labels != results["one_coin"].labels).mean()
    pair = view.attrs["pairwise"]
    assert pair.loc["one_coin", "dawid_skene"] == differ
    assert view.attrs["share"] >= differ
    assert len(view) == round(view.attrs["share"] * ann.n_items)
