"""The Next labels page, driven with AppTest."""

from __future__ import annotations

import base64
import json
import re

import numpy as np
import pandas as pd

from analytics import Annotations
from analytics.data import load_sample
from tests.helpers.app import run_page
from tests.helpers.paths import load_public


def crowd() -> Annotations:
    return load_sample("crowd_intents")


def bluebirds() -> Annotations:
    """Every annotator judged every item: nobody is left to ask."""
    labels, _ = load_public("welinder_bluebirds")
    return Annotations.from_frame(labels, name="bluebirds")


def run(ann):
    at = run_page("next_labels", ann)
    assert not at.exception, at.exception
    return at


def test_no_data_shows_info():
    at = run(None)
    assert at.info and "No data set is loaded" in at.info[0].value


def test_batch_table_downloads_and_curves():
    at = run(crowd())
    assert not at.error
    batch = at.dataframe[0].value
    assert list(batch.columns)[:2] == ["item", "current_confidence"]
    assert 0 < len(batch) <= 100
    assert len(batch) == len(batch.drop_duplicates())
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Judgements in the batch"] == f"{len(batch):,}"
    # a model's 99.96% read "100.0%", as if certain; the change is in percentage points
    assert metrics["Expected accuracy"] != "100.0%"
    delta = next(m for m in at.metric if m.label == "Expected accuracy").proto.delta
    assert delta.endswith(" points")
    charts = at.get("plotly_chart")
    assert len(charts) == 1  # the expected accuracy curve (replay is off)
    spec = json.loads(charts[0].proto.spec)
    assert any(t.get("name") == "now" for t in spec["data"])
    labels = [b.label for b in at.get("download_button")]
    assert {"Batch (CSV)", "Label Studio tasks (JSON)", "Mechanical Turk input (CSV)"} <= set(
        labels
    )
    # the batch's CSV once: the export row's, not also a "Download CSV" beside the table
    keys = [b.proto.id for b in at.get("download_button")]
    assert not [k for k in keys if "dl_csv_nl_batch" in k], keys
    assert any("per item reach the target expected accuracy" in m.value for m in at.markdown)
    two_more = next(d.value for d in at.dataframe if "judgements per item" in d.value.columns)
    assert two_more["judgements per item"].tolist() == [5, 7]  # 1500 judgements / 300 items
    acc = two_more["model: a new run's expected accuracy"].to_numpy()
    assert acc[1] > acc[0]
    bound = two_more[
        "agreement alone: share of agreed items that may be coin-flips (bound)"
    ].to_numpy()
    assert bound[1] < bound[0]


def test_settings_change_the_batch():
    at = run(crowd())
    at.slider(key="nl_budget").set_value(10)
    at.checkbox(key="nl_assign").check()
    at.selectbox(key="nl_strategy").set_value("uncertainty").run()
    assert not at.exception and not at.error
    batch = at.dataframe[0].value
    assert len(batch) == 10 and "annotator" in batch.columns
    # the work is spread: at most the per-annotator limit each (10 by default; 2 here)
    at.slider(key="nl_budget").set_value(40)
    at.selectbox(key="nl_strategy").set_value("gain")
    at.number_input(key="nl_per_annotator").set_value(2).run()
    assert not at.exception and not at.error
    batch = at.dataframe[0].value
    assert batch["annotator"].value_counts().max() <= 2


def test_replay_runs_on_demand():
    at = run(crowd())
    at.toggle(key="nl_replay").set_value(True).run()
    assert not at.exception and not at.error
    table = next(d.value for d in at.dataframe if "strategy" in d.value.columns)
    assert set(table["strategy"]) == {"gain", "uncertainty", "random"}
    assert len(at.get("plotly_chart")) == 2
    # the figure the README leads with: judgements needed, against random
    summary = next(d.value for d in at.dataframe if "vs_random" in d.value.columns)
    assert abs(summary.loc["random", "vs_random"] - 1.0) < 1e-12
    # "to the nearest judgement", as the caption says: 911, not 911.25
    frame = next(d for d in at.dataframe if "vs_random" in d.value.columns)
    assert json.loads(frame.proto.columns)["judgements"]["type_config"]["format"] == "%,.0f"
    assert any("against random" in c.value for c in at.caption)
    # the second run finds the replay kept: with st.cache_data around a function that drew
    # on the page's progress bar, this hit raised CacheReplayClosureError
    at.run()
    assert not at.exception and not at.error
    assert any("strategy" in d.value.columns for d in at.dataframe)


def test_one_judgement_per_item_says_no_replay():
    ann = Annotations.from_frame(
        pd.DataFrame({"item": list("abcd"), "annotator": list("wxyw"), "label": [0, 1, 0, 1]})
    )
    at = run(ann)
    assert not at.error
    assert any("nothing to replay" in i.value for i in at.info)


def test_a_fully_judged_data_set_says_nobody_is_left():
    at = run(bluebirds())
    assert not at.error
    assert at.dataframe[0].value.empty
    ann = bluebirds()
    assert any(
        f"each of the {ann.n_annotators} annotators has already judged all "
        f"{ann.n_items} items" in i.value.replace("\\", "")
        for i in at.info
    )


