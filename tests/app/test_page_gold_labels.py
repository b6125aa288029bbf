"""The Gold labels page (annotator models, and the views the Dawid-Skene page had), with AppTest."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from analytics import Annotations
from tests.helpers.app import run_page
from tests.helpers.paths import ROOT, load_public

# tables whose attrs hold frames (the comparison's labels, the pairwise matrix) are shown
# without them: Streamlit warned on every rerun that it could not serialise them
pytestmark = pytest.mark.filterwarnings("error:Could not serialize pd.DataFrame.attrs")

SECTIONS = [
    "Models compared",
    "Annotators",
    "Prevalence and confidence",
    "Item browser",
    "Where models disagree",
    "Against gold",
    "Model uncertainty",
    "Fit details",
]
MODELS = ["auto", "majority", "one_coin", "mace", "glad", "dawid_skene", "hierarchical"]


def bluebirds() -> Annotations:
    labels, _ = load_public("welinder_bluebirds")
    return Annotations.from_frame(labels, name="bluebirds")


def bluebird_gold_csv() -> bytes:
    _, gold = load_public("welinder_bluebirds")
    return gold.to_csv(index=False).encode()


def run(ann):
    at = run_page("gold_labels", ann, timeout=180)
    assert not at.exception, at.exception
    return at


def frames(at):
    return [d.value for d in at.dataframe]


def titles(at):
    return [json.loads(c.proto.spec)["layout"]["title"]["text"] for c in at.get("plotly_chart")]


def show(at, section: str):
    at.segmented_control(key="gl_section").set_value(section).run()
    assert not at.exception, (section, at.exception)
    return at


def test_no_data_shows_info():
    at = run(None)
    assert at.info and "No data set is loaded" in at.info[0].value


def test_the_gold_uploader_offers_the_size_the_reader_takes():
    """It offered the app's 1GB per file; the gold reader stops at 200 MiB."""
    from analytics.data import DEFAULT_LIMITS

    at = run(bluebirds())
    uploader = next(u.proto for u in at.get("file_uploader") if "Gold labels" in u.proto.label)
    assert uploader.max_upload_size_mb == DEFAULT_LIMITS.max_bytes // 2**20 == 200


def test_auto_compares_and_says_why():
    at = run(bluebirds())
    assert not at.error
    assert at.selectbox(key="gl_model").value == "auto"  # auto is the default
    assert any("auto stacked 4 models" in i.value for i in at.info)
    table = next(f for f in frames(at) if "heldout_ll" in f.columns)
    assert table.index[0] == "hierarchical" and len(table) == 6
    # the best model's paired SE against itself is a dash, the others' three decimals
    from ui.widgets import MISSING

    assert table.loc["hierarchical", "heldout_se"] == MISSING
    assert all(len(v.split(".")[1]) == 3 for v in table["heldout_se"].drop("hierarchical"))
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert spec["data"][0]["type"] == "bar"
    assert any(s.value.startswith("The chosen model: auto: 4 models stacked") for s in at.subheader)
    weights = next(f for f in frames(at) if "weight" in f.columns)
    assert abs(weights["weight"].sum() - 1) < 1e-9
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Items"] == "108" and metrics["At least 90% sure"].endswith("%")
    # every table and figure has its download; the labels download is there too
    buttons = at.get("download_button")
    assert len(buttons) >= len(frames(at)) + len(at.get("plotly_chart")) + 1


def test_every_view_renders_for_every_model():
    at = run(bluebirds())
    for model in MODELS:
        at.selectbox(key="gl_model").set_value(model).run()
        assert not at.exception, model
        for section in SECTIONS:
            show(at, section)
            assert not at.error, (model, section, [e.value for e in at.error])
            charts = len(at.get("plotly_chart"))
            # majority vote has no iterations: no likelihood curve to draw
            fit_charts = 0 if model == "majority" else 1
            expected = {"Annotators": 2, "Prevalence and confidence": 2, "Fit details": fit_charts}
            assert charts == expected.get(section, 1 if section == "Models compared" else 0), (
                model,
                section,
            )
        heads = [s.value for s in at.subheader]
        assert any(h.startswith("The chosen model") for h in heads), model


