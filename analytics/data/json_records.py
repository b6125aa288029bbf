"""Reading JSON and JSON Lines into a table of records.

Part of :func:`analytics.data.reading.read_table`: a list of objects, a dict holding one
list of objects, a dict of equal-length columns, or one object per line. JSON Lines of
flat records go through ``pyarrow.json``: first held to the schema of the file's first
MiB (:func:`read_json_lines_flat`, which needs no depth scan), else inferred over the
whole file after the limits scan (:func:`read_json_lines_bytes`); anything else (nested
values, blank lines, mixed types, a line Arrow refuses) through the strict per-line
reader, whose errors name the line. An object that gives one key twice is refused
everywhere (Python's ``json`` would keep the last value without a word): Arrow refuses
it itself ("Column(/label) was specified twice in row 0"), so such a file leaves the
fast paths for the strict readers, which parse with :func:`loads_strict` and name the
record or line and the key.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pa_json

from analytics._core.errors import AnnotationDataError, show_text
from analytics.data.json_keys import check_json_keys
from analytics.data.limits import Limits, check_columns, scan_json

__all__ = [
    "RepeatedKey",
    "loads_strict",
    "read_json",
    "read_json_lines_bytes",
    "read_json_lines_flat",
    "repeated_key_hint",
]

#: How to fix a JSON file that holds something other than records.
_RECORDS_HINT = (
    "A JSON file of annotations is a list of records, one per judgement: "
    '[{"item": ..., "annotator": ..., "label": ...}, ...].'
)
_RECORD_HINT = 'Write each record on its own line as {"item": ..., "annotator": ..., "label": ...}.'
#: Arrow types a flat JSON record's value may take on the fast path.
_FLAT_TYPES = (pa.string(), pa.large_string(), pa.int64(), pa.float64(), pa.bool_(), pa.null())
#: The head of a JSON Lines file (cut at the first newline after this many bytes) whose
#: inferred schema the rest of the file is parsed against.
_HEAD_BYTES = 1 << 20
#: The most digits an int64 has (9223372036854775807): an int64 column needs no digit scan
#: unless max_digits is lower.
_INT64_DIGITS = 19


class RepeatedKey(Exception):
    """A JSON object gave one key twice (raised by :func:`loads_strict`).

    Not a ``ValueError``, so that code catching "not JSON" does not take it for that.

    Parameters
    ----------
    key : str
        The first key given twice.
    """

    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _repeated(pairs: list[tuple[str, object]]) -> str:
    """The first key of ``pairs`` that an earlier pair already gave."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return key
        seen.add(key)
    raise AssertionError("no repeated key")  # pragma: no cover - callers checked


def _unique_pairs(pairs: list[tuple[str, object]]) -> dict:
    mapping = dict(pairs)
    if len(mapping) != len(pairs):
        raise RepeatedKey(_repeated(pairs))
    return mapping


_STRICT = json.JSONDecoder(object_pairs_hook=_unique_pairs)


def loads_strict(text: str) -> object:
    """``json.loads`` that refuses an object giving one key twice.

    Python's ``json`` keeps the last value of a repeated key without a word, so
    ``{"label": "x", "label": "y"}`` would read as ``y``; a file (or a cell) holding one
    is broken and is refused instead. About 10% slower than ``json.loads`` (one Python
    call per object).

    Parameters
    ----------
    text : str
        JSON text.

    Returns
    -------
    object
        As ``json.loads``.

    Raises
    ------
    RepeatedKey
        Naming the key given twice.
    json.JSONDecodeError
        For text that is not JSON.

    Examples
    --------
    >>> loads_strict('{"a": 1, "b": [{"c": 2}]}')
    {'a': 1, 'b': [{'c': 2}]}
    >>> loads_strict('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    analytics.data.json_records.RepeatedKey: a
    """
    return _STRICT.decode(text)


def repeated_key_hint(key: str) -> str:
    """How to fix an object that gives ``key`` twice, for the error messages.

    Parameters
    ----------
    key : str
        The key given twice.

    Returns
    -------
    str
    """
    return (
        f"JSON readers keep only the last of the two values of {show_text(key)}, so one "
        "value would be lost without a word (the whole file is refused, even where the key "
        "is in a field Concord does not read): keep the key once in each object (rename "
        "one if both values matter) and load again."
    )


