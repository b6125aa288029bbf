"""Reading an Excel workbook (.xlsx) sheet into a table, within the limits.

Part of :func:`analytics.data.reading.read_table`. Before openpyxl parses anything, the
zip's directory is checked (declared inflated size, compression ratio) and the sheet's
declared dimension is checked against the cell limit; while the sheet streams, the cells
read are counted against it again (a dimension can be wrong or absent). The header row is
read raw: a repeated or missing column name is an error naming the columns by letter.
Other sheets that hold data are named in a caution.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from typing import Any
from xml.etree.ElementTree import ParseError

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError, show_text
from analytics._core.formatting import format_count
from analytics.data.header_rows import refuse_repeated_header
from analytics.data.limits import (
    DEFAULT_LIMITS,
    Limits,
    check_archive,
    check_cells,
    check_columns,
)
from analytics.data.sheet_rows import SAVE_AS as _SAVE_AS
from analytics.data.sheet_rows import sheet_rows

__all__ = ["EXCEL_MAX_ROWS", "OLE_MAGIC", "read_excel", "workbook_sheets"]

#: The first bytes of an OLE2 compound file: an old .xls, or an encrypted .xlsx.
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
#: Excel's last row: a sheet never has more.
EXCEL_MAX_ROWS = 1_048_576
_ENCRYPTED_STREAM = "EncryptionInfo".encode("utf-16-le")
#: How to read another sheet, in Python and on the command line.
_CHOOSE_SHEET = (
    "choose the sheet to read (in Python: load_annotations(..., sheet=NAME or 0-based "
    "index); on the command line: --sheet NAME_OR_INDEX)"
)
_FILL_SHEET = (
    "Put the annotations in this sheet (a header row, then the data rows), or "
    f"{_CHOOSE_SHEET.replace('the sheet to read', 'the sheet that holds them')}."
)


def workbook_sheets(
    data: bytes, name: str = "<workbook>", limits: Limits = DEFAULT_LIMITS
) -> list[str]:
    """The worksheet names of an .xlsx workbook, in order; ``[]`` for any other file.

    Reads only the workbook's directory (after the same archive limits as
    :func:`read_excel`), so a page can offer the sheets before reading one.

    Parameters
    ----------
    data : bytes
        The file's bytes.
    name : str, default "<workbook>"
        The file name, for messages.
    limits : Limits, default DEFAULT_LIMITS

    Returns
    -------
    list of str
        Worksheet titles (chart sheets left out); empty when ``data`` is not a zip
        container.

    Raises
    ------
    AnnotationDataError
        For a damaged workbook or one over the limits.

    Examples
    --------
    >>> workbook_sheets(b"item,annotator,label")
    []
    """
    if not data.startswith(b"PK\x03\x04"):
        return []
    archive = _open_archive(data, name)
    check_archive(archive, limits, name)
    book = _load_workbook(data, name)
    try:
        return [ws.title for ws in book.worksheets]
    finally:
        book.close()


def read_excel(
    data: bytes, name: str, sheet: str | int | None, limits: Limits = DEFAULT_LIMITS
) -> tuple[pd.DataFrame, np.ndarray, list[str], list[str]]:
    """Read one sheet of an .xlsx workbook into a table of raw cells.

    Parameters
    ----------
    data : bytes
        The workbook.
    name : str
        The file name, for messages.
    sheet : str, int or None
        The sheet's name or 0-based index; None for the first.
    limits : Limits, default DEFAULT_LIMITS

    Returns
    -------
    table : pandas.DataFrame
        The cells (object dtype; empty cells NaN, whole numbers int), columns named by the
        header row.
    rows : ndarray of int
        The sheet row number of each record.
    notes : list of str
        Decisions to report (the sheet read, blank rows, error cells).
    cautions : list of str
        What the user should check (other sheets holding data).

    Raises
    ------
    AnnotationDataError
        For a file that is not an .xlsx (saying what it is), a workbook over the limits,
        a missing sheet, or a header with empty or repeated names.
    """
    archive = _open_archive(data, name)
    check_archive(archive, limits, name)
    book = _load_workbook(data, name)
    try:
        return _read_sheet(data, name, sheet, limits, book)
    finally:
        book.close()  # a read-only workbook keeps its zip open until closed


def _read_sheet(
    data: bytes, name: str, sheet: str | int | None, limits: Limits, book: Any
) -> tuple[pd.DataFrame, np.ndarray, list[str], list[str]]:
    ws = _pick_sheet(book, sheet, name)
    title = ws.title
    if ws.max_row and ws.max_column:  # the <dimension> element, read from the sheet's head
        n_rows = ws.max_row - ws.min_row + 1
        n_cols = ws.max_column - ws.min_column + 1
        what = f"the sheet declares {n_cols:,} columns"
        check_columns(n_cols, limits, name, what, sheet=title)
        check_cells(
            n_rows * n_cols,
            limits,
            name,
            f"the sheet declares {n_rows:,} rows x {n_cols:,} columns",
            sheet=title,
        )
    records, numbers, n_errors, valueless = _stream_rows(ws, limits, name)
    notes = [f"Read sheet {show_text(title)} ({_ordinal(book, ws)})."]
    cautions: list[str] = []
    uncalculated = _uncalculated_formulas(data, book.worksheets.index(ws), valueless, name)
    if uncalculated:
        one = uncalculated == 1
        held = "holds a formula whose value was" if one else "hold formulas whose values were"
        cautions.append(
            f"{format_count(uncalculated, 'cell')} of sheet {show_text(title)} {held} never "
            "calculated (the file was written by a program, not saved by a "
            "spreadsheet): they were read as empty. Open the file in Excel or LibreOffice and "
            "save it, so the values are stored."
        )
    if not records:
        raise AnnotationDataError("the sheet is empty.", source=name, sheet=title, hint=_FILL_SHEET)
    blank = numbers[-1] - numbers[0] + 1 - len(numbers)
    if blank:
        notes.append(f"{format_count(blank, 'blank row')} ignored.")
    if n_errors:
        held = "holds an Excel error" if n_errors == 1 else "hold Excel errors"
        notes.append(
            f"{format_count(n_errors, 'cell')} {held} (#N/A, #DIV/0!, ...): read as empty."
        )
    width = max(len(r) for r in records)
    header = _header(records[0], width, name, title, numbers[0])
    if sheet is None:
        cautions[:0] = _other_sheets_caution(book, ws, name, header)
    if len(records) == 1:
        raise AnnotationDataError(
            "the sheet has a header row but no data rows.",
            source=name,
            sheet=title,
            hint=_FILL_SHEET,
        )
    if width == 1:
        raise AnnotationDataError(
            f"the sheet has a single column ({show_text(header[0])}).", source=name, sheet=title
        )
    for r in records:  # padded in place: a padded copy of every row was one more copy
        r.extend([np.nan] * (width - len(r)))  # of the sheet (200 MB for 1,500 x 16,384)
    table = pd.DataFrame(records[1:], columns=header, dtype=object)
    refuse_repeated_header(table, np.asarray(numbers[1:]), name, sheet=title)
    return table, np.asarray(numbers[1:]), notes, cautions


def _open_archive(data: bytes, name: str) -> zipfile.ZipFile:
    """The zip inside an .xlsx, or an error saying plainly what the file is instead."""
    if data.startswith(OLE_MAGIC):
        if _ENCRYPTED_STREAM in data:
            raise AnnotationDataError(
                "the workbook is password-protected (encrypted), so it cannot be read.",
                source=name,
                hint="Remove the password in Excel (File > Info > Protect Workbook), "
                "or export CSV.",
            )
        raise AnnotationDataError(
            "this is an old Excel 97-2003 workbook (.xls); Concord reads .xlsx.",
            source=name,
            hint=_SAVE_AS,
        )
    if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"<":
        raise AnnotationDataError(
            "this is an HTML or XML file (as web exports and Excel 2003 XML save), not an "
            ".xlsx workbook.",
            source=name,
            hint=_SAVE_AS,
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = set(archive.namelist())
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
        raise AnnotationDataError(
            "could not read it as an Excel workbook: it is not a valid .xlsx (not a complete "
            "zip archive; the file may be truncated or damaged).",
            source=name,
            hint=_SAVE_AS,
        ) from None
    if any(m.flag_bits & 0x1 for m in archive.infolist()):
        raise AnnotationDataError(
            "the workbook's parts are password-protected (an encrypted zip).",
            source=name,
            hint="Save it again without a password, or export CSV.",
        )
    if "xl/workbook.xml" not in names:
        raise AnnotationDataError(
            f"this is not an .xlsx workbook but {_what_zip(archive, names)}.",
            source=name,
            hint="Give the .xlsx itself, or export CSV.",
        )
    return archive


def _what_zip(archive: zipfile.ZipFile, names: set[str]) -> str:
    if "xl/workbook.bin" in names:
        return "an Excel binary workbook (.xlsb)"
    if "mimetype" in names:
        kind = archive.read("mimetype")[:100].decode("ascii", "replace")
        if "spreadsheet" in kind:
            return "an OpenDocument spreadsheet (.ods)"
        return "an OpenDocument file"
    if "word/document.xml" in names:
        return "a Word document (.docx)"
    if "ppt/presentation.xml" in names:
        return "a PowerPoint file (.pptx)"
    shown = ", ".join(sorted(names)[:5]) + (", ..." if len(names) > 5 else "")
    return f"a zip archive (holding {shown or 'nothing'})"


def _damaged(exc: BaseException, name: str, sheet: str | None = None) -> AnnotationDataError:
    """Plain words for whatever openpyxl raised on a damaged or odd workbook."""
    chain = [exc]  # openpyxl wraps the parser's error in a ValueError of its own
    while chain[-1].__cause__ is not None and len(chain) < 10:
        chain.append(chain[-1].__cause__)
    kinds = " ".join(type(e).__name__ for e in chain)
    if any(isinstance(e, (zipfile.BadZipFile, zlib.error)) for e in chain):
        what = "the workbook is damaged: one of its parts cannot be inflated or fails its checksum"
    elif "Forbidden" in kinds or "DTD" in kinds:  # defusedxml's refusals
        what = "the workbook's XML declares entities or a DTD, which Excel never writes"
    elif any(isinstance(e, (ParseError, SyntaxError)) for e in chain) or "invalid XML" in str(exc):
        what = "the workbook's XML is malformed (damaged, or not written by a spreadsheet)"
    else:
        what = "the workbook's parts are not the ones Excel writes (damaged, or non-standard)"
    return AnnotationDataError(
        f"could not read it as an Excel workbook: {what}.", source=name, sheet=sheet, hint=_SAVE_AS
    )


def _load_workbook(data: bytes, name: str) -> Any:
    from openpyxl import load_workbook  # imported here: only workbooks need it

    try:
        return load_workbook(io.BytesIO(data), read_only=True, data_only=True, keep_links=False)
    except (MemoryError, KeyboardInterrupt):
        raise
    except Exception as exc:  # openpyxl raises KeyError, TypeError, ... on odd files
        raise _damaged(exc, name) from None


def _pick_sheet(book: Any, sheet: str | int | None, name: str) -> Any:
    sheets = book.worksheets
    listed = ", ".join(show_text(s) for s in book.sheetnames)
    if not sheets:
        raise AnnotationDataError(
            "the workbook has no worksheet (only charts).", source=name, hint=_SAVE_AS
        )
    if sheet is None:
        return sheets[0]
    if isinstance(sheet, (int, np.integer)) and not isinstance(sheet, bool):
        if not -len(sheets) <= sheet < len(sheets):
            raise AnnotationDataError(
                f"sheet={sheet} is out of range: the workbook has "
                f"{format_count(len(sheets), 'worksheet')} ({listed}).",
                source=name,
                hint="Give sheet= (--sheet on the command line) a 0-based index or a sheet's name.",
            )
        return sheets[int(sheet)]
    for ws in sheets:
        if ws.title == str(sheet):
            return ws
    if str(sheet) in book.sheetnames:
        raise AnnotationDataError(
            "that sheet is a chart, not a table.", source=name, sheet=str(sheet)
        )
    raise AnnotationDataError(
        f"the workbook has no sheet {show_text(sheet)}; its sheets are {listed}.",
        source=name,
        hint="Sheet names are case-sensitive.",
    )


def _ordinal(book: Any, ws: Any) -> str:
    n = len(book.worksheets)
    index = book.worksheets.index(ws)
    return "the only sheet" if n == 1 else f"sheet {index + 1} of {n}"


def _stream_rows(
    ws: Any, limits: Limits, name: str
) -> tuple[list[list], list[int], int, set[tuple[int, int]]]:
    """The sheet's non-blank rows (trailing empty cells cut), their row numbers, the count
    of error cells, and where cells are written without a value (row, column).

    The rows come from :func:`~analytics.data.sheet_rows.sheet_rows` (each cell at the
    address it names, the declared dimension ignored, rows or cells out of order refused);
    the sheet's reach so far (last row x widest column) is counted against ``max_cells``
    before each row is converted.
    """
    records: list[list] = []
    numbers: list[int] = []
    valueless: set[tuple[int, int]] = set()
    n_errors = 0
    widest = 0
    try:
        for number, cells in sheet_rows(ws, name):
            if number > EXCEL_MAX_ROWS:
                raise AnnotationDataError(
                    f"the sheet has rows past Excel's last row ({EXCEL_MAX_ROWS:,}), so it was "
                    "not written by a spreadsheet program.",
                    source=name,
                    sheet=ws.title,
                    hint=_SAVE_AS,
                )
            if cells[-1]["column"] > widest:
                widest = cells[-1]["column"]
                what = f"the sheet reaches column {widest:,}"
                check_columns(widest, limits, name, what, sheet=ws.title)
            check_cells(
                number * widest,
                limits,
                name,
                f"the sheet reaches row {number:,} and column {widest:,}",
                sheet=ws.title,
            )
            values: list[Any] = [np.nan] * cells[-1]["column"]  # columns with no cell: empty
            for cell in cells:
                col, value = cell["column"], cell["value"]
                if value is None:  # styled but empty, or a formula never calculated
                    valueless.add((number, col))
                elif cell["data_type"] == "e":
                    n_errors += 1
                elif isinstance(value, float) and value.is_integer():
                    values[col - 1] = int(value)
                else:
                    values[col - 1] = value
            while values and _empty(values[-1]):
                values.pop()
            if values:
                records.append(values)
                numbers.append(number)
    except AnnotationDataError:
        raise
    except (MemoryError, KeyboardInterrupt):
        raise
    except Exception as exc:  # a damaged sheet part
        raise _damaged(exc, name, ws.title) from None
    return records, numbers, n_errors, valueless


def _uncalculated_formulas(
    data: bytes, index: int, valueless: set[tuple[int, int]], name: str
) -> int:
    """How many of the cells written without a value hold a formula (never calculated).

    Read-only openpyxl gives either the stored values or the formulas, so the sheet is
    read a second time for formulas, and only when some cells had no value, up to the
    last such row.
    """
    if not valueless:
        return 0
    from openpyxl import load_workbook

    last = max(r for r, _ in valueless)
    found = 0
    try:
        formulas = load_workbook(io.BytesIO(data), read_only=True, data_only=False)
        ws = formulas.worksheets[index]
        ws.reset_dimensions()
        for number, row in enumerate(ws.iter_rows(max_row=last), start=1):
            found += sum(
                1
                for col, cell in enumerate(row, start=1)
                if cell.data_type == "f" and (number, col) in valueless
            )
        formulas.close()
    except (MemoryError, KeyboardInterrupt):
        raise
    except Exception:  # the first reading succeeded; a second look that fails adds nothing
        return 0
    return found


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, float) and value != value)


def _header(first: list, width: int, name: str, sheet: str, row: int) -> list[str]:
    """The header row's names, raw: a missing or repeated name is an error by column letter."""
    from openpyxl.utils import get_column_letter

    names = [
        "" if i >= len(first) or _empty(first[i]) else str(first[i]).strip() for i in range(width)
    ]
    empty = [get_column_letter(i + 1) for i, h in enumerate(names) if not h]
    if empty:
        shown = ", ".join(empty[:5]) + (f" and {len(empty) - 5} more" if len(empty) > 5 else "")
        which = f"column {shown}" if len(empty) == 1 else f"columns {shown}"
        raise AnnotationDataError(
            f"{which} of the header row {'has' if len(empty) == 1 else 'have'} no name.",
            source=name,
            sheet=sheet,
            rows=[row],
            hint="Give every column a name in the header row, or delete the unnamed columns; "
            "if a title sits above the header, delete the rows above it.",
        )
    seen: dict[str, list[str]] = {}
    for i, h in enumerate(names):
        seen.setdefault(h, []).append(get_column_letter(i + 1))
    repeated = {h: cols for h, cols in seen.items() if len(cols) > 1}
    if repeated:
        h, cols = next(iter(repeated.items()))
        others = len(repeated) - 1
        verb = "repeats" if others == 1 else "repeat"
        more = f" ({format_count(others, 'other name')} {verb} too)" if others else ""
        raise AnnotationDataError(
            f"columns {' and '.join(cols)} of the header are both named {show_text(h)}{more}.",
            source=name,
            sheet=sheet,
            column=h,
            rows=[row],
            hint="Column names must be unique: rename one of them.",
        )
    return names


