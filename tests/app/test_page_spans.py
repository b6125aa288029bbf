"""The Spans page, run headless with streamlit's AppTest."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from analytics import format_number
from analytics.spans import gold_spans, load_spans, span_f1, unitizing_alpha
from tests.helpers.markup import shown
from tests.helpers.paths import ROOT
from ui.text import md
from ui.widgets import MISSING

SAMPLE = ROOT / "sample_data" / "news_spans.csv"


def _run(spans=None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages" / "spans.py"), default_timeout=60)
    if spans is not None:
        at.session_state["concord_spans"] = spans
    at.run()
    return at


def _titles(at: AppTest) -> list[str]:
    return [json.loads(c.proto.spec)["layout"]["title"]["text"] for c in at.get("plotly_chart")]


def test_sample_shows_results_on_first_open():
    at = _run()
    assert not at.exception, at.exception
    spans = load_spans(SAMPLE)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Span F1 (exact)"] == f"{float(span_f1(spans, n_boot=0).f1):.3f}"
    assert metrics["Krippendorff's alpha_U"] == f"{float(unitizing_alpha(spans)):.3f}"
    assert metrics["Gold spans (majority)"] == f"{len(gold_spans(spans)):,}"
    titles = _titles(at)
    assert any("pair of annotators" in t for t in titles)
    assert any("swap" in t for t in titles)
    assert any("interval" in c.value for c in at.caption)
    # the document browser shows every annotator's line, disagreements marked
    assert any("Token-level coefficients" in shown(w.value) for w in at.warning)
    lines = [m.value for m in at.markdown if m.value.startswith("**ann**")]
    assert lines and "orange-background" in "".join(m.value for m in at.markdown)


def test_the_uploader_offers_the_size_the_reader_takes():
    """It offered the app's 1GB per file; the span reader stops at 200 MiB."""
    from analytics.spans import MAX_BYTES

    at = _run()
    uploader = at.get("file_uploader")[0].proto
    assert uploader.max_upload_size_mb == MAX_BYTES // 2**20 == 200


def test_matching_choice_changes_the_headline():
    at = _run()
    at.segmented_control(key="spans_match").set_value("overlap").run()
    assert not at.exception
    labels = [m.label for m in at.metric]
    assert "Span F1 (overlap)" in labels


def test_pair_matrix_per_label():
    at = _run()
    at.selectbox(key="spans_pair_label").set_value("LOC").run()
    assert not at.exception
    assert any(t.endswith(", LOC") for t in _titles(at))


def test_hostile_names_are_shown_as_text_and_one_annotator_stops():
    rows = [
        ("d", "[x](http://evil)", 0, 4, ":red[LAB]"),
        ("d", "**b**", 0, 4, ":red[LAB]"),
    ]
    df = pd.DataFrame(rows, columns=["item", "annotator", "start", "end", "label"])
    spans = load_spans(df, text={"d": "<b>x</b> $1$"})
    at = _run(spans)
    assert not at.exception, at.exception
    shown = "".join(m.value for m in at.markdown)
    assert md("[x](http://evil)") in shown and "[x](http" not in shown
    assert ":red[LAB]" not in shown and "<b>" not in shown
    alone = load_spans(df.iloc[:1])
    at = _run(alone)
    assert not at.exception and "Only one annotator" in at.info[0].value


def test_the_sidebar_names_the_span_data_this_page_shows():
    at = _run()
    sidebar = " ".join(shown(c.value) for c in at.sidebar.caption)
    assert "news_spans.csv" in sidebar and "span data" in sidebar


def _upload(data: bytes, name: str) -> AppTest:
    at = _run()
    at.file_uploader(key="spans_upload").set_value((name, data, "text/csv")).run()
    assert not at.exception, at.exception
    return at


def test_a_file_that_is_not_a_span_table_is_named_and_the_hint_fits_the_page():
    text = b"Lorem ipsum dolor sit amet\nconsectetur adipiscing, elit; sed do\n"
    at = _upload(text, "random.txt")
    (error,) = [shown(e.value) for e in at.error]
    assert error.startswith("file 'random.txt': no column 'item'"), error
    assert "<bytes>" not in error
    # the hint is its own sentence, in the page's words (the Format box), not the library's
    assert "label. Rename the columns, or choose the tool's export format." in error, error
    assert "format=" not in error


