"""Malformed tool exports raise AnnotationDataError naming the field and the row; they never
load as garbage (strings split into characters, dict reprs as labels, a wrong tool).

Each case is a small hand-written variant of the documented formats.
"""

from __future__ import annotations

import io
import json

import pytest

from analytics import AnnotationDataError, load_annotations
from analytics.data import Annotations, LabelKind
from tests.helpers.importers import convert, crowd_csv, upload
from tests.helpers.paths import FIXTURES

PRODIGY_CHOICE = FIXTURES / "prodigy_choice.jsonl"


def labels_of(ann: Annotations) -> set:
    return set(ann.to_frame()["label"])


# ============================================================================ Label Studio
def ls_result(name: str, kind: str, value) -> dict:
    return {"from_name": name, "to_name": "text", "type": kind, "value": {kind: value}}


def ls_tasks(*values, name="sentiment", kind="choices", cancelled=(False, False)) -> list[dict]:
    """One task per value, two annotators each (the same value)."""
    return [
        {
            "id": 100 + k,
            "data": {"text": f"t{k}"},
            "annotations": [
                {"completed_by": who, "was_cancelled": c, "result": [ls_result(name, kind, v)]}
                for who, c in zip((1, 2), cancelled, strict=True)
            ],
        }
        for k, v in enumerate(values)
    ]


def ls_bytes(tasks: list[dict]) -> io.BytesIO:
    return upload(json.dumps(tasks).encode(), "project.json")


@pytest.mark.parametrize(
    ("kind", "good", "bad", "field"),
    [
        ("choices", ["pos"], "pos", "choices"),  # a string would split into 'p', 'o', 's'
        ("choices", ["pos"], [{"id": "pos"}], "choices"),  # objects are not option names
        ("choices", ["pos"], [["pos"]], "choices"),
        ("taxonomy", [["Sports"]], "Sports", "taxonomy"),  # one-letter categories
        ("taxonomy", [["Sports"]], ["Sports"], "taxonomy"),  # a path must be a list
        ("taxonomy", [["Sports"]], [[{"x": 1}]], "taxonomy"),
        ("rating", 4, [4], "rating"),
        ("rating", 4, {"stars": 4}, "rating"),
        ("number", 2.5, "2.5", "number"),
    ],
)
def test_label_studio_value_of_the_wrong_shape_names_field_and_task(kind, good, bad, field):
    tasks = ls_tasks(good, bad, name="c", kind=kind)
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(ls_bytes(tasks))
    msg = str(err.value)
    assert f"'{field}'" in msg and "'c'" in msg, msg
    assert "row 2" in msg and "task 101" in msg, msg
    # the well-formed value alone still loads
    ann = load_annotations(ls_bytes(ls_tasks(good, name="c", kind=kind)))
    assert ann.n_judgements == 2


def test_label_studio_missing_choices_key_is_an_error_not_an_empty_set():
    tasks = ls_tasks(["pos"], ["neg"])
    tasks[1]["annotations"][0]["result"][0]["value"] = {"text": ["neg"]}
    with pytest.raises(AnnotationDataError, match=r"row 2.*task 101.*no 'choices'"):
        load_annotations(ls_bytes(tasks))


@pytest.mark.parametrize(
    ("flags", "kept", "cancelled"),
    [
        (("false", "False"), 4, 0),
        ((" TRUE ", "false"), 2, 2),  # the flags apply to annotator 1, 2 of both tasks
        (("False", True), 2, 2),
    ],
)
def test_label_studio_was_cancelled_as_text_is_read_strictly_with_a_note(flags, kept, cancelled):
    tasks = ls_tasks(["pos"], ["neg"])
    for task in tasks:
        for a, flag in zip(task["annotations"], flags, strict=True):
            a["was_cancelled"] = flag
    ann = convert(ls_bytes(tasks))
    assert ann.n_judgements == kept
    skips = {s.reason: s.count for s in ann.report.skipped}
    assert skips.get("cancelled (skipped) annotations in Label Studio (was_cancelled)", 0) == (
        cancelled
    )
    assert any("'was_cancelled'" in n and "text" in n for n in ann.report.notes)


