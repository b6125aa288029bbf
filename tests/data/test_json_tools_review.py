"""Review of the JSON readers and the tool readers: repeated JSON keys, JSON in MTurk
answers, Prodigy options and configs, Label Studio from_name and task ids.

Each test fails without its fix: a repeated key read as its last value, a JSON object
read as a category, an accepted id outside the options read as a new category, a null
from_name counted as "no answer", two tasks under one id merged into one item, a task
without an id named by position with no note.
"""

from __future__ import annotations

import copy
import csv
import io
import json

import pytest

from analytics import AnnotationDataError, load_annotations
from analytics.data import read_table
from analytics.data.json_records import RepeatedKey, loads_strict, read_json_lines_flat
from analytics.data.limits import Limits
from tests.helpers.importers import upload
from tests.helpers.paths import FIXTURES

PRODIGY_CHOICE = FIXTURES / "prodigy_choice.jsonl"
MTURK = FIXTURES / "mturk_batch_results.csv"
CROWD_HTML = FIXTURES / "mturk_crowd_html.csv"


def refused(data: bytes, name: str, **options) -> str:
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(upload(data, name), tool_options=options or None)
    return str(err.value)


# ============================================================================ repeated keys
def test_loads_strict_refuses_a_repeated_key_at_any_depth():
    assert loads_strict('{"a": [{"b": 1}], "c": null}') == {"a": [{"b": 1}], "c": None}
    for text in ('{"a": 1, "a": 1}', '[{"x": {"a": 1, "\\u0061": 2}}]'):
        with pytest.raises(RepeatedKey) as err:
            loads_strict(text)
        assert err.value.key == "a"
    assert not issubclass(RepeatedKey, ValueError)  # never taken for "not JSON"


@pytest.mark.parametrize(
    ("data", "name", "place"),
    [
        (
            b'[{"item":1,"annotator":"a","label":"x","label":"y"},'
            b'{"item":1,"annotator":"b","label":"z"}]',
            "d.json",
            "row 1: record 1 gives the key 'label' twice",
        ),
        (
            b'{"records": [{"item":1,"annotator":"a","label":"x"},'
            b'{"item":1,"annotator":"b","label":"z","label":"q"}]}',
            "d.json",
            "row 2: record 2 under the key 'records' gives the key 'label' twice",
        ),
        (
            b'[{"item":1,"annotator":"a","label":"x"},'
            b'{"item":1,"annotator":"b","label":"z","meta":{"k":1,"k":2}}]',
            "d.json",
            "row 2: an object inside record 2 gives the key 'k' twice",
        ),
        (
            b'{"item": [1, 2], "label": ["x", "y"], "label": ["a", "b"]}',
            "d.json",
            "the top-level JSON object gives the key 'label' twice",
        ),
        (
            b'{"item":1,"annotator":"a","label":"x","label":"y"}\n'
            b'{"item":1,"annotator":"b","label":"z"}\n',
            "d.jsonl",
            "row 1: the record gives the key 'label' twice",
        ),
        (  # one object per line saved as .json: read as JSON Lines, the line named
            b'{"item":1,"annotator":"a","label":"x"}\n'
            b'{"item":1,"annotator":"b","label":"z","label":"q"}\n',
            "d.json",
            "row 2: the record gives the key 'label' twice",
        ),
        (  # nested: the strict per-line reader
            b'{"item":1,"annotator":"a","label":"x","m":{"q":1}}\n'
            b'{"item":1,"annotator":"b","label":"z","m":{"q":1,"q":2}}\n',
            "d.jsonl",
            "row 2: an object inside the record gives the key 'q' twice",
        ),
    ],
)
def test_a_repeated_json_key_is_refused_naming_the_record_and_the_key(data, name, place):
    msg = refused(data, name)
    assert f"file '{name}'" in msg and place in msg, msg
    assert "last" in msg  # how it would have been lost, and what to do