def _holds(value: object, target: dict) -> bool:
    """Whether ``target`` is ``value`` or an object nested in it (by identity)."""
    if value is target:
        return True
    if isinstance(value, dict):
        return any(_holds(v, target) for v in value.values())
    if isinstance(value, list):
        return any(_holds(v, target) for v in value)
    return False


def _repeat_place(text: str) -> tuple[str, int | None, str | None, bool]:
    """Where the first repeated key of ``text`` is (it has one: the error path only).

    Returns the key, the record's number (from 1) in the top-level list or the list of
    records under a key (None: the top-level object itself), that key (None for a
    top-level list) and whether the repeat is in an object nested inside the record.
    """
    found: list[tuple[str, dict]] = []

    def note(pairs: list[tuple[str, object]]) -> dict:
        mapping = dict(pairs)
        if len(mapping) != len(pairs) and not found:
            found.append((_repeated(pairs), mapping))
        return mapping

    obj = json.JSONDecoder(object_pairs_hook=note).decode(text)
    key, where = found[0]
    if isinstance(obj, list):
        lists: list[tuple[str | None, list]] = [(None, obj)]
    else:
        lists = [(k, v) for k, v in obj.items() if isinstance(v, list)]
    for under, records in lists:
        for number, record in enumerate(records, start=1):
            if _holds(record, where):
                return key, number, under, record is not where
    return key, None, None, obj is not where


def _first_problem(
    text: str, raised: RepeatedKey | json.JSONDecodeError
) -> RepeatedKey | json.JSONDecodeError:
    """What :func:`loads_strict` raised, unless ``text`` is not JSON at all: that first.

    The strict parse stops at the first repeated key, before the end of the text; text
    that also fails as JSON (a second object after the first) is reported as that.
    """
    if isinstance(raised, RepeatedKey):
        try:
            json.loads(text)
        except json.JSONDecodeError as plain:
            return plain
    return raised


def _repeated_key_error(text: str, name: str, line: int | None = None) -> AnnotationDataError:
    """The error for JSON text (a whole file, or the JSON Lines ``line``) with a repeated key."""
    key, number, under, nested = _repeat_place(text)
    if line is not None:
        what, rows = "the record", [line]
    elif number is None:
        what, rows = "the top-level JSON object", None
    else:
        where = f" under the key {show_text(under)}" if under is not None else ""
        what, rows = f"record {number}{where}", [number]
    inside = "an object inside " if nested and (line is not None or number is not None) else ""
    return AnnotationDataError(
        f"{inside}{what} gives the key {show_text(key)} twice.",
        source=name,
        rows=rows,
        hint=repeated_key_hint(key)
        + ("" if line is not None or number is None else " Records are numbered from 1."),
    )


