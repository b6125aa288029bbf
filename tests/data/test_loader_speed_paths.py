"""Issue 13's loader: Arrow paths, missing tokens, separator rule, blank ids, crashes, RawTable."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics import AnnotationDataError, LabelKind, load_annotations
from analytics.data import RawTable, read_table
from analytics.data.cells import CellColumn, first_seen, missing_tokens
from analytics.data.delimited import read_delimited, read_delimited_bytes
from analytics.data.json_records import read_json, read_json_lines_bytes


def upload(data: bytes, name: str) -> io.BytesIO:
    buf = io.BytesIO(data)
    buf.name = name
    return buf


def parquet(table: pa.Table) -> bytes:
    buf = io.BytesIO()
    pq.write_table(table, buf)
    return buf.getvalue()


# ---------------------------------------------------------------- the Arrow readers
DELIMITED = [
    b"item,annotator,label\n1,a,x\n1,b,y\n",
    b"item,annotator,label\r\n1,a,x\r\n\r\n2,b,\r\n",
    b'\xef\xbb\xbf item , annotator ,label\n1,a,"x, y"\n2,b,"multi\nline"\n',
    b"item;annotator;label\n1;a;x\n;;\n2;b;y\n",
    b"item,annotator,label\n1,a,caf\xe9\n",  # latin-1
    b"item\tannotator\tlabel\n1\ta\tx\n",
    # quotes on the header only (Arrow's and Excel's writers): parsed in parallel blocks
    b'"item","annotator","label"\n1,a,x\n2,b,y\n',
    # a quoted header and a quoted line break below it: parsed with newlines in values
    b'"item","annotator","label"\n1,a,"x\ny"\n2,b,y\n',
    b'"it\nem",annotator,label\n1,a,x\n',
]


@pytest.mark.parametrize("data", DELIMITED)
def test_arrow_and_strict_delimited_readers_agree(data):
    fmt = "tsv" if b"\t" in data else "csv"
    df, rows, notes, encoding = read_delimited_bytes(data, "f.csv", fmt)
    try:
        text, expected_encoding = data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        text, expected_encoding = data.decode("latin-1"), "latin-1"
    sep = "\t" if fmt == "tsv" else (";" if b";" in data.split(b"\n")[0] else ",")
    strict, strict_rows, strict_notes = read_delimited(text, "f.csv", sep)
    assert list(df.columns) == list(strict.columns)
    assert df.astype(object).values.tolist() == strict.values.tolist()
    assert rows.tolist() == strict_rows.tolist()
    assert encoding == expected_encoding
    assert [n for n in notes if "blank" in n] == strict_notes


def _quoted_file(n: int, every: int, newline: bytes = b"\n", end: bool = True) -> bytes:
    """Every value quoted (Arrow's writer); every ``every``-th label holds a line break."""
    rows = [b'"item","annotator","label"']
    for i in range(n):
        label = b'"line one' + newline + b'line two"' if every and i % every == 7 else b'"x"'
        rows.append(b'"item_%07d","a%d",' % (i // 5, i % 5) + label)
    return newline.join(rows) + (newline if end else b"")


@pytest.mark.parametrize(
    "data",
    [
        _quoted_file(100_000, 0),  # several Arrow blocks, no line break in a value
        _quoted_file(100_000, 0, end=False),  # no newline after the last row
        _quoted_file(100_000, 30_000),  # a few quoted line breaks, some across blocks
        _quoted_file(100_000, 3),  # many quoted line breaks
        _quoted_file(2_000, 500, newline=b"\r\n"),  # Windows line ends
        _quoted_file(2_000, 0) + b"\n\n",  # blank lines at the end
        b'"item","annotator","label"\n"1","a","x"\n\n"2","b",""\n',
    ],
)
def test_quoted_files_parse_in_blocks_exactly_like_the_strict_reader(data, monkeypatch):
    """Line breaks as row ends, checked by counting rows against lines; else parsed again."""
    import analytics.data.delimited as delimited

    seen = []
    parse = delimited._parse

    def spy(*args, newlines_in_values):
        seen.append(newlines_in_values)
        return parse(*args, newlines_in_values=newlines_in_values)

    monkeypatch.setattr(delimited, "_parse", spy)
    df, rows, notes, _ = read_delimited_bytes(data, "f.csv", "csv")
    strict, strict_rows, strict_notes = read_delimited(data.decode(), "f.csv", ",")
    assert df.astype(object).values.tolist() == strict.values.tolist()
    assert rows.tolist() == strict_rows.tolist()
    assert [n for n in notes if "blank" in n] == strict_notes
    breaks = b"e\r\nl" in data or b"e\nl" in data  # a line break inside a quoted label
    assert seen == ([True] if b"\r" in data else [False, True] if breaks else [False])


@pytest.mark.parametrize(
    ("data", "match"),
    [
        (b'item,annotator,label\n1,a,"x\n', "malformed"),
        (
            b"item,annotator,label\n1,a\n2,b,y,z\n",
            r"rows 2, 3: 2 rows do not have the 3 fields",
        ),
        (b"item,annotator,label\n\n \n", "header row but no data rows"),
        (b"item,,label\n1,a,x\n", "column number 2 has no name"),
    ],
)
def test_delimited_errors_name_the_rows(data, match):
    with pytest.raises(AnnotationDataError, match=match):
        read_table(upload(data, "bad.csv"))


def test_json_lines_fast_path_matches_the_strict_reader():
    text = '{"item": 1, "annotator": "a", "label": "x"}\n{"item": 2, "annotator": "b", "label": null}\n'
    fast = read_json_lines_bytes(text.encode())
    strict = read_json(text, "f.jsonl", lines=True)
    assert fast is not None
    assert fast[0].astype(object).where(fast[0].notna(), None).values.tolist() == (
        strict[0].astype(object).where(strict[0].notna(), None).values.tolist()
    )
    assert fast[1].tolist() == strict[1].tolist() == [1, 2]


@pytest.mark.parametrize(
    "text",
    [
        '{"item": 1, "label": ["x"]}\n',  # nested: the strict reader keeps lists
        '{"item": 1}\n\n{"item": 2}\n',  # a blank line: numbers would shift
        '{"item": 1}\n{"item": "a"}\n',  # mixed types Arrow refuses
        '{"item": 100000000000000000000}\n',  # beyond int64
    ],
)
def test_json_lines_left_to_the_strict_reader(text):
    assert read_json_lines_bytes(text.encode()) is None
    ann_rows = read_table(upload(text.encode(), "f.jsonl"))[1]
    assert ann_rows[-1] == len(text.strip().splitlines())


# ---------------------------------------------------------------- the encoder
def test_cell_column_judges_distinct_values():
    col = CellColumn.of(pd.Series([" a", "a", "None", None, "2.0"], dtype="str"))
    assert col.cell_missing().tolist() == [False, False, True, True, False]
    assert list(col.texts()) == ["a", "a", "None", "2.0"]
    assert col.numeric().tolist() == [False, False, False, True]


def test_first_seen_renumbers_by_first_appearance():
    codes, order = first_seen(np.array([3, 3, 1, 0, 1]), 5)
    assert codes.tolist() == [0, 0, 1, 2, 1] and order.tolist() == [3, 1, 0]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=1, max_size=40), st.integers(0, 3))
def test_first_seen_shortcut_agrees_with_the_general_renumbering(codes, spare):
    """Codes already in first-seen order take a shortcut; it must give the same answer."""
    arr = np.array(codes, np.int32)
    n = int(arr.max()) + 1 + spare
    new, order = first_seen(arr, n)
    seen: dict[int, int] = {}
    expected = [seen.setdefault(c, len(seen)) for c in codes]
    assert new.tolist() == expected and new.dtype == np.int64
    assert order.tolist() == list(seen)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["i1", " i1", "i2", "", "NA"]),
            st.sampled_from(["a", "b ", "b", None]),
            st.sampled_from(["x", "y", " x ", "none", "", "3", None]),
        ),
        min_size=1,
        max_size=30,
    )
)
def test_every_row_is_a_judgement_a_missing_cell_or_a_counted_skip(rows):
    df = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    try:
        ann = load_annotations(df, duplicates="keep")
    except AnnotationDataError:
        return
    rep = ann.report
    assert ann.n_judgements + rep.n_missing + rep.n_skipped == len(df)
    assert all(a == a.strip() for a in ann.annotators)


