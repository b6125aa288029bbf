"""Label Studio's flat exports (JSON-MIN, CSV, TSV) load as Label Studio, like the full JSON.

The fixtures label_studio_export_min.json and label_studio_export.csv hold the tasks of
label_studio_export.json as Label Studio's export converter writes them (one record per
submitted annotation, single choices as text, several as {"choices": [...]}, ratings and
taxonomies as lists of values, CSV answers as JSON text). Every flat load is checked
against the full JSON export read by its own reader, and against a plain loop over the
flat file.
"""

from __future__ import annotations

import csv
import io
import json

import pandas as pd
import pytest

from analytics import AnnotationDataError, load_annotations
from analytics.data import Annotations, LabelKind, read_table
from analytics.data.importers import describe_tool_export
from tests.helpers.importers import upload
from tests.helpers.paths import FIXTURES

FULL = FIXTURES / "label_studio_export.json"
MIN = FIXTURES / "label_studio_export_min.json"
CSV = FIXTURES / "label_studio_export.csv"
CONTROLS = ("sentiment", "topics", "quality", "category")


def triples(ann: Annotations) -> set[tuple]:
    return set(ann.to_frame().itertuples(index=False, name=None))


def min_records() -> list[dict]:
    return json.loads(MIN.read_text())


def min_bytes(records: list[dict]) -> io.BytesIO:
    return upload(json.dumps(records).encode(), "project-7.json")


