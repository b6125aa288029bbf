"""load_annotations: every format, long and wide, synonyms, missing values, encodings."""

from __future__ import annotations

import io
import json

import pandas as pd
import pytest

from analytics import LabelKind, load_annotations
from analytics.data import SAMPLES, load_sample
from tests.helpers.paths import DATASETS

LONG = pd.DataFrame(
    {
        "item": ["q1", "q1", "q1", "q2", "q2", "q3"],
        "annotator": ["ann", "bob", "cy", "ann", "bob", "cy"],
        "label": ["pos", "neg", "pos", "neg", "neg", "pos"],
    }
)
WIDE = pd.DataFrame(
    {
        "item": ["q1", "q2", "q3"],
        "ann": ["pos", "neg", None],
        "bob": ["neg", "neg", None],
        "cy": ["pos", None, "pos"],
    }
)


def write(df: pd.DataFrame, path, fmt: str) -> None:
    if fmt == "csv":
        df.to_csv(path, index=False)
    elif fmt == "tsv":
        df.to_csv(path, index=False, sep="\t")
    elif fmt == "json":
        path.write_text(df.to_json(orient="records"))
    elif fmt == "jsonl":
        path.write_text(df.to_json(orient="records", lines=True))
    elif fmt == "excel":
        df.to_excel(path, index=False)
    elif fmt == "parquet":
        df.to_parquet(path, index=False)


EXT = {
    "csv": ".csv",
    "tsv": ".tsv",
    "json": ".json",
    "jsonl": ".jsonl",
    "excel": ".xlsx",
    "parquet": ".parquet",
}


@pytest.mark.parametrize("fmt", list(EXT))
@pytest.mark.parametrize("layout", ["long", "wide"])
def test_every_format_long_and_wide(tmp_path, fmt, layout):
    path = tmp_path / f"data{EXT[fmt]}"
    write(LONG if layout == "long" else WIDE, path, fmt)
    ann = load_annotations(path)
    assert (ann.n_items, ann.n_annotators, ann.n_judgements) == (3, 3, 6)
    assert ann.report.layout == layout
    assert ann.report.format == fmt
    assert set(ann.categories) == {"pos", "neg"}
    counts = ann.counts()
    assert counts.loc["q1", "pos"] == 2 and counts.loc["q2", "neg"] == 2
    if layout == "wide":
        assert ann.report.n_missing == 3  # the empty cells, counted, not categories


@pytest.mark.parametrize("fmt", ["csv", "json", "jsonl", "excel", "parquet"])
def test_format_detected_from_content_without_extension(tmp_path, fmt):
    path = tmp_path / "export"
    write(LONG, path, fmt)
    ann = load_annotations(path)
    assert ann.n_judgements == 6
    assert ann.report.format == fmt


def test_format_override(tmp_path):
    path = tmp_path / "data.txt"
    LONG.to_csv(path, index=False, sep="\t")
    assert load_annotations(path, format="tsv").n_judgements == 6


def test_file_like_upload_with_name():
    buf = io.BytesIO(LONG.to_csv(index=False).encode())
    buf.name = "upload.csv"
    ann = load_annotations(buf)
    assert ann.name == "upload.csv" and ann.n_judgements == 6


@pytest.mark.parametrize(
    ("item", "annotator", "label"),
    [
        ("task", "worker", "response"),
        ("unit", "rater", "answer"),
        ("ID", "Coder", "Category"),
        ("orig_id", "user", "value"),
        ("INPUT:task", "worker", "OUTPUT:label"),
        ("item_id", "annotator_id", "label"),
    ],
)
def test_column_synonyms(item, annotator, label):
    df = LONG.rename(columns={"item": item, "annotator": annotator, "label": label})
    ann = load_annotations(df)
    assert ann.report.layout == "long" and ann.n_judgements == 6
    assert ann.report.columns == {"item": item, "annotator": annotator, "label": label}


def test_named_columns_win_and_extras_are_reported():
    df = LONG.rename(columns={"item": "sentence", "annotator": "who", "label": "tag"}).assign(
        note="x"
    )
    ann = load_annotations(df, item="sentence", annotator="who", label="tag")
    assert ann.n_judgements == 6
    assert "note" in ann.report.layout_reason


