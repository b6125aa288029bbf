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


@pytest.mark.parametrize("content", ["", "\n\n   \n"])
def test_an_empty_file_gets_a_hint_in_the_command_lines_words(capsys, tmp_path, content):
    # the hint is the library's, read in a terminal too: no "Upload" (the app's wording)
    path = tmp_path / "empty.csv"
    path.write_text(content)
    assert main(["summary", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith(
        "file 'empty.csv': the file is empty. Give a file with a header row and data rows."
    ), err
    assert "Upload" not in err


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


def test_dawid_skene_param_tol_waits_for_the_parameters(capsys):
    loose = run_json(capsys, "dawid-skene", CROWD, "--json", "--tol", "1e-3")
    strict = run_json(
        capsys, "dawid-skene", CROWD, "--json", "--tol", "1e-3", "--param-tol", "1e-6"
    )
    # the parameter criterion keeps EM going after the log-likelihood rule alone would stop
    assert strict["n_iter"] > loose["n_iter"]
    assert strict["converged"] is True and strict["parameter_change"] < 1e-6


def test_dawid_skene_param_tol_refuses_nonsense(capsys):
    assert main(["dawid-skene", CROWD, "--param-tol", "-1"]) == 2
    assert "param_tol" in capsys.readouterr().err


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
    assert out["known_gold"]["accuracy"] is None and "were clamped" in out["known_gold"]["reason"]
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


def test_limit_option_raises_and_lowers_the_loader_limits(capsys, tmp_path):
    path = tmp_path / "small.csv"
    path.write_text("item,annotator,label\n1,a,x\n1,b,y\n2,a,x\n2,b,x\n")
    assert main(["summary", str(path), "--limit", "max_cells=4"]) == 2
    assert "18 cells, over the limit max_cells=4" in capsys.readouterr().err
    assert main(["summary", str(path), "--limit", "max_bytes=10"]) == 2
    err = capsys.readouterr().err
    assert "45 bytes, over the limit max_bytes=10" in err
    assert "--limit max_bytes=..." in err  # the error says how to raise it here
    assert main(["summary", str(path), "--limit", "max_bytes=1K", "--limit", "max_depth=2"]) == 0


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["--limit", "max_cels=3"], "NAME one of max_bytes"),
        (["--limit", "max_cells"], "NAME=VALUE"),
        (["--limit", "max_cells=-1"], "positive whole number"),
        (["--limit", "max_cells=many"], "positive whole number"),
        (["--memory-budget", "lots"], "memory budget must be a number of bytes"),
    ],
)
def test_resource_option_errors_exit_2(capsys, args, match):
    assert main(["summary", str(SAMPLE_DATA / "crowd_intents.csv"), *args]) == 2
    err = capsys.readouterr().err
    assert match in err and err.count("\n") == 1


def test_memory_budget_option_holds_the_analysis_to_it(capsys, tmp_path):
    """300 annotators' 20 x 20 confusion matrices do not fit 1 MiB: refused, as in Python."""
    rows = [f"i{i},a{a},c{(a + i) % 20}" for i in range(2) for a in range(300)]
    path = tmp_path / "crowd.csv"
    path.write_text("item,annotator,label\n" + "\n".join(rows) + "\n")
    assert main(["dawid-skene", str(path), "--memory-budget", "1M"]) == 2
    assert "memory budget" in capsys.readouterr().err
    assert main(["dawid-skene", str(path), "--memory-budget", "1G", "--json"]) == 0


# irrCAC README (R, github.com/kgwet/irrCAC): distrib.6raters -> fleiss.kappa.dist 0.4139265,
# gwet.ac1.dist 0.4448007; cont3x3abstractors -> kappa2.table 0.7964094.
DISTRIB_6RATERS_CSV = """subject,Depression,Personality.Disorder,Schizophrenia,Neurosis,Other
1,0,0,0,6,0
2,0,3,0,0,3
3,0,1,4,0,1
4,0,0,0,0,6
5,0,3,0,3,0
6,2,0,4,0,0
7,0,0,4,0,2
8,2,0,3,1,0
9,2,0,0,4,0
10,0,0,0,0,6
11,1,0,0,5,0
12,1,1,0,4,0
13,0,3,3,0,0
14,1,0,0,5,0
15,0,2,0,3,1
"""


def coefficient_values(out: dict) -> dict:
    return {row["coefficient"]: row["value"] for row in out["coefficients"]}


