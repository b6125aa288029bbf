"""Distances between set-valued labels, vectorised over boolean category rows.

Used by :func:`analytics.agreement.krippendorff_alpha` for multi-label data (Poesio &
Artstein 2005, section 3; Passonneau 2004, 2006). Each function takes two boolean arrays
of shape (..., n_categories) that broadcast against each other and returns the distance
for every pair, in [0, 1]. Two empty sets are at distance 0 (both said "none of these").
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["SET_DISTANCES", "dice", "distance_matrix", "jaccard", "masi", "passonneau"]


def _sizes(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    a = np.asarray(a, bool)
    b = np.asarray(b, bool)
    inter = (a & b).sum(axis=-1)
    union = (a | b).sum(axis=-1)
    return inter, union, a.sum(axis=-1), b.sum(axis=-1)


def jaccard(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    r"""Jaccard distance :math:`1 - |A \cap B| / |A \cup B|` (0 for two empty sets)."""
    inter, union, _, _ = _sizes(a, b)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(union == 0, 0.0, 1.0 - inter / np.maximum(union, 1))


def dice(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    r"""Dice distance :math:`1 - 2|A \cap B| / (|A| + |B|)` (0 for two empty sets)."""
    inter, _, na, nb = _sizes(a, b)
    total = na + nb
    return np.where(total == 0, 0.0, 1.0 - 2.0 * inter / np.maximum(total, 1))


def _monotonicity(
    inter: np.ndarray, union: np.ndarray, na: np.ndarray, nb: np.ndarray
) -> np.ndarray:
    """1 identical, 2 one a subset of the other, 3 overlapping, 4 disjoint (empty vs not: 4)."""
    equal = inter == union
    subset = (inter == np.minimum(na, nb)) & (inter > 0)
    overlap = inter > 0
    return np.select([equal, subset, overlap], [1, 2, 3], default=4)


def passonneau(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Passonneau's (2004) distance: 0 equal, 1/3 subset, 2/3 overlap, 1 disjoint.

    The empty set against a non-empty set counts as disjoint (distance 1), as in MASI,
    where the Jaccard factor is 0 there.
    """
    inter, union, na, nb = _sizes(a, b)
    level = _monotonicity(inter, union, na, nb)
    return np.array([np.nan, 0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0])[level]


def masi(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """MASI (Passonneau 2006): ``1 - Jaccard similarity x monotonicity``.

    Monotonicity weights as NLTK's ``masi_distance`` has them: 1 identical, 0.67 subset,
    0.33 overlap, 0 disjoint. Two empty sets are at distance 0 (NLTK divides by zero).
    """
    inter, union, na, nb = _sizes(a, b)
    level = _monotonicity(inter, union, na, nb)
    weight = np.array([np.nan, 1.0, 0.67, 0.33, 0.0])[level]
    sim = np.where(union == 0, 1.0, inter / np.maximum(union, 1))
    return np.where(union == 0, 0.0, 1.0 - sim * weight)


SET_DISTANCES: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "passonneau": passonneau,
    "masi": masi,
    "jaccard": jaccard,
    "dice": dice,
}


def distance_matrix(sets: np.ndarray, distance: str | Callable) -> np.ndarray:
    """Distances between every pair of rows of ``sets`` (n_sets x n_categories, bool).

    ``distance`` is a name from :data:`SET_DISTANCES` or a vectorised callable of the same
    form. Computed on the distinct sets only, so the cost is n_sets squared, not the
    number of judgements squared.
    """
    fn = SET_DISTANCES[distance] if isinstance(distance, str) else distance
    sets = np.asarray(sets, bool)
    return np.asarray(fn(sets[:, None, :], sets[None, :, :]), dtype=float)