def test_annotator_views_of_the_chosen_model():
    at = run(bluebirds())
    at.selectbox(key="gl_model").set_value("dawid_skene").run()
    show(at, "Annotators")
    heat = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert sum(t["type"] == "heatmap" for t in heat["data"]) == 6
    table = next(f for f in frames(at) if "spammer score" in f.columns)
    assert len(table) == 39 and table["accuracy"].is_monotonic_increasing
    at.segmented_control(key="gl_pick").set_value("most accurate").run()
    heat2 = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert heat2["layout"]["annotations"][0]["text"] != heat["layout"]["annotations"][0]["text"]
    # another model, other matrices: MACE's are built from trust and spam
    at.selectbox(key="gl_model").set_value("mace").run()
    mace = next(f for f in frames(at) if "spammer score" in f.columns)
    assert not mace["accuracy"].sort_index().equals(table["accuracy"].sort_index())


def test_prevalence_items_disagreements_and_fit_details():
    at = run(bluebirds())
    show(at, "Prevalence and confidence")
    assert any("raw frequency" in f.columns for f in frames(at))
    show(at, "Item browser")
    low = next(f for f in frames(at) if "confidence" in f.columns and "item" in f.columns)
    assert (low["confidence"] < 0.99).all()
    judged = next(f for f in frames(at) if "p(label | model label)" in f.columns)
    assert len(judged) == 39  # every annotator labelled every bluebird
    at.slider(key="gl_below").set_value(0.01).run()  # the lowest: below every top posterior
    assert any("sure of every label" in i.value for i in at.info)
    show(at, "Where models disagree")
    view = next(f for f in frames(at) if "disagree" in f.columns)
    assert (view["disagree"] >= 1).all() and view["disagree"].is_monotonic_decreasing
    pairwise = next(f for f in frames(at) if list(f.index) == list(f.columns))
    assert "auto" in pairwise.index and (pairwise.to_numpy().diagonal() == 0).all()
    show(at, "Fit details")
    assert fit_settings(at)["model"] == "auto"
    assert any("Newton steps, certified optimal" in c.value for c in at.caption)
    # auto's parts with their own fits, so nobody has to pick each model to see them
    parts = next(f for f in frames(at) if "iterations" in f.columns)
    assert {"weight", "converged", "seconds"} <= set(parts.columns)
    assert parts["weight"].sum() == pytest.approx(1.0) and parts["converged"].all()


def test_choosing_a_model_and_bootstrapping():
    at = run(bluebirds())
    at.selectbox(key="gl_model").set_value("mace").run()
    assert not at.exception
    assert any(s.value.startswith("The chosen model: MACE") for s in at.subheader)
    show(at, "Model uncertainty")
    at.select_slider(key="gl_nboot").set_value(20)
    at.toggle(key="gl_boot").set_value(True).run()
    assert not at.exception
    assert any(m.label.startswith("Items whose label changes") for m in at.metric)
    assert any("item bootstrap" in c.value for c in at.caption)
    assert any(t.startswith("Annotator accuracy (bootstrap)") for t in titles(at))
    at.run()  # kept: the rerun draws the same result without refitting or a replay error
    assert not at.exception


def test_a_gold_file_with_items_beyond_the_data_is_scored_on_the_overlap():
    """A whole set's gold beside part of its judgements: evaluated, not refused."""
    extra = bluebird_gold_csv() + b"not_a_bird_1,1\nnot_a_bird_2,0\n"
    at = run(bluebirds())
    show(at, "Against gold")
    at.file_uploader(key="gl_gold").set_value(("gold.csv", extra, "text/csv")).run()
    assert not at.exception and not at.error
    title = "Against your gold labels (gold.csv; 2 labels for items not in this data set left out)"
    assert any(s.value == title for s in at.subheader)
    gold_rows = next(f for f in frames(at) if "ece" in f.columns)
    assert gold_rows.loc["auto", "gold_items"] == 108