def test_documents_finished_without_any_span_say_there_is_nothing_to_compare():
    df = pd.DataFrame({"item": ["d1", "d1", "d2", "d2"], "annotator": ["a", "b", "a", "b"]}).assign(
        start=None, end=None, label=None
    )
    spans = load_spans(df)
    assert spans.n_spans == 0 and spans.n_annotators == 2
    at = _run(spans)
    assert not at.exception, at.exception
    assert any("No annotator marked any span" in i.value for i in at.info)
    # the library says why too, instead of an unrelated note
    assert unitizing_alpha(spans).reason.startswith("no annotator marked any span")
    table = span_f1(spans, by_label=True)
    assert table.empty and table["label"].dtype == object  # merges with other label tables


def test_an_empty_span_file_says_it_is_empty():
    for data in (b"", b"\n\n  \n"):
        at = _upload(data, "empty.csv")
        (error,) = [shown(e.value) for e in at.error]
        assert error.startswith("file 'empty.csv': the file is empty. Give a file"), error
        assert "No columns to parse" not in error


def test_an_upload_named_conll_is_read_as_conll():
    # the upload's name reaches the loader, so its extension picks the format
    data = b"-DOCSTART-\n\nJohn\tB-PER\nsmiled\tO\n"
    at = _upload(data, "ann1.conll")
    assert not at.error, [e.value for e in at.error]
    assert any(shown(m.value).startswith("**ann1.conll**: 1 document") for m in at.markdown)


def _document_picker(at: AppTest):
    return next(s for s in at.selectbox if s.label.startswith("Document"))


def test_the_document_picker_follows_a_newly_loaded_file():
    """Options were positions under one fixed key: after loading another file the
    browser kept the sample's document name above the new file's first document."""
    at = _run()
    assert _document_picker(at).value in set(load_spans(SAMPLE).items)
    old = set(load_spans(SAMPLE).items)
    text = "Ada met Bob in Paris."
    rows = "\n".join(f"{doc},{who},0,3,PER,{text}" for doc in ("d1", "d2") for who in ("u", "v"))
    data = ("item,annotator,start,end,label,text\n" + rows + "\n").encode()
    at.file_uploader(key="spans_upload").set_value(("mine.csv", data, "text/csv")).run()
    assert not at.exception, at.exception
    picker = _document_picker(at)
    assert picker.value in {"d1", "d2"}
    assert all(option.split(" · ")[0] in {"d1", "d2"} for option in picker.options)
    assert not old & {option.split(" · ")[0] for option in picker.options}


def test_an_interval_over_few_documents_says_so():
    rows = [(doc, who, 0, 3, "PER") for doc in ("d1", "d2") for who in ("u", "v")] + [
        ("d1", "w", 0, 2, "PER")
    ]
    df = pd.DataFrame(rows, columns=["item", "annotator", "start", "end", "label"])
    at = _run(load_spans(df, text={"d1": "Ada met Bob.", "d2": "Bob met Ada."}))
    assert not at.exception, at.exception
    captions = " ".join(c.value for c in at.caption)
    assert "Only 2 documents: too few for resampled intervals" in captions
    assert not any("documents resampled" in c.value for c in at.caption)
    at = _run()
    assert "too few for resampled intervals" not in " ".join(c.value for c in at.caption)


def test_a_dropped_file_loads_at_once_and_back_to_the_sample_stays_back():
    """A file needed a separate Load click (the Data page loads on drop)."""
    rows = "\n".join(f"d{k},{who},0,3,PER,Ada met Bob." for k in (1, 2) for who in ("u", "v"))
    data = ("item,annotator,start,end,label,text\n" + rows + "\n").encode()
    at = _run()
    at.file_uploader(key="spans_upload").set_value(("mine.csv", data, "text/csv")).run()
    assert not at.exception, at.exception
    assert at.session_state["concord_spans"].name == "mine.csv"
    at.button(key="spans_sample").click().run()
    assert "concord_spans" not in at.session_state  # the file in the box is not loaded again
    at.run()
    assert "concord_spans" not in at.session_state


def test_the_document_picker_follows_the_matching_rule():
    """The picker's labels give the F1 of the rule chosen. (In the browser the picker kept
    the exact-matching label after overlap was chosen: its key now carries the rule;
    AppTest has no such browser state, so this checks the labels themselves.)"""
    at = _run()
    at.segmented_control(key="spans_match").set_value("overlap").run()
    assert not at.exception
    docs = next(d.value for d in at.dataframe if {"item", "f1"} <= set(d.value.columns))
    f1 = dict(zip(docs["item"], docs["f1"], strict=True))
    for option in _document_picker(at).options:
        item, shown_f1 = option.split(" · F1 ")
        assert shown_f1 == format_number(f1[item])


