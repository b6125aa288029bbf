"""CoNLL-style token files with BIO (IOB2), IOB1, BIOES or BILOU tags, read and written.

Format: one token per line, separated by blanks or tabs: the token, then one tag column
per annotator; a blank line ends a sentence; a line whose first field is ``-DOCSTART-``
starts a new document (with a ``# document: <id>`` line after it naming the document).
Without ``-DOCSTART-`` lines, every sentence is a document. Every token line has the same
number of columns.

Annotators: one file per annotator (give ``load_spans`` a mapping ``{annotator: file}``,
or one file and ``annotator=``), or one file with one tag column per annotator named by a
line ``# annotators: alice bob carol``. The tag ``_`` marks a document that annotator did
not complete. A file without that line and with more than two columns is read as
CoNLL-2003 (``EU NNP B-NP B-ORG``): the token first, its tag last, the columns between
(part of speech, chunk) ignored, and the report says so; when those middle columns hold
only tags, the file is refused as several annotators' columns without their header.

Lines starting with ``#``: ``# annotators: ...`` and ``# document: ...`` are the header
and document lines. Any other is a token (``#NLP B-TAG``, ``# O``) when it has as many
columns as the first token line not starting with ``#`` and its last field is a tag
(``O``, ``_``, or ``B-``/``I-``/``E-``/``S-``/``L-``/``U-`` and a label), and a comment
otherwise; the report counts comment lines. :func:`to_conll` writes only lines this reads
back, refusing annotator names and labels with blanks, ids with line breaks and the token
``-DOCSTART-``.

The document text is rebuilt from the tokens: tokens joined by one space, sentences by a
line break, so offsets are exact for that text (and annotator files must hold the same
tokens). Tags are decoded as conlleval does: a span starts at ``B-``, ``S-``/``U-``, or
an ``I-``/``E-``/``L-`` that does not continue a span of its label (counted in the
report), and ends before ``O``, before the next start, or after ``E-``/``L-``/``S-``/``U-``.

References
----------
Tjong Kim Sang, E. F. & De Meulder, F. (2003). Introduction to the CoNLL-2003 shared task.
*CoNLL*. Ratinov, L. & Roth, D. (2009). Design challenges and misconceptions in named
entity recognition. *CoNLL* (BILOU).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_count
from analytics.spans.model import SpanAnnotations, require_spans
from analytics.spans.records import SpanRecords

__all__ = ["read_conll", "to_conll"]

FORMAT = "conll"
_TAG = r"^(?:([BIESLU])[-_](.+)|(O))$"
_HEADER = "# annotators:"
_DOC = "# document:"
_TAG_OR_GAP = re.compile(r"[BIESLU][-_].+|O|_")


def _is_tag(field: str) -> bool:
    """Whether ``field`` reads as a tag: ``O``, ``_`` or a prefix and a label."""
    return _TAG_OR_GAP.fullmatch(field) is not None


def _parse(
    content: str, source: str
) -> tuple[tuple[list[str], int], list[tuple[Any, list]], list[int], list[str]]:
    """Header names and line, the documents ``[(id or None, [(line, token, fields)])]``, the
    numbers of the comment lines, and the ids of documents named without a token.

    A sentence break is a row with an empty token. A line starting with ``#`` other than
    ``# annotators:`` and ``# document:`` is a token line when it has as many fields as
    the first token line not starting with ``#`` and its last field is a tag; otherwise
    a comment.
    """
    lines = [raw.split() for raw in content.splitlines()]
    width = next(
        (len(p) for p in lines if p and not p[0].startswith("#") and p[0] != "-DOCSTART-"), None
    )
    names: list[str] = []
    header_row = 0
    docs: list[tuple[Any, list]] = []
    comments: list[int] = []
    empty: list[str] = []  # "# document: x" with no token: an empty text, nothing to tag
    by_docstart = any(p[:1] == ["-DOCSTART-"] for p in lines)
    doc_id, current = None, []

    def flush() -> None:
        if any(tok for _, tok, _ in current):
            docs.append((doc_id, list(current)))
        elif doc_id is not None:
            empty.append(doc_id)
        current.clear()

    for number, (raw, parts) in enumerate(zip(content.splitlines(), lines, strict=True), 1):
        line = raw.strip()
        if line.startswith(_HEADER):
            names, header_row = line[len(_HEADER) :].split(), number
        elif line.startswith(_DOC):
            doc_id = line[len(_DOC) :].strip()
        elif line.startswith("#") and not (
            len(parts) > 1 and _is_tag(parts[-1]) and width in (None, len(parts))
        ):
            comments.append(number)
        elif parts[:1] == ["-DOCSTART-"]:
            flush()
            doc_id = None
        elif not parts:
            if by_docstart:
                current.append((number, "", []))
            else:
                flush()
        else:
            if len(parts) < 2:
                raise AnnotationDataError(
                    "a token line needs the token and a tag", source=source, rows=[number]
                )
            current.append((number, parts[0], parts[1:]))
    flush()
    return (names, header_row), docs, comments, empty


def _decode(
    prefix: np.ndarray, label: np.ndarray, sentence: np.ndarray
) -> tuple[np.ndarray, np.ndarray, int]:
    """Spans ``(first token, last token)`` from tag prefixes and labels; also how many
    ``I-``/``E-``/``L-`` tags had to open a span."""
    inside = prefix != "O"
    prev_prefix = np.concatenate([["O"], prefix[:-1]])
    prev_label = np.concatenate([[""], label[:-1]])
    new_sentence = np.concatenate([[True], sentence[1:] != sentence[:-1]])
    prev_open = (np.isin(prev_prefix, ["B", "I"])) & ~new_sentence
    continues = np.isin(prefix, ["I", "E", "L"]) & prev_open & (prev_label == label)
    starts = inside & ~continues
    orphan = int((starts & np.isin(prefix, ["I", "E", "L"])).sum())
    span_id = np.cumsum(starts) - 1
    idx = np.flatnonzero(inside)
    if not len(idx):
        return np.zeros(0, np.int64), np.zeros(0, np.int64), orphan
    first = np.flatnonzero(starts)
    last = np.zeros(len(first), np.int64)
    np.maximum.at(last, span_id[idx], idx)
    return first, last, orphan


def _columns(
    header: tuple[list[str], int],
    docs: list[tuple[Any, list]],
    source: str,
    default: str,
    rec: SpanRecords,
) -> tuple[list[str], list[int]]:
    """The annotators of a file and the field (after the token) holding each one's tags.

    With a ``# annotators:`` header every field is a tag column; without one, a file of
    more than two columns whose middle columns are not all tags is CoNLL-2003-like (token
    first, tag last, the columns between ignored: noted in the report).
    """
    names, header_row = header
    rows = [(number, fields) for _, doc in docs for number, tok, fields in doc if tok]
    k = len(rows[0][1]) if rows else 1
    odd = next(((number, len(fields)) for number, fields in rows if len(fields) != k), None)
    if odd is not None:
        raise AnnotationDataError(
            f"token lines have different numbers of columns: this line has {odd[1] + 1}, "
            f"line {rows[0][0]} has {k + 1}",
            source=source,
            rows=[odd[0]],
            hint="Every token line holds the token and the same number of tag columns.",
        )
    if names:
        if len(names) != k:
            raise AnnotationDataError(
                f"the header names {len(names)} annotators but lines have {k} tag columns",
                source=source,
                rows=[header_row],
            )
        return names, list(range(k))
    if k > 1 and all(_is_tag(f) for _, fields in rows for f in fields[:-1]):
        raise AnnotationDataError(
            f"{k} tag columns but no '{_HEADER} ...' line naming their annotators",
            source=source,
            rows=[rows[0][0]],
            hint="Add the header line, or give one file per annotator.",
        )
    if k > 1:
        rec.notes.append(
            f"{source}: no '{_HEADER}' line and {k + 1} columns, so read as CoNLL-2003: "
            f"token from column 1, tags from column {k + 1}, columns 2-{k} ignored"
        )
    return [default], [k - 1]


def _same_tokens(
    seen: dict[Any, tuple[str, list[str], np.ndarray, np.ndarray]],
    doc_id: Any,
    here: tuple[str, list[str], np.ndarray, np.ndarray],
) -> None:
    """Refuse a document id met twice in one file, or with other tokens (or sentence
    breaks) than in an earlier file; remember it otherwise."""
    if doc_id not in seen:
        seen[doc_id] = here
        return
    (file_a, words_a, new_a, lines_a), (file_b, words_b, new_b, lines_b) = seen[doc_id], here
    if file_a == file_b:
        raise AnnotationDataError(
            f"document {doc_id!r} appears twice (first at line {lines_a[0]})",
            source=file_b,
            rows=[int(lines_b[0])],
            hint="Give each document its own '# document: <id>' line.",
        )
    if words_a == words_b and np.array_equal(new_a, new_b):
        return
    n = min(len(words_a), len(words_b))
    i = next((i for i in range(n) if words_a[i] != words_b[i] or new_a[i] != new_b[i]), n)
    if i == n:
        problem = f"{len(words_b)} tokens here but {len(words_a)} there"
        row = int(lines_b[min(i, len(words_b) - 1)])
    elif words_a[i] != words_b[i]:
        problem = (
            f"token {i + 1} is {words_b[i]!r} here but {words_a[i]!r} there (line {lines_a[i]})"
        )
        row = int(lines_b[i])
    else:
        where = "starts" if new_b[i] else "does not start"
        problem = (
            f"a sentence {where} at token {i + 1} ({words_b[i]!r}) here, unlike there "
            f"(line {lines_a[i]})"
        )
        row = int(lines_b[i])
    raise AnnotationDataError(
        f"the tokens of document {doc_id!r} differ from those in file {file_a!r}: {problem}",
        source=file_b,
        rows=[row],
        hint="Every annotator's file must hold the same tokens and sentence breaks.",
    )


def read_conll(
    data: str | Mapping[str, str],
    source: str,
    *,
    text: Mapping[Any, str] | None = None,
    completed: Mapping[Any, Iterable[Any]] | pd.DataFrame | None = None,
    name: str | None = None,
    annotator: str | None = None,
) -> SpanAnnotations:
    """Read CoNLL-style BIO/IOB1/BIOES/BILOU token files.

    Parameters
    ----------
    data : str or mapping
        The file's text, or ``{annotator: text}`` for one file per annotator.
    source : str
        The file name, for errors (with a mapping: the names joined).
    text, completed, name
        As in :func:`~analytics.spans.load_spans` (``text`` is ignored: the text is the
        tokens').
    annotator : str or None, default None
        The annotator of a file without ``# annotators:`` line (default: the file name
        without extension).

    Returns
    -------
    SpanAnnotations

    Raises
    ------
    AnnotationDataError
        Naming the file and line: a line without a tag, a bad tag, token lines with
        different numbers of columns, several tag columns without a header, a header
        naming another number of annotators, ``_`` on part of a document, a document id
        met twice in a file, or another file's tokens or sentence breaks for a document.
    """
    files = dict(data) if isinstance(data, Mapping) else {None: data}
    parts = source.split(", ")
    if len(parts) != len(files):
        parts = [source] * len(files)
    unique = len(set(parts)) == len(parts)
    rec = SpanRecords(source, FORMAT)
    orphans = 0
    seen: dict[Any, tuple[str, list[str], np.ndarray, np.ndarray]] = {}
    for part, (who_file, content) in zip(parts, files.items(), strict=True):
        file_name = part if who_file is None or unique else f"{part}[{who_file}]"
        header, docs, comments, empty = _parse(content, file_name)
        if empty:
            rec.notes.append(
                f"{file_name}: {format_count(len(empty), 'document')} without a token left out "
                f"({', '.join(map(repr, empty[:3]))}{', ...' if len(empty) > 3 else ''}): an "
                "empty text has nothing to tag, so CoNLL cannot say who finished it."
            )
        if comments:
            rec.notes.append(
                f"{file_name}: {format_count(len(comments), 'line')} starting with '#' read "
                f"as comments (not token lines), the first at line {comments[0]}"
            )
        default = who_file or annotator or re.sub(r"\.[^.]*$", "", source)
        names, cols = _columns(header, docs, file_name, default, rec)
        for d, (given_id, doc) in enumerate(docs):
            doc_id = given_id if given_id is not None else f"doc{d + 1}"
            real = np.array([r[1] != "" for r in doc])
            lines = np.array([r[0] for r in doc], np.int64)[real]
            sent_of = np.cumsum([r[1] == "" for r in doc])[real]
            words = [r[1] for r in doc if r[1]]
            new_sentence = np.concatenate([[False], sent_of[1:] != sent_of[:-1]])
            _same_tokens(seen, doc_id, (file_name, words, new_sentence, lines))
            lengths = np.array([len(w) for w in words], np.int64)
            starts = np.concatenate([[0], np.cumsum(lengths + 1)[:-1]])
            seps = np.where(new_sentence, "\n", " ")
            doc_text = "".join(sep + w for sep, w in zip(seps, words, strict=True))[1:]
            tag_rows = [r[2] for r in doc if r[1]]
            for col, who in zip(cols, names, strict=True):
                tags = np.array([t[col] for t in tag_rows], object)
                if (tags == "_").all():
                    continue
                if (tags == "_").any():
                    bad = lines[tags == "_"]
                    raise AnnotationDataError(
                        f"annotator {who!r} has '_' (not completed) on only part of a document",
                        source=file_name,
                        rows=bad.tolist(),
                    )
                parsed = pd.Series(tags, dtype=object).str.extract(_TAG)
                bad = np.flatnonzero((parsed[0].isna() & parsed[2].isna()).to_numpy())
                if len(bad):
                    raise AnnotationDataError(
                        f"tag {tags[bad[0]]!r} is not O or B-/I-/E-/S-/L-/U- with a label",
                        source=file_name,
                        rows=lines[bad].tolist(),
                    )
                prefix = parsed[0].fillna("O").to_numpy(object)
                label = parsed[1].fillna("").to_numpy(object)
                first, last, orphan = _decode(prefix, label, sent_of)
                orphans += orphan
                rec.done(doc_id, who, doc_text, int(lines[0]))
                for f, la in zip(first, last, strict=True):
                    rec.span(
                        doc_id,
                        who,
                        int(starts[f]),
                        int(starts[la] + lengths[la]),
                        label[f],
                        doc_text,
                        int(lines[f]),
                    )
            rec.n_records += len(words)
    if orphans:
        rec.cautions.append(
            f"{orphans} spans open with I-, E- or L- (no B-): read as starts, as conlleval does "
            "(IOB1 files do this by design)"
        )
    return rec.build(
        completed=completed,
        name=name,
        completed_from="every document in an annotator's file or column (tag '_' marks one not done)",
    )


def _refuse_unwritable(spans: SpanAnnotations) -> None:
    """Refuse annotator names and labels a CoNLL file cannot hold (blanks separate its
    columns), and document ids its ``# document:`` line cannot."""
    names = [str(a) for a in spans.annotators]
    for role, values in (("annotator name", names), ("label", [str(v) for v in spans.labels])):
        bad = next((v for v in values if not v or re.search(r"\s", v)), None)
        if bad is not None:
            example = re.sub(r"\s+", "_", bad) or "x"
            raise AnnotationDataError(
                f"the {role} {bad!r} {'has a blank' if bad else 'is empty'}, which a CoNLL "
                "file cannot hold (blanks separate its columns)",
                hint=f"Rename it without blanks (e.g. {example!r}) before exporting, or "
                "export to another format.",
            )
    if len(set(names)) < len(names):
        raise AnnotationDataError(
            "two annotators have the same name as text; a CoNLL header could not tell them apart",
            hint="Rename one of them before exporting.",
        )
    bad_id = next((i for i in spans.items if len(str(i).splitlines()) != 1), None)
    if bad_id is not None:
        raise AnnotationDataError(
            f"the document id {bad_id!r} is empty or has a line break, which a "
            f"'{_DOC} <id>' line cannot hold",
            hint="Rename the document before exporting.",
        )


