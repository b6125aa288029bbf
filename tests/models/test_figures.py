"""Model figures and the disagreement view: they draw what the tables say, names literally."""

from __future__ import annotations

import pandas as pd
import pytest

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


def test_applicable_models_leave_glad_out_only_where_it_cannot_be_fitted():
    from analytics.models import MODELS, applicable_models

    ann, _ = public("welinder_bluebirds")
    assert applicable_models(ann) == MODELS
    one = pd.DataFrame({"item": ["i1", "i2"], "annotator": ["a", "a"], "label": ["x", "y"]})
    assert "glad" not in applicable_models(one) and len(applicable_models(one)) == len(MODELS) - 1
    same = pd.DataFrame({"item": ["i1", "i1"], "annotator": ["a", "b"], "label": ["x", "x"]})
    assert "glad" not in applicable_models(same)


def test_comparison_with_gold_adds_accuracy_in_the_tables_order():
    from analytics.models import comparison_with_gold, gold_table

    ann, gold = public("snow_wsd")
    table = compare(ann, ["majority", "one_coin"])
    results = {m: fit(ann, m) for m in ["one_coin", "majority"]}
    results["auto"] = results["majority"]
    scored = gold_table(results, gold)
    joined = comparison_with_gold(table, scored)
    assert list(joined.index) == list(table.index)
    for m in table.index:
        assert joined.loc[m, "accuracy"] == scored.loc[m, "accuracy"]
        assert joined.loc[m, "gold_items"] == len(gold)
    assert len(comparison_figure(joined).data) == 2  # the accuracy panel appears
    assert comparison_with_gold(table, None).equals(table)
    # a model the gold table lacks gets NaN, not an error
    partial = comparison_with_gold(table, scored.drop(index="majority"))
    assert pd.isna(partial.loc["majority", "accuracy"])
    assert pd.isna(partial.loc["majority", "gold_items"])
    assert str(joined["gold_items"].dtype) == "Int64"  # a count, shown as 177 not 177.0


def test_split_notes_and_plain_settings():
    import json

    from analytics.models import plain_settings, split_notes

    alarms, rest = split_notes(
        [
            "Best of 5 starts: majority (highest objective).",
            "The labels are NOT IDENTIFIED: two starts tie.",
            "The mace fit did not converge in 3 iterations.",
        ]
    )
    assert [a[:7] for a in alarms] == ["The lab", "The mac"] and rest[0].startswith("Best")
    assert split_notes([]) == ([], [])
    ann, _ = public("welinder_bluebirds")
    auto = fit(ann)
    plain = plain_settings(auto)
    assert set(plain) == set(auto.settings)
    json.dumps(plain)  # every value is plain
    assert plain["comparison"].startswith("a table of 6 rows")
    ds = plain_settings(fit(ann, "dawid_skene"))
    assert ds["model"] == "dawid_skene" and isinstance(ds["seconds"], float)


def test_settings_table_reads_every_setting_with_its_meaning():
    """Fit details had shown a JSON dump ('"n_gold": 0', weights to six decimals)."""
    from analytics.models import SETTING_MEANINGS, settings_table

    ann, _ = public("welinder_bluebirds")
    for model in ("auto", "dawid_skene", "one_coin", "mace", "glad", "hierarchical", "majority"):
        result = fit(ann, model)
        table = settings_table(result)
        assert table["setting"].tolist() == [str(k) for k in result.settings]
        assert table["value"].map(type).eq(str).all()
        # every setting a model of the family writes is explained
        assert set(table["setting"]) <= set(SETTING_MEANINGS), model
        assert (table["meaning"] != "").all()
    weights = settings_table(fit(ann)).set_index("setting")["value"]["weights"]
    shares = [float(part.split()[-1]) for part in weights.split(", ")]
    assert shares == sorted(shares, reverse=True) and all(
        len(p.split(".")[-1]) == 3 for p in weights.split(", ")
    )


def test_calibration_figure_draws_the_models_asked_and_lists_the_rest():
    ann, gold = public("welinder_bluebirds")
    tables = {m: calibration(fit(ann, m), gold) for m in ("majority", "dawid_skene", "mace")}
    fig = calibration_figure(tables, shown={"dawid_skene"})
    visible = {t.name.split(" (")[0]: t.visible for t in fig.data[1:]}
    assert visible == {"majority": "legendonly", "dawid_skene": True, "mace": "legendonly"}
    assert all(t.visible in (None, True) for t in calibration_figure(tables).data)


