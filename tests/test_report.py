"""The HTML report and its zip: self-contained, every section, degenerate data explained."""

from __future__ import annotations

import io
import zipfile

import pandas as pd
import pytest

from analytics import AnnotationDataError, Annotations
from analytics.agreement import default_distance
from analytics.data import load_sample
from analytics.report import SECTIONS, build_report, build_report_zip, report_blocks


@pytest.fixture(scope="module")
def crowd():
    return load_sample("crowd_intents")


def test_report_is_self_contained_and_has_every_section(crowd):
    html = build_report(crowd, n_boot=50)
    assert html.startswith("<!DOCTYPE html>")
    assert html.count('<script type="text/javascript">') == 1 or "plotly.js" in html
    assert "<script src=" not in html  # plotly.js embedded, nothing fetched
    for title in ("Data", "Agreement", "Noise of the agreed subset", "Dawid-Skene annotator model"):
        assert f">{title}</h2>" in html
    assert "Krippendorff" in html and "crowd_intents.csv" in html
    assert html.count('class="plotly-graph-div"') >= 8


def test_title_and_section_choice(crowd):
    html = build_report(crowd, sections=["summary"], title="Weekly check")
    assert "<title>Weekly check</title>" in html and ">Agreement</h2>" not in html
    with pytest.raises(ValueError, match="unknown report sections"):
        build_report(crowd, sections=["nope"])


def test_multilabel_report_has_the_multilabel_section():
    html = build_report(load_sample("affect_multilabel"), n_boot=50)
    assert ">Multi-label agreement</h2>" in html and "A_m" in html
    assert "Gold standard (Algorithm 1)" in html


def test_zip_holds_the_report_and_every_table_as_csv(crowd):
    data = build_report_zip(crowd, n_boot=50)
    zf = zipfile.ZipFile(io.BytesIO(data))
    names = zf.namelist()
    assert "report.html" in names
    tables = [n for n in names if n.startswith("tables/") and n.endswith(".csv")]
    n_table_blocks = sum(b.kind == "table" for b in report_blocks(crowd, n_boot=50))
    assert len(tables) == n_table_blocks >= 8
    model_labels = pd.read_csv(zf.open(next(n for n in tables if "most_likely_labels" in n)))
    assert len(model_labels) == crowd.n_items


def test_degenerate_data_is_explained_not_fatal():
    one = Annotations.from_frame(
        pd.DataFrame({"item": ["a", "b"], "annotator": ["x", "x"], "label": ["p", "q"]})
    )
    html = build_report(one, n_boot=20)
    assert "<html" in html
    blocks = report_blocks(one, n_boot=20)
    assert {b.section for b in blocks} == {
        "overview",
        "summary",
        "agreement",
        "noise",
        "dawid_skene",
    }


def test_progress_callback_sees_every_section(crowd):
    seen = []
    report_blocks(crowd, sections=list(SECTIONS)[:2], n_boot=10, progress=seen.append)
    assert seen == ["Overview: can we benchmark on this?", "Data"]


def test_one_section_may_be_named_as_a_string(crowd):
    blocks = report_blocks(crowd, "summary")
    assert {b.section for b in blocks} == {"summary"}


def test_multilabel_report_includes_the_noise_bound_and_explains_dawid_skene():
    ann = load_sample("affect_multilabel")
    blocks = report_blocks(ann, n_boot=20)
    assert "noise" in {b.section for b in blocks}
    ds = report_blocks(ann, ["dawid_skene"])
    assert "one label per judgement" in ds[0].text  # says why, then fits per category
    table = next(b.table for b in ds if b.title == "One yes/no model per category")
    assert list(table["category"]) == list(ann.categories)


DF = pd.DataFrame(
    {
        "item": [1, 1, 2, 2, 3, 3, 4, 4],
        "annotator": ["a", "b"] * 4,
        "label": ["x", "x", "y", "y", "x", "y", "y", "y"],
    }
)
FUNCTIONS = [report_blocks, build_report, build_report_zip]


