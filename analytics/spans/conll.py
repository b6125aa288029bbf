"""CoNLL-style token files with BIO (IOB2), IOB1, BIOES or BILOU tags, read and written.

Format: one token per line, the token first and its tag last, separated by blanks or
tabs (columns between are ignored); a blank line ends a sentence; a line starting with
``-DOCSTART-`` starts a new document (with a ``# document: <id>`` comment line after it
naming the document). Without ``-DOCSTART-`` lines, every sentence is a document.

Annotators: one file per annotator (give ``load_spans`` a mapping ``{annotator: file}``,
or one file and ``annotator=``), or one file with one tag column per annotator named by a
first line ``# annotators: alice bob carol``. In such a file the tag ``_`` marks a
document that annotator did not complete.

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
from analytics.spans.model import SpanAnnotations, require_spans
from analytics.spans.records import SpanRecords

__all__ = ["read_conll", "to_conll"]

FORMAT = "conll"
_TAG = r"^(?:([BIESLU])[-_](.+)|(O))$"
_HEADER = "# annotators:"
_DOC = "# document:"


def _parse(content: str, source: str) -> tuple[list[str], list[tuple[Any, list]]]:
    """Header names and the documents: ``[(id or None, [(line, token, tags)])]``.

    A sentence break is a row with an empty token.
    """
    names: list[str] = []
    docs: list[tuple[Any, list]] = []
    by_docstart = any(line.lstrip().startswith("-DOCSTART-") for line in content.splitlines())
    doc_id, current = None, []

    def flush() -> None:
        if any(tok for _, tok, _ in current):
            docs.append((doc_id, list(current)))
        current.clear()

    for number, raw in enumerate(content.splitlines(), start=1):
        line = raw.strip()
        if line.startswith(_HEADER):
            names = line[len(_HEADER) :].split()
        elif line.startswith(_DOC):
            doc_id = line[len(_DOC) :].strip()
        elif line.startswith("#"):
            continue
        elif line.split()[:1] == ["-DOCSTART-"]:
            flush()
            doc_id = None
        elif not line:
            if by_docstart:
                current.append((number, "", []))
            else:
                flush()
        else:
            parts = line.split()
            if len(parts) < 2:
                raise AnnotationDataError(
                    "a token line needs the token and a tag", source=source, rows=[number]
                )
            current.append((number, parts[0], parts[1:]))
    flush()
    return names, docs


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
        The annotator of a single-column file (default: the file name without extension).

    Returns
    -------
    SpanAnnotations
    """
    files = dict(data) if isinstance(data, Mapping) else {None: data}
    rec = SpanRecords(source, FORMAT)
    orphans = 0
    for who_file, content in files.items():
        file_name = source if who_file is None else f"{source}[{who_file}]"
        names, docs = _parse(content, file_name)
        width = {len(tags) for _, doc in docs for _, _, tags in doc if tags}
        if len(width) > 1:
            raise AnnotationDataError(
                f"token lines have different numbers of tag columns ({sorted(width)})",
                source=file_name,
            )
        k = width.pop() if width else 1
        if names and len(names) != k:
            raise AnnotationDataError(
                f"the header names {len(names)} annotators but lines have {k} tag columns",
                source=file_name,
                rows=[1],
            )
        if not names:
            if k != 1:
                raise AnnotationDataError(
                    f"{k} tag columns but no '{_HEADER} ...' line naming their annotators",
                    source=file_name,
                    hint="Add the header line, or give one file per annotator.",
                )
            names = [who_file or annotator or re.sub(r"\.[^.]*$", "", source)]
        for d, (given_id, doc) in enumerate(docs):
            doc_id = given_id if given_id is not None else f"doc{d + 1}"
            real = np.array([r[1] != "" for r in doc])
            lines = np.array([r[0] for r in doc], np.int64)[real]
            sent_of = np.cumsum([r[1] == "" for r in doc])[real]
            words = [r[1] for r in doc if r[1]]
            lengths = np.array([len(w) for w in words], np.int64)
            starts = np.concatenate([[0], np.cumsum(lengths + 1)[:-1]])
            new_sentence = np.concatenate([[False], sent_of[1:] != sent_of[:-1]])
            seps = np.where(new_sentence, "\n", " ")
            doc_text = "".join(sep + w for sep, w in zip(seps, words, strict=True))[1:]
            tag_rows = [r[2] for r in doc if r[1]]
            for col, who in enumerate(names):
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
        When a text is unknown, or a span cuts a token.
    ArgumentTypeError
        ``spans`` is not :class:`~analytics.spans.SpanAnnotations`.
    """
    require_spans(spans, "to_conll")
    if scheme not in ("BIO", "BILOU"):
        raise AnnotationDataError(f"scheme must be 'BIO' or 'BILOU', not {scheme!r}")
    if not spans.texts_known:
        raise AnnotationDataError("CoNLL needs every document's text to make tokens")
    out = [f"{_HEADER} " + " ".join(str(a) for a in spans.annotators), ""]
    table = spans.spans.assign(a=spans.annotator_code, d=spans.item_code)
    for d, item in enumerate(spans.items):
        text = spans.texts.iloc[d]
        found = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
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
