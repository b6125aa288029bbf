"""DuckDB reads a source as the in-memory loader does, and says what is wrong with it.

Ragged rows, columns whose type changes past DuckDB's sniffed sample, Parquet folders
whose files differ and BOOLEAN labels give an AnnotationDataError or load; blanks around
ids and labels, NaN in float columns and number-like text labels give the in-memory
numbers; the load report counts rows, missing labels and skipped rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError, agreement
from analytics import load_annotations as load

pytest.importorskip("duckdb")


def frame(n_items: int = 60, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = [
        (f"item {i}", a, str(rng.choice(["joy", "anger", "sad"])))
        for i in range(n_items)
        for a in ("ann 1", "ann2", "Zoë")
    ]
    return pd.DataFrame(rows, columns=["item", "annotator", "label"])


def both(path, **options):
    return load(path, **options), load(path, engine="duckdb", **options)


def same_report(mem, lazy) -> None:
    for name in ("fleiss_kappa", "krippendorff_alpha", "percent_agreement"):
        x, y = getattr(agreement, name)(lazy), getattr(agreement, name)(mem)
        assert abs(float(x) - float(y)) < 1e-12, name
    assert lazy.n_judgements == mem.n_judgements
    assert lazy.n_items == mem.n_items
    assert sorted(map(str, lazy.annotators)) == sorted(map(str, mem.annotators))


# ---------------------------------------------------------------- errors as AnnotationDataError
def test_a_ragged_csv_row_is_named(tmp_path):
    path = tmp_path / "ragged.csv"
    lines = ["item,annotator,label"] + [f"{i},a{i % 3},x" for i in range(30_000)]
    lines[25_000] = "24999,a1,x,extra,fields"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(AnnotationDataError, match=r"row 25001.*3 fields of the header"):
        load(path, engine="duckdb")


def test_a_ragged_row_in_the_sniffed_sample_is_named_too(tmp_path):
    """Inside DuckDB's sniff sample a ragged row had made it read the header as one column
    ("no item column 'item'"); the delimiter and header now come from the in-memory
    loader's reading, so the row is named as in memory."""
    path = tmp_path / "ragged.csv"
    path.write_text("item,annotator,label\ni1,a,x\ni1,b,y,z\ni2,a,x\n")
    with pytest.raises(AnnotationDataError, match=r"row 3.*3 fields of the header"):
        load(path, engine="duckdb")


def test_a_repeated_header_name_is_refused_as_in_memory(tmp_path):
    path = tmp_path / "dup.csv"
    path.write_text("item,annotator,label,label\ni1,a,x,z\ni1,b,y,z\n")
    for engine in ("memory", "duckdb"):
        with pytest.raises(AnnotationDataError, match="names column 'label' more than once"):
            load(path, engine=engine)


def test_single_quotes_are_text_not_quotes(tmp_path):
    """DuckDB's sniffer took ' for the quote character: labels 'x' and x merged, and every
    coefficient read 1.0 where memory reads -0.143."""
    path = tmp_path / "quotes.csv"
    rows = ["i0,a,'x'", "i0,b,x", "i1,a,'x'", "i1,b,'x'", "i2,a,y", "i2,b,'y'", "i3,a,x",
            "i3,b,'x'"]  # fmt: skip
    path.write_text("item,annotator,label\n" + "\n".join(rows) + "\n")
    mem, lazy = both(path)
    assert (
        sorted(map(str, lazy.categories))
        == sorted(map(str, mem.categories))
        == ["'x'", "'y'", "x", "y"]
    )
    same_report(mem, lazy)


