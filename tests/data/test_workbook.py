"""Excel workbooks: the header read raw, other sheets named, and what is not an .xlsx said plainly."""

from __future__ import annotations

import io
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import Workbook

from analytics import AnnotationDataError, load_annotations
from analytics.data import read_table
from analytics.data.workbook import OLE_MAGIC
from tests.data.test_limits import SHEET, patched

LONG = [("item", "annotator", "label"), (1, "a", "x"), (1, "b", "y"), (2, "a", "x")]


def workbook(*sheets: tuple[str, list[tuple]], hidden: tuple[str, ...] = ()) -> bytes:
    book = Workbook()
    book.remove(book.active)
    for title, rows in sheets:
        ws = book.create_sheet(title)
        for row in rows:
            ws.append(row)
        if title in hidden:
            ws.sheet_state = "hidden"
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def upload(data: bytes, name: str = "book.xlsx") -> io.BytesIO:
    buf = io.BytesIO(data)
    buf.name = name
    return buf


def test_a_repeated_header_names_both_columns_and_the_sheet():
    data = workbook(("Data", [("item", "label", "annotator", "label"), (1, "x", "a", "y")]))
    with pytest.raises(
        AnnotationDataError,
        match=r"file 'book.xlsx', sheet 'Data', column 'label', row 1: "
        r"columns B and D of the header are both named 'label'\.",
    ):
        load_annotations(upload(data))


def test_names_repeated_after_trimming_spaces_are_repeated():
    data = workbook(("S", [("item", "annotator", "label", " label "), (1, "a", "x", "y")]))
    with pytest.raises(AnnotationDataError, match="columns C and D of the header are both named"):
        read_table(data)


def test_an_empty_header_cell_is_named_by_its_column_letter():
    data = workbook(("S", [("item", None, "label"), (1, "a", "x"), (2, "b", "y")]))
    with pytest.raises(
        AnnotationDataError, match=r"sheet 'S', row 1: column B of the header row has no name"
    ):
        read_table(data)


def test_data_beyond_the_header_is_an_unnamed_column():
    data = workbook(("S", [("item", "annotator", "label"), (1, "a", "x", "stray")]))
    with pytest.raises(AnnotationDataError, match=r"column D of the header row has no name"):
        read_table(data)


def test_other_sheets_with_data_are_named_in_a_caution():
    # "Second" holds other data (a summary), not a second table of annotations
    data = workbook(
        ("First", LONG),
        ("Empty", []),
        ("Second", [("annotator", "judged"), ("a", 2), ("b", 1)]),
        ("Notes", [("read me",)]),
        hidden=("Notes",),
    )
    ann = load_annotations(upload(data))
    assert ann.n_judgements == 3
    [caution] = [w for w in ann.report.warnings() if "sheet" in w]
    assert "'First'" in caution and "'Second', 'Notes' (hidden)" in caution
    assert "'Empty'" not in caution and "sheet=" in caution
    assert "Read sheet 'First' (sheet 1 of 4)." in ann.report.notes


def test_a_second_sheet_with_the_same_columns_is_refused_naming_both_sheets():
    # issue 13: a second sheet of annotations is never left out because the first was read
    data = workbook(("Batch 1", LONG), ("Notes", [("read me",)]), ("Batch 2", LONG[:2]))
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(upload(data))
    assert "sheets 'Batch 1' and 'Batch 2' each hold a table" in str(err.value)
    assert err.value.sheet == "Batch 2" and "sheet=" in err.value.hint
    assert load_annotations(upload(data), sheet="Batch 2").n_judgements == 1


def test_choosing_a_sheet_reads_it_and_cautions_nothing():
    data = workbook(("First", LONG), ("Second", [*LONG, (3, "c", "z")]))
    by_name = load_annotations(upload(data), sheet="Second")
    by_index = load_annotations(upload(data), sheet=1)
    assert by_name.n_judgements == by_index.n_judgements == 4
    assert by_name.report.warnings() == []


def test_a_single_sheet_workbook_has_no_caution():
    ann = load_annotations(upload(workbook(("Only", LONG))))
    assert ann.report.warnings() == [] and "Read sheet 'Only' (the only sheet)." in ann.report.notes


def test_a_sheet_that_does_not_exist_lists_the_sheets():
    data = workbook(("First", LONG), ("Second", LONG))
    with pytest.raises(
        AnnotationDataError, match=r"no sheet 'second'; its sheets are 'First', 'Second'"
    ):
        read_table(data, sheet="second")
    with pytest.raises(AnnotationDataError, match=r"sheet=5 is out of range: .* 2 worksheet"):
        read_table(data, sheet=5)


