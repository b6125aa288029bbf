"""``load_spans``: a file, an upload or a DataFrame into :class:`SpanAnnotations`.

The formats, chosen by ``format=`` or else by the file's extension and content:

- ``"table"``: a CSV/TSV long table ``item, annotator, start, end, label`` (optional
  ``text``); a row with empty ``start``, ``end`` and ``label`` records a document the
  annotator completed without marking anything.
- ``"dataframe"``: a pandas DataFrame with those columns, plus ``completed=``.

- ``"label-studio"``: a Label Studio JSON export of ``labels`` tasks
  (:mod:`analytics.spans.label_studio`; ``.json``);
- ``"prodigy"``: a Prodigy ``ner``/``spans`` JSONL export (:mod:`analytics.spans.prodigy`;
  ``.jsonl``);
- ``"conll"``: CoNLL-style BIO/BILOU token files (:mod:`analytics.spans.conll`; ``.conll``,
  ``.bio``, ``.iob``, ``.bilou``); one file per annotator as a mapping
  ``{annotator: file}``.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.spans.conll import read_conll
from analytics.spans.label_studio import read_label_studio
from analytics.spans.model import SpanAnnotations, SpanLoadReport
from analytics.spans.prodigy import read_prodigy

__all__ = ["MAX_BYTES", "SPAN_FORMATS", "load_spans", "read_source"]

#: The largest span file read (bytes): the Spans page's uploader says it too.
MAX_BYTES = 200 * 1024 * 1024

SPAN_FORMATS = ("table", "label-studio", "prodigy", "conll", "dataframe")
"""The formats :func:`load_spans` reads (``format=``)."""

_EXTENSIONS: dict[str, str] = {
    ".csv": "table",
    ".tsv": "table",
    ".json": "label-studio",
    ".jsonl": "prodigy",
    ".conll": "conll",
    ".bio": "conll",
    ".iob": "conll",
    ".bilou": "conll",
}


def read_source(source: Any, max_bytes: int = MAX_BYTES) -> tuple[bytes, str]:
    """The bytes of a path, an upload (``.read()``/``.getvalue()``) or raw bytes, and a name.

    Raises
    ------
    AnnotationDataError
        When the file cannot be read or is larger than ``max_bytes``.
    """
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        try:
            size = path.stat().st_size
        except OSError as exc:
            raise AnnotationDataError(
                f"cannot read the file ({exc.strerror})", source=str(source)
            ) from None
        if size > max_bytes:
            raise AnnotationDataError(
                f"the file has {size} bytes, more than the limit of {max_bytes}",
                source=path.name,
                hint="Pass max_bytes= to raise the limit.",
            )
        return path.read_bytes(), path.name
    if isinstance(source, (bytes, bytearray)):
        data, name = bytes(source), "<bytes>"
    elif hasattr(source, "getvalue"):
        data, name = source.getvalue(), getattr(source, "name", "<upload>")
    elif hasattr(source, "read"):
        data, name = source.read(), getattr(source, "name", "<upload>")
    else:
        raise AnnotationDataError(
            f"cannot read spans from a {type(source).__name__}",
            hint="Give a path, an upload, bytes or a DataFrame.",
        )
    if isinstance(data, str):
        data = data.encode("utf-8")
    if len(data) > max_bytes:
        raise AnnotationDataError(
            f"the upload has {len(data)} bytes, more than the limit of {max_bytes}",
            source=str(name),
            hint="Pass max_bytes= to raise the limit.",
        )
    return bytes(data), str(Path(str(name)).name)


def decode(data: bytes, source: str) -> str:
    """UTF-8 text (a BOM is dropped); anything else is refused, naming the file."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise AnnotationDataError(
            f"the file is not UTF-8 text (byte {exc.start})",
            source=source,
            hint="Span offsets count characters, so the text must decode exactly; save as UTF-8.",
        ) from None


