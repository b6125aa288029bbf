"""Turning a long table of judgements into integer codes: the ingestion behind the model.

:func:`encode_frame` reads one judgement per row (item, annotator, label), skips and
counts the rows that are not judgements, decides the label kind, encodes items,
annotators and labels as integer codes and applies the duplicates policy. It returns an
:class:`Encoded` with everything :class:`~analytics.data.model.Annotations` needs;
:meth:`Annotations.from_frame <analytics.data.model.Annotations.from_frame>` is a thin
call into it. This module does not import the model.

>>> import pandas as pd
>>> df = pd.DataFrame({"item": ["i1", "i1", "i2"], "annotator": ["a", "b", "a"],
...                    "label": ["x", "y", "x"]})
>>> enc = encode_frame(df)
>>> enc.item_codes.tolist(), enc.label_codes.tolist(), list(enc.categories)
([0, 0, 1], [0, 1, 0], ['x', 'y'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_count
from analytics._core.threads import in_parallel
from analytics.data.cells import CellColumn, missing_tokens, set_codes
from analytics.data.kinds import SCALE_CAUTION, LabelKind
from analytics.data.label_codes import encode_labels
from analytics.data.load_report import LoadReport, SkipNote
from analytics.data.repeats import DUPLICATE_POLICIES, duplicates_kept, one_per_pair

__all__ = ["DUPLICATE_POLICIES", "Encoded", "encode_frame", "one_per_pair", "set_codes"]


@dataclass(frozen=True, eq=False)
class Encoded:
    """The encoded judgements: the fields of an :class:`~analytics.data.model.Annotations`.

    Parameters
    ----------
    item_codes, annotator_codes, label_codes : ndarray of int64, shape (n_judgements,)
        Codes into ``items``, ``annotators`` and ``categories`` (multi-label data: into
        the distinct label sets, see :func:`set_codes`).
    items, annotators, categories : pandas.Index
        The names behind the codes.
    kind : LabelKind
        The label kind, as chosen or inferred.
    label_matrix : ndarray of bool or None
        Multi-label data only: judgements x categories.
    report : LoadReport
        The loader's report, completed with what encoding found.
    """

    item_codes: np.ndarray
    annotator_codes: np.ndarray
    label_codes: np.ndarray
    items: pd.Index
    annotators: pd.Index
    categories: pd.Index
    kind: LabelKind
    label_matrix: np.ndarray | None
    report: LoadReport


def encode_frame(
    df: pd.DataFrame,
    *,
    item: str = "item",
    annotator: str = "annotator",
    label: str = "label",
    kind: str | LabelKind | None = None,
    categories: Sequence[Any] | None = None,
    multilabel_sep: str | None = None,
    duplicates: str = "error",
    name: str = "annotations",
    row_numbers: Sequence[int] | np.ndarray | None = None,
    report: LoadReport | None = None,
    missing: Iterable[str] | None = None,
    label_cells: CellColumn | None = None,
    id_cells: tuple[CellColumn, CellColumn] | None = None,
) -> Encoded:
    """Encode a long DataFrame with one judgement per row.

    Missing labels (empty, NA, None, NaN, null) mean "not labelled": those rows are
    skipped and counted in the report. Rows with no item or annotator are skipped and
    counted too. Items and annotators are kept as text, in first-seen order. Every cell
    is judged once per distinct value (:class:`~analytics.data.cells.CellColumn`), so
    the work per judgement is vectorised.

    Parameters
    ----------
    df : pandas.DataFrame
        Long data, one judgement per row.
    item, annotator, label : str, default "item", "annotator", "label"
        Column names.
    kind : str, LabelKind or None, default None
        ``"nominal"``, ``"ordinal"``, ``"numeric"`` or ``"multilabel"``. Inferred when
        None: sets in the cells, or a ``multilabel_sep``, mean multi-label; text labels
        are nominal; up to 12 whole numbers are nominal codes; other numbers are numeric.
        The report's ``kind_reason`` says which rule was used.
    categories : sequence or None, default None
        Declared categories, in order. Categories nobody used still count; labels outside
        them are an error. Text categories keep numeric-looking labels as text.
    multilabel_sep : str or None, default None
        Split text cells on this separator into label sets.
    duplicates : str, default "error"
        One annotator judging one item more than once: ``"error"``, ``"first"``,
        ``"last"`` or ``"keep"`` (see :data:`DUPLICATE_POLICIES`).
    name : str, default "annotations"
        The source named in error messages when there is no ``report``.
    row_numbers : sequence of int or None, default None
        The row number, as the user counts it in their file, of each row of ``df`` (for
        error messages). Defaults to the DataFrame's position + 2 (a header line, then
        1-based rows).
    report : LoadReport or None, default None
        What the loader found so far; completed and returned in the result.
    missing : iterable of str or None, default None
        Texts read as "not labelled" (case and surrounding blanks ignored); None means
        :data:`~analytics.data.cells.MISSING_TOKENS`; blank cells, None and NaN always
        are (see :func:`~analytics.data.cells.missing_tokens`).
    label_cells : CellColumn or None, default None
        The label column already factorized with the same ``missing`` (the loader
        passes the one it searched for a separator), so it is not factorized twice.
    id_cells : (CellColumn, CellColumn) or None, default None
        The item and annotator columns already factorized with the same ``missing``
        (the loader factorizes them on threads beside the label column).

    Returns
    -------
    Encoded

    Raises
    ------
    AnnotationDataError
        For a missing column, an unknown policy or kind, labels outside the declared
        categories, non-finite numbers, text labels read as numeric, lists or objects
        as ids, repeated judgements under the ``"error"`` policy, or no judgement at all.
    """
    source = report.source if report else name
    for role, col in (("item", item), ("annotator", annotator), ("label", label)):
        if col not in df.columns:
            raise AnnotationDataError(
                f"there is no {role} column '{col}'.",
                source=source,
                hint=f"Columns present: {', '.join(map(str, df.columns))}.",
            )
    if duplicates not in DUPLICATE_POLICIES:
        raise AnnotationDataError(
            f"unknown duplicates policy {duplicates!r}.",
            hint=f"Use one of: {', '.join(DUPLICATE_POLICIES)}.",
        )
    rows = (
        np.asarray(row_numbers, dtype=np.int64)
        if row_numbers is not None
        else np.arange(len(df), dtype=np.int64) + 2
    )
    skipped: list[SkipNote] = list(report.skipped) if report else []
    notes: list[str] = list(report.notes) if report else []
    cautions: list[str] = list(report.cautions) if report else []
    tokens = missing_tokens(missing)
    columns = {"item": item, "annotator": annotator, "label": label}
    given = {"label": label_cells}
    if id_cells is not None:
        given.update(item=id_cells[0], annotator=id_cells[1])
    todo = [r for r in columns if given.get(r) is None]
    cells = dict(
        zip(
            todo,
            in_parallel([partial(factorized, df[columns[r]], tokens) for r in todo], len(df)),
            strict=True,
        )
    )
    cells.update({r: c for r, c in given.items() if c is not None})
    for role in ("item", "annotator"):
        _refuse_container_ids(cells[role], rows, role, columns[role], source)

    keep, has_ids, n_missing = _judgement_rows(
        cells, columns, rows, skipped, report.tool if report else ""
    )
    rows_all, rows = rows, rows if keep.all() else _KeptRows(rows, keep)
    # the labels on one thread; the ids, then the repeated-judgement check, on another
    (labels, label_cautions, label_notes), (ids, id_cautions, (keep_dup, n_dup)) = in_parallel(
        [
            partial(
                encode_labels,
                cells["label"],
                keep,
                has_ids,
                rows,
                rows_all,
                categories,
                kind,
                multilabel_sep,
                source,
                label,
            ),
            partial(
                _ids_and_repeats, cells["item"], cells["annotator"], keep, duplicates, rows, source
            ),
        ],
        len(df),
    )
    matrix, label_values_codes, cat_values, lk, kind_reason, n_split = labels
    item_codes, item_names, ann_codes, ann_names = ids
    cautions += label_cautions + id_cautions
    notes += label_notes
    if not keep_dup.all():
        item_codes, ann_codes = item_codes[keep_dup], ann_codes[keep_dup]
        if matrix is not None:
            matrix = matrix[keep_dup]
        else:
            label_values_codes = label_values_codes[keep_dup]

    label_codes = set_codes(matrix) if matrix is not None else label_values_codes
    if len(item_codes) == 0:
        why = "; ".join(str(s) for s in skipped) or "every row was skipped"
        raise AnnotationDataError(
            f"no judgements: all {len(df):,} rows lack a label"
            + (f" ({n_missing:,} empty label cells)" if n_missing else "")
            + (f"; {why}" if skipped else "")
            + ".",
            source=source,
            column=label,
            hint="Check that the label column is the right one.",
        )
    if (
        lk is LabelKind.ORDINAL
        and categories is None
        and not pd.api.types.is_numeric_dtype(cat_values)
    ):
        cautions.append(
            "Ordinal labels without a declared order: the order used is the order of first "
            f"appearance ({', '.join(map(str, list(cat_values)[:8]))}); declare the categories "
            "in order for ordinal measures to mean anything."
        )

    rep = LoadReport(
        **{
            **(report.__dict__ if report else {"source": source}),
            "n_rows": report.n_rows if report and report.n_rows else len(df),
            "n_judgements": len(item_codes),
            "n_missing": (report.n_missing if report else 0) + n_missing,
            "skipped": tuple(skipped),
            "kind": lk.value,
            "kind_reason": kind_reason,
            "multilabel_sep": multilabel_sep,
            "n_split": n_split,
            "duplicates": duplicates,
            "n_duplicates": n_dup,
            "categories_declared": categories is not None,
            "cautions": tuple(cautions),
            "notes": tuple(notes),
            "kind_caution": SCALE_CAUTION if kind is None and _codes_scale(lk, cat_values) else "",
        }
    )
    return Encoded(
        item_codes=item_codes,
        annotator_codes=ann_codes,
        label_codes=label_codes,
        items=item_names,
        annotators=ann_names,
        categories=cat_values,
        kind=lk,
        label_matrix=matrix,
        report=rep,
    )


# ---------------------------------------------------------------------- steps
def factorized(values: pd.Series, tokens: frozenset) -> CellColumn:
    """:meth:`CellColumn.of` with its missing cells computed too (on a worker thread)."""
    col = CellColumn.of(values, tokens)
    col.cell_missing()
    return col


def _codes_scale(kind: LabelKind, categories: pd.Index) -> bool:
    """Three or more whole numbers inferred to be nominal codes (with two, 0/1, every
    distance gives the same agreement): they may be a scale read without its order."""
    return (
        kind is LabelKind.NOMINAL
        and pd.api.types.is_numeric_dtype(categories)
        and len(categories) >= 3
    )


class _KeptRows:
    """``rows[keep]``, gathered only when an error message asks for row numbers.

    The judgements' row numbers are read only to name rows in an error; gathering them
    for every load cost a copy of the row numbers (80 MB for 10 M rows) and its time.
    """

    def __init__(self, rows: np.ndarray, keep: np.ndarray) -> None:
        self._rows, self._keep, self._kept = rows, keep, None

    def __getitem__(self, index: Any) -> Any:
        if self._kept is None:
            self._kept = self._rows[self._keep]
        return self._kept[index]


def _refuse_container_ids(
    col: CellColumn, rows: np.ndarray, role: str, column: str, source: str
) -> None:
    if col.containers is None:
        return
    first = int(np.flatnonzero(col.containers)[0])
    raise AnnotationDataError(
        f"the {role} cells hold lists or objects (e.g. {str(col.cells[first])[:60]}), "
        f"which are not {role} ids.",
        source=source,
        column=str(column),
        rows=rows[col.containers].tolist(),
        hint="Put one plain id (text or a number) in each cell.",
    )


def _judgement_rows(
    cells: dict[str, CellColumn],
    columns: dict[str, str],
    rows: np.ndarray,
    skipped: list[SkipNote],
    tool: str = "",
) -> tuple[np.ndarray, np.ndarray, int]:
    """Which rows are judgements; note in ``skipped`` those with no item or annotator.

    A tool export's columns are the importer's (``annotator``), not the file's: the note
    then names the export instead of a column the file does not have.

    Returns the mask of judgements, the mask of rows with both ids, and how many label
    cells were empty on rows that had an item and an annotator.
    """
    bad_item = cells["item"].cell_missing()
    bad_ann = cells["annotator"].cell_missing()
    lab_missing = cells["label"].cell_missing()
    where = {
        role: f"empty in the {tool} export" if tool else f"column '{columns[role]}' empty"
        for role in ("item", "annotator")
    }
    bad = bad_item | bad_ann
    if not bad.any():  # the usual case: every row has both ids (two passes, not nine)
        return ~lab_missing, ~bad, int(np.count_nonzero(lab_missing))
    for mask, why in (
        (bad_item, f"no item id ({where['item']})"),
        (bad_ann & ~bad_item, f"no annotator id ({where['annotator']})"),
    ):
        if mask.any():
            skipped.append(SkipNote(why, int(mask.sum()), tuple(rows[mask][:20].tolist())))
    has_ids = ~bad
    n_missing = int(np.count_nonzero(lab_missing & has_ids))
    return has_ids & ~lab_missing, has_ids, n_missing


def _ids_and_repeats(
    items: CellColumn,
    annotators: CellColumn,
    keep: np.ndarray,
    duplicates: str,
    rows: np.ndarray | _KeptRows,
    source: str,
) -> tuple[tuple, list[str], tuple[np.ndarray, int]]:
    """Item and annotator codes (first-seen order) and names, and the duplicates policy.

    Returns ``((item_codes, items, annotator_codes, annotators), cautions, (keep, n_dup))``
    with ``keep`` and ``n_dup`` from :func:`~analytics.data.repeats.duplicates_kept`.
    """
    item_codes, item_names, cautions = _id_codes(items, keep, "item")
    ann_codes, ann_names, more = _id_codes(annotators, keep, "annotator")
    kept = duplicates_kept(item_codes, ann_codes, duplicates, item_names, ann_names, rows, source)
    return (item_codes, item_names, ann_codes, ann_names), cautions + more, kept


def _id_codes(
    col: CellColumn, keep: np.ndarray, role: str
) -> tuple[np.ndarray, pd.Index, list[str]]:
    """Codes and names of item or annotator ids, and a caution when blanks merged some."""
    codes, names, merged = col.id_codes(keep)
    cautions = []
    if merged:
        read = "appears with different surrounding blanks and was read as one id"
        if merged[0] != 1:
            read = "appear with different surrounding blanks and were read as one id each"
        cautions.append(
            f"{format_count(merged[0], f'{role} id')} {read} (e.g. "
            f"{' and '.join(map(repr, merged[1]))}); if they are different {role}s, make the ids "
            "differ by more than blanks."
        )
    alike = None if pd.api.types.is_numeric_dtype(col.uniques.dtype) else look_alike_ids(names)
    if alike:
        n, pair = alike
        cautions.append(
            f"{format_count(n, f'{role} id')} {'looks' if n == 1 else 'look'} the same as "
            f"another but {'differs' if n == 1 else 'differ'} in invisible characters or in how "
            f"accented letters are encoded (e.g. {' and '.join(map(ascii, pair))}); such ids "
            f"are read as different {role}s. If they are the same {role}, write the ids the "
            "same way (remove zero-width spaces and byte-order marks; save the text in "
            "Unicode NFC form)."
        )
    return codes, names, cautions


#: Characters no one sees (Unicode format characters: zero-width space U+200B, byte-order
#: mark U+FEFF, soft hyphen U+00AD, ...), for Arrow's regular expressions. The zero-width
#: joiner and non-joiner (U+200D, U+200C) are left to :data:`LONE_JOINERS`.
INVISIBLE = r"[^\P{Cf}\x{200C}\x{200D}]"

#: A zero-width joiner or non-joiner with plain ASCII (or an end) on one side, captured
#: to be kept. Between two other characters it changes what is drawn (the family emoji
#: is three emoji joined by U+200D; Persian and Indic words use both), so it is seen.
LONE_JOINERS = (
    (r"(^|[\x00-\x7F])[\x{200C}\x{200D}]+", r"\1"),
    (r"[\x{200C}\x{200D}]+([\x00-\x7F]|$)", r"\1"),
)


def look_alike_ids(names: pd.Index) -> tuple[int, list[str]] | None:
    """Distinct ids that read the same on screen: how many, and an example pair.

    Two ids look alike when they are equal once invisible format characters
    (:data:`INVISIBLE`, and joiners with ASCII or an end beside them: :data:`LONE_JOINERS`)
    are removed, the text is in Unicode NFC form (``café`` written
    with a combining accent) and blanks are stripped: ``'q1'`` and ``'q1\u200b'``,
    ``'1'`` and ``'\ufeff1'``. They stay two ids (nothing is guessed); the encoder
    cautions. Only ids that are not plain ASCII are looked at (Arrow's ASCII check, one
    pass), so 400,000 ASCII ids cost a millisecond or two.

    Parameters
    ----------
    names : pandas.Index
        Distinct ids, as text.

    Returns
    -------
    (int, list of str) or None
        How many ids look like another one, and the first such pair; None when none do.

    Examples
    --------
    >>> look_alike_ids(pd.Index(["q1", "q1\u200b", "q2"], dtype="str"))
    (1, ['q1\u200b', 'q1'])
    """
    if isinstance(names.dtype, pd.StringDtype) and names.dtype.storage == "pyarrow":
        arr = pa.chunked_array(names.array.__arrow_array__()).combine_chunks()
    else:
        arr = pa.array(names.to_numpy(object), type=pa.string(), from_pandas=True)
    other = ~pc.string_is_ascii(arr).to_numpy(zero_copy_only=False)
    if not other.any():
        return None
    raw = arr.filter(pa.array(other))
    seen = pc.replace_substring_regex(raw, INVISIBLE, "")
    for pattern, kept in LONE_JOINERS:
        seen = pc.replace_substring_regex(seen, pattern, kept)
    seen = pc.utf8_trim_whitespace(pc.utf8_normalize(seen, "NFC"))
    changed = np.flatnonzero(pc.not_equal(seen, raw).to_numpy(zero_copy_only=False))
    if not len(changed):
        return None
    raw, seen = raw.take(changed).to_pylist(), seen.take(changed)
    in_names = pc.is_in(seen, value_set=arr).to_numpy(zero_copy_only=False)
    keys = pd.Series(seen.to_pylist(), dtype=object)
    alike = in_names | keys.duplicated(keep=False).to_numpy()
    if not alike.any():
        return None
    first = int(np.flatnonzero(alike)[0])
    twin = keys[first] if in_names[first] else raw[int(np.flatnonzero(keys == keys[first])[1])]
    return int(alike.sum()), [raw[first], twin]
