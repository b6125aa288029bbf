"""Export any loaded data set as a plain CSV that Concord (and a spreadsheet) reads back.

Two shapes:

* **long** (:func:`to_long_csv`): one row per judgement, columns ``item``,
  ``annotator``, ``label``; repeated judgements are kept.
* **wide** (:func:`to_wide_csv`): one row per item, one column per annotator, an empty
  cell where the annotator did not judge the item.

Multi-label sets are written as their categories joined by a separator (``;`` unless
a category contains it, then ``|``), in the categories' order; the empty set, a real
"none of these" judgement, is written ``{}`` so that it is not read back as missing.
Loading either file with :func:`analytics.load_annotations` gives the same judgements
(the separator is detected; for the wide file pass ``layout="wide"`` when the item
ids might look like an annotator column).

Every CSV Concord writes (these two, the app's table downloads, the report's zip, the
CLI's ``--out``) goes through :func:`table_to_csv`, which makes it safe to open in a
spreadsheet: a text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return (after any run of ``'``) gets one ``'`` in front (OWASP's rule against CSV
injection), so a spreadsheet shows it as text instead of running it as a formula.
Numbers are never touched (``-1.5`` in a numeric column is data). The loader removes
that one ``'`` again, so an export loads back unchanged; ``safe=False`` writes the
cells as they are. A text cell that is a plain number (``-12``, an id) is left as it is:
a spreadsheet reads it as that number, not as a formula.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.data.cells import MISSING_TOKENS
from analytics.data.kinds import LabelKind
from analytics.data.loading import as_annotations
from analytics.data.model import Annotations
from analytics.data.overview import wide_table

__all__ = [
    "EMPTY_SET",
    "FORMULA_PATTERN",
    "NUMBER_PATTERN",
    "choose_separator",
    "reload_options",
    "separator_for",
    "spreadsheet_safe",
    "table_to_csv",
    "to_long_csv",
    "to_wide_csv",
    "zip_texts",
]

EMPTY_SET = "{}"
SEPARATORS = (";", "|")
FORMULA_PATTERN = r"^'*[=+\-@\t\r]"
r"""A text cell a spreadsheet could read as a formula, once any leading ``'`` are set aside.

:func:`spreadsheet_safe` puts one ``'`` before each such cell unless it is a plain number
(:data:`NUMBER_PATTERN`); undoing it is removing the first character of every text cell
that matches ``^'+[=+\-@\t\r]`` (the cells that already began with ``'`` get one more,
so the undo is exact)."""
NUMBER_PATTERN = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
"""A whole text cell that is a number, such as the id ``-1283784112``: a spreadsheet reads
it as that number, never as a formula, so it is written as it is."""
TEXT_KINDS = frozenset({"string", "mixed", "mixed-integer"})  # pandas' kinds of text columns


def _safe_values(values: pd.Series) -> pd.Series:
    """Text values that match :data:`FORMULA_PATTERN` with ``'`` in front (``values`` itself
    when none does); non-text values, and columns of numbers, booleans or dates, as they are."""
    if isinstance(values.dtype, pd.CategoricalDtype):
        categories = values.cat.categories.to_series()
        safe = _safe_values(categories)
        return values if safe is categories else values.cat.rename_categories(list(safe))
    if not (pd.api.types.is_object_dtype(values) or pd.api.types.is_string_dtype(values)):
        return values
    if pd.api.types.infer_dtype(values, skipna=True) not in TEXT_KINDS:
        return values  # an object column without text (integer ids, say)
    # both are NaN for the non-text values of a mixed column
    starts = np.asarray(values.str.match(FORMULA_PATTERN).fillna(False), dtype=bool)
    number = np.asarray(values.str.fullmatch(NUMBER_PATTERN).fillna(False), dtype=bool)
    risky = starts & ~number
    if not risky.any():
        return values
    out = values.astype(object)
    out.iloc[np.flatnonzero(risky)] = ("'" + values[risky].astype(str)).to_numpy()
    return out


def _safe_index(index: pd.Index) -> pd.Index:
    if isinstance(index, pd.MultiIndex):
        return index.set_levels([_safe_index(level) for level in index.levels])
    labels = pd.Series(index, dtype=index.dtype)
    safe = _safe_values(labels)
    return index if safe is labels else pd.Index(safe, name=index.name)


def spreadsheet_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` in which no text cell, column name or index label starts a formula.

    Parameters
    ----------
    frame : pandas.DataFrame
        Any table.

    Returns
    -------
    pandas.DataFrame
        The same table, with one ``'`` put before every text value (cells of object,
        string or categorical columns, text column names and index labels) that matches
        :data:`FORMULA_PATTERN`: one that starts, after any ``'``, with ``=``, ``+``,
        ``-``, ``@``, a tab or a carriage return, and is not a plain number such as
        ``-12`` or ``+1.5e3`` (:data:`NUMBER_PATTERN`). Numeric, boolean and date columns
        are never changed.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"label": ["=1+1", "ok", "-x", "-7"], "score": [-1.5, 2.0, 3.0, 4.0]})
    >>> spreadsheet_safe(frame).to_dict("list")
    {'label': ["'=1+1", 'ok', "'-x", '-7'], 'score': [-1.5, 2.0, 3.0, 4.0]}
    """
    out = frame.copy()
    out.columns = _safe_index(out.columns)
    out.index = _safe_index(out.index)
    for k in range(out.shape[1]):
        out.isetitem(k, _safe_values(out.iloc[:, k]).array)  # by position, not by label
    return out


