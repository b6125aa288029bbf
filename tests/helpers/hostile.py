"""The hostile-input corpus (``tests/data/hostile/``): its manifest, and the checks on an outcome.

A case's expected outcome is written by hand in ``expected.json`` (see its ``about``).
:func:`run_case` loads one case and returns an :class:`Outcome` (what happened, in plain
values), either in this process or, for a case built to exhaust memory or time, in a child
process under a memory cap and a time limit (:func:`run_bounded`), so that a loader that
has not learnt to refuse it fails one test instead of the machine. :func:`error_problems`
and :func:`load_problems` list how an outcome falls short of the case.

The accounting identity (:func:`unaccounted_rows`), the check that an error message is not
a wrapped Python exception (:data:`WRAPPED_EXCEPTION`) and the check that Markdown source
shows a user's string literally (:func:`shows_literally`) are shared with the fuzz tests and
the app tests.

Run as ``python -m tests.helpers.hostile CASE_ID`` to print one case's outcome as JSON
(what :func:`run_bounded` does in the child).
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from dataclasses import asdict, dataclass, field
from functools import cache
from typing import Any

from tests.helpers.markup import WORD_JOINER, shown
from tests.helpers.paths import ROOT

HOSTILE = ROOT / "tests" / "data" / "hostile"
MANIFEST = HOSTILE / "expected.json"

#: A Python exception's name followed by a colon ("TypeError: ...", "ArrowInvalid: ...",
#: "BadZipFile: ..."): what a message to a person must never carry.
WRAPPED_EXCEPTION = re.compile(
    r"\b(?:[A-Z][a-z]+)*(?:Error|Exception|Invalid|ZipFile|Warning|Interrupt)\b\s*:"
)
#: Memory and time a bounded case may take in its child process.
BOUNDED_MEMORY = 1536 * 1024 * 1024
BOUNDED_SECONDS = 30


@dataclass(frozen=True)
class Case:
    """One entry of the manifest."""

    id: str
    file: str
    outcome: str
    why: str
    name: str
    kwargs: dict[str, Any] = field(default_factory=dict)
    rows: tuple[int, ...] = ()
    column: str | None = None
    mentions: tuple[tuple[str, ...], ...] = ()
    expect: dict[str, Any] = field(default_factory=dict)
    bounded: bool = False

    @property
    def path(self):
        return HOSTILE / self.file


@dataclass
class Outcome:
    """What loading a case did: an AnnotationDataError, a load, or (a bug) anything else."""

    kind: str  # "error", "load" or "exception"
    message: str = ""
    exc_type: str = ""
    rows: list[int] = field(default_factory=list)
    column: str | None = None
    hint: str | None = None
    facts: dict[str, Any] = field(default_factory=dict)


@cache
def cases() -> tuple[Case, ...]:
    """Every case of the manifest, in its order."""
    raw = json.loads(MANIFEST.read_text(encoding="utf-8"))["cases"]
    out = []
    for c in raw:
        out.append(
            Case(
                id=c.get("id", c["file"]),
                file=c["file"],
                outcome=c["outcome"],
                why=c["why"],
                name=c.get("name", c["file"].rsplit("/", 1)[-1]),
                kwargs=c.get("kwargs", {}),
                rows=tuple(c.get("rows", ())),
                column=c.get("column"),
                mentions=tuple(tuple(g) for g in c.get("mentions", ())),
                expect=c.get("expect", {}),
                bounded=c.get("bounded", False),
            )
        )
    ids = [c.id for c in out]
    if len(set(ids)) != len(ids):  # pragma: no cover - a manifest mistake
        raise ValueError("repeated case ids in expected.json")
    return tuple(out)


def case(case_id: str) -> Case:
    """The case with this id."""
    return next(c for c in cases() if c.id == case_id)


def load_kwargs(c: Case) -> dict[str, Any]:
    """The case's keyword arguments for ``load_annotations`` (``limits`` as a Limits)."""
    from analytics.data import Limits

    kwargs = dict(c.kwargs)
    if "limits" in kwargs:
        kwargs["limits"] = Limits(**kwargs["limits"])
    if c.name != c.path.name:
        kwargs["name"] = c.name
    return kwargs


