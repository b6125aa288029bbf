"""The hostile-input corpus: every file in tests/data/hostile/ meets its expected outcome.

Each case of ``expected.json`` is loaded through ``load_annotations``. An ``error`` case
must raise AnnotationDataError naming the file, the place (rows, column, sheet, field) and
how to fix it, in plain words, never a wrapped Python exception; a ``load`` case must load
with the expected facts and a report that accounts for every row. Anything else (a
TypeError, a RecursionError, a MemoryError, a hang) fails. The expectations come from
issue 13, not from what the loader did when they were written.
"""

from __future__ import annotations

import importlib.util
import io
import json
import re
import zipfile

import pytest

from tests.helpers.hostile import (
    HOSTILE,
    MANIFEST,
    WRAPPED_EXCEPTION,
    Case,
    Outcome,
    cases,
    error_problems,
    load_problems,
    run_case,
)

_OUTCOMES: dict[str, Outcome] = {}


def outcome(c: Case) -> Outcome:
    """Each case is loaded once per process, however many tests look at it."""
    if c.id not in _OUTCOMES:
        _OUTCOMES[c.id] = run_case(c)
    return _OUTCOMES[c.id]


ERRORS = [c for c in cases() if c.outcome == "error"]
LOADS = [c for c in cases() if c.outcome == "load"]
EITHER = [c for c in cases() if c.outcome == "either"]
MAY_FAIL = ERRORS + EITHER


def ids(cs: list[Case]) -> list[str]:
    return [c.id for c in cs]


def corpus_files() -> list:
    return sorted(
        p
        for p in HOSTILE.rglob("*")
        if p.is_file()
        and p.suffix not in (".py", ".pyc")
        and "__pycache__" not in p.parts
        and p != MANIFEST
    )


# ------------------------------------------------------------------ the corpus itself
def test_the_corpus_covers_every_format_and_tool_export():
    files = corpus_files()
    assert len(files) >= 60
    assert {c.file for c in cases()} == {str(p.relative_to(HOSTILE)) for p in files}
    assert {c.outcome for c in cases()} == {"error", "load", "either"}
    suffixes = {p.suffix for p in files}
    assert {".csv", ".tsv", ".txt", ".json", ".jsonl", ".xlsx", ".parquet"} <= suffixes
    tools = {c.expect.get("tool") for c in LOADS}
    assert {"Label Studio", "Mechanical Turk"} <= tools
    names = {p.name for p in files}
    for export in ("ls_json_min.json", "ls_csv_export.csv", "ls_result_5.json"):
        assert export in names
    assert any(n.startswith("prodigy_") for n in names)
    assert any(n.startswith("toloka_") for n in names)
    for c in cases():
        assert c.why.strip(), c.id


def test_the_corpus_is_small():
    sizes = {p.name: p.stat().st_size for p in corpus_files()}
    assert sum(sizes.values()) < 2 * 1024 * 1024
    # the bombs are bombs because they are small on disk
    assert sizes["zip_bomb.xlsx"] < 64 * 1024
    assert sizes["dimension_bomb.xlsx"] < 16 * 1024


