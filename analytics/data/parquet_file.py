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
    except Exception:  # pyarrow raises its own types, whose text is not for a person
        raise AnnotationDataError(
            "could not read it as Parquet: the file is damaged (its footer or metadata "
            "cannot be read) or is not a Parquet file.",
            source=name,
            hint="Write the file again (pandas' to_parquet or pyarrow), or export CSV.",
        ) from None
    if len(df) == 0:
        raise AnnotationDataError(
            "the Parquet file has no rows.",
            source=name,
            hint="Check that the export finished and wrote the judgements.",
        )
    return df, np.arange(1, len(df) + 1), []
