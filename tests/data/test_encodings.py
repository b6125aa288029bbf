"""Text encodings: UTF-16/UTF-32 read as text, Windows-1252 told apart from latin-1, doubts said."""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analytics import AnnotationDataError, load_annotations
from analytics.data import read_table

TSV = "item\tannotator\tlabel\nq1\tanna\tcafé\nq1\tbo\tthé\nq2\tanna\t日本\n"


def upload(data: bytes, name: str) -> io.BytesIO:
    buf = io.BytesIO(data)
    buf.name = name
    return buf


@pytest.mark.parametrize(
    ("codec", "bom", "label"),
    [
        ("utf-16-le", b"\xff\xfe", "UTF-16 (little-endian)"),
        ("utf-16-be", b"\xfe\xff", "UTF-16 (big-endian)"),
        ("utf-32-le", b"\xff\xfe\x00\x00", "UTF-32 (little-endian)"),
        ("utf-32-be", b"\x00\x00\xfe\xff", "UTF-32 (big-endian)"),
    ],
)
@pytest.mark.parametrize("name", ["export.txt", "export.tsv", "export"])
def test_excel_unicode_text_loads_with_its_encoding_reported(codec, bom, label, name):
    ann = load_annotations(upload(bom + TSV.encode(codec), name))
    assert sorted(ann.categories) == sorted(["café", "thé", "日本"])
    assert ann.report.encoding == codec and ann.report.format == "tsv"
    assert f"Text in {label}, told by its byte-order mark: converted to UTF-8." in ann.report.notes


def test_utf16_json_and_csv_load_too():
    records = (
        '[{"item": 1, "annotator": "a", "label": "é"}, {"item": 1, "annotator": "b", "label": "x"}]'
    )
    assert (
        load_annotations(upload(b"\xff\xfe" + records.encode("utf-16-le"), "a.json")).n_judgements
        == 2
    )
    csv = "item,annotator,label\n1,a,é\n1,b,x\n"
    assert (
        load_annotations(upload(b"\xfe\xff" + csv.encode("utf-16-be"), "a.csv")).n_judgements == 2
    )


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark_is_told_by_its_nuls(codec):
    ann = load_annotations(upload(TSV.encode(codec), "export.txt"))
    assert ann.report.encoding == codec and ann.n_judgements == 3
    assert any("no byte-order mark" in n for n in ann.report.notes)


def test_binary_with_nuls_is_still_binary():
    with pytest.raises(AnnotationDataError, match="binary data, not text"):
        load_annotations(upload(bytes(range(256)) * 20, "bad.csv"))


def test_a_broken_utf16_file_says_where():
    data = (
        b"\xff\xfe" + "item\tannotator\n".encode("utf-16-le") + b"\x00\xd8A\x00"
    )  # lone surrogate
    with pytest.raises(
        AnnotationDataError,
        match=r"looks like UTF-16 \(little-endian\) text \(from its byte-order mark\) but byte 32",
    ):
        read_table(upload(data, "x.tsv"))


def test_a_utf16_file_holding_only_whitespace_is_empty():
    with pytest.raises(AnnotationDataError, match="the file is empty"):
        read_table(upload(b"\xff\xfe" + " \n".encode("utf-16-le"), "x.tsv"))


def test_windows_1252_is_read_as_such_when_its_bytes_say_so():
    text = "item,annotator,label\n1,a,\u201cyes\u201d\n1,b,5\u20ac\n"
    ann = load_annotations(upload(text.encode("cp1252"), "w.csv"))
    assert sorted(ann.categories) == ["5€", "“yes”"] and ann.report.encoding == "cp1252"
    assert any("cp1252" in w for w in ann.report.warnings())
    assert not any("Western European" in w for w in ann.report.warnings())


def test_bytes_undefined_in_windows_1252_are_cautioned():
    data = b"item,annotator,label\n1,a,x\n1,b,y\n" + b"2,a,\x81z\n2,b,z\n"
    ann = load_annotations(upload(data, "x.csv"))
    assert ann.report.encoding == "latin-1"
    assert any("does not look like Western European" in w for w in ann.report.warnings())


def test_latin1_stays_latin1_without_a_caution():
    ann = load_annotations(
        upload("item,annotator,label\n1,a,café\n1,b,thé\n".encode("latin-1"), "l.csv")
    )
    assert ann.report.encoding == "latin-1"
    assert not any("Western European" in w for w in ann.report.warnings())


@pytest.mark.parametrize("codec", ["shift_jis", "gbk", "cp1251"])
def test_text_that_is_not_western_european_gets_a_caution(codec):
    labels = {"shift_jis": "ねこ,いぬ", "gbk": "猫,狗", "cp1251": "кошка,собака"}[codec].split(",")
    text = f"item,annotator,label\n1,a,{labels[0]}\n1,b,{labels[1]}\n2,a,{labels[1]}\n"
    ann = load_annotations(upload(text.encode(codec), "x.csv"))
    [caution] = [w for w in ann.report.warnings() if "Western European" in w]
    assert "Save it as UTF-8" in caution and ann.report.encoding in ("cp1252", "latin-1")


def test_binary_behind_a_byte_order_mark_is_not_text():
    data = b"\xff\xfe" + bytes(range(1, 32)) * 40
    with pytest.raises(
        AnnotationDataError,
        match=r"starts like UTF-16 \(little-endian\) text .* does not hold text",
    ):
        read_table(upload(data, "x.csv"))


@given(
    st.sampled_from([b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00", b"", b"\xef\xbb\xbf"]),
    st.binary(max_size=300),
)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_bytes_behind_a_byte_order_mark_raise_only_annotation_data_errors(bom, body):
    try:
        load_annotations(upload(bom + body, "fuzz.txt"))
    except AnnotationDataError as err:
        assert "\n" not in str(err)


BOMS = {"utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff", "utf-32-le": b"\xff\xfe\x00\x00"}


def outcome(data: bytes) -> tuple:
    try:
        ann = load_annotations(upload(data, "t.csv"))
    except AnnotationDataError as err:
        return ("error", err.problem)
    return ("loaded", ann.n_judgements, sorted(map(str, ann.categories)), ann.report.n_rows)


@given(st.text(alphabet=list('ab,\t\n"xé日1'), max_size=80), st.sampled_from(sorted(BOMS)))
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_unicode_text_loads_exactly_as_its_utf8_twin(text, codec):
    full = "item,annotator,label\n" + text
    assert outcome(BOMS[codec] + full.encode(codec)) == outcome(full.encode())


def test_unicode_text_told_by_its_byte_order_mark_is_no_caution():
    """Excel's "Unicode Text" (UTF-16 with a BOM) read "decoded as utf-16-le, not UTF-8" in
    the cautions, though nothing was guessed."""
    import io

    from analytics import load_annotations

    text = "item\tannotator\tlabel\ni1\ta\tx\ni1\tb\ty\n"
    ann = load_annotations(io.BytesIO(b"\xff\xfe" + text.encode("utf-16-le")), format="tsv")
    assert ann.n_judgements == 2
    assert not any("UTF-8" in c for c in ann.report.warnings())
    assert any("byte-order mark" in m for m in ann.report.messages())
