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
