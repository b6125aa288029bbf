"""JSON Lines read against the head's schema: the same result as the other paths, limits kept.

:func:`analytics.data.json_records.read_json_lines_flat` skips the full-file depth scan
for flat records by parsing the file against the schema Arrow infers for its first MiB.
These tests hold it to the inference path (:func:`read_json_lines_bytes`) and the strict
per-line reader (same annotations, same load report, same error), and check that a deep
or long-numbered file is still refused, naming the limit and the line, before any parser
that could be hurt by it (Arrow's inference, Python's ``json``) sees it.
"""

from __future__ import annotations

import io
import json
from contextlib import ExitStack
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import analytics.data.json_records as json_records
import analytics.data.reading as reading
from analytics import AnnotationDataError, load_annotations
from analytics.data import Limits, read_table
from analytics.data.json_records import read_json_lines_bytes, read_json_lines_flat


def upload(data: bytes, name: str = "f.jsonl") -> io.BytesIO:
    buf = io.BytesIO(data)
    buf.name = name
    return buf


def load(data: bytes, route: str, head: int = 64, limits: Limits | None = None):
    """Load ``data`` by one route: "flat" (head of ``head`` bytes), "inferred" or "strict".

    Returns ("ok", fingerprint, report) or ("error", message).
    """
    with ExitStack() as stack:
        stack.enter_context(mock.patch.object(json_records, "_HEAD_BYTES", head))
        if route != "flat":
            stack.enter_context(mock.patch.object(reading, "read_json_lines_flat", lambda *a: None))
        if route == "strict":
            stack.enter_context(
                mock.patch.object(reading, "read_json_lines_bytes", lambda *a: None)
            )
        try:
            ann = load_annotations(upload(data), limits=limits)
        except AnnotationDataError as exc:
            return ("error", str(exc))
    return ("ok", ann.fingerprint, ann.report)


def jsonl(records: list[dict]) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in records).encode()


# ------------------------------------------------------------ random flat records
texts = st.one_of(
    st.sampled_from(["a", "b", "x y", "[", "{", '"', "\\", "None", "", " ", "1", "2.5", "A|B"]),
    st.text(max_size=5),
)
column_kinds = {
    "text": texts,
    "int": st.integers(-(2**63), 2**63 - 1),
    "small int": st.integers(0, 3),
    "float": st.floats(allow_nan=False, allow_infinity=False, width=64),
    "bool": st.booleans(),
}


@st.composite
def flat_jsonl(draw) -> bytes:
    """Flat records of item, annotator, label (and maybe an extra field), a type per column.

    Some cells are null or absent, one column may change type past the head (a float in
    an integer column, a number in a text column), and a line of :data:`UNFLAT` may
    stand anywhere: the flat path must then give way, or refuse as the full scan does.
    """
    names = ["item", "annotator", "label", *draw(st.sampled_from([[], ["note"]]))]
    kinds = {n: draw(st.sampled_from(sorted(column_kinds))) for n in names}
    n = draw(st.integers(1, 40))
    records = []
    for _ in range(n):
        record = {}
        for name in names:
            roll = draw(st.integers(0, 9))
            if roll == 0:
                continue  # absent: null
            record[name] = None if roll == 1 else draw(column_kinds[kinds[name]])
        records.append(record)
    if draw(st.booleans()):  # a value of another type late in the file
        name = draw(st.sampled_from(names))
        records[-1][name] = draw(st.one_of(texts, st.integers(), st.floats(), st.booleans()))
    lines = jsonl(records).splitlines(keepends=True)
    if draw(st.booleans()):  # a line the flat path must not take, anywhere in the file
        at = draw(st.integers(0, len(lines)))
        lines.insert(at, draw(st.sampled_from(UNFLAT)) + b"\n")
    return b"".join(lines)


#: Lines that send a file off the flat path: over a limit, nested, blank, not records.
UNFLAT = [
    b'{"item": 1, "annotator": "a", "label": ' + b"[" * 70 + b"]" * 70 + b"}",
    b'{"item": 1, "annotator": "a", "label": ' + b"9" * 500 + b"}",
    b'{"item": 1, "annotator": "a", "label": 1.' + b"5" * 500 + b"}",
    b'{"item": 1, "annotator": "a", "label": ["x", "y"]}',
    b'{"item": 1, "annotator": "a", "label": {"value": "x"}}',
    b"",
    b'["q1", "b", "y"]',
    b'{"item": 1, "annot',
]


@given(flat_jsonl(), st.integers(1, 400))
@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
def test_flat_path_matches_the_inferred_and_strict_paths(data, head):
    flat = load(data, "flat", head)
    assert flat == load(data, "inferred", head)
    assert flat == load(data, "strict", head)


def test_flat_path_reads_a_file_longer_than_its_head():
    records = [
        {"item": f"i{k // 3}", "annotator": f"a{k % 3}", "label": "xy"[k % 2]} for k in range(300)
    ]
    records[0]["note"] = None  # null in the head, absent from the other records
    data = jsonl(records)
    with mock.patch.object(json_records, "_HEAD_BYTES", 100):
        table, rows, _ = read_json_lines_flat(data, "f.jsonl", Limits())
    inferred = read_json_lines_bytes(data)
    assert inferred is not None
    assert table.equals(inferred[0]) and rows.tolist() == inferred[1].tolist() == list(
        range(1, 301)
    )
    assert str(table["note"].dtype) == str(inferred[0]["note"].dtype)  # null throughout