def test_a_repeated_key_after_the_head_leaves_the_arrow_path_and_is_named():
    line = b'{"item":"i%d","annotator":"a","label":"x"}\n'
    head = b"".join(line % i for i in range(30_000))  # over the 1 MiB head
    assert len(head) > 1 << 20
    data = head + b'{"item":"z","annotator":"b","label":"x","label":"y"}\n'
    assert read_json_lines_flat(data, "big.jsonl", Limits()) is None  # Arrow refuses it
    msg = refused(data, "big.jsonl")
    assert "row 30001: the record gives the key 'label' twice" in msg, msg


def test_a_line_that_is_not_json_is_reported_as_that_even_with_a_repeated_key():
    msg = refused(b'{"item":1,"item":2} trailing\n', "d.jsonl")
    assert "not valid JSON" in msg, msg


# ============================================================================ MTurk
def crowd_bytes(path, edit) -> bytes:
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        header, rows = list(reader.fieldnames or []), list(reader)
    edit(rows)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=header)
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode()


@pytest.mark.parametrize(
    ("cell", "kind"), [('{"label": "positive"}', "an object"), ('["positive"]', "a list")]
)
def test_mturk_answer_holding_json_is_refused_like_toloka(cell, kind):
    data = crowd_bytes(MTURK, lambda r: r[1].update({"Answer.sentiment": cell}))
    msg = refused(data, "m.csv")
    assert (
        "column 'Answer.sentiment', row 3" in msg and f"holds JSON, not a label (e.g. {kind}" in msg
    )


def test_mturk_answer_that_only_looks_like_json_stays_a_label():
    data = crowd_bytes(MTURK, lambda r: [x.update({"Answer.sentiment": "[x]"}) for x in r[:2]])
    ann = load_annotations(upload(data, "m.csv"))
    assert "[x]" in set(ann.categories)


def test_mturk_task_answers_bare_object_is_refused():
    cell = '{"topics": {"labels": ["Sports"]}}'
    msg = refused(
        crowd_bytes(CROWD_HTML, lambda r: r[0].update({"Answer.taskAnswers": cell})), "c.csv"
    )
    assert "column 'Answer.taskAnswers', row 2" in msg and "list of one form object" in msg, msg


def test_mturk_task_answers_repeated_key_is_refused():
    cell = '[{"topics": {"labels": ["Sports"]}, "topics": {"labels": ["Politics"]}}]'
    msg = refused(
        crowd_bytes(CROWD_HTML, lambda r: r[0].update({"Answer.taskAnswers": cell})), "c.csv"
    )
    assert "column 'Answer.taskAnswers', row 2" in msg and "key 'topics' twice" in msg, msg


# ============================================================================ Prodigy
def prodigy(edit) -> bytes:
    records = [json.loads(x) for x in PRODIGY_CHOICE.read_text().splitlines()]
    edit(records)
    return "\n".join(json.dumps(r) for r in records).encode()


def test_prodigy_accepted_id_outside_the_options_is_refused():
    msg = refused(prodigy(lambda r: r[1].update(accept=["NOT_AN_OPTION"])), "p.jsonl")
    assert "column 'accept', row 2" in msg and "'NOT_AN_OPTION'" in msg and "options" in msg, msg


@pytest.mark.parametrize("options", ["x", [1, 2], [{"text": "no id"}], {"id": "SPORTS"}])
def test_prodigy_options_of_the_wrong_shape_are_refused(options):
    msg = refused(prodigy(lambda r: r[2].update(options=options)), "p.jsonl")
    assert "column 'options', row 3" in msg, msg


def test_prodigy_numeric_option_ids_match_as_text():
    def numeric(records):
        for r in records:
            r["options"] = [{"id": 7 if o["id"] == "SPORTS" else o["id"]} for o in r["options"]]
            r["accept"] = [7 if x == "SPORTS" else x for x in r["accept"]]

    ann = load_annotations(upload(prodigy(numeric), "p.jsonl"))
    assert "7" in set(ann.categories)


def test_prodigy_tasks_without_options_are_noted():
    def strip(records):
        for r in records:
            r.pop("options")

    ann = load_annotations(upload(prodigy(strip), "p.jsonl"))
    assert any("no 'options'" in n for n in ann.report.notes), ann.report.notes


def test_prodigy_mixed_choice_styles_are_refused():
    msg = refused(prodigy(lambda r: r[0].update(config={"choice_style": "single"})), "p.jsonl")
    assert "column 'config', row 1" in msg and "both choice styles" in msg, msg


