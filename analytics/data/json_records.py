"""Reading JSON and JSON Lines into a table of records.

Part of :func:`analytics.data.reading.read_table`: a list of objects, a dict holding one
list of objects, a dict of equal-length columns, or one object per line.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError

__all__ = ["read_json"]


def read_json(text: str, name: str, lines: bool) -> tuple[pd.DataFrame, np.ndarray, list[str]]:
    notes: list[str] = []
    if lines:
        records, numbers = [], []
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise AnnotationDataError(
                    f"line is not valid JSON ({exc.msg} at column {exc.colno}).",
                    source=name,
                    rows=[n],
                    hint="JSON Lines files need one complete JSON object per line.",
                ) from None
            if not isinstance(obj, dict):
                raise AnnotationDataError(
                    "each line must be a JSON object ({...}).", source=name, rows=[n]
                )
            records.append(obj)
            numbers.append(n)
        if not records:
            raise AnnotationDataError("the file is empty.", source=name)
        return pd.DataFrame.from_records(records), np.asarray(numbers), notes
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data" and text.lstrip().startswith("{"):
            # one object per line saved as .json: read it as JSON Lines, and say so
            df, numbers, more = read_json(text, name, lines=True)
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
            df = pd.DataFrame(obj)
            return df, np.arange(1, len(df) + 1), [*notes, "Read JSON columns (a dict of lists)."]
        else:
            raise AnnotationDataError(
                "the JSON is an object, not a list of records.",
                source=name,
                hint="Use a list of {item, annotator, label} objects, or a dict of equal-length columns.",
            )
    if not isinstance(obj, list):
        raise AnnotationDataError("the JSON holds a single value, not records.", source=name)
    if not obj:
        raise AnnotationDataError("the JSON list is empty: no judgements.", source=name)
    bad = [i + 1 for i, r in enumerate(obj) if not isinstance(r, dict)]
    if bad:
        raise AnnotationDataError(
            "every record in the JSON list must be an object ({...}).",
            source=name,
            rows=bad,
            hint="Records are numbered from 1.",
        )
    return pd.DataFrame.from_records(obj), np.arange(1, len(obj) + 1), notes