def test_a_column_null_in_the_head_may_hold_text_later():
    records = [{"item": k, "annotator": "a", "label": None} for k in range(50)]
    records[40]["label"] = "x"
    data = jsonl(records)
    with mock.patch.object(json_records, "_HEAD_BYTES", 64):
        fast = read_json_lines_flat(data, "f.jsonl", Limits())
    assert fast is not None
    assert fast[0]["label"].tolist()[40] == "x"
    assert load(data, "flat") == load(data, "strict")


@pytest.mark.parametrize(
    "late",
    [
        {"item": 9, "annotator": "a", "label": ["x"]},  # nested: a label set, strict reader
        {"item": 9, "annotator": "a", "label": "x", "new": 1},  # a field the head lacks
        {"item": 9.5, "annotator": "a", "label": "x"},  # a float in an integer column
        {"item": 10**20, "annotator": "a", "label": "x"},  # beyond int64
    ],
)
def test_the_flat_path_gives_way_past_the_head(late):
    data = jsonl([{"item": k, "annotator": "a", "label": "x"} for k in range(30)] + [late])
    with mock.patch.object(json_records, "_HEAD_BYTES", 64):
        assert read_json_lines_flat(data, "f.jsonl", Limits()) is None
    assert load(data, "flat") == load(data, "strict")


# ------------------------------------------------------------ limits still hold
GOOD = b'{"item": 1, "annotator": "a", "label": "x"}\n'


def never(*args, **kwargs):
    raise AssertionError("a parser that a deep or long-numbered file can hurt ran first")


@pytest.mark.parametrize("where", ["head", "past the head"])
def test_a_deep_record_is_refused_naming_the_limit_and_line(where):
    deep = b'{"item": 2, "annotator": "a", "label": ' + b"[" * 5000 + b"]" * 5000 + b"}\n"
    before = 1 if where == "head" else 5000  # 5000 lines: more than a 64-byte head
    data = GOOD * before + deep + GOOD * 3
    with ExitStack() as stack:
        stack.enter_context(mock.patch.object(json_records, "_HEAD_BYTES", 64))
        # Arrow's inference and Python's json must never see it; Arrow held to a flat
        # schema may (it stops at the first '[')
        stack.enter_context(mock.patch.object(reading, "read_json_lines_bytes", never))
        stack.enter_context(mock.patch.object(reading, "read_json", never))
        with pytest.raises(
            AnnotationDataError,
            match=rf"row {before + 1}: the JSON nests more than 64 levels deep, over the "
            r"limit max_depth=64",
        ):
            read_table(upload(data))


def test_a_deep_head_never_reaches_arrow():
    deep = b'{"item": 2, "annotator": "a", "label": ' + b"[" * 5000 + b"]" * 5000 + b"}\n"
    with mock.patch.object(json_records.pa_json, "read_json", never):
        with pytest.raises(AnnotationDataError, match=r"row 2: .* max_depth=64"):
            read_table(upload(GOOD + deep))


@pytest.mark.parametrize(
    "number, head_label",
    [
        (b"7" * 5000, b"1"),  # an integer column: Arrow refuses it against int64
        (b"1." + b"7" * 5000, b"1.5"),  # a double column: Arrow parses it, the digit scan refuses
        (b"7" * 5000, b"1.5"),
    ],
)
def test_a_long_number_past_the_head_is_refused_naming_the_line(number, head_label):
    first = b'{"item": 1, "annotator": "a", "label": ' + head_label + b"}\n"
    data = first * 100 + b'{"item": 1, "annotator": "b", "label": ' + number + b"}\n" + first
    with ExitStack() as stack:
        stack.enter_context(mock.patch.object(json_records, "_HEAD_BYTES", 64))
        stack.enter_context(mock.patch.object(reading, "read_json", never))
        with pytest.raises(
            AnnotationDataError,
            match=r"row 101: a number has 5,00\d digits, over the limit max_digits=400",
        ):
            read_table(upload(data))


def test_tight_limits_are_held_on_the_flat_path():
    data = GOOD * 200
    with mock.patch.object(json_records, "_HEAD_BYTES", 64):
        with pytest.raises(AnnotationDataError, match="row 1: the JSON nests more than 0 levels"):
            read_table(upload(data), limits=Limits(max_depth=0))
        with pytest.raises(
            AnnotationDataError, match=r"row 1: a number has 1 digits.*max_digits=0"
        ):
            read_table(upload(data), limits=Limits(max_digits=0))
        wide = GOOD * 100 + b'{"item": 12345678, "annotator": "a", "label": "x"}\n'
        with pytest.raises(
            AnnotationDataError, match=r"row 101: a number has 8 digits.*max_digits=7"
        ):
            read_table(upload(wide), limits=Limits(max_digits=7))
        assert len(read_table(upload(wide), limits=Limits(max_digits=8))[0]) == 101


def test_nan_and_infinity_tokens_load_as_they_did():
    data = b'{"item": 1, "annotator": "a", "label": NaN}\n{"item": 2, "annotator": "a", "label": -Infinity}\n'
    assert load(data * 20, "flat") == load(data * 20, "inferred")


def test_the_digit_scan_runs_only_where_a_number_could_be_too_long():
    data = b'{"item": 1, "annotator": "a", "label": 2.5}\n' * 100
    calls = []

    def scan(data, name, limits, depth=True):
        calls.append(depth)

    with mock.patch.object(json_records, "_HEAD_BYTES", 64):
        with mock.patch.object(json_records, "scan_json", scan):
            assert read_json_lines_flat(data, "f.jsonl", Limits()) is not None
            assert calls == [True]  # the head only: no line is longer than 400 bytes
            assert read_json_lines_flat(data, "f.jsonl", Limits(max_digits=20)) is not None
            assert calls == [True, True, False]  # lines of 43 bytes: the digits are scanned
