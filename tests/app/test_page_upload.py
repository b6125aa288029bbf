"""The Data page, driven as a person would with AppTest."""

from __future__ import annotations

import pandas as pd
from streamlit.testing.v1 import AppTest

from analytics.data import SAMPLES, read_table
from tests.helpers.markup import shown
from tests.helpers.paths import FIXTURES, ROOT

PAGE = str(ROOT / "pages" / "upload.py")


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def run_page() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.run()
    assert not at.exception
    return at


def test_opens_on_a_sample_with_a_summary():
    at = run_page()
    assert metrics(at) == {
        "Items": "300",
        "Annotators": "20",
        "Judgements": "1,500",
        "Categories": "4",
        "Label kind": "nominal",
    }
    assert len(at.get("plotly_chart")) == 3
    summary = next(d.value for d in at.dataframe if "measure" in d.value.columns)
    assert "items with 2+ annotators" in set(summary["measure"])


def test_every_sample_loads_without_errors():
    at = run_page()
    for key in SAMPLES:
        at.selectbox(key="upload_sample").set_value(key).run()
        assert not at.exception and not at.error, key
        assert at.metric[0].value != "0"


def test_uploading_a_file_changes_the_summary():
    at = run_page()
    at.segmented_control(key="upload_mode").set_value("Upload a file").run()
    data = b"task,worker,answer\nt1,w1,yes\nt1,w2,no\nt2,w1,yes\nt2,w2,\n"
    at.file_uploader(key="upload_file").set_value(("mine.csv", data, "text/csv")).run()
    assert not at.exception and not at.error
    assert metrics(at)["Items"] == "2" and metrics(at)["Judgements"] == "3"
    assert "mine.csv" in shown(at.subheader[0].value)
    report = " ".join(m.value for m in at.markdown)
    assert "1 empty or missing label cells" in report


def test_a_malformed_upload_shows_a_plain_error_and_keeps_the_data():
    at = run_page()
    at.segmented_control(key="upload_mode").set_value("Upload a file").run()
    at.file_uploader(key="upload_file").set_value(
        ("broken.csv", b"item,annotator,label\n1,a\n", "text/csv")
    ).run()
    assert not at.exception
    assert any("broken.csv" in shown(e.value) and "row 2" in shown(e.value) for e in at.error)
    assert metrics(at)["Items"] == "300"  # the previous data set stays loaded


def test_an_empty_upload_says_so_without_an_engine_choice():
    at = run_page()
    at.segmented_control(key="upload_mode").set_value("Upload a file").run()
    at.file_uploader(key="upload_file").set_value(("empty.csv", b"", "text/csv")).run()
    assert not at.exception
    assert any("the file is empty" in shown(e.value) for e in at.error)
    assert not [r for r in at.radio if r.label == "Engine"]
    assert not any("0 bytes" in shown(c.value) for c in at.caption)
    at.file_uploader(key="upload_file").set_value(
        ("head.csv", b"item,annotator,label\n", "text/csv")
    )
    at.run()
    assert not at.exception and at.error
    assert not [r for r in at.radio if r.label == "Engine"]


def test_column_mapping_fixes_an_unrecognised_file():
    at = run_page()
    at.segmented_control(key="upload_mode").set_value("Upload a file").run()
    data = b"sent,coder_name,tag,extra\ns1,a,x,1\ns1,b,y,1\ns2,a,x,1\n"
    at.file_uploader(key="upload_file").set_value(("odd.csv", data, "text/csv")).run()
    assert at.error  # cannot tell which columns are which
    at.selectbox(key="map_item_odd.csv").set_value("sent")
    at.selectbox(key="map_ann_odd.csv").set_value("coder_name")
    at.selectbox(key="map_label_odd.csv").set_value("tag").run()
    assert not at.exception and not at.error
    assert metrics(at)["Judgements"] == "3"


def test_duplicate_policy_choice():
    at = run_page()
    at.segmented_control(key="upload_mode").set_value("Upload a file").run()
    data = b"item,annotator,label\n1,a,x\n1,a,y\n1,b,x\n"
    at.file_uploader(key="upload_file").set_value(("dups.csv", data, "text/csv")).run()
    assert any("repeated judgements" in e.value for e in at.error)
    at.selectbox(key="map_dup_dups.csv").set_value("keep").run()
    assert not at.error and metrics(at)["Judgements"] == "3"


def test_tool_exports_are_recognised_on_the_page():
    fixtures = FIXTURES
    at = run_page()
    at.segmented_control(key="upload_mode").set_value("Upload a file").run()
    data = (fixtures / "label_studio_export.json").read_bytes()
    at.file_uploader(key="upload_file").set_value(("project.json", data, "application/json")).run()
    assert not at.exception and not at.error
    assert any("Label Studio" in s.value for s in at.info)
    assert "project.json" in shown(at.subheader[0].value)


