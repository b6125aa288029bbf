"""The Dawid-Skene page, driven with AppTest."""

from __future__ import annotations

import json

import pandas as pd
from streamlit.testing.v1 import AppTest

from analytics import Annotations
from tests.helpers.app import run_page
from tests.helpers.paths import load_public


def bluebirds() -> Annotations:
    labels, _ = load_public("welinder_bluebirds")
    return Annotations.from_frame(labels, name="bluebirds")


def run(ann: Annotations | None) -> AppTest:
    at = run_page("dawid_skene", ann)
    assert not at.exception, at.exception
    return at


def frames(at):
    return [d.value for d in at.dataframe]


def test_no_data_shows_info():
    at = run(None)
    assert at.info and "No data set is loaded" in at.info[0].value


def test_fit_metrics_and_annotator_section():
    at = run(bluebirds())
    assert not at.error
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Items"] == "108"
    assert metrics["Sure labels"].endswith("%")
    charts = at.get("plotly_chart")
    assert len(charts) == 2  # heatmaps + mutual information
    heat = json.loads(charts[0].proto.spec)
    assert sum(t["type"] == "heatmap" for t in heat["data"]) == 6
    table = next(f for f in frames(at) if "spammer score" in f.columns)
    assert len(table) == 39 and table["accuracy"].is_monotonic_increasing
    # pick the most accurate annotators instead
    at.segmented_control(key="ds_pick").set_value("most accurate").run()
    heat2 = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert heat2["layout"]["annotations"][0]["text"] != heat["layout"]["annotations"][0]["text"]


def test_other_sections():
    at = run(bluebirds())
    at.segmented_control(key="ds_section").set_value("Prevalence and confidence").run()
    assert not at.exception and len(at.get("plotly_chart")) == 2
    assert any("raw frequency" in f.columns for f in frames(at))
    at.segmented_control(key="ds_section").set_value("Item browser").run()
    assert not at.exception
    low = next(f for f in frames(at) if "confidence" in f.columns and "item" in f.columns)
    assert (low["confidence"] < 0.99).all()
    judged = next(f for f in frames(at) if "p(label | model label)" in f.columns)
    assert len(judged) == 39  # every annotator labelled every bluebird
    at.slider(key="ds_below").set_value(0.0).run()
    assert any("sure of every label" in i.value for i in at.info)
    at.segmented_control(key="ds_section").set_value("Fit details").run()
    assert not at.exception and len(at.get("plotly_chart")) == 1


def test_gold_upload_reports_accuracy():
    at = run(bluebirds())
    _, gold = load_public("welinder_bluebirds")
    at.file_uploader(key="ds_gold").set_value(
        ("gold.csv", gold.to_csv(index=False).encode(), "text/csv")
    ).run()
    assert not at.exception and not at.error
    acc = next(f for f in frames(at) if "accuracy" in f.columns and "tied items" in f.columns)
    assert acc.loc["Dawid-Skene", "accuracy"] > acc.loc["majority vote", "accuracy"]


def test_multilabel_and_degenerate_data_explained():
    ml = Annotations.from_frame(
        pd.DataFrame({"item": ["a", "a"], "annotator": ["x", "y"], "label": ["p;q", "p"]}),
        multilabel_sep=";",
    )
    at = run(ml)
    assert not at.exception and not at.error
    assert "one yes/no model per" in at.info[0].value
    per_cat = next(d.value for d in at.dataframe if "prevalence" in d.value.columns)
    assert list(per_cat["category"]) == ["p", "q"]
    one = Annotations.from_frame(
        pd.DataFrame({"item": ["a", "b"], "annotator": ["x", "x"], "label": ["p", "q"]})
    )
    at = run(one)
    assert any("only one annotator" in w.value for w in at.warning)


def run_sample(key: str, **state) -> AppTest:
    """The page on a bundled sample, loaded as the app loads it (with its source)."""
    from analytics.data import SAMPLES, load_sample
    from tests.helpers.paths import ROOT

    at = AppTest.from_file(str(ROOT / "pages" / "dawid_skene.py"), default_timeout=60)
    at.session_state["concord_annotations"] = load_sample(key)
    at.session_state["concord_source"] = f"sample: {SAMPLES[key].title}"
    at.session_state["concord_sample"] = key
    for name, value in state.items():
        at.session_state[name] = value
    at.run()
    assert not at.exception, at.exception
    return at


def accuracy_tables(at):
    return [f for f in frames(at) if "accuracy" in f.columns and "tied items" in f.columns]


def test_a_sample_with_known_truth_is_compared_with_it_by_default():
    at = run_sample("crowd_intents")
    assert not at.error
    assert at.checkbox(key="ds_sample_truth").value
    assert any("known true labels" in h.value for h in at.subheader)
    (acc,) = accuracy_tables(at)
    assert list(acc.index) == ["majority vote", "Dawid-Skene"]
    assert acc.loc["Dawid-Skene", "items"] == 300
    assert 0.9 < acc.loc["Dawid-Skene", "accuracy"] <= 1.0
    # switched off: no comparison
    at.checkbox(key="ds_sample_truth").uncheck().run()
    assert not at.exception and not accuracy_tables(at)


def test_the_real_rte_sample_is_compared_with_its_expert_gold():
    at = run_sample("rte_snow2008")
    assert not at.error
    (acc,) = accuracy_tables(at)
    assert acc.loc["Dawid-Skene", "items"] == 800


def test_no_truth_offered_for_a_sample_without_one_or_for_other_data():
    at = run_sample("ratings_ordinal")
    assert not at.error and not accuracy_tables(at)
    assert not [c for c in at.checkbox if c.key == "ds_sample_truth"]
    # the same data set, but not loaded as the sample (e.g. set by a script): no truth
    at = run_sample("crowd_intents", concord_source="set by a script", concord_sample=None)
    assert not accuracy_tables(at)
