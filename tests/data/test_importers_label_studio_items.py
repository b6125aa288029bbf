"""Label Studio JSON: which id names an item (task id or data.item), and task files that
hold no annotations yet (analytics.data.importers.label_studio_items)."""

from __future__ import annotations

import json

import pytest

from analytics import AnnotationDataError, load_annotations
from analytics.data import read_table
from analytics.data.importers import describe_tool_export
from tests.helpers.importers import convert, upload


def result(label: str) -> dict:
    return {
        "from_name": "topic",
        "to_name": "text",
        "type": "choices",
        "value": {"choices": [label]},
    }


def task(task_id, data: dict, *labels, predictions=None, first_who=1) -> dict:
    out = {
        "id": task_id,
        "data": data,
        "annotations": [
            {"completed_by": who, "was_cancelled": False, "result": [result(lab)]}
            for who, lab in enumerate(labels, start=first_who)
        ],
    }
    if predictions is not None:
        out["predictions"] = predictions
    return out


def as_file(tasks: list[dict], name: str = "project.json"):
    return upload(json.dumps(tasks).encode(), name)


def test_every_task_with_data_item_is_keyed_on_it():
    tasks = [task(5000, {"item": "msg1", "text": "a"}, "x", "y"), task(5001, {"item": 17}, "x")]
    ann = convert(as_file(tasks))
    assert list(ann.items) == ["msg1", "17"]  # a JSON number reads as the id's text
    assert any("data.item" in n and "task id" in n for n in ann.report.notes)


def test_no_task_with_data_item_keeps_the_task_ids_without_a_note():
    ann = convert(as_file([task(5000, {"text": "a"}, "x"), task(5001, {"text": "b"}, "y")]))
    assert list(ann.items) == ["5000", "5001"]
    assert not any("data.item" in n for n in ann.report.notes)


@pytest.mark.parametrize("odd", [{"text": "b"}, {"item": None}, {"item": ""}, {"item": [1]}])
def test_some_tasks_without_data_item_keep_the_task_ids_with_a_note(odd):
    tasks = [
        task(5000, {"item": "msg1"}, "x"),
        task(5001, odd, "y"),
        task(5002, {"item": "m3"}, "x"),
    ]
    ann = load_annotations(as_file(tasks, "mixed.json"))
    assert list(ann.items) == ["5000", "5001", "5002"]  # one kind of id, never mixed
    assert any("1 task of 3 has no data.item" in n for n in ann.report.notes)


def test_data_item_of_no_task_being_an_id_keeps_the_task_ids():
    """Objects in data.item (a project's own field) are not item ids: task ids, as before."""
    ann = convert(as_file([task(1, {"item": {"a": 1}}, "x"), task(2, {"item": [2]}, "y")]))
    assert list(ann.items) == ["1", "2"]


def test_tasks_sharing_a_data_item_pool_their_judgements_with_a_note():
    """An item sent in two batches: its judgements come back under it, said in a note that
    also says what to do when data.item is a project's own field."""
    tasks = [task(1, {"item": "m"}, "x"), task(2, {"item": "m"}, "y", first_who=2)]
    tasks.append(task(3, {"item": "n"}, "x"))
    ann = convert(as_file(tasks))
    assert list(ann.items) == ["m", "n"] and ann.n_judgements == 3
    (said,) = [n for n in ann.report.notes if "1 task repeats the data.item" in n]
    assert "a field of your project rather than the item id" in said


def test_predictions_follow_data_item_too():
    pred = [{"model_version": "v1", "result": [result("x")]}]
    tasks = [task(1, {"item": "m"}, "x", predictions=pred), task(2, {"item": "n"}, "y")]
    ann = convert(as_file(tasks), include_predictions=True)
    assert set(ann.items) == {"m", "n"} and "model:v1" in set(ann.annotators)


def test_a_plain_task_file_says_it_is_not_annotated_yet():
    tasks = [{"id": 1, "data": {"text": "a"}}, {"id": 2, "data": {"text": "b"}}]
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(as_file(tasks, "import.json"))
    msg = str(err.value)
    assert "import.json" in msg and "tasks file with no annotations yet (2 tasks" in msg
    assert "Concord's batch export" not in msg and "include_predictions" not in msg


def test_a_task_file_with_predictions_reads_them_when_asked():
    pred = [{"model_version": "v2", "result": [result("x")]}]
    tasks = [
        {"data": {"item": "m"}, "predictions": pred},
        {"data": {"item": "n"}, "predictions": pred},
    ]
    with pytest.raises(AnnotationDataError, match="include_predictions=True"):
        load_annotations(as_file(tasks))
    ann = convert(as_file(tasks), include_predictions=True)
    assert list(ann.items) == ["m", "n"] and list(ann.annotators) == ["model:v2"]


def test_a_task_file_is_described_without_an_error():
    table, _, _ = read_table(as_file([{"data": {"item": "m"}, "meta": {"assignments": 2}}]))
    info = describe_tool_export(table)
    assert info is not None and info.tool == "Label Studio"
    assert info.export == "JSON tasks, not annotated yet" and info.choices["from_name"] == []


def test_json_records_with_a_data_object_beside_other_columns_are_not_task_files():
    records = [
        {"item": "i1", "annotator": "a", "label": "x", "data": {"k": 1}},
        {"item": "i1", "annotator": "b", "label": "y", "data": {"k": 2}},
    ]
    table, _, _ = read_table(as_file(records, "records.json"))
    assert describe_tool_export(table) is None