def test_mturk_question_must_be_chosen_then_loads():
    fixtures = FIXTURES
    at = run_page()
    at.segmented_control(key="upload_mode").set_value("Upload a file").run()
    data = (fixtures / "mturk_crowd_radio.csv").read_bytes()
    at.file_uploader(key="upload_file").set_value(("batch.csv", data, "text/csv")).run()
    assert not at.exception
    assert any("Mechanical Turk" in s.value for s in at.info)
    choices = [sb for sb in at.selectbox if sb.key and sb.key.startswith("tool_")]
    if at.error:  # several questions: the page asks which one
        pick = next(sb for sb in choices if sb.value is None)
        pick.set_value(pick.options[0]).run()
        assert not at.error and not at.exception
    assert "batch.csv" in shown(at.subheader[0].value)


def test_a_count_table_loads_with_the_layout_choice():
    # irrCAC README: distrib.6raters (first 3 of 15 rows here), anonymous raters
    at = run_page()
    at.segmented_control(key="upload_mode").set_value("Upload a file").run()
    data = b"subject,Depression,Neurosis,Other\n1,0,6,0\n2,3,0,3\n3,1,4,1\n"
    at.file_uploader(key="upload_file").set_value(("counts.csv", data, "text/csv")).run()
    at.selectbox(key="map_layout_counts.csv").set_value("counts").run()
    assert not at.exception and not at.error
    assert metrics(at)["Items"] == "3" and metrics(at)["Judgements"] == "18"
    assert metrics(at)["Categories"] == "3"


def test_fractional_counts_show_the_coefficients_defined_on_counts():
    """Issue 14: fractional count tables work through the Data page, not only in Python."""
    from analytics.agreement import count_table_agreement

    at = run_page()
    at.segmented_control(key="upload_mode").set_value("Upload a file").run()
    data = b"subject,a,b,c\n1,0.5,2.5,0\n2,1.5,0,1.5\n3,0,3,0\n4,2,0.5,0.5\n"
    at.file_uploader(key="upload_file").set_value(("shares.csv", data, "text/csv")).run()
    at.selectbox(key="map_layout_shares.csv").set_value("counts").run()
    assert not at.exception and not at.error
    assert any("fractional counts" in i.value for i in at.info)
    expected = count_table_agreement(read_table(data)[0])  # as the CLI reads the file
    tables = [d.value for d in at.dataframe if list(d.value.columns) == list(expected.columns)]
    assert tables, "the coefficients table is shown"
    shown_table = tables[0].reset_index(drop=True)
    for column in expected.columns:  # floats are drawn with three decimals, NaN as "–"
        if pd.api.types.is_float_dtype(expected[column]) and not pd.api.types.is_float_dtype(
            shown_table[column]
        ):
            shown_table[column] = pd.to_numeric(shown_table[column].replace("–", None))
            expected[column] = expected[column].round(3)
    pd.testing.assert_frame_equal(shown_table, expected)


def test_a_span_file_uploaded_as_annotations_points_to_the_spans_page():
    at = run_page()
    at.segmented_control(key="upload_mode").set_value("Upload a file").run()
    data = (
        b"item,annotator,start,end,label\n"
        b"d1,ann,0,5,PER\nd1,ann,10,13,PER\nd1,bob,0,5,PER\nd1,bob,10,13,ORG\n"
    )
    at.file_uploader(key="upload_file").set_value(("spans.csv", data, "text/csv")).run()
    assert not at.exception
    errors = [shown(e.value) for e in at.error]
    assert any("look like a span file" in e and "Spans page" in e for e in errors), errors
    # the hint leads (it had come after "2 repeated judgements ... rows ..."), and the
    # column advice, which cannot help a span file, is not given
    error = next(e for e in errors if "span file" in e)
    assert error.lstrip("*").startswith("The columns start and end make"), error
    assert error.index("span file") < error.index("repeated")
    assert not any("Adjust" in i.value for i in at.info), [i.value for i in at.info]


def test_the_summary_download_holds_plain_numbers(monkeypatch):
    """The summary's Download CSV wrote the table drawn for reading (judgements,"1,500");
    the Export page's Data summary CSV has 1500: the two agree now."""
    import ui.widgets
    from analytics.data import load_sample, table_to_csv

    written = {}

    def record(df, name, *, key, **kwargs):
        written[key] = df() if callable(df) else df

    monkeypatch.setattr(ui.widgets, "download_table", record)
    at = run_page()
    assert not at.exception
    shown_summary = next(d.value for d in at.dataframe if "measure" in d.value.columns)
    assert shown_summary.set_index("measure").loc["judgements", "value"] == "1,500"  # for reading
    csv = table_to_csv(written["summary"], index=False)
    assert "judgements,1500" in csv.splitlines() and '"1,500"' not in csv
    assert csv == table_to_csv(load_sample("crowd_intents").summary(), index=False)  # as Export