def read_json_lines_flat(
    data: bytes, name: str, limits: Limits
) -> tuple[pd.DataFrame, np.ndarray, list[str]] | None:
    r"""JSON Lines of flat records through ``pyarrow.json``, proven flat without a depth scan.

    The limits scan (:func:`~analytics.data.limits.scan_json`) is about 0.5 s of CPU on
    the 141 MB, 2 M-record file of ``benchmarks.bench_loading``, most of it the depth
    pass; Arrow's whole parse is about 1 s of CPU. Arrow itself must not see a deep file (at
    10,000 levels ``pyarrow.json`` hangs or crashes the process), so the depth is bounded
    another way: the head (the first MiB, cut at a newline) is scanned, its schema
    inferred by Arrow, and the whole file parsed against that schema with unexpected
    fields refused. A schema of text, numbers, booleans and nulls admits no nesting:
    Arrow stops at the first ``[`` or ``{`` inside a record ("changed from string to
    array", measured at 100,000 levels: 0.01-0.05 s), so a file Arrow reads this way
    has depth 1, and a file it refuses goes on to the full scan before any other parser.
    Numbers are scanned for ``max_digits`` only when a column holds doubles (whose
    literal may be any length) or ``max_digits`` is below an int64's 19 digits, and some
    line is longer than ``max_digits`` bytes (:func:`_longest_line`). On the
    benchmark file this reader takes the CPU time of Arrow's parse plus about 0.05 s
    (the head, the line count); a file that fits the head's schema only in part (a
    float late in an integer column) pays for one more Arrow parse before the scan and
    the inference.

    Parameters
    ----------
    data : bytes
        The file's content, UTF-8.
    name : str
        The file name, for the errors.
    limits : Limits
        ``max_depth`` (at least 1 for this path) and ``max_digits`` are held here.

    Returns
    -------
    (table, rows, notes) or None
        None when the head is over a limit or not flat, when Arrow refuses the rest
        against the head's schema (a nested value, a new field, a float in an integer
        column, a line that is not JSON), or for what :func:`read_json_lines_bytes`
        also leaves to the strict reader (blank lines, an integer beyond 64 bits). The
        caller then runs the full scan and the other readers, which name the line.

    Raises
    ------
    AnnotationDataError
        A number longer than ``max_digits`` in a file Arrow read (the same error the
        full scan gives).

    Examples
    --------
    >>> data = b'{"a": "x", "b": 1}\n{"a": "y", "b": null}\n'
    >>> table, rows, _ = read_json_lines_flat(data, "f.jsonl", Limits())
    >>> table["a"].tolist(), rows.tolist()
    (['x', 'y'], [1, 2])
    >>> read_json_lines_flat(b'{"a": [1]}\n', "f.jsonl", Limits()) is None
    True
    """
    if limits.max_depth < 1:  # a record is one level deep: the full scan refuses it
        return None
    cut = data.find(b"\n", _HEAD_BYTES)
    head = data if cut < 0 else data[: cut + 1]
    try:
        scan_json(head, name, limits)
    except AnnotationDataError:  # the full scan names the first place over a limit
        return None
    check_json_keys(head, name, limits)  # Arrow's inference slows with every field
    try:
        table = pa_json.read_json(pa.py_buffer(head))
    except (pa.ArrowException, ValueError):
        return None
    inferred = table.schema
    if not table.num_rows or any(t not in _FLAT_TYPES for t in inferred.types):
        return None
    if len(head) < len(data):
        # a column null throughout the head is held to text; a number there refuses the file
        schema = pa.schema(
            [pa.field(f.name, pa.string() if f.type == pa.null() else f.type) for f in inferred]
        )
        options = pa_json.ParseOptions(explicit_schema=schema, unexpected_field_behavior="error")
        try:
            table = pa_json.read_json(pa.py_buffer(data), parse_options=options)
        except (pa.ArrowException, ValueError):
            return None
        for i, f in enumerate(inferred):  # null throughout the file: as Arrow infers it
            if f.type == pa.null() and table.column(i).null_count == table.num_rows:
                table = table.set_column(i, f, pa.nulls(table.num_rows))
    checked = _checked(table, data)
    if checked is None:
        return None
    types = set(table.schema.types)
    long_numbers = pa.float64() in types or (
        pa.int64() in types and limits.max_digits < _INT64_DIGITS
    )
    if long_numbers and len(head) < len(data) and _longest_line(data) > limits.max_digits:
        # (a head that is the file was scanned; a number is never longer than its line)
        scan_json(data, name, limits, depth=False)
    return checked


def read_json_lines_bytes(data: bytes) -> tuple[pd.DataFrame, np.ndarray, list[str]] | None:
    r"""JSON Lines of flat records through ``pyarrow.json``, or None to use the strict path.

    Parameters
    ----------
    data : bytes
        The file's content.

    Returns
    -------
    (table, rows, notes) or None
        None when Arrow refuses the file, a value is nested or of another type (a date
        Arrow would convert), or there are blank lines (row numbers would shift): the
        strict per-line reader :func:`read_json` then reads it.

    Examples
    --------
    >>> table, rows, _ = read_json_lines_bytes(b'{"a": "x", "b": 1}\n{"a": "y", "b": null}\n')
    >>> table["a"].tolist(), rows.tolist()
    (['x', 'y'], [1, 2])
    >>> read_json_lines_bytes(b'{"a": [1]}\n') is None
    True
    """
    try:
        table = pa_json.read_json(pa.py_buffer(data))
    except (pa.ArrowException, ValueError):
        return None
    return _checked(table, data)


