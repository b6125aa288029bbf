"""Krippendorff's alpha, with any distance, on any label kind, right on missing data.

:func:`krippendorff_alpha` (and :func:`build_alpha` with its bootstrap statistic) on top of
the coincidence engine (:mod:`analytics.agreement.coincidence`); :func:`default_distance`
is the distance that suits the label kind.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from analytics._core.bootstrap import ItemStatistic
from analytics._core.errors import AnnotationDataError
from analytics._core.lazy import engine_answer, is_lazy, no_engine_weights
from analytics.agreement.coincidence import (
    alpha_from_coincidences,
    coincidence_matrix,
    per_item_coincidences,
    resolve_distance,
    value_table,
)
from analytics.agreement.prepared import NO_PAIRS, Built, Coefficient, Weights, coders, undefined
from analytics.agreement.set_distances import DKPRO_SET_DISTANCES, SET_DISTANCES
from analytics.agreement.weights import agreement_weights
from analytics.data import Annotations, LabelKind, as_annotations

__all__ = [
    "alpha_statistic",
    "build_alpha",
    "check_distance",
    "default_distance",
    "distance_from_weights",
    "distance_label",
    "distance_options",
    "krippendorff_alpha",
]

ORDERED_DISTANCES = ("ordinal", "interval", "ratio")
"""Alpha's distances that depend on the order of the categories (not defined without one)."""


def _has_order(ann: Annotations) -> bool:
    """Whether the categories have an order: an ordinal or numeric kind, numbers, or a
    declared list (``categories=[...]``, given in order)."""
    return (
        ann.kind in (LabelKind.ORDINAL, LabelKind.NUMERIC)
        or pd.api.types.is_numeric_dtype(ann.categories)
        or ann.report.categories_declared
    )


def _no_order_reason(ann: Annotations, name: str) -> str:
    """Why an order-dependent distance is not used on these categories ("" when it is)."""
    if name not in ORDERED_DISTANCES or _has_order(ann):
        return ""
    names = sorted(map(str, ann.categories))  # sorted: the reason must not depend on rows
    shown = ", ".join(names[:8]) + (" ..." if len(names) > 8 else "")
    # an engine keeps no input order: its text categories come sorted (docs/scale.md)
    on_engine = ann.report.format in ("duckdb", "spark")
    seen = "sorted order" if on_engine else "first-seen order"
    return (
        f"the {name} distance needs the categories in order, but these are nominal text "
        f"labels without a declared order (only their {seen}, NOT declared, which is not "
        "a scale: alpha would change with it, e.g. with the order of the rows); declare the "
        "order: "
        f"load with categories=[...] listed in order (the categories: {shown}), or "
        'kind="ordinal"'
    )


def default_distance(ann: Annotations | pd.DataFrame) -> str:
    """The alpha distance that suits the label kind.

    Parameters
    ----------
    ann : Annotations or DataFrame

    Returns
    -------
    str
        nominal -> ``"nominal"``, ordinal -> ``"ordinal"``, numeric -> ``"interval"``,
        multi-label -> ``"masi"`` (MASI: partial credit for overlapping sets, more for
        subsets; the distance NLTK uses for set-valued labels).

    References
    ----------
    Krippendorff, K. (2004). *Content Analysis: An Introduction to Its Methodology*, 2nd
    ed., Sage, chapter 11 (the metrics for each level of measurement).
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. *Proceedings of LREC 2006*.
    """
    ann = ann if is_lazy(ann) else coders(ann)  # only the kind is read: an engine's will do
    return {
        LabelKind.NOMINAL: "nominal",
        LabelKind.ORDINAL: "ordinal",
        LabelKind.NUMERIC: "interval",
        LabelKind.MULTILABEL: "masi",
    }[ann.kind]


def distance_options(ann: Annotations | pd.DataFrame) -> list[str]:
    """The alpha distances that make sense for these labels, to offer a user.

    Parameters
    ----------
    ann : Annotations or DataFrame

    Returns
    -------
    list of str
        Multi-label data: the set distances, ``"nominal"``, then DKPro's readings
        (:data:`~analytics.agreement.set_distances.DKPRO_SET_DISTANCES`); numeric labels:
        ``"nominal", "ordinal", "interval", "ratio"`` (``"ratio"`` only when no value is
        below 0: a ratio scale starts at a true zero); text labels: ``"nominal",
        "ordinal"`` when the categories have an order (an ordinal kind, or categories
        declared in order), else ``"nominal"`` only (interval and ratio need numbers; an
        ordinal distance on unordered text would depend on the order of the rows).

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": ["x", "y"]})
    >>> distance_options(df)
    ['nominal']
    >>> from analytics.data import load_annotations
    >>> distance_options(load_annotations(df, categories=["y", "x"]))
    ['nominal', 'ordinal']
    """
    ann = ann if is_lazy(ann) else as_annotations(ann)  # kind and categories only
    if ann.kind is LabelKind.MULTILABEL:
        return [*SET_DISTANCES, "nominal", *DKPRO_SET_DISTANCES]
    if pd.api.types.is_numeric_dtype(ann.categories):
        signed = len(ann.categories) and ann.categories.min() < 0
        return ["nominal", "ordinal", "interval"] + ([] if signed else ["ratio"])
    return ["nominal", "ordinal"] if _has_order(ann) else ["nominal"]