def load_spans(
    source: Any,
    *,
    format: str | None = None,
    text: Mapping[Any, str] | None = None,
    completed: Mapping[Any, Iterable[Any]] | pd.DataFrame | None = None,
    name: str | None = None,
    max_bytes: int = MAX_BYTES,
    **options: Any,
) -> SpanAnnotations:
    """Load span annotations from a file, an upload or a DataFrame.

    Parameters
    ----------
    source : str, os.PathLike, bytes, file-like, pandas.DataFrame or mapping
        Where the spans are. A DataFrame needs the columns ``item, annotator, start,
        end, label`` (``text`` optional). A mapping ``{annotator: file}`` is one CoNLL
        file per annotator.
    format : str or None, default None
        One of :data:`SPAN_FORMATS`; by default from the extension, else the content.
    text : mapping or None, default None
        ``{item: text}``: the documents' texts, when the source lacks them. Offsets are
        then checked against them.
    completed : mapping, DataFrame or None, default None
        The documents each annotator completed (``{item: [annotators]}`` or a DataFrame
        with ``item`` and ``annotator``), for tables and DataFrames that do not record
        documents left without spans. Formats that record them (Label Studio, Prodigy,
        CoNLL) ignore nothing: the pairs given here are added.
    name : str or None, default None
        Display name (default: the file name).
    max_bytes : int, default 200 MB
        Refuse larger files.
    **options
        Format options: ``sep`` (table), ``text_key``/``from_name`` (Label Studio),
        ``annotator_key``/``item_key`` (Prodigy).

    Returns
    -------
    SpanAnnotations
        With ``report`` saying what was read, skipped and assumed.

    Raises
    ------
    AnnotationDataError
        Naming file, row and field of anything that cannot be read or does not make sense.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"item": ["d1", "d1"], "annotator": ["ann", "bob"],
    ...                    "start": [0, 0], "end": [5, 4], "label": ["PER", "PER"]})
    >>> load_spans(df, completed={"d2": ["ann", "bob"]})
    SpanAnnotations('<DataFrame>': 2 documents, 2 annotators, 2 spans, 1 label)
    """
    if isinstance(source, pd.DataFrame):
        if format not in (None, "dataframe"):
            raise AnnotationDataError(f"format={format!r} is for files; a DataFrame is read as is")
        report = SpanLoadReport(
            n_rows=len(source), completed_from="completed=" if completed is not None else ""
        )
        return SpanAnnotations.from_frame(
            source, completed=completed, texts=text, report=report, name=name
        )
    if isinstance(source, Mapping):
        if format not in (None, "conll"):
            raise AnnotationDataError(
                "a mapping {annotator: file} is read as CoNLL files, one per annotator",
                hint="Give format='conll' or one file.",
            )
        contents, names = {}, []
        for who, one in source.items():
            raw, one_name = read_source(one, max_bytes)
            contents[str(who)] = decode(raw, one_name)
            names.append(one_name)
        return read_conll(contents, ", ".join(names), completed=completed, name=name, **options)
    data, source_name = read_source(source, max_bytes)
    if source_name == "<bytes>" and name:  # raw bytes: the display name is the only name
        source_name = str(Path(name).name)
    if not data.strip():
        raise AnnotationDataError(
            "the file is empty.",
            source=source_name,
            hint="Give a file with a header row and data rows, or a tool's export.",
        )
    fmt = format or _guess_format(data, source_name)
    if fmt == "table":
        spans = _read_table(data, source_name, completed, text, name, **options)
    elif fmt in _READERS:
        content = decode(data, source_name)
        spans = _READERS[fmt](
            content, source_name, text=text, completed=completed, name=name, **options
        )
    else:
        raise AnnotationDataError(
            f"unknown span format {fmt!r}",
            source=source_name,
            hint="Use one of: " + ", ".join(sorted({"table", *_READERS})) + ".",
        )
    return spans


_READERS: dict[str, Callable[..., SpanAnnotations]] = {
    "label-studio": read_label_studio,
    "prodigy": read_prodigy,
    "conll": read_conll,
}


def _guess_format(data: bytes, source: str) -> str:
    ext = Path(source).suffix.lower()
    if ext in _EXTENSIONS:
        return _EXTENSIONS[ext]
    head = data.lstrip()[:1]
    if head == b"[":
        return "label-studio"
    if head == b"{":
        return "prodigy"
    # a .txt CoNLL file: CoNLL-2003's -DOCSTART- or the header to_conll writes, first
    first = data.removeprefix(b"\xef\xbb\xbf").lstrip().split(b"\n", 1)[0].strip()
    if first.startswith((b"-DOCSTART-", b"# annotators:", b"# document:")):
        return "conll"
    return "table"


def _read_table(
    data: bytes,
    source: str,
    completed: Mapping[Any, Iterable[Any]] | pd.DataFrame | None,
    text: Mapping[Any, str] | None,
    name: str | None,
    sep: str | None = None,
) -> SpanAnnotations:
    """A long table: CSV (or TSV by extension or ``sep="\\t"``) read as text."""
    if data.find(b"\0") >= 0:  # a NUL byte is not text: it stayed inside a label
        line = data.count(b"\n", 0, data.find(b"\0")) + 1
        raise AnnotationDataError(
            "the file holds a NUL byte (0x00), which is not text.",
            source=source,
            rows=[line],
            hint="The file is damaged or binary: export the table again as text.",
        )
    content = decode(data, source)
    if sep is None:
        sep = "\t" if source.lower().endswith(".tsv") else ","
    try:
        frame = pd.read_csv(
            io.StringIO(content), sep=sep, dtype=str, keep_default_na=False, na_filter=False
        )
    except pd.errors.EmptyDataError:  # blank lines only, or nothing pandas can parse
        raise AnnotationDataError(
            "the file is empty.",
            source=source,
            hint="Give a file with a header row and data rows.",
        ) from None
    except pd.errors.ParserError as exc:
        raise AnnotationDataError(f"cannot read the table: {exc}", source=source) from None
    _refuse_repeated_names(content, sep, source)
    frame.columns = [str(c).strip().lower() for c in frame.columns]
    if "text" in frame.columns:  # an empty text cell: the text is not given on that row,
        blank = frame["text"] == ""  # unless the document is empty: every cell blank, no span
        keep = pd.Series(False, index=frame.index)
        if {"item", "start", "end"} <= set(frame.columns):
            spanless = blank & (frame["start"].str.strip() == "") & (frame["end"].str.strip() == "")
            keep = spanless.groupby(frame["item"]).transform("all")
        frame["text"] = frame["text"].where(~blank | keep, None)
    report = SpanLoadReport(
        source=source,
        format="table",
        n_rows=len(frame),
        completed_from="completed=" if completed is not None else "",
    )
    return SpanAnnotations.from_frame(
        frame, completed=completed, texts=text, source=source, report=report, name=name or source
    )


def _refuse_repeated_names(content: str, sep: str, source: str) -> None:
    """Two columns of one name the span reader uses (after blanks and case) are an error.

    pandas renames the second ``label`` to ``label.1``, which the span reader then
    ignored: the file's second label column vanished without a word.
    """
    first = next(csv.reader(io.StringIO(content), delimiter=sep), [])
    names = [c.strip().lower() for c in first]
    used = {"item", "annotator", "start", "end", "label", "text"}  # others are ignored
    repeated = sorted({n for n in names if n in used and names.count(n) > 1})
    if repeated:
        raise AnnotationDataError(
            f"the header names the column {repeated[0]!r} more than once.",
            source=source,
            column=repeated[0],
            rows=[1],
            hint="Give every column its own name (item, annotator, start, end, label, text).",
        )