def facts(ann) -> dict[str, Any]:
    """The plain facts of loaded annotations that a case may expect."""
    r = ann.report
    return {
        "n_judgements": ann.n_judgements,
        "n_items": ann.n_items,
        "n_annotators": ann.n_annotators,
        "n_missing": r.n_missing,
        "n_skipped": r.n_skipped,
        "categories": [str(c) for c in ann.categories],
        "kind": ann.kind.value,
        "multilabel_sep": r.multilabel_sep,
        "tool": r.tool,
        "name": ann.name,
        "warnings": list(r.warnings()),
        "messages": list(r.messages()),
        "unaccounted": unaccounted_rows(ann),
    }


def run_case(c: Case) -> Outcome:
    """Load a case in this process (or a child, for a bounded case).

    An AnnotationDataError becomes an error outcome; any other exception propagates in
    this process (so the test shows its traceback) and is an ``"exception"`` outcome from
    a child.
    """
    if c.bounded:
        return run_bounded(c)
    return _run_here(c)


def _run_here(c: Case) -> Outcome:
    from analytics import AnnotationDataError, load_annotations

    try:
        ann = load_annotations(c.path, **load_kwargs(c))
    except AnnotationDataError as err:
        return Outcome(
            "error",
            message=str(err),
            exc_type=type(err).__name__,
            rows=[int(r) for r in err.rows],
            column=None if err.column is None else str(err.column),
            hint=err.hint,
        )
    return Outcome("load", facts=facts(ann))


def run_bounded(c: Case) -> Outcome:
    """Run a case in a child process under :data:`BOUNDED_MEMORY` and :data:`BOUNDED_SECONDS`."""

    def cap() -> None:  # pragma: no cover - runs in the child
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (BOUNDED_MEMORY, BOUNDED_MEMORY))

    env = {**os.environ, "PYTHONPATH": str(ROOT), "CONCORD_STRICT_ERRORS": "1"}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "tests.helpers.hostile", c.id],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=BOUNDED_SECONDS,
            preexec_fn=cap,
        )
    except subprocess.TimeoutExpired:
        return Outcome("exception", exc_type="Timeout", message=f"over {BOUNDED_SECONDS} s")
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = (done.stderr or "").strip().splitlines()[-3:]
        return Outcome("exception", exc_type=f"exit {done.returncode}", message=" | ".join(tail))
    return Outcome(**json.loads(lines[-1]))


def _child(case_id: str) -> None:  # pragma: no cover - runs in the child
    try:
        out = _run_here(case(case_id))
    except Exception as exc:  # reported to the parent, which fails the test
        out = Outcome("exception", message=str(exc)[:500], exc_type=type(exc).__name__)
    print(json.dumps(asdict(out), default=str))


# ---------------------------------------------------------------------------- checks
def unaccounted_rows(ann) -> int:
    """Cells of the input that the report does not account for (0 when all are).

    Every label cell the loader looked at is a judgement, a missing label, a skipped row
    or a repeated judgement dropped by the ``first``/``last`` policy. Long form has one
    cell per row; wide form one per row and annotator column. A tool export is converted
    first (one task may hold several judgements, or none), so the identity does not apply
    to it: there only some judgement must have been read.
    """
    r = ann.report
    dropped = r.n_duplicates if r.duplicates in ("first", "last") else 0
    seen = ann.n_judgements + r.n_missing + r.n_skipped + dropped
    if r.tool is not None:
        return 0 if seen >= 1 else 1
    width = len(r.columns.get("annotators", ())) if r.layout == "wide" else 1
    return r.n_rows * width - seen


def names_row(message: str, rows: list[int], n: int) -> bool:
    """Whether row ``n`` is among the error's rows or named in its message."""
    if n in rows:
        return True
    pattern = rf"\b(?:rows?|lines?|records?|tasks?)\b[\s\d,and]*\b{n}\b"
    return re.search(pattern, message, flags=re.IGNORECASE) is not None


def names_column(message: str, column: str | None, expected: str) -> bool:
    """Whether the error's column is ``expected``, or the message quotes it."""
    return column == expected or any(f"{q}{expected}{q}" in message for q in ("'", '"', "`", "«"))


def mentions_all(text: str, groups: tuple[tuple[str, ...], ...]) -> list[tuple[str, ...]]:
    """The groups of words none of which the text contains (case-insensitive)."""
    low = text.lower()
    return [g for g in groups if not any(w.lower() in low for w in g)]


