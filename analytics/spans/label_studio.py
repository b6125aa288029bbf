"""Label Studio JSON exports of span (``labels``) tasks, read and written.

Format (Label Studio docs, "Label Studio JSON format of annotated tasks" and the
``Labels`` tag's result, https://labelstud.io/guide/task_format)::

    [{"id": 1, "data": {"text": "Anna flew to Rome."},
      "annotations": [{"completed_by": 10, "was_cancelled": false,
                       "result": [{"from_name": "label", "to_name": "text",
                                   "type": "labels",
                                   "value": {"start": 0, "end": 4, "text": "Anna",
                                             "labels": ["PER"]}}]}]}]

Each task is a document (its ``id``); each annotation is one annotator (``completed_by``:
an id, or an object with ``email`` or ``id``) finishing it, so an annotation with no
``labels`` result is a document read and left without spans. Cancelled annotations are
skipped and counted; predictions are left out (the report says on how many tasks). The text is ``data[text_key]`` (default: the
only text field of ``data``, else ``"text"``). A span with several labels becomes one
span per label. When ``value.text`` is given it must equal the text at the offsets;
Label Studio's browser counts UTF-16 units, so on text with characters beyond U+FFFF the
offsets are converted when that makes them match (and the report says so).
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterable, Mapping
from typing import Any

import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_count
from analytics.spans.model import SpanAnnotations
from analytics.spans.records import SpanRecords, json_id, parse_json, utf16_to_python

__all__ = ["read_label_studio", "to_label_studio"]

FORMAT = "label-studio"


#: Label Studio's other span results: offsets into HTML or dialogue turns, not the text
OTHER_SPAN_TYPES = ("hypertextlabels", "paragraphlabels")


def _last_by_annotator(annotations: list) -> dict[Any, int]:
    """Each annotator's last kept annotation of a task (position in the list).

    Label Studio can hold two annotations of one task by the same user (a resubmission,
    an import); read together their spans would merge into one annotation that overlaps
    itself. The last one is the user's latest.
    """
    last: dict[Any, int] = {}
    for n, ann in enumerate(annotations):
        if isinstance(ann, dict) and ann.get("was_cancelled") is not True:
            who = _annotator(ann.get("completed_by"))
            if isinstance(who, Hashable) and who not in (None, ""):
                last[who] = n  # a list or object is refused later, with its row
    return last


def _annotator(who: Any) -> Any:
    if isinstance(who, dict):
        for key in ("email", "id"):
            if who.get(key) not in (None, ""):
                return who[key]
        return None
    return who


def _text_of(data: Any, text_key: str | None, row: int, source: str) -> str | None:
    if not isinstance(data, dict):
        return None
    if text_key is not None:
        value = data.get(text_key)
    else:
        texts = [k for k, v in data.items() if isinstance(v, str)]
        value = data.get(texts[0]) if len(texts) == 1 else data.get("text")
    if value is not None and not isinstance(value, str):
        raise AnnotationDataError(
            f"the task's text is a {type(value).__name__}, not a string",
            source=source,
            rows=[row],
            column=f"data.{text_key or 'text'}",
        )
    return value


def _offsets(
    value: dict, text: str | None, row: int, source: str, rec: SpanRecords
) -> tuple[Any, Any]:
    start, end, quoted = value.get("start"), value.get("end"), value.get("text")
    if (
        text is None
        or not isinstance(quoted, str)
        or not isinstance(start, int)
        or not isinstance(end, int)
    ):
        return start, end
    if text[start:end] == quoted:
        return start, end
    s16, e16 = utf16_to_python(text, start), utf16_to_python(text, end)
    if s16 is None or e16 is None:
        raise AnnotationDataError(
            f"offsets {start}-{end} cut a character in two (as UTF-16 units) and do not match "
            f"the span's text {quoted!r}",
            source=source,
            rows=[row],
            column="value.start",
        )
    if text[s16:e16] != quoted:
        raise AnnotationDataError(
            f"the text at offsets {start}-{end} is {text[start:end]!r}, not the span's text "
            f"{quoted!r}",
            source=source,
            rows=[row],
            column="value.text",
            hint="The offsets do not belong to this task's text; check data.text and the export.",
        )
    note = "offsets counted in UTF-16 units (Label Studio's browser) were converted to characters"
    if note not in rec.notes:
        rec.notes.append(note)
    return s16, e16


def read_label_studio(
    data: str,
    source: str,
    *,
    text: Mapping[Any, str] | None = None,
    completed: Mapping[Any, Iterable[Any]] | pd.DataFrame | None = None,
    name: str | None = None,
    text_key: str | None = None,
    from_name: str | None = None,
) -> SpanAnnotations:
    """Read a Label Studio JSON export of span tasks.

    Parameters
    ----------
    data : str
        The file's text.
    source : str
        The file name, for errors.
    text, completed, name
        As in :func:`~analytics.spans.load_spans`.
    text_key : str or None, default None
        The key of ``data`` holding the text.
    from_name : str or None, default None
        Read only the results of this ``Labels`` control (default: every ``labels`` result).

    Returns
    -------
    SpanAnnotations
    """
    tasks = parse_json(data, source)
    if isinstance(tasks, dict):
        tasks = [tasks]
    if not isinstance(tasks, list):
        raise AnnotationDataError("a Label Studio export is a list of tasks", source=source)
    rec = SpanRecords(source, FORMAT)
    with_predictions = 0
    for row, task in enumerate(tasks, start=1):
        rec.n_records += 1
        if not isinstance(task, dict):
            rec.skip("entries that are not task objects", row)
            continue
        doc = task.get("id", row)
        doc_text = _text_of(task.get("data"), text_key, row, source)
        annotations = task.get("annotations", task.get("completions")) or []
        if not isinstance(annotations, list):
            raise AnnotationDataError(
                "'annotations' is not a list", source=source, rows=[row], column="annotations"
            )
        if task.get("predictions"):
            with_predictions += 1
        if not annotations:
            rec.skip("tasks nobody annotated", row)
        last = _last_by_annotator(annotations)
        for n, ann in enumerate(annotations):
            if not isinstance(ann, dict):
                rec.skip("annotations that are not objects", row)
                continue
            if ann.get("was_cancelled") is True:
                rec.skip("cancelled (skipped) annotations", row)
                continue
            who = _annotator(ann.get("completed_by"))
            if who in (None, ""):
                rec.skip("annotations without completed_by (annotator unknown)", row)
                continue
            if isinstance(who, Hashable) and last.get(who, n) != n:  # spans would merge
                rec.skip(
                    "earlier annotations of a task by the same annotator (the last is kept)", row
                )
                continue
            rec.done(doc, who, doc_text, row)
            results = ann.get("result") or []
            if not isinstance(results, list):
                raise AnnotationDataError(
                    "an annotation's 'result' is not a list",
                    source=source,
                    rows=[row],
                    column="result",
                )
            for result in results:
                kind = result.get("type") if isinstance(result, dict) else None
                if kind in OTHER_SPAN_TYPES:  # spans, but not over the plain text's offsets
                    rec.skip(f"'{kind}' results (spans of HTML or dialogue, not plain text)", row)
                if kind != "labels":
                    continue
                if from_name is not None and result.get("from_name") != from_name:
                    continue
                value = result.get("value")
                if not isinstance(value, dict) or not isinstance(value.get("labels"), list):
                    raise AnnotationDataError(
                        "a 'labels' result needs value.start, value.end and value.labels",
                        source=source,
                        rows=[row],
                        column="value",
                    )
                start, end = _offsets(value, doc_text, row, source, rec)
                for label in value["labels"]:
                    rec.span(doc, who, start, end, label, doc_text, row)
    if with_predictions:
        rec.notes.append(
            f"model predictions on {format_count(with_predictions, 'task')} were left out (a "
            "model is not an annotator)"
        )
    return rec.build(
        text=text,
        completed=completed,
        name=name,
        completed_from="Label Studio annotations (one per annotator and task, empty results included)",
    )


def to_label_studio(
    spans: SpanAnnotations | pd.DataFrame, texts: Mapping[Any, str] | None = None
) -> str:
    """Label Studio JSON tasks (one annotation per annotator, or the gold as one).

    Parameters
    ----------
    spans : SpanAnnotations or pandas.DataFrame
        Annotations (every completed document becomes an annotation, spans or not), or a
        gold table from :func:`~analytics.spans.gold_spans` (one annotation by ``gold``
        per document).
    texts : mapping, optional
        ``{item: text}`` for a gold table (SpanAnnotations carry their own).

    Returns
    -------
    str
        JSON text to import into Label Studio.
    """
    if isinstance(spans, SpanAnnotations):
        table = spans.spans.assign(annotator=spans.spans["annotator"])
        done = spans.completed_frame()
        texts = {k: v for k, v in spans.texts.items() if isinstance(v, str)}
        items = list(spans.items)
    else:
        table = spans.assign(annotator="gold")
        items = list(pd.unique(spans["item"]))
        done = pd.DataFrame({"item": items, "annotator": "gold"})
        texts = dict(texts or {})
    grouped = {k: g for k, g in table.groupby(["item", "annotator"], sort=False)}
    who_done = done.groupby("item", sort=False)["annotator"].apply(list).to_dict()
    tasks = []
    for number, item in enumerate(items, start=1):
        data = {"text": texts[item]} if item in texts else {}
        annotations = []
        for who in who_done.get(item, []):
            g = grouped.get((item, who))
            result = []
            for k, (s, e, lab) in enumerate(
                [] if g is None else zip(g["start"], g["end"], g["label"], strict=True)
            ):
                value = {"start": int(s), "end": int(e), "labels": [str(lab)]}
                if item in texts:
                    value["text"] = texts[item][int(s) : int(e)]
                result.append(
                    {
                        "id": f"{number}-{k}",
                        "from_name": "label",
                        "to_name": "text",
                        "type": "labels",
                        "value": value,
                    }
                )
            annotations.append(
                {"completed_by": json_id(who), "was_cancelled": False, "result": result}
            )
        tasks.append({"id": json_id(item), "data": data, "annotations": annotations})
    return json.dumps(tasks, ensure_ascii=False, indent=1)
