"""Building blocks of the corpus's workbooks: a minimal .xlsx written by hand, and openpyxl's
made reproducible.

Hand-written sheet XML is how the corpus gets what openpyxl will not write: a declared
dimension far beyond the data, padding that inflates, a formula with or without a cached
value. Used by ``make_corpus.py`` beside it.
"""

from __future__ import annotations

import io
import zipfile

from openpyxl import Workbook

_CT = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    "</Types>"
)
_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)
_WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
_WB_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
    "</Relationships>"
)


def cell(ref: str, value, formula: str | None = None) -> str:
    f = f"<f>{formula}</f>" if formula else ""
    if value is None:
        return f'<c r="{ref}">{f}</c>'
    if isinstance(value, (int, float)):
        return f'<c r="{ref}">{f}<v>{value}</v></c>'
    if formula:
        return f'<c r="{ref}" t="str">{f}<v>{value}</v></c>'
    return f'<c r="{ref}" t="inlineStr"><is><t>{value}</t></is></c>'


def sheet_xml(rows: list[str], dimension: str, padding: int = 0) -> str:
    pad = f"<!--{' ' * padding}-->" if padding else ""
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f'<dimension ref="{dimension}"/><sheetData>{pad}{"".join(rows)}</sheetData></worksheet>'
    )


def raw_xlsx(sheet: str) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, text in (
            ("[Content_Types].xml", _CT),
            ("_rels/.rels", _RELS),
            ("xl/workbook.xml", _WORKBOOK),
            ("xl/_rels/workbook.xml.rels", _WB_RELS),
            ("xl/worksheets/sheet1.xml", sheet),
        ):
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, text)
    return buf.getvalue()


def row_xml(r: int, values: list, formulas: list | None = None) -> str:
    cols = "ABCDEFGH"
    formulas = formulas or [None] * len(values)
    cells = "".join(
        cell(f"{cols[j]}{r}", v, f) for j, (v, f) in enumerate(zip(values, formulas, strict=True))
    )
    return f'<row r="{r}">{cells}</row>'


def workbook_bytes(sheets: dict[str, list[list]]) -> bytes:
    wb = Workbook()
    wb.remove(wb.active)
    for title, rows in sheets.items():
        ws = wb.create_sheet(title)
        for r in rows:
            ws.append(r)
    buf = io.BytesIO()
    wb.save(buf)
    return normalise_zip(buf.getvalue())


def normalise_zip(data: bytes) -> bytes:
    """Rewrite a zip with fixed timestamps, so that regenerating gives the same bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(2026, 1, 1, 0, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                body = b'<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties"/>'
            dst.writestr(fixed, body)
    return out.getvalue()
