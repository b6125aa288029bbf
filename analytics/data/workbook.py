"""Reading an Excel workbook (.xlsx) sheet into a table.

Part of :func:`analytics.data.reading.read_table`.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.data.delimited import check_header

__all__ = ["read_excel"]


def read_excel(
    data: bytes, name: str, sheet: str | int | None
) -> tuple[pd.DataFrame, np.ndarray, list[str]]:
    try:
        df = pd.read_excel(
            io.BytesIO(data), sheet_name=sheet if sheet is not None else 0, dtype=object
        )
    except Exception as exc:  # openpyxl raises many types for corrupt files
        raise AnnotationDataError(
            f"could not read it as an Excel workbook ({type(exc).__name__}: {exc}).",
            source=name,
            hint="Save it again as .xlsx, or export CSV.",
        ) from None
    if df.shape[1] == 0 and df.shape[0] == 0:
        raise AnnotationDataError("the sheet is empty.", source=name)
    check_header([str(c) if not str(c).startswith("Unnamed:") else "" for c in df.columns], name)
    if len(df) == 0:
        raise AnnotationDataError("the sheet has a header row but no data rows.", source=name)
    if df.shape[1] == 1:
        raise AnnotationDataError(
            f"the sheet has a single column ('{df.columns[0]}').", source=name
        )
    return df, np.arange(2, len(df) + 2), []
