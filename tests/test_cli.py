"""python -m analytics: commands, JSON output, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest

from analytics.cli import main
from tests.helpers.paths import DATASETS, ROOT, SAMPLE_DATA

CROWD = str(SAMPLE_DATA / "crowd_intents.csv")


def run_json(capsys, *argv) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_summary_json_is_stable(capsys):
    out = run_json(capsys, "summary", CROWD, "--json")
    assert out["concord_json_version"] == 1
    assert (out["items"], out["annotators"], out["judgements"]) == (300, 20, 1500)
    assert sorted(out["categories"]) == ["complaint", "praise", "question", "request"]
    assert set(out) >= {
        "dataset",
        "kind",
        "judgements_per_item",
        "format",
        "layout",
        "missing_labels",
        "skipped",
        "messages",
    }


def test_summary_text_and_loader_options(capsys, tmp_path):
    path = tmp_path / "odd.csv"
    path.write_text("sent,who,tag,x\ns1,a,p,1\ns1,b,q,1\n")
    assert (
        main(["summary", str(path), "--item", "sent", "--annotator", "who", "--label", "tag"]) == 0
    )
    assert "2 judgements" in capsys.readouterr().out


def test_bad_input_exits_2_with_one_line(capsys, tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("item,annotator,label\n1,a\n")
    assert main(["summary", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("concord: error:") and "bad.csv" in err and "\n" not in err


def test_noise_by_hand_reproduces_the_paper(capsys):
    out = run_json(capsys, "noise", "--n", "1000", "--d", "100", "--p", "0.5", "--json")
    assert out["t0"] == 225 and out["hidden_hard"] == 125
    assert out["gamma"] == pytest.approx(125 / 900)


def test_noise_usage_errors(capsys):
    assert main(["noise", "--n", "10"]) == 2
    assert main(["noise"]) == 2
    assert "concord: error" in capsys.readouterr().err


def test_noise_from_file(capsys):
    out = run_json(capsys, "noise", CROWD, "--json")
    assert out["n_items"] > 0 and 0 <= out["gamma"] <= 1


def test_agreement_json(capsys):
    out = run_json(capsys, "agreement", CROWD, "--json", "--bootstrap", "0")
    names = [c["coefficient"] for c in out["coefficients"]]
    assert any("Krippendorff" in n for n in names) and any("Fleiss" in n for n in names)
    assert all(
        set(c) >= {"value", "ci_low", "ci_high", "ci_method", "items_used", "note"}
        for c in out["coefficients"]
    )
    fleiss = next(c for c in out["coefficients"] if c["coefficient"] == "Fleiss' kappa")
    assert fleiss["se"] > 0 and 0 <= fleiss["p_value"] <= 1 and "Gwet" in fleiss["se_method"]
    # --population: the finite-population correction shrinks the analytic SE
    small = run_json(
        capsys, "agreement", CROWD, "--json", "--bootstrap", "0", "--population", "400"
    )
    fleiss_fpc = next(c for c in small["coefficients"] if c["coefficient"] == "Fleiss' kappa")
    assert fleiss_fpc["se"] < fleiss["se"] and "N=400" in fleiss_fpc["se_method"]


def test_dawid_skene_writes_gold(capsys, tmp_path):
    out_file = tmp_path / "gold.csv"
    out = run_json(capsys, "dawid-skene", CROWD, "--out", str(out_file), "--json")
    assert out["converged"] is True and abs(sum(out["prevalence"].values()) - 1) < 1e-9
    gold = pd.read_csv(out_file)
    assert len(gold) == 300 and {"item", "label", "confidence"} <= set(gold.columns)
    # the file is the model's labels; ``gold_file`` stays as its older name (JSON stability)
    assert out["labels_file"] == out["gold_file"] == str(out_file)


TRUTH = str(SAMPLE_DATA / "crowd_intents_truth.csv")


def test_dawid_skene_gold_reports_accuracy_against_known_gold(capsys):
    out = run_json(capsys, "dawid-skene", CROWD, "--gold", TRUTH, "--json")
    known = out["known_gold"]
    assert known["file"] == TRUTH and known["clamped_items"] == 0 and known["reason"] is None
    acc = {r["method"]: r for r in known["accuracy"]}
    assert set(acc) == {"majority vote", "Dawid-Skene"}
    assert acc["Dawid-Skene"]["items"] == 300 and 0.9 < acc["Dawid-Skene"]["accuracy"] <= 1
    assert main(["dawid-skene", CROWD, "--gold", TRUTH]) == 0
    text = capsys.readouterr().out
    assert "against the known gold labels" in text and "Dawid-Skene: " in text


def test_dawid_skene_clamp_fixes_the_gold_items(capsys, tmp_path):
    half = tmp_path / "half.csv"
    pd.read_csv(TRUTH, dtype=str).iloc[::2].to_csv(half, index=False)
    out_file = tmp_path / "labels.csv"
    argv = ["dawid-skene", CROWD, "--gold", str(half), "--clamp", "--out", str(out_file)]
    out = run_json(capsys, *argv, "--json")
    assert out["known_gold"]["clamped_items"] == 150
    labels = pd.read_csv(out_file)
    assert labels["clamped"].sum() == 150
    # the clamped items are left out of the accuracy, and they are all the gold there
    # is: nothing left to score, which is said rather than failing the command
    assert out["known_gold"]["accuracy"] is None and "no item" in out["known_gold"]["reason"]
    assert main(argv) == 0
    assert "not computed" in capsys.readouterr().out


def test_dawid_skene_gold_errors_exit_2(capsys, tmp_path):
    assert main(["dawid-skene", CROWD, "--clamp"]) == 2
    assert "--clamp needs --gold" in capsys.readouterr().err
    bad = tmp_path / "bad.csv"
    bad.write_text("item,label\nmsg001,question\nmsg001,praise\n", encoding="utf-8")
    assert main(["dawid-skene", CROWD, "--gold", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.csv" in err and "more than one gold label" in err
    assert main(["dawid-skene", CROWD, "--gold", str(tmp_path / "nope.csv")]) == 2


def test_report_command_writes_html(tmp_path):
    target = tmp_path / "report.html"
    assert main(["report", CROWD, "-o", str(target)]) == 0
    html = target.read_text(encoding="utf-8")
    assert "<html" in html.lower() and "crowd_intents.csv" in html


def test_module_entry_point_runs():
    proc = subprocess.run(
        [sys.executable, "-m", "analytics", "summary", CROWD],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and "300 items" in proc.stdout


def test_a_reader_that_stops_early_is_not_an_error():
    """`concord ... | head -1`: the closed pipe ends the command quietly, with exit code 0."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "analytics",
            "dawid-skene",
            str(DATASETS / "snow_rte" / "labels.csv"),
            "--json",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout.read(1) == b"{"
    proc.stdout.close()  # the JSON is larger than the pipe's buffer: the writer hits a closed pipe
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert b"error" not in err