def test_gold_upload_shows_the_evaluation():
    at = run(bluebirds())
    show(at, "Against gold")
    assert any("Upload gold labels" in i.value for i in at.info)
    at.file_uploader(key="gl_gold").set_value(("gold.csv", bluebird_gold_csv(), "text/csv")).run()
    assert not at.exception and not at.error
    assert any(s.value == "Against your gold labels (gold.csv)" for s in at.subheader)
    assert any(m.label == "Right on gold" for m in at.metric)
    gold_rows = next(f for f in frames(at) if "ece" in f.columns)
    assert gold_rows.loc["auto", "accuracy"] == 97 / 108
    assert gold_rows.loc["dawid_skene", "accuracy"] > gold_rows.loc["majority", "accuracy"]
    assert any("gold_judgements" in f.columns for f in frames(at))
    assert any(t.startswith("Calibration on gold items") for t in titles(at))
    show(at, "Models compared")
    table = next(f for f in frames(at) if "heldout_ll" in f.columns)
    assert table.loc["dawid_skene", "accuracy"] == gold_rows.loc["dawid_skene", "accuracy"]
    # clamping the gold labels leaves them out of the chosen model's evaluation
    at.checkbox(key="gl_clamp").check().run()
    assert not at.exception
    show(at, "Against gold")
    clamped = next(f for f in frames(at) if "ece" in f.columns)
    assert clamped.loc["auto", "gold_items"] == 0
    # every gold item clamped: said, not "upload gold labels" beside the ones just uploaded
    assert any("Every item with a gold label was clamped" in i.value for i in at.info)
    assert not [w for w in at.warning if "upload gold labels" in w.value]
    # a bad gold file is refused in words, not a traceback
    at.file_uploader(key="gl_gold").set_value(
        ("bad.csv", b"item,label\nnope,1\n", "text/csv")
    ).run()
    assert not at.exception and at.error


def fit_settings(at) -> dict[str, str]:
    """Fit details' settings table, setting -> value (text)."""
    table = next(f for f in frames(at) if list(f.columns) == ["setting", "value", "meaning"])
    assert (table["meaning"].loc[table["setting"].isin(["model", "n_gold"])] != "").all()
    return dict(zip(table["setting"], table["value"], strict=True))


def test_dawid_skene_settings_apply_and_are_remembered_for_the_report():
    at = run(bluebirds())
    at.selectbox(key="gl_model").set_value("dawid_skene").run()
    at.selectbox(key="gl_init").set_value("soft").run()
    at.number_input(key="gl_smoothing").set_value(0.5).run()
    assert not at.exception
    show(at, "Fit details")
    settings = fit_settings(at)
    assert settings["init"] == "soft" and settings["smoothing"] == "0.5"
    kept = next(iter(at.session_state["concord_page_settings"].values()))
    assert kept["ds_init"] == "soft" and kept["ds_smoothing"] == 0.5


def test_multilabel_and_degenerate_data_explained():
    ml = Annotations.from_frame(
        pd.DataFrame({"item": ["a", "a"], "annotator": ["x", "y"], "label": ["p;q", "p"]}),
        multilabel_sep=";",
    )
    at = run(ml)
    assert not at.exception and not at.error
    assert "one yes/no" in at.info[0].value
    per_cat = next(d.value for d in at.dataframe if "prevalence" in d.value.columns)
    assert list(per_cat["category"]) == ["p", "q"]
    assert "at least 99% sure" in per_cat.columns  # not bare "sure": the Overview's is 90%
    one = Annotations.from_frame(
        pd.DataFrame({"item": ["a", "b"], "annotator": ["x", "x"], "label": ["p", "q"]})
    )
    at = run(one)
    assert not at.error
    assert any("only one annotator" in w.value for w in at.warning)
    assert any("No item has two judgements" in i.value for i in at.info)
    for section in SECTIONS:
        show(at, section)


