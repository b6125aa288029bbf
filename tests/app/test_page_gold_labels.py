"""The Gold labels page (annotator models), driven with AppTest."""

from __future__ import annotations

import json

from analytics import Annotations
from tests.helpers.app import run_page
from tests.helpers.paths import load_public


def bluebirds() -> Annotations:
    labels, _ = load_public("welinder_bluebirds")
    return Annotations.from_frame(labels, name="bluebirds")


def run(ann):
    at = run_page("gold_labels", ann, timeout=120)
    assert not at.exception, at.exception
    return at


def test_no_data_shows_info():
    at = run(None)
    assert at.info and "No data set is loaded" in at.info[0].value


def test_auto_compares_and_says_why():
    at = run(bluebirds())
    assert not at.error
    assert any("auto stacked 4 models" in i.value for i in at.info)
    frames = [d.value for d in at.dataframe]
    table = next(f for f in frames if "heldout_ll" in f.columns)
    assert table.index[0] == "hierarchical" and len(table) == 6
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert spec["data"][0]["type"] == "bar"
    assert any("disagree" in f.columns for f in frames)
    assert any(s.value.startswith("The chosen model: auto") for s in at.subheader)
    weights = next(f for f in frames if "weight" in f.columns)
    assert weights["weight"].sum() == 1.0 or abs(weights["weight"].sum() - 1) < 1e-9


def test_choosing_a_model_and_bootstrapping():
    at = run(bluebirds())
    at.selectbox(key="gl_model").set_value("mace").run()
    assert not at.exception
    assert any(s.value.startswith("The chosen model: MACE") for s in at.subheader)
    at.select_slider(key="gl_nboot").set_value(20)
    at.toggle(key="gl_boot").set_value(True).run()
    assert not at.exception
    assert any(m.label.startswith("Items whose label changes") for m in at.metric)
    assert any("item bootstrap" in c.value for c in at.caption)


def test_gold_upload_shows_the_evaluation():
    _, gold = load_public("welinder_bluebirds")
    at = run(bluebirds())
    at.file_uploader(key="gl_gold").set_value(
        ("gold.csv", gold.to_csv(index=False).encode(), "text/csv")
    ).run()
    assert not at.exception and not at.error
    assert any(s.value == "Evaluation against the gold labels" for s in at.subheader)
    frames = [d.value for d in at.dataframe]
    table = next(f for f in frames if "heldout_ll" in f.columns)
    assert table.loc["dawid_skene", "accuracy"] == 97 / 108
    assert any("gold_judgements" in f.columns for f in frames)
    gold_rows = next(f for f in frames if "ece" in f.columns)
    assert gold_rows.loc["auto", "accuracy"] == 97 / 108
    titles = [json.loads(c.proto.spec)["layout"]["title"]["text"] for c in at.get("plotly_chart")]
    assert any(t.startswith("Calibration on gold items") for t in titles)
    # a bad gold file is refused in words, not a traceback
    at.file_uploader(key="gl_gold").set_value(
        ("bad.csv", b"item,label\nnope,1\n", "text/csv")
    ).run()
    assert not at.exception and at.error