def test_three_columns_with_one_recognised_are_guessed_and_said():
    df = LONG.rename(columns={"item": "sentence", "label": "emotion"})
    ann = load_annotations(df)
    assert ann.n_judgements == 6 and "Guessed" in ann.report.layout_reason


def test_wide_without_item_column_uses_unique_first_column():
    df = WIDE.rename(columns={"item": "answer_key"})
    ann = load_annotations(df)
    assert ann.report.layout == "wide" and ann.n_items == 3


@pytest.mark.parametrize("token", ["", "NA", "None", "NaN", "null", "nan"])
def test_missing_tokens_mean_not_labelled(token):
    text = f"item,annotator,label\n1,a,x\n1,b,{token}\n2,a,y\n"
    ann = load_annotations(io.BytesIO(text.encode()))
    assert ann.n_judgements == 2 and ann.report.n_missing == 1
    assert set(ann.categories) == {"x", "y"}


def test_multilabel_separator_detected_and_reported():
    text = "item,annotator,label\n1,a,anger;fear\n1,b,fear\n2,a,{}\n2,b,joy\n"
    ann = load_annotations(io.BytesIO(text.encode()))
    assert ann.kind is LabelKind.MULTILABEL
    assert any("separator ';' was detected" in m for m in ann.report.messages())
    assert sorted(map(sorted, ann.labels())) == [[], ["anger", "fear"], ["fear"], ["joy"]]


def test_multilabel_detection_can_be_turned_off():
    text = "item,annotator,label\n1,a,anger;fear\n1,b,fear\n"
    ann = load_annotations(io.BytesIO(text.encode()), multilabel_sep="")
    assert ann.kind is LabelKind.NOMINAL and "anger;fear" in ann.categories


def test_multilabel_json_lists():
    records = [
        {"item": 1, "annotator": "a", "label": ["x", "y"]},
        {"item": 1, "annotator": "b", "label": []},
        {"item": 2, "annotator": "a", "label": ["y"]},
    ]
    ann = load_annotations(io.BytesIO(json.dumps(records).encode()))
    assert ann.kind is LabelKind.MULTILABEL and ann.n_judgements == 3
    assert frozenset() in set(ann.labels())