@pytest.mark.parametrize("flag", ["no", "0", 1, [], {"x": 1}])
def test_label_studio_was_cancelled_of_another_kind_is_an_error(flag):
    tasks = ls_tasks(["pos"], ["neg"])
    tasks[1]["annotations"][1]["was_cancelled"] = flag
    with pytest.raises(AnnotationDataError, match=r"row 2.*'was_cancelled'"):
        load_annotations(ls_bytes(tasks))


def test_label_studio_was_cancelled_null_or_absent_means_not_cancelled():
    tasks = ls_tasks(["pos"], ["neg"])
    tasks[0]["annotations"][0]["was_cancelled"] = None
    del tasks[1]["annotations"][0]["was_cancelled"]
    ann = convert(ls_bytes(tasks))
    assert ann.n_judgements == 4
    assert not any("'was_cancelled'" in n for n in ann.report.notes)


def test_label_studio_tasks_without_data_are_an_error_not_a_wide_table():
    tasks = ls_tasks(["pos"], ["neg"])
    for t in tasks:
        del t["data"]
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(ls_bytes(tasks))
    msg = str(err.value)
    assert "Label Studio" in msg and "'data'" in msg, msg


def test_label_studio_task_whose_data_is_not_an_object_names_the_row():
    tasks = ls_tasks(["pos"], ["neg"], ["neu"])
    tasks[2]["data"] = "t2"
    with pytest.raises(AnnotationDataError, match=r"row 3.*'data'"):
        load_annotations(ls_bytes(tasks))


@pytest.mark.parametrize("cell", ["[]", "none yet", 7])
def test_label_studio_annotations_not_a_list_is_an_error_not_a_wide_table(cell):
    tasks = ls_tasks(["pos"], ["neg"])
    tasks[0]["annotations"] = cell
    tasks[1]["annotations"] = cell
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(ls_bytes(tasks))
    msg = str(err.value)
    assert "Label Studio" in msg and "'annotations'" in msg and "not a list" in msg, msg


def test_label_studio_one_task_with_annotations_as_text_names_the_row():
    tasks = ls_tasks(["pos"], ["neg"], ["neu"])
    tasks[1]["annotations"] = json.dumps(tasks[1]["annotations"])
    with pytest.raises(AnnotationDataError, match=r"row 2.*'annotations' that is str, not a list"):
        load_annotations(ls_bytes(tasks))


def test_a_plain_csv_with_an_annotations_column_is_not_label_studio():
    data = b"item,annotator,annotations\nq1,a,pos\nq1,b,neg\nq2,a,pos\n"
    ann = load_annotations(upload(data, "plain.csv"))
    assert ann.report.tool is None and ann.n_judgements == 3
    assert set(ann.categories) == {"pos", "neg"}


# ============================================================================ MTurk
def test_mturk_null_or_absent_field_is_missing_not_an_empty_set():
    forms = [
        {"topics": {"labels": ["a", "b"]}},
        {"topics": None},  # the worker's form held no answer: missing
        {"topics": {"labels": []}},  # an explicit empty selection: a real judgement
        {},
    ]
    ann = load_annotations(upload(crowd_csv(forms), "c.csv"))
    assert ann.kind is LabelKind.MULTILABEL
    assert ann.n_judgements == 2 and ann.report.n_missing == 2
    assert labels_of(ann) == {frozenset({"a", "b"}), frozenset()}


@pytest.mark.parametrize(
    "odd",
    [5, "sports", {"label": "sports"}, True],  # a single value among label sets
)
def test_mturk_single_value_among_label_sets_names_column_and_row(odd):
    forms = [{"topics": {"labels": ["a", "b"]}}, {"topics": odd}, {"topics": {"labels": ["a"]}}]
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(upload(crowd_csv(forms), "c.csv"))
    msg = str(err.value)
    assert "column 'Answer.taskAnswers'" in msg and "row 3" in msg and "'topics'" in msg, msg


def test_mturk_numbers_alone_are_labels():
    ann = load_annotations(upload(crowd_csv([{"score": 5}, {"score": 3}]), "c.csv"))
    assert ann.n_judgements == 2 and ann.kind is not LabelKind.MULTILABEL


