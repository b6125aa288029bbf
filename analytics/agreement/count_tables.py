"""Agreement straight from an items x categories count table, fractional counts too.

:func:`count_table_agreement` computes the coefficients that depend on the data only
through the counts :math:`r_{ik}` (percent agreement, Fleiss' kappa, Brennan-Prediger,
Gwet's AC1/AC2, Krippendorff's alpha) from the table itself, with the same statistics as
the judgement-level coefficients (:mod:`analytics.agreement.coefficients`,
:mod:`analytics.agreement.coincidence`). It takes what
:func:`analytics.data.from_count_table` cannot turn into judgements: fractional counts,
as irrCAC's ``.dist`` functions accept them (e.g. counts averaged over sessions).
Cohen's kappa, Scott's pi and Conger's kappa need to know which rater gave which label,
which a count table does not say: their rows are NaN with that reason.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import sparse

from analytics._core.errors import AnnotationDataError, require
from analytics.agreement.coefficients import build_family, build_percent
from analytics.agreement.coincidence import (
    ValueTable,
    alpha_from_coincidences,
    coincidence_matrix,
    resolve_distance,
)
from analytics.agreement.krippendorff import distance_from_weights, distance_label
from analytics.agreement.prepared import (
    ANONYMOUS_RATERS,
    NO_PAIRS,
    Coefficient,
    Prepared,
    Weights,
    undefined,
)
from analytics.data import Annotations, LabelKind, LoadReport, count_matrix_of

__all__ = ["count_table_agreement"]


def _shell(items: pd.Index, cats: pd.Index, kind: str | None) -> Annotations:
    """Annotations without judgements: the items and categories the coefficients name.

    The columns of a count table are in order, so the categories count as declared.
    """
    return Annotations(
        item_codes=np.zeros(0, np.int64),
        annotator_codes=np.zeros(0, np.int64),
        label_codes=np.zeros(0, np.int64),
        items=items,
        annotators=pd.Index([], dtype=object),
        categories=cats,
        kind=LabelKind.parse(kind) if kind else LabelKind.NOMINAL,
        name="count table",
        report=LoadReport(layout="counts", categories_declared=True),
    )


def _alpha(counts: np.ndarray, ann: Annotations, distance: str, weights: Weights) -> Coefficient:
    """Krippendorff's alpha from the counts, as :func:`~analytics.agreement.krippendorff_alpha`."""
    by_weights = distance_from_weights(ann, weights)
    name = by_weights if by_weights is not None else resolve_distance(distance, ann.kind)
    try:
        numbers = ann.categories.to_numpy(dtype=float)
    except (TypeError, ValueError):
        numbers = np.arange(ann.n_categories, dtype=float)
    table = ValueTable(
        counts=sparse.csr_matrix(counts),
        numbers=numbers,
        labels=np.asarray(ann.categories, dtype=object),
    )
    o, m = coincidence_matrix(table.counts)
    used = int((m >= 2).sum())
    if used == 0:
        return undefined(NO_PAIRS)
    value = alpha_from_coincidences(o.data, o.row, o.col, table, name, symmetric_upper=False)[0]
    if np.isnan(value):
        return undefined("no variation among the counted values: alpha is undefined", used)
    return Coefficient(float(value), f"{distance_label(name)} distance", used)


