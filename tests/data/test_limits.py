"""Limits: checked before the work, configurable, and named in the error."""

from __future__ import annotations

import io
import json
import re
import time
import zipfile

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import analytics.data.limits as limits_module
from analytics import AnnotationDataError, load_annotations
from analytics.data import read_table
from analytics.data.limits import DEFAULT_LIMITS, Limits, scan_json

HEADER = ("item", "annotator", "label")


def small_workbook(cells: dict[str, object] | None = None) -> bytes:
    """A valid three-column .xlsx, with extra cells written where asked."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    for row in (HEADER, (1, "a", "x"), (1, "b", "y"), (2, "a", "x")):
        sheet.append(row)
    for ref, value in (cells or {}).items():
        sheet[ref] = value
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def patched(data: bytes, member: str, edit) -> bytes:
    """The workbook with one zip member rewritten (``edit(bytes) -> bytes``)."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            body = source.read(info.filename)
            target.writestr(info.filename, edit(body) if info.filename == member else body)
    return out.getvalue()


SHEET = "xl/worksheets/sheet1.xml"


def refused_quickly(data: bytes, pattern: str, **kwargs) -> AnnotationDataError:
    start = time.perf_counter()
    with pytest.raises(AnnotationDataError, match=pattern) as info:
        read_table(data, format="excel", **kwargs)
    assert time.perf_counter() - start < 1.5
    return info.value


def test_the_defaults_are_the_documented_ones():
    assert DEFAULT_LIMITS == Limits(
        max_bytes=200 * 1024 * 1024,
        max_decompressed_bytes=256 * 1024 * 1024,
        max_cells=100_000_000,
        max_depth=64,
        max_digits=400,
        max_compression_ratio=100,
    )


def test_a_tiny_xlsx_with_a_cell_at_xfd1048576_is_refused_from_its_dimension():
    data = small_workbook({"XFD1048576": 1})
    assert len(data) < 6000
    err = refused_quickly(
        data, r"declares 1,048,576 rows x 16,384 columns: .* over the limit max_cells="
    )
    assert err.sheet == "Sheet" and "limits=Limits(max_cells=...)" in str(err)


def test_a_patched_dimension_is_refused_before_any_row_is_read():
    data = patched(
        small_workbook(),
        SHEET,
        lambda b: re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:XFD1048576"', b),
    )
    refused_quickly(data, r"over the limit max_cells=100,000,000")
    # raised on purpose, the limit lets the (tiny) real content through
    table, _, _ = read_table(data, format="excel", limits=Limits(max_cells=2**40))
    assert table.shape == (3, 3)


def test_without_a_dimension_the_cells_are_counted_while_streaming():
    data = patched(
        small_workbook({"XFD1048576": 1}), SHEET, lambda b: re.sub(rb"<dimension[^>]*/>", b"", b)
    )
    assert b"<dimension" not in zipfile.ZipFile(io.BytesIO(data)).read(SHEET)
    refused_quickly(data, r"reaches row 1,048,576 and column 16,384: .* max_cells=")


def test_a_dimension_that_lies_small_does_not_stop_the_count():
    rows = "".join(
        f'<row r="{r}"><c r="A{r}"><v>{r}</v></c><c r="B{r}"><v>1</v></c></row>'
        for r in range(5, 40)  # after the small workbook's rows 1-4
    )
    data = patched(
        small_workbook(),
        SHEET,
        lambda b: re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1"', b).replace(
            b"</sheetData>", rows.encode() + b"</sheetData>"
        ),
    )
    with pytest.raises(
        AnnotationDataError,
        match=r"reaches row 25 and column 3: 75 cells, over the limit max_cells=74",
    ):
        read_table(data, format="excel", limits=Limits(max_cells=74))


def test_rows_past_excels_last_row_are_refused_before_the_gap_is_walked():
    data = patched(
        small_workbook(),
        SHEET,
        lambda b: re.sub(rb"<dimension[^>]*/>", b"", b).replace(
            b"</sheetData>", b'<row r="900000000"><c r="A900000000"><v>1</v></c></row></sheetData>'
        ),
    )
    refused_quickly(data, r"rows past Excel's last row \(1,048,576\)")