def test_a_sample_with_true_labels_shows_todays_measured_accuracy():
    # the curve is the model's own account; with the sample's true labels loaded the page
    # draws today's labels scored against them beside it
    from streamlit.testing.v1 import AppTest

    from analytics.data import sample_truth
    from analytics.dawid_skene import fit
    from analytics.models import gold_table
    from tests.helpers.paths import ROOT

    ann = crowd()
    at = AppTest.from_file(str(ROOT / "pages" / "next_labels.py"), default_timeout=120)
    at.session_state["concord_annotations"] = ann
    at.session_state["concord_sample"] = "crowd_intents"
    at.run()
    assert not at.exception
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    circle = next(t for t in spec["data"] if t.get("name") == "now, against the true labels")
    measured = gold_table({"m": fit(ann)}, sample_truth("crowd_intents")).loc["m", "accuracy"]
    assert abs(circle["y"][0] - 100 * measured) < 1e-9
    from tests.helpers.markup import shown

    assert any("against the sample's known true labels" in shown(c.value) for c in at.caption)


def spec_arrays(trace: dict, axis: str) -> np.ndarray:
    """A figure trace's x or y values (Plotly sends numeric arrays base64-encoded)."""
    value = trace[axis]
    if isinstance(value, dict):
        return np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
    return np.asarray(value, float)