def test_only_the_models_the_data_allow_are_offered():
    # GLAD needs two annotators: offered on one annotator's data, choosing it stopped the
    # page with a KeyError (no fit of it among the results)
    one = Annotations.from_frame(
        pd.DataFrame({"item": list("abcdef"), "annotator": ["x"] * 6, "label": list("pqpqpq")})
    )
    at = run(one)
    options = at.selectbox(key="gl_model").options
    assert "GLAD (ability and item difficulty)" not in options
    assert options[0].startswith("auto") and "Dawid-Skene (full confusion)" in options
    for model in ("majority", "one_coin", "mace", "dawid_skene", "hierarchical"):
        at.selectbox(key="gl_model").set_value(model).run()  # every model offered fits them
        assert not at.exception, (model, at.exception)


def test_a_count_table_is_refused_in_plain_words():
    from analytics.data import from_count_table
    from tests.agreement.test_count_tables import DISTRIB_6RATERS
    from tests.helpers.markup import shown

    at = run(from_count_table(DISTRIB_6RATERS))
    errors = [shown(e.value) for e in at.error]
    assert any("anonymous" in e for e in errors), errors
    assert not any("Traceback" in e for e in errors)


def run_sample(key: str, **state) -> AppTest:
    """The page on a bundled sample, loaded as the app loads it (with its source)."""
    from analytics.data import SAMPLES, load_sample

    at = AppTest.from_file(str(ROOT / "pages" / "gold_labels.py"), default_timeout=180)
    at.session_state["concord_annotations"] = load_sample(key)
    at.session_state["concord_source"] = f"sample: {SAMPLES[key].title}"
    at.session_state["concord_sample"] = key
    for name, value in state.items():
        at.session_state[name] = value
    at.run()
    assert not at.exception, at.exception
    return at


def gold_tables(at):
    return [f for f in frames(at) if "ece" in f.columns]


def test_a_sample_with_known_truth_is_compared_with_it_by_default():
    at = run_sample("crowd_intents")
    assert not at.error
    assert at.checkbox(key="gl_sample_truth").value
    show(at, "Against gold")
    assert any("known true labels" in h.value for h in at.subheader)
    (acc,) = gold_tables(at)
    assert acc.loc["auto", "gold_items"] == 300
    assert 0.9 < acc.loc["dawid_skene", "accuracy"] <= 1.0
    # switched off: no comparison
    at.checkbox(key="gl_sample_truth").uncheck().run()
    assert not at.exception and not gold_tables(at)


def test_no_truth_offered_for_a_sample_without_one_or_for_other_data():
    at = run_sample("ratings_ordinal")
    assert not at.error
    assert not [c for c in at.checkbox if c.key == "gl_sample_truth"]
    # the same data set, but not loaded as the sample (e.g. set by a script): no truth
    at = run_sample("crowd_intents", concord_source="set by a script", concord_sample=None)
    assert not [c for c in at.checkbox if c.key == "gl_sample_truth"]
    show(at, "Against gold")
    assert not gold_tables(at)


def test_fit_details_give_every_models_fit_time():
    # the models auto fitted are reused for the Model choice: they said "(nan s)"
    import re

    from analytics.data import load_sample

    at = run(load_sample("crowd_intents"))
    for model in ("one_coin", "dawid_skene"):
        at.selectbox(key="gl_model").set_value(model).run()
        show(at, "Fit details")
        (line,) = [c.value for c in at.caption if "iterations" in c.value]
        assert re.fullmatch(r"\d+ iterations, [a-z ]+ \(\d+\.\d\d s\)\.", line), (model, line)
    at.selectbox(key="gl_model").set_value("auto").run()
    show(at, "Fit details")
    (line,) = [c.value for c in at.caption if c.value.startswith("Weights:")]
    assert re.fullmatch(r"Weights: \d+ Newton steps, [a-z ]+ \(\d+\.\d\d s\)\.", line), line
    parts = next(f for f in frames(at) if "seconds" in f.columns)
    assert parts["seconds"].notna().all()  # each part's own fit time
    at.selectbox(key="gl_model").set_value("majority").run()
    show(at, "Fit details")
    assert any(c.value.startswith("Counted in one pass") for c in at.caption)
    assert not [c for c in at.caption if "iterations," in c.value]
    settings = fit_settings(at)
    assert len(settings["seconds"]) <= 6  # 0.001, not 0.0005027889997109014
    assert not at.json  # a table to read, with what each setting means, not a JSON dump


