"""Sheets whose rows or cells are out of order: refused, where openpyxl's streaming reader
dropped cells in silence (found by the wider corpus's fuzz campaign, issue 13)."""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

import pytest

from analytics import AnnotationDataError, load_annotations

sys.path.insert(0, str(Path(__file__).parent / "hostile"))
from xlsx_parts import cell, raw_xlsx, sheet_xml

HEADER = (
    '<row r="1">' + cell("A1", "item") + cell("B1", "annotator") + cell("C1", "label") + "</row>"
)


def row(r: int | str, *cells: tuple[str, str]) -> str:
    return f'<row r="{r}">' + "".join(cell(ref, v) for ref, v in cells) + "</row>"


def R2(n: int = 2, item: str = "i1", who: str = "a", label: str = "x") -> str:
    return row(n, (f"A{n}", item), (f"B{n}", who), (f"C{n}", label))


def upload(*rows: str) -> io.BytesIO:
    buffer = io.BytesIO(raw_xlsx(sheet_xml([HEADER, *rows], "A1:C9")))
    buffer.name = "hand.xlsx"
    return buffer


@pytest.mark.parametrize(
    ("rows", "message", "bad_row"),
    [
        ([row(2, ("C2", "x"), ("A2", "i1"), ("B2", "a")), R2(3)], "cells of row 2 are out of order: A2 comes after C2", 2),
        ([row(2, ("A2", "i1"), ("B2", "a"), ("B2", "b"), ("C2", "x")), R2(3)], "B2 comes after B2", 2),
        ([R2(3), R2(2)], "row 2 comes after row 3", 2),
        ([R2(2), R2(2, item="i9"), R2(3)], "row 2 appears twice", 2),
        ([R2(2).replace('r="2"', 'r="0"', 1), R2(3)], r"a row is numbered 0 \(rows are numbered from 1\)", 0),
        ([row(2, ("A2", "i1"), ("B5", "a"), ("C2", "x"))], "cell B5 is written inside row 2", 2),
    ],
)  # fmt: skip
def test_rows_or_cells_out_of_order_are_refused_naming_the_row(rows, message, bad_row):
    """Read by openpyxl's iter_rows, each of these lost a cell or a row without a word:
    C2 first made the row two cells wide (its label gone), a row numbered below the one
    before it or repeated vanished, and the load report counted fewer rows."""
    with pytest.raises(AnnotationDataError, match=message) as info:
        load_annotations(upload(*rows))
    err = info.value
    assert err.source == "hand.xlsx" and err.sheet == "Sheet1" and err.rows == [bad_row]
    assert "No spreadsheet program" in str(err) and "save it as .xlsx" in str(err)


def test_cells_in_order_with_gaps_are_read_at_their_addresses():
    """A missing cell (B3) is an empty cell and rows skipped (4, 5) are blank rows; later
    cells keep their columns and rows keep their numbers."""
    ann = load_annotations(
        upload(
            R2(2), row(3, ("A3", "i1"), ("C3", "y")), R2(6, "i2", "b", "z"), R2(7, "i1", "b", "y")
        )
    )
    assert ann.n_judgements == 3
    assert any("no annotator id" in str(s) and 3 in s.rows for s in ann.report.skipped)
    assert "2 blank rows ignored." in ann.report.notes
    assert list(ann.categories[ann.label_codes]) == ["x", "z", "y"]


def test_a_cell_at_excels_last_row_is_read_without_walking_the_gap():
    """openpyxl's reader yields every empty row of a gap: one cell at row 1,048,576 meant a
    million empty rows to walk (seconds); the rows as written are two."""
    last = row(1_048_576, ("A1048576", "i2"), ("B1048576", "b"), ("C1048576", "y"))
    start = time.process_time()
    ann = load_annotations(upload(R2(2), last))
    assert time.process_time() - start < 5  # a guard against walking the gap, not a benchmark
    assert ann.n_judgements == 2 and list(ann.items) == ["i1", "i2"]