def table_to_csv(frame: pd.DataFrame, *, index: bool = True, safe: bool = True) -> str:
    """A table as CSV text that a spreadsheet opens without running anything.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table.
    index : bool, default True
        Write the index as the first column(s).
    safe : bool, default True
        Neutralise would-be formulas with :func:`spreadsheet_safe`; False writes every
        cell as it is.

    Returns
    -------
    str
        CSV text; a field that holds the delimiter, a quote or a line break is quoted.
        Lines end in ``\n``, or in ``\r\n`` when a text field holds a carriage return
        (Python's CSV writer quotes a field only for the line end's own characters).

    Examples
    --------
    >>> import pandas as pd
    >>> print(table_to_csv(pd.DataFrame({"a": ["@SUM(A1)", "x,y"]}), index=False), end="")
    a
    '@SUM(A1)
    "x,y"
    """
    if safe:
        frame = spreadsheet_safe(frame)
    text = frame.to_csv(index=index, lineterminator="\n")
    if "\r" in text:
        text = frame.to_csv(index=index, lineterminator="\r\n")
    return text


def separator_for(categories: Iterable[Any]) -> str | None:
    """The first of ``;`` and ``|`` that no category name contains (None: both are taken).

    The one rule for writing label sets as text, so that they split again: the long and
    wide exports (:func:`choose_separator`), the multi-label gold standard's download, and
    reading gold label sets back (:func:`analytics.dawid_skene.per_category_gold`).

    Examples
    --------
    >>> separator_for(["a", "b"]), separator_for(["p;q", "r"]), separator_for(["x;y", "z|w"])
    (';', '|', None)
    """
    names = [str(c) for c in categories]
    return next((sep for sep in SEPARATORS if not any(sep in n for n in names)), None)


def choose_separator(ann: Annotations | pd.DataFrame) -> str:
    """The first of ``;`` and ``|`` that no category name contains.

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        The annotations (or a long DataFrame).

    Returns
    -------
    str

    Raises
    ------
    AnnotationDataError
        When category names contain both, so sets could not be split again.
    """
    sep = separator_for(as_annotations(ann).categories)
    if sep is not None:
        return sep
    raise AnnotationDataError(
        "category names contain both ';' and '|', so label sets cannot be written as text "
        "and split again.",
        hint="Rename the categories, or save the long form with to_frame() to Parquet.",
    )


def _label_text(ann: Annotations, sep: str) -> np.ndarray:
    """Each judgement's label as text: sets joined by ``sep`` ({} for the empty set)."""
    if not ann.is_multilabel:
        return np.asarray(ann.categories, dtype=object)[ann.label_codes]
    names = np.asarray([str(c) for c in ann.categories], dtype=object)
    # one string per distinct set, then index by the judgement's set code (no per-row loop)
    per_set = np.array(
        [sep.join(names[row]) or EMPTY_SET for row in ann.label_sets_table], dtype=object
    )
    return per_set[ann.label_codes] if len(per_set) else np.array([], dtype=object)


def to_long_csv(
    ann: Annotations | pd.DataFrame, sep: str | None = None, *, safe: bool = True
) -> str:
    """The data set as long CSV text: ``item,annotator,label``, one row per judgement.

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        The annotations (or a long DataFrame).
    sep : str or None, default None
        Separator for multi-label sets; None picks one with :func:`choose_separator`
        (single-label data ignore it).
    safe : bool, default True
        Put ``'`` before text that a spreadsheet would run as a formula
        (:func:`table_to_csv`); False writes the labels and names as they are.

    Returns
    -------
    str
        CSV text with ``\n`` line ends (see :func:`table_to_csv`); the empty set is
        written ``{}``.

    Raises
    ------
    AnnotationDataError
        Multi-label data whose category names contain both ``;`` and ``|`` (and no
        ``sep`` given), see :func:`choose_separator`.
    """
    ann = as_annotations(ann)
    if ann.is_multilabel and sep is None:
        sep = choose_separator(ann)
    frame = pd.DataFrame(
        {
            "item": np.asarray(ann.items, dtype=object)[ann.item_codes],
            "annotator": np.asarray(ann.annotators, dtype=object)[ann.annotator_codes],
            "label": _label_text(ann, sep or ";"),
        }
    )
    return table_to_csv(frame, index=False, safe=safe)


