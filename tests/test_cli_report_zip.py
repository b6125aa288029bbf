"""``report -o NAME --zip``: the output name and its format agree (issue 17, point 7)."""

from __future__ import annotations

import zipfile

from analytics.cli import main
from tests.helpers.paths import SAMPLE_DATA

CROWD = str(SAMPLE_DATA / "crowd_intents.csv")


def test_zip_into_an_html_name_is_refused_before_any_work(tmp_path, capsys):
    target = tmp_path / "x.html"
    assert main(["report", CROWD, "-o", str(target), "--zip"]) == 2
    err = capsys.readouterr().err
    assert "does not end in .zip" in err and "x.zip" in err
    assert not target.exists()


def test_zip_name_gives_a_zip_and_says_so(tmp_path, capsys):
    target = tmp_path / "x.zip"
    assert main(["report", CROWD, "-o", str(target), "--zip", "--title", "t"]) == 0
    assert "zip (report.html and every table as CSV) written to" in capsys.readouterr().out
    with zipfile.ZipFile(target) as zf:
        assert "report.html" in zf.namelist()


def test_html_name_gives_html_and_says_so(tmp_path, capsys):
    target = tmp_path / "x.html"
    assert main(["report", CROWD, "-o", str(target)]) == 0
    assert "HTML report written to" in capsys.readouterr().out
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_another_extension_is_refused_before_any_work(tmp_path, capsys):
    """'-o x.pdf' wrote HTML into x.pdf and exited 0."""
    target = tmp_path / "x.pdf"
    assert main(["report", CROWD, "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert "x.html" in err and "x.zip" in err and not target.exists()


def test_zip_tables_read_back_without_row_numbers_and_are_readable(tmp_path, capsys):
    """Five CSVs began with the frame's row numbers ('Unnamed: 0' read back); entries were
    0600, so unzipped files were the owner's alone; the summary's counts read as text."""
    import io

    import pandas as pd

    target = tmp_path / "x.zip"
    assert main(["report", CROWD, "-o", str(target), "--bootstrap", "50"]) == 0
    with zipfile.ZipFile(target) as zf:
        for info in zf.infolist():
            assert (info.external_attr >> 16) & 0o777 == 0o644, info.filename
            if info.filename.endswith(".csv"):
                table = pd.read_csv(io.BytesIO(zf.read(info)))
                assert not any(str(c).startswith("Unnamed") for c in table.columns), info.filename
        summary = next(n for n in zf.namelist() if "summary" in n and n.endswith(".csv"))
        values = pd.read_csv(io.BytesIO(zf.read(summary))).set_index("measure")["value"]
        assert values["judgements"] == "1500"


def test_report_bootstrap_option_reaches_the_intervals(tmp_path):
    target = tmp_path / "x.html"
    assert main(["report", CROWD, "-o", str(target), "--bootstrap", "0"]) == 0
    html = target.read_text(encoding="utf-8")
    assert "bootstrap over items" not in html
