"""``--engine`` on the command line: the same JSON from DuckDB as from memory (issue 18)."""

from __future__ import annotations

import json

import pytest

from analytics import cli, cli_input
from analytics.cli import main
from analytics.engines import scale
from tests.engines.test_duckdb_agreement import random_frame

pytest.importorskip("duckdb")


def run_json(capsys, *argv) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture
def parquet(tmp_path):
    path = tmp_path / "j.parquet"
    random_frame(4, 80, 4, 3, 0.2).to_parquet(path)
    return str(path)


def test_agreement_noise_and_dawid_skene_agree_across_engines(capsys, parquet):
    for command in (["agreement", "--bootstrap", "0"], ["noise"], ["dawid-skene"]):
        mem = run_json(capsys, *command, parquet, "--json", "--engine", "memory")
        duck = run_json(capsys, *command, parquet, "--json", "--engine", "duckdb")
        if command[0] == "agreement":
            for a, b in zip(mem["coefficients"], duck["coefficients"], strict=True):
                assert a["coefficient"] == b["coefficient"]
                assert a["value"] == pytest.approx(b["value"], abs=1e-9)
        elif command[0] == "noise":
            assert (duck["n_items"], duck["n_disagreed"]) == (mem["n_items"], mem["n_disagreed"])
            assert duck["gamma"] == pytest.approx(mem["gamma"], abs=1e-9)
        else:
            assert duck["n_iter"] == mem["n_iter"]
            assert duck["log_likelihood"] == pytest.approx(mem["log_likelihood"], abs=1e-9)


def test_auto_picks_duckdb_for_big_files_only(parquet, monkeypatch):
    args = cli.build_parser().parse_args(["agreement", parquet])
    assert cli_input.engine_of(args) == "memory"
    monkeypatch.setattr(scale, "ENGINE_THRESHOLD_BYTES", 1)  # one rule, shared with the app
    assert cli_input.engine_of(args) == "duckdb"


def test_memory_only_options_are_refused_on_an_engine(capsys, parquet):
    assert main(["agreement", parquet, "--engine", "duckdb", "--layout", "long"]) == 2
    assert "--layout" in capsys.readouterr().err


def test_dawid_skene_on_an_engine_says_its_labels_are_a_sample(capsys, tmp_path):
    """The engine brings back the posteriors of the first 10,000 items: the text said "the
    first 20 of 10,000 items (--out FILE writes all)" of 12,000, and --out wrote 10,000
    rows as "the model's labels"; every count now says which items it covers."""
    import numpy as np
    import pandas as pd

    n = 12_000
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {
            "item": np.repeat([f"i{i:05d}" for i in range(n)], 2),
            "annotator": np.tile(["a", "b"], n),
            "label": rng.choice(["x", "y"], 2 * n),
        }
    )
    path = tmp_path / "big.parquet"
    frame.to_parquet(path)
    assert main(["dawid-skene", str(path), "--engine", "duckdb"]) == 0
    text = capsys.readouterr().out
    kept = "the duckdb engine brings back the first 10,000 of 12,000 items"
    assert f"the first 20 of 12,000 items ({kept}):" in text
    assert "items with posterior >= 0.99 of the first 10,000 items" in text
    out = tmp_path / "labels.csv"
    assert main(["dawid-skene", str(path), "--engine", "duckdb", "--out", str(out)]) == 0
    assert f"({kept}: those only)" in capsys.readouterr().out
    assert len(pd.read_csv(out)) == 10_000
    payload = run_json(capsys, "dawid-skene", str(path), "--engine", "duckdb", "--json")
    assert (payload["items"], payload["items_with_labels"]) == (n, 10_000)


def test_auto_sends_a_folder_of_parquet_files_to_duckdb(capsys, tmp_path):
    """The memory loader reads files, not folders: --engine auto (the default) had sent a
    folder there and failed with "this is a folder, not a file"."""
    folder = tmp_path / "parts"
    folder.mkdir()
    frame = random_frame(4, 80, 4, 3, 0.2)
    frame.iloc[:150].to_parquet(folder / "a.parquet")
    frame.iloc[150:].to_parquet(folder / "b.parquet")
    out = run_json(capsys, "agreement", str(folder), "--bootstrap", "0", "--json")
    single = tmp_path / "all.parquet"
    frame.to_parquet(single)
    same = run_json(
        capsys, "agreement", str(single), "--engine", "duckdb", "--bootstrap", "0", "--json"
    )
    assert [c["value"] for c in out["coefficients"]] == pytest.approx(
        [c["value"] for c in same["coefficients"]], nan_ok=True
    )


def test_engine_errors_name_the_command_lines_options(capsys, tmp_path):
    """A library hint ("Name it with item=...") read wrongly on the command line."""
    frame = random_frame(4, 20, 3, 3, 0.0).rename(columns={"item": "thing"})
    path = tmp_path / "x.parquet"
    frame.to_parquet(path)
    assert main(["agreement", str(path), "--engine", "duckdb", "--bootstrap", "0"]) == 2
    err = capsys.readouterr().err
    assert "Name it with --item COLUMN" in err and "item=..." not in err
    assert err.count("\n") == 1  # one line


def test_weights_refused_on_an_engine_say_which_option_to_leave_out(capsys, parquet):
    assert main(["agreement", parquet, "--engine", "duckdb", "--weights", "linear"]) == 2
    err = capsys.readouterr().err
    assert "Leave out --weights" in err and "weights=None" not in err