def test_calibration_and_the_gold_table_give_one_ece_with_ties():
    """Majority vote ties often: the table split tied credit for accuracy but then cast
    it to True/False for ECE, and the chart took the first tied label (0.0267 beside 0.023
    on the crowd sample)."""
    from analytics.data import load_sample, sample_truth
    from analytics.models import gold_table

    ann, gold = load_sample("crowd_intents"), sample_truth("crowd_intents")
    r = fit(ann, "majority")
    post = r.posteriors.to_numpy()
    assert ((post == post.max(axis=1, keepdims=True)).sum(axis=1) > 1).any()  # ties exist
    table = gold_table({"majority": r}, gold)
    assert calibration(r, gold).attrs["ece"] == pytest.approx(table.loc["majority", "ece"])


def test_fit_progress_axes_name_what_the_trace_is():
    """auto's trace is the held-out score per judgement; the axes said 'penalised
    log-likelihood per EM iteration'. Every tick uses one style of separators."""
    from analytics.dawid_skene.figures import log_likelihood_figure

    ann, _ = public("snow_temp")
    stacked = fit(ann)
    assert stacked.model == "stacked"
    fig = log_likelihood_figure(stacked)
    assert fig.layout.yaxis.title.text == "nats per held-out judgement"
    plain = log_likelihood_figure(fit(ann, "dawid_skene"))
    assert plain.layout.yaxis.title.text == "penalised log-likelihood (nats)"
    assert fig.layout.yaxis.tickformat == plain.layout.yaxis.tickformat == ",~r"
    # steps of the weights, whole numbers on the axis (a 5-step trace had ticks at 0.5)
    assert fig.layout.xaxis.title.text == "Newton step"
    assert fig.layout.xaxis.dtick == 1 and fig.layout.xaxis.tickformat == "d"
    assert f"{stacked.n_iter} steps, certified optimal" in fig.layout.annotations[0].text
    assert stacked.n_iter == len(stacked.log_likelihood) - 1  # counted as EM iterations are
    hier = log_likelihood_figure(fit(ann, "hierarchical"))
    assert hier.layout.yaxis.title.text == "evidence lower bound (nats)"


def test_stack_parts_list_each_models_own_fit():
    from analytics.models import stack_parts

    ann, _ = public("snow_rte")
    r = fit(ann)
    parts = stack_parts(r)
    weights = r.parameters["weights"]
    assert list(parts.index) == list(weights.sort_values(ascending=False).index)
    assert parts["weight"].sum() == pytest.approx(1.0)
    for model, row in parts.iterrows():
        own = r.parameters["components"][model]
        assert row["iterations"] == own.n_iter and row["converged"] == own.converged
        assert row["log_likelihood"] == pytest.approx(own.log_likelihood[-1])
    with pytest.raises(ValueError, match="not a stack"):
        stack_parts(fit(ann, "one_coin"))


def test_auto_always_names_its_weights():
    # a script reading settings["weights"] gets them whether auto stacks, keeps one model
    # or falls back on majority vote (it had no such key in the last two cases)
    ann, _ = public("snow_rte")
    stacked = fit(ann)
    assert stacked.settings["weights"] == pytest.approx(
        stacked.parameters["weights"].round(6).to_dict()
    )
    single = Annotations.from_frame(
        pd.DataFrame({"item": ["i1", "i2", "i3"], "annotator": ["a", "b", "a"], "label": [1, 2, 1]})
    )
    assert fit(single).settings["weights"] == {"majority": 1.0}


def test_auto_names_the_weight_of_the_one_model_it_keeps(monkeypatch):
    import numpy as np

    import analytics.models.fitting as fitting

    def all_on_the_first(scores):  # the comparison table's first row: its best model
        w = np.zeros(len(scores))
        w[0] = 1.0
        return w, np.zeros(1), 0, True

    ann, _ = public("snow_temp")
    monkeypatch.setattr(fitting, "stacking_weights", all_on_the_first)
    r = fit(ann)
    best = r.settings["comparison"].index[0]
    assert r.model == best and r.settings["weights"] == {best: 1.0}


def test_accuracy_panel_is_zoomed_to_the_intervals():
    # bars from 0 to 100% hid differences of a point between models
    from analytics.models import comparison_with_gold, gold_table

    ann, gold = public("snow_rte")
    table = compare(ann, ["majority", "one_coin", "dawid_skene"])
    scored = gold_table({m: fit(ann, m) for m in table.index}, gold)
    fig = comparison_figure(comparison_with_gold(table, scored))
    acc = fig.data[1]
    assert acc.type == "scatter" and acc.mode == "markers"
    low, high = fig.layout.yaxis2.range
    joined = comparison_with_gold(table, scored)
    assert low <= joined["accuracy_low"].min() and high >= joined["accuracy_high"].max()
    assert high - low < 0.2  # 0.897 to 0.929 with intervals: not the whole 0-100%