def test_unwritable_output_exits_2(capsys, tmp_path):
    assert main(["report", CROWD, "-o", str(tmp_path / "missing" / "r.html")]) == 2
    assert main(["dawid-skene", CROWD, "--out", str(tmp_path / "missing" / "g.csv")]) == 2
    err = capsys.readouterr().err
    assert err.count("concord: error: cannot write") == 2


def test_categories_option_declares_an_ordinal_order(capsys, tmp_path):
    path = tmp_path / "ord.csv"
    rows = ["item,annotator,label"] + [
        f"{i},{a},{v}"
        for i, (x, y) in enumerate(
            [("medium", "high"), ("low", "low"), ("high", "high"), ("low", "medium")] * 5
        )
        for a, v in (("a", x), ("b", y))
    ]
    path.write_text("\n".join(rows) + "\n")
    first_seen = run_json(
        capsys, "agreement", str(path), "--kind", "ordinal", "--bootstrap", "0", "--json"
    )
    declared = run_json(
        capsys,
        "agreement",
        str(path),
        "--kind",
        "ordinal",
        "--categories",
        "low,medium,high",
        "--bootstrap",
        "0",
        "--json",
    )

    def alpha(out):
        return next(c for c in out["coefficients"] if "alpha (ordinal)" in c["coefficient"])

    assert (
        "NOT declared" in alpha(first_seen)["note"] and "declared order" in alpha(declared)["note"]
    )
    assert alpha(first_seen)["value"] != pytest.approx(alpha(declared)["value"])


def test_bad_tool_option_syntax(capsys):
    assert main(["summary", CROWD, "--tool-option", "no_equals_sign"]) == 2
    assert "KEY=VALUE" in capsys.readouterr().err
