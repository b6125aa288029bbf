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
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics.data.loading import as_annotations
from analytics.data.model import Annotations
from analytics.data.overview import wide_table

__all__ = ["EMPTY_SET", "choose_separator", "to_long_csv", "to_wide_csv"]

EMPTY_SET = "{}"
SEPARATORS = (";", "|")


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
    ann = as_annotations(ann)
    names = [str(c) for c in ann.categories]
    for sep in SEPARATORS:
        if not any(sep in n for n in names):
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


def to_long_csv(ann: Annotations | pd.DataFrame, sep: str | None = None) -> str:
    """The data set as long CSV text: ``item,annotator,label``, one row per judgement.

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        The annotations (or a long DataFrame).
    sep : str or None, default None
        Separator for multi-label sets; None picks one with :func:`choose_separator`
        (single-label data ignore it).

    Returns
    -------
    str
        CSV text with ``\n`` line ends; the empty set is written ``{}``.

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
    return frame.to_csv(index=False, lineterminator="\n")


def to_wide_csv(ann: Annotations | pd.DataFrame, sep: str | None = None) -> str:
    """The data set as wide CSV text: an ``item`` column, then one column per annotator.

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        The annotations (or a long DataFrame).
    sep : str or None, default None
        Separator for multi-label sets; None picks one with :func:`choose_separator`
        (single-label data ignore it).

    Returns
    -------
    str
        CSV text with ``\n`` line ends; empty cells where an annotator did not judge.

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
    return wide.reset_index().to_csv(index=False, lineterminator="\n")