def error_problems(c: Case, out: Outcome) -> list[str]:
    """How an error outcome falls short of the case's file, rows, column and words."""
    problems = []
    if out.kind != "error":
        return [f"expected an AnnotationDataError, got {out.kind}: {out.exc_type} {out.message}"]
    if c.name not in out.message:
        problems.append(f"the message does not name the file {c.name!r}")
    said = out.message.replace(c.name, "<file>")  # the place and words, not the file's name
    for n in c.rows:
        if not names_row(said, out.rows, n):
            problems.append(f"the error does not name row {n} (rows={out.rows})")
    if c.column is not None and not names_column(said, out.column, c.column):
        problems.append(f"the error does not name column {c.column!r} (column={out.column!r})")
    for group in mentions_all(said, c.mentions):
        problems.append(f"the message says none of {list(group)}")
    return problems


def load_problems(c: Case, out: Outcome) -> list[str]:
    """How a load outcome falls short of the case's expected facts."""
    if out.kind != "load":
        return [f"expected a clean load, got {out.kind}: {out.exc_type} {out.message}"]
    got, want = out.facts, c.expect
    problems = []
    for key in (
        "n_judgements",
        "n_items",
        "n_annotators",
        "n_missing",
        "n_skipped",
        "kind",
        "tool",
        "name",
    ):
        if key in want and got[key] != want[key]:
            problems.append(f"{key}: expected {want[key]!r}, got {got[key]!r}")
    if "multilabel_sep" in want and got["multilabel_sep"] != want["multilabel_sep"]:
        problems.append(f"multilabel_sep: expected None, got {got['multilabel_sep']!r}")
    if "categories" in want and sorted(got["categories"]) != sorted(want["categories"]):
        problems.append(f"categories: expected {want['categories']!r}, got {got['categories']!r}")
    for key, source in (("warnings_mention", "warnings"), ("report_mentions", "messages")):
        text = "\n".join(got[source] + (got["warnings"] if source == "messages" else []))
        for group in mentions_all(text, tuple(tuple(g) for g in want.get(key, ()))):
            problems.append(f"the report's {source} say none of {list(group)}")
    if got["unaccounted"]:
        problems.append(f"the report does not account for {got['unaccounted']} cells")
    return problems


# ---------------------------------------------------------------------------- markup
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


def markdown_visible(source: str) -> str:
    """The text a Markdown source shows, ignoring emphasis: escapes and entities resolved.

    The word joiners ``ui.text.md`` puts into would-be links are invisible, so dropped.
    """
    return html.unescape(shown(source))


def _tokens(source: str) -> list[tuple[str, bool]]:
    """(character shown, literal?) for each character a Markdown source shows.

    A backslash-escaped character, an HTML entity and anything inside a code span are
    literal; any other character may start markup.
    """
    out: list[tuple[str, bool]] = []
    i = 0
    while i < len(source):
        ch = source[i]
        if ch == "\\" and i + 1 < len(source) and _ESCAPED.match(source, i):
            out.append((source[i + 1], True))
            i += 2
        elif ch == "&" and (m := re.match(r"&(#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);", source[i:])):
            out.append((html.unescape(m.group(0)), True))
            i += len(m.group(0))
        elif ch == "`":
            run = re.match(r"`+", source[i:]).group(0)
            end = source.find(run, i + len(run))
            if end < 0:
                out.append((ch, False))
                i += 1
                continue
            out.extend((c, True) for c in source[i + len(run) : end])
            i = end + len(run)
        else:
            out.append((ch, False))
            i += 1
    return out


#: Characters that start Markdown, Streamlit directives (:red[...]) or LaTeX ($...$).
MARKUP_STARTERS = frozenset("[]$*_`")


def shows_literally(source: str, text: str) -> bool:
    """Whether Markdown ``source`` shows ``text`` literally wherever it shows it.

    True when ``text`` appears in what the source shows, and at every place it does, each
    character that could start markup (``[``, ``]``, ``$``, ``*``, ``_``, a
    backtick) is escaped, an entity or inside a code span. The escaping helper may use
    any of these.
    """
    toks = _tokens(source.replace(WORD_JOINER, ""))  # the joiner is invisible
    visible = "".join(c for c, _ in toks)
    if text not in visible:
        return False
    start = visible.find(text)
    while start >= 0:
        for c, literal in toks[start : start + len(text)]:
            if c in MARKUP_STARTERS and not literal:
                return False
        start = visible.find(text, start + 1)
    return True


if __name__ == "__main__":  # pragma: no cover
    _child(sys.argv[1])
