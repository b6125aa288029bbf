"""Helpers for the importer tests: the crowd-platform fixtures and ways to feed the readers."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from analytics import Annotations
from analytics.data import read_table
from analytics.data.importers import convert_tool_export
from tests.helpers.paths import FIXTURES

FIX = FIXTURES
MTURK = FIX / "mturk_batch_results.csv"
CROWD_HTML = FIX / "mturk_crowd_html.csv"
RADIO = FIX / "mturk_crowd_radio.csv"
TOLOKA = FIX / "toloka_results.tsv"


def upload(data: bytes, name: str) -> io.BytesIO:
    buf = io.BytesIO(data)
    buf.name = name
    return buf


def convert(source, **options) -> Annotations:
    table, rows, report = read_table(source)
    out = convert_tool_export(table, rows, report, options=options or None)
    assert out is not None, "the export was not recognised"
    long, rows, report = out
    return Annotations.from_frame(long, row_numbers=rows, report=report, name=report.source)


def triples(ann: Annotations) -> set[tuple]:
    return set(ann.to_frame().itertuples(index=False, name=None))


def csv_rows(path: Path, delimiter: str = ",") -> list[dict]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter=delimiter))


def edit_csv(path: Path, change) -> bytes:
    """The fixture with ``change(header, rows)`` applied, as CSV bytes."""
    rows = csv_rows(path)
    header = list(rows[0])
    header, rows = change(header, rows)
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=header, extrasaction="ignore")
    w.writeheader()
    w.writerows(rows)
    return out.getvalue().encode()


def crowd_csv(forms: list[object]) -> bytes:
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["HITId", "WorkerId", "AssignmentStatus", "Answer.taskAnswers"])
    for k, form in enumerate(forms):
        w.writerow([f"H{k // 2}", f"W{k % 2}", "Approved", json.dumps([form])])
    return out.getvalue().encode()
