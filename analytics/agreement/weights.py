"""Agreement weights: how close two categories are, for the weighted coefficients.

:func:`weight_matrix` gives the categories x categories agreement weights: irrCAC's
named families (:data:`WEIGHT_FAMILIES`: identity, linear, quadratic, ordinal, radical,
ratio, circular, bipolar) or a matrix the user gives. ``weights=`` means the same for every
coefficient that has a weighted form. Every family but identity needs an order, so text
categories without a declared one are refused (:func:`weights_order_problem`) rather
than given an invented order.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analytics._core.budget import check_budget, estimate_bytes
from analytics._core.errors import AnnotationDataError, wrong_type
from analytics.agreement.prepared import Weights
from analytics.data import Annotations

__all__ = [
    "WEIGHT_FAMILIES",
    "agreement_weights",
    "category_positions",
    "weight_matrix",
    "weights_order_problem",
]


WEIGHT_FAMILIES = (
    "identity",
    "linear",
    "quadratic",
    "ordinal",
    "radical",
    "ratio",
    "circular",
    "bipolar",
)
"""The named weights ``weights=`` takes everywhere (irrCAC's families, Gwet 2014 ch. 3)."""


def agreement_weights(ann: Annotations, weights: Weights) -> tuple[np.ndarray | None, str]:
    """:func:`weight_matrix`, but None (not a q x q identity) when unweighted.

    The unweighted coefficients never need the identity matrix, and with 10,000
    categories it alone would take 800 MB.
    """
    if weights is None or (
        isinstance(weights, str) and weights in ("identity", "none", "unweighted")
    ):
        return None, ""
    return weight_matrix(ann, weights)


def category_positions(ann: Annotations) -> np.ndarray:
    """Where each category sits on its scale: its value (numbers) or its declared rank (text).

    Ranks count from 1, as irrCAC numbers text categories (only ratio weights, which
    compare :math:`(a - b)/(a + b)`, depend on where the count starts).

    Examples
    --------
    >>> import pandas as pd
    >>> from analytics.data import load_annotations
    >>> df = pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": [1, 6]})
    >>> category_positions(load_annotations(df)).tolist()
    [1.0, 6.0]
    >>> df["label"] = ["1", "6"]
    >>> category_positions(load_annotations(df, categories=["1", "6", "3"])).tolist()
    [1.0, 2.0, 3.0]
    """
    cats = ann.categories
    if _numeric(cats):
        return cats.to_numpy(dtype=float)
    return np.arange(1, len(cats) + 1, dtype=float)


def _numeric(cats: pd.Index) -> bool:
    """Numeric labels have values to measure distances with (booleans do not)."""
    return pd.api.types.is_numeric_dtype(cats.dtype) and not pd.api.types.is_bool_dtype(cats.dtype)


def weights_order_problem(ann: Annotations, weights: str) -> str:
    """Why ``weights`` cannot be used on these categories ("" when they can).

    Every named family but identity measures how far apart two categories are, so it
    needs an order: numeric labels, or text categories declared in order. Text whose order is
    only the order of first appearance has none.
    """
    cats = ann.categories
    if _numeric(cats) or ann.report.categories_declared:
        return ""
    shown = ", ".join(repr(str(c)) for c in list(cats)[:5]) + (", ..." if len(cats) > 5 else "")
    return (
        f"{weights} weights need an order of the categories, but these are text categories "
        f"without a declared order ({shown}); Concord will not invent one."
    )


def _scale(ann: Annotations, family: str) -> np.ndarray:
    """The positions :math:`x_k` a named family measures with (see :func:`weight_matrix`)."""
    x = category_positions(ann)
    if family == "ordinal":  # ranks on the scale, whatever the values
        return np.argsort(np.argsort(x)).astype(float) + 1.0
    return x


def _family_weights(x: np.ndarray, family: str) -> np.ndarray:
    """The named family's weights on positions ``x`` (1 on the diagonal)."""
    lo, hi = (float(x.min()), float(x.max())) if len(x) else (0.0, 0.0)
    span = hi - lo
    a, b = x[:, None], x[None, :]
    with np.errstate(invalid="ignore", divide="ignore"):
        if family == "linear":
            return 1.0 - np.abs(a - b) / (span or 1.0)
        if family == "quadratic":
            return 1.0 - ((a - b) / (span or 1.0)) ** 2  # span**2 overflows past 1e154
        if family == "radical":
            return 1.0 - np.sqrt(np.abs(a - b)) / np.sqrt(span or 1.0)
        if family == "ratio":
            top = ((hi - lo) / (hi + lo)) ** 2 if span else 1.0
            return 1.0 - ((a - b) / (a + b)) ** 2 / top
        if family == "ordinal":
            n = np.abs(a - b) + 1.0
            d = n * (n - 1.0) / 2.0
        elif family == "circular":
            d = np.sin(np.pi * (a - b) / (span + 1.0)) ** 2
        else:  # bipolar
            d = (a - b) ** 2 / ((a + b - 2.0 * lo) * (2.0 * hi - a - b))
            np.fill_diagonal(d, 0.0)
    top = d.max() if d.size else 0.0
    return 1.0 - d / top if top > 0 else np.eye(len(x))


def weight_matrix(ann: Annotations, weights: Weights) -> tuple[np.ndarray, str]:
    """Agreement weights :math:`w_{kl}` (1 on the diagonal) and a label for notes.

    Parameters
    ----------
    ann : Annotations
        The data (its categories give the positions :math:`x_k`).
    weights : None, str or array_like
        None (or ``"identity"``, ``"none"``, ``"unweighted"``), a family of
        :data:`WEIGHT_FAMILIES` (``"linear"``, ``"quadratic"``, ``"ordinal"``,
        ``"radical"``, ``"ratio"``, ``"circular"``, ``"bipolar"``), or a categories x
        categories matrix in [0, 1] with 1 on the diagonal, rows and columns in the order
        of ``ann.categories``.

    Returns
    -------
    w : ndarray, shape (q, q)
    label : str
        ``""`` when unweighted, else e.g. ``"linear weights"``.

    Raises
    ------
    AnnotationDataError
        An unknown family; a family on text categories without a declared order; ratio
        weights on a scale that is not positive; a matrix of the wrong shape or outside
        [0, 1].

    Notes
    -----
    With :math:`x_k` the category positions (their values for numeric labels, their
    ranks 1..q in the declared order for text categories, as irrCAC numbers text
    categories), :math:`x_{min}, x_{max}` the ends of the scale and
    :math:`R = x_{max} - x_{min}`, Gwet's (2014, ch. 3) families are

    - linear: :math:`1 - |x_k - x_l| / R`;
    - quadratic: :math:`1 - (x_k - x_l)^2 / R^2`;
    - radical: :math:`1 - \\sqrt{|x_k - x_l|} / \\sqrt{R}`;
    - ratio: :math:`1 - ((x_k - x_l)/(x_k + x_l))^2 / ((x_{max} - x_{min})/(x_{max} + x_{min}))^2`
      (positive scales only);
    - ordinal: :math:`1 - d_{kl} / \\max d` with :math:`d_{kl} = n_{kl}(n_{kl} - 1)/2`,
      :math:`n_{kl} = |k - l| + 1` counted in ranks (the values do not matter);
    - circular: :math:`1 - d_{kl} / \\max d` with
      :math:`d_{kl} = \\sin^2(\\pi (x_k - x_l) / (R + 1))`;
    - bipolar: :math:`1 - d_{kl} / \\max d` with
      :math:`d_{kl} = (x_k - x_l)^2 / ((x_k + x_l - 2 x_{min})(2 x_{max} - x_k - x_l))`
      off the diagonal.

    Text that looks numeric is text: ``categories=["1", "2", "3", "4", "6"]`` is weighted
    on ranks 1-5, as R's ``irr::kappa2`` weights factor levels. Text categories without a
    declared order have no order, and every family refuses them
    (:func:`weights_order_problem`) rather than invent one.

    References
    ----------
    Cohen, J. (1968). Weighted kappa. *Psychological Bulletin* 70(4), 213-220.
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., Advanced
    Analytics, chapter 3 (the weight families); implemented in the R and Python packages
    ``irrCAC`` (``linear.weights`` ... ``bipolar.weights``; ``irrCAC.weights.Weights``).

    Examples
    --------
    >>> import pandas as pd
    >>> from analytics.data import load_annotations
    >>> df = pd.DataFrame({"item": [1, 1, 2], "annotator": ["a", "b", "a"], "label": [1, 2, 3]})
    >>> weight_matrix(load_annotations(df), "radical")[0][0].round(3).tolist()
    [1.0, 0.293, 0.0]
    """
    q = ann.n_categories
    if weights is None or (
        isinstance(weights, str) and weights in ("identity", "none", "unweighted")
    ):
        return np.eye(q), ""
    check_budget(
        estimate_bytes(q * q, copies=4),
        f"the {q:,} x {q:,} agreement weights",
        "Use unweighted coefficients (weights=None), or merge categories.",
    )
    if isinstance(weights, str):
        weights = weights.strip().lower()  # "Linear" as "linear", as distances are read
        if weights in ("identity", "none", "unweighted"):
            return np.eye(q), ""
        if weights not in WEIGHT_FAMILIES:
            raise AnnotationDataError(
                f"unknown weights {weights!r}.",
                hint=f"Use None, one of {', '.join(map(repr, WEIGHT_FAMILIES))}, or a "
                "categories x categories matrix.",
            )
        problem = weights_order_problem(ann, weights)
        if problem:
            raise AnnotationDataError(
                problem,
                hint="Declare the categories in order (categories=[...], --categories a,b,c, "
                "or the Data page's declared order), load numeric labels, or use unweighted "
                "coefficients.",
            )
        x = _scale(ann, weights)
        if weights == "ratio" and len(x) and x.min() <= 0:
            raise AnnotationDataError(
                f"ratio weights need a positive scale, but the smallest category is {x.min():g}.",
                hint="Ratio weights compare (a - b) / (a + b); use linear or quadratic weights "
                "for scales that reach 0 or below.",
            )
        return _family_weights(x, weights), f"{weights} weights"
    try:
        w = np.asarray(weights, dtype=float)
    except (TypeError, ValueError):  # ["linear"], {"a": 1}: neither a family nor a matrix
        w = None
    if w is None or w.ndim != 2 or isinstance(weights, (bool, int, float, dict)):
        raise wrong_type(
            weights,
            "weights as None, a family name or a categories x categories matrix",
            hint=f"Families: {', '.join(map(repr, WEIGHT_FAMILIES))}.",
        )
    if w.shape != (q, q):
        raise AnnotationDataError(
            f"the weight matrix is {w.shape[0]} x {w.shape[1]}, but there are {q} categories.",
            hint="Give one row and one column per category, in the declared order.",
        )
    if not np.allclose(np.diag(w), 1.0) or (w < 0).any() or (w > 1).any():
        raise AnnotationDataError(
            "agreement weights must lie in [0, 1] with 1 on the diagonal (full agreement).",
        )
    return w, "custom weights"