def test_every_statistic_in_the_tables_has_three_decimals():
    """The Documents tab showed 0.2778 beside 0.5, the token table four decimals."""
    at = _run()
    assert not at.exception, at.exception
    checked = 0
    for frame in at.dataframe:
        config = json.loads(frame.proto.columns or "{}")
        df = frame.value
        for column in df.columns:
            if df[column].dtype.kind == "f" and column != "units":
                spec = config[column]["type_config"]
                assert spec.get("format") == "%.3f" or spec.get("type") == "text", column
                checked += 1
            elif column in ("units", "pairs", "documents", "spans", "support"):
                assert config.get(column, {}).get("type_config", {}).get("format") in (
                    None,
                    "%,.0f",
                ), column  # counts stay whole numbers
    assert checked >= 8  # per label, pairs, documents and the token table
    docs = next(d for d in at.dataframe if {"item", "f1", "spans"} <= set(d.value.columns))
    f1 = json.loads(docs.proto.columns)["f1"]["type_config"]
    if f1.get("type") == "text":  # a document nobody marked has no F1: drawn as text
        cells = [v for v in docs.value["f1"] if v != MISSING]
        assert cells and all(re.fullmatch(r"\d\.\d{3}", v) for v in cells), cells[:5]
    else:
        assert f1["format"] == "%.3f"
    tokens = next(d for d in at.dataframe if "coefficient" in d.value.columns)
    assert json.loads(tokens.proto.columns)["value"]["type_config"]["format"] == "%.3f"


def test_the_headline_alpha_u_says_it_is_pooled_not_a_mean():
    """The caption said "mean over 4 labels" under 0.700, the per-label values' mean
    being 0.744: the value pools the disagreements of the labels."""
    at = _run()
    spans = load_spans(SAMPLE)
    table = unitizing_alpha(spans, by_label=True)
    pooled = 1 - table["observed"].sum() / table["expected"].sum()
    assert float(unitizing_alpha(spans)) == pytest.approx(pooled)
    assert abs(table["alpha"].mean() - pooled) > 0.03  # the two differ on the sample
    captions = " ".join(shown(c.value) for c in at.caption)
    assert "pooled over the 4 labels" in captions and "not the mean" in captions
    assert "mean over 4 labels" not in captions
    metric = next(m for m in at.metric if m.label == "Krippendorff's alpha_U")
    assert metric.value == f"{pooled:.3f}" and "summed over the labels" in metric.proto.help


def test_the_gold_quorum_says_majority_instead_of_zero():
    """A slider at 0 read as "no annotator needed"; 0 meant a majority."""
    at = _run()
    spans = load_spans(SAMPLE)
    box = at.selectbox(key="spans_quorum")
    assert box.label == "Annotators a gold span needs"
    assert box.options[0] == "a majority of those who finished the document"
    assert box.options[1:] == [
        "at least 1 annotator",
        *[f"at least {k} annotators" for k in range(2, spans.n_annotators + 1)],
    ]
    gold = next(d.value for d in at.dataframe if "label_tie" in d.value.columns)
    assert len(gold) == len(gold_spans(spans))
    box.set_value(2).run()
    assert not at.exception, at.exception
    gold = next(d.value for d in at.dataframe if "label_tie" in d.value.columns)
    assert len(gold) == len(gold_spans(spans, quorum=2)) != len(gold_spans(spans))
    assert at.selectbox(key="spans_quorum").value == 2


def test_two_tables_in_the_box_say_to_load_one_at_a_time():
    """A second CSV dropped beside the first had been read, with it, as CoNLL files."""
    at = _run()
    rows = "item,annotator,start,end,label\nd1,u,0,3,PER\nd1,v,0,3,PER\n"
    at.file_uploader(key="spans_upload").set_value(
        [("a.csv", rows.encode(), "text/csv"), ("b.csv", rows.encode(), "text/csv")]
    ).run()
    assert not at.exception
    said = " ".join(shown(e.value) for e in at.error)
    assert "'a.csv', 'b.csv' are not." in said and "one table at a time" in said
    assert "token line" not in said
