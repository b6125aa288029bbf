"""analytics.data.reading: bytes into a raw table, with the row numbers a person sees."""

from __future__ import annotations

import io

import pytest

from analytics import AnnotationDataError
from analytics.data import DEFAULT_MAX_BYTES, FORMATS, read_table


def test_formats_and_limit():
    assert FORMATS == ("csv", "tsv", "json", "jsonl", "excel", "parquet")
    assert DEFAULT_MAX_BYTES == 200 * 1024 * 1024


def test_read_table_keeps_cells_as_text_and_counts_rows_from_the_header():
    table, rows, report = read_table(b"item,annotator,label\n\n007,a,1.0\n8,b,2\n")
    assert table["item"].tolist() == ["007", "8"] and table["label"].tolist() == ["1.0", "2"]
    assert rows.tolist() == [3, 4]  # the blank line keeps its number
    assert (report.format, report.encoding, report.n_rows) == ("csv", "utf-8", 2)
    assert "1 blank line ignored." in report.notes


def test_read_table_json_records_count_from_one():
    upload = io.BytesIO(b'[{"item": 1, "annotator": "a", "label": "x"}]')
    upload.name = "export.json"
    _, rows, report = read_table(upload)
    assert rows.tolist() == [1] and report.source == "export.json" and report.format == "json"


def test_read_table_refuses_ragged_rows_naming_them():
    with pytest.raises(AnnotationDataError, match="row 3 has 2"):
        read_table(b"item,annotator,label\n1,a,x\n2,b\n")


def test_an_uploaded_name_is_kept_whole_and_an_open_file_is_named_by_its_file_name(tmp_path):
    """An upload's name is not a path: "<b>b</b>.csv" was shown as "b>.csv" everywhere."""
    import io

    from analytics import load_annotations

    data = b"item,annotator,label\n1,a,x\n1,b,y\n"
    upload = io.BytesIO(data)
    upload.name = "[x](e.com) <b>b</b>.csv"
    assert load_annotations(upload).name == "[x](e.com) <b>b</b>.csv"
    path = tmp_path / "judgements.csv"
    path.write_bytes(data)
    with open(path, "rb") as handle:
        assert load_annotations(handle).name == "judgements.csv"


@pytest.mark.parametrize("suffix", [".xlsx", ".parquet", ".bin"])
def test_a_container_whose_extension_agrees_is_read_from_the_extension(tmp_path, suffix):
    """An .xlsx was reported "Format EXCEL from the content (a zip container ...)"."""
    import pandas as pd

    from analytics import load_annotations

    df = pd.DataFrame({"item": ["1", "1"], "annotator": ["a", "b"], "label": ["x", "y"]})
    path = tmp_path / f"judgements{suffix}"
    if suffix == ".parquet":
        df.to_parquet(path)
    else:
        df.to_excel(path, index=False)
    notes = " ".join(load_annotations(path).report.notes)
    if suffix == ".bin":
        assert "from the content (a zip container" in notes
    else:
        assert f"from the extension {suffix}" in notes and "from the content" not in notes