def tsv_bytes() -> bytes:
    with CSV.open(newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    out = io.StringIO()
    csv.writer(out, delimiter="\t").writerows(rows)
    return out.getvalue().encode()


def counts_add_up(ann: Annotations) -> bool:
    r = ann.report
    return r.n_rows == ann.n_judgements + r.n_skipped + r.n_missing


def flat_oracle(control: str) -> set[tuple]:
    """A plain loop over the JSON-MIN records: (task, annotator, answer) for one control."""
    out = set()
    for rec in min_records():
        if rec["annotator"] is None or control not in rec:
            continue
        value = rec[control]
        if isinstance(value, str):
            value = (value,)
        elif isinstance(value, dict):
            value = tuple(sorted(value["choices"]))
        else:
            (only,) = value
            value = next(iter(only.values()))
            if isinstance(value, list):
                value = tuple(sorted("/".join(path) for path in value))
        out.add((str(rec["id"]), str(rec["annotator"]), value))
    return out


@pytest.mark.parametrize("control", CONTROLS)
@pytest.mark.parametrize("source", [MIN, CSV])
def test_flat_exports_load_the_same_judgements_as_the_full_json(source, control):
    full = load_annotations(FULL, tool_options={"from_name": control})
    flat = load_annotations(source, tool_options={"from_name": control})
    assert flat.report.tool == "Label Studio"
    assert triples(flat) == triples(full)
    assert flat.kind is full.kind
    assert counts_add_up(flat) and counts_add_up(full)


@pytest.mark.parametrize("control", CONTROLS)
def test_json_min_matches_a_plain_loop_over_the_records(control):
    ann = load_annotations(MIN, tool_options={"from_name": control})
    got = set()
    for item, who, label in triples(ann):
        if isinstance(label, frozenset):
            label = tuple(sorted(label))
        elif isinstance(label, str):
            label = (label,)
        got.add((item, who, label))
    expected = {(i, a, v) for i, a, v in flat_oracle(control) if v != ()}
    expected |= {(i, a, ()) for i, a, v in flat_oracle(control) if v == ()}
    if control == "topics":  # carol ticked no topic on task 101: the empty set
        expected.add(("101", "carol@example.org", ()))
    assert got == expected


@pytest.mark.parametrize(
    ("source", "fmt", "export"),
    [
        (lambda: upload(MIN.read_bytes(), "project-7.json"), "json", "JSON-MIN"),
        (lambda: upload(CSV.read_bytes(), "project-7.csv"), "csv", "CSV"),
        (lambda: upload(tsv_bytes(), "project-7.tsv"), "tsv", "TSV"),
        (lambda: upload(FULL.read_bytes(), "project-7.json"), "json", "JSON"),
    ],
)
def test_the_recognised_export_is_named_by_describe_and_the_report(source, fmt, export):
    table, _, report = read_table(source())
    assert report.format == fmt
    info = describe_tool_export(table, format=report.format)
    assert (info.tool, info.export) == ("Label Studio", export)
    ann = load_annotations(source())
    assert ann.report.columns["export"] == export
    assert counts_add_up(ann)


def test_flat_export_is_recognised_by_its_columns_not_its_name():
    records = min_records()
    for name in ("results.json", "a.txt.json", "labels.json"):
        ann = load_annotations(upload(json.dumps(records).encode(), name))
        assert ann.report.tool == "Label Studio"
    frame = pd.DataFrame.from_records(records)
    ann = load_annotations(frame, tool_options={"from_name": "sentiment"})
    assert ann.report.tool == "Label Studio" and ann.n_judgements == 10
    # without the annotation columns, the same records are a plain table
    plain = [{k: r.get(k) for k in ("id", "annotator", "sentiment")} for r in records]
    ann = load_annotations(upload(json.dumps(plain).encode(), "project-7.json"))
    assert ann.report.tool is None


def test_every_record_is_a_judgement_or_a_counted_skip():
    records = min_records()
    records[0] = {**records[0], "annotator": None}  # an annotation with no annotator
    records[3] = {k: v for k, v in records[3].items() if k != "sentiment"}  # no answer
    ann = load_annotations(min_bytes(records), tool_options={"from_name": "sentiment"})
    skips = {s.reason: s.rows for s in ann.report.skipped}
    assert skips["tasks with no annotations (nothing to read)"] == (11,)
    assert skips["annotations with no annotator"] == (1,)
    assert skips["annotations without an answer for the control 'sentiment'"] == (4,)
    assert ann.n_judgements == 8 and ann.report.n_rows == 11
    assert counts_add_up(ann)


def test_csv_was_cancelled_true_is_a_counted_skip_and_junk_is_an_error():
    text = CSV.read_text()
    lines = text.splitlines()
    lines[1] = lines[1].rsplit(",", 1)[0] + ",True"
    ann = load_annotations(upload("\n".join(lines).encode(), "p.csv"))
    (cancelled,) = [s for s in ann.report.skipped if "cancelled" in s.reason]
    assert cancelled.rows == (2,) and counts_add_up(ann)
    lines[1] = lines[1].rsplit(",", 1)[0] + ',"maybe"'
    with pytest.raises(AnnotationDataError, match=r"column 'was_cancelled', row 2"):
        load_annotations(upload("\n".join(lines).encode(), "p.csv"))


def test_text_columns_that_may_be_data_are_not_guessed():
    """One annotator per task: 'sentiment' never differs within a task, like 'text'."""
    records = [r for r in min_records() if r["annotator"] in (1, None)]
    records = [{k: r.get(k) for k in ("text", "id", "sentiment", *ANN)} for r in records]
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(min_bytes(records))
    msg = str(err.value)
    assert "'text'" in msg and "'sentiment'" in msg and "from_name" in msg, msg
    table, _, _ = read_table(min_bytes(records))
    info = describe_tool_export(table)
    assert info.choices["from_name"] == ["text", "sentiment"]
    assert info.defaults["from_name"] is None  # the page asks
    ann = load_annotations(min_bytes(records), tool_options={"from_name": "sentiment"})
    expected = {r["sentiment"] for r in records if r["annotator"] is not None}
    assert set(ann.categories) == expected and counts_add_up(ann)


ANN = ("annotator", "annotation_id", "created_at", "updated_at", "lead_time")


@pytest.mark.parametrize(
    ("field", "value", "column"),
    [
        ("annotator", {"id": 1, "email": "a@b.c"}, "annotator"),
        ("annotator", [1, 2], "annotator"),
        ("annotator", True, "annotator"),
        ("id", [101], "id"),
        ("annotation_id", {"x": 1}, "annotation_id"),
    ],
)
def test_wrong_shaped_ids_are_errors_naming_the_column_and_row(field, value, column):
    records = min_records()
    records[2][field] = value
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(min_bytes(records))
    msg = str(err.value)
    assert f"column '{column}', row 3" in msg and "not an id" in msg, msg


@pytest.mark.parametrize(
    ("control", "value"),
    [
        ("topics", {"choices": "Sports"}),  # text would split into letters
        ("topics", {"choices": [["Sports"]]}),
        ("quality", [{"rating": "four"}]),
        ("quality", [{"rating": 4}, {"rating": 5}]),  # per-region results
        ("quality", [{"number": 4}]),  # another control's answer
        ("category", [{"taxonomy": ["Sports"]}]),  # a path must be a list
        ("sentiment", 5),
        ("sentiment", {"text": ["free text"]}),
    ],
)
def test_answers_of_the_wrong_shape_name_the_control_and_row(control, value):
    records = min_records()
    records[4][control] = value
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(min_bytes(records), tool_options={"from_name": control})
    msg = str(err.value)
    assert f"column '{control}', row 5" in msg or f"no labelling control '{control}'" in msg, msg


def test_csv_answers_too_deep_or_too_long_to_parse_are_errors():
    lines = CSV.read_text().splitlines()
    header = next(csv.reader([lines[0]]))
    for junk in ("[" * 5_000 + "]" * 5_000, '[{"rating": ' + "9" * 5_000 + "}]"):
        row = next(csv.reader([lines[3]]))
        row[header.index("quality")] = junk
        out = io.StringIO()
        csv.writer(out, quoting=csv.QUOTE_NONNUMERIC).writerow(row)
        data = "\n".join([lines[0], *lines[1:3], out.getvalue().strip(), *lines[4:]])
        with pytest.raises(AnnotationDataError, match=r"column 'quality', row 4.*too deeply"):
            load_annotations(upload(data.encode(), "p.csv"), tool_options={"from_name": "quality"})
        table, _, report = read_table(upload(data.encode(), "p.csv"))
        assert describe_tool_export(table, format=report.format).export == "CSV"


def test_csv_option_text_that_is_not_json_stays_an_option():
    lines = CSV.read_text().splitlines()
    data = "\n".join(line.replace('"Neutral"', '"[unsure]"') for line in lines)
    ann = load_annotations(upload(data.encode(), "p.csv"), tool_options={"from_name": "sentiment"})
    assert "[unsure]" in set(ann.categories)


def test_flat_export_with_no_task_id_or_empty_is_an_error():
    records = [{k: v for k, v in r.items() if k != "id"} for r in min_records()]
    with pytest.raises(AnnotationDataError, match="no 'id' column"):
        load_annotations(min_bytes(records))
    only_empty = [r for r in min_records() if r["annotator"] is None]
    with pytest.raises(AnnotationDataError, match=r"holds no judgements.*no annotations"):
        load_annotations(min_bytes(only_empty))
    no_answers = [{k: r.get(k) for k in ("id", *ANN)} for r in min_records()]
    with pytest.raises(AnnotationDataError, match="no column holds item-level answers"):
        load_annotations(min_bytes(no_answers))


def test_duplicate_annotations_are_refused_by_the_duplicates_policy():
    records = min_records()
    records.append(dict(records[0]))  # the same annotation exported twice
    with pytest.raises(AnnotationDataError, match=r"(?i)repeat|duplicate"):
        load_annotations(min_bytes(records), tool_options={"from_name": "sentiment"})
    ann = load_annotations(
        min_bytes(records), tool_options={"from_name": "sentiment"}, duplicates="first"
    )
    assert ann.n_judgements == 10 and ann.report.n_duplicates == 1


def test_multilabel_option_applies_to_flat_choices():
    single = load_annotations(MIN, tool_options={"from_name": "sentiment", "multilabel": True})
    assert single.kind is LabelKind.MULTILABEL
    with pytest.raises(AnnotationDataError, match="several options"):
        load_annotations(MIN, tool_options={"from_name": "topics", "multilabel": False})
    with pytest.raises(AnnotationDataError, match=r"does not apply.*include_predictions|'include"):
        load_annotations(MIN, tool_options={"include_predictions": True})