def zip_bomb(inflated_mb: int) -> bytes:
    """A workbook whose sheet XML inflates to ``inflated_mb`` MB of repeated rows."""
    row = b'<row><c t="inlineStr"><is><t>x</t></is></c><c><v>1</v></c><c><v>2</v></c></row>'
    filler = row * (inflated_mb * 1024 * 1024 // len(row))

    def edit(body: bytes) -> bytes:
        return body.replace(b"</sheetData>", filler + b"</sheetData>")

    return patched(small_workbook(), SHEET, edit)


def test_a_zip_bomb_is_refused_by_its_ratio_before_inflating():
    data = zip_bomb(30)
    assert len(data) < 500_000
    err = refused_quickly(
        data, r"inflates [\d,]+ times .* over the limit max_compression_ratio=100"
    )
    assert "xl/worksheets/sheet1.xml" in str(err) and "zip bomb" in str(err)


def test_the_inflated_total_is_refused_by_max_decompressed_bytes():
    data = small_workbook()
    total = sum(m.file_size for m in zipfile.ZipFile(io.BytesIO(data)).infolist())
    refused_quickly(
        data,
        r"inflates to [\d.]+ MB of XML, over the limit max_decompressed_bytes=1,000",
        limits=Limits(max_decompressed_bytes=1000),
    )
    table, _, _ = read_table(data, format="excel", limits=Limits(max_decompressed_bytes=total))
    assert table.shape == (3, 3)


def test_load_annotations_passes_limits_to_the_reader(tmp_path):
    path = tmp_path / "w.xlsx"
    path.write_bytes(small_workbook())
    with pytest.raises(AnnotationDataError, match=r"file 'w.xlsx', sheet 'Sheet': .*max_cells=8"):
        load_annotations(path, limits=Limits(max_cells=8))
    assert load_annotations(path, limits=Limits(max_cells=12)).n_judgements == 3


# ---------------------------------------------------------------- JSON


def nested(depth: int) -> bytes:
    return ('[{"item": 1, "annotator": "a", "label": ' + "[" * depth + "]" * depth + "}]").encode()


def test_deep_json_is_refused_before_parsing_naming_the_line():
    data = (
        b'[\n{"item": 1, "annotator": "a", "label": "x"},\n{"item": 2, "annotator": "a", "label": '
        + b"[" * 5000
        + b"]" * 5000
        + b"}\n]"
    )
    with pytest.raises(
        AnnotationDataError,
        match=r"file 'deep.json', row 3: the JSON nests more than 64 levels deep, over the limit max_depth=64",
    ):
        load_annotations(upload(data, "deep.json"))


def test_depth_is_configurable():
    with pytest.raises(AnnotationDataError, match="max_depth=3"):
        read_table(nested(2), format="json", limits=Limits(max_depth=3))
    read_table(nested(1), format="json", limits=Limits(max_depth=3))


def test_jsonl_names_the_record_line():
    lines = [b'{"item": 1, "annotator": "a", "label": "x"}'] * 3 + [
        b'{"x": ' + b"[" * 70 + b"]" * 70 + b"}"
    ]
    with pytest.raises(AnnotationDataError, match=r"row 4: the JSON nests more than 64 levels"):
        read_table(b"\n".join(lines), format="jsonl")


def test_brackets_and_escaped_quotes_inside_strings_do_not_count():
    text = json.dumps(
        [{"item": "[[[[" * 50, "annotator": 'a\\"{{{{' * 40, "label": "\\\\" + "{" * 99}]
    )
    scan_json(text.encode(), "x.json", Limits(max_depth=2))


def test_long_numbers_are_refused_but_long_digit_strings_are_not():
    long_number = b'[{"item": 1, "annotator": "a", "label": ' + b"7" * 5000 + b"}]"
    with pytest.raises(
        AnnotationDataError,
        match=r"row 1: a number has 5,000 digits, over the limit max_digits=400",
    ) as info:
        load_annotations(upload(long_number, "n.json"))
    assert "limits=Limits(max_digits=...)" in str(info.value)
    as_text = (
        b'[{"item": "'
        + b"7" * 5000
        + b'", "annotator": "a", "label": "x"}, {"item": "'
        + b"7" * 5000
        + b'", "annotator": "b", "label": "y"}]'
    )
    assert load_annotations(upload(as_text, "s.json")).n_judgements == 2


def json_values():
    text = st.text(alphabet=st.sampled_from(list('ab"\\[]{}1 ')), max_size=8)
    leaf = st.one_of(text, st.integers(-(10**12), 10**12), st.booleans(), st.none())
    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.dictionaries(text, inner, max_size=3)
        ),
        max_leaves=25,
    )