def test_two_annotators_who_judged_everything(tmp_path, capsys):
    """The empty batch says which reason applies, the chart draws no star for it and keeps
    the band inside the plot, and the page's plan is the command line's."""
    from analytics import load_annotations
    from analytics.cli import main
    from tests.next_labels.test_shortfall import small_crowd

    path = tmp_path / "two.csv"
    small_crowd(2).to_csv(path, index=False)
    ann = load_annotations(path)
    at = run(ann)
    assert not at.error
    info = [i.value.replace("\\", "") for i in at.info]
    assert any(
        v.startswith(
            "No judgement is worth asking for: each of the 2 annotators has already "
            "judged all 30 items. To get more: bring in new annotators"
        )
        for v in info
    ), info
    assert not any("or would gain nothing" in v for v in info)  # the old list of four
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert not any("after this batch" in (t.get("name") or "") for t in spec["data"])
    assert not any("The star is this batch" in c.value for c in at.caption)
    band = next(t for t in spec["data"] if t.get("name") == "interval")
    low, high = spec["layout"]["yaxis"]["range"]
    ys = spec_arrays(band, "y")
    assert low < ys.min() and ys.max() < high  # the band is not cut at the plot's edge

    # the plan table is the command line's, to the last digit (same draws and seed)
    table = next(d.value for d in at.dataframe if list(d.value.columns)[:2] == ["k", "accuracy"])
    assert main(["next-batch", str(path), "--budget", "5", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)["plan"]
    curve = pd.DataFrame(cli["curve"])
    for column in ("accuracy", "low", "high"):
        np.testing.assert_allclose(table[column], 100 * curve[column], rtol=0, atol=1e-9)
    page_reason = next(m.value for m in at.markdown if "A new run with annotators" in m.value)
    assert cli["reason"].split(";")[1].strip(" .") in page_reason.replace("\\", "")


def test_the_two_accuracies_are_explained_and_kappa_has_one_precision():
    at = run(crowd())
    two = next(c.value for c in at.caption if c.value.startswith("Two accuracies"))
    # the crowd sample: 99.2% now, with 5 judgements per item; a new run at 5: 95.5% (drawn
    # in name order; 95.6% when the draws followed the file's order)
    assert "'now' on the chart (99.2%, 5.0 judgements per item)" in two
    assert "The table (95.5% at 5) is a new run from scratch" in two
    kappas = [
        re.search(r"Fleiss' kappa (\d\.\d+)", c.value).group(1)
        for c in at.caption
        if "Fleiss' kappa" in c.value
    ]
    assert len(kappas) == 2 and kappas[0] == kappas[1] and len(kappas[0].split(".")[1]) == 3


def test_second_judgements_without_named_annotators_are_called_rough():
    at = run(crowd())
    batch = next(d.value for d in at.dataframe if "expected_gain" in d.value.columns)
    assert batch["item"].duplicated().any()  # some item gets a second judgement
    said = " ".join(c.value for c in at.caption)
    assert "as if the first came from an average annotator" in said
    at.checkbox(key="nl_assign").check().run()
    assert not at.exception
    assert "average annotator" not in " ".join(c.value for c in at.caption)


def test_agreement_alone_caps_kappas_easy_share_at_the_agreed_items():
    """The sample's kappa (0.486) would make more items easy than the 87 of 300 every
    annotator agrees on: the agreement-alone column starts from 29%, and says so."""
    from analytics.noise import adding_annotators, equal_rates

    ann = crowd()
    at = run(ann)
    said = [c.value for c in at.caption if "capped at the 29.0% of items" in c.value]
    assert len(said) == 2, [c.value for c in at.caption]
    table = next(d.value for d in at.dataframe if "judgements per item" in d.value.columns)
    alone = [c for c in table.columns if c not in ("judgements per item",)][-1]
    expected = adding_annotators(ann.n_items, 0.29, equal_rates(ann.n_categories), [5, 7])
    np.testing.assert_allclose(table[alone].to_numpy(), 100 * expected["gamma"].to_numpy())


def test_the_target_slider_reads_in_percent_as_the_sentences_beside_it():
    at = run(crowd())
    slider = next(s for s in at.slider if s.label.startswith("Target accuracy"))
    assert slider.label.endswith("(%)") and slider.value == 95.0
    slider.set_value(97.5).run()
    assert not at.exception
    text = "\n".join(m.value for m in [*at.markdown, *at.caption, *at.info])
    assert "97.5%" in text.replace("\\", "")


def test_the_model_follows_the_gold_labels_pages_settings():
    """Next labels fitted with the defaults while the Overview, the report and the Export
    followed the Gold labels page's Dawid-Skene settings (smoothing 2: 36 items below 0.9
    on the Overview, but the same batch and 'now' here as with smoothing 0.01)."""
    from streamlit.testing.v1 import AppTest

    from analytics import format_percent
    from analytics.dawid_skene import fit
    from tests.helpers.paths import ROOT
    from ui.settings import SETTINGS_KEY

    ann = crowd()
    at = AppTest.from_file(str(ROOT / "pages" / "next_labels.py"), default_timeout=120)
    at.session_state["concord_annotations"] = ann
    at.session_state[SETTINGS_KEY] = {ann.fingerprint: {"ds_smoothing": 2.0}}
    at.run()
    assert not at.exception and not at.error
    smoothed = fit(ann, smoothing=2.0)
    assert format_percent(smoothed.confidence.mean()) != format_percent(fit(ann).confidence.mean())
    two = next(c.value for c in at.caption if c.value.startswith("Two accuracies"))
    assert f"'now' on the chart ({format_percent(smoothed.confidence.mean())}," in two
    batch = at.dataframe[0].value
    current = smoothed.confidence.reindex(batch["item"]).to_numpy()
    np.testing.assert_allclose(batch["current_confidence"].to_numpy(), current)
    said = next(c.value for c in at.caption if "Model:" in c.value).replace("\\", "")
    assert "smoothing 2," in said and "Gold labels page" in said

    # back to the defaults: the batch and the curve are not the cached smoothed ones
    at.session_state[SETTINGS_KEY] = {}
    at.run()
    two = next(c.value for c in at.caption if c.value.startswith("Two accuracies"))
    assert f"'now' on the chart ({format_percent(fit(ann).confidence.mean())}," in two
    assert "smoothing 0.01," in next(c.value for c in at.caption if "Model:" in c.value).replace(
        "\\", ""
    )


def run_with_uploaded_gold(gold: pd.Series):
    """The crowd sample with a gold file uploaded on the Gold labels page (not a sample's)."""
    from streamlit.testing.v1 import AppTest

    from tests.helpers.paths import ROOT

    ann = crowd()
    at = AppTest.from_file(str(ROOT / "pages" / "next_labels.py"), default_timeout=120)
    at.session_state["concord_annotations"] = ann
    at.session_state["concord_gold"] = (ann.fingerprint, "gold.csv", "digest", gold)
    at.run()
    assert not at.exception
    return at


def test_an_uploaded_gold_file_is_named_as_such_beside_the_curve():
    """The caption called an uploaded gold file 'the sample's true labels'."""
    from analytics.data import sample_truth

    at = run_with_uploaded_gold(sample_truth("crowd_intents"))
    from tests.helpers.markup import shown

    captions = " ".join(shown(c.value) for c in at.caption)
    assert "is today's labels against your gold labels (gold.csv): its gap" in captions
    assert "sample's" not in captions
    # its percentage is not a second bracket after the file's name: "(gold.csv) (96.0%)"
    assert "The open circle, 96.0%, is today's labels" in captions


def test_gold_that_cannot_be_scored_leaves_the_curve_and_the_plan():
    """Gold labels none of which is a category made the whole 'How many labels are enough?'
    section an error; only the gold point needs the gold labels."""
    at = run_with_uploaded_gold(pd.Series({"msg001": "no such intent", "msg002": "nor this one"}))
    assert any("not among the categories" in e.value for e in at.error)
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert any(t.get("name") == "now" for t in spec["data"])
    assert not any(t.get("name") == "now, against the true labels" for t in spec["data"])
    assert any("per item reach the target expected accuracy" in m.value for m in at.markdown)


def test_numbers_on_a_scale_are_refused_in_plain_words():
    """Scores of many values have no categories to plan judgements for: the page says so
    at once, by the models' rule, where it had spent about 30 s planning over every value."""
    from tests.helpers.builders import scores_on_a_scale
    from tests.helpers.markup import shown

    at = run_page("next_labels", Annotations.from_frame(scores_on_a_scale()), timeout=120)
    assert not at.exception
    errors = [shown(e.value) for e in at.error]
    assert any("numbers on a scale" in e and "Data page" in e for e in errors), errors
    assert not at.get("plotly_chart")