def count_table_agreement(
    table: Any,
    *,
    categories: Sequence[Any] | None = None,
    weights: Weights = None,
    distance: str = "nominal",
    kind: str | None = None,
) -> pd.DataFrame:
    """Every coefficient defined on an items x categories count table.

    Parameters
    ----------
    table : DataFrame or array_like
        Items x categories counts :math:`r_{ik}` (finite, >= 0; fractional allowed), as
        :func:`analytics.data.from_count_table` reads them (a first column of item names
        is recognised).
    categories : sequence, optional
        Array input: the category names, in order. DataFrame input: the columns to use.
    weights : None, str or array_like, default None
        Agreement weights for Fleiss' kappa, AC2, Brennan-Prediger and alpha (as
        everywhere: :func:`~analytics.agreement.weights.weight_matrix`); the categories
        count as declared in column order.
    distance : str, default "nominal"
        Alpha's distance when no ``weights`` are given (``"ordinal"``, ``"interval"``,
        ``"ratio"`` for numeric category names).
    kind : str, optional
        ``"nominal"``, ``"ordinal"`` or ``"numeric"``.

    Returns
    -------
    DataFrame
        Columns ``coefficient, value, items_used, note``: percent agreement, Fleiss'
        kappa, Brennan-Prediger, Gwet's AC1 (AC2 when weighted), Krippendorff's alpha,
        and Cohen's kappa, Scott's pi and Conger's kappa as NaN with the reason (a count
        table does not say which rater gave which count).

    Raises
    ------
    AnnotationDataError
        A cell that is not a finite number >= 0, or bad weights or distance.
    ArgumentTypeError
        ``table`` is text or a path rather than a table.

    Notes
    -----
    With :math:`r_i = \\sum_k r_{ik}` and the :math:`n'` items with :math:`r_i \\ge 2`,
    :math:`p_a = \\frac{1}{n'} \\sum_i \\sum_k r_{ik}(r^\\star_{ik} - 1) / (r_i(r_i - 1))`,
    :math:`\\pi_k = \\frac{1}{n} \\sum_i r_{ik}/r_i`, and each coefficient's chance
    agreement (:func:`~analytics.agreement.chance_agreement`); alpha from the
    coincidences :math:`o = \\sum_i (r_i r_i^T - \\mathrm{diag}(r_i))/(r_i - 1)`. These
    are irrCAC's ``gwet.ac1.dist``, ``fleiss.kappa.dist``, ``bp.coeff.dist`` and
    ``krippen.alpha.dist``.

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., Advanced
    Analytics (the coefficients on the distribution of raters by subject and category).
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin* 76(5), 378-382.
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School
    for Communication, University of Pennsylvania.

    Examples
    --------
    >>> t = pd.DataFrame({"a": [2.5, 0.0, 1.0], "b": [0.0, 2.5, 1.5]})
    >>> count_table_agreement(t).set_index("coefficient")["value"].round(3)["Fleiss' kappa"]
    np.float64(0.464)
    """
    require(
        table,
        not isinstance(table, (str, bytes, os.PathLike)),
        "a count table (a DataFrame or a 2-d array of counts)",
        hint="Read a file first, e.g. count_table_agreement(pd.read_csv(path)).",
    )
    try:
        counts, items, cats = count_matrix_of(table, categories, "count table")
    except AnnotationDataError:
        raise
    except (TypeError, ValueError):  # [["a", "b"]]: cells numpy cannot read as numbers
        raise AnnotationDataError(
            "a count table holds numbers: how many raters chose each category.",
            hint="Pass a DataFrame or a 2-d array of counts >= 0 (items x categories).",
        ) from None
    ann = _shell(items, cats, kind)
    n_i = counts.sum(axis=1)
    p = Prepared(
        ann=ann,
        counts=sparse.csr_matrix(counts),
        n_i=n_i,
        item=np.zeros(0, np.int64),
        annotator=np.zeros(0, np.int64),
        label=np.zeros(0, np.int64),
        repeats=False,
    )
    ac = "Gwet's AC1" if weights is None else "Gwet's AC2"
    rows: list[tuple[str, Coefficient]] = [
        ("Percent agreement", build_percent(p)[0]),
        ("Fleiss' kappa", build_family(p, weights, "fleiss_kappa", "Fleiss' kappa")[0]),
        ("Brennan-Prediger", build_family(p, weights, "brennan_prediger", "Brennan-Prediger")[0]),
        (ac, build_family(p, weights, "gwet_ac1", ac)[0]),
        ("Krippendorff's alpha", _alpha(counts, ann, distance, weights)),
    ]
    for name in ("Cohen's kappa", "Scott's pi", "Conger's kappa"):
        rows.append((name, undefined(f"{name} {ANONYMOUS_RATERS}")))
    return pd.DataFrame(
        {
            "coefficient": [r[0] for r in rows],
            "value": [float(r[1]) for r in rows],
            "items_used": [r[1].items_used for r in rows],
            "note": [r[1].note for r in rows],
        }
    )
