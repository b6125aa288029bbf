"""Batch -> Label Studio tasks -> Label Studio's export after annotation -> load: the
judgements come back under the batch's item ids and merge with the original data."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from analytics import AnnotationDataError, load_annotations
from analytics.dawid_skene import fit
from analytics.next_labels import label_studio_tasks, next_batch
from tests.helpers.paths import SAMPLE_DATA


def annotated(tasks: list[dict], first_id: int = 5000) -> list[dict]:
    """What Label Studio exports (JSON) once two people have annotated the imported tasks."""
    out = []
    for n, task in enumerate(tasks):
        anns = [
            {
                "id": 9000 + 2 * n + k,
                "completed_by": who,
                "was_cancelled": False,
                "result": [
                    {
                        "from_name": "intent",
                        "to_name": "text",
                        "type": "choices",
                        "value": {"choices": [label]},
                    }
                ],
            }
            for k, (who, label) in enumerate([(71, "billing"), (72, "billing")])
        ]
        out.append({"id": first_id + n, **task, "annotations": anns, "predictions": []})
    return out


@pytest.fixture(scope="module")
def original():
    return load_annotations(SAMPLE_DATA / "crowd_intents.csv")


@pytest.fixture(scope="module")
def batch(original):
    return next_batch(fit(original), original, 12)


def test_round_trip_keeps_the_batch_item_ids(tmp_path, original, batch):
    tasks = json.loads(label_studio_tasks(batch))
    path = tmp_path / "project-1-at-2025.json"
    path.write_text(json.dumps(annotated(tasks)), encoding="utf-8")
    back = load_annotations(path)
    assert list(back.items) == list(dict.fromkeys(batch["item"]))  # not '5000', '5001', ...
    assert back.n_judgements == 2 * len(tasks)
    assert any("data.item" in n for n in back.report.notes), back.report.notes
    merged = load_annotations(pd.concat([original.to_frame(), back.to_frame()], ignore_index=True))
    assert set(merged.items) == set(original.items)  # no new items: the ids matched
    assert merged.n_judgements == original.n_judgements + back.n_judgements


def test_loading_the_tasks_file_itself_says_it_is_not_annotated_yet(tmp_path, batch):
    path = tmp_path / "next_batch_label_studio.json"
    path.write_text(label_studio_tasks(batch), encoding="utf-8")
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(path)
    msg = str(err.value)
    assert "next_batch_label_studio.json" in msg
    assert "tasks file with no annotations yet" in msg and "Concord's batch export" in msg
    assert "item cells hold" not in msg


def test_the_export_and_the_importer_agree_on_the_item_field():
    from analytics.data.importers.label_studio_items import ITEM_FIELD as READ
    from analytics.next_labels.export import ITEM_FIELD as WRITTEN

    assert READ == WRITTEN