# ---------------------------------------------------------------- missing tokens
LONG = "item,annotator,label\n" + "".join(
    f"{i},{a},{lab}\n"
    for i, (a, lab) in enumerate(
        [("a", "None")] * 30 + [("a", "founded_by")] * 40 + [("a", "born_in")] * 20
    )
)


def test_missing_tokens_are_a_choice():
    default = load_annotations(upload(LONG.encode(), "rel.csv"))
    assert "None" not in default.categories and default.report.n_missing == 30
    # 'None' is as frequent as a category: the report says so, and how to keep it
    caution = [c for c in default.report.warnings() if "'None' was read as missing" in c]
    assert caution and "missing=" in caution[0] and "'born_in', has 20" in caution[0]
    # quoted as written; spellings that differ in case are counted together
    mixed = LONG.replace("0,a,None", "0,a,NONE").replace("1,a,None", "1,a,none")
    caution = load_annotations(upload(mixed.encode(), "rel.csv")).report.warnings()
    assert any("'None' was read as missing in 30 label cells" in c for c in caution)
    kept = load_annotations(upload(LONG.encode(), "rel.csv"), missing=())
    assert "None" in kept.categories and kept.n_judgements == 90
    assert not any("read as missing" in c for c in kept.report.warnings())
    custom = load_annotations(upload(LONG.encode(), "rel.csv"), missing=[" BORN_IN "])
    assert "None" in custom.categories and custom.report.n_missing == 20