def test_numeric_labels_are_numeric_unless_declared_text(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("item,annotator,label\n1,a,1.5\n1,b,3\n2,a,10\n")
    ann = load_annotations(path)
    assert list(ann.categories) == [1.5, 3, 10] and ann.kind is LabelKind.NUMERIC
    text = load_annotations(path, categories=["1.5", "3", "10"])
    assert list(text.categories) == ["1.5", "3", "10"] and text.kind is LabelKind.NOMINAL


def test_latin1_fallback_is_reported():
    data = "item,annotator,label\n1,a,caf\xe9\n1,b,th\xe9\n".encode("latin-1")
    ann = load_annotations(io.BytesIO(data))
    assert list(ann.categories) == ["café", "thé"]
    assert ann.report.encoding == "latin-1"
    assert any("latin-1" in w for w in ann.report.warnings())


def test_utf8_bom_and_semicolon_delimiter():
    data = "\ufeffitem;annotator;label\n1;a;x\n1;b;y\n".encode()
    ann = load_annotations(io.BytesIO(data))
    assert ann.n_judgements == 2 and ann.report.encoding == "utf-8"


def test_blank_lines_are_noted():
    ann = load_annotations(io.BytesIO(b"item,annotator,label\n1,a,x\n\n1,b,y\n"))
    assert ann.n_judgements == 2 and any("blank line" in n for n in ann.report.notes)


def test_excel_numeric_ids_lose_float_suffix(tmp_path):
    path = tmp_path / "x.xlsx"
    pd.DataFrame({"item": [1, 2], "annotator": [7, 7], "label": ["a", "b"]}).to_excel(
        path, index=False
    )
    ann = load_annotations(path)
    assert list(ann.items) == ["1", "2"] and list(ann.annotators) == ["7"]


@pytest.mark.parametrize("policy", ["first", "last", "keep"])
def test_duplicate_policy_passes_through(policy):
    text = "item,annotator,label\n1,a,x\n1,a,y\n1,b,x\n"
    ann = load_annotations(io.BytesIO(text.encode()), duplicates=policy)
    assert ann.n_judgements == (3 if policy == "keep" else 2)


@pytest.mark.parametrize(
    "name",
    ["snow_rte", "snow_temp", "snow_wsd", "welinder_bluebirds", "zheng_s4_Dog_data", "act_MS"],
)
def test_public_datasets_load_to_the_documented_counts(name):
    expected = {
        "snow_rte": (800, 164, 8000, 2),
        "snow_temp": (462, 76, 4620, 2),
        "snow_wsd": (177, 34, 1770, 3),
        "welinder_bluebirds": (108, 39, 4212, 2),
        "zheng_s4_Dog_data": (807, 109, 8070, 4),
        "act_MS": (700, 44, 2945, 10),
    }[name]
    ann = load_annotations(DATASETS / name / "labels.csv")
    assert (ann.n_items, ann.n_annotators, ann.n_judgements, ann.n_categories) == expected


def test_snow_temp_item_ids_are_not_merged():
    # float("4_20") == 420.0: ids like 42_0 must stay text
    ann = load_annotations(DATASETS / "snow_temp" / "labels.csv")
    assert "42_0" in set(ann.items) and ann.n_items == 462


def test_original_tsv_export_loads_with_named_columns():
    ann = load_annotations(
        DATASETS / "snow_rte" / "original" / "rte.standardized.tsv",
        item="orig_id",
        annotator="!amt_worker_ids",
        label="response",
    )
    assert ann.n_judgements == 8000 and ann.n_items == 800


@pytest.mark.parametrize("key", list(SAMPLES))
def test_samples_load(key):
    ann = load_sample(key)
    assert ann.n_judgements > 0 and ann.n_annotators >= 3


def test_golden_columns_do_not_compete_for_the_label():
    text = "INPUT:task\tASSIGNMENT:worker\tOUTPUT:label\tGOLDEN:label\nt1\tw1\tcat\tcat\nt1\tw2\tdog\tcat\n"
    ann = load_annotations(io.BytesIO(text.encode()), annotator="ASSIGNMENT:worker")
    assert ann.report.columns["label"] == "OUTPUT:label" and ann.n_judgements == 2


def test_json_lines_saved_as_json_is_read_and_said(tmp_path):
    path = tmp_path / "export.json"
    write(LONG, path, "jsonl")
    ann = load_annotations(path)
    assert ann.n_judgements == 6 and any("read as JSON Lines" in n for n in ann.report.notes)


@pytest.mark.parametrize(("fmt", "wrong"), [("excel", ".csv"), ("parquet", ".json")])
def test_binary_content_wins_over_a_wrong_extension(tmp_path, fmt, wrong):
    path = tmp_path / f"export{wrong}"
    write(LONG, path, fmt)
    ann = load_annotations(path)
    assert ann.n_judgements == 6 and ann.report.format == fmt
    assert any("although the extension" in n for n in ann.report.notes)


def test_ordinal_text_without_declared_order_is_cautioned():
    df = pd.DataFrame(
        {"item": [1, 1, 2, 2], "annotator": ["a", "b"] * 2, "label": ["mid", "high", "low", "mid"]}
    )
    ann = load_annotations(df, kind="ordinal")
    assert any("without a declared order" in w for w in ann.report.warnings())
    declared = load_annotations(df, kind="ordinal", categories=["low", "mid", "high"])
    assert declared.report.warnings() == [] and declared.report.categories_declared


def test_a_missing_header_row_is_cautioned():
    ann = load_annotations(io.BytesIO(b"1,a,x\n2,b,y\n3,a,x\n4,b,x\n"))
    assert any("look like data values" in w for w in ann.report.warnings())
    assert load_annotations(DATASETS / "snow_rte" / "labels.csv").report.warnings() == []
