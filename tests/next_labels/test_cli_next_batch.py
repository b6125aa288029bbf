"""python -m analytics next-batch: the batch file in each format, JSON, bad input."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from analytics.cli import main
from tests.helpers.paths import SAMPLE_DATA

CROWD = str(SAMPLE_DATA / "crowd_intents.csv")


def test_json_and_csv_file(capsys, tmp_path):
    out_file = tmp_path / "batch.csv"
    argv = ["next-batch", CROWD, "--budget", "12", "-o", str(out_file), "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["judgements"] == len(out["batch"]) == 12
    assert out["plan"]["needed"] is not None and "per item" in out["plan"]["reason"]
    batch = pd.read_csv(out_file)
    assert batch["item"].tolist() == [row["item"] for row in out["batch"]]


@pytest.mark.parametrize(("fmt", "check"), [("label-studio", "data"), ("mturk", "assignments")])
def test_other_formats(capsys, tmp_path, fmt, check):
    out_file = tmp_path / ("batch.json" if fmt == "label-studio" else "batch.csv")
    argv = ["next-batch", CROWD, "--budget", "5", "--assign", "--as", fmt, "-o", str(out_file)]
    assert main(argv) == 0
    text = out_file.read_text(encoding="utf-8")
    assert check in text
    if fmt == "label-studio":
        assert json.loads(text)[0]["meta"]["annotators"]
    assert "written to" in capsys.readouterr().out


def test_a_batch_file_named_for_another_format_is_refused(capsys, tmp_path):
    """--as label-studio -o batch.csv had written JSON into a .csv file without a word."""
    argv = ["next-batch", CROWD, "--budget", "5", "--as", "label-studio", "-o"]
    assert main([*argv, str(tmp_path / "batch.csv")]) == 2
    err = capsys.readouterr().err
    assert "--as label-studio writes JSON, but" in err and "name it" in err
    assert "batch.json, or choose --as csv" in err
    assert not (tmp_path / "batch.csv").exists()
    assert main(["next-batch", CROWD, "--budget", "5", "-o", str(tmp_path / "b.json")]) == 2
    assert "--as csv writes CSV" in capsys.readouterr().err
    # a name that says no format is written as asked
    assert main(["next-batch", CROWD, "--budget", "5", "-o", str(tmp_path / "batch.txt")]) == 0
    assert (tmp_path / "batch.txt").read_text(encoding="utf-8").startswith("item")


def test_bad_budget_exits_2(capsys):
    assert main(["next-batch", CROWD, "--budget", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("concord: error:") and "budget must be" in err
    assert "--budget 100" in err and "budget=" not in err  # the command line's words


def test_per_annotator_limit(capsys, tmp_path):
    out_file = tmp_path / "batch.csv"
    argv = ["next-batch", CROWD, "--budget", "30", "--assign", "--per-annotator", "2"]
    assert main([*argv, "-o", str(out_file)]) == 0
    batch = pd.read_csv(out_file)
    assert len(batch) and batch["annotator"].value_counts().max() <= 2
    capsys.readouterr()
    # without --assign there is nobody named to limit: a plain error, exit 2
    assert main(["next-batch", CROWD, "--budget", "30", "--per-annotator", "2"]) == 2
    err = capsys.readouterr().err
    assert "--per-annotator limits the annotators --assign names" in err and "without" in err
    assert main(["next-batch", CROWD, "--budget", "5", "--assign", "--per-annotator", "0"]) == 2


def test_an_empty_batch_says_which_reason_applies(capsys, tmp_path):
    """Two annotators who both judged every item: nobody is left to ask, and it says so
    (it listed four possible reasons without saying which)."""
    from tests.next_labels.test_shortfall import small_crowd

    path = tmp_path / "two.csv"
    small_crowd(2).to_csv(path, index=False)
    assert main(["next-batch", str(path), "--budget", "10"]) == 0
    out = capsys.readouterr().out
    assert "0 judgements of 0 items" in out
    assert "each of the 2 annotators has already judged all 30 items" in out
    assert "bring in new annotators" in out
    assert main(["next-batch", str(path), "--budget", "10", "--json"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert len(notes) == 1 and "already judged all 30 items" in notes[0]


def test_the_plan_is_the_librarys(capsys, tmp_path):
    """Same draws and seed as plan's defaults (the page uses them too)."""
    from analytics import load_annotations
    from analytics.dawid_skene import fit
    from analytics.next_labels import plan
    from tests.next_labels.test_shortfall import small_crowd

    path = tmp_path / "four.csv"
    small_crowd(4, accuracy=0.7).to_csv(path, index=False)
    assert main(["next-batch", str(path), "--budget", "5", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)["plan"]
    want = plan(fit(load_annotations(path)), 0.95)
    assert (got["needed"], got["needed_surely"], got["reason"]) == (
        want.needed,
        want.needed_surely,
        want.reason,
    )
    pd.testing.assert_frame_equal(pd.DataFrame(got["curve"]), want.curve, check_dtype=False)