def to_conll(spans: SpanAnnotations, *, scheme: str = "BIO") -> str:
    """One CoNLL file with a tag column per annotator (``# annotators:`` header).

    Parameters
    ----------
    spans : SpanAnnotations
        With every text known. Tokens are the text's runs of non-blanks; a line break
        between tokens ends a sentence. Spans must start and end on token boundaries.
    scheme : {"BIO", "BILOU"}, default "BIO"

    Returns
    -------
    str

    Raises
    ------
    AnnotationDataError
        When a text is unknown, a span cuts a token, a text has the token
        ``-DOCSTART-``, an annotator name or a label is empty or has a blank (blanks
        separate the columns), two annotator names are the same as text, or a document
        id has a line break.
    ArgumentTypeError
        ``spans`` is not :class:`~analytics.spans.SpanAnnotations`.
    """
    require_spans(spans, "to_conll")
    if scheme not in ("BIO", "BILOU"):
        raise AnnotationDataError(f"scheme must be 'BIO' or 'BILOU', not {scheme!r}")
    if not spans.texts_known:
        raise AnnotationDataError("CoNLL needs every document's text to make tokens")
    _refuse_unwritable(spans)
    out = [f"{_HEADER} " + " ".join(str(a) for a in spans.annotators), ""]
    table = spans.spans.assign(a=spans.annotator_code, d=spans.item_code)
    for d, item in enumerate(spans.items):
        text = spans.texts.iloc[d]
        found = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
        docstart = next((s for s, e in found if text[s:e] == "-DOCSTART-"), None)
        if docstart is not None:
            raise AnnotationDataError(
                f"document {item!r} has the token '-DOCSTART-' (at offset {docstart}), which "
                "a CoNLL file reads as the start of a document",
                hint="Change that token in the text before exporting.",
            )
        t_start = np.array([s for s, _ in found], np.int64)
        t_end = np.array([e for _, e in found], np.int64)
        tags = np.full((len(found), spans.n_annotators), "O", object)
        tags[:, ~spans.completed[d]] = "_"
        for row in table[table["d"] == d].itertuples():
            i, j = np.searchsorted(t_start, row.start), np.searchsorted(t_end, row.end)
            if i >= len(found) or t_start[i] != row.start or j >= len(found) or t_end[j] != row.end:
                raise AnnotationDataError(
                    f"span {row.start}-{row.end} of document {item!r} cuts a token",
                    hint="CoNLL can only hold spans made of whole tokens.",
                )
            if scheme == "BILOU" and i == j:
                tags[i, row.a] = f"U-{row.label}"
                continue
            tags[i, row.a] = f"B-{row.label}"
            tags[i + 1 : j + 1, row.a] = f"I-{row.label}"
            if scheme == "BILOU":
                tags[j, row.a] = f"L-{row.label}"
        out += ["-DOCSTART-", f"{_DOC} {item}", ""]
        for k, (s, e) in enumerate(found):
            if k and "\n" in text[t_end[k - 1] : s]:
                out.append("")
            out.append(" ".join([text[s:e], *tags[k]]))
        out.append("")
    return "\n".join(out) + "\n"
