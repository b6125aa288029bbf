"""Files of 1 MiB and more are mapped, not read: every reader sees the same content.

And the three columns are encoded on threads: the same result as one after the other.
"""

from __future__ import annotations

import io
import json
import mmap

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import analytics._core.threads as threads
from analytics import AnnotationDataError, load_annotations
from analytics._core.threads import in_parallel
from analytics.data import read_table
from analytics.data.encode import encode_frame
from analytics.data.mapped import MAP_MIN_BYTES, is_ascii, is_utf8, map_file, whole
from analytics.data.reading import _read_source


def rows(n: int, label: str = "yes") -> str:
    return "".join(f"item_{i // 3:06d},ann_{i % 7},{label if i % 2 else 'no'}\n" for i in range(n))


def big_text(label: str = "yes") -> str:
    """A long CSV over the mapping threshold."""
    body = rows(60_000, label)
    assert len(body) > MAP_MIN_BYTES
    return "item,annotator,label\n" + body


def upload(path) -> io.BytesIO:
    buf = io.BytesIO(path.read_bytes())
    buf.name = path.name
    return buf


def same(a, b) -> None:
    assert a.to_frame().equals(b.to_frame())
    assert list(a.items) == list(b.items) and list(a.annotators) == list(b.annotators)
    assert list(a.categories) == list(b.categories)
    assert a.report.messages() == b.report.messages()


def test_a_large_path_is_mapped_and_a_small_one_read(tmp_path):
    big, small = tmp_path / "big.csv", tmp_path / "small.csv"
    big.write_text(big_text())
    small.write_text("item,annotator,label\n1,a,x\n")
    assert isinstance(_read_source(big, 2**40)[0], mmap.mmap)
    assert isinstance(_read_source(small, 2**40)[0], bytes)
    # only the text formats whose readers take a mapping
    other = tmp_path / "big.xlsx"
    other.write_bytes(b"PK\x03\x04" + b"\0" * MAP_MIN_BYTES)
    assert isinstance(_read_source(other, 2**40)[0], bytes)


@pytest.mark.parametrize(
    "encoding, label, sep, suffix",
    [
        ("utf-8", "yes", ",", ".csv"),
        ("utf-8", "très", ",", ".csv"),  # not ASCII: the UTF-8 check reads the mapping
        ("cp1252", "“quoted” café", ",", ".csv"),  # not UTF-8: copied and converted
        ("latin-1", "über", "\t", ".tsv"),
        ("utf-16", "ünïcode", "\t", ".tsv"),  # Excel's Unicode Text, told by its BOM
        ("utf-8-sig", "bom", ",", ".csv"),
    ],
)
def test_a_mapped_file_loads_like_its_bytes(tmp_path, encoding, label, sep, suffix):
    text = big_text(label).replace(",", sep)
    path = tmp_path / f"big{suffix}"
    path.write_bytes(text.encode(encoding))
    from_path = load_annotations(path)
    from_bytes = load_annotations(upload(path))
    same(from_path, from_bytes)
    assert from_path.n_judgements == 60_000
    assert label in list(from_path.categories)


def test_a_mapped_json_lines_file_loads_like_its_bytes(tmp_path):
    records = [
        {"item": f"i{i // 3}", "annotator": f"a{i % 5}", "label": ["x", "y"][i % 2]}
        for i in range(40_000)
    ]
    path = tmp_path / "big.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records))  # no final newline
    assert path.stat().st_size > MAP_MIN_BYTES
    same(load_annotations(path), load_annotations(upload(path)))


def test_a_mapped_file_that_is_not_what_its_extension_says(tmp_path):
    table = pa.table(
        {
            "item": [f"i{i}" for i in range(200_000)],
            "annotator": ["a"] * 200_000,
            "label": ["x", "y"] * 100_000,
        }
    )
    buf = io.BytesIO()
    pq.write_table(table, buf, compression="none")
    path = tmp_path / "really_parquet.csv"
    path.write_bytes(buf.getvalue())
    assert path.stat().st_size > MAP_MIN_BYTES
    ann = load_annotations(path)
    assert ann.n_judgements == 200_000 and "Parquet magic bytes" in ann.report.messages()[0] + str(
        ann.report.notes
    )


