"""What the tool readers share: collecting spans record by record, then one check.

A reader adds, for every annotator's finished document, either its spans
(:meth:`SpanRecords.span`) or the fact that it was finished with none
(:meth:`SpanRecords.done`), counts what it skips (:meth:`SpanRecords.skip`), and hands the
lot to :meth:`SpanRecords.build`, which goes through the same checks as a table
(:meth:`~analytics.spans.model.SpanAnnotations.from_frame`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.data import DEFAULT_LIMITS, RepeatedKey, SkipNote, loads_strict, scan_json
from analytics.spans.model import SpanAnnotations, SpanLoadReport

__all__ = ["SpanRecords", "json_id", "parse_json", "parse_jsonl", "utf16_to_python"]


class SpanRecords:
    """A growing list of span rows with their record numbers, for one source."""

    def __init__(self, source: str, format: str) -> None:
        self.source = source
        self.format = format
        self.rows: list[tuple[Any, Any, Any, Any, Any, Any, int]] = []
        self.skips: dict[str, list[int]] = {}
        self.cautions: list[str] = []
        self.notes: list[str] = []
        self.n_records = 0

    def span(
        self, item: Any, annotator: Any, start: Any, end: Any, label: Any, text: Any, row: int
    ) -> None:
        """One span of ``annotator`` in ``item`` (``text``: the document's, or None)."""
        self.rows.append((item, annotator, start, end, label, text, row))

    def done(self, item: Any, annotator: Any, text: Any, row: int) -> None:
        """``annotator`` finished ``item`` (spans, if any, are added with :meth:`span`)."""
        self.rows.append((item, annotator, None, None, None, text, row))

    def skip(self, reason: str, row: int) -> None:
        """A record that did not become spans, and why."""
        self.skips.setdefault(reason, []).append(row)

    def build(
        self,
        *,
        text: Mapping[Any, str] | None = None,
        completed: Mapping[Any, Iterable[Any]] | pd.DataFrame | None = None,
        name: str | None = None,
        completed_from: str = "",
    ) -> SpanAnnotations:
        """Check everything collected and make the model."""
        self._refuse_containers()
        frame = pd.DataFrame(
            self.rows, columns=["item", "annotator", "start", "end", "label", "text", "row"]
        )
        if frame.empty:
            raise AnnotationDataError(
                "no annotator finished any document here"
                + (
                    f" ({sum(len(r) for r in self.skips.values())} records skipped)"
                    if self.skips
                    else ""
                ),
                source=self.source,
            )
        skipped = tuple(
            SkipNote(reason, len(rows), tuple(rows[:5])) for reason, rows in self.skips.items()
        )
        report = SpanLoadReport(
            source=self.source,
            format=self.format,
            n_rows=self.n_records,
            skipped=skipped,
            completed_from=completed_from,
            cautions=tuple(self.cautions),
            notes=tuple(self.notes),
        )
        # drop the "finished" marker rows of documents that also have spans
        has_span = frame["start"].notna()
        pairs = frame.loc[has_span, ["item", "annotator"]].drop_duplicates()
        marker = ~has_span & frame.set_index(["item", "annotator"]).index.isin(
            pd.MultiIndex.from_frame(pairs)
        )
        frame = frame[~marker]
        rows = frame.pop("row").to_numpy(np.int64)
        frame = frame.astype({"start": object, "end": object})
        return SpanAnnotations.from_frame(
            frame,
            completed=completed,
            texts=text,
            source=self.source,
            rows=rows,
            report=report,
            name=name or self.source,
        )

    def _refuse_containers(self) -> None:
        """A list or object where an id or a label belongs is an error naming the record.

        The records were built one by one in Python already; this pass over them is of
        the same order. A list as a task id made pandas fail ("unhashable"), a list as a
        label made NumPy fail ("setting an array element with a sequence").
        """
        for position, role in ((0, "document id"), (1, "annotator"), (4, "label")):
            bad = [r[6] for r in self.rows if isinstance(r[position], (list, dict, tuple, set))]
            if bad:
                example = next(
                    r[position]
                    for r in self.rows
                    if isinstance(r[position], (list, dict, tuple, set))
                )
                raise AnnotationDataError(
                    f"{'an' if role[0] in 'aeiou' else 'a'} {role} is a list or an object "
                    f"({str(example)[:60]}), not one value.",
                    source=self.source,
                    rows=sorted(set(bad))[:20],
                    hint=f"Give each span one {role} (text or a number).",
                )


def parse_json(data: str, source: str) -> Any:
    """A JSON document, or an error naming the line and column.

    The text is first held to the loader's limits (nesting depth, digits of a number,
    unpaired surrogate escapes: :func:`~analytics.data.scan_json`), which Python's parser
    would meet as a ``RecursionError``, a ``ValueError`` or text that cannot be written.
    """
    scan_json(data.encode("utf-8"), source, DEFAULT_LIMITS)
    try:
        return loads_strict(data)
    except json.JSONDecodeError as exc:
        raise AnnotationDataError(
            f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})", source=source
        ) from None
    except RepeatedKey as exc:
        raise _repeated_key(exc.key, source) from None


def parse_jsonl(data: str, source: str) -> list[tuple[int, Any]]:
    """``(line number, record)`` of every non-blank line of a JSON Lines file (its text
    held to the limits first, as in :func:`parse_json`)."""
    scan_json(data.encode("utf-8"), source, DEFAULT_LIMITS)
    out = []
    for number, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.append((number, loads_strict(line)))
        except json.JSONDecodeError as exc:
            raise AnnotationDataError(
                f"line is not valid JSON: {exc.msg} (column {exc.colno})",
                source=source,
                rows=[number],
            ) from None
        except RepeatedKey as exc:
            raise _repeated_key(exc.key, source, number) from None
    return out


def _repeated_key(key: str, source: str, line: int | None = None) -> AnnotationDataError:
    """The error for an object giving ``key`` twice (Python's reader keeps the last)."""
    return AnnotationDataError(
        f"a JSON object gives the key {key!r} twice, so which value counts is a guess.",
        source=source,
        rows=None if line is None else [line],
        hint=f"Keep one {key!r} in each object and load the file again.",
    )


def utf16_to_python(text: str, offset: int) -> int | None:
    """The code-point offset of a UTF-16 offset into ``text``; None if it splits a pair."""
    units = np.array([2 if ord(ch) > 0xFFFF else 1 for ch in text], np.int64)
    ends = np.concatenate([[0], np.cumsum(units)])
    at = int(np.searchsorted(ends, offset))
    if at >= len(ends) or ends[at] != offset:
        return None
    return at


def json_id(value: Any) -> Any:
    """A JSON-ready id: numpy integers become ints; anything not an int or a string, text."""
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()
    return value if isinstance(value, (int, str)) else str(value)
