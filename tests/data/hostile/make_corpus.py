"""Write the hostile-input corpus beside this script (run it from anywhere; it is deterministic).

The files are committed; this script says how each was made, so that a file can be
regenerated or a new one added the same way. Each file's expected outcome, and why, is in
``expected.json`` (written by hand, never by this script: the expectations come from
issue 13, not from what the loader does today).

Usage: ``python tests/data/hostile/make_corpus.py [OUT_DIR]``
"""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # xlsx_parts.py beside this script, however it is run
from xlsx_parts import cell, raw_xlsx, row_xml, sheet_xml, workbook_bytes  # noqa: E402

OUT = [HERE]  # where write() puts the files: main(out=...) changes it
HEADER = "item,annotator,label\n"
FORMULA = "=cmd|' /C calc'!A0"
HOSTILE_NAME = "[win a prize](mailto:prize@example.com) :red[URGENT] $x^2$.csv"


def write(rel: str, data: bytes | str) -> None:
    path = OUT[0] / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)


def long_csv(rows: list[tuple], header: str = HEADER, sep: str = ",") -> str:
    return header + "".join(sep.join(str(c) for c in r) + "\n" for r in rows)


def grid(n_items: int, annotators: str, labels: list[str]) -> list[tuple]:
    """A complete long table: every annotator labels every item, cycling through labels."""
    out, k = [], 0
    for i in range(1, n_items + 1):
        for a in annotators:
            out.append((f"q{i}", a, labels[k % len(labels)]))
            k += 1
    return out


# ------------------------------------------------------------------ CSV and TSV
def delimited() -> None:
    write("csv/ragged_rows.csv", HEADER + "q1,a,x\nq1,b\nq2,a,y\n")
    write("csv/ragged_extra_field.csv", HEADER + "q1,a,x\nq1,b,y\nq2,a,y,surplus\n")
    write("csv/unclosed_quote.csv", HEADER + 'q1,a,x\nq1,b,"y\nq2,a,x\nq2,b,y\n')
    write("csv/header_only.csv", HEADER)
    write("csv/empty.csv", b"")
    write("csv/bom_only.csv", b"\xef\xbb\xbf")
    write("csv/whitespace_only.csv", " \n\t\n  \r\n")
    write("csv/single_column.csv", "label\nx\ny\nx\n")
    write("csv/duplicate_header.csv", "item,annotator,label,label\nq1,a,x,y\nq1,b,y,y\n")
    write("csv/empty_header_name.csv", "item,,label\nq1,a,x\nq1,b,y\n")
    write("csv/whitespace_header_name.csv", "item,   ,label\nq1,a,x\nq1,b,y\n")
    write("csv/nul_bytes.csv", HEADER.encode() + b"q1,a,x\nq1,b,y\x00y\nq2,a,x\n")
    rng = random.Random(13)
    write("csv/binary_garbage.csv", bytes(rng.randrange(256) for _ in range(3000)))
    write(
        "csv/latin1.csv",
        long_csv(grid(4, "ab", ["café", "naïve", "café"])).encode("latin-1"),
    )
    tsv = long_csv(grid(3, "ab", ["yes", "no", "no"]), header="item\tannotator\tlabel\n", sep="\t")
    write("csv/utf16le_bom.tsv", b"\xff\xfe" + tsv.encode("utf-16-le"))
    write("csv/utf16be_bom.tsv", b"\xfe\xff" + tsv.encode("utf-16-be"))
    write("csv/utf16le_bom_unicode_text.txt", b"\xff\xfe" + tsv.encode("utf-16-le"))
    write(
        "csv/mixed_line_endings.csv", "item,annotator,label\r\nq1,a,x\nq1,b,y\r\nq2,a,x\nq2,b,x\r\n"
    )
    rows = grid(10, "abc", ["pos", "neg", "pos", "neg", "neg"])
    rows[4] = (rows[4][0], rows[4][1], f'"{FORMULA}"')
    write("csv/formula_label.csv", long_csv(rows))
    hostile_labels = [
        '"![x](https://example.com/pixel.png)"',
        '"[click](mailto:prize@example.com)"',
        ":red[URGENT]",
        "$x^2$",
        "<b>bold</b>",
    ]
    write("csv/markdown_names.csv", long_csv(grid(5, "abc", hostile_labels)))
    write(
        "csv/whitespace_ids.csv",
        HEADER + "q1,a,x\n q1,b,x\nq2,a,y\nq2 ,b,y\nq3,a ,x\nq3,b,y\n",
    )
    write("csv/none_is_a_category.csv", long_csv(grid(12, "abc", ["Cause", "None", "Part-Of"])))
    write("csv/na_is_an_answer.csv", long_csv(grid(12, "abc", ["Yes", "No", "N/A", "Yes"])))
    pipes = grid(25, "abcd", ["A", "B", "C", "A", "C"])
    pipes[10] = (*pipes[10][:2], "A|B")
    pipes[60] = (*pipes[60][:2], "A|B")
    write("csv/few_pipes.csv", long_csv(pipes))
    huge = "x" * (1024 * 1024)
    write("csv/huge_field.csv", HEADER + f"q1,a,y\nq1,b,{huge}\nq2,a,y\nq2,b,z\n")
    write("csv/label_1e20.csv", HEADER + f"q1,a,{10**20}\nq1,b,1\nq2,a,{10**20}\nq2,b,2\n")
    write("csv/long_number.csv", HEADER + f"q1,a,1\nq1,b,2\nq2,a,{'9' * 5000}\nq2,b,1\n")
    write("csv/header_like_data.csv", "q0,yes,no\nq1,yes,no\nq2,no,no\nq3,yes,yes\n")
    write(
        "csv/wide_with_notes.csv",
        "item,ann1,ann2,Notes\n"
        "q1,pos,pos,looked fine to me\n"
        'q2,neg,pos,"hard one, ask Sam"\n'
        "q3,neg,neg,second pass\n",
    )
    write("csv/duplicate_judgements.csv", HEADER + "q1,a,x\nq1,b,y\nq1,a,y\nq2,a,x\n")
    write("csv/ragged.tsv", "item\tannotator\tlabel\nq1\ta\tx\nq1\tb\ty\tz\n")
    write(
        "csv/quoted_newlines.csv",
        HEADER + 'q1,a,"multi\nline"\nq1,b,x\n"q\n2",a,x\nq2,b,"multi\nline"\n',
    )
    write("csv/no_header_long.csv", "q1,a,x\nq1,b,y\nq2,a,x\nq2,b,x\n")
    write("csv/only_missing_labels.csv", HEADER + "q1,a,\nq1,b,NA\nq2,a,null\n")


