"""Hostile tool exports: each is a clean AnnotationDataError naming the field and the row, or
a load whose report accounts for every row (rows = judgements + skipped + missing).

Each case is a small edit of a hand-written fixture in tests/fixtures/ (the tools'
documented formats); the *_junk fixtures hold entries that must be skipped and counted.
"""

from __future__ import annotations

import csv
import io
import json

import pytest

from analytics import AnnotationDataError, load_annotations
from analytics.data import Annotations, read_table
from analytics.data.importers import describe_tool_export
from tests.helpers.importers import upload
from tests.helpers.paths import FIXTURES

LS = FIXTURES / "label_studio_export.json"
LS_JUNK = FIXTURES / "label_studio_junk.json"
PRODIGY_BINARY = FIXTURES / "prodigy_binary.jsonl"
PRODIGY_CHOICE = FIXTURES / "prodigy_choice.jsonl"
PRODIGY_JUNK = FIXTURES / "prodigy_junk.jsonl"
MTURK = FIXTURES / "mturk_batch_results.csv"
MTURK_JUNK = FIXTURES / "mturk_junk.csv"
CROWD_HTML = FIXTURES / "mturk_crowd_html.csv"
TOLOKA = FIXTURES / "toloka_results.tsv"
TOLOKA_JUNK = FIXTURES / "toloka_junk.tsv"


def adds_up(ann: Annotations) -> None:
    r = ann.report
    answers = r.columns.get("answers")  # Prodigy binary: several lines make one judgement
    made = ann.n_judgements if answers is None else answers
    assert r.n_rows == made + r.n_skipped + r.n_missing, r.messages()


def load_or_refuse(data: bytes, name: str, **options) -> Annotations | AnnotationDataError:
    """Describe (as the Data page does), then load: either may only raise AnnotationDataError."""
    table, _, report = read_table(upload(data, name))
    try:
        describe_tool_export(table, format=report.format)
    except AnnotationDataError:
        pass
    try:
        ann = load_annotations(upload(data, name), tool_options=options or None)
    except AnnotationDataError as exc:
        return exc
    adds_up(ann)
    return ann


# ============================================================================ Label Studio
def ls_bytes(edit) -> bytes:
    tasks = json.loads(LS.read_text())
    edit(tasks)
    return json.dumps(tasks).encode()


def first_annotation(tasks):
    return tasks[0]["annotations"][0]


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (lambda t: first_annotation(t).update(completed_by=[1, 2]), "'completed_by' holds a list"),
        (lambda t: first_annotation(t).update(completed_by=True), "'completed_by' holds true"),
        (
            lambda t: first_annotation(t).update(completed_by={"email": {"a": 1}}),
            "'completed_by.email' holds an object",
        ),
        (lambda t: t[0].update(id={"a": 1}), "'id' holds an object"),
        (lambda t: first_annotation(t).update(result=5), "'result' is 5, not a list"),
        (lambda t: first_annotation(t).update(result=None), "'result' is None, not a list"),
        (lambda t: first_annotation(t).update(result=[5]), "'result' holds 5"),
        (lambda t: first_annotation(t)["result"][0].update(from_name=["x"]), "'from_name'"),
        (lambda t: first_annotation(t)["result"][0].update(value=None), "no 'value' object"),
        (lambda t: t[0]["annotations"].append(None), "holds None, not an annotation"),
        (lambda t: t[0].update(predictions={"a": 1}), "'predictions' that is dict"),
        (lambda t: t[0].update(predictions="x"), "'predictions' that is str"),
        (lambda t: t[0].update(data=None), "'data' that is NoneType"),
        (lambda t: first_annotation(t).update(was_cancelled=[True]), "'was_cancelled'"),
        (
            lambda t: first_annotation(t)["result"][0]["value"].update(choices=[[[["deep"]]]]),
            "not a list of option names",
        ),
    ],
)
def test_label_studio_wrong_shapes_name_the_field_and_the_task_row(edit, needle):
    out = load_or_refuse(ls_bytes(edit), "project.json")
    assert isinstance(out, AnnotationDataError), "loaded"
    assert "row 1" in str(out) and needle in str(out), str(out)