#: Rows of another sheet looked at for its first values (see :func:`_first_values`).
OTHER_SHEET_ROWS = 10_000


def _first_values(ws: Any) -> list[str] | None:
    """A sheet's first row holding a value, as stripped text; None for an empty sheet.

    A sheet whose first :data:`OTHER_SHEET_ROWS` rows are empty counts as holding values
    (it is named in the caution, never taken for empty) and gives an empty list: its
    header is not known.
    """
    for number, row in enumerate(ws.iter_rows(values_only=True), start=1):
        if number > OTHER_SHEET_ROWS:  # values far down (or past Excel's last row): the
            return []  # sheet is not empty, its header is not known (openpyxl yields
            # every empty row of a gap: 100 sheets with one cell at row 1,048,576 took 28 s)
        if any(v is not None for v in row):
            names = ["" if _empty(v) else str(v).strip() for v in row]
            while names and not names[-1]:
                names.pop()
            return names
    return None


def _other_sheets_caution(book: Any, chosen: Any, name: str, header: list[str]) -> list[str]:
    """A caution naming the other worksheets that hold at least one value.

    Another sheet whose first row holds the same column names as the chosen sheet's
    header is a second table of annotations: an error naming both sheets, since reading
    only one would drop the other.
    """
    full, same = [], []
    for ws in book.worksheets:
        if ws is chosen:
            continue
        ws.reset_dimensions()
        try:
            first = _first_values(ws)
        except (MemoryError, KeyboardInterrupt):
            raise
        except Exception:
            first = []  # a damaged sheet may still hold data: say so, do not hide it
        if first is None:
            continue
        hidden = " (hidden)" if getattr(ws, "sheet_state", "visible") != "visible" else ""
        full.append(show_text(ws.title) + hidden)
        if _column_set(first) == _column_set(header):  # in any order or case, as matched
            same.append(ws.title)
    if same:
        shown = [show_text(s) for s in (chosen.title, *same)]
        raise AnnotationDataError(
            f"sheets {', '.join(shown[:-1])} and {shown[-1]} each hold a table with the "
            f"columns {', '.join(map(show_text, header[:6]))}{', ...' if len(header) > 6 else ''}"
            ": reading one sheet would leave out the annotations in the others, and Concord "
            "does not guess which one you mean.",
            source=name,
            sheet=same[0],
            hint=f"Put all the annotations in one sheet, or {_CHOOSE_SHEET}.",
        )
    if not full:
        return []
    return [
        f"Only the first sheet, {show_text(chosen.title)}, was read; the workbook's other "
        f"{'sheet' if len(full) == 1 else 'sheets'} {', '.join(full)} also "
        f"{'holds' if len(full) == 1 else 'hold'} data. If annotations are there, "
        f"{_CHOOSE_SHEET}, or save it as a file of its own."
    ]


def _column_set(names: list[str]) -> frozenset[str]:
    """Column names as columns are matched: stripped, case-folded, in any order."""
    return frozenset(n.strip().casefold() for n in names)