def test_majority_vote_claims_no_uncertainty_it_does_not_model():
    # its posteriors are 1 for any clear winner: the page called 96% of its labels sure and
    # about 2% wrong ("Good"), and majority vote 98% "Same as majority" (ties count 1/t)
    at = run(bluebirds())
    at.selectbox(key="gl_model").set_value("majority").run()
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Same as majority"] == "itself"
    # a 3-2 vote is not "90% sure": the metric counts the items without a tie
    assert "At least 90% sure" not in metrics and metrics["Without a tie"].endswith("%")
    assert any("no model of its own uncertainty" in i.value for i in at.info)
    alerts = [*at.success, *at.warning, *at.error]
    assert not [a for a in alerts if "labels are wrong" in a.value]
    at.selectbox(key="gl_model").set_value("dawid_skene").run()
    alerts = [*at.success, *at.warning, *at.error]
    rte = "Dawid-Skene on the RTE crowd data of Snow et al. 2008"
    assert any(rte in a.value.replace("\\", "") for a in alerts)  # shown escaped
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Same as majority"].endswith("%")
    assert "Without a tie" not in metrics and metrics["At least 90% sure"].endswith("%")


# Small crowds of 30 items whose labels are p(os), n(eg) or neu(u), one string per annotator:
# with two annotators auto puts all the weight on GLAD; with four it stacks Dawid-Skene and
# the hierarchical model, which label every item alike.
CROWD = {
    "ann1": "pnnupuppnppuupupnupnnuppnnpupu",
    "ann2": "pnnupupuuppuupupnupnnuppnnpupu",
    "ann3": "pnnununnnuppnupnnupnnuppnnnupu",
    "ann4": "pnnununuupnuunupuununnppunpppu",
}
TRUTH = "pnnupuppuppuupupnupnnuppnnpupu"
WORDS = {"p": "pos", "n": "neg", "u": "neu"}


def crowd(annotators: int) -> Annotations:
    names = list(CROWD)[:annotators]
    rows = [(f"item{i:02d}", a, WORDS[CROWD[a][i]]) for i in range(len(TRUTH)) for a in names]
    frame = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    return Annotations.from_frame(frame, name=f"crowd of {annotators}")


def truth_csv() -> bytes:
    rows = "".join(f"item{i:02d},{WORDS[c]}\n" for i, c in enumerate(TRUTH))
    return ("item,label\n" + rows).encode()


def heading(at) -> str:
    (head,) = [s.value for s in at.subheader if s.value.startswith("The chosen model")]
    return head


def test_the_headline_names_the_one_model_auto_chose():
    # auto kept GLAD alone, and the headline read "auto (models stacked without gold)"
    at = run(crowd(2))
    assert heading(at) == "The chosen model: auto: GLAD, chosen without gold (held-out likelihood)"
    assert any("auto chose glad" in i.value for i in at.info)
    assert not [s for s in at.subheader if "stack" in s.value]
    show(at, "Models compared")
    assert not [f for f in frames(at) if list(f.columns) == ["weight"]]  # no stack to weigh


def test_the_headline_of_a_stack_gives_its_models_and_weights():
    at = run(crowd(4))
    assert heading(at) == (
        "The chosen model: auto: 2 models stacked without gold (held-out likelihood): "
        "Dawid-Skene 77%, hierarchical Dawid-Skene 23%"
    )
    weights = next(f for f in frames(at) if list(f.columns) == ["weight"])
    assert weights["weight"].round(2).to_dict() == {"dawid_skene": 0.77, "hierarchical": 0.23}