@pytest.mark.parametrize(
    ("predictions", "needle"),
    [
        ([{"model_version": [1], "result": []}], "'model_version' holds a list"),
        ([{"model_version": "v", "result": 5}], "a prediction's 'result' is 5"),
    ],
)
def test_label_studio_predictions_read_are_checked_like_annotations(predictions, needle):
    data = ls_bytes(lambda t: t[0].update(predictions=predictions))
    out = load_or_refuse(data, "project.json", include_predictions=True)
    assert isinstance(out, AnnotationDataError) and needle in str(out), str(out)
    # not asked for: counted among the skipped rows, not read
    ann = load_or_refuse(data, "project.json")
    assert isinstance(ann, Annotations)
    assert any(s.reason.startswith("model predictions, not read") for s in ann.report.skipped)


@pytest.mark.parametrize(
    "edit",
    [
        lambda t: t[0].update(annotations=[]),
        lambda t: t[0].update(annotations=None),
        lambda t: t[0].update(id=None),
        lambda t: first_annotation(t).update(completed_by=None),
        lambda t: first_annotation(t)["result"][0]["value"].update(
            choices=[f"option {k}" for k in range(3000)]
        ),
        lambda t: t[0].update(predictions=[5, "x", None, {}]),
    ],
)
def test_label_studio_odd_but_readable_tasks_load_and_account_for_every_row(edit):
    out = load_or_refuse(ls_bytes(edit), "project.json")
    assert isinstance(out, Annotations), str(out)


def test_label_studio_junk_fixture_counts_add_up_and_say_why():
    for include in (False, True):
        ann = load_annotations(LS_JUNK, tool_options={"include_predictions": include})
        adds_up(ann)
        reasons = {s.reason: s.count for s in ann.report.skipped}
        assert reasons["entries of 'predictions' that are not prediction objects"] == 3
        assert reasons["tasks with no annotations (nothing to read)"] == 1
        assert reasons["annotations with no completed_by (annotator unknown)"] == 1
        assert reasons["cancelled (skipped) annotations in Label Studio (was_cancelled)"] == 1
    assert reasons["annotations without an answer for the control 'sentiment'"] == 1
    ann = load_annotations(LS_JUNK)
    assert {s.reason: s.count for s in ann.report.skipped}[
        "model predictions, not read (include_predictions=True reads each model version "
        "as an annotator)"
    ] == 2


@pytest.mark.parametrize(
    "columns",
    [
        ["_input_hash", "answer", "_annotator_id", "_annotator_id"],
        ["HITId", "WorkerId", "Answer.q", "WorkerId"],
        ["annotator", "annotation_id", "created_at", "updated_at", "lead_time", "id", "id"],
    ],
)
def test_repeated_column_names_in_a_tool_export_are_errors(columns):
    import pandas as pd

    frame = pd.DataFrame([["1"] * len(columns), ["2"] * len(columns)], columns=columns)
    repeated = columns[-1]
    with pytest.raises(AnnotationDataError, match=f"'{repeated}' appears more than once"):
        describe_tool_export(frame)
    with pytest.raises(AnnotationDataError, match=f"'{repeated}' appears more than once"):
        load_annotations(frame)


def test_label_studio_junk_only_is_an_error_that_says_why():
    tasks = [{"id": 1, "data": {"text": "x"}, "annotations": [], "predictions": [7, None]}]
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(upload(json.dumps(tasks).encode(), "p.json"))
    msg = str(err.value)
    assert "no judgements" in msg and "not prediction objects" in msg, msg


@pytest.mark.parametrize(
    "table",
    [
        {"annotations": [[{"result": 5}]], "data": [{}]},
        {"annotations": [[{"result": [{"from_name": {"x": 1}, "value": {}}]}]], "data": [{}]},
        {"annotations": [[5, None, "x"]], "predictions": [[{"result": "x"}]]},
        {"annotations": [[{"result": [{"from_name": "a", "type": ["x"], "value": {"z": 1}}]}]]},
        {"annotations": [{"a": 1}], "data": [None]},
        {
            "annotator": [[1]],
            "annotation_id": [{}],
            "created_at": [1],
            "updated_at": [None],
            "lead_time": ["x"],
            "id": [[1]],
            "c": [{"choices": 5}],
        },
    ],
)
def test_describe_never_raises_anything_but_annotation_data_error(table):
    import pandas as pd

    frame = pd.DataFrame(table)
    try:
        info = describe_tool_export(frame)
    except AnnotationDataError:
        return
    assert info is not None and info.tool == "Label Studio"


