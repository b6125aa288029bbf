"""Random tool-shaped records: describing and loading them either works, accounting for every
row, or raises AnnotationDataError; never another exception (the Data page describes an
upload before loading it, so a crash there would show a traceback).

The records are mostly well formed (so that many load) with any JSON value at all in one
field out of eight (so that many do not).
"""

from __future__ import annotations

import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analytics import AnnotationDataError, load_annotations
from analytics.data.importers import TOOL_READERS, describe_tool_export

KEYS = ["choices", "rating", "from_name", "value", "type", "result", "completed_by", "email"]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-1000, 1000),
    st.floats(-1e6, 1e6, allow_nan=False),
    st.sampled_from(["", " ", "a", "Positive", "true", "accept", "ignore", "[x]", '{"a": 1}']),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(KEYS), inner, max_size=3)
    ),
    max_leaves=8,
)


def mostly(good: st.SearchStrategy) -> st.SearchStrategy:
    """Usually a well-formed value, one time in eight any JSON value at all."""
    return st.integers(0, 7).flatmap(lambda k: VALUES if k == 0 else good)


CHOICES_RESULT = st.fixed_dictionaries(
    {
        "from_name": mostly(st.sampled_from(["sentiment", "x"])),
        "type": mostly(st.just("choices")),
        "value": mostly(
            st.fixed_dictionaries(
                {"choices": mostly(st.lists(st.sampled_from(["A", "B"]), max_size=2))}
            )
        ),
    }
)
ANNOTATION = st.fixed_dictionaries(
    {
        "completed_by": mostly(st.sampled_from([1, 2, 3, "e@x.org", None])),
        "was_cancelled": mostly(st.sampled_from([False, False, True, None])),
        "result": mostly(st.lists(CHOICES_RESULT, max_size=2)),
    }
)
PREDICTION = st.fixed_dictionaries(
    {"model_version": st.just("v1"), "result": st.lists(CHOICES_RESULT, max_size=1)}
)
WORKERS = st.sampled_from(["W1", "W2", "W3", None])
ANNOTATORS = st.sampled_from(["a", "b", "c", None])
ANSWERS = st.sampled_from(["accept", "accept", "reject", "ignore"])
GOOD = {
    "label_studio": {
        "id": st.integers(1, 4),
        "data": st.just({"text": "t"}),
        "annotations": st.lists(mostly(ANNOTATION), max_size=3),
        "predictions": st.lists(mostly(PREDICTION), max_size=2),
    },
    "label_studio_flat": {
        "id": st.integers(1, 4),
        "annotator": st.sampled_from([1, 2, 3, "e@x.org", None]),
        "annotation_id": st.sampled_from([10, 11, 12, None]),
        "created_at": st.just("2024-06-01T10:00:00Z"),
        "updated_at": st.just("2024-06-01T10:00:00Z"),
        "lead_time": st.just(4.5),
        "sentiment": st.sampled_from(["A", "B", {"choices": ["A", "B"]}, {"choices": []}, None]),
        "text": st.sampled_from(["t1", "t2"]),
    },
    "prodigy_choice": {
        "_input_hash": st.integers(1, 3),
        "_task_hash": st.integers(1, 9),
        "_annotator_id": ANNOTATORS,
        "answer": ANSWERS,
        "accept": st.lists(st.sampled_from(["A", "B"]), max_size=2, unique=True),
    },
    "prodigy_binary": {
        "_input_hash": st.integers(1, 3),
        "_task_hash": st.integers(1, 9),
        "_annotator_id": ANNOTATORS,
        "answer": ANSWERS,
        "label": st.sampled_from(["A", "B"]),
    },
    "mturk": {
        "HITId": st.sampled_from(["H1", "H2", "H3"]),
        "WorkerId": WORKERS,
        "AssignmentStatus": st.sampled_from(["Approved", "Submitted", "Rejected", None]),
        "Answer.q": st.sampled_from(["a", "b", None]),
    },
    "toloka": {
        "INPUT:x": st.sampled_from(["i1", "i2", "i3"]),
        "OUTPUT:y": st.sampled_from(["a", "b", None]),
        "ASSIGNMENT:worker_id": WORKERS,
        "ASSIGNMENT:status": st.sampled_from(["APPROVED", "SUBMITTED", "REJECTED", None]),
    },
}


@st.composite
def tool_tables(draw) -> pd.DataFrame:
    columns = GOOD[draw(st.sampled_from(sorted(GOOD)))]
    records = [
        {c: draw(mostly(good)) for c, good in columns.items() if draw(st.integers(0, 19))}
        for _ in range(draw(st.integers(1, 8)))
    ]
    frame = pd.DataFrame.from_records(records, columns=list(columns))
    return frame.astype(object).where(frame.notna(), None)


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(tool_tables())
def test_random_tool_tables_describe_and_load_cleanly(frame):
    if not any(reader.recognise(frame) for reader in TOOL_READERS):
        return  # a plain table: the loader's own fuzz tests cover those
    try:
        describe_tool_export(frame)
    except AnnotationDataError:
        pass
    try:
        ann = load_annotations(frame, duplicates="first")
    except AnnotationDataError:
        return
    r = ann.report
    answers = r.columns.get("answers") if r.tool == "Prodigy" else None
    made = ann.n_judgements if answers is None else answers
    assert r.n_rows == made + r.n_skipped + r.n_missing + r.n_duplicates, r.messages()
