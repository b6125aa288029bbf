"""Crowd-sized pairwise views: annotators in a telling order, and a window of them.

With hundreds of annotators an annotator x annotator heatmap is unreadable at once. The
app orders the annotators so that similar ones sit together (:func:`annotator_order`,
average-linkage clustering of the pairwise values) and shows a window of them
(:func:`pairwise_window`), paged or found by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy.cluster.hierarchy import leaves_list, linkage
from scipy.spatial.distance import squareform

from analytics._core.errors import AnnotationDataError, check_known, require
from analytics.agreement.tables import Pairwise

__all__ = ["ORDERS", "annotator_order", "pairwise_window"]

ORDERS = ("clustered", "most shared items", "as loaded")


def annotator_order(pw: Pairwise, how: str = "clustered") -> list[Any]:
    """The annotators of a pairwise table in a telling order.

    Parameters
    ----------
    pw : Pairwise
        From :func:`~analytics.agreement.pairwise`.
    how : {"clustered", "most shared items", "as loaded"}, default "clustered"
        ``"clustered"``: the leaf order of average-linkage (UPGMA) clustering on the
        distance :math:`d_{ab} = (v_{\\max} - v_{ab})`, where :math:`v` is the coefficient
        (pairs without a value get the largest distance), so annotators who agree with
        each other sit together and blocks show groups. ``"most shared items"``:
        annotators with the most judged items first (ties: loaded order). ``"as loaded"``:
        the data set's order.

    Returns
    -------
    list
        Every annotator once.

    References
    ----------
    Sokal, R. R., & Michener, C. D. (1958). A statistical method for evaluating
    systematic relationships. *University of Kansas Science Bulletin* 38, 1409-1438
    (UPGMA, average linkage).

    Examples
    --------
    >>> import pandas as pd
    >>> v = pd.DataFrame([[np.nan, .1, .9], [.1, np.nan, .2], [.9, .2, np.nan]],
    ...                  index=list("abc"), columns=list("abc"))
    >>> pw = Pairwise(v, v.notna().astype(int) + 1, "cohen_kappa")
    >>> order = annotator_order(pw)
    >>> abs(order.index("a") - order.index("c"))  # the close pair sits together
    1
    """
    names = list(pw.values.index)
    if how == "as loaded" or len(names) < 3:
        return names
    if how == "most shared items":
        own = np.diag(pw.shared.reindex(index=names, columns=names).to_numpy())
        return [names[i] for i in np.argsort(-own, kind="stable")]
    if how != "clustered":
        raise AnnotationDataError(
            f"unknown annotator order {how!r}.", hint=f"Choose from: {', '.join(ORDERS)}."
        )
    values = pw.values.to_numpy(dtype=float)
    finite = np.isfinite(values)
    top = float(values[finite].max()) if finite.any() else 1.0
    low = float(values[finite].min()) if finite.any() else 0.0
    dist = np.where(finite, top - values, (top - low) + 1.0)
    dist = (dist + dist.T) / 2.0
    np.fill_diagonal(dist, 0.0)
    tree = linkage(squareform(dist, checks=False), method="average")
    return [names[i] for i in leaves_list(tree)]


def pairwise_window(pw: Pairwise, annotators: Sequence[Any]) -> Pairwise:
    """The pairwise table restricted to some annotators, in the given order.

    Parameters
    ----------
    pw : Pairwise
        From :func:`~analytics.agreement.pairwise`.
    annotators : sequence
        The annotators to keep (rows and columns), in order.

    Returns
    -------
    Pairwise

    Raises
    ------
    AnnotationDataError
        An annotator that is not in the table (the message names it).
    ArgumentTypeError
        ``pw`` is not a :class:`Pairwise`.
    """
    require(pw, isinstance(pw, Pairwise), "a Pairwise table", hint="Pass pairwise(ann).")
    keep = check_known(annotators, pw.values.index, "annotators", "the pairwise table")
    return Pairwise(
        pw.values.reindex(index=keep, columns=keep),
        pw.shared.reindex(index=keep, columns=keep),
        pw.coefficient,
    )
