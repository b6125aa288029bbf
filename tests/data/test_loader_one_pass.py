"""Issue 13's loader, second round: the shortcuts give the answers of the long way.

- the repeated-header check of a loaded CSV looks at one column's distinct values
  (``header_may_repeat``) instead of every cell of the first column;
- a delimited file of 1 MiB or more is scanned once (ASCII, quotes, newlines) before
  reading;
- blank rows are found from first bytes and neighbouring offsets;
- each column's missing cells are computed on the thread that factorized it;
- on threads, a label error is still raised before an id error.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError, load_annotations
from analytics.data import RawTable, read_table
from analytics.data.cells import missing_tokens
from analytics.data.encode import factorized
from analytics.data.header_rows import header_may_repeat
from analytics.data.limits import count_bytes
from analytics.data.reading import SCAN_MIN_BYTES


def upload(data: bytes, name: str) -> io.BytesIO:
    buf = io.BytesIO(data)
    buf.name = name
    return buf


def big_csv(rows: list[str], encoding: str = "utf-8") -> bytes:
    """A CSV past SCAN_MIN_BYTES: ``rows`` after padding rows of plain judgements."""
    n = SCAN_MIN_BYTES // 30 + 1  # each padding row takes 31 bytes or more
    pad = [f"item_{i:07d},annotator_{i % 7},label_{i % 3}" for i in range(n)]
    text = "\n".join(["item,annotator,label", *pad, *rows]) + "\n"
    assert len(text) > SCAN_MIN_BYTES
    return text.encode(encoding)


# ------------------------------------------------------------ repeated header rows
@pytest.mark.parametrize(
    ("uniques", "name", "may"),
    [
        (["yes", "no"], "label", False),
        (["yes", " LABEL "], "label", True),
        (["\ufeffLabel"], "label", True),
        (["labels", "a label"], "label", False),
        ([1, 2], "label", False),
        (["x"], " ", True),  # an unnamed column is left to the full check
        ([], "label", False),
    ],
)
def test_header_may_repeat_compares_like_the_full_check(uniques, name, may):
    assert header_may_repeat(pd.Index(uniques, dtype=object), name) is may


@pytest.mark.parametrize("size", ["small", "big"])
@pytest.mark.parametrize(
    "repeat",
    ["item,annotator,label", " ITEM , Annotator ,label", "\ufeffitem,annotator,label"],
)
def test_a_repeated_header_is_refused_by_the_loader_whatever_the_size(size, repeat):
    rows = ["1,a,x", "2,a,y", repeat, "1,b,y"]
    data = big_csv(rows) if size == "big" else ("item,annotator,label\n" + "\n".join(rows)).encode()
    with pytest.raises(AnnotationDataError, match="repeats the header row") as err:
        load_annotations(upload(data, "joined.csv"))
    n_rows = data.count(b"\n") + (not data.endswith(b"\n"))
    assert err.value.rows == [n_rows - 1]  # the repeated header is the last row but one


def test_a_repeated_header_in_a_wide_file_is_refused():
    data = b"item,ann1,ann2\nq1,x,y\nq2,x,x\nitem,ann1,ann2\nq3,y,y\n"
    with pytest.raises(AnnotationDataError, match="repeats the header row") as err:
        load_annotations(upload(data, "wide.csv"))
    assert err.value.rows == [4]


def test_a_repeated_header_in_a_count_table_is_refused():
    data = b"item,x,y\nq1,2,1\nitem,x,y\nq2,0,3\n"
    with pytest.raises(AnnotationDataError, match="repeats the header row"):
        load_annotations(upload(data, "counts.csv"), layout="counts")


def test_a_repeated_header_of_guarded_names_is_refused():
    """Names a spreadsheet-safe export guarded ('=...) are read unguarded; the cells too."""
    data = b"item,annotator,'=label\n1,a,x\n2,a,y\nitem,annotator,'=label\n1,b,y\n"
    with pytest.raises(AnnotationDataError, match="repeats the header row") as err:
        load_annotations(upload(data, "guarded.csv"), label="=label")
    assert err.value.rows == [4]


def test_a_row_holding_the_header_in_some_columns_only_is_kept():
    data = b"item,annotator,label\nitem,a,x\n1,annotator,y\n1,b,label\n"
    ann = load_annotations(upload(data, "f.csv"))
    assert ann.n_judgements == 3


def test_read_table_can_leave_the_check_to_the_caller():
    data = b"item,annotator,label\n1,a,x\nitem,annotator,label\n1,b,y\n"
    with pytest.raises(AnnotationDataError, match="repeats the header row"):
        read_table(upload(data, "f.csv"))
    table, rows, report = read_table(upload(data, "f.csv"), check_repeated_header=False)
    assert table["item"].tolist() == ["1", "item", "1"] and rows.tolist() == [2, 3, 4]
    with pytest.raises(AnnotationDataError, match="repeats the header row"):
        load_annotations(RawTable(table, rows, report))


# --------------------------------------------------------- one scan of a big file
def test_count_bytes_finds_the_highest_byte_in_the_same_pass():
    data = bytes(range(0, 120)) * 100_000 + b"\xe9" + b'"\n' * 3
    quotes, newlines, nuls, top = count_bytes(data, b'"', b"\n", b"\x00", highest=True)
    arr = np.frombuffer(data, np.uint8)
    assert (quotes, newlines, nuls) == tuple(int((arr == c).sum()) for c in (34, 10, 0))
    assert top == 0xE9
    assert count_bytes(b"", b"\n", highest=True) == (0, 0)


def test_a_big_csv_with_a_nul_byte_names_its_row():
    data = big_csv(["1,a,x", "2,a,y\x00", "3,a,z"])
    with pytest.raises(AnnotationDataError, match="NUL byte") as err:
        read_table(upload(data, "nul.csv"))
    assert err.value.rows == [data.count(b"\n") - 1]


def test_a_big_latin1_csv_is_converted_as_a_small_one():
    tail = ["1,a,caf\xe9", '2,a,"quoted, with comma"', '3,b,"two\nlines"']
    big = load_annotations(upload(big_csv(tail, "latin-1"), "latin.csv"))
    small = load_annotations(
        upload(("item,annotator,label\n" + "\n".join(tail) + "\n").encode("latin-1"), "s.csv")
    )
    assert big.report.encoding == small.report.encoding
    assert "café" in set(big.categories) and "two\nlines" in set(big.categories)
    assert set(small.categories) <= set(big.categories)


def test_a_big_ascii_csv_reads_like_its_small_self():
    data = big_csv(['9,z,"x ""quoted"""'])
    table, rows, _ = read_table(upload(data, "a.csv"))
    assert table["label"].iloc[-1] == 'x "quoted"' and rows[-1] == data.count(b"\n")


# ------------------------------------------------------- missing cells, cached
def test_cell_missing_is_computed_once_and_read_only():
    col = factorized(pd.Series(["a", "NA", None, "b"]), missing_tokens(None))
    first = col.cell_missing()
    assert col.cell_missing() is first and first.tolist() == [False, True, True, False]
    with pytest.raises(ValueError):
        first[0] = True


# ------------------------------------------------ labels and ids encoded on two threads
@pytest.fixture
def threaded(monkeypatch):
    """Every piece of work on threads, however small (as on a file of 100,000 cells)."""
    import analytics._core.threads as threads

    monkeypatch.setattr(threads, "PARALLEL_MIN", 0)
    monkeypatch.setattr(threads.os, "cpu_count", lambda: 2)


def test_threaded_and_serial_loads_agree(threaded, monkeypatch):
    data = b"item,annotator,label\n1,a,x\n1,b,\n2,a,y\n, c,x\n2,b,y\n3,a,z\n"
    on_threads = load_annotations(upload(data, "f.csv"))
    import analytics._core.threads as threads

    monkeypatch.setattr(threads, "PARALLEL_MIN", 10**9)
    serial = load_annotations(upload(data, "f.csv"))
    for attr in ("item_codes", "annotator_codes", "label_codes"):
        assert getattr(on_threads, attr).tolist() == getattr(serial, attr).tolist()
    assert list(on_threads.items) == list(serial.items)
    assert on_threads.report.messages() == serial.report.messages()


def test_on_threads_a_label_error_comes_before_a_repeated_judgement(threaded):
    data = b"item,annotator,label\n1,a,x\n1,a,y\n2,b,w\n"
    with pytest.raises(AnnotationDataError, match="not among the declared categories"):
        load_annotations(upload(data, "f.csv"), categories=["x", "y"])
    with pytest.raises(AnnotationDataError, match="repeated judgements") as err:
        load_annotations(upload(data, "f.csv"))
    assert err.value.rows == [3]


def test_a_count_that_overflows_the_sum_is_refused_without_a_warning(recwarn):
    data = b"item,x,y\nq1,1e308,1e308\nq2,2,3\n"
    with pytest.raises(AnnotationDataError, match="more than 1e308 judgements"):
        load_annotations(upload(data, "c.csv"), layout="counts")
    data = b"item,x,y\nq1,1e20,1\nq2,2,3\n"
    with pytest.raises(AnnotationDataError, match="about 1e\\+20 judgements"):
        load_annotations(upload(data, "c.csv"), layout="counts")
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]