def test_errors_on_the_sheet_name_the_sheet():
    data = workbook(("Intro", []), ("Labels", [("label",), ("x",)]))
    with pytest.raises(AnnotationDataError, match=r"sheet 'Intro': the sheet is empty"):
        read_table(data)
    with pytest.raises(
        AnnotationDataError, match=r"sheet 'Labels': the sheet has a single column \('label'\)"
    ):
        read_table(data, sheet="Labels")
    with pytest.raises(
        AnnotationDataError, match=r"sheet 'H': the sheet has a header row but no data"
    ):
        read_table(workbook(("H", [LONG[0]])))


def test_blank_rows_keep_the_row_numbers_and_are_noted():
    data = workbook(("S", [(None,), LONG[0], LONG[1], (None,), (None,), LONG[2]]))
    table, rows, report = read_table(data)
    assert rows.tolist() == [3, 6] and table["label"].tolist() == ["x", "y"]
    assert "2 blank rows ignored." in report.notes


def test_whole_numbers_are_ints_and_numeric_headers_are_names():
    data = workbook(("S", [("item", 1.0, 2), (1.0, "x", "y"), (2.5, "x", "x")]))
    table, _, _ = read_table(data)
    assert list(table.columns) == ["item", "1", "2"]
    assert table["item"].tolist() == [1, 2.5] and isinstance(table["item"].iloc[0], int)


def test_excel_error_cells_are_counted_as_empty():
    data = workbook(("S", [*LONG, (3, "a", "x")]))
    data = patched(
        data,
        SHEET,
        lambda b: b.replace(
            b'<c r="C5" t="inlineStr"><is><t>x</t></is></c>', b'<c r="C5" t="e"><v>#N/A</v></c>'
        ),
    )
    table, _, report = read_table(data)
    assert table["label"].isna().tolist() == [False, False, False, True]
    assert any(n.startswith("1 cell holds an Excel error") for n in report.notes)


@pytest.mark.parametrize(
    ("data", "pattern"),
    [
        (
            OLE_MAGIC + b"\x00" * 600,
            r"an old Excel 97-2003 workbook \(\.xls\); Concord reads \.xlsx",
        ),
        (
            OLE_MAGIC + b"\x00" * 100 + "EncryptionInfo".encode("utf-16-le") + b"\x00" * 100,
            r"password-protected \(encrypted\)",
        ),
        (b"PK\x03\x04 truncated", r"not a valid \.xlsx \(not a complete zip archive"),
    ],
)
def test_files_that_are_not_an_xlsx_are_said_plainly(data, pattern):
    for name in ("book.xlsx", "book.xls"):
        with pytest.raises(AnnotationDataError, match=pattern) as info:
            load_annotations(upload(data, name))
        assert "Error:" not in str(info.value) and name in str(info.value)