def test_two_models_that_agree_on_every_item_are_not_sent_to_compare_labels():
    # it said "The two label 0.0% of the items differently ... compare their labels"
    at = run(crowd(4))
    (note,) = [i.value for i in at.info if "auto stacked" in i.value]
    assert "agree on every item" in note
    assert "compare their labels" not in note and "0\\.0\\%" not in note


def test_sure_means_what_it_means_on_the_overview():
    # the tile said "Sure labels" at a posterior of 0.99 (in a tooltip only), where the
    # Overview calls a label unsure below 90%
    from analytics.models import fit
    from analytics.overview import SURE

    ann = crowd(4)
    at = run(ann)
    metrics = {m.label: m.value for m in at.metric}
    assert SURE == 0.9 and "Sure labels" not in metrics
    expected = (fit(ann).confidence >= SURE).mean()
    assert metrics["At least 90% sure"] == f"{expected:.1%}" == "100.0%"  # 96.7% at 0.99
    show(at, "Prevalence and confidence")
    share = next(f for f in frames(at) if "confident items" in f.columns)
    assert share["share of all items"].iloc[-1] == pytest.approx(expected)
    (hist,) = [
        json.loads(c.proto.spec) for c in at.get("plotly_chart") if "How sure" in str(c.proto.spec)
    ]
    assert "of items at or above 0.9" in hist["layout"]["annotations"][-1]["text"]


def interval_formats(at) -> list[set[str]]:
    """How each table's interval columns (both ends and the estimate) are drawn: a printf
    format, or the decimals of the texts a column with a missing cell is drawn as."""
    import re

    found = []
    for element in at.dataframe:
        df, config = element.value, json.loads(element.proto.columns or "{}")
        ends = [c for c in df.columns if c in ("low", "high") or str(c).endswith(("_low", "_high"))]
        forms = set()
        for c in ends + [c for c in ("estimate", "accuracy") if ends and c in df.columns]:
            form = config.get(c, {}).get("type_config", {}).get("format")
            if form is None and df[c].dtype == object:  # texts: "0.900" or "–"
                form = {f"{len(m)} decimals" for m in re.findall(r"\.(\d+)", " ".join(df[c]))}
                form = "/".join(sorted(form))
            forms.add(str(form))
        if forms:
            found.append(forms)
    return found


def test_every_interval_has_the_same_precision_at_both_ends():
    # "0.43 to 0.798": the grid trims trailing zeros unless a format is given, and the gold
    # table drew an all-1.0 upper end as "1" beside "0.867"
    at = run(crowd(4))
    at.file_uploader(key="gl_gold").set_value(("gold.csv", truth_csv(), "text/csv")).run()
    assert not at.exception and not at.error
    seen = []
    for section in ("Models compared", "Against gold"):
        seen += interval_formats(show(at, section))
    show(at, "Model uncertainty")
    at.select_slider(key="gl_nboot").set_value(20)
    at.toggle(key="gl_boot").set_value(True).run()
    seen += interval_formats(at)
    assert len(seen) == 5, seen  # comparison, gold, annotators on gold, two bootstrap tables
    assert all(forms == {"%.3f"} for forms in seen), seen


def test_multilabel_models_are_scored_against_the_samples_true_sets_and_an_upload():
    """The affect sample ships true label sets that no page used."""
    from analytics.data import load_sample, sample_truth

    at = AppTest.from_file(str(ROOT / "pages" / "gold_labels.py"), default_timeout=180)
    at.session_state["concord_annotations"] = load_sample("affect_multilabel")
    at.session_state["concord_sample"] = "affect_multilabel"
    at.run()
    assert not at.exception  # the verdict on 16.7% wrong is an error box: bad, by the rule
    assert any(s.value == "Against the sample's known true labels" for s in at.subheader)
    from tests.helpers.markup import shown

    said = " ".join(shown(e.value) for e in [*at.error, *at.warning])
    assert "Against the 300 items with known label sets, 16.7%" in said
    scored = next(d.value for d in at.dataframe if "majority" in d.value.columns)
    assert scored.index[-1] == "whole set"
    # an upload of part of the sets replaces them
    part = sample_truth("affect_multilabel").iloc[:50]
    csv = part.rename_axis("item").reset_index(name="label").to_csv(index=False).encode()
    at.file_uploader(key="gl_gold").set_value(("sets.csv", csv, "text/csv")).run()
    assert not at.exception
    scored = next(d.value for d in at.dataframe if "majority" in d.value.columns)
    assert (scored["gold_items"] == 50).all()