def _checked(table: pa.Table, data: bytes) -> tuple[pd.DataFrame, np.ndarray, list[str]] | None:
    """Arrow's table as the reader's result, or None if the strict reader must read the file.

    One record per line (no blank lines: the row numbers are the lines), flat values, and
    no float that was an integer beyond int64.
    """
    n_lines = _newlines(data) + (data[-1:] != b"\n")
    if table.num_rows != n_lines or not table.num_rows:
        return None
    if any(t not in _FLAT_TYPES for t in table.schema.types):
        return None
    for col in table.columns:  # Arrow reads integers beyond int64 as floats: keep them exact
        if col.type == pa.float64() and (pc.max(pc.abs(col)).as_py() or 0) >= 2.0**63:
            return None
    # integers with an empty cell stay Python ints (float64 merged 19-digit ids)
    return table.to_pandas(integer_object_nulls=True), np.arange(1, table.num_rows + 1), []


def _newlines(data: bytes) -> int:
    """How many newline bytes ``data`` holds.

    numpy over a view of the bytes, 1 MiB at a time (so no temporary beyond 1 MiB): 0.023 s
    of CPU on the 141 MB benchmark file, against 0.053 s for ``data.count(b"\\n")``.

    >>> _newlines(b"a\\nb\\n" * 3 + b"c")
    6
    """
    view = np.frombuffer(data, np.uint8)
    step = 1 << 20
    return sum(int(np.count_nonzero(view[i : i + step] == 10)) for i in range(0, len(view), step))


def _longest_line(data: bytes) -> int:
    """The length in bytes of the longest line of ``data``, newline not counted.

    A bound on the longest number: when no line is longer than ``max_digits``, the digit
    scan (0.2 s of CPU on 141 MB) cannot find one. About 0.05 s on the same bytes, 1 MiB
    at a time.

    >>> _longest_line(b"ab\\nabcd\\n\\nabc")
    4
    """
    view = np.frombuffer(data, np.uint8)
    step, previous, longest = 1 << 20, -1, 0
    for i in range(0, len(view), step):
        at = np.flatnonzero(view[i : i + step] == 10) + i
        if len(at):
            longest = max(longest, int(at[0]) - previous - 1, int(np.diff(at).max(initial=1)) - 1)
            previous = int(at[-1])
    return max(longest, len(view) - previous - 1)


