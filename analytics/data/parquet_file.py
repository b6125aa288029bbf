"""Reading a Parquet file into a table.

Part of :func:`analytics.data.reading.read_table`.
"""

from __future__ import annotations

import io
from collections import Counter

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from analytics._core.errors import AnnotationDataError

__all__ = ["read_parquet"]


def read_parquet(data: bytes, name: str) -> tuple[pd.DataFrame, np.ndarray, list[str]]:
    """The Parquet file's rows as a table of cells, its row numbers, and notes.

    A pandas index stored in the file (``df.set_index("item").to_parquet(...)``) comes
    back as the columns it was made of: pandas would move it into the row labels,
    where the loader, reading columns, never saw it (another column was then taken as
    the items). Repeated column names are named; text that is not valid UTF-8 (which
    Parquet's own reader does not check) is refused, naming the column.
    """
    try:
        names = pq.read_schema(io.BytesIO(data)).names
    except Exception:  # pyarrow raises its own types, whose text is not for a person
        names = None
    if names is not None:
        repeated = [n for n, k in Counter(names).items() if k > 1]
        if repeated:
            raise AnnotationDataError(
                f"the Parquet file has more than one column named {repeated[0]!r}.",
                source=name,
                column=str(repeated[0]),
                hint="Give every column its own name and write the file again.",
            )
    try:
        # integers with an empty cell as Python ints, not float64: 19-digit ids (tweet
        # ids) merged into one float that is none of them
        df = pd.read_parquet(io.BytesIO(data), to_pandas_kwargs={"integer_object_nulls": True})
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
    notes = []
    positions = (  # an unnamed whole-number index is row positions (a filtered frame)
        df.index.nlevels == 1
        and df.index.name is None
        and pd.api.types.is_integer_dtype(df.index.dtype)
    )
    if positions:
        df = df.reset_index(drop=True)
    elif not isinstance(df.index, pd.RangeIndex) or any(n is not None for n in df.index.names):
        names = [str(n) if n is not None else "index" for n in df.index.names]
        df = df.reset_index()  # an unnamed index becomes the column "index"
        notes.append(
            f"The file's stored pandas index ({', '.join(names)}) is read as "
            f"{'a column' if len(names) == 1 else 'columns'} like the others."
        )
    _refuse_invalid_text(df, name)
    return df, np.arange(1, len(df) + 1), notes


def _refuse_invalid_text(df: pd.DataFrame, name: str) -> None:
    """Text columns must be valid UTF-8: checked where a chunk is not plain ASCII.

    A chunk whose bytes are all below 0x80 is ASCII, so valid (one NumPy pass over its
    bytes: a few milliseconds on the 2 M-row benchmark file); only other chunks pay for
    Arrow's full validation (about 10 ms per million strings).
    """
    for column in df.columns:
        s = df[column]
        if not (isinstance(s.dtype, pd.StringDtype) and s.dtype.storage == "pyarrow"):
            continue
        for chunk in pa.chunked_array(s.array.__arrow_array__()).chunks:
            buffer = chunk.buffers()[2]
            if buffer is None or not len(buffer):
                continue
            if int(np.frombuffer(buffer, np.uint8).max()) < 0x80:
                continue
            try:
                chunk.validate(full=True)
            except pa.ArrowInvalid:
                raise AnnotationDataError(
                    "a text cell is not valid UTF-8 (its bytes are damaged, or the file "
                    "was written as another encoding).",
                    source=name,
                    column=str(column),
                    hint="Write the file again from the original data, with text as UTF-8.",
                ) from None