def test_agreement_reads_count_and_contingency_tables(capsys, tmp_path):
    counts = tmp_path / "distrib.csv"
    counts.write_text(DISTRIB_6RATERS_CSV)
    out = run_json(capsys, "agreement", str(counts), "--layout", "counts", "--json",
                   "--bootstrap", "0")  # fmt: skip
    values = coefficient_values(out)
    assert round(values["Fleiss' kappa"], 7) == 0.4139265
    assert round(values["Gwet's AC1"], 7) == 0.4448007
    assert values["Conger's kappa"] is None  # anonymous raters: undefined, with a note
    table = tmp_path / "cont.csv"
    table.write_text("abstractor 1,Ectopic,AIU,NIU\nEctopic,13,0,0\nAIU,0,20,7\nNIU,0,4,56\n")
    out = run_json(capsys, "agreement", str(table), "--layout", "contingency", "--json",
                   "--bootstrap", "0")  # fmt: skip
    assert round(coefficient_values(out)["Cohen's kappa"], 7) == 0.7964094


def test_agreement_takes_fractional_counts(capsys, tmp_path):
    from statsmodels.stats.inter_rater import fleiss_kappa

    rows = [[1.5, 0.5], [0.0, 2.0], [2.0, 0.0], [0.5, 1.5]]
    path = tmp_path / "fractional.csv"
    path.write_text("a,b\n" + "".join(f"{x},{y}\n" for x, y in rows))
    out = run_json(capsys, "agreement", str(path), "--layout", "counts", "--json")
    assert coefficient_values(out)["Fleiss' kappa"] == pytest.approx(fleiss_kappa(rows))
    assert main(["summary", str(path), "--layout", "counts"]) == 2  # no judgements to list
    assert "count_table_agreement" in capsys.readouterr().err


def test_agreement_weights_option(capsys):
    path = str(SAMPLE_DATA / "ratings_ordinal_wide.csv")
    assert main(["agreement", path, "--bootstrap", "0", "--weights", "linear", "--json"]) == 0
    names = [c["coefficient"] for c in json.loads(capsys.readouterr().out)["coefficients"]]
    assert "Gwet's AC2 (linear weights)" in names and "Cohen's kappa (linear weights)" in names
    with pytest.raises(SystemExit):  # argparse refuses an unknown family
        main(["agreement", path, "--weights", "heavy"])


