"""Label Studio JSON and Prodigy JSONL exports: counts, label sets, skips, options, errors.

Every fixture in tests/fixtures/ was written by hand from the tools' documented export
formats; each test also re-derives the expected judgements with a plain loop over the
raw JSON (an implementation independent of the readers).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError, load_annotations
from analytics.data import Annotations, LabelKind, read_table
from analytics.data.importers import TOOL_OPTIONS, convert_tool_export, describe_tool_export
from tests.helpers.importers import convert
from tests.helpers.paths import FIXTURES

FIX = FIXTURES
LS = FIX / "label_studio_export.json"
PRODIGY_BINARY = FIX / "prodigy_binary.jsonl"
PRODIGY_CHOICE = FIX / "prodigy_choice.jsonl"


def triples(ann: Annotations) -> set[tuple]:
    return {
        (str(i), str(a), lab) for i, a, lab in ann.to_frame().itertuples(index=False, name=None)
    }


def jsonl_bytes(records: list[dict]) -> bytes:
    return "\n".join(json.dumps(r) for r in records).encode()


def as_upload(data: bytes, name: str):
    import io

    buf = io.BytesIO(data)
    buf.name = name
    return buf


# ============================================================================ Label Studio
def ls_oracle(path: Path, control: str) -> tuple[set[tuple], int]:
    """Plain-loop reading of the documented format: (item, annotator, choices) + cancelled."""
    out, cancelled = set(), 0
    for task in json.loads(path.read_text()):
        for a in task["annotations"]:
            if a["was_cancelled"]:
                cancelled += 1
                continue
            who = a["completed_by"]
            who = who["email"] if isinstance(who, dict) else str(who)
            for r in a["result"]:
                if r["from_name"] == control:
                    out.add((str(task["id"]), who, tuple(r["value"]["choices"])))
    return out, cancelled


def test_label_studio_default_is_first_control_and_counts():
    ann = load_annotations(LS)
    assert ann.report.tool == "Label Studio"
    assert (ann.n_items, ann.n_annotators, ann.n_judgements) == (4, 3, 10)
    assert ann.kind is LabelKind.NOMINAL
    assert set(ann.annotators) == {"1", "2", "carol@example.org"}  # id, id, object -> email
    expected, cancelled = ls_oracle(LS, "sentiment")
    assert {(i, a, (lab,)) for i, a, lab in triples(ann)} == expected
    assert cancelled == 2
    (skip,) = [s for s in ann.report.skipped if "cancelled" in s.reason]
    assert skip.count == 2 and skip.rows == (2, 3)  # tasks 102 and 103
    text = " ".join(ann.report.messages())
    assert "'sentiment'" in text and "'topics'" in text and "from_name" in text
    # predictions not asked for are rows the report counts as skipped, with the reason
    assert "2 skipped: model predictions, not read (include_predictions=True" in text


def test_label_studio_multiple_choices_become_sets_with_real_empty_sets():
    ann = convert(LS, from_name="topics")
    assert ann.kind is LabelKind.MULTILABEL
    assert (ann.n_items, ann.n_annotators, ann.n_judgements) == (4, 3, 10)
    labels = {(i, a): s for i, a, s in triples(ann)}
    assert labels[("101", "2")] == frozenset({"Sports", "Politics"})
    # carol ticked no topic on task 101: a judgement of "none", not a missing one
    assert labels[("101", "carol@example.org")] == frozenset()
    assert set(ann.categories) == {"Sports", "Politics", "Business", "Weather", "Travel"}
    assert ann.label_matrix.sum() == 3 + 2 + 2 + 4  # options ticked per task, by hand
    assert any("read as the empty set" in n for n in ann.report.notes)


def test_label_studio_rating_and_taxonomy():
    rating = convert(LS, from_name="quality")
    assert rating.n_judgements == 10
    assert sorted(rating.categories) == [2, 3, 4, 5]
    got = {(i, a): v for i, a, v in triples(rating)}
    assert got[("101", "2")] == 5 and got[("102", "carol@example.org")] == 2
    tax = convert(LS, from_name="category")
    assert tax.kind is LabelKind.MULTILABEL
    got = {(i, a): v for i, a, v in triples(tax)}
    assert got[("101", "2")] == frozenset({"Sports/Football", "Politics"})
    assert got[("104", "carol@example.org")] == frozenset({"Weather", "Travel/Air"})


def test_label_studio_predictions_only_when_asked():
    ann = convert(LS, include_predictions=True)
    assert (ann.n_items, ann.n_annotators, ann.n_judgements) == (5, 4, 12)
    got = {(i, a): v for i, a, v in triples(ann)}
    assert got[("105", "model:sentiment-bert-v1")] == "Positive"
    assert got[("104", "model:sentiment-bert-v1")] == "Negative"


def test_label_studio_multilabel_option():
    forced = convert(LS, multilabel=True)  # sentiment read as one-element sets
    assert forced.kind is LabelKind.MULTILABEL
    assert forced.label_matrix.sum(axis=1).tolist() == [1] * 10
    with pytest.raises(AnnotationDataError, match="several options"):
        convert(LS, from_name="topics", multilabel=False)


def test_label_studio_options_are_checked():
    with pytest.raises(AnnotationDataError, match=r"no labelling control 'mood'.*'sentiment'"):
        convert(LS, from_name="mood")
    with pytest.raises(AnnotationDataError, match="does not apply to a Label Studio export"):
        convert(LS, answer="Answer.x")
    with pytest.raises(AnnotationDataError, match="unknown tool option"):
        convert(LS, colour="blue")


def test_label_studio_malformed_result_names_the_problem():
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(FIX / "label_studio_malformed.json")
    msg = str(err.value)
    assert "label_studio_malformed.json" in msg and "'result'" in msg and "row 2" in msg


def ls_task(task_id, *annotations, predictions=()):
    return {
        "id": task_id,
        "data": {"text": f"t{task_id}"},
        "annotations": list(annotations),
        "predictions": list(predictions),
    }


def ls_ann(who, *results, cancelled=False):
    return {"completed_by": who, "was_cancelled": cancelled, "result": list(results)}


def choice(name, *values, kind="choices"):
    return {"from_name": name, "to_name": "text", "type": kind, "value": {kind: list(values)}}


def ls_load(tasks, **options):
    return convert(as_upload(json.dumps(tasks).encode(), "project.json"), **options)


def test_label_studio_region_controls_and_per_region_choices_are_refused():
    region = {
        "from_name": "ner",
        "to_name": "text",
        "type": "labels",
        "value": {"start": 0, "end": 4, "labels": ["PER"]},
    }
    tasks = [ls_task(1, ls_ann(1, region), ls_ann(2, region))]
    with pytest.raises(AnnotationDataError, match="none of the labelling controls"):
        ls_load(tasks)
    tasks = [ls_task(1, ls_ann(1, region, choice("s", "a")), ls_ann(2, choice("s", "b")))]
    with pytest.raises(AnnotationDataError, match="'ner' is of type 'labels'"):
        ls_load(tasks, from_name="ner")
    assert ls_load(tasks).n_judgements == 2  # the first item-level control is used
    tasks = [ls_task(1, ls_ann(1, choice("s", "a"), choice("s", "b")))]
    with pytest.raises(AnnotationDataError, match="per-region"):
        ls_load(tasks)


def test_label_studio_missing_answers_and_annotators_are_counted():
    tasks = [
        ls_task(1, ls_ann(1, choice("s", "a")), ls_ann(2), ls_ann(None, choice("s", "a"))),
        ls_task(2, ls_ann(1, choice("s", "b")), ls_ann(2, choice("s", "b"))),
    ]
    ann = ls_load(tasks)
    assert ann.n_judgements == 3
    reasons = {s.reason: s.count for s in ann.report.skipped}
    assert reasons["annotations without an answer for the control 's'"] == 1
    assert reasons["annotations with no completed_by (annotator unknown)"] == 1


def test_label_studio_everything_cancelled_is_an_error_not_an_empty_dataset():
    tasks = [ls_task(1, ls_ann(1, choice("s", "a"), cancelled=True))]
    with pytest.raises(AnnotationDataError, match=r"holds no judgements.*cancelled"):
        ls_load(tasks)


def test_label_studio_category_named_none_is_flagged():
    tasks = [ls_task(1, ls_ann(1, choice("s", "None")), ls_ann(2, choice("s", "Spam")))]
    ann = ls_load(tasks)
    assert any("name ['None'] reads as 'not labelled'" in n for n in ann.report.notes)


def test_label_studio_describe_lists_controls():
    table, _, _ = read_table(LS)
    info = describe_tool_export(table)
    assert info.tool == "Label Studio"
    assert info.choices["from_name"] == ["sentiment", "topics", "quality", "category"]
    assert info.defaults["from_name"] == "sentiment"
    assert info.choices["include_predictions"] == [False, True]
    assert set(info.help) <= set(TOOL_OPTIONS)


# ============================================================================ Prodigy
def prodigy_binary_oracle(path: Path) -> tuple[set[tuple], int]:
    """Plain loop: label sets per (input, annotator) from accept/reject; ignores counted."""
    accepted: dict[tuple, set] = {}
    ignored = 0
    for line in path.read_text().splitlines():
        t = json.loads(line)
        if t["answer"] == "ignore":
            ignored += 1
            continue
        key = (str(t["_input_hash"]), t["_annotator_id"])
        accepted.setdefault(key, set())
        if t["answer"] == "accept":
            accepted[key].add(t["label"])
    return {(i, a, frozenset(s)) for (i, a), s in accepted.items()}, ignored


def test_prodigy_binary_counts_sets_and_ignores():
    ann = load_annotations(PRODIGY_BINARY)
    assert ann.report.tool == "Prodigy"
    assert (ann.n_items, ann.n_annotators, ann.n_judgements) == (4, 3, 9)
    assert ann.kind is LabelKind.MULTILABEL
    assert set(ann.categories) == {"SPORTS", "POLITICS"}
    expected, ignored = prodigy_binary_oracle(PRODIGY_BINARY)
    assert triples(ann) == expected
    (skip,) = [s for s in ann.report.skipped if "ignore" in s.reason]
    assert skip.count == ignored == 3 and skip.rows == (7, 8, 11)
    # rejected everything -> a real empty set; all ignored -> no judgement at all
    got = {(i, a): s for i, a, s in triples(ann)}
    assert got[("-97310548", "news_textcat-alex")] == frozenset()
    assert ("1442215930", "news_textcat-alex") not in got
    assert any(
        "2 input/annotator pairs were not asked about every label" in n for n in ann.report.notes
    )


def test_prodigy_session_id_as_annotator_and_option_check():
    ann = convert(PRODIGY_BINARY, annotator_key="_session_id")
    assert set(ann.annotators) == {"news_textcat-alex", "news_textcat-bea", "news_textcat-chen"}
    with pytest.raises(AnnotationDataError, match="no annotator field '_user'"):
        convert(PRODIGY_BINARY, annotator_key="_user")


def test_prodigy_repeated_answer_keeps_the_last():
    records = [json.loads(x) for x in PRODIGY_BINARY.read_text().splitlines()]
    again = dict(records[0], answer="reject", _timestamp=1714660000)  # alex changes his mind
    ann = convert(as_upload(jsonl_bytes([*records, again]), "db.jsonl"))
    got = {(i, a): s for i, a, s in triples(ann)}
    assert got[("-1283784112", "news_textcat-alex")] == frozenset()
    # the replaced answer is a row the report counts as skipped, with the reason
    (repeat,) = [s for s in ann.report.skipped if "repeated binary answers" in s.reason]
    assert repeat.count == 1 and repeat.rows == (1,)


def test_prodigy_choice_multiple():
    ann = load_annotations(PRODIGY_CHOICE)
    assert (ann.n_items, ann.n_annotators, ann.n_judgements) == (3, 3, 7)
    assert ann.kind is LabelKind.MULTILABEL
    got = {(i, a): s for i, a, s in triples(ann)}
    assert got[("-553108226", "news_multi-bea")] == frozenset({"SPORTS", "BUSINESS"})
    assert got[("-553108226", "news_multi-chen")] == frozenset()  # accepted, nothing ticked
    reasons = {s.reason: s.rows for s in ann.report.skipped}
    assert reasons["tasks answered 'ignore' in Prodigy"] == (5,)
    assert reasons["choice tasks answered 'reject' (the question itself was rejected)"] == (7,)
    expected = set()
    for line in PRODIGY_CHOICE.read_text().splitlines():
        t = json.loads(line)
        if t["answer"] == "accept":
            expected.add((str(t["_input_hash"]), t["_annotator_id"], frozenset(t["accept"])))
    assert triples(ann) == expected


def test_prodigy_single_choice_becomes_nominal():
    records = []
    for line in PRODIGY_CHOICE.read_text().splitlines():
        t = json.loads(line)
        t.pop("config")
        t["accept"] = t["accept"][:1]
        records.append(t)
    ann = convert(as_upload(jsonl_bytes(records), "single.jsonl"))
    assert ann.kind is LabelKind.NOMINAL
    assert ann.n_judgements == 6  # chen's empty accept on k1 is no choice at all
    reasons = {s.reason: s.count for s in ann.report.skipped}
    assert reasons["choice tasks accepted without choosing an option"] == 1


def test_prodigy_malformed_and_unsupported_tasks():
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(FIX / "prodigy_malformed.jsonl")
    assert "_input_hash" in str(err.value) and "row 2" in str(err.value)
    base = json.loads(PRODIGY_BINARY.read_text().splitlines()[0])
    odd = dict(base, answer="maybe")
    with pytest.raises(AnnotationDataError, match=r"other than accept/reject/ignore.*maybe"):
        convert(as_upload(jsonl_bytes([base, odd]), "x.jsonl"))
    span = {k: v for k, v in base.items() if k != "label"} | {"spans": [{"start": 0, "end": 6}]}
    with pytest.raises(AnnotationDataError, match="neither a 'label'"):
        convert(as_upload(jsonl_bytes([base, span]), "x.jsonl"))
    choice_task = json.loads(PRODIGY_CHOICE.read_text().splitlines()[0])
    with pytest.raises(AnnotationDataError, match="mixes binary tasks"):
        convert(as_upload(jsonl_bytes([base, choice_task]), "x.jsonl"))
    anonymous = [{k: v for k, v in base.items() if k not in ("_annotator_id", "_session_id")}] * 2
    with pytest.raises(AnnotationDataError, match="names no annotators"):
        convert(as_upload(jsonl_bytes(anonymous), "x.jsonl"))


def test_prodigy_describe():
    table, _, _ = read_table(PRODIGY_BINARY)
    info = describe_tool_export(table)
    assert info.tool == "Prodigy"
    assert info.choices["annotator_key"] == ["_annotator_id", "_session_id"]


# ============================================================================ no misfire
def test_readers_leave_plain_json_records_alone():
    records = [
        {"item": "q1", "annotator": "a", "label": "x", "data": {"text": "hi"}},
        {"item": "q1", "annotator": "b", "label": "y", "data": {"text": "hi"}},
    ]
    table = pd.DataFrame.from_records(records)
    report = read_table(as_upload(json.dumps(records).encode(), "r.json"))[2]
    assert convert_tool_export(table, np.arange(1, 3), report) is None
    assert describe_tool_export(table) is None
    ann = load_annotations(as_upload(json.dumps(records).encode(), "r.json"))
    assert ann.report.tool is None and ann.n_judgements == 2


def test_plain_table_with_tool_options_is_an_error():
    table = pd.DataFrame({"item": ["q"], "annotator": ["a"], "label": ["x"]})
    report = read_table(as_upload(b"item,annotator,label\nq,a,x\n", "p.csv"))[2]
    with pytest.raises(AnnotationDataError, match="not an export of a tool"):
        convert_tool_export(table, np.array([2]), report, options={"from_name": "x"})
    assert convert_tool_export(table, np.array([2]), report, options={}) is None


def test_label_studio_export_survives_a_deep_copy_roundtrip():
    """The reader must not mutate the table it is given (the loader may reuse it)."""
    table, rows, report = read_table(LS)
    before = copy.deepcopy(table["annotations"].tolist())
    convert_tool_export(table, rows, report, options={"from_name": "topics"})
    assert table["annotations"].tolist() == before


# ============================================================================ via the loader
def test_tool_options_reach_the_readers_through_load_annotations():
    ann = load_annotations(LS, tool_options={"from_name": "topics"})
    assert ann.kind is LabelKind.MULTILABEL and ann.n_judgements == 10
    ann = load_annotations(PRODIGY_BINARY, tool_options={"annotator_key": "_session_id"})
    assert ann.n_judgements == 9
