"""Prodigy ``ner`` / ``spans`` JSONL exports (``prodigy db-out``), read and written.

Format (Prodigy docs, "Annotation task formats": named entities and spans)::

    {"text": "Anna flew to Rome.", "spans": [{"start": 0, "end": 4, "label": "PER"}],
     "answer": "accept", "_input_hash": 17, "_annotator_id": "ner-alice",
     "_session_id": "ner-alice"}

Each line is one annotator's decision on one input: ``accept`` is a finished document
(with its ``spans``, maybe none); ``reject`` and ``ignore`` are skipped and counted (the
annotator refused the example, so it says nothing about its spans). The document is
``_input_hash`` (the same input shown to several annotators), else the text itself; the
annotator is ``_annotator_id``, else ``_session_id`` (``annotator_key=`` picks another
key). ``spans`` may also hold token indices; only ``start``, ``end`` and ``label`` are read.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.spans.model import SpanAnnotations
from analytics.spans.records import SpanRecords, json_id, parse_jsonl

__all__ = ["read_prodigy", "to_prodigy"]

FORMAT = "prodigy"


def read_prodigy(
    data: str,
    source: str,
    *,
    text: Mapping[Any, str] | None = None,
    completed: Mapping[Any, Iterable[Any]] | pd.DataFrame | None = None,
    name: str | None = None,
    annotator_key: str | None = None,
    item_key: str | None = None,
) -> SpanAnnotations:
    """Read a Prodigy JSONL export of ``ner`` or ``spans`` annotations.

    Parameters
    ----------
    data : str
        The file's text.
    source : str
        The file name, for errors.
    text, completed, name
        As in :func:`~analytics.spans.load_spans`.
    annotator_key : str or None, default None
        The key naming the annotator (default ``_annotator_id``, else ``_session_id``).
    item_key : str or None, default None
        The key naming the document (default ``_input_hash``, else the text).

    Returns
    -------
    SpanAnnotations
    """
    rec = SpanRecords(source, FORMAT)
    for line, task in parse_jsonl(data, source):
        rec.n_records += 1
        if not isinstance(task, dict):
            rec.skip("lines that are not task objects", line)
            continue
        answer = task.get("answer", "accept")
        if answer in ("reject", "ignore"):
            rec.skip(f"'{answer}' answers (the annotator refused or skipped the example)", line)
            continue
        keys = [annotator_key] if annotator_key else ["_annotator_id", "_session_id"]
        who = next((task[k] for k in keys if task.get(k) not in (None, "")), None)
        if who is None:
            raise AnnotationDataError(
                "no annotator (" + " or ".join(repr(k) for k in keys) + ")",
                source=source,
                rows=[line],
                column=keys[0],
                hint="Export with prodigy db-out from a multi-user session, or pass annotator_key=.",
            )
        doc_text = task.get("text")
        if doc_text is not None and not isinstance(doc_text, str):
            raise AnnotationDataError(
                "'text' is not a string", source=source, rows=[line], column="text"
            )
        if item_key is not None:
            doc = task.get(item_key)
        else:
            doc = task.get("_input_hash", doc_text)
        if doc is None:
            raise AnnotationDataError(
                "no document id (_input_hash) and no text",
                source=source,
                rows=[line],
                column=item_key or "_input_hash",
            )
        rec.done(doc, who, doc_text, line)
        spans = task.get("spans") or []
        if not isinstance(spans, list):
            raise AnnotationDataError(
                "'spans' is not a list", source=source, rows=[line], column="spans"
            )
        for span in spans:
            if not isinstance(span, dict):
                raise AnnotationDataError(
                    "a span is not an object", source=source, rows=[line], column="spans"
                )
            rec.span(
                doc, who, span.get("start"), span.get("end"), span.get("label"), doc_text, line
            )
    return rec.build(
        text=text,
        completed=completed,
        name=name,
        completed_from="Prodigy 'accept' answers (one per annotator and input, empty spans included)",
    )


def to_prodigy(
    spans: SpanAnnotations | pd.DataFrame, texts: Mapping[Any, str] | None = None
) -> str:
    """Prodigy JSONL: one ``accept`` line per annotator and finished document.

    Parameters
    ----------
    spans : SpanAnnotations or pandas.DataFrame
        Annotations, or a gold table from :func:`~analytics.spans.gold_spans` (written with
        annotator ``gold``, to import with ``prodigy db-in``).
    texts : mapping, optional
        ``{item: text}`` for a gold table.

    Returns
    -------
    str
        JSON Lines text. Each line's ``_input_hash`` is the document id.
    """
    if isinstance(spans, SpanAnnotations):
        table = spans.spans
        done = spans.completed_frame()
        texts = {k: v for k, v in spans.texts.items() if isinstance(v, str)}
    else:
        table = spans.assign(annotator="gold")
        done = pd.DataFrame({"item": pd.unique(spans["item"]), "annotator": "gold"})
        texts = dict(texts or {})
    grouped = {k: g for k, g in table.groupby(["item", "annotator"], sort=False)}
    lines = []
    for item, who in zip(done["item"], done["annotator"], strict=True):
        g = grouped.get((item, who))
        task: dict[str, Any] = {}
        if item in texts:
            task["text"] = texts[item]
        task["spans"] = (
            []
            if g is None
            else [
                {"start": int(s), "end": int(e), "label": str(lab)}
                for s, e, lab in zip(g["start"], g["end"], g["label"], strict=True)
            ]
        )
        task.update(
            {
                "answer": "accept",
                "_input_hash": json_id(item),
                "_annotator_id": json_id(who),
                "_session_id": json_id(who),
            }
        )
        lines.append(json.dumps(task, ensure_ascii=False))
    return "\n".join(lines) + "\n"