def zipped(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for member, body in members.items():
            z.writestr(member, body)
    return out.getvalue()


@pytest.mark.parametrize(
    ("members", "what"),
    [
        ({"word/document.xml": b"<w/>"}, r"a Word document \(\.docx\)"),
        (
            {"mimetype": b"application/vnd.oasis.opendocument.spreadsheet"},
            r"an OpenDocument spreadsheet",
        ),
        ({"xl/workbook.bin": b"\x00"}, r"an Excel binary workbook \(\.xlsb\)"),
        ({"a.csv": b"item,annotator,label\n"}, r"a zip archive \(holding a\.csv\)"),
    ],
)
def test_other_zip_files_say_what_they_are(members, what):
    with pytest.raises(AnnotationDataError, match=r"this is not an \.xlsx workbook but " + what):
        read_table(upload(zipped(members)))


def test_malformed_sheet_xml_is_said_plainly_naming_the_sheet():
    data = patched(workbook(("S", LONG)), SHEET, lambda b: b.replace(b"</sheetData>", b"<row>"))
    with pytest.raises(
        AnnotationDataError,
        match=r"sheet 'S': could not read it as an Excel workbook: the workbook's XML is malformed",
    ) as info:
        read_table(data)
    assert "ParseError" not in str(info.value)


def test_a_missing_part_is_said_plainly():
    data = patched(
        workbook(("S", LONG)), "xl/_rels/workbook.xml.rels", lambda b: b"<Relationships/>"
    )
    with pytest.raises(
        AnnotationDataError, match=r"could not read it as an Excel workbook: "
    ) as info:
        read_table(data)
    assert "KeyError" not in str(info.value)


def test_xml_entities_are_refused_not_expanded():
    laughs = b'<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
    data = patched(workbook(("S", LONG)), SHEET, lambda b: laughs + b)
    with pytest.raises(
        AnnotationDataError, match=r"declares entities or a DTD, which Excel never writes"
    ):
        read_table(data)


def test_a_part_that_fails_its_checksum_is_damage():
    source = zipfile.ZipFile(io.BytesIO(workbook(("S", LONG))))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:  # stored, so a changed byte stays valid XML
        for info in source.infolist():
            target.writestr(info.filename, source.read(info.filename), zipfile.ZIP_STORED)
    data = out.getvalue().replace(b"<t>annotator</t>", b"<t>annotatoR</t>")
    with pytest.raises(
        AnnotationDataError,
        match=r"damaged: one of its parts cannot be inflated or fails its checksum",
    ):
        read_table(data)


def test_an_html_table_saved_as_xls_is_said_plainly():
    with pytest.raises(AnnotationDataError, match=r"an HTML or XML file .* not an \.xlsx workbook"):
        read_table(upload(b"<html><table><tr><td>item</td></tr></table></html>", "web.xlsx"))


def test_csv_text_saved_as_xls_still_loads_and_a_word_97_file_is_not_called_a_workbook():
    assert (
        load_annotations(upload(b"item,annotator,label\n1,a,x\n1,b,y\n", "x.xls")).n_judgements == 2
    )
    with pytest.raises(AnnotationDataError, match=r"extension \.doc is not one Concord reads"):
        read_table(upload(OLE_MAGIC + b"\x00" * 600, "letter.doc"))


def test_a_second_sheet_with_a_row_far_past_the_last_is_named_without_walking_the_gap():
    import time

    data = workbook(("First", LONG), ("Far", [("x",)]))
    far = "xl/worksheets/sheet2.xml"
    data = patched(
        data,
        far,
        lambda b: b.replace(b'<row r="1">', b'<row r="900000000">').replace(
            b'r="A1"', b'r="A900000000"'
        ),
    )
    assert b'<row r="900000000">' in zipfile.ZipFile(io.BytesIO(data)).read(far)
    start = time.perf_counter()
    ann = load_annotations(upload(data))
    # openpyxl walks the million-row gap to Excel's last row (about a second), never the
    # 900 million rows to the one given
    assert time.perf_counter() - start < 10
    assert any("'Far'" in w for w in ann.report.warnings())


def stored_workbook() -> bytes:
    """The LONG workbook with its parts stored uncompressed, so changed bytes reach the XML."""
    source = zipfile.ZipFile(io.BytesIO(workbook(("S", LONG))))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            target.writestr(info.filename, source.read(info.filename), zipfile.ZIP_STORED)
    return out.getvalue()


STORED = stored_workbook()


@given(st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_damaged_workbook_raises_only_annotation_data_errors(data):
    """Truncated, or with bytes changed anywhere: a clean load or an AnnotationDataError."""
    body = bytearray(STORED)
    if data.draw(st.booleans(), label="truncate"):
        body = body[: data.draw(st.integers(4, len(body) - 1), label="length")]
    for _ in range(data.draw(st.integers(1, 4), label="changes")):
        at = data.draw(st.integers(0, len(body) - 1), label="at")
        body[at] = data.draw(st.integers(0, 255), label="byte")
    try:
        ann = load_annotations(upload(bytes(body)), format="excel")
    except AnnotationDataError as err:
        assert "\n" not in str(err) and "Error:" not in str(err)
        return
    assert ann.report.n_rows == ann.n_judgements + ann.report.n_missing + ann.report.n_skipped


def test_formulas_never_calculated_are_cautioned_not_silently_empty():
    data = workbook(("S", [*LONG, (3, "a", '=A2&"x"'), (3, "b", "y")]))
    ann = load_annotations(upload(data))
    [caution] = [w for w in ann.report.warnings() if "never calculated" in w]
    assert caution.startswith(
        "1 cell of sheet 'S' holds a formula whose value was never calculated"
    )
    assert ann.report.n_missing == 1


def test_styled_empty_cells_are_not_formulas():
    from openpyxl.styles import Font

    book = Workbook()
    ws = book.active
    for row in LONG:
        ws.append(row)
    ws["C5"].font = Font(bold=True)  # written to the sheet, but holds nothing
    buf = io.BytesIO()
    book.save(buf)
    ann = load_annotations(upload(buf.getvalue()))
    assert not any("formulas" in w for w in ann.report.warnings())
