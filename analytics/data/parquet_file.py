"""Reading a Parquet file into a table.

Part of :func:`analytics.data.reading.read_table`.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError

__all__ = ["read_parquet"]


def read_parquet(data: bytes, name: str) -> tuple[pd.DataFrame, np.ndarray, list[str]]:
    try:
        df = pd.read_parquet(io.BytesIO(data))
    except Exception as exc:  # pyarrow raises its own types
        raise AnnotationDataError(
            f"could not read it as Parquet ({type(exc).__name__}: {exc}).", source=name
        ) from None
    if len(df) == 0:
        raise AnnotationDataError("the Parquet file has no rows.", source=name)
    return df, np.arange(1, len(df) + 1), []