def test_a_rare_missing_token_gives_no_caution():
    text = "item,annotator,label\n" + "".join(
        f"{i},a,{'NA' if i < 2 else 'x'}\n" for i in range(50)
    )
    ann = load_annotations(upload(text.encode(), "f.csv"))
    assert ann.report.n_missing == 2
    assert not any("read as missing" in c for c in ann.report.warnings())


def test_missing_tokens_normalise():
    assert missing_tokens(None) >= {"na", "none", "null", ""}
    assert missing_tokens("N/A") == frozenset({"n/a", ""})


# ---------------------------------------------------------------- separator rule
def test_two_pipe_cells_in_a_hundred_stay_categories():
    labels = ["A|B"] * 2 + ["A", "B", "C"] * 33
    df = pd.DataFrame({"item": range(len(labels)), "annotator": "a", "label": labels})
    ann = load_annotations(df)
    assert ann.kind is LabelKind.NOMINAL and "A|B" in ann.categories


def test_the_report_counts_the_split_cells(tmp_path):
    ann = load_annotations("sample_data/affect_multilabel.csv")
    n_split = ann.report.n_split
    raw = pd.read_csv("sample_data/affect_multilabel.csv", dtype=str)
    assert n_split == raw["emotions"].str.contains(";", regex=False).sum() > 0
    assert any(f"{n_split:,} label cells were split" in m for m in ann.report.messages())


# ---------------------------------------------------------------- ids and blanks
def test_ids_that_differ_only_by_blanks_are_reported():
    df = pd.DataFrame(
        {"item": ["q1", " q1", "q2"], "annotator": ["a", "b", "a "], "label": ["x", "y", "x"]}
    )
    ann = load_annotations(df)
    assert list(ann.items) == ["q1", "q2"] and list(ann.annotators) == ["a", "b"]
    warnings = " ".join(ann.report.warnings())
    assert "1 item id appears with different surrounding blanks" in warnings
    assert "'q1' and ' q1'" in warnings and "1 annotator id appears" in warnings


# ---------------------------------------------------------------- crashes -> clean errors
@pytest.mark.parametrize(
    ("data", "name", "match"),
    [
        (b"[{}]", "a.json", "no fields"),
        (
            json.dumps(
                [{"item": "q1", "r1": ["a"], "r2": {"x": 1}}, {"item": "q2", "r1": "b", "r2": "c"}]
            ).encode(),
            "w.json",
            "column 'r2'.*lists or objects",
        ),
        (
            parquet(
                pa.table(
                    {"item": [["i", "1"], ["i", "2"]], "annotator": ["a", "b"], "label": ["x", "y"]}
                )
            ),
            "l.parquet",
            r"column 'item'.*\['i', '1'\]",
        ),
        (
            parquet(
                pa.table(
                    {
                        "item": ["1", "2"],
                        "annotator": ["a", "b"],
                        "label": pa.array([b"x", b"y"], pa.binary()),
                    }
                )
            ),
            "b.parquet",
            "column 'label'.*binary values",
        ),
    ],
)
def test_hand_found_crashes_are_clean_errors(data, name, match):
    with pytest.raises(AnnotationDataError, match=match) as info:
        load_annotations(upload(data, name))
    assert info.value.source == name