@pytest.mark.parametrize("labels", [[{"a": 1}], [["a"]], [None], "ab"])
def test_mturk_labels_list_of_non_names_is_an_error(labels):
    forms = [{"topics": {"labels": ["a"]}}, {"topics": {"labels": labels}}]
    with pytest.raises(AnnotationDataError, match=r"column 'Answer.taskAnswers', row 3.*'topics'"):
        load_annotations(upload(crowd_csv(forms), "c.csv"))


# ============================================================================ Prodigy
def prodigy_choice_lines() -> list[dict]:
    return [json.loads(x) for x in PRODIGY_CHOICE.read_text().splitlines()]


@pytest.mark.parametrize(
    "accept", [[["SPORTS"]], [{"id": "SPORTS"}], ["SPORTS", None], [True], "SPORTS,BUSINESS"]
)
def test_prodigy_accept_of_non_option_ids_names_the_line(accept):
    records = prodigy_choice_lines()
    records[1]["accept"] = accept
    data = "\n".join(json.dumps(r) for r in records).encode()
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(upload(data, "db.jsonl"))
    msg = str(err.value)
    assert "'accept'" in msg and "row 2" in msg, msg


def test_prodigy_numeric_option_ids_are_kept_as_text():
    records = prodigy_choice_lines()
    for r in records:  # the option's id is the number 7, and the answers name it so
        r["accept"] = [7 if x == "SPORTS" else x for x in r["accept"]]
        r["options"] = [{**o, "id": 7 if o["id"] == "SPORTS" else o["id"]} for o in r["options"]]
    ann = load_annotations(upload("\n".join(map(json.dumps, records)).encode(), "db.jsonl"))
    assert "7" in set(ann.categories)


# ============================================================================ tool options
def test_every_reader_option_is_documented_with_a_type():
    from analytics.data.importers import TOOL_OPTIONS, TOOL_READERS

    for reader in TOOL_READERS:
        for key in reader.options:
            opt = TOOL_OPTIONS[key]
            assert opt.name == key and reader.name in opt.tools
            assert opt.type in ("bool", "int", "str", "list[str]")
            assert reader.name in opt.help and opt.help[reader.name] == reader.options[key]
    assert {k: o.type for k, o in TOOL_OPTIONS.items()} == {
        "from_name": "str",
        "include_predictions": "bool",
        "multilabel": "bool",
        "annotator_key": "str",
        "answer": "str",
        "item_columns": "list[str]",
    }
    assert TOOL_OPTIONS["multilabel"].auto and not TOOL_OPTIONS["include_predictions"].auto


@pytest.mark.parametrize(
    ("key", "text", "value"),
    [
        ("multilabel", "true", True),
        ("multilabel", " Yes ", True),
        ("multilabel", "1", True),
        ("multilabel", "OFF", False),
        ("multilabel", "no", False),
        ("multilabel", "auto", None),  # decide from the data (the default)
        ("include_predictions", "false", False),
        ("include_predictions", "on", True),
        ("from_name", " topics ", "topics"),
        ("answer", "Answer.taskAnswers.topics", "Answer.taskAnswers.topics"),
        ("annotator_key", "_session_id", "_session_id"),
        ("item_columns", "Input.text", ["Input.text"]),
        ("item_columns", "Input.text, Input.lang,", ["Input.text", "Input.lang"]),
        (" multilabel ", "false", False),
    ],
)
def test_parse_tool_option_converts_cli_text(key, text, value):
    from analytics.data.importers import parse_tool_option

    name, got = parse_tool_option(key, text)
    assert name == key.strip()
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize(
    ("key", "text", "match"),
    [
        ("colour", "blue", r"unknown tool option 'colour'.*from_name"),
        ("multilabel", "maybe", r"'multilabel'.*true or false.*'maybe'"),
        ("include_predictions", "auto", r"'include_predictions'.*true or false"),
        ("from_name", "  ", r"'from_name' needs a value"),
        ("item_columns", " , ", r"'item_columns' needs"),
    ],
)
def test_parse_tool_option_refuses_what_it_cannot_convert(key, text, match):
    from analytics.data.importers import parse_tool_option

    with pytest.raises(AnnotationDataError, match=match):
        parse_tool_option(key, text)


