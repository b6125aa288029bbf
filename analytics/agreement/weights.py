"""Agreement weights: how close two categories are, for the weighted coefficients.

:func:`weight_matrix` gives the categories x categories agreement weights (identity,
linear, quadratic, or a matrix the user gives); linear and quadratic weights need an
order, so text categories without a declared one are refused
(:func:`weights_order_problem`) rather than given an invented order.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analytics._core.budget import check_budget, estimate_bytes
from analytics._core.errors import AnnotationDataError
from analytics.agreement.prepared import Weights
from analytics.data import Annotations

__all__ = [
    "agreement_weights",
    "category_positions",
    "weight_matrix",
    "weights_order_problem",
]


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

    Examples
    --------
    >>> import pandas as pd
    >>> from analytics.data import load_annotations
    >>> df = pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "label": [1, 6]})
    >>> category_positions(load_annotations(df)).tolist()
    [1.0, 6.0]
    >>> df["label"] = ["1", "6"]
    >>> category_positions(load_annotations(df, categories=["1", "6", "3"])).tolist()
    [0.0, 1.0, 2.0]
    """
    cats = ann.categories
    if _numeric(cats):
        return cats.to_numpy(dtype=float)
    return np.arange(len(cats), dtype=float)


def _numeric(cats: pd.Index) -> bool:
    """Numeric labels have values to measure distances with (booleans do not)."""
    return pd.api.types.is_numeric_dtype(cats.dtype) and not pd.api.types.is_bool_dtype(cats.dtype)


def weights_order_problem(ann: Annotations, weights: str) -> str:
    """Why ``weights`` cannot be used on these categories ("" when they can).

    Linear and quadratic weights measure how far apart two categories are, so they need
    an order: numeric labels, or text categories declared in order. Text whose order is
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


def weight_matrix(ann: Annotations, weights: Weights) -> tuple[np.ndarray, str]:
    """Agreement weights :math:`w_{kl}` (1 on the diagonal) and a label for notes.

    Parameters
    ----------
    ann : Annotations
        The data (its categories give the values :math:`x_k`).
    weights : None, str or array_like
        None (or ``"identity"``, ``"none"``, ``"unweighted"``), ``"linear"``,
        ``"quadratic"``, or a categories x categories matrix in [0, 1] with 1 on the
        diagonal.

    Returns
    -------
    w : ndarray, shape (q, q)
    label : str
        ``""`` when unweighted, else e.g. ``"linear weights"``.

    Notes
    -----
    ``"linear"``: :math:`w_{kl} = 1 - |x_k - x_l| / (x_{max} - x_{min})`; ``"quadratic"``:
    :math:`w_{kl} = 1 - (x_k - x_l)^2 / (x_{max} - x_{min})^2`, where :math:`x` are the
    category values for numeric labels, and the ranks in the declared order for text
    categories (even text that looks numeric: ``categories=["1", "2", "3", "4", "6"]`` is
    weighted 0-4, as R's ``irr::kappa2`` weights factor levels). Text categories without
    a declared order have no order, and these weights refuse them
    (:func:`weights_order_problem`) rather than invent one.

    References
    ----------
    Cohen, J. (1968). Weighted kappa. *Psychological Bulletin* 70(4), 213-220.
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed. (the linear and
    quadratic weights for ordinal and interval data).
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
        if weights not in ("linear", "quadratic"):
            raise AnnotationDataError(
                f"unknown weights {weights!r}.",
                hint="Use None, 'linear', 'quadratic', or a categories x categories matrix.",
            )
        problem = weights_order_problem(ann, weights)
        if problem:
            raise AnnotationDataError(
                problem,
                hint="Declare the categories in order (categories=[...], --categories a,b,c, "
                "or the Data page's declared order), load numeric labels, or use unweighted "
                "coefficients.",
            )
        x = category_positions(ann)
        span = x.max() - x.min() if q else 0.0
        diff = np.abs(x[:, None] - x[None, :]) / (span if span > 0 else 1.0)
        if weights == "linear":
            return 1.0 - diff, "linear weights"
        return 1.0 - diff**2, "quadratic weights"
    w = np.asarray(weights, dtype=float)
    if w.shape != (q, q):
        raise AnnotationDataError(
            f"the weight matrix is {w.shape[0] if w.ndim else 0} x {w.shape[1] if w.ndim > 1 else 0}, "
            f"but there are {q} categories.",
            hint="Give one row and one column per category, in the declared order.",
        )
    if not np.allclose(np.diag(w), 1.0) or (w < 0).any() or (w > 1).any():
        raise AnnotationDataError(
            "agreement weights must lie in [0, 1] with 1 on the diagonal (full agreement).",
        )
    return w, "custom weights"