def check_distance(ann: Annotations | pd.DataFrame, distance: str | Callable) -> str | Callable:
    """A distance :func:`krippendorff_alpha` knows for these labels, checked up front.

    Parameters
    ----------
    ann : Annotations, DataFrame or LazyAnnotations
        Only the label kind is used.
    distance : str or callable
        A distance name (any case) or a function of two labels.

    Returns
    -------
    str or callable
        The name in lower case (a set distance's name for its function), or the callable.

    Raises
    ------
    AnnotationDataError
        A name alpha does not know, or one not defined for the label kind (set distances
        on single-label data, metric ones on label sets).
    ArgumentTypeError
        ``distance`` is neither a name nor a callable.

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": ["x", "y"]})
    >>> check_distance(df, "Ordinal")
    'ordinal'
    """
    ann = ann if is_lazy(ann) else as_annotations(ann)  # kind only
    return resolve_distance(distance, ann.kind)


def alpha_statistic(ann: Annotations, distance: str | Callable) -> ItemStatistic:
    """Krippendorff's alpha as a sum over items of per-item coincidences (for the bootstrap)."""
    table = value_table(ann)
    pmat, rows, cols = per_item_coincidences(table.counts)

    def finish(t: np.ndarray) -> np.ndarray:
        return alpha_from_coincidences(t, rows, cols, table, distance, symmetric_upper=True)

    return ItemStatistic(pmat, finish)


def distance_label(name: str | Callable) -> str:
    """How a distance is named in notes: its name, or the callable's ``__name__``."""
    return name if isinstance(name, str) else getattr(name, "__name__", "custom")


def distance_from_weights(ann: Annotations, weights: Weights) -> Callable | None:
    """Alpha's distance :math:`\\delta^2_{kl} = 1 - w_{kl}` for agreement weights (None: none).

    Parameters
    ----------
    ann : Annotations
        Single-label data (the weights' rows and columns are its categories).
    weights : None, str or array_like
        As everywhere (:func:`~analytics.agreement.weights.weight_matrix`).

    Returns
    -------
    callable or None
        ``f(label_1, label_2)``, named after the weights (e.g. ``quadratic weights``);
        None when unweighted.

    Notes
    -----
    With :math:`\\delta^2 = 1 - w`, alpha's :math:`1 - D_o / D_e` is Gwet's (2014, ch. 4)
    weighted alpha :math:`(p_a - p_e) / (1 - p_e)` (irrCAC's ``krippen.alpha.raw`` with
    ``weights=``); quadratic weights on numeric labels give interval alpha.

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., Advanced
    Analytics, chapter 4 (Krippendorff's alpha with agreement weights).
    """
    if ann.is_multilabel and weights is not None:
        raise AnnotationDataError(
            "agreement weights are between single categories; these are multi-label data.",
            hint="Use a set distance (distance='masi', 'jaccard', ...) instead of weights.",
        )
    w, label = agreement_weights(ann, weights)
    if w is None:
        return None
    where = {c: k for k, c in enumerate(ann.categories)}

    def weights_distance(x: object, y: object) -> float:
        return float(1.0 - w[where[x], where[y]])

    weights_distance.__name__ = label
    return weights_distance


def build_alpha(ann: Annotations, distance: str | Callable) -> Built:
    """Krippendorff's alpha and a function building its bootstrap statistic."""
    name = resolve_distance(distance, ann.kind)
    if name in ("interval", "ratio") and not pd.api.types.is_numeric_dtype(ann.categories):
        raise AnnotationDataError(
            f"the {name} distance needs numeric labels; these are text.",
            hint="Use 'nominal' or 'ordinal' (ordinal uses the declared category order).",
        )
    if name == "ratio" and ann.n_categories and ann.categories.min() < 0:
        # (c - k) / (c + k) compares values with a true zero: across zero it is no distance
        # (-1 and 1 would be as far apart as 0 and 1, and c + k = 0 divides by zero)
        raise AnnotationDataError(
            f"the ratio distance needs values of 0 or more (a ratio scale starts at a true "
            f"zero), but the smallest value is {ann.categories.min():g}.",
            hint="Use 'interval' for values on both sides of zero.",
        )
    if ann.n_judgements == 0:
        return undefined("there are no judgements"), None
    if isinstance(name, str) and (unordered := _no_order_reason(ann, name)):
        return undefined(unordered), None
    table = value_table(ann)
    o, m = coincidence_matrix(table.counts)
    used = int((m >= 2).sum())
    if used == 0:
        return undefined(NO_PAIRS), None
    value = alpha_from_coincidences(o.data, o.row, o.col, table, name, symmetric_upper=False)[0]
    if np.isnan(value):
        reason = (
            "every pairable judgement has the same value (or all values are at distance 0), "
            "so expected disagreement is 0 and alpha is undefined"
        )
        return undefined(reason, used), None
    note = f"{distance_label(name)} distance"
    if name == "nominal" and ann.kind in (LabelKind.NUMERIC, LabelKind.ORDINAL):
        # the function's default: on numbers it ignores how far apart two labels are
        better = "interval" if ann.kind is LabelKind.NUMERIC else "ordinal"
        note += f" (these labels have an order: distance='{better}' counts how far apart)"
    if name == "ordinal" and not pd.api.types.is_numeric_dtype(ann.categories):
        order = ", ".join(map(str, ann.categories[:8])) + (" ..." if ann.n_categories > 8 else "")
        # an engine keeps no input order, so its categories are sorted (docs/scale.md); its
        # answers reach here as an in-memory table of count patterns carrying the engine's
        # report, whose format is the engine's name
        on_engine = ann.report.format in ("duckdb", "spark")
        unseen = "sorted order" if on_engine else "first-seen order"
        how = "declared order" if ann.report.categories_declared else f"{unseen}, NOT declared"
        note += f" (categories in {how}: {order})"
    return Coefficient(float(value), note, used), lambda: alpha_statistic(ann, name)