@pytest.mark.parametrize("function", FUNCTIONS)
@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"n_boot": -1}, "n_boot"),
        ({"n_boot": 2.5}, "n_boot"),
        ({"n_boot": "100"}, "n_boot"),
        ({"n_boot": None}, "n_boot"),
        ({"confidence": 1.5}, "confidence"),
        ({"confidence": 0}, "confidence"),
        ({"confidence": 95}, "confidence"),
        ({"confidence": float("nan")}, "confidence"),
        ({"confidence": "95%"}, "confidence"),
    ],
)
def test_bad_arguments_raise_up_front(function, kwargs, name):
    seen: list[str] = []
    with pytest.raises(AnnotationDataError, match=name):
        function(DF, ["summary", "noise"], progress=seen.append, **kwargs)
    assert seen == []  # refused before any section started


@pytest.mark.parametrize("function", FUNCTIONS)
@pytest.mark.parametrize("sections", [["nope"], ["summary", "Agreement"], [3]])
def test_unknown_sections_name_the_section_and_the_allowed_ones(function, sections):
    with pytest.raises(AnnotationDataError, match="unknown report sections") as info:
        function(DF, sections)
    text = str(info.value)
    assert repr(sections[-1]) in text
    assert all(s in text for s in SECTIONS)


def test_good_arguments_still_pass():
    blocks = report_blocks(DF, ["summary", "noise"], n_boot=0.0, confidence=0.9)
    assert {b.section for b in blocks} == {"summary", "noise"}
    assert not any(b.text.startswith("Not computed") and "confidence" in b.text for b in blocks)


def test_model_labels_are_not_called_gold_labels():
    blocks = report_blocks(DF, ["dawid_skene"], n_boot=0)
    titles = [b.title for b in blocks]
    assert "The model's most likely labels, with confidence" in titles
    assert not any("gold label" in t.lower() for t in titles)


def test_a_count_table_report_keeps_its_agreement_section():
    from analytics.data import from_count_table
    from tests.agreement.test_count_tables import DISTRIB_6RATERS

    blocks = report_blocks(from_count_table(DISTRIB_6RATERS), sections=["agreement"], n_boot=0)
    coefficients = next(b.table for b in blocks if b.title == "Agreement coefficients")
    values = coefficients.set_index("coefficient")["value"]
    assert round(values["Fleiss' kappa"], 7) == 0.4139265  # irrCAC README, distrib.6raters
    assert any("count table" in (b.text or "") for b in blocks)
    assert any(b.title == "Agreement per category" for b in blocks)


def test_overview_answers_are_not_prefixed_with_their_number(crowd):
    """The report wrote 'Caution. 1 of 20: 1 of 20 annotators labels near chance'."""
    from analytics.overview import overview

    answers = overview(crowd).answers
    blocks = report_blocks(crowd, ["overview"], n_boot=0)
    texts = [b.text for b in blocks if b.kind == "text"][1:]  # after 'What to do next'
    assert texts == [a.sentence for a in answers]
    assert not any(t.startswith(f"{a.number}: ") for t, a in zip(texts, answers, strict=True))


def test_known_gold_judges_the_overview_as_the_app_does(crowd, tmp_path):
    """With gold the overview's error answer is measured, not the model's own account (the
    app's Overview used the sample's truth while the downloaded report did not)."""
    from analytics.cli import main
    from analytics.data import sample_truth
    from tests.helpers.paths import ROOT

    gold = sample_truth("crowd_intents")
    text = " ".join(b.text or "" for b in report_blocks(crowd, "overview", gold=gold))
    assert "Against the 300 items with known gold labels" in text
    without = " ".join(b.text or "" for b in report_blocks(crowd, "overview"))
    assert "known gold labels" not in without and "own posteriors" in without
    path = tmp_path / "gold.csv"
    gold.rename_axis("item").reset_index(name="label").to_csv(path, index=False)
    out = tmp_path / "r.html"
    assert (
        main(
            [
                "report",
                str(ROOT / "sample_data" / "crowd_intents.csv"),
                "-o",
                str(out),
                "--bootstrap",
                "0",
                "--gold",
                str(path),
            ]
        )
        == 0
    )
    assert "Against the 300 items with known gold labels" in out.read_text(encoding="utf-8")