def test_the_committed_files_are_what_make_corpus_writes(tmp_path):
    spec = importlib.util.spec_from_file_location("make_corpus", HOSTILE / "make_corpus.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(tmp_path)
    made = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert made, "make_corpus wrote nothing"
    assert made == [p.relative_to(HOSTILE) for p in corpus_files()]
    for rel in made:
        assert same_content((tmp_path / rel).read_bytes(), (HOSTILE / rel).read_bytes()), rel


def same_content(a: bytes, b: bytes) -> bool:
    """Equal bytes, ignoring the writing library's version (openpyxl's app.xml, Parquet's
    created_by), so that upgrading openpyxl or pyarrow does not fail the comparison."""
    if a[:4] == b[:4] == b"PK\x03\x04":
        try:
            return zip_members(a) == zip_members(b)
        except zipfile.BadZipFile:
            return a == b
    if a[:4] == b[:4] == b"PAR1":
        version = re.compile(rb"parquet-cpp-arrow version [0-9.]+")
        return version.sub(b"", a)[:-8] == version.sub(b"", b)[:-8]
    return a == b


def zip_members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {n: z.read(n) for n in z.namelist() if n != "docProps/app.xml"}


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("c", ERRORS, ids=ids(ERRORS))
def test_a_malformed_file_raises_an_error_naming_the_file_and_the_place(c):
    problems = error_problems(c, outcome(c))
    assert not problems, f"{c.id} ({c.why}): " + "; ".join(problems)


def _error_or_skip(c: Case) -> Outcome:
    out = outcome(c)
    if c.outcome == "either" and out.kind == "load":
        pytest.skip("loaded, which this case allows (checked by its own test)")
    assert out.kind == "error", f"{c.id}: {out.kind} {out.exc_type} {out.message}"
    return out


@pytest.mark.parametrize("c", MAY_FAIL, ids=ids(MAY_FAIL))
def test_the_error_says_how_to_fix_it(c):
    out = _error_or_skip(c)
    assert out.hint and out.hint.strip(), f"{c.id}: no hint in {out.message!r}"


@pytest.mark.parametrize("c", MAY_FAIL, ids=ids(MAY_FAIL))
def test_the_error_is_plain_words_not_a_wrapped_exception(c):
    out = _error_or_skip(c)
    assert out.exc_type == "AnnotationDataError"
    wrapped = WRAPPED_EXCEPTION.search(out.message)
    assert wrapped is None, f"{c.id}: {out.message!r}"
    assert "Traceback" not in out.message


# ------------------------------------------------------------------ loads
@pytest.mark.parametrize("c", LOADS, ids=ids(LOADS))
def test_a_hostile_but_valid_file_loads_and_accounts_for_every_row(c):
    problems = load_problems(c, outcome(c))
    assert not problems, f"{c.id} ({c.why}): " + "; ".join(problems)


@pytest.mark.parametrize("c", EITHER, ids=ids(EITHER))
def test_a_file_read_either_way_is_refused_at_its_place_or_read_and_reported(c):
    out = outcome(c)
    problems = error_problems(c, out) if out.kind == "error" else load_problems(c, out)
    assert not problems, f"{c.id} ({c.why}): " + "; ".join(problems)


# ------------------------------------------------------------------ the checks themselves
def test_the_checks_catch_what_they_should():
    c = Case(
        id="x",
        file="csv/x.csv",
        outcome="error",
        why="test",
        name="x.csv",
        rows=(3,),
        column="label",
        mentions=(("quote",),),
    )
    good = Outcome("error", message="file 'x.csv', row 3: unclosed quote", column="label")
    assert error_problems(c, good) == []
    assert error_problems(c, Outcome("error", message="file 'y.csv', rows 4, 5: bad quote"))
    assert error_problems(c, Outcome("load", facts={}))
    # words in the file's own name do not count as the message saying them
    quote = Case(
        id="q",
        file="csv/quote.csv",
        outcome="error",
        why="t",
        name="quote.csv",
        mentions=(("quote",),),
    )
    assert error_problems(quote, Outcome("error", message="file 'quote.csv': bad"))
    assert WRAPPED_EXCEPTION.search("could not read (TypeError: bad operand)")
    assert WRAPPED_EXCEPTION.search("(ArrowInvalid: bad)") and WRAPPED_EXCEPTION.search(
        "(BadZipFile: no)"
    )
    assert not WRAPPED_EXCEPTION.search("file 'a.csv', column 'label': labels such as 'x'")


# ------------------------------------------------------------------ the command line
PLAIN = [c for c in cases() if not c.kwargs and not c.bounded and c.name == c.path.name]
CLI_ERRORS = [c for c in PLAIN if c.outcome == "error"]
CLI_LOADS = [c for c in PLAIN if c.outcome == "load"]


@pytest.mark.parametrize("c", CLI_ERRORS, ids=ids(CLI_ERRORS))
def test_the_command_line_refuses_a_malformed_file_in_one_plain_line(c, capsys):
    from analytics.cli import main

    assert main(["summary", str(c.path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("concord: error: ") and c.name in err, err
    assert "Traceback" not in err and WRAPPED_EXCEPTION.search(err) is None, err


@pytest.mark.parametrize("c", CLI_LOADS, ids=ids(CLI_LOADS))
def test_the_command_line_summarises_a_hostile_but_valid_file(c, capsys):
    from analytics.cli import main

    assert main(["summary", "--json", str(c.path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    if "n_judgements" in c.expect:
        assert summary["judgements"] == c.expect["n_judgements"]