def true_depth(value) -> int:
    if isinstance(value, list):
        return 1 + max((true_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((true_depth(v) for v in value.values()), default=0)
    return 0


@given(json_values(), st.integers(0, 6), st.integers(1, 9))
@settings(max_examples=100, deadline=None)
def test_the_scan_measures_the_depth_json_has(value, limit, chunk):
    # indented or not: the scan's pieces are cut at newlines, carrying the depth across
    data = json.dumps(value, indent=None if chunk % 3 == 0 else chunk % 3).encode()
    original = limits_module._CHUNK
    limits_module._CHUNK = chunk  # tiny chunks: the state carried between them is checked too
    try:
        if true_depth(value) > limit:
            with pytest.raises(AnnotationDataError, match=f"nests more than {limit} levels"):
                scan_json(data, "x.json", Limits(max_depth=limit))
        else:
            scan_json(data, "x.json", Limits(max_depth=limit))
    finally:
        limits_module._CHUNK = original


def test_digits_and_lines_are_right_across_pieces(monkeypatch):
    monkeypatch.setattr(limits_module, "_CHUNK", 8)
    lines = [b'{"item": "' + b"9" * 50 + b'", "label": [[1]]}'] * 5 + [b'{"n": ' + b"9" * 50 + b"}"]
    with pytest.raises(
        AnnotationDataError, match=r"row 6: a number has 50 digits, over the limit max_digits=49"
    ):
        scan_json(b"\n".join(lines), "x.jsonl", Limits(max_digits=49, max_depth=3))
    with pytest.raises(AnnotationDataError, match=r"row 1: the JSON nests more than 2 levels"):
        scan_json(b"\n".join(lines), "x.jsonl", Limits(max_depth=2))
    scan_json(b"\n".join(lines), "x.jsonl", Limits(max_digits=50, max_depth=3))


def test_json_limits_are_checked_before_the_parser_runs(monkeypatch):
    import analytics.data.reading as reading

    def parser_must_not_run(*args, **kwargs):
        raise AssertionError("the JSON reader ran before the limits were checked")

    monkeypatch.setattr(reading, "read_json", parser_must_not_run)
    with pytest.raises(AnnotationDataError, match="max_depth=64"):
        read_table(nested(100), format="json")
    with pytest.raises(AnnotationDataError, match="max_digits=400"):
        read_table(b'[{"a": ' + b"1" * 401 + b"}]", format="json")


def test_workbook_limits_are_checked_before_openpyxl_opens_it(monkeypatch):
    import openpyxl

    def must_not_open(*args, **kwargs):
        raise AssertionError("openpyxl opened a workbook over the limits")

    monkeypatch.setattr(openpyxl, "load_workbook", must_not_open)
    with pytest.raises(AnnotationDataError, match="max_compression_ratio"):
        read_table(zip_bomb(5), format="excel")
    with pytest.raises(AnnotationDataError, match="max_decompressed_bytes"):
        read_table(small_workbook(), format="excel", limits=Limits(max_decompressed_bytes=100))


# ---------------------------------------------------------------- delimited and Parquet


def upload(data: bytes, name: str) -> io.BytesIO:
    buf = io.BytesIO(data)
    buf.name = name
    return buf


def test_delimited_cells_are_estimated_before_parsing():
    text = b"item;annotator;label\n" + b"1;a;x\n" * 10
    with pytest.raises(
        AnnotationDataError,
        match=r"12 lines x 3 header fields: 36 cells, over the limit max_cells=20",
    ):
        read_table(upload(text, "t.csv"), limits=Limits(max_cells=20))
    table, _, _ = read_table(upload(text, "t.csv"), limits=Limits(max_cells=36))
    assert table.shape == (10, 3)


def test_parquet_cells_and_inflated_size_come_from_the_footer():
    buf = io.BytesIO()
    pd.DataFrame({"item": np.arange(50), "annotator": ["a"] * 50, "label": ["x"] * 50}).to_parquet(
        buf
    )
    data = buf.getvalue()
    with pytest.raises(
        AnnotationDataError, match=r"50 rows x 3 columns: 150 cells, over the limit max_cells=149"
    ):
        read_table(data, limits=Limits(max_cells=149))
    with pytest.raises(AnnotationDataError, match=r"max_decompressed_bytes=10\b"):
        read_table(data, limits=Limits(max_decompressed_bytes=10))
    assert read_table(data, limits=Limits(max_cells=150))[0].shape == (50, 3)


def test_a_limit_error_says_where_the_limit_can_be_raised():
    """The app has no control for the limits: its users read that the app uses the
    defaults and where they can be raised, not only a Python call."""
    with pytest.raises(AnnotationDataError) as info:
        load_annotations(b"item,annotator,label\n1,a,x\n1,b,y\n", limits=Limits(max_cells=3))
    hint = info.value.hint
    assert "the app reads every upload with the default limits" in hint
    assert "limits=Limits(max_cells=...)" in hint and "--limit max_cells=..." in hint
