"""Every Python example in the README and in docs/ runs as written.

A page's examples run in order in one namespace (a later one may use an earlier one's
``ann``), from a scratch folder holding links to the repository's data (``sample_data``,
``datasets``, ``tests/fixtures``), so the files an example writes never land in the
clone. Examples written as a session (``>>>``) are run as doctests. An example that
needs what the tests cannot have (your own huge file, a Spark session) says so on its
first line, ``# not run by the tests: ...``, and is the only kind skipped.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NOT_RUN = "# not run by the tests"
LINKED = ("sample_data", "datasets", "tests/fixtures")


def examples(page: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    for name in LINKED:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).symlink_to(ROOT / name, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("plotly.basedatatypes.BaseFigure.show", lambda *a, **k: None)
    return tmp_path


@pytest.mark.parametrize(
    "page",
    [p for p in PAGES if any(not c.startswith(NOT_RUN) for c in examples(p))],
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_every_python_example_runs(page, scratch):
    namespace: dict = {}
    for number, code in enumerate(examples(page), start=1):
        if code.startswith(NOT_RUN):
            continue
        where = f"{page.name}, example {number}"
        if code.lstrip().startswith(">>>"):
            test = doctest.DocTestParser().get_doctest(code, namespace, where, where, 0)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
            runner.run(test, out=lambda text: None)
            assert runner.failures == 0, f"{where}: {runner.failures} doctest failure(s)"
        else:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(code, where, "exec"), namespace)


def test_only_examples_that_need_outside_things_are_skipped():
    skipped = [
        (page.name, code.splitlines()[0])
        for page in PAGES
        for code in examples(page)
        if code.startswith(NOT_RUN)
    ]
    assert [name for name, _ in skipped] == ["scale.md", "scale.md"], skipped