def test_a_label_type_change_past_the_sniffed_sample_loads_as_text(tmp_path):
    path = tmp_path / "flip.csv"
    labels = [str(i % 3) for i in range(30_000)]
    labels[-1] = "oops"
    pd.DataFrame(
        {"item": np.arange(30_000) // 2, "annotator": np.tile(["a", "b"], 15_000), "label": labels}
    ).to_csv(path, index=False)
    mem, lazy = both(path)
    assert sorted(lazy.categories) == sorted(mem.categories) == ["0", "1", "2", "oops"]
    same_report(mem, lazy)


def test_csv_ids_are_text_so_007_and_7_differ(tmp_path):
    path = tmp_path / "ids.csv"
    path.write_text("item,annotator,label\n007,a,x\n7,a,y\n007,b,x\n7,b,y\n")
    mem, lazy = both(path)
    assert lazy.n_items == mem.n_items == 2
    same_report(mem, lazy)


def test_a_folder_of_differing_parquet_files_names_them(tmp_path):
    df = frame()
    (tmp_path / "f").mkdir()
    df.iloc[:90].to_parquet(tmp_path / "f" / "a.parquet", index=False)
    df.iloc[90:].rename(columns={"label": "answer"}).to_parquet(tmp_path / "f" / "b.parquet")
    with pytest.raises(AnnotationDataError, match=r"'label' is in a.parquet but not in b.parquet"):
        load(tmp_path / "f", engine="duckdb")


def test_an_empty_csv_is_said_to_be_empty(tmp_path):
    (tmp_path / "e.csv").write_text("")
    with pytest.raises(AnnotationDataError, match="the file is empty"):
        load(tmp_path / "e.csv", engine="duckdb")
    (tmp_path / "h.csv").write_text("item,annotator,label\n")
    with pytest.raises(AnnotationDataError, match="no judgements"):
        load(tmp_path / "h.csv", engine="duckdb")


def test_a_damaged_parquet_file_is_an_annotation_data_error(tmp_path):
    (tmp_path / "bad.parquet").write_bytes(b"PAR1 not really")
    with pytest.raises(AnnotationDataError, match=r"bad\.parquet"):
        load(tmp_path / "bad.parquet", engine="duckdb")


def test_boolean_labels_load_as_true_and_false(tmp_path):
    pd.DataFrame(
        {"item": [1, 1, 2, 2, 3, 3], "annotator": list("ababab"), "label": [1, 1, 0, 1, 0, 0]}
    ).astype({"label": bool}).to_parquet(tmp_path / "b.parquet", index=False)
    mem, lazy = both(tmp_path / "b.parquet")
    assert list(lazy.categories) == ["False", "True"]
    same_report(mem, lazy)


# ---------------------------------------------------------------- the memory loader's reading
def test_blanks_around_ids_and_labels_are_dropped_as_in_memory(tmp_path):
    df = frame()
    df.loc[20, "label"] = " joy"
    df.loc[22, "item"] = "item 7 "
    df.loc[23, "annotator"] = " Zoë"
    for path in (tmp_path / "s.csv", tmp_path / "s.parquet"):
        df.to_csv(path, index=False) if path.suffix == ".csv" else df.to_parquet(path)
        mem, lazy = both(path)
        assert sorted(lazy.categories) == sorted(mem.categories) == ["anger", "joy", "sad"]
        same_report(mem, lazy)
        assert any("blanks" in m for m in lazy.report.messages())


def test_tabs_and_no_break_spaces_are_stripped_as_python_strips_them(tmp_path):
    """The memory loader strips every whitespace character (str.strip); SQL's TRIM strips
    spaces only, so "joy\t" had been a category of its own and "NA\t" a label."""
    df = frame()
    df.loc[20, "label"] = "joy\t"
    df.loc[21, "label"] = "NA\t"
    df.loc[22, "item"] = "\u00a0item 7"
    df.loc[24, "label"] = "\u2003sad"  # an em space
    df.to_parquet(tmp_path / "t.parquet")
    mem, lazy = both(tmp_path / "t.parquet")
    assert sorted(lazy.categories) == sorted(mem.categories) == ["anger", "joy", "sad"]
    same_report(mem, lazy)


def test_nan_in_float_parquet_columns_is_missing(tmp_path):
    rng = np.random.default_rng(1)
    df = pd.DataFrame(
        {
            "item": np.repeat(np.arange(100), 3).astype(float),
            "annotator": np.tile([1.0, 2.0, 3.0], 100),
            "label": rng.integers(1, 6, 300).astype(float),
        }
    )
    df.loc[[0, 10, 20], "annotator"] = np.nan
    df.loc[[30, 31], "item"] = np.nan
    df.loc[5, "label"] = np.nan
    df.to_parquet(tmp_path / "nan.parquet", index=False)  # NaN, not null
    mem, lazy = both(tmp_path / "nan.parquet")
    assert list(lazy.categories) == list(mem.categories) == [1, 2, 3, 4, 5]
    assert list(lazy.annotators) == ["1", "2", "3"]
    same_report(mem, lazy)
    assert lazy.report.n_missing == mem.report.n_missing == 1


def test_number_like_text_labels_are_ordered_as_numbers(tmp_path):
    rng = np.random.default_rng(2)
    truth = rng.integers(1, 11, 300)
    labels = np.clip(truth[:, None] + rng.integers(-1, 2, (300, 4)), 1, 10).astype(str)
    labels = labels.astype(object)
    labels[[0, 1, 2], [0, 1, 2]] = "NA"
    pd.DataFrame(
        {
            "item": np.repeat(np.arange(300), 4),
            "annotator": np.tile(["r0", "r1", "r2", "r3"], 300),
            "label": labels.ravel(),
        }
    ).to_csv(tmp_path / "r.csv", index=False)
    mem, lazy = both(tmp_path / "r.csv", kind="ordinal")
    assert list(lazy.categories) == list(mem.categories) == list(range(1, 11))
    x = agreement.krippendorff_alpha(lazy, distance="ordinal")
    y = agreement.krippendorff_alpha(mem, distance="ordinal")
    assert abs(float(x) - float(y)) < 1e-12
    mem, lazy = both(tmp_path / "r.csv")  # the kind by the loader's rule
    assert lazy.kind == mem.kind
    assert lazy.report.kind_reason == mem.report.kind_reason


def test_the_load_report_counts_rows_missing_labels_and_skipped_rows(tmp_path):
    df = frame()
    df.loc[[3, 7, 11], "label"] = ["", "NA", None]
    df.loc[2, "annotator"] = None
    df.loc[6, "item"] = None
    df.to_parquet(tmp_path / "m.parquet", index=False)
    mem, lazy = both(tmp_path / "m.parquet")
    rep = lazy.report
    assert (rep.n_rows, rep.n_missing) == (mem.report.n_rows, mem.report.n_missing) == (180, 3)
    assert [(s.reason, s.count) for s in rep.skipped] == [
        (s.reason, s.count) for s in mem.report.skipped
    ]
    assert rep.messages()[0] == "Read 180 rows as DUCKDB (long form)."
    same_report(mem, lazy)


def test_the_engine_agreement_report_has_the_in_memory_columns():
    """--json promises the same keys on every engine: se, p_value, se_method, analytic_low
    and analytic_high were missing on DuckDB (not computed there: NaN, and said so)."""
    from analytics import load_annotations
    from analytics.agreement import agreement_report
    from analytics.agreement.report import REPORT_COLUMNS
    from tests.helpers.paths import SAMPLE_DATA

    lazy = load_annotations(SAMPLE_DATA / "crowd_intents.csv", engine="duckdb")
    report = agreement_report(lazy, n_boot=0)
    assert list(report.columns) == REPORT_COLUMNS
    assert report["se"].isna().all() and report["p_value"].isna().all()
    assert report["se_method"].str.contains("not computed on the duckdb engine").all()


def test_columns_are_recognised_by_name_as_in_memory(tmp_path):
    """doc_id, worker_id and answer load in memory; on DuckDB they had failed with "no item
    column 'item'" unless named."""
    df = frame().rename(columns={"item": "doc_id", "annotator": "worker_id", "label": "answer"})
    df.to_parquet(tmp_path / "r.parquet")
    mem, lazy = both(tmp_path / "r.parquet")
    assert (lazy.n_items, lazy.n_judgements) == (mem.n_items, mem.n_judgements)
    assert sorted(lazy.categories) == sorted(mem.categories)
    named = load(tmp_path / "r.parquet", engine="duckdb", label="answer")
    assert named.n_judgements == mem.n_judgements


def test_fewer_than_ten_items_get_no_resampled_interval_on_the_engine_either(tmp_path):
    """Memory gives no interval below 10 items; the engine had given Fleiss' kappa
    [-0.18, 0.55] on 8 items, and a zero-width interval on one."""
    patterns = ["xxy", "xyy", "xyz", "xxx", "yyz", "zzx", "xzz", "yyy"]
    pairs = [(i, a, lab) for i, ls in enumerate(patterns) for a, lab in zip("abc", ls, strict=True)]
    rows = [f"i{i},{a},{lab}" for i, a, lab in pairs]
    path = tmp_path / "eight.csv"
    path.write_text("item,annotator,label\n" + "\n".join(rows) + "\n")
    mem, lazy = both(path)
    a, b = (agreement.agreement_report(x, n_boot=200).set_index("coefficient") for x in (mem, lazy))
    for name in ("Percent agreement", "Fleiss' kappa", "Krippendorff's alpha (nominal)"):
        assert np.isnan(b.loc[name, "ci_low"]) and np.isnan(a.loc[name, "ci_low"])
        assert (
            b.loc[name, "ci_method"]
            == a.loc[name, "ci_method"]
            == ("none (too few items to resample)")
        )


@pytest.mark.parametrize("codec", ["latin-1", "utf-16"])
def test_a_file_that_is_not_utf8_is_named_so_on_duckdb(tmp_path, codec):
    """Memory converts it; DuckDB had refused with "Check that the file is a complete
    Parquet or CSV file", which did not name the encoding."""
    path = tmp_path / "accents.csv"
    path.write_bytes("item,annotator,label\n1,a,café\n1,b,thé\n".encode(codec))
    assert sorted(load(path).categories) == ["café", "thé"]
    with pytest.raises(AnnotationDataError, match="not UTF-8 text") as info:
        load(path, engine="duckdb")
    assert "--engine memory" in str(info.value)


def test_integer_labels_beyond_two_to_the_53_stay_exact_on_the_engine(tmp_path):
    """They went through floats on DuckDB: 2**53 and 2**53 + 1 merged into one category and
    Fleiss' kappa read 1.0 where memory reads 0.652."""
    big = 2**53
    frame = pd.DataFrame(
        {
            "item": np.repeat(np.arange(4), 2),
            "annotator": np.tile(["a", "b"], 4),
            "label": np.array([big + 1, big, 1, 1, big + 1, big + 1, 2, 2]),
        }
    )
    path = tmp_path / "big.parquet"
    frame.to_parquet(path)
    mem, lazy = both(path)
    assert list(lazy.categories) == list(mem.categories) == [1, 2, big, big + 1]
    same_report(mem, lazy)