# ============================================================================ Prodigy
def prodigy_bytes(path, edit) -> bytes:
    records = [json.loads(x) for x in path.read_text().splitlines()]
    edit(records)
    return "\n".join(json.dumps(r) for r in records).encode()


@pytest.mark.parametrize("path", [PRODIGY_BINARY, PRODIGY_CHOICE])
@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (lambda r: r[0].update(_input_hash={"a": 1}), "column '_input_hash', row 1"),
        (lambda r: r[0].update(_input_hash=[1]), "column '_input_hash', row 1"),
        (lambda r: r[0].update(_input_hash=True), "column '_input_hash', row 1"),
        (lambda r: r[0].update(_input_hash=None), "row 1: 1 task has no '_input_hash'"),
        (lambda r: r[0].update(_annotator_id={"a": 1}), "column '_annotator_id', row 1"),
        (lambda r: r[0].update(answer=["accept"]), "column 'answer', row 1"),
        (lambda r: r[0].update(answer=1), "column 'answer', row 1"),
    ],
)
def test_prodigy_wrong_shapes_name_the_field_and_the_line(path, edit, needle):
    out = load_or_refuse(prodigy_bytes(path, edit), "db.jsonl")
    assert isinstance(out, AnnotationDataError) and needle in str(out), str(out)


@pytest.mark.parametrize("label", [{"a": 1}, 5, ["SPORTS"]])
def test_prodigy_binary_label_that_is_not_text_names_the_line(label):
    out = load_or_refuse(prodigy_bytes(PRODIGY_BINARY, lambda r: r[2].update(label=label)), "d")
    assert isinstance(out, AnnotationDataError), "loaded"
    assert "column 'label', row 3" in str(out) and "not a label name" in str(out), str(out)


@pytest.mark.parametrize("path", [PRODIGY_BINARY, PRODIGY_CHOICE])
@pytest.mark.parametrize(
    "edit",
    [
        lambda r: r[0].update(_input_hash=1.5),
        lambda r: r[0].update(_annotator_id=None),
        lambda r: r[0].update(config=[1]),
    ],
)
def test_prodigy_odd_but_readable_lines_account_for_every_row(path, edit):
    out = load_or_refuse(prodigy_bytes(path, edit), "db.jsonl")
    assert isinstance(out, Annotations), str(out)


def test_prodigy_repeated_line_is_a_counted_skip_or_a_duplicate_error():
    binary = load_or_refuse(prodigy_bytes(PRODIGY_BINARY, lambda r: r.append(r[0])), "d.jsonl")
    assert isinstance(binary, Annotations)
    assert any("repeated binary answers" in s.reason for s in binary.report.skipped)
    choice = load_or_refuse(prodigy_bytes(PRODIGY_CHOICE, lambda r: r.append(r[0])), "d.jsonl")
    assert isinstance(choice, AnnotationDataError) and "repeated" in str(choice)


def test_prodigy_junk_fixture_counts_add_up_and_say_why():
    ann = load_annotations(PRODIGY_JUNK)
    adds_up(ann)
    reasons = {s.reason: s.count for s in ann.report.skipped}
    assert reasons["tasks answered 'ignore' in Prodigy"] == 2
    assert reasons["choice tasks answered 'reject' (the question itself was rejected)"] == 1
    assert reasons["choice tasks accepted without choosing an option"] == 1
    assert ann.n_judgements == 3


# ============================================================================ MTurk, Toloka
def crowd_bytes(path, edit, delimiter=",") -> bytes:
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f, delimiter=delimiter)
        header, rows = list(reader.fieldnames or []), list(reader)
    edit(rows)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=header, delimiter=delimiter)
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode()