def test_the_settings_name_the_default_distance_they_used(crowd):
    """The report said "default distance for alpha" where the Export page named it."""
    text = " ".join(b.text or "" for b in report_blocks(crowd, "summary", n_boot=0))
    assert "nominal distance (the default for these labels) for alpha" in text
    ratings = load_sample("ratings_ordinal")
    text = " ".join(b.text or "" for b in report_blocks(ratings, "summary", n_boot=0))
    assert f"{default_distance(ratings)} distance (the default" in text


def test_the_agreement_headline_judges_the_reports_own_distance():
    from analytics import load_annotations
    from analytics.report_sections import agreement_blocks
    from analytics.report_settings import ReportSettings
    from tests.helpers.paths import SAMPLE_DATA

    ann = load_annotations(SAMPLE_DATA / "ratings_ordinal_wide.csv", kind="ordinal")
    headline = agreement_blocks(ann, ReportSettings(agreement_n_boot=0))[1]
    assert headline.text.startswith("Krippendorff's alpha (ordinal)")


def test_a_multilabel_set_of_empty_sets_is_reported_not_crashed():
    from analytics import load_annotations

    ann = load_annotations(
        pd.DataFrame(
            {
                "item": ["i0", "i0", "i1"],
                "annotator": ["a0", "a1", "a0"],
                "label": [frozenset(), frozenset(), frozenset()],
            }
        )
    )
    html = build_report(ann, n_boot=0)
    assert "Not computed for this data: every label set" in html


def test_known_gold_is_measured_in_the_dawid_skene_section_too(crowd):
    # the section had judged only the model's own posteriors (0.8% on RTE) while the
    # Overview of the same report measured 7.3% against gold
    from analytics.data import sample_truth

    blocks = report_blocks(crowd, ["dawid_skene"], gold=sample_truth("crowd_intents"))
    measured = [b for b in blocks if (b.text or "").startswith("Against the 300 items")]
    assert len(measured) == 1 and measured[0].verdict is not None
    assert "Accuracy on the gold labels" in [b.title for b in blocks]
    plain = report_blocks(crowd, ["dawid_skene"])
    assert not [b for b in plain if (b.text or "").startswith("Against the")]


def test_gold_the_model_cannot_score_leaves_the_overview_answered(crowd):
    """Gold labels none of which is a category made the whole overview section 'Not
    computed', while the app's Overview answers without that gold and says why: the report
    does the same."""
    gold = pd.Series({"msg001": "no such intent", "msg002": "nor this one"})
    blocks = report_blocks(crowd, "overview", gold=gold)
    text = " ".join(b.text or "" for b in blocks)
    assert "Not computed" not in text
    assert "could not be scored" in text and "not among the categories" in text
    assert sum(b.title.startswith(f"{n}. ") for b in blocks for n in range(1, 6)) == 5
    assert "own posteriors" in text  # question 4: the model's own account instead


def test_one_gold_item_is_one_item_in_the_report_too(crowd):
    gold = pd.Series({"msg001": "question"})
    blocks = report_blocks(crowd, ["overview", "dawid_skene"], gold=gold)
    text = " ".join(b.text or "" for b in blocks)
    assert "1 items" not in text and "Against the 1 item with known gold labels" in text


def test_the_dawid_skene_section_is_not_computed_on_numbers_on_a_scale():
    """Scores on a scale have no categories to model: the Overview leaves its model answers
    undefined and the pages refuse the models, but the report's Dawid-Skene section fitted
    80 values as categories, judged the labels "Bad" and drew 80 x 80 confusion matrices
    (54 MB of HTML on 200 items scored 0-100)."""
    from tests.helpers.builders import scores_on_a_scale

    ann = Annotations.from_frame(scores_on_a_scale())
    blocks = report_blocks(ann, ["dawid_skene"], n_boot=0)
    assert [b.kind for b in blocks] == ["text"]
    assert blocks[0].text.startswith(
        "Not computed for this data: the labels are numbers on a scale"
    )
    assert blocks[0].verdict is None


def test_the_dawid_skene_section_counts_iterations_in_words(crowd):
    """A fit stopped after one iteration read "1 iterations"."""
    from analytics.report import ReportSettings

    for n, words in ((1, "1 iteration,"), (3, "3 iterations,")):
        html = build_report(
            crowd, ["dawid_skene"], n_boot=0, settings=ReportSettings(ds_max_iter=n)
        )
        assert f"fitted by EM, {words}" in html
