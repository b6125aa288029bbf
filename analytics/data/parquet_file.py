"""Reading a Parquet file into a table.

Part of :func:`analytics.data.reading.read_table`.
"""

from __future__ import annotations

import io
from collections import Counter

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from analytics._core.errors import AnnotationDataError, show_text

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
        file = pq.ParquetFile(io.BytesIO(data))
        names = file.schema_arrow.names
    except Exception:  # pyarrow raises its own types, whose text is not for a person
        file = names = None
    if names is not None:
        repeated = [n for n, k in Counter(names).items() if k > 1]
        if repeated:
            raise AnnotationDataError(
                f"the Parquet file has more than one column named {repeated[0]!r}.",
                source=name,
                column=str(repeated[0]),
                hint="Give every column its own name and write the file again.",
            )
    few = few_valued_text(file) if file is not None else []
    df = None
    for dictionaries in (few, []) if few else ([],):
        try:
            df = _read(data, dictionaries)
            break
        except Exception:  # pyarrow raises its own types, whose text is not for a person
            # a dictionary of text that is not UTF-8 fails here: read as strings, the
            # check below names the column
            continue
    if df is None:
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
    if file is not None:
        notes += _decimals_as_text(df, file)
    _refuse_unnamed(df, name)
    _refuse_invalid_text(df, name)
    return df, np.arange(1, len(df) + 1), notes


#: Significant digits every float64 number keeps (a decimal of more may be rounded).
FLOAT_DIGITS = 15


def _decimals_as_text(df: pd.DataFrame, file: pq.ParquetFile) -> list[str]:
    """Decimal columns as the text of their values (``1.50``), read like a CSV cell.

    pandas gives Python ``Decimal`` objects, which the loader took for text: labels
    1.00, 1.50, 2.00 were three nominal categories where the same CSV gave the numbers
    1.0, 1.5, 2.0. Arrow writes each value as its decimal text (one cast per column, no
    Python per cell), so a decimal cell reads as its text would in a CSV file: labels
    as numbers, ids as written. A column of more digits than a float64 keeps gets a note.
    Replaces the columns of ``df`` in place; returns the notes.
    """
    fields = [
        f
        for f in file.schema_arrow
        if pa.types.is_decimal(f.type) and f.name in df.columns and df[f.name].dtype == object
    ]
    if not fields:
        return []
    table = file.read(columns=[f.name for f in fields], use_pandas_metadata=False)
    notes = []
    for f in fields:
        text = pc.cast(table.column(f.name), pa.string())
        df[f.name] = pd.Series(pd.array(text, dtype=pd.StringDtype("pyarrow")), index=df.index)
        if f.type.precision > FLOAT_DIGITS:
            notes.append(
                f"Column {show_text(f.name)} holds decimals of up to {f.type.precision} "
                f"digits: read as their text, like a CSV cell; as numeric labels they are "
                f"float64 numbers, exact to {FLOAT_DIGITS} significant digits (longer "
                "values may be rounded; declare the categories as text to keep every digit)."
            )
    return notes


def _refuse_unnamed(df: pd.DataFrame, name: str) -> None:
    """A column with an empty (or blank) name that holds data is refused, by position.

    CSV and Excel refuse an empty header above data; a Parquet column named ``""`` was
    ignored instead, and the layout's note read "Other columns ignored: ." (an unnamed
    column of nothing but empty cells is left to that note, shown as "(no name)").
    """
    unnamed = [
        i + 1
        for i, c in enumerate(df.columns)
        if isinstance(c, str) and not c.strip() and df.iloc[:, i].notna().any()
    ]
    if unnamed:
        one = len(unnamed) == 1
        raise AnnotationDataError(
            f"{'column number' if one else 'columns number'} "
            f"{', '.join(map(str, unnamed[:5]))} {'has' if one else 'have'} no name and "
            f"{'holds' if one else 'hold'} data.",
            source=name,
            hint="Give every column a name and write the file again "
            "(df.rename(columns={'': 'notes'}).to_parquet(...)).",
        )


def _read(data: bytes, dictionaries: list[str]) -> pd.DataFrame:
    # integers with an empty cell as Python ints, not float64: 19-digit ids (tweet
    # ids) merged into one float that is none of them
    return pd.read_parquet(
        io.BytesIO(data),
        read_dictionary=dictionaries or None,
        to_pandas_kwargs={"integer_object_nulls": True},
    )


#: A text column is read as a dictionary when no row group's dictionary page is larger
#: (bytes as stored): a column of few distinct values, such as annotators or labels.
SMALL_DICTIONARY = 1 << 16


def few_valued_text(file: pq.ParquetFile) -> list[str]:
    """The top-level text columns every row group stores with a small dictionary page.

    Read as dictionaries (``read_dictionary``), such columns skip decoding every cell to
    a string, and their codes come from the dictionary's indices
    (:func:`~analytics.data.codes.category_codes`), not from hashing the strings again.
    On the 2 M-row benchmark file (300 annotators, 5 labels) reading and encoding those
    two columns took 133 against 78 ms of CPU. A column whose dictionary outgrew its
    page (the writer then falls back to plain values, seen as 4 bytes a value or more;
    400,000 item ids), or whose dictionaries add up to more than a byte per 16 cells
    (the same ids in row groups of 10,000 rows, each with a small dictionary), is read as
    strings: Arrow would unify the row groups' dictionaries, which costs more than one
    hash of the strings.

    Examples
    --------
    >>> buf = io.BytesIO()
    >>> pq.write_table(pa.table({"a": ["x", "y"] * 50, "n": list(range(100))}), buf)
    >>> few_valued_text(pq.ParquetFile(buf))
    ['a']
    """
    meta = file.metadata
    text = {
        f.name
        for f in file.schema_arrow
        if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)
    }
    paths = [meta.schema.column(i).path for i in range(meta.num_columns)]
    uses = Counter(paths)  # one count, not paths.count per column (20,000 columns: 4e8)
    chosen = []
    for i, path in enumerate(paths):
        if path not in text or uses[path] > 1 or meta.schema.column(i).max_repetition_level:
            continue
        chunks = [meta.row_group(g).column(i) for g in range(meta.num_row_groups)]
        pages = sum(c.data_page_offset - (c.dictionary_page_offset or 0) for c in chunks)
        cells = sum(c.num_values for c in chunks)
        # and few in all: row groups of 10,000 rows each hold a small dictionary of item
        # ids, 400,000 ids in all, which Arrow would unify (0.80 against 0.50 s of CPU)
        if (
            chunks
            and 16 * pages <= cells + 2 * SMALL_DICTIONARY
            and all(
                c.has_dictionary_page
                and c.dictionary_page_offset
                and 0 < c.data_page_offset - c.dictionary_page_offset <= SMALL_DICTIONARY
                # and no fallback to plain pages: a plain text costs 4 bytes of length alone
                and c.total_uncompressed_size < 4 * c.num_values + 2 * SMALL_DICTIONARY
                for c in chunks
            )
        ):
            chosen.append(path)
    return chosen


def _refuse_invalid_text(df: pd.DataFrame, name: str) -> None:
    """Text columns must be valid UTF-8: checked where a chunk is not plain ASCII.

    A chunk whose bytes are all below 0x80 is ASCII, so valid (one NumPy pass over its
    bytes: a few milliseconds on the 2 M-row benchmark file); only other chunks pay for
    Arrow's full validation (about 10 ms per million strings). (A column read as a
    dictionary needs no check: pyarrow refuses to convert one that is not UTF-8, and
    :func:`read_parquet` then reads the file again with strings.)
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