def krippendorff_alpha(
    ann: Annotations | pd.DataFrame,
    distance: str | Callable | None = "nominal",
    *,
    weights: Weights = None,
) -> Coefficient:
    """Krippendorff's alpha from the coincidence matrix.

    Parameters
    ----------
    ann : Annotations or DataFrame
        Judgements of any label kind, with any pattern of missing judgements.
    distance : str, callable or None, default "nominal"
        None: the label kind's default (:func:`default_distance`, as
        :func:`~analytics.agreement.agreement_report` reads None); ``"nominal"``, ``"ordinal"`` (Krippendorff's frequency-based metric
        :math:`\\delta^2_{ck} = (\\sum_{g=c}^k n_g - (n_c + n_k)/2)^2`, categories in their
        declared order), ``"interval"`` :math:`(c - k)^2`, ``"ratio"``
        :math:`((c - k)/(c + k))^2`; for multi-label data a set distance from
        :data:`~analytics.agreement.SET_DISTANCES` (``"masi"``, ``"passonneau"``,
        ``"jaccard"``, ``"dice"``; DKPro Agreement's readings ``"passonneau_dkpro"``,
        ``"masi_dkpro"``, where the empty set is a subset of every set) or ``"nominal"`` (sets equal or not); or a callable
        ``f(label_1, label_2) -> float`` returning the disagreement :math:`\\delta^2`
        (symmetric, 0 for equal labels; called once per pair of distinct values; labels
        are category names, or frozensets for multi-label data).
    weights : None, str or array_like, default None
        Keyword only. Agreement weights as for every weighted coefficient (a family of
        :data:`~analytics.agreement.WEIGHT_FAMILIES` or a q x q matrix), used as the
        distance :math:`\\delta^2_{kl} = 1 - w_{kl}` (:func:`distance_from_weights`);
        give either ``weights`` or a ``distance`` other than nominal, not both.

    Returns
    -------
    Coefficient
        ``items_used`` counts the pairable items (two or more judgements).

    Notes
    -----
    .. math:: \\alpha = 1 - (n - 1)\\frac{\\sum_{ck} o_{ck} \\delta^2_{ck}}
                                         {\\sum_{ck} n_c n_k \\delta^2_{ck}}

    with :math:`o_{ck}` the coincidences and :math:`n_c` their margins. Every pairable
    judgement counts: items with a single judgement are left out, items with
    :math:`m_u \\ge 2` judgements count with weight :math:`1/(m_u - 1)`.

    References
    ----------
    Poesio, M., & Artstein, R. (2005). The reliability of anaphoric annotation,
    reconsidered: taking ambiguity into account. *Proceedings of the Workshop on Frontiers
    in Corpus Annotation II*, table 1 (alpha = 1 - D_o / D_e with a distance metric).
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School
    for Communication, University of Pennsylvania (the coincidence matrix, the difference
    functions for nominal, ordinal, interval and ratio data, missing values; its
    4-observer x 12-unit example is a test of this function).
    Krippendorff, K. (2004). *Content Analysis: An Introduction to Its Methodology*, 2nd
    ed., Sage, chapter 11.

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3, 4, 4], "annotator": ["a", "b"] * 4,
    ...                    "label": ["x", "x", "y", "y", "x", "y", "y", "y"]})
    >>> round(krippendorff_alpha(df), 3)
    0.533
    """
    if distance is None:  # as agreement_report(distance=None): the label kind's default
        distance = default_distance(ann)
    if is_lazy(ann):
        no_engine_weights(ann, weights, "Krippendorff's alpha")
        return engine_answer("krippendorff_alpha", ann, distance)
    ann = coders(ann)
    by_weights = distance_from_weights(ann, weights)
    if by_weights is not None:
        if not (isinstance(distance, str) and distance.lower() == "nominal"):
            raise AnnotationDataError(
                "give either weights= or a distance for Krippendorff's alpha, not both.",
                hint="Weights w become the distance 1 - w; drop one of the two.",
            )
        distance = by_weights
    return build_alpha(ann, distance)[0]
