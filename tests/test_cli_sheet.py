"""``--sheet`` on the command line, and the sheet errors that name it."""

from __future__ import annotations

import openpyxl
import pytest

from analytics.cli import main
from analytics.cli_input import sheet_of


def two_tables(path):
    book = openpyxl.Workbook()
    first = book.active
    first.title = "Batch1"
    for row in [["item", "annotator", "label"], [1, "a", "x"], [1, "b", "y"]]:
        first.append(row)
    second = book.create_sheet("Batch2")
    for row in [["label", "item", "annotator"], ["x", 2, "a"], ["x", 2, "b"], ["y", 3, "a"]]:
        second.append(row)
    book.save(path)
    return path


def test_sheet_of_reads_positions_and_names():
    assert sheet_of("1") == 1 and sheet_of("-1") == -1 and sheet_of("Batch 2") == "Batch 2"


def test_two_tables_are_refused_with_the_cli_form(tmp_path, capsys):
    path = two_tables(tmp_path / "two.xlsx")
    assert main(["summary", str(path)]) == 2
    assert "--sheet NAME_OR_INDEX" in capsys.readouterr().err


@pytest.mark.parametrize(("sheet", "items"), [("Batch2", "2 items"), ("0", "1 item")])
def test_sheet_chooses_the_sheet(tmp_path, capsys, sheet, items):
    path = two_tables(tmp_path / "two.xlsx")
    assert main(["summary", str(path), "--sheet", sheet]) == 0
    assert items in capsys.readouterr().out


def test_a_sheet_out_of_range_names_the_option(tmp_path, capsys):
    path = two_tables(tmp_path / "two.xlsx")
    assert main(["summary", str(path), "--sheet", "5"]) == 2
    err = capsys.readouterr().err
    assert "out of range" in err and "--sheet" in err