@pytest.mark.parametrize(
    ("path", "name", "worker", "status"),
    [
        (MTURK, "m.csv", "WorkerId", "AssignmentStatus"),
        (CROWD_HTML, "m.csv", "WorkerId", "AssignmentStatus"),
        (TOLOKA, "t.tsv", "ASSIGNMENT:worker_id", "ASSIGNMENT:status"),
    ],
)
def test_crowd_odd_rows_load_and_account_for_every_row(path, name, worker, status):
    delimiter = "\t" if name.endswith(".tsv") else ","
    for edit in (
        lambda r: r[0].update({worker: ""}),
        lambda r: r[0].update({worker: '{"a": 1}'}),  # text in a CSV cell: an id as written
        lambda r: r[0].update({status: ""}),
    ):
        out = load_or_refuse(crowd_bytes(path, edit, delimiter), name)
        assert isinstance(out, Annotations), str(out)
    rejected = "REJECTED" if name.endswith(".tsv") else "Rejected"
    out = load_or_refuse(
        crowd_bytes(path, lambda r: [x.update({status: rejected}) for x in r], delimiter), name
    )
    assert isinstance(out, AnnotationDataError) and "no judgements" in str(out)
    out = load_or_refuse(crowd_bytes(path, lambda r: r.append(dict(r[0])), delimiter), name)
    assert isinstance(out, AnnotationDataError) and "repeated" in str(out)
    # a status the platform never writes is not guessed to mean "kept"
    out = load_or_refuse(crowd_bytes(path, lambda r: r[1].update({status: "[1]"}), delimiter), name)
    assert isinstance(out, AnnotationDataError), "loaded"
    assert f"column '{status}', row 3" in str(out) and "'[1]'" in str(out), str(out)


@pytest.mark.parametrize(
    "cell",
    [
        "[" * 5_000 + "]" * 5_000,  # nests too deeply for Python's JSON parser
        '[{"a": ' + "9" * 5_000 + "}]",  # an integer over Python's digit limit
        "null",
        "[]",
        "[1, 2]",
    ],
)
def test_mturk_task_answers_that_cannot_be_read_name_the_cell(cell):
    out = load_or_refuse(
        crowd_bytes(CROWD_HTML, lambda r: r[0].update({"Answer.taskAnswers": cell})), "m.csv"
    )
    assert isinstance(out, AnnotationDataError), "loaded"
    assert "column 'Answer.taskAnswers', row 2" in str(out), str(out)


@pytest.mark.parametrize(
    ("frame", "column"),
    [
        ({"WorkerId": [{"id": 1}, "W2"]}, "WorkerId"),
        ({"HITId": [["H1"], "H2"]}, "HITId"),
        ({"AssignmentStatus": [{"s": 1}, "Approved"]}, "AssignmentStatus"),
        ({"Answer.q": [{"x": 1}, "b"]}, "Answer.q"),
    ],
)
def test_crowd_cells_of_the_wrong_shape_from_a_dataframe_are_errors(frame, column):
    import pandas as pd

    base = {
        "HITId": ["H1", "H2"],
        "WorkerId": ["W1", "W2"],
        "AssignmentStatus": ["Approved", "Approved"],
        "Answer.q": ["a", "b"],
    }
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(pd.DataFrame({**base, **frame}))
    assert f"column '{column}', row 1" in str(err.value), str(err.value)


def test_toloka_worker_that_is_an_object_from_a_dataframe_is_an_error():
    import pandas as pd

    frame = pd.DataFrame(
        {
            "INPUT:text": ["t1", "t2"],
            "OUTPUT:result": ["a", "b"],
            "ASSIGNMENT:worker_id": ["w1", ["w2", "w3"]],
        }
    )
    with pytest.raises(AnnotationDataError, match=r"column 'ASSIGNMENT:worker_id', row 2"):
        load_annotations(frame)


@pytest.mark.parametrize(
    ("path", "skipped", "judgements", "missing"),
    [(MTURK_JUNK, 2, 3, 1), (TOLOKA_JUNK, 2, 3, 1)],
)
def test_crowd_junk_fixtures_count_add_up_and_say_why(path, skipped, judgements, missing):
    ann = load_annotations(path)
    adds_up(ann)
    assert ann.report.n_skipped == skipped
    assert ann.n_judgements == judgements and ann.report.n_missing == missing
    reasons = " ".join(s.reason for s in ann.report.skipped)
    assert "rejected assignments" in reasons


@pytest.mark.parametrize(
    ("path", "tool", "export"),
    [
        (LS, "Label Studio", "JSON"),
        (PRODIGY_CHOICE, "Prodigy", "db-out JSONL"),
        (MTURK, "Mechanical Turk", "batch results CSV"),
        (TOLOKA, "Toloka", "pool results TSV"),
    ],
)
def test_every_tool_names_its_export_in_describe_and_the_report(path, tool, export):
    table, _, report = read_table(path)
    info = describe_tool_export(table, format=report.format)
    assert (info.tool, info.export) == (tool, export)
    ann = load_annotations(path)
    assert (ann.report.tool, ann.report.columns["export"]) == (tool, export)
