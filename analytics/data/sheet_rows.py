"""The rows of an .xlsx sheet as written, each cell at the address it names.

openpyxl's streaming reader (``ReadOnlyWorksheet.iter_rows``) places cells by counting:
a row numbered below the one before it, a repeated row number, or a cell written left of
the cell before it is dropped without a word (a row written ``C2, A2, B2`` loses its label
in ``C2``). Spreadsheet programs never write such sheets; hand-made or generated files can.
:func:`sheet_rows` walks the same parser openpyxl's reader uses, element by element, and
refuses any of those orders with the row named, so no cell is lost in silence. It also
skips the empty rows of a gap instead of yielding each of them (openpyxl yields every row
of a gap: one cell at row 1,048,576 meant a million empty rows).

openpyxl's ``WorkSheetParser`` is the parser behind its public reader; it is private API,
held stable by the ``openpyxl<4`` pin in ``requirements.txt`` and exercised by the tests of
``tests/data/test_workbook_order.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from analytics._core.errors import AnnotationDataError

__all__ = ["SAVE_AS", "sheet_rows"]

#: The hint on a sheet no spreadsheet program wrote.
SAVE_AS = "Open it in Excel and save it as .xlsx (Excel Workbook), or export CSV."


def sheet_rows(ws: Any, name: str) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """Each ``<row>`` element of a read-only sheet holding cells: its number and cells.

    Parameters
    ----------
    ws : openpyxl.worksheet._read_only.ReadOnlyWorksheet
        A sheet of a workbook opened with ``read_only=True``.
    name : str
        The file's name, for error messages.

    Yields
    ------
    (int, list of dict)
        The row's number (1-based, as Excel shows it) and its cells in column order, each
        a dict of openpyxl's parser with the keys ``column`` (1-based), ``value`` and
        ``data_type`` (``"n"``, ``"s"``, ``"b"``, ``"d"``, ``"e"``, ``"f"``, ...).
        Row numbers strictly increase; columns strictly increase within a row.

    Raises
    ------
    AnnotationDataError
        When a row number is not above the previous one (rows out of order, repeated or
        numbered 0 or below), a cell names another row than the one it is written in, or
        a cell's column is not right of the previous cell's.
    """
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet._reader import WorkSheetParser

    def refuse(problem: str, row: int) -> AnnotationDataError:
        return AnnotationDataError(
            problem + " No spreadsheet program writes a sheet like this, so it is not read "
            "(openpyxl's reader would drop such cells in silence).",
            source=name,
            sheet=ws.title,
            rows=[row],
            hint=SAVE_AS,
        )

    book = ws.parent
    with ws._get_source() as source:
        parser = WorkSheetParser(
            source,
            ws._shared_strings,
            data_only=book.data_only,
            epoch=book.epoch,
            date_formats=book._date_formats,
            timedelta_formats=book._timedelta_formats,
        )
        last = 0
        for number, cells in parser.parse():
            if number < 1:
                raise refuse(f"a row is numbered {number:,} (rows are numbered from 1).", number)
            if number <= last:
                why = "appears twice" if number == last else f"comes after row {last:,}"
                raise refuse(f"the sheet's rows are out of order: row {number:,} {why}.", number)
            last = number
            column = 0
            for cell in cells:
                if cell["row"] != number or cell["column"] <= column:
                    ref = f"{get_column_letter(cell['column'])}{cell['row']}"
                    raise refuse(
                        f"cell {ref} is written inside row {number:,}."
                        if cell["row"] != number
                        else f"the cells of row {number:,} are out of order: {ref} comes "
                        f"after {get_column_letter(column)}{number}.",
                        number,
                    )
                column = cell["column"]
            if cells:
                yield number, cells