def to_wide_csv(
    ann: Annotations | pd.DataFrame, sep: str | None = None, *, safe: bool = True
) -> str:
    """The data set as wide CSV text: an ``item`` column, then one column per annotator.

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        The annotations (or a long DataFrame).
    sep : str or None, default None
        Separator for multi-label sets; None picks one with :func:`choose_separator`
        (single-label data ignore it).
    safe : bool, default True
        Put ``'`` before text, annotator names included, that a spreadsheet would run as
        a formula (:func:`table_to_csv`); False writes them as they are.

    Returns
    -------
    str
        CSV text with ``\n`` line ends (see :func:`table_to_csv`); empty cells where an
        annotator did not judge.

    Raises
    ------
    AnnotationDataError
        When an annotator judged an item more than once (a wide table has one cell per
        item and annotator: export the long form instead), or an annotator is called
        ``item``.
    """
    ann = as_annotations(ann)
    if ann.has_repeats:
        raise AnnotationDataError(
            "some annotators judged the same item more than once, which a wide table "
            "(one cell per item and annotator) cannot hold.",
            hint="Export the long CSV instead.",
        )
    if "item" in {str(a) for a in ann.annotators}:
        raise AnnotationDataError(
            "an annotator is called 'item', the name of the wide table's first column.",
            hint="Export the long CSV instead, or rename the annotator.",
        )
    if ann.is_multilabel and sep is None:
        sep = choose_separator(ann)
    wide = wide_table(ann, sep=sep or ";")
    wide.index.name = "item"
    wide.columns = [str(c) for c in wide.columns]
    return table_to_csv(wide.reset_index(), index=False, safe=safe)


def zip_texts(files: dict[str, str]) -> bytes:
    """A zip archive of text files (UTF-8), each readable by everyone once unzipped.

    :mod:`zipfile` writes entries from text with mode 0600, so unzipped files were the
    owner's alone; these are 0644, as files written by hand.

    Parameters
    ----------
    files : dict of str to str
        Path inside the archive -> text.

    Returns
    -------
    bytes

    Examples
    --------
    >>> import io, zipfile
    >>> zf = zipfile.ZipFile(io.BytesIO(zip_texts({"a.csv": "x\\n1\\n"})))
    >>> zf.read("a.csv"), oct(zf.getinfo("a.csv").external_attr >> 16)
    (b'x\\n1\\n', '0o644')
    """
    import io
    import time
    import zipfile

    buffer = io.BytesIO()
    stamp = time.localtime()[:6]
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, text in files.items():
            entry = zipfile.ZipInfo(name, date_time=stamp)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            zf.writestr(entry, text.encode("utf-8"))
    return buffer.getvalue()


def reload_options(ann: Annotations) -> dict[str, Any]:
    """The :func:`~analytics.data.load_annotations` options that read :func:`to_long_csv`'s
    (or :func:`to_wide_csv`'s) file back to these annotations.

    A CSV holds the judgements, not what the loader was told: the label kind, the declared
    categories (their order, and the ones nobody used), a policy that kept repeated
    judgements, or missing-value texts taken out because a category is literally ``None``.
    Loaded with the defaults, an ordinal 1-7 scale used only up to 5 comes back nominal
    with five categories (Krippendorff's alpha 0.604 becomes 0.230).

    Parameters
    ----------
    ann : Annotations

    Returns
    -------
    dict
        Only the options the defaults would get wrong: ``kind`` (any kind but nominal),
        ``categories`` (any kind but nominal, or when a declared category is unused),
        ``duplicates="keep"`` (repeated judgements) and ``missing`` (the default missing
        texts without those that name a category, item or annotator). Empty when the
        defaults read the file back as it is.

    Examples
    --------
    >>> from analytics import Annotations
    >>> import pandas as pd
    >>> df = pd.DataFrame({"item": ["a", "a"], "annotator": ["x", "y"], "label": [1, 3]})
    >>> reload_options(Annotations.from_frame(df, kind="ordinal", categories=[1, 2, 3]))
    {'kind': 'ordinal', 'categories': [1, 2, 3]}
    """
    ann = as_annotations(ann)
    out: dict[str, Any] = {}
    if ann.kind is not LabelKind.NOMINAL:
        out["kind"] = ann.kind.value
    if ann.is_multilabel:
        used = ann.label_matrix.any(axis=0) if ann.label_matrix is not None else []
    else:
        used = np.bincount(ann.label_codes, minlength=len(ann.categories)) > 0
    # the order of an ordinal scale, and of a label-set table's columns, is not in the file
    ordered = ann.kind is not LabelKind.NOMINAL
    if ordered or not np.all(used):
        out["categories"] = [_plain(c) for c in ann.categories]
    if ann.has_repeats:
        out["duplicates"] = "keep"
    clash = set()  # vectorised: the items may be millions
    for names in (ann.categories, ann.items, ann.annotators):
        texts = pd.Index(names).astype(str).str.strip().str.lower()
        clash |= set(texts[texts.isin(MISSING_TOKENS)])
    if clash - {""}:
        out["missing"] = tuple(sorted(MISSING_TOKENS - clash))
    return out


def _plain(value: Any) -> Any:
    """A NumPy scalar as the Python value it holds (for options shown and passed on)."""
    return value.item() if isinstance(value, np.generic) else value
