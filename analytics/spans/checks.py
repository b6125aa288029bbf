"""The checks :meth:`SpanAnnotations.from_frame` runs on a table of spans.

Each raises :class:`~analytics.AnnotationDataError` naming the file, the column and the rows
(as a person counts them in the file).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics._core.ids import id_positions

__all__ = [
    "add_completed",
    "blank",
    "check_against_text",
    "check_overlaps",
    "collect_texts",
    "offsets",
]


def blank(col: pd.Series) -> np.ndarray:
    """Cells that are missing or hold only blanks (numbers are never blank)."""
    out = np.array(col.isna().to_numpy(), bool)
    if pd.api.types.is_numeric_dtype(col.dtype):
        return out
    maybe = np.flatnonzero(~out & pd.to_numeric(col, errors="coerce").isna().to_numpy())
    if len(maybe):
        text = col.iloc[maybe].astype(str).str.strip()
        out[maybe[(text == "").to_numpy()]] = True
    return out


#: The largest offset taken (2**53, where float64 still counts every character).
_LONGEST = float(2**53)


def offsets(col: pd.Series, name: str, source: str, rows: np.ndarray) -> np.ndarray:
    num = pd.to_numeric(col, errors="coerce").to_numpy(float, copy=True)
    if col.dtype == object or col.dtype == bool:  # JSON's true is not the offset 1
        num[np.fromiter((isinstance(v, bool | np.bool_) for v in col), bool, len(col))] = np.nan
    # no document is 2**53 characters long: larger offsets (1e29) were cast to int64's
    # smallest value, a span starting at -9223372036854775808
    bad = np.flatnonzero(~np.isfinite(num) | (num != np.round(num)) | (num < 0) | (num > _LONGEST))
    if len(bad):
        raise AnnotationDataError(
            f"{name} must be a whole number of characters from 0 to 2**53 "
            f"(got {col.iloc[bad[0]]!r})",
            source=source,
            column=name,
            rows=rows[bad].tolist(),
        )
    return num.astype(np.int64)


def collect_texts(
    frame: pd.DataFrame,
    item: np.ndarray,
    texts: Mapping[Any, str] | None,
    items: pd.Index,
    source: str,
    rownum: np.ndarray,
) -> pd.Series:
    out = pd.Series([None] * len(items), index=items, dtype=object)
    if "text" in frame.columns:
        given = frame["text"].to_numpy(object)
        has = np.array([isinstance(t, str) for t in given], bool)
        table = pd.DataFrame({"item": item[has], "text": given[has], "row": rownum[has]})
        first = table.drop_duplicates("item")
        merged = table.merge(first, on="item", suffixes=("", "_first"))
        bad = merged[merged["text"] != merged["text_first"]]
        if len(bad):
            raise AnnotationDataError(
                f"the text of document {bad['item'].iloc[0]!r} differs from the text given "
                f"at row {int(bad['row_first'].iloc[0])}",
                source=source,
                column="text",
                rows=bad["row"].tolist(),
                hint="Annotators of one document must have seen the same text; fix the export.",
            )
        out[first["item"].to_numpy(object)] = first["text"].to_numpy(object)
    texts = dict(zip(same_ids(list(texts or {}), items), (texts or {}).values(), strict=True))
    if texts and not any(key in items for key in texts):
        raise AnnotationDataError(
            f"texts= names no document of the table (it gives {_some(texts)}; the table has "
            f"{_some(items)})",
            source=source,
            hint="Key texts= by the document ids of the item column.",
        )
    for key, text in texts.items():
        if key not in items:  # a text for a document nobody annotated
            continue
        old = out[key]
        if isinstance(old, str) and old != text:
            raise AnnotationDataError(
                f"texts= gives a different text for document {key!r} than the table",
                source=source,
                column="text",
            )
        out[key] = str(text)
    return out


def same_ids(keys: list[Any], index: pd.Index) -> list[Any]:
    """Each key, or the id of ``index`` it names when it is not one itself but its text is.

    A CSV's ids are text; ``completed={2: [...]}`` or ``text={1: ...}`` from Python name
    the documents '2' and '1'. A key whose text names several ids is left as it is.
    """
    rows = id_positions(keys, index)
    return [index[r] if r >= 0 else k for k, r in zip(keys, rows, strict=True)]


def _some(ids: Iterable[Any], n: int = 3) -> str:
    shown = list(ids)
    listed = ", ".join(repr(v) for v in shown[:n])
    return listed + (", ..." if len(shown) > n else "")


def add_completed(
    completed: Mapping[Any, Iterable[Any]] | pd.DataFrame,
    items: pd.Index,
    annotators: pd.Index,
    done: np.ndarray,
    source: str,
) -> tuple[pd.Index, pd.Index, np.ndarray]:
    """Mark the pairs of ``completed=`` done, adding documents and annotators it names."""
    if isinstance(completed, pd.DataFrame):
        if not {"item", "annotator"} <= set(completed.columns):
            raise AnnotationDataError(
                "completed= needs the columns 'item' and 'annotator'", source=source
            )
        pairs = list(zip(completed["item"], completed["annotator"], strict=True))
    else:
        pairs = [(d, a) for d, anns in completed.items() for a in anns]
    bad = [p for p in pairs if pd.isna(p[0]) or pd.isna(p[1])]
    if bad:
        raise AnnotationDataError(
            f"completed= holds an empty item or annotator ({bad[0]!r})", source=source
        )
    # 2 names the document '2' of a CSV: ids match as the table's text, not as new ids
    pairs = list(
        zip(
            same_ids([d for d, _ in pairs], items),
            same_ids([a for _, a in pairs], annotators),
            strict=True,
        )
    )
    # an annotator who completed documents and marked nothing at all is kept
    new_annotators = pd.Index(
        pd.unique(np.array([a for _, a in pairs if a not in annotators], object))
    )
    if len(new_annotators):
        annotators = annotators.append(new_annotators)
        done = np.hstack([done, np.zeros((done.shape[0], len(new_annotators)), bool)])
    new_items = pd.Index(pd.unique(np.array([d for d, _ in pairs if d not in items], object)))
    if len(new_items):
        items = items.append(new_items)
        done = np.vstack([done, np.zeros((len(new_items), done.shape[1]), bool)])
    if pairs:
        d = items.get_indexer([p[0] for p in pairs])
        a = annotators.get_indexer([p[1] for p in pairs])
        done[d, a] = True
    return items, annotators, done


def check_against_text(
    texts: pd.Series,
    i_code: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    source: str,
    rows: np.ndarray,
) -> None:
    known = np.array([isinstance(t, str) for t in texts])
    if not known.any() or not len(i_code):
        return
    lengths = np.array([len(t) if isinstance(t, str) else 0 for t in texts], np.int64)
    has = known[i_code]
    bad = np.flatnonzero(has & (end > lengths[i_code]))
    if len(bad):
        k = bad[0]
        raise AnnotationDataError(
            f"end {end[k]} is past the end of document {texts.index[i_code[k]]!r} "
            f"({lengths[i_code[k]]:,} characters)",
            source=source,
            column="end",
            rows=rows[bad].tolist(),
            hint="Offsets are character positions in the document text, counted from 0.",
        )
    # positions where a span may not start or end: before a combining mark, inside a pair
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    joined = "".join(t if isinstance(t, str) else "" for t in texts)
    if not joined:
        return
    points = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    uniq, inverse = np.unique(points, return_inverse=True)
    inner = np.array([_joins_previous(int(u)) for u in uniq], bool)[inverse]
    for col, pos in (("start", start), ("end", end)):
        at = offsets[i_code] + pos
        inside = has & (pos > 0) & (pos < lengths[i_code])
        where = np.clip(at, 0, len(points) - 1)
        bad = np.flatnonzero(inside & inner[where])
        if len(bad):
            k = bad[0]
            raise AnnotationDataError(
                f"{col} {pos[k]} cuts a character in two in document "
                f"{texts.index[i_code[k]]!r} (the character there belongs to the one before "
                "it: a combining mark or half of a surrogate pair)",
                source=source,
                column=col,
                rows=rows[bad].tolist(),
                hint="Offsets must be Python (code point) offsets; tools that count UTF-16 "
                "units or bytes disagree on text with emoji or accents.",
            )


def _joins_previous(code: int) -> bool:
    if 0xDC00 <= code <= 0xDFFF:
        return True
    return unicodedata.category(chr(code)) in ("Mn", "Me")


def check_overlaps(
    i_code: np.ndarray,
    a_code: np.ndarray,
    l_code: np.ndarray,
    span: pd.DataFrame,
    source: str,
    rows: np.ndarray,
) -> None:
    if len(span) < 2:
        return
    start, end = span["start"].to_numpy(), span["end"].to_numpy()
    same = (i_code[1:] == i_code[:-1]) & (a_code[1:] == a_code[:-1]) & (l_code[1:] == l_code[:-1])
    # sorted by start within a group: any overlap shows as a start before the running max end
    group = np.concatenate([[0], np.cumsum(~same)])
    running = pd.Series(end).groupby(group).cummax().to_numpy()
    bad = np.flatnonzero(same & (start[1:] < running[:-1])) + 1
    if len(bad):
        k = bad[0]
        raise AnnotationDataError(
            f"annotator {span['annotator'].iloc[k]!r} has two overlapping "
            f"{span['label'].iloc[k]!r} spans in document {span['item'].iloc[k]!r} "
            f"(one ends at {running[k - 1]}, the next starts at {start[k]})",
            source=source,
            column="start",
            rows=sorted(rows[[k - 1, k]].tolist()),
            hint="Merge or delete one; spans of different labels may overlap.",
        )