def test_agreement_text_fits_a_terminal_and_writes_each_sentence_once(capsys):
    """The text table keeps the numbers; methods and notes go beneath it, once each."""
    path = str(SAMPLE_DATA / "ratings_ordinal_wide.csv")
    assert main(["agreement", path, "--bootstrap", "0"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    table = lines[2 : lines.index("")]
    assert table[0].split()[:2] == ["coefficient", "value"]
    assert max(len(line) for line in table) <= 110  # was about 400 characters
    assert max(len(line) for line in lines[lines.index("") :]) <= 100
    report = run_json(capsys, "agreement", path, "--bootstrap", "0", "--json")["coefficients"]
    for row, line in zip(report, table[1:], strict=True):
        assert line.startswith(row["coefficient"])
        assert f"{row['value']:.3f}" in line
    # the same note on four rows is written once, and every number it is cited by exists
    assert out.count("observed agreement averaged over the 200 items") == 1
    cited = {word for line in table for word in line.split() if word.startswith("[")}
    assert cited == {f"[{i}]" for i in range(1, len(cited) + 1)}
    assert any(line.startswith("Verdict (Krippendorff's alpha") for line in lines)


def test_one_note_for_six_coefficients_undefined_for_the_same_reason(capsys):
    """Multi-label data: six notes that differed only by the row's own name are one."""
    assert main(["agreement", str(SAMPLE_DATA / "affect_multilabel.csv"), "--bootstrap", "0"]) == 0
    out = capsys.readouterr().out
    assert out.count("defined for single-label data only") == 1
    assert sum(line.rstrip().endswith("[1]") for line in out.splitlines()) == 6


def test_dawid_skene_and_next_batch_text_tables_fit_and_never_round_to_certainty(capsys):
    assert main(["dawid-skene", CROWD]) == 0
    out = capsys.readouterr().out.splitlines()
    table = out[out.index("the first 20 of 300 items (--out FILE writes all):") + 1 :]
    assert max(map(len, table)) <= 120
    assert table[0].split()[:3] == ["item", "label", "confidence"]
    # a posterior of 0.99965 is not shown as 1.000, nor 3e-4 as 0.000
    assert "> 0.999" in table[1] and "1.000" not in "\n".join(table)
    assert main(["next-batch", CROWD, "--budget", "30", "--assign"]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("item"))
    assert lines[head].split() == [
        "item",
        "annotator",
        "current_confidence",
        "expected_gain",
        "expected_confidence",
    ]
    assert max(map(len, lines[head:])) <= 120


def test_agreement_text_never_prints_alpha_onto_its_threshold(capsys, tmp_path):
    """Alpha = 2/3 is bad (below 0.667): the table printed it as 0.667."""
    path = tmp_path / "two_thirds.csv"
    rows = [(1, "a", "x"), (1, "b", "y"), (2, "a", "x"), (2, "b", "x")]
    rows += [(3, "a", "y"), (3, "b", "y"), (4, "a", "z"), (4, "b", "z")]
    path.write_text("item,annotator,label\n" + "".join(f"{i},{a},{lab}\n" for i, a, lab in rows))
    alpha = run_json(capsys, "agreement", str(path), "--bootstrap", "0", "--json")
    value = next(r["value"] for r in alpha["coefficients"] if r["coefficient"].startswith("Kri"))
    assert value == pytest.approx(2 / 3)
    assert main(["agreement", str(path), "--bootstrap", "0"]) == 0
    row = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("Kripp"))
    assert row.split()[3] == "0.6667"


def test_two_roles_naming_one_column_are_refused_in_the_command_lines_words(capsys, tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("item,annotator,label\ni1,a,x\ni1,b,y\n")
    assert main(["summary", str(path), "--item", "item", "--annotator", "item"]) == 2
    err = capsys.readouterr().err
    assert "--item and --annotator name the same column" in err and "item=" not in err


def test_next_batch_format_without_a_file_is_refused(capsys):
    """--as label-studio without -o had printed the plain table and exited 0."""
    path = str(SAMPLE_DATA / "crowd_intents.csv")
    assert main(["next-batch", path, "--budget", "3", "--as", "label-studio"]) == 2
    assert "add -o FILE" in capsys.readouterr().err


def test_a_bad_duckdb_memory_limit_is_a_one_line_error(capsys, tmp_path):
    pytest.importorskip("duckdb")
    parquet = tmp_path / "j.parquet"
    pd.read_csv(SAMPLE_DATA / "crowd_intents.csv").to_parquet(parquet)
    code = main(["agreement", str(parquet), "--engine", "duckdb", "--memory-limit", "xyz"])
    assert code == 2 and "DuckDB refused the settings" in capsys.readouterr().err


def test_temp_directory_reaches_duckdb_and_its_word_is_the_options(capsys, tmp_path, monkeypatch):
    """--temp-directory is DuckDB's spill folder; the library's 'temp_directory' in a
    message reads as the option it is on the command line."""
    pytest.importorskip("duckdb")
    import analytics.engines.loading as engine_loading
    from analytics.cli_input import cli_words

    parquet = tmp_path / "j.parquet"
    pd.read_csv(SAMPLE_DATA / "crowd_intents.csv").to_parquet(parquet)
    seen = []
    runner = engine_loading.DuckRunner

    def recording(memory_limit, temp_directory, threads):
        seen.append(temp_directory)
        return runner(memory_limit, temp_directory, threads)

    monkeypatch.setattr(engine_loading, "DuckRunner", recording)
    spill = str(tmp_path / "spill")
    args = ["agreement", str(parquet), "--engine", "duckdb", "--temp-directory", spill]
    assert main([*args, "--bootstrap", "0"]) == 0
    assert seen == [spill]
    words = cli_words("Raise memory_limit, or point temp_directory at a disk with room.")
    assert words == "Raise --memory-limit, or point --temp-directory at a disk with room."


def test_duckdb_settings_on_spark_are_refused_not_dropped():
    from analytics import AnnotationDataError, load_annotations

    frame = pd.read_csv(SAMPLE_DATA / "crowd_intents.csv")
    with pytest.raises(AnnotationDataError, match="memory_limit, threads are settings of DuckDB"):
        load_annotations(frame, engine="spark", memory_limit="3GB", threads=2)
    with pytest.raises(AnnotationDataError, match="temp_directory is a setting of DuckDB"):
        load_annotations(frame, engine="spark", temp_directory="/tmp")


def test_the_agreement_verdict_judges_the_reports_own_distance(capsys):
    # ordinal ratings: the report's alpha is ordinal (0.604); the verdict had judged the
    # nominal row (0.230) printed above it, where the Overview and the HTML judge 0.604
    assert (
        main(
            [
                "agreement",
                str(SAMPLE_DATA / "ratings_ordinal_wide.csv"),
                "--kind",
                "ordinal",
                "--bootstrap",
                "0",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    verdict = [line for line in out.splitlines() if line.startswith("Verdict")]
    assert verdict and "ordinal" in verdict[0] and "nominal" not in verdict[0]


def test_a_wrong_option_is_one_line_with_where_to_look(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["agreement", CROWD, "--bootstrap", "1e3"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "usage:" not in err
    assert err.startswith("concord: error: argument --bootstrap") and "agreement --help" in err


def test_a_gold_label_that_is_no_category_is_said_not_only_counted(capsys, tmp_path):
    gold = tmp_path / "gold.csv"
    gold.write_text("item,label\nmsg001,banana\nmsg002,question\n", encoding="utf-8")
    assert main(["dawid-skene", CROWD, "--gold", str(gold)]) == 0
    out = capsys.readouterr().out
    assert "note: 1 gold label ('banana') is not among the categories" in out


def test_dawid_skene_text_summarises_the_annotators(capsys):
    """The text output names the spread of the model's accuracy estimates and the least
    accurate annotators, the same numbers --json gives per annotator."""
    assert main(["dawid-skene", CROWD]) == 0
    text = capsys.readouterr().out.splitlines()
    spread = next(line for line in text if line.startswith("20 annotators;"))
    least = next(line for line in text if line.startswith("least accurate: "))
    rows = pd.DataFrame(run_json(capsys, "dawid-skene", CROWD, "--json")["annotators"])
    acc = rows.set_index("annotator")["accuracy"].sort_values(kind="stable")
    assert f"median {acc.median():.3f}" in spread
    assert f"lowest {acc.min():.3f}" in spread and f"highest {acc.max():.3f}" in spread
    a = acc.index[0]
    n = int(rows.set_index("annotator").at[a, "judgements"])
    assert least.startswith(f"least accurate: '{a}' {acc.iloc[0]:.3f} ({n} judgements), ")
    assert least.count("judgements)") == 3


def test_annotator_lines_without_estimates_and_with_few_annotators():
    from analytics.cli_tables import annotator_lines

    table = pd.DataFrame(
        {"judgements": [1, 2], "accuracy": [float("nan")] * 2}, index=pd.Index(["a", "b"])
    )
    assert annotator_lines(table) == [
        "2 annotators: no accuracy could be estimated (see --json for the reasons)"
    ]
    table["accuracy"] = [0.9, 0.5]
    lines = annotator_lines(table)  # two annotators: the spread says it all
    assert lines == [
        "2 annotators; the model's estimate of their accuracy: median 0.700 "
        "(lowest 0.500, highest 0.900)"
    ]


def test_summary_counts_one_category_in_the_singular(capsys, tmp_path):
    path = tmp_path / "one.csv"
    path.write_text("item,annotator,label\ni1,a,x\ni1,b,x\ni2,a,x\n", encoding="utf-8")
    assert main(["summary", str(path)]) == 0
    assert "1 category (nominal): x" in capsys.readouterr().out


def test_dawid_skene_shows_the_fits_notes_as_gold_labels_does(capsys, tmp_path):
    # one annotator: the model cannot be identified, and says so; the command said nothing
    from analytics import load_annotations
    from analytics.dawid_skene import fit

    path = tmp_path / "one_annotator.csv"
    path.write_text("item,annotator,label\ni1,a,x\ni2,a,y\ni3,a,x\n")
    expected = [str(n) for n in fit(load_annotations(path)).notes]
    assert any("only one annotator" in n for n in expected)
    assert run_json(capsys, "dawid-skene", str(path), "--json")["notes"] == expected
    assert main(["dawid-skene", str(path)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert all(f"note: {' '.join(n.split())}" in text for n in expected)


def test_running_out_of_memory_is_one_line_not_a_traceback(capsys, monkeypatch):
    import analytics.noise

    def no_memory(*args, **kwargs):
        raise MemoryError("Unable to allocate 7.28 TiB")

    monkeypatch.setattr(analytics.noise, "noise_bound", no_memory)
    assert main(["noise", "--n", "1000", "--d", "5", "--p", "0.5"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("concord: error: not enough memory") and "\n" not in err
    assert "7.28 TiB" in err


def test_a_huge_smoothing_is_one_line_with_no_numpy_warnings(capsys):
    assert main(["dawid-skene", CROWD, "--smoothing", "1e308"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert err.startswith("concord: error: smoothing must be a number from 0 to 1e12")
    assert "\n" not in err and "Warning" not in err


def test_gold_accuracy_is_rounded_as_the_report_rounds_it(capsys):
    # 742/800 = 0.9275 is stored just below the tie: the report read 92.7%, the CLI 92.8%
    from analytics import format_percent

    assert format_percent(742 / 800) == "92.7%"
    gold = str(SAMPLE_DATA / "rte_snow2008_gold.csv")
    assert main(["dawid-skene", str(SAMPLE_DATA / "rte_snow2008.csv"), "--gold", gold]) == 0
    assert "Dawid-Skene: 92.7% right" in capsys.readouterr().out


def test_numpy_warnings_do_not_stand_above_the_one_line_error(tmp_path):
    # counts of 1e308 overflow while the loader sizes the table: two lines of numpy's
    # RuntimeWarning with its source line had come before "concord: error: ..."
    path = tmp_path / "huge.csv"
    path.write_text("item,a,b\n1,1e308,1e308\n2,1e308,0\n")
    proc = subprocess.run(
        [sys.executable, "-m", "analytics", "agreement", str(path), "--layout", "counts"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("concord: error:") and proc.stderr.count("\n") == 1
    assert "RuntimeWarning" not in proc.stderr


def test_a_numeric_warning_of_a_command_that_succeeds_is_one_line(capsys, monkeypatch):
    import warnings

    import analytics.cli as cli

    def warns(args):
        warnings.warn("overflow encountered in reduce", RuntimeWarning, stacklevel=1)
        warnings.warn("overflow encountered in reduce", RuntimeWarning, stacklevel=1)
        print("done")

    monkeypatch.setattr(cli, "cmd_summary", warns)
    assert main(["summary", CROWD]) == 0
    captured = capsys.readouterr()
    assert captured.out == "done\n"
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("concord: warning: overflow encountered")


def test_repeated_judgements_hint_names_the_duplicates_option(capsys):
    assert main(["summary", str(SAMPLE_DATA / "news_spans.csv")]) == 2
    err = capsys.readouterr().err
    assert "--duplicates first|last|keep" in err and "'first', 'last' or 'keep'" not in err


def test_an_unwritable_out_file_is_named_in_the_error(capsys, tmp_path, monkeypatch):
    import pathlib

    def broken(self, *args, **kwargs):
        raise OSError(5, "Input/output error")  # as writing /proc/version does

    monkeypatch.setattr(pathlib.Path, "write_text", broken)
    out = tmp_path / "labels.csv"
    assert main(["dawid-skene", CROWD, "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"concord: error: cannot write {out}: Input/output error"


def test_sheet_on_a_file_that_is_no_workbook_is_refused(capsys, tmp_path):
    assert main(["summary", CROWD, "--sheet", "2"]) == 2
    assert "--sheet chooses a sheet of an Excel workbook" in capsys.readouterr().err
    counts = tmp_path / "counts.csv"
    counts.write_text("item,a,b\n1,0.5,1.5\n2,2,0\n")
    assert main(["agreement", str(counts), "--layout", "counts", "--sheet", "1"]) == 2
    assert "read as csv" in capsys.readouterr().err


def test_a_census_has_an_exact_interval_and_the_bootstrap_says_it_ignores_n(capsys):
    # N = n: SE 0 "analytic" beside "no analytic standard error: undefined here"
    out = run_json(capsys, "agreement", CROWD, "--bootstrap", "0", "--population", "300", "--json")
    rows = {r["coefficient"]: r for r in out["coefficients"]}
    fleiss = rows["Fleiss' kappa"]
    assert fleiss["se"] == 0.0 and fleiss["ci_low"] == fleiss["ci_high"] == fleiss["value"]
    assert "census" in fleiss["ci_method"] and "census" in fleiss["se_method"]
    assert "no analytic standard error" not in fleiss["ci_method"]
    out = run_json(capsys, "agreement", CROWD, "--bootstrap", "50", "--population", "300", "--json")
    fleiss = {r["coefficient"]: r for r in out["coefficients"]}["Fleiss' kappa"]
    assert fleiss["ci_method"].startswith("bootstrap")
    assert "ignores the finite-population correction N=300" in fleiss["ci_method"]