def test_a_mapped_file_with_nul_bytes_names_the_rows(tmp_path):
    text = big_text()
    lines = text.splitlines(keepends=True)
    lines[40_000] = lines[40_000].replace(",", ",\x00", 1)  # file line 40,001
    path = tmp_path / "nul.csv"
    path.write_text("".join(lines))
    with pytest.raises(AnnotationDataError) as err:
        load_annotations(path)
    assert "NUL" in str(err.value) and "40001" in str(err.value).replace(",", "")


def test_whole_and_is_ascii_on_a_mapping(tmp_path):
    path = tmp_path / "x.csv"
    path.write_bytes(b"a\xc3\xa9b" * 1000)
    m = map_file(path)
    assert whole(m) == path.read_bytes() and isinstance(whole(m), bytes)
    assert is_ascii(m) is False
    path.write_bytes(b"abc" * 1000)
    assert is_ascii(map_file(path)) is True


# ------------------------------------------------------------------ threads
def test_in_parallel_keeps_order_and_raises_the_first_error_in_task_order():
    assert in_parallel([lambda: 1, lambda: 2, lambda: 3], size=10**9) == [1, 2, 3]

    def fail(msg):
        raise ValueError(msg)

    with pytest.raises(ValueError, match="first"):
        in_parallel([lambda: 1, lambda: fail("first"), lambda: fail("second")], size=10**9)


@pytest.mark.parametrize("kind", [None, "multilabel"])
def test_encoding_on_threads_equals_encoding_in_order(monkeypatch, kind):
    rng = np.random.default_rng(3)
    n = 5_000
    labels = rng.choice(["x", "y", "z", "NA", ""], n).astype(object)
    if kind:
        labels = np.where(labels == "x", "x;y", labels)
    df = pd.DataFrame(
        {
            "item": [f" i{k} " if k % 11 == 0 else f"i{k}" for k in rng.integers(0, 900, n)],
            "annotator": rng.choice(["a", "b", "c", "d"], n),
            "label": labels,
        }
    ).astype({"item": "str", "annotator": "str", "label": "str"})
    kw = dict(duplicates="last", kind=kind, multilabel_sep=";" if kind else None)
    monkeypatch.setattr(threads, "PARALLEL_MIN", 10**12)
    in_order = encode_frame(df, **kw)
    monkeypatch.setattr(threads, "PARALLEL_MIN", 0)
    on_threads = encode_frame(df, **kw)
    for field in ("item_codes", "annotator_codes", "label_codes"):
        assert np.array_equal(getattr(in_order, field), getattr(on_threads, field))
    for field in ("items", "annotators", "categories"):
        assert list(getattr(in_order, field)) == list(getattr(on_threads, field))
    assert in_order.report == on_threads.report


def test_read_table_of_a_mapped_file_is_its_table(tmp_path):
    path = tmp_path / "big.tsv"
    path.write_text(big_text().replace(",", "\t"))
    a, rows_a, _ = read_table(path)
    b, rows_b, _ = read_table(upload(path))
    assert a.equals(b) and np.array_equal(rows_a, rows_b)


def _decodes(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(max_size=64), st.text(max_size=32).map(str.encode)))
def test_is_utf8_agrees_with_python(data):
    assert is_utf8(data) == _decodes(data)


@pytest.mark.parametrize(
    "data",
    [b"\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80", b"\xe2\x82", "€".encode(), b"a\x00b"],
)
def test_is_utf8_on_surrogates_overlong_and_out_of_range_bytes(data):
    assert is_utf8(data) == _decodes(data)