def test_parse_tool_option_int_type(monkeypatch):
    """No reader has an int option yet; the conversion is checked on a stand-in."""
    import analytics.data.importers as imp

    fake = imp.ToolOption("max_tasks", "int", ("X",), {"X": "at most this many tasks"})
    monkeypatch.setitem(imp.TOOL_OPTIONS, "max_tasks", fake)
    assert imp.parse_tool_option("max_tasks", " 12 ") == ("max_tasks", 12)
    with pytest.raises(AnnotationDataError, match=r"'max_tasks'.*whole number.*'1.5'"):
        imp.parse_tool_option("max_tasks", "1.5")


def test_parsed_options_load_like_python_values():
    from analytics.data.importers import parse_tool_option

    options = dict(
        parse_tool_option(k, v) for k, v in [("from_name", "topics"), ("multilabel", "false")]
    )
    tasks = ls_tasks(["a"], ["b"], name="topics")
    ann = convert(ls_bytes(tasks), **options)
    assert ann.kind is LabelKind.NOMINAL and ann.n_judgements == 4


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"include_predictions": "false"}, r"'include_predictions'.*true or false.*str"),
        ({"multilabel": "yes"}, r"'multilabel'.*true or false"),
        ({"from_name": 3}, r"'from_name'.*text"),
        ({"from_name": ["sentiment"]}, r"'from_name'.*text"),
    ],
)
def test_option_values_of_the_wrong_type_are_errors_not_truthy(options, match):
    """A script passing include_predictions="false" must not read predictions."""
    with pytest.raises(AnnotationDataError, match=match):
        convert(ls_bytes(ls_tasks(["a"], ["b"])), **options)


def test_option_values_of_the_right_type_pass():
    ann = convert(ls_bytes(ls_tasks(["a"], ["b"])), include_predictions=False, multilabel=None)
    assert ann.n_judgements == 4
    mturk = [{"t": {"label": "x"}}, {"t": {"label": "y"}}]
    for cols in ("HITId", ["HITId"], ("HITId",)):
        ann = convert(upload(crowd_csv(mturk), "c.csv"), item_columns=cols)
        assert ann.n_judgements == 2
    with pytest.raises(AnnotationDataError, match=r"'item_columns'.*list of column names"):
        convert(upload(crowd_csv(mturk), "c.csv"), item_columns=[1])


# ============================================================================ plain loader
# The plain loader refuses object and nested-list cells it cannot interpret, rather than
# loading their Python text as ids or labels.


def json_upload(records: list[dict]) -> io.BytesIO:
    return upload(json.dumps(records).encode(), "records.json")


@pytest.mark.parametrize(
    ("records", "column", "row"),
    [
        (
            [
                {"item": "q1", "annotator": "a", "label": "x"},
                {"item": "q1", "annotator": "b", "label": {"value": "x"}},
            ],
            "label",
            2,
        ),
        (
            [
                {"item": "q1", "annotator": "a", "label": ["x"]},
                {"item": "q1", "annotator": "b", "label": [["x"]]},
            ],
            "label",
            2,
        ),
        (
            [
                {"item": {"id": 1}, "annotator": "a", "label": "x"},
                {"item": "q2", "annotator": "b", "label": "y"},
            ],
            "item",
            1,
        ),
        (  # wide form: every column but the id is an annotator
            [{"id": 1, "ann1": "x", "ann2": "y"}, {"id": 2, "ann1": {"v": "x"}, "ann2": "y"}],
            "ann1",
            2,
        ),
    ],
)
def test_plain_loader_refuses_object_cells_instead_of_dict_reprs(records, column, row):
    try:
        ann = load_annotations(json_upload(records))
    except AnnotationDataError as exc:
        assert f"column '{column}'" in str(exc) and f"row {row}" in str(exc), str(exc)
        return
    raise AssertionError(f"loaded as garbage: {sorted(map(str, ann.categories))}")


def test_plain_loader_reads_json_lists_of_names_as_label_sets():
    records = [
        {"item": "q1", "annotator": "a", "label": ["x", "y"]},
        {"item": "q1", "annotator": "b", "label": []},
    ]
    ann = load_annotations(json_upload(records))
    assert ann.kind is LabelKind.MULTILABEL
    assert labels_of(ann) == {frozenset({"x", "y"}), frozenset()}
