"""Krippendorff's coincidence matrix and distances between label values, kept sparse.

Krippendorff's alpha (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability";
Poesio & Artstein 2005, table 1) is

.. math::

    \\alpha = 1 - \\frac{D_o}{D_e}
           = 1 - (n - 1) \\frac{\\sum_{c,k} o_{ck}\\, \\delta^2_{ck}}
                               {\\sum_{c,k} n_c n_k\\, \\delta^2_{ck}}

with the coincidence matrix :math:`o_{ck} = \\sum_u \\sum_{i \\ne j} [c_{ui} = c][c_{uj} = k]
/ (m_u - 1)` over the pairable units (:math:`m_u \\ge 2` values), :math:`n_c = \\sum_k o_{ck}`
and :math:`n = \\sum_c n_c`.

Everything here is over the *distinct values* that occur, stored as a sparse matrix, so
that many distinct values (say 200 interval values on 10,000 items) cost neither time nor
memory: the ``krippendorff`` package builds dense units x values x values arrays instead.
The expected disagreement :math:`\\sum n_c n_k \\delta^2_{ck}` has closed forms for the
nominal, interval and ordinal metrics, so no values x values matrix is built for them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import sparse

from analytics._core.errors import AnnotationDataError, wrong_type
from analytics.agreement.set_distances import DKPRO_SET_DISTANCES, SET_DISTANCES
from analytics.data import Annotations, LabelKind

__all__ = [
    "METRIC_DISTANCES",
    "ValueTable",
    "alpha_from_coincidences",
    "coincidence_matrix",
    "pairs_after",
    "pairs_within_groups",
    "per_item_coincidences",
    "resolve_distance",
    "value_table",
]

METRIC_DISTANCES = ("nominal", "ordinal", "interval", "ratio")


@dataclass(frozen=True)
class ValueTable:
    """Per-item counts of each distinct value, and what the values are.

    Attributes
    ----------
    counts : scipy.sparse.csr_matrix, shape (n_items, n_values)
        How many judgements gave each value to each item (all judgements, repeats too).
    numbers : ndarray of float, shape (n_values,)
        The value as a number (numeric categories: their value; text: their rank in the
        declared order); NaN for multi-label sets.
    labels : ndarray of object, shape (n_values,)
        The original labels (category names, or frozensets of categories).
    sets : ndarray of bool, shape (n_values, n_categories) or None
        Multi-label data: the distinct label sets.
    """

    counts: sparse.csr_matrix
    numbers: np.ndarray
    labels: np.ndarray
    sets: np.ndarray | None = None


def value_table(ann: Annotations) -> ValueTable:
    """The items x distinct values count table of ``ann`` (sparse)."""
    if ann.is_multilabel:
        table = np.asarray(ann.label_sets_table)
        n_values = len(table)
        cats = np.asarray(ann.categories, dtype=object)
        labels = np.empty(n_values, dtype=object)
        labels[:] = [frozenset(cats[row]) for row in table]
        numbers = np.full(n_values, np.nan)
        sets = table
    else:
        n_values = ann.n_categories
        labels = np.asarray(ann.categories, dtype=object)
        numbers = _category_numbers(ann)
        sets = None
    counts = sparse.csr_matrix(
        (np.ones(ann.n_judgements), (ann.item_codes, ann.label_codes)),
        shape=(ann.n_items, n_values),
    )
    counts.sum_duplicates()
    return ValueTable(counts=counts, numbers=numbers, labels=labels, sets=sets)


def _category_numbers(ann: Annotations) -> np.ndarray:
    try:
        return ann.categories.to_numpy(dtype=float)
    except (TypeError, ValueError):
        return np.arange(ann.n_categories, dtype=float)


def pairs_after(groups: np.ndarray, *, with_self: bool = False) -> np.ndarray:
    """For each position of the sorted ``groups``, how many later positions share its group.

    That is the number of pairs the position starts as the left one in
    :func:`pairs_within_groups` (plus one with ``with_self``).
    """
    groups = np.asarray(groups)
    n = len(groups)
    if n == 0:
        return np.zeros(0, np.int64)
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
    sizes = np.diff(np.r_[starts, n])
    pos = np.arange(n) - np.repeat(starts, sizes)  # position within the group
    return np.repeat(sizes, sizes) - pos - (0 if with_self else 1)


def pairs_within_groups(
    groups: np.ndarray, *, with_self: bool = False, among: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """All pairs of positions that share a group, without a loop over groups.

    ``groups`` must be sorted. Returns ``(left, right)`` position arrays with
    ``left < right`` (or ``<=`` with ``with_self``); their number is
    :math:`\\sum_g m_g (m_g - 1) / 2` (plus :math:`m_g` with ``with_self``). With
    ``among`` (a boolean mask of the positions), only the pairs whose left position is
    in the mask, so the pairs can be built block by block.
    """
    after = pairs_after(groups, with_self=with_self)
    if among is None:
        lefts = np.arange(len(after))
    else:
        lefts = np.flatnonzero(among)
        after = after[lefts]
    left = np.repeat(lefts, after)
    first = np.cumsum(after) - after
    offset = np.arange(len(left)) - np.repeat(first, after) + (0 if with_self else 1)
    return left, left + offset


def coincidence_matrix(counts: sparse.csr_matrix) -> tuple[sparse.coo_matrix, np.ndarray]:
    """Krippendorff's coincidence matrix from an items x values count table.

    :math:`o = \\sum_u (n_u n_u^T - \\mathrm{diag}(n_u)) / (m_u - 1)` over the items with
    :math:`m_u \\ge 2` values (Krippendorff 2011, section B). Returns the matrix (sparse,
    values x values) and the number of judgements per item (``m_u``).
    """
    m = np.asarray(counts.sum(axis=1)).ravel()
    pairable = m >= 2
    scale = np.where(pairable, 1.0 / np.maximum(m - 1, 1), 0.0)
    scaled = sparse.diags(scale) @ counts
    o = (counts.T @ scaled).tocsr()
    marg = np.asarray(scaled.sum(axis=0)).ravel()  # sum_u n_uc / (m_u - 1)
    o = o - sparse.diags(marg)
    o = o.tocoo()
    return o, m


def per_item_coincidences(
    counts: sparse.csr_matrix,
) -> tuple[sparse.csr_matrix, np.ndarray, np.ndarray]:
    """Each item's contribution to the coincidence matrix, one column per value pair.

    Returns ``(P, rows, cols)``: ``P`` is items x pairs (sparse) and pair ``q`` is the value
    pair ``(rows[q], cols[q])``; summing ``P`` over items gives the coincidence matrix.
    Used for bootstrap resampling of items, where the totals are weighted sums of rows.
    """
    coo = counts.tocoo()
    order = np.lexsort((coo.col, coo.row))
    item, value, cnt = coo.row[order], coo.col[order], coo.data[order]
    m = np.asarray(counts.sum(axis=1)).ravel()
    left, right = pairs_within_groups(item, with_self=True)
    it = item[left]
    denom = m[it] - 1.0
    keep = denom > 0
    left, right, it, denom = left[keep], right[keep], it[keep], denom[keep]
    same = left == right
    contrib = np.where(same, cnt[left] * (cnt[left] - 1), cnt[left] * cnt[right]) / denom
    a, b = value[left], value[right]
    # off-diagonal pairs count in both orders; store each unordered pair once with weight 2
    contrib = np.where(same, contrib, 2.0 * contrib)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    n_values = counts.shape[1]
    key = lo * n_values + hi
    uniq, col = np.unique(key, return_inverse=True)
    p = sparse.csr_matrix((contrib, (it, col)), shape=(counts.shape[0], len(uniq)))
    p.sum_duplicates()
    return p, uniq // n_values, uniq % n_values


# ---------------------------------------------------------------------- distances
def resolve_distance(distance: str | Callable, kind: LabelKind) -> str | Callable:
    if callable(distance):
        for name, fn in {**SET_DISTANCES, **DKPRO_SET_DISTANCES}.items():
            if fn is distance:
                return name
        return distance
    if not isinstance(distance, str):
        raise wrong_type(
            distance,
            "distance as a name or a callable",
            hint=f"Names: {', '.join(METRIC_DISTANCES)}; or a function of two labels.",
        )
    name = distance.lower()
    if kind is LabelKind.MULTILABEL:
        if name not in SET_DISTANCES and name not in DKPRO_SET_DISTANCES and name != "nominal":
            allowed = ", ".join(["nominal", *SET_DISTANCES, *DKPRO_SET_DISTANCES])
            raise AnnotationDataError(
                f"distance {distance!r} is not defined between label sets.",
                hint=f"Use one of: {allowed}, or a callable on two label sets.",
            )
        return name
    if name not in METRIC_DISTANCES:
        extra = ""
        if name in SET_DISTANCES or name in DKPRO_SET_DISTANCES:
            extra = " Set distances apply to multi-label data only."
        raise AnnotationDataError(
            f"unknown distance {distance!r}.{extra}",
            hint=f"Use one of: {', '.join(METRIC_DISTANCES)}, or a callable on two labels.",
        )
    return name


def _pair_distances(
    name: str | Callable, table: ValueTable, rows: np.ndarray, cols: np.ndarray
) -> np.ndarray:
    """Squared distances (Krippendorff's delta squared) for the given value pairs."""
    if name == "nominal":
        return (rows != cols).astype(float)
    if name == "interval":
        v = table.numbers
        return (v[rows] - v[cols]) ** 2
    if name == "ratio":
        v = table.numbers
        s = v[rows] + v[cols]
        with np.errstate(invalid="ignore", divide="ignore"):
            d = ((v[rows] - v[cols]) / s) ** 2
        return np.where(s == 0, 0.0, d)
    if isinstance(name, str) and table.sets is not None:
        fn = SET_DISTANCES.get(name) or DKPRO_SET_DISTANCES[name]
        return np.asarray(fn(table.sets[rows], table.sets[cols]), dtype=float)
    return _callable_distances(name, table, rows, cols)


def _callable_distances(
    fn: Callable, table: ValueTable, rows: np.ndarray, cols: np.ndarray
) -> np.ndarray:
    """A user callable on two labels, called once per distinct pair of values."""
    out = np.empty(len(rows), dtype=float)
    labels = table.labels
    cache: dict[tuple[int, int], float] = {}
    for q, (r, c) in enumerate(zip(rows.tolist(), cols.tolist(), strict=True)):
        key = (r, c)
        if key not in cache:
            cache[key] = _distance_number(fn, labels[r], labels[c])
            _check_distance_value(fn, labels[r], labels[c], cache[key])
        out[q] = cache[key]
    return out


def _distance_number(fn: Callable, a: object, b: object) -> float:
    """``fn(a, b)`` as a float, or an error naming the function and what it returned."""
    raw = fn(a, b)
    try:
        if isinstance(raw, (str, bytes)):
            raise TypeError
        return float(raw)
    except (TypeError, ValueError):
        name, shown = getattr(fn, "__name__", type(fn).__name__), repr(raw)
        shown = shown if len(shown) <= 40 else shown[:39] + "…"
        raise AnnotationDataError(
            f"the distance function {name} returned {shown} ({type(raw).__name__}) "
            f"for the labels {a!r} and {b!r}; a distance must be a number.",
            hint="Fix the function: it returns the disagreement delta squared as a number "
            "(e.g. (a - b) ** 2).",
        ) from None


def _check_distance_value(fn: Callable, a: object, b: object, value: float) -> None:
    """A distance is a finite number >= 0, and 0 between a label and itself.

    Alpha's expected disagreement with a negative or NaN distance is meaningless, and its
    NaN would otherwise be blamed on the data; name the distance's fault instead.
    """
    name = getattr(fn, "__name__", type(fn).__name__)
    if not np.isfinite(value) or value < 0:
        raise AnnotationDataError(
            f"the distance function {name} returned {value!r} for the labels {a!r} and {b!r}; "
            "a distance must be a finite number of at least 0.",
            hint="Fix the function: it returns the disagreement delta squared (e.g. "
            "(a - b) ** 2), never a signed difference.",
        )
    if a == b and value != 0:
        raise AnnotationDataError(
            f"the distance function {name} returned {value!r} between the label {a!r} and "
            "itself; a label's distance to itself must be 0.",
            hint="Fix the function so that equal labels are at distance 0.",
        )


def _expected_numerator(name: str | Callable, table: ValueTable, n_c: np.ndarray) -> np.ndarray:
    """:math:`\\sum_{c,k} n_c n_k \\delta^2_{ck}` for each row of ``n_c`` (replicates x values).

    Closed forms (no values x values matrix) for nominal, interval and ordinal.
    """
    n_c = np.atleast_2d(n_c)
    n = n_c.sum(axis=1)
    if name == "nominal":
        return n**2 - (n_c**2).sum(axis=1)
    if name == "interval":
        return _spread(n_c, table.numbers)
    if name == "ordinal":
        return _spread(n_c, _midranks(n_c))
    used = np.flatnonzero(n_c.sum(axis=0) > 0)
    r, c = np.meshgrid(used, used, indexing="ij")
    delta = _pair_distances(name, table, r.ravel(), c.ravel()).reshape(len(used), len(used))
    sub = n_c[:, used]
    return np.einsum("bi,ij,bj->b", sub, delta, sub)


def _spread(n_c: np.ndarray, x: np.ndarray) -> np.ndarray:
    """:math:`\\sum_{c,k} n_c n_k (x_c - x_k)^2 = 2 n \\sum_c n_c (x_c - \\bar x)^2`, per row.

    Centred on the weighted mean :math:`\\bar x = \\sum_c n_c x_c / n` before squaring
    (two passes): the one-pass form :math:`2 (n \\sum n_c x_c^2 - (\\sum n_c x_c)^2)`
    cancels catastrophically when the values sit far from 0 (labels 100000.01 ...: interval
    alpha 0.7565 where it is 0.7609) and leaves a residue of about 1e-15 where every value
    is the same. ``x`` is one position per value, or one row of positions per replicate.
    """
    n = n_c.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = (n_c * x).sum(axis=1) / n
    return 2.0 * n * (n_c * (x - mean[:, None]) ** 2).sum(axis=1)


def _midranks(n_c: np.ndarray) -> np.ndarray:
    """Krippendorff's ordinal positions :math:`M_c = \\sum_{g<c} n_g + n_c/2`.

    The ordinal metric :math:`\\delta^2_{ck} = (\\sum_{g=c}^{k} n_g - (n_c + n_k)/2)^2`
    (Krippendorff 2011, section E) equals :math:`(M_k - M_c)^2`, so ordinal alpha is
    interval alpha on these frequency-based positions.
    """
    return np.cumsum(n_c, axis=-1) - n_c / 2.0


def alpha_from_coincidences(
    o_vals: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    table: ValueTable,
    distance: str | Callable,
    *,
    symmetric_upper: bool,
) -> np.ndarray:
    """Alpha for each replicate row of coincidence values ``o_vals`` (replicates x pairs).

    ``symmetric_upper`` says the pairs hold each unordered pair once (off-diagonal
    weights already doubled), as :func:`per_item_coincidences` builds them; otherwise
    ``(rows, cols)`` list every nonzero cell of the full matrix.
    """
    o_vals = np.atleast_2d(np.asarray(o_vals, dtype=float))
    n_values = len(table.labels)
    # marginals n_c = row sums of o, as a product with a sparse pairs x values indicator
    if symmetric_upper:  # each stored pair holds o_ck + o_kc: half to each margin
        q = np.arange(len(rows))
        ind = sparse.csr_matrix(
            (np.full(2 * len(rows), 0.5), (np.r_[q, q], np.r_[rows, cols])),
            shape=(len(rows), n_values),
        )
    else:
        ind = sparse.csr_matrix(
            (np.ones(len(rows)), (np.arange(len(rows)), rows)), shape=(len(rows), n_values)
        )
    n_c = np.asarray((ind.T @ o_vals.T).T)
    n = n_c.sum(axis=1)
    if distance == "ordinal":
        mid = _midranks(n_c)
        delta = (mid[:, rows] - mid[:, cols]) ** 2
        observed = (o_vals * delta).sum(axis=1)
    else:
        delta = _pair_distances(distance, table, rows, cols)
        observed = o_vals @ delta
    expected = _expected_numerator(distance, table, n_c)
    with np.errstate(invalid="ignore", divide="ignore"):
        alpha = 1.0 - (n - 1.0) * observed / expected
    # one value in use: nothing to disagree about, whatever rounding left in ``expected``
    # (weights 1/(m - 1) and a mean that is not exactly the value leave about 1e-15)
    varied = (n_c > 0).sum(axis=1) > 1
    return np.where(varied & (expected > 0), alpha, np.nan)
