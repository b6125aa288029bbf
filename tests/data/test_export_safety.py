"""Every CSV Concord writes is safe to open in a spreadsheet, and still loads back unchanged.

OWASP's rule against CSV injection: a text cell that starts with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return gets a ``'`` in front, so a spreadsheet shows it as
text instead of running it. Numbers (numeric columns, and text that is a plain number
such as an id ``-1283784112``) are data and are never touched.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics import load_annotations
from analytics.cli import main
from analytics.data import spreadsheet_safe, table_to_csv, to_long_csv, to_wide_csv
from analytics.data.export import FORMULA_PATTERN, NUMBER_PATTERN
from analytics.report import build_report_zip
from tests.helpers.markup import HOSTILE_ANNOTATORS, hostile_annotations, hostile_frame

PAYLOAD = "=cmd|' /C calc'!A0"
TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(NUMBER_PATTERN)
# The loader's undo rule (see docs/loading.md, "Safe CSV exports"): a text cell that is a
# run of ' followed by a trigger character loses its first '.
UNDO = re.compile(r"^'+[=+\-@\t\r]")


def undo(text: str) -> str:
    return text[1:] if UNDO.match(text) else text


def cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def assert_safe(text: str) -> None:
    """No cell of a CSV text would run in a spreadsheet: none starts with a trigger
    character unless it is a plain number."""
    for row in cells(text):
        for cell in row:
            assert not (cell.startswith(TRIGGERS) and not NUMBER.fullmatch(cell)), (cell, row)


def test_long_and_wide_exports_neutralise_formulas():
    ann = hostile_annotations()
    long, wide = to_long_csv(ann), to_wide_csv(ann)
    assert_safe(long)
    assert_safe(wide)
    assert "'" + PAYLOAD in {row[1] for row in cells(long)}
    assert "'" + PAYLOAD in cells(wide)[0]  # the annotator's name is a header of the wide form


def test_safe_false_writes_the_cells_as_they_are():
    ann = hostile_annotations()
    assert PAYLOAD in {row[1] for row in cells(to_long_csv(ann, safe=False))}
    assert PAYLOAD in cells(to_wide_csv(ann, safe=False))[0]
    assert PAYLOAD in {
        row[1] for row in cells(table_to_csv(hostile_frame(), index=False, safe=False))
    }


def test_numbers_are_data_and_stay_as_they_are():
    frame = pd.DataFrame(
        {
            "score": [-1.5, 2.0, -0.25],
            "count": [-3, 4, 5],
            "id": ["-1283784112", "+12", "-1e-3"],  # text that is a plain number
            "formula": ["-1+2", "@SUM(A1:A2)", "=1"],
            "flag": [True, False, True],
        }
    )
    rows = cells(table_to_csv(frame, index=False))
    assert [r[:3] for r in rows[1:]] == [
        ["-1.5", "-3", "-1283784112"],
        ["2.0", "4", "+12"],
        ["-0.25", "5", "-1e-3"],
    ]
    assert [r[3] for r in rows[1:]] == ["'-1+2", "'@SUM(A1:A2)", "'=1"]
    assert spreadsheet_safe(frame).dtypes.tolist()[:2] == frame.dtypes.tolist()[:2]


def test_every_trigger_and_every_place_of_a_text_value():
    frame = pd.DataFrame(
        {"=col": [f"{t}x" for t in TRIGGERS], "n": range(len(TRIGGERS))},
        index=pd.Index([f"{t}i" for t in TRIGGERS], name="@idx"),
    )
    frame["cat"] = pd.Categorical(frame["=col"])
    frame["mixed"] = pd.Series(["=a", 1, None, "-3", "@x", 2.5], dtype=object).to_numpy()
    safe = spreadsheet_safe(frame)
    assert list(safe.columns) == ["'=col", "n", "cat", "mixed"]
    assert safe.index.name == "@idx"  # an index name is not a cell: to_csv writes it as header
    assert list(safe.index) == [f"'{t}i" for t in TRIGGERS]
    assert list(safe["'=col"]) == [f"'{t}x" for t in TRIGGERS]
    assert list(safe["cat"]) == [f"'{t}x" for t in TRIGGERS]
    assert list(safe["mixed"])[:2] == ["'=a", 1] and list(safe["mixed"])[3:5] == ["-3", "'@x"]
    assert list(safe["n"]) == list(range(len(TRIGGERS)))
    multi = spreadsheet_safe(frame.set_index(["=col", "cat"]))
    assert [a for a, _ in multi.index] == [f"'{t}x" for t in TRIGGERS]


def test_a_carriage_return_inside_a_cell_is_quoted():
    frame = pd.DataFrame({"a": ["one\rtwo", "x,y", 'say "hi"', "line\nbreak"], "b": [1, 2, 3, 4]})
    text = table_to_csv(frame, index=False)
    assert cells(text) == [
        ["a", "b"],
        ["one\rtwo", "1"],
        ["x,y", "2"],
        ['say "hi"', "3"],
        ["line\nbreak", "4"],
    ]
    assert '"one\rtwo"' in text
    plain = table_to_csv(frame.iloc[1:], index=False)
    assert "\r" not in plain  # without a carriage return in a cell, lines end in \n alone


def test_the_report_zip_tables_are_safe():
    ann = hostile_annotations()
    data = build_report_zip(ann, sections=["summary", "agreement"], n_boot=0)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        tables = [zf.read(n).decode("utf-8") for n in zf.namelist() if n.endswith(".csv")]
    assert tables
    for text in tables:
        assert_safe(text)
    assert any("'" + PAYLOAD in text for text in tables)  # the annotators' tables name them
    raw = build_report_zip(ann, sections=["summary", "agreement"], n_boot=0, safe=False)
    with zipfile.ZipFile(io.BytesIO(raw)) as zf:
        raw_tables = [zf.read(n).decode("utf-8") for n in zf.namelist() if n.endswith(".csv")]
    assert not any("'" + PAYLOAD in text for text in raw_tables)


def test_the_cli_labels_csv_is_safe(tmp_path):
    frame = hostile_frame()
    frame["item"] = np.where(frame["item"] == "i1", '=HYPERLINK("http://x")', frame["item"])
    source = tmp_path / "hostile.csv"
    source.write_text(frame.to_csv(index=False), encoding="utf-8")
    out = tmp_path / "labels.csv"
    assert main(["dawid-skene", str(source), "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert_safe(text)
    assert '\'=HYPERLINK(""http://x"")' in text


@settings(deadline=None)  # timings vary on a shared machine
@given(st.lists(st.text(alphabet="'=+-@\t\rab1.e ", max_size=6), min_size=1, max_size=8))
def test_the_loader_rule_undoes_exactly_what_the_export_added(values):
    """Removing one ' from the cells that match ^'+[=+-@TAB CR] gives back every value."""
    safe = spreadsheet_safe(pd.DataFrame({"v": pd.Series(values, dtype=object)}))["v"]
    assert [undo(v) for v in safe] == values
    for before, after in zip(values, safe, strict=True):
        risky = re.match(FORMULA_PATTERN, before) and not NUMBER.fullmatch(before)
        assert after == ("'" + before if risky else before)


# The round trip through load_annotations needs the loader to apply the undo rule above
# (docs/loading.md, "Safe CSV exports"; wired by the loader's owner). Until then these two
# fail here: the neutralised annotator loads back as "'=cmd|' /C calc'!A0".
@pytest.mark.parametrize("multilabel", [False, True])
def test_exports_load_back_unchanged(multilabel):
    ann = hostile_annotations(multilabel)
    sep = {"multilabel_sep": ";" if multilabel else ""}
    for text, layout in ((to_long_csv(ann), None), (to_wide_csv(ann), "wide")):
        buffer = io.BytesIO(text.encode("utf-8"))
        buffer.name = "export.csv"
        back = load_annotations(buffer, layout=layout, **sep)
        assert sorted(map(str, back.annotators)) == sorted(HOSTILE_ANNOTATORS)
        assert (
            back.to_frame()
            .sort_values(["item", "annotator"])
            .reset_index(drop=True)
            .equals(ann.to_frame().sort_values(["item", "annotator"]).reset_index(drop=True))
        )