def test_a_label_of_ten_to_the_twenty_loads_as_a_number():
    for source in (
        upload(
            b'[{"item":1,"annotator":"a","label":100000000000000000000},'
            b'{"item":2,"annotator":"a","label":3}]',
            "n.json",
        ),
        pd.DataFrame({"item": [1, 2], "annotator": ["a", "a"], "label": [10**20, 3]}),
    ):
        ann = load_annotations(source)
        assert sorted(ann.categories) == [3.0, 1e20]


def test_an_empty_column_name_does_not_garble_the_layout_reason():
    ann = load_annotations(pd.DataFrame({"": [1, 2], "annotator": ["a", "b"], "label": ["x", "y"]}))
    assert "Guessed '' as the item column" in ann.report.layout_reason


# ---------------------------------------------------------------- a table read once
def test_load_annotations_takes_a_table_already_read():
    raw = read_table("sample_data/crowd_intents.csv")
    direct = load_annotations("sample_data/crowd_intents.csv")
    for source in (raw, RawTable(*raw)):
        ann = load_annotations(source)
        assert ann.fingerprint == direct.fingerprint
        assert ann.report.source == "crowd_intents.csv"
    assert raw[0].shape == read_table("sample_data/crowd_intents.csv")[0].shape  # not modified


# ---------------------------------------------------------------- the command line
@pytest.mark.parametrize(
    ("flag", "categories", "missing"),
    [
        ([], ["born_in", "founded_by"], 30),
        (["--missing", ""], ["None", "born_in", "founded_by"], 0),
        (["--missing", "born_in, N/A"], ["None", "founded_by"], 20),
    ],
)
def test_cli_missing_option(capsys, tmp_path, flag, categories, missing):
    from analytics.cli import main

    path = tmp_path / "rel.csv"
    path.write_text(LONG)
    assert main(["summary", str(path), "--json", *flag]) == 0
    out = json.loads(capsys.readouterr().out)
    assert sorted(out["categories"]) == categories and out["missing_labels"] == missing


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.text(alphabet=" \t\u00a0\u2003x!~\x7f\x1f", max_size=3), max_size=8)),
    st.booleans(),
)
def test_blank_cells_judged_from_first_bytes_as_by_arrow(chunks, large):
    """Only cells not starting with printable ASCII are asked of utf8_is_space."""
    from analytics.data.delimited import _blank_cells

    typ = pa.large_string() if large else pa.string()
    col = pa.chunked_array([pa.array(c, typ) for c in chunks], typ)
    want = pc.or_(pc.equal(pc.binary_length(col), 0), pc.utf8_is_space(col))
    assert _blank_cells(col).tolist() == want.to_numpy(zero_copy_only=False).tolist()


@pytest.mark.parametrize("newline_in_value", [False, True])
def test_counts_from_the_cell_limit_are_reused_by_the_reader(newline_in_value):
    """A file larger in bytes than max_cells: its quotes and newlines are counted once."""
    from analytics.data import Limits

    long = "y" * 2000 + ("\nz" if newline_in_value else "")
    data = f'"item","annotator","label"\n"1","a","{long}"\n"2","b","x"\n'.encode()
    small = read_table(upload(data, "f.csv"), limits=Limits(max_cells=500))
    plain = read_table(upload(data, "f.csv"))
    assert small[0].astype(object).values.tolist() == plain[0].astype(object).values.tolist()
    assert small[0]["label"].tolist()[0] == long
    assert small[1].tolist() == plain[1].tolist()


def test_errors_after_skipped_rows_name_the_file_rows():
    """Row numbers of kept judgements are gathered only for the error, and still right."""
    data = b"item,annotator,label\n1,a,\n1,b,x\n,c,y\n2,a,x\n2,a,y\n"
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(upload(data, "dup.csv"))
    assert err.value.rows == [6] and "(row 6)" in str(err.value)
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(upload(data, "cats.csv"), categories=["x"], duplicates="first")
    assert err.value.rows == [6]