def test_prodigy_single_style_with_several_accepted_options_is_refused():
    def single(records):
        for r in records:
            r["config"] = {"choice_style": "single"}

    msg = refused(prodigy(single), "p.jsonl")
    assert "column 'accept'" in msg and "choice_style 'single'" in msg, msg
    ann = load_annotations(upload(prodigy(single), "p.jsonl"), tool_options={"multilabel": True})
    assert ann.n_judgements > 0


def test_prodigy_config_of_the_wrong_shape_and_label_with_accept_are_noted():
    def odd(records):
        records[0]["config"] = "multiple"
        records[1]["label"] = "SPORTS"

    ann = load_annotations(upload(prodigy(odd), "p.jsonl"))
    notes = " ".join(ann.report.notes)
    assert "'config' that is not an object" in notes and "line 1" in notes, notes
    assert "also has a 'label'" in notes and "line 2" in notes, notes


# ============================================================================ Label Studio
def ls_tasks() -> list[dict]:
    def ann(user, choice):
        result = [
            {"from_name": "s", "to_name": "t", "type": "choices", "value": {"choices": [choice]}}
        ]
        return {"completed_by": user, "result": result}

    return [
        {"id": 7, "data": {"text": "a"}, "annotations": [ann(1, "P"), ann(2, "N")]},
        {"id": 8, "data": {"text": "b"}, "annotations": [ann(1, "N"), ann(2, "N")]},
    ]


def test_label_studio_null_from_name_is_refused_not_counted_as_no_answer():
    tasks = ls_tasks()
    tasks[0]["annotations"][0]["result"][0]["from_name"] = None
    msg = refused(json.dumps(tasks).encode(), "ls.json")
    assert "row 1" in msg and "'from_name' is null" in msg, msg


def test_label_studio_relation_results_are_still_passed_over():
    tasks = ls_tasks()
    relation = {"from_id": "r1", "to_id": "r2", "type": "relation", "direction": "right"}
    tasks[0]["annotations"][0]["result"].append(relation)
    assert load_annotations(upload(json.dumps(tasks).encode(), "ls.json")).n_judgements == 4


def test_label_studio_repeated_task_id_is_refused_naming_it():
    tasks = ls_tasks()
    tasks[1]["id"] = 7
    msg = refused(json.dumps(tasks).encode(), "ls.json")
    assert "column 'id', rows 1, 2" in msg and "task id '7' is given to 2 tasks" in msg, msg
    assert "duplicates policy" not in msg


def test_label_studio_tasks_without_id_are_noted_with_their_rows():
    tasks = ls_tasks()
    for t in tasks:
        del t["id"]
    ann = load_annotations(upload(json.dumps(tasks).encode(), "ls.json"))
    assert set(ann.items) == {"task@1", "task@2"}
    notes = " ".join(ann.report.notes)
    assert "2 tasks have no 'id'" in notes and "task@<row>" in notes and "rows 1, 2" in notes, notes
    # with data.item on every task the ids are not needed: no note
    with_items = copy.deepcopy(tasks)
    for k, t in enumerate(with_items):
        t["data"]["item"] = f"q{k}"
    ann = load_annotations(upload(json.dumps(with_items).encode(), "ls.json"))
    assert not any("no 'id'" in n for n in ann.report.notes)


def test_read_table_still_reads_json_with_unique_keys():
    table, rows, _ = read_table(upload(b'[{"a": 1, "b": {"a": 2}}]', "x.json"))
    assert table.columns.tolist() == ["a", "b"] and rows.tolist() == [1]


def test_label_studio_csv_answer_with_a_repeated_key_is_refused():
    text = (FIXTURES / "label_studio_export.csv").read_text(encoding="utf-8")
    old = '"{""choices"": [""Sp'
    assert old in text
    bad = text.replace(old, '"{""choices"": [""Politics""], ""choices"": [""Sp', 1)
    msg = refused(bad.encode(), "ls.csv", from_name="topics")
    assert "column 'topics', row 3" in msg and "key 'choices' twice" in msg, msg