# ------------------------------------------------------------------ JSON and JSONL
def records(n: int = 2) -> list[dict]:
    return [
        {"item": f"q{i // 2 + 1}", "annotator": "ab"[i % 2], "label": "xy"[(i // 2) % 2]}
        for i in range(n)
    ]


def dumps(obj) -> str:
    return json.dumps(obj, ensure_ascii=False)


def json_files() -> None:
    write("json/empty_record.json", "[{}]")
    write("json/empty_list.json", "[]")
    write("json/empty_object.json", "{}")
    write("json/scalar.json", "42")
    write("json/string_scalar.json", '"item,annotator,label"')
    depth = 10_000
    write("json/deep_nesting.json", "[" * depth + "]" * depth)
    deep_value = '{"a":' * 5000 + "1" + "}" * 5000
    write(
        "json/deep_value.json",
        '[{"item":"q1","annotator":"a","label":"x"},'
        '{"item":"q1","annotator":"b","label":' + deep_value + "}]",
    )
    write(
        "json/wide_list_cells.json",
        dumps(
            [
                {"item": "q1", "ann1": "x", "ann2": "y"},
                {"item": "q2", "ann1": ["x", ["y"]], "ann2": "y"},
            ]
        ),
    )
    write(
        "json/wide_dict_cells.json",
        dumps(
            [
                {"item": "q1", "ann1": "x", "ann2": "y"},
                {"item": "q2", "ann1": "x", "ann2": {"choice": "y"}},
            ]
        ),
    )
    write("json/list_of_lists.json", dumps([["item", "annotator", "label"], ["q1", "a", "x"]]))
    write("json/mixed_records.json", dumps([*records(2), "q2,a,x", 7]))
    write(
        "json/nan_token.json",
        '[{"item":"q1","annotator":"a","label":1},{"item":"q1","annotator":"b","label":NaN},'
        '{"item":"q2","annotator":"a","label":2}]',
    )
    write(
        "json/infinity_token.json",
        '[{"item":"q1","annotator":"a","label":1},{"item":"q1","annotator":"b","label":2},'
        '{"item":"q2","annotator":"a","label":Infinity}]',
    )
    write("json/truncated.json", dumps(records(4))[:-25])
    write("json/trailing_garbage.json", dumps(records(4)) + "\n}{ trailing garbage")
    write(
        "json/number_5000_digits.json",
        '[{"item":"q1","annotator":"a","label":1},'
        '{"item":"q1","annotator":"b","label":' + "9" * 5000 + "}]",
    )
    write(
        "json/label_1e20.json",
        dumps(
            [
                {"item": "q1", "annotator": "a", "label": 10**20},
                {"item": "q1", "annotator": "b", "label": 1},
                {"item": "q2", "annotator": "a", "label": 10**20},
                {"item": "q2", "annotator": "b", "label": 1},
            ]
        ),
    )
    # JSON Lines
    lines = [dumps(r) for r in records(5)]
    write(
        "jsonl/bad_line_middle.jsonl",
        "\n".join([*lines[:2], '{"item": "q2", "annot', *lines[2:]]) + "\n",
    )
    write(
        "jsonl/non_object_line.jsonl", "\n".join([lines[0], '["q1", "b", "y"]', *lines[1:]]) + "\n"
    )
    write("jsonl/blank_lines.jsonl", "\n\n".join(lines) + "\n\n\n")
    big = dumps({"item": "q1", "annotator": "c", "label": "z" * (512 * 1024)})
    write("jsonl/huge_line.jsonl", "\n".join([*lines, big]) + "\n")
    write(
        "jsonl/deep_line.jsonl",
        "\n".join(
            [lines[0], '{"item":"q1","annotator":"b","label":' + "[" * 3000 + "]" * 3000 + "}"]
        )
        + "\n",
    )


# ------------------------------------------------------------------ Excel
def excel() -> None:
    head = ["item", "annotator", "label"]
    body = [list(r) for r in grid(3, "ab", ["x", "y", "y"])]
    write(
        "xlsx/duplicate_header.xlsx",
        workbook_bytes(
            {"Sheet1": [["item", "annotator", "label", "label"], *[[*r, "z"] for r in body]]}
        ),
    )
    second = [list(r) for r in grid(2, "cd", ["y", "x"])]
    write(
        "xlsx/two_sheets.xlsx",
        workbook_bytes({"Batch 1": [head, *body], "Batch 2": [head, *second]}),
    )
    write("xlsx/empty_sheet.xlsx", workbook_bytes({"Sheet1": []}))
    write("xlsx/header_only.xlsx", workbook_bytes({"Sheet1": [head]}))
    write("xlsx/ok_then_empty_sheet.xlsx", workbook_bytes({"Data": [head, *body], "Notes": []}))
    write(
        "xlsx/dimension_bomb.xlsx",
        raw_xlsx(
            sheet_xml(
                [
                    row_xml(1, head),
                    row_xml(2, ["q1", "a", "x"]),
                    '<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>x</t></is></c></row>',
                ],
                "A1:XFD1048576",
            )
        ),
    )
    write(
        "xlsx/zip_bomb.xlsx",
        raw_xlsx(
            sheet_xml(
                [row_xml(1, head), *(row_xml(i + 2, list(r)) for i, r in enumerate(body))],
                f"A1:C{len(body) + 1}",
                padding=3 * 1024 * 1024,
            )
        ),
    )
    write(
        "xlsx/corrupt_zip.xlsx",
        b"PK\x03\x04" + bytes(random.Random(7).randrange(256) for _ in range(600)),
    )
    good = workbook_bytes({"Sheet1": [head, *body]})
    write("xlsx/truncated_zip.xlsx", good[: len(good) // 2])
    ole = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504
    write("xlsx/old_xls_bytes.xlsx", ole + b"Workbook" + b"\x00" * 1000)
    write("xlsx/encrypted.xlsx", ole + "EncryptedPackage".encode("utf-16-le") + b"\x00" * 1000)
    rows = [row_xml(1, head)]
    for i, (it, an, lab) in enumerate(body):
        r = i + 2
        if i == 2:
            rows.append(row_xml(r, [it, an, lab], [None, None, f'IF(1=1,"{lab}","?")']))
        else:
            rows.append(row_xml(r, [it, an, lab]))
    write("xlsx/formula_cached.xlsx", raw_xlsx(sheet_xml(rows, f"A1:C{len(body) + 1}")))
    rows = [row_xml(1, head)] + [row_xml(i + 2, list(r)) for i, r in enumerate(body[:-1])]
    rows.append(
        f'<row r="{len(body) + 1}">{cell(f"A{len(body) + 1}", body[-1][0])}{cell(f"B{len(body) + 1}", body[-1][1])}<c r="C{len(body) + 1}"><f>CONCAT("x","y")</f></c></row>'
    )
    write("xlsx/formula_no_value.xlsx", raw_xlsx(sheet_xml(rows, f"A1:C{len(body) + 1}")))


# ------------------------------------------------------------------ Parquet
def parquet_bytes(table: pa.Table) -> bytes:
    buf = io.BytesIO()
    pq.write_table(table, buf)
    return buf.getvalue()


def parquet() -> None:
    write(
        "parquet/list_ids.parquet",
        parquet_bytes(
            pa.table(
                {"item": [["i", "1"], ["i", "2"]], "annotator": ["a", "b"], "label": ["x", "y"]}
            )
        ),
    )
    write(
        "parquet/binary_labels.parquet",
        parquet_bytes(
            pa.table(
                {
                    "item": ["q1", "q1", "q2"],
                    "annotator": ["a", "b", "a"],
                    "label": pa.array([b"x", b"y", b"x"], pa.binary()),
                }
            )
        ),
    )
    write(
        "parquet/struct_label.parquet",
        parquet_bytes(
            pa.table(
                {
                    "item": ["q1", "q1"],
                    "annotator": ["a", "b"],
                    "label": [{"choice": "x"}, {"choice": "y"}],
                }
            )
        ),
    )
    write(
        "parquet/zero_rows.parquet",
        parquet_bytes(
            pa.table(
                {
                    "item": pa.array([], pa.string()),
                    "annotator": pa.array([], pa.string()),
                    "label": pa.array([], pa.string()),
                }
            )
        ),
    )
    good = parquet_bytes(
        pa.table(
            {"item": ["q1", "q1", "q2"], "annotator": ["a", "b", "a"], "label": ["x", "y", "x"]}
        )
    )
    write("parquet/corrupt_footer.parquet", good[:-12] + b"\xff" * 8 + good[-4:])
    write(
        "parquet/float_nan_inf_labels.parquet",
        parquet_bytes(
            pa.table(
                {
                    "item": ["q1", "q1", "q2", "q2"],
                    "annotator": ["a", "b", "a", "b"],
                    "label": [1.0, float("nan"), 2.0, float("inf")],
                }
            )
        ),
    )


# ------------------------------------------------------------------ tool exports
def ls_task(task_id: int, anns: list[dict], predictions: list | None = None) -> dict:
    return {
        "id": task_id,
        "data": {"text": f"text {task_id}"},
        "annotations": anns,
        "predictions": predictions or [],
    }


def ls_ann(ann_id: int, who, choice: str) -> dict:
    return {
        "id": ann_id,
        "completed_by": who,
        "was_cancelled": False,
        "result": [
            {
                "id": f"r{ann_id}",
                "from_name": "sentiment",
                "to_name": "text",
                "type": "choices",
                "value": {"choices": [choice]},
            }
        ],
    }


def tools() -> None:
    tasks = [
        ls_task(1, [ls_ann(11, 1, "Positive"), ls_ann(12, 2, "Negative")]),
        ls_task(2, [ls_ann(21, 1, "Negative"), ls_ann(22, 2, "Negative")]),
    ]
    bad = json.loads(dumps(tasks))
    bad[1]["annotations"][0]["result"] = 5
    write("tools/ls_result_5.json", json.dumps(bad, indent=1))
    bad = json.loads(dumps(tasks))
    bad[1]["annotations"][1]["completed_by"] = [1, 2]
    write("tools/ls_completed_by_list.json", json.dumps(bad, indent=1))
    junk = json.loads(dumps(tasks))
    junk[0]["predictions"] = [5, {"model_version": "v1", "result": "junk"}, None]
    write("tools/ls_junk_predictions.json", json.dumps(junk, indent=1))
    json_min = [
        {
            "id": t,
            "text": f"text {t}",
            "sentiment": s,
            "annotator": f"{w}@example.com",
            "annotation_id": 10 * t + k,
            "created_at": "2024-05-02T09:14:03.512Z",
            "updated_at": "2024-05-02T09:14:03.512Z",
            "lead_time": 3.5,
        }
        for t, k, w, s in [
            (1, 1, "ann", "Positive"),
            (1, 2, "bob", "Negative"),
            (2, 1, "ann", "Negative"),
            (2, 2, "bob", "Negative"),
            (3, 1, "ann", "Positive"),
        ]
    ]
    write("tools/ls_json_min.json", json.dumps(json_min, indent=1))
    csv_rows = ["text,id,sentiment,annotator,annotation_id,created_at,updated_at,lead_time"]
    csv_rows += [
        f'"{r["text"]}",{r["id"]},{r["sentiment"]},{r["annotator"]},{r["annotation_id"]},'
        f"{r['created_at']},{r['updated_at']},{r['lead_time']}"
        for r in json_min
    ]
    write("tools/ls_csv_export.csv", "\n".join(csv_rows) + "\n")

    def prodigy(text: str, h, who: str, answer: str | None, label: str = "SPORTS") -> str:
        rec = {
            "text": text,
            "_input_hash": h,
            "_task_hash": 99,
            "label": label,
            "_view_id": "classification",
            "_annotator_id": who,
            "_session_id": who,
        }
        if answer is not None:
            rec["answer"] = answer
        return dumps(rec)

    write(
        "tools/prodigy_input_hash_dict.jsonl",
        "\n".join(
            [
                prodigy("one", 101, "p-alex", "accept"),
                prodigy("one", 101, "p-bea", "reject"),
                prodigy("two", {"hash": 102}, "p-alex", "accept"),
                prodigy("two", {"hash": 102}, "p-bea", "accept"),
            ]
        )
        + "\n",
    )
    write(
        "tools/prodigy_missing_answer.jsonl",
        "\n".join(
            [
                prodigy("one", 101, "p-alex", "accept"),
                prodigy("one", 101, "p-bea", None),
                prodigy("two", 102, "p-alex", "reject"),
                prodigy("two", 102, "p-bea", "accept"),
                prodigy("three", 103, "p-alex", None),
                prodigy("three", 103, "p-bea", "accept"),
            ]
        )
        + "\n",
    )
    mturk_head = "HITId,AssignmentId,WorkerId,AssignmentStatus,Input.text,Answer.sentiment"
    mturk = [
        "H1,A11,W1,Approved,good day,positive",
        "H1,A12,W2,Approved,good day,positive",
        "H2,A21,,Approved,bad day,negative",
        "H2,A22,W2,Approved,bad day,negative",
        "H3,A31,W1,Approved,some day,neutral",
        "H3,A32,W2,Approved,some day,positive",
    ]
    write("tools/mturk_missing_workerid.csv", "\n".join([mturk_head, *mturk]) + "\n")
    write(
        "tools/mturk_no_workerid_column.csv",
        "\n".join(
            ["HITId,AssignmentId,AssignmentStatus,Input.text,Answer.sentiment"]
            + [",".join(p for k, p in enumerate(r.split(",")) if k != 2) for r in mturk]
        )
        + "\n",
    )
    toloka_head = "INPUT:text\tOUTPUT:result\tASSIGNMENT:worker_id\tASSIGNMENT:status"
    write(
        "tools/toloka_nested.tsv",
        "\n".join(
            [
                toloka_head,
                "one\tcat\tw1\tAPPROVED",
                'one\t{"label": "dog", "score": 0.9}\tw2\tAPPROVED',
                "two\tdog\tw1\tAPPROVED",
                "two\tdog\tw2\tAPPROVED",
            ]
        )
        + "\n",
    )


def main(out: Path = HERE) -> None:
    """Write every file of the corpus under ``out`` (by default beside this script)."""
    OUT[0] = Path(out)
    delimited()
    json_files()
    excel()
    parquet()
    tools()
    write("csv/hostile_name.csv", long_csv(grid(3, "ab", ["x", "y", "x"])))


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
