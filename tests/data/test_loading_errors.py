"""Bad input raises AnnotationDataError, naming file, column and rows, and nothing else."""

from __future__ import annotations

import io

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analytics import AnnotationDataError, load_annotations


def upload(data: bytes, name: str = "bad.csv") -> io.BytesIO:
    buf = io.BytesIO(data)
    buf.name = name
    return buf


CASES = {
    "empty file": (b"", "bad.csv", r"file 'bad.csv': the file is empty"),
    "whitespace only": (b"\n\n  \n", "bad.csv", r"the file is empty"),
    "header only": (b"item,annotator,label\n", "bad.csv", r"header row but no data rows"),
    "single column": (b"label\nx\ny\n", "bad.csv", r"single column \('label'\)"),
    "binary content": (b"\x00\x01\x02\x03\xff\xfe" * 50, "bad.csv", r"binary data, not text"),
    "unknown binary format": (
        b"\x00\x01\x02\x89PNG" * 20,
        "picture.png",
        r"unknown format: the extension \.png",
    ),
    "ragged rows": (
        b"item,annotator,label\n1,a,x\n2,b\n3,c,z,extra\n",
        "bad.csv",
        r"rows 3, 4: 2 rows do not have the 3 fields",
    ),
    "unclosed quote": (b'item,annotator,label\n1,a,"x\n', "bad.csv", r"(malformed|do not have)"),
    "missing columns": (
        b"foo,bar,baz,qux\n1,1,2,3\n1,2,3,4\n",
        "bad.csv",
        r"could not tell which column holds the items",
    ),
    "label without annotator": (
        b"item,label,extra,more\n1,x,1,1\n2,y,1,1\n",
        "bad.csv",
        r"found label column 'label' but no annotator",
    ),
    "ambiguous columns": (
        b"item,worker,rater,label\n1,a,b,x\n",
        "bad.csv",
        r"several columns could hold the annotator: \['worker', 'rater'\]",
    ),
    "duplicate header": (
        b"item,annotator,label,label\n1,a,x,y\n",
        "bad.csv",
        r"column 'label', row 1: the header names column",
    ),
    "unnamed column": (b"item,,label\n1,a,x\n", "bad.csv", r"column number 2 has no name"),
    "duplicate judgements": (
        b"item,annotator,label\n1,a,x\n1,a,y\n2,a,x\n2,a,x\n",
        "bad.csv",
        r"rows 3, 5: 2 repeated judgements",
    ),
    "broken json": (
        b'[{"item": 1, "annotator": "a", "label": "x"},',
        "bad.json",
        r"not valid JSON",
    ),
    "json scalar": (b"42", "bad.json", r"single value, not records"),
    "json non-record": (
        b'[{"item": 1, "annotator": "a", "label": "x"}, 3]',
        "bad.json",
        r"row 2: every record",
    ),
    "broken jsonl": (
        b'{"item": 1, "annotator": "a", "label": "x"}\n{"item": 2,\n',
        "bad.jsonl",
        r"row 2: line is not valid JSON",
    ),
    "corrupt excel": (
        b"PK\x03\x04 not really a zip",
        "bad.xlsx",
        r"could not read it as an Excel workbook",
    ),
    "corrupt parquet": (b"PAR1 nonsense", "bad.parquet", r"could not read it as Parquet"),
    "wide with repeated items": (
        b"item,ann1,ann2\n1,x,y\n1,x,x\n",
        "bad.csv",
        r"ids repeat in column 'item'",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_raises_a_useful_error(case):
    data, name, pattern = CASES[case]
    with pytest.raises(AnnotationDataError, match=pattern) as info:
        load_annotations(upload(data, name))
    assert isinstance(info.value, ValueError)
    assert name in str(info.value)


def test_unknown_format_option():
    with pytest.raises(AnnotationDataError, match="unknown format 'xml'"):
        load_annotations(upload(b"item,annotator,label\n1,a,x\n"), format="xml")


def test_file_over_the_size_limit(tmp_path):
    path = tmp_path / "big.csv"
    path.write_text("item,annotator,label\n" + "1,a,x\n" * 1000)
    with pytest.raises(AnnotationDataError, match=r"file 'big.csv': the file is .* over the limit"):
        load_annotations(path, max_bytes=1000)
    with pytest.raises(AnnotationDataError, match="over the limit"):
        load_annotations(upload(path.read_bytes(), "big.csv"), max_bytes=1000)


def test_missing_path_and_folder(tmp_path):
    with pytest.raises(AnnotationDataError, match="no such file"):
        load_annotations(tmp_path / "nope.csv")
    with pytest.raises(AnnotationDataError, match="folder"):
        load_annotations(tmp_path)


def test_named_column_that_does_not_exist():
    with pytest.raises(
        AnnotationDataError, match=r"column 'who': there is no column 'who' for the annotator"
    ):
        load_annotations(upload(b"item,annotator,label\n1,a,x\n"), annotator="who")


def test_label_outside_declared_categories_names_rows():
    with pytest.raises(AnnotationDataError, match=r"column 'label', row 3"):
        load_annotations(upload(b"item,annotator,label\n1,a,x\n1,b,q\n"), categories=["x", "y"])


def test_unknown_duplicates_policy_and_kind():
    with pytest.raises(AnnotationDataError, match="duplicates policy"):
        load_annotations(upload(b"item,annotator,label\n1,a,x\n"), duplicates="average")
    with pytest.raises(AnnotationDataError, match="label kind"):
        load_annotations(upload(b"item,annotator,label\n1,a,x\n"), kind="fuzzy")


def test_numeric_kind_for_text_labels():
    with pytest.raises(AnnotationDataError, match="not numbers"):
        load_annotations(upload(b"item,annotator,label\n1,a,x\n1,b,y\n"), kind="numeric")


def test_empty_dataframe():
    with pytest.raises(AnnotationDataError, match="empty"):
        load_annotations(pd.DataFrame())


def test_unsupported_source_type():
    with pytest.raises(AnnotationDataError, match="cannot read annotations from a int"):
        load_annotations(42)


@given(st.binary(max_size=400))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_arbitrary_bytes_never_raise_anything_else(data):
    try:
        load_annotations(upload(data, "fuzz.csv"))
    except AnnotationDataError:
        pass


@given(st.text(alphabet=st.sampled_from(list('ab,;\t\n"x1{}')), max_size=200))
@settings(max_examples=200, deadline=None)
def test_arbitrary_delimited_text_never_raises_anything_else(text):
    try:
        ann = load_annotations(upload(("item,annotator,label\n" + text).encode(), "fuzz.csv"))
    except AnnotationDataError:
        return
    # every data row is accounted for: a judgement, a missing label, or a skipped row
    assert ann.report.n_rows == ann.n_judgements + ann.report.n_missing + ann.report.n_skipped


def test_non_finite_numbers_are_refused_with_rows():
    with pytest.raises(
        AnnotationDataError, match=r"column 'label', row 3: labels such as '1e400' are not finite"
    ):
        load_annotations(upload(b"item,annotator,label\n1,a,2\n1,b,1e400\n"))


def test_a_file_with_no_labels_at_all_is_an_error():
    with pytest.raises(
        AnnotationDataError, match=r"no judgements: all 2 rows lack a label \(2 empty label cells\)"
    ):
        load_annotations(upload(b"item,annotator,label\n1,a,\n1,b,NA\n"))


def test_an_internal_bug_is_not_dressed_up_in_strict_mode(monkeypatch):
    import analytics.data.loading as loading

    def broken(*args, **kwargs):
        raise KeyError("bug")

    monkeypatch.setattr(loading, "to_long", broken)
    with pytest.raises(KeyError):
        load_annotations(upload(b"item,annotator,label\n1,a,x\n"))
    monkeypatch.delenv("CONCORD_STRICT_ERRORS")
    # issue 13: the guard never shows "KeyError: ..." to users; it names the file, says it
    # is a bug, and keeps the cause chained for whoever reports it
    with pytest.raises(AnnotationDataError, match=r"looks like a bug in Concord") as info:
        load_annotations(upload(b"item,annotator,label\n1,a,x\n"))
    assert "KeyError" not in str(info.value) and "bug'" not in str(info.value)
    assert info.value.source and isinstance(info.value.__cause__, KeyError)


SPAN_CSV = (
    b"item,annotator,start,end,label,text\n"
    b"d1,ann,0,5,PER,Alice met Bob\n"
    b"d1,ann,10,13,PER,Alice met Bob\n"
    b"d1,bob,0,5,PER,Alice met Bob\n"
    b"d1,bob,10,13,PER,Alice met Bob\n"
)


def test_a_span_file_loaded_as_annotations_is_named_a_span_file():
    with pytest.raises(AnnotationDataError) as info:
        load_annotations(upload(SPAN_CSV, "spans.csv"))
    message = str(info.value)
    assert message.startswith("file 'spans.csv', rows 3, 5: 2 repeated judgements"), message
    assert "look like a span file" in info.value.hint and "Spans page" in info.value.hint
    assert "If not, choose a duplicates policy" in message  # the old way out is still given


def test_a_table_without_offsets_keeps_the_plain_repeat_hint():
    data = b"item,annotator,label\nd1,ann,x\nd1,ann,y\n"
    with pytest.raises(AnnotationDataError) as info:
        load_annotations(upload(data))
    assert info.value.hint.startswith("Choose a duplicates policy")
    assert "span" not in str(info.value)