def test_auto_falling_back_to_majority_vote_shows_majority_votes_metrics():
    """Fewer than ten items judged twice: auto is majority vote, and the page reads it as
    one (no "At least 90% sure" of a vote)."""
    rows = [
        (f"i{i}", a, "x" if (i + k) % 3 else "y") for i in range(6) for k, a in enumerate("abc")
    ]
    at = run(Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"])))
    metrics = {m.label: m.value for m in at.metric}
    assert "Without a tie" in metrics and "At least 90% sure" not in metrics
    assert metrics["Same as majority"] == "itself"


def test_annotator_accuracy_tables_list_annotators_as_their_figures_do():
    """The figure put the least accurate annotator at the top, the table below it the most
    accurate: both read least accurate first now (on gold, and in the item bootstrap)."""
    at = run(bluebirds())
    show(at, "Against gold")
    at.file_uploader(key="gl_gold").set_value(("gold.csv", bluebird_gold_csv(), "text/csv")).run()
    assert not at.exception and not at.error

    def drawn(title: str) -> list[str]:
        spec = next(
            json.loads(c.proto.spec)
            for c in at.get("plotly_chart")
            if json.loads(c.proto.spec)["layout"]["title"]["text"].startswith(title)
        )
        return [str(y) for y in spec["data"][0]["y"]]  # top to bottom (reversed axis)

    table = next(f for f in frames(at) if "gold_judgements" in f.columns)
    order = drawn("Annotators on the gold items")
    assert [str(a) for a in table.index[: len(order)]] == order
    assert table["accuracy"].is_monotonic_increasing

    show(at, "Model uncertainty")
    at.select_slider(key="gl_nboot").set_value(20)
    at.toggle(key="gl_boot").set_value(True).run()
    assert not at.exception
    boot = next(f for f in frames(at) if "estimate" in f.columns and len(f) > 5)
    order = drawn("Annotator accuracy (bootstrap)")
    assert [str(a) for a in boot.index[: len(order)]] == order


def test_a_handful_of_right_gold_items_does_not_read_good():
    """Five spot-checked gold items, all right, had read 'Good. ... 0.0% of the model's
    labels are wrong (0 of 5)': five items cannot tell good labels from bad ones."""
    labels, _ = load_public("welinder_bluebirds")
    votes = labels.groupby("item")["label"].agg(lambda s: s.value_counts().iloc[0] / len(s))
    clear = votes.sort_values(ascending=False).index[:5]  # every model labels these alike
    winners = (
        labels[labels["item"].isin(clear)]
        .groupby("item")["label"]
        .agg(lambda s: s.value_counts().index[0])
    )
    csv = winners.rename_axis("item").reset_index(name="label").to_csv(index=False).encode()
    at = run(bluebirds())
    at.file_uploader(key="gl_gold").set_value(("gold.csv", csv, "text/csv")).run()
    assert not at.exception
    from tests.helpers.markup import shown

    said = " ".join(shown(a.value) for a in [*at.success, *at.warning, *at.error])
    assert "Against the 5 items with known gold labels, 0.0%" in said
    assert "too few to call it good" in said
    assert not any("known gold labels" in s.value for s in at.success)


def test_numbers_on_a_scale_are_refused_in_plain_words():
    """Scores of many values: the page says why the models do not apply and what to do,
    at once, where it had spent 35 s fitting every value as a category."""
    from tests.helpers.builders import scores_on_a_scale
    from tests.helpers.markup import shown

    at = run(Annotations.from_frame(scores_on_a_scale()))
    errors = [shown(e.value) for e in at.error]
    assert any("numbers on a scale" in e and "Data page" in e for e in errors), errors
    assert not at.get("plotly_chart")
