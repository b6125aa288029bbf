"""Numeric labels on a scale: which of the overview's answers apply.

Four of the five answers (noise, annotators, gold, more labels) compare labels as
categories: an item's label is one of them, an annotator confuses one with another.
Scores on a scale of many values (47.3, 51.0, ...) have no such categories: read as 164
categories, every annotator looked like chance and every item unsure. On such data those
answers are undefined, with this reason, and the recommendation reads agreement alone.
"""

from __future__ import annotations

from typing import Any

from analytics._core.formatting import format_count
from analytics.data import on_a_scale

__all__ = ["scale_reason"]


def scale_reason(ann: Any) -> str | None:
    """Why the category-based answers do not apply to these labels; None when they do.

    They do not on numeric labels of more than :data:`~analytics.data.kinds.MAX_CODES`
    distinct values (the loader reads fewer whole numbers as category codes, and a
    declared numeric scale of a few values can still be compared value by value).

    Parameters
    ----------
    ann : Annotations or LazyAnnotations

    Returns
    -------
    str or None

    Examples
    --------
    >>> import pandas as pd
    >>> from analytics import Annotations
    >>> rows = [(i, a, 10 * i + a + 0.5) for i in range(10) for a in range(3)]
    >>> ann = Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))
    >>> scale_reason(ann)[:54]
    'the labels are numbers on a scale (30 distinct values)'
    """
    if not on_a_scale(ann):
        return None
    return (
        f"the labels are numbers on a scale ({format_count(ann.n_categories, 'distinct value')}), "
        "and this answer compares labels as categories (exactly equal values), which a "
        "scale does not have; agreement on the scale is the first answer. To read the "
        "values as categories, load them with kind='ordinal' (or 'nominal')"
    )