def read_json(
    text: str, name: str, lines: bool, limits: Limits | None = None
) -> tuple[pd.DataFrame, np.ndarray, list[str]]:
    """JSON records (or JSON Lines, one object per line), strictly, naming the place of a fault.

    Parameters
    ----------
    text : str
        The file's text.
    name : str
        The file name, for the errors.
    lines : bool
        JSON Lines (True) or one JSON document (False; a document that is one object
        per line is read as JSON Lines, with a note).
    limits : Limits or None, default None
        ``max_columns`` is held to the records' different keys (the default
        :class:`Limits` when None), before a table is built.

    Returns
    -------
    (table, rows, notes)
        The records, the number of each (its line for JSON Lines, from 1 in the list
        for JSON) and notes for the load report.

    Raises
    ------
    AnnotationDataError
        Text that is not JSON, a value that is not a list of records, a record that is
        not an object, or an object giving one key twice, naming the line or record;
        records with more different keys than ``limits.max_columns``.
    """
    limits = limits or Limits()
    notes: list[str] = []
    if lines:
        records, numbers = [], []
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                obj = loads_strict(line)
            except (RepeatedKey, json.JSONDecodeError) as raised:
                exc = _first_problem(line, raised)
                if isinstance(exc, RepeatedKey):
                    raise _repeated_key_error(line, name, line=n) from None
                raise AnnotationDataError(
                    f"line is not valid JSON ({exc.msg} at column {exc.colno}).",
                    source=name,
                    rows=[n],
                    hint="JSON Lines files need one complete JSON object per line.",
                ) from None
            if not isinstance(obj, dict):
                raise AnnotationDataError(
                    "each line must be a JSON object ({...}).",
                    source=name,
                    rows=[n],
                    hint=_RECORD_HINT,
                )
            records.append(obj)
            numbers.append(n)
        if not records:
            raise AnnotationDataError("the file is empty.", source=name)
        return _records_frame(records, name, limits), np.asarray(numbers), notes
    try:
        obj = loads_strict(text)
    except (RepeatedKey, json.JSONDecodeError) as raised:
        exc = _first_problem(text, raised)  # (the first object may be one of several lines)
        if isinstance(exc, RepeatedKey):
            raise _repeated_key_error(text, name) from None
        if exc.msg == "Extra data" and text.lstrip().startswith("{"):
            # one object per line saved as .json: read it as JSON Lines, and say so
            df, numbers, more = read_json(text, name, lines=True, limits=limits)
            return (
                df,
                numbers,
                [*more, "The file holds one JSON object per line: read as JSON Lines."],
            )
        raise AnnotationDataError(
            f"not valid JSON ({exc.msg}, line {exc.lineno} column {exc.colno}).",
            source=name,
            rows=[exc.lineno],
            hint="Check the file is complete JSON (a list of records).",
        ) from None
    if isinstance(obj, dict):
        lists = {k: v for k, v in obj.items() if isinstance(v, list)}
        record_lists = {k: v for k, v in lists.items() if v and all(isinstance(r, dict) for r in v)}
        if len(record_lists) == 1:
            key, obj = next(iter(record_lists.items()))
            notes.append(f"Read the records under the JSON key '{key}'.")
        elif lists and len(lists) == len(obj) and len({len(v) for v in lists.values()}) == 1:
            check_columns(len(obj), limits, name, f"the JSON has {len(obj):,} columns", row=None)
            df = _exact(pd.DataFrame(obj), lambda c: obj[c])
            return df, np.arange(1, len(df) + 1), [*notes, "Read JSON columns (a dict of lists)."]
        else:
            raise AnnotationDataError(
                "the JSON is an object, not a list of records.",
                source=name,
                hint="Use a list of {item, annotator, label} objects, or a dict of equal-length columns.",
            )
    if not isinstance(obj, list):
        raise AnnotationDataError(
            "the JSON holds a single value, not records.", source=name, hint=_RECORDS_HINT
        )
    if not obj:
        raise AnnotationDataError(
            "the JSON list is empty: no judgements.",
            source=name,
            hint="Check that the export finished and wrote the judgements. " + _RECORDS_HINT,
        )
    bad = [i + 1 for i, r in enumerate(obj) if not isinstance(r, dict)]
    if bad:
        raise AnnotationDataError(
            "every record in the JSON list must be an object ({...}).",
            source=name,
            rows=bad,
            hint="Records are numbered from 1.",
        )
    return _records_frame(obj, name, limits), np.arange(1, len(obj) + 1), notes


#: Integers beyond this are not all exact as float64.
_EXACT = 2**53


def _records_frame(records: list[dict], name: str, limits: Limits) -> pd.DataFrame:
    """``pandas.DataFrame.from_records``, with big integers kept exact (see :func:`_exact`).

    Records with more different keys than ``limits.max_columns`` are refused first.
    """
    n = len(set().union(*records))
    check_columns(n, limits, name, f"the records hold {n:,} different keys", row=None)
    return _exact(pd.DataFrame.from_records(records), lambda c: [r.get(c) for r in records])


def _exact(df: pd.DataFrame, values) -> pd.DataFrame:
    """Float columns that hold integers beyond 2**53 taken again as Python objects.

    pandas reads a column of integers with an empty cell as float64: 19-digit ids (tweet
    ids) then merge into one float that is none of them. Only float columns are looked
    at, and only those with such an integer are rebuilt (``values(column)``: its cells).
    """
    for column in df.columns[(df.dtypes == np.float64).to_numpy()]:
        cells = values(column)
        if any(isinstance(v, int) and not isinstance(v, bool) and abs(v) > _EXACT for v in cells):
            df[column] = pd.Series(cells, dtype=object, index=df.index)
    return df
