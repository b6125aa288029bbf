"""The Multi-label page, run headless with streamlit's AppTest."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from analytics import Annotations
from analytics.agreement import percent_agreement
from analytics.data import load_sample
from analytics.multilabel import am_agreement, gold_standard
from tests.helpers.app import run_page
from tests.helpers.markup import shown
from ui.widgets import MISSING


def _run(ann: Annotations | None) -> AppTest:
    at = run_page("multilabel", ann)
    return at


def _titles(at: AppTest) -> list[str]:
    return [json.loads(c.proto.spec)["layout"]["title"]["text"] for c in at.get("plotly_chart")]


def test_no_data_shows_info():
    at = _run(None)
    assert not at.exception
    assert "No data set" in at.info[0].value


def test_multilabel_sample_shows_everything_on_first_open():
    ann = load_sample("affect_multilabel")
    at = _run(ann)
    assert not at.exception, at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["A_m"] == f"{am_agreement(ann).a_m:.3f}"
    assert "alpha, masi" in metrics and metrics["alpha, masi"] != "—"
    titles = _titles(at)
    for expected in (
        "A_m for every pair",
        "Items by observed agreement",
        "Disagreements per category",
        "Confusion between category pairs",
        "Items per category in the gold",
        "alpha with each set distance",
        "bootstrap",
    ):
        assert any(expected in t for t in titles), (expected, titles)
    assert any("interval" in c.value for c in at.caption)
    assert any("partial match" in m.value for m in at.markdown)


def test_verdict_and_reading_speak_with_one_voice():
    """Affect: "Bad. A_m = 0.428" stood beside "Reading: A_m = 0.43, moderate agreement"."""
    at = _run(load_sample("affect_multilabel"))
    assert not at.exception, at.exception
    alerts = [e.value.replace("\\", "") for e in at.error]  # md() escapes the sentence
    verdict = next(a for a in alerts if "A_m =" in a)
    assert verdict.startswith("**Bad.** A_m = 0.428")
    reading = _reading(at)
    assert "A_m = 0.428, bad:" in reading
    assert "moderate" not in reading


def _reading(at: AppTest) -> str:
    """The reading as shown (md() escapes it: names in it stay text)."""
    return shown(next(m.value for m in at.markdown if m.value.startswith("**Reading:**")))


def _abc() -> Annotations:
    rows = [
        ("i1", "u", {"a"}),
        ("i1", "v", {"a", "b"}),
        ("i2", "u", {"b", "c"}),
        ("i2", "v", {"b"}),
        ("i3", "u", {"c"}),
        ("i3", "v", {"a", "c"}),
        ("i4", "u", set()),
        ("i4", "v", {"c"}),
    ]
    frame = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    return Annotations.from_frame(frame, kind="multilabel", categories=["a", "b", "c"])


def test_the_reading_takes_its_example_from_the_data():
    """The reading said "[anger, not disgust]" for data labelled a, b, c."""
    at = _run(_abc())
    assert not at.exception, at.exception
    reading = _reading(at)
    assert "[a, not b] meeting another's [b, not a]" in reading, reading
    assert "anger" not in reading and "disgust" not in reading
    affect = _reading(_run(load_sample("affect_multilabel")))
    assert "[anger, not disgust] meeting another's [disgust, not anger]" in affect


def test_a_caption_tells_p_o_from_exact_set_percent_agreement():
    """Agreement showed "Percent agreement 0.343", this page "P_o 0.700", unexplained."""
    ann = load_sample("affect_multilabel")
    at = _run(ann)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Observed agreement P_o"] == f"{am_agreement(ann).p_o:.3f}" == "0.700"
    captions = [shown(c.value) for c in at.caption]
    (caption,) = [c for c in captions if "P_o is not the percent agreement" in c]
    assert f"({float(percent_agreement(ann)):.3f} here)" in caption
    assert "(0.343 here)" in caption
    assert "same yes/no" in caption and "exactly the same" in caption


def test_every_statistic_in_the_tables_has_three_decimals():
    """The pairs table showed 0.7113 beside 0.723, the items table 0.1667 beside 0.5."""
    at = _run(load_sample("affect_multilabel"))
    assert not at.exception, at.exception
    checked = set()
    for frame in at.dataframe:
        config = json.loads(frame.proto.columns or "{}")
        df = frame.value
        for column in df.columns:
            spec = config.get(column, {}).get("type_config", {})
            if df[column].dtype.kind == "f" and "anger" not in df.columns:
                assert spec.get("format") == "%.3f", (list(df.columns), column, spec)
                checked.add(column)
            elif df[column].dtype.kind == "f":  # category pair confusion: counts
                assert spec.get("format") == "%,.0f", (column, spec)
            elif spec.get("type") == "text":  # a column with a missing cell
                cells = [v for v in df[column] if v != MISSING]
                counts = "anger" in df.columns  # the confusion's empty lower triangle
                pattern = r"[\d,]+" if counts else r"-?\d\.\d{3}"
                assert all(re.fullmatch(pattern, v) for v in cells), (column, cells[:5])
                checked.add(column)
    for column in ("p_o", "p_e", "a_m", "lower", "upper", "share", "fleiss_kappa"):
        assert column in checked, (column, checked)


def test_gold_table_and_ties_highlighted():
    rows = [
        ("i1", "A", {"x"}),
        ("i1", "B", set()),
        ("i1", "C", {"x"}),
        ("i2", "A", {"y"}),
        ("i2", "B", {"x"}),
        ("i3", "A", {"x"}),
        ("i3", "C", {"y"}),
    ]
    ann = Annotations.from_frame(
        pd.DataFrame(rows, columns=["item", "annotator", "label"]),
        kind="multilabel",
        categories=["x", "y"],
    )
    at = _run(ann)
    assert not at.exception, at.exception
    metrics = {m.label: m.value for m in at.metric}
    gold = gold_standard(ann)
    assert metrics["Tie-broken decisions"] == str(len(gold.tie_broken))
    assert metrics["Unresolved ties"] == str(len(gold.unresolved))
    frames = [d.value for d in at.dataframe]
    gold_frame = next(f for f in frames if "tie_broken" in getattr(f, "columns", []))
    assert gold_frame.set_index("item").loc["i2", "labels"] == "y"
    assert any("Yellow" in c.value for c in at.caption)


def test_single_label_data_offers_the_sample():
    df = pd.DataFrame({"item": ["1", "1"], "annotator": ["a", "b"], "label": ["x", "y"]})
    at = _run(Annotations.from_frame(df))
    assert not at.exception
    assert "single-label" in at.info[0].value
    at.button(key="ml_load_sample").click().run()
    assert not at.exception
    assert at.session_state["concord_annotations"].is_multilabel


def test_degenerate_data_explained_not_crashing():
    df = pd.DataFrame({"item": ["1", "2"], "annotator": ["a", "b"], "label": [{"x"}, {"y"}]})
    at = _run(Annotations.from_frame(df, kind="multilabel"))
    assert not at.exception, at.exception
    assert any("undefined" in w.value for w in at.warning)


@pytest.mark.parametrize("key", ["ml_gold_ties"])
def test_only_ties_toggle(key):
    rows = [("i1", "A", {"x"}), ("i1", "B", {"x"}), ("i2", "A", {"y"}), ("i2", "B", {"x"})]
    ann = Annotations.from_frame(
        pd.DataFrame(rows, columns=["item", "annotator", "label"]),
        kind="multilabel",
        categories=["x", "y"],
    )
    at = _run(ann)
    at.toggle(key=key).set_value(True).run()
    assert not at.exception
    frames = [d.value for d in at.dataframe]
    gold_frame = next(f for f in frames if "tie_broken" in getattr(f, "columns", []))
    assert gold_frame["item"].tolist() == ["i2"]


def _texts(at: AppTest) -> str:
    parts = [*at.warning, *at.info, *at.caption, *at.markdown, *at.error]
    return " ".join(str(p.value) for p in parts)


def test_all_empty_label_sets_without_categories_explained_not_crashing():
    df = pd.DataFrame(
        {"item": ["s1", "s1", "s2", "s2"], "annotator": ["a", "b"] * 2, "label": ["{}"] * 4}
    )
    at = _run(Annotations.from_frame(df, kind="multilabel", multilabel_sep=";"))
    assert not at.exception, at.exception
    assert not at.error
    text = _texts(at)
    assert "two categories" in text
    assert "judged by only one annotator" not in text  # untrue: both judged every item


def test_one_category_bands_say_why_no_item_has_agreement():
    df = pd.DataFrame(
        {
            "item": ["1", "1", "2", "2"],
            "annotator": ["a", "b"] * 2,
            "label": [{"x"}, set(), {"x"}, {"x"}],
        }
    )
    at = _run(Annotations.from_frame(df, kind="multilabel", categories=["x"]))
    assert not at.exception, at.exception
    captions = " ".join(c.value for c in at.caption)
    assert "No item has an observed agreement" in captions and "two categories" in captions
    assert "judged by only one annotator" not in captions


def test_clubbing_reason_shown_for_perfect_single_label_agreement():
    df = pd.DataFrame(
        {
            "item": ["1", "1", "2", "2"],
            "annotator": ["a", "b"] * 2,
            "label": [{"x"}, {"x"}, {"y"}, {"y"}],
        }
    )
    at = _run(Annotations.from_frame(df, kind="multilabel"))
    assert not at.exception, at.exception
    warning = " ".join(w.value for w in at.warning)
    assert "clubbing" in warning and "same label set" not in warning
    assert {m.label: m.value for m in at.metric}["A_m, four combinations"] == "1.000"
