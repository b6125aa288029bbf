"""Distances between set-valued labels, vectorised over boolean category rows.

Used by :func:`analytics.agreement.krippendorff_alpha` for multi-label data (Poesio &
Artstein 2005, section 3.2; Passonneau 2004, 2006). Each function takes two boolean arrays
of shape (..., n_categories) that broadcast against each other and returns the distance
for every pair, in [0, 1].

Conventions (the papers leave these cases open):

- Two empty sets are at distance 0 (both said "none of these"). NLTK's ``masi_distance``
  and ``jaccard_distance`` divide by zero there.
- The empty set against a non-empty set is at distance 1 under every measure. Poesio &
  Artstein's case list for Passonneau's distance is ambiguous here (the empty set is both
  a subset of B and disjoint from it); we take "disjoint", which agrees with Jaccard, Dice
  and MASI (all 1 there).

Every measure is a function of three counts only: ``|A & B|``, ``|A|`` and ``|B|``.
:func:`distance_matrix` therefore gets the intersections of all pairs of distinct sets in
one integer matrix product instead of broadcasting an n x n x categories array.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from analytics._core.errors import AnnotationDataError

__all__ = ["SET_DISTANCES", "dice", "distance_matrix", "jaccard", "masi", "passonneau"]

SetDistance = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _sizes(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``|A & B|``, ``|A|``, ``|B|`` for broadcast boolean rows."""
    a = np.asarray(a, bool)
    b = np.asarray(b, bool)
    inter = (a & b).sum(axis=-1)
    na, nb = np.broadcast_arrays(a.sum(axis=-1), b.sum(axis=-1))
    return inter, na, nb


def _jaccard(inter: np.ndarray, na: np.ndarray, nb: np.ndarray) -> np.ndarray:
    union = na + nb - inter
    return np.where(union == 0, 0.0, 1.0 - inter / np.maximum(union, 1))


def _dice(inter: np.ndarray, na: np.ndarray, nb: np.ndarray) -> np.ndarray:
    total = na + nb
    return np.where(total == 0, 0.0, 1.0 - 2.0 * inter / np.maximum(total, 1))


def _monotonicity(inter: np.ndarray, na: np.ndarray, nb: np.ndarray) -> np.ndarray:
    """1 identical, 2 one a proper subset of the other, 3 overlapping, 4 disjoint.

    The empty set against a non-empty set is level 4 (disjoint).
    """
    union = na + nb - inter
    equal = inter == union
    subset = (inter == np.minimum(na, nb)) & (inter > 0)
    overlap = inter > 0
    return np.select([equal, subset, overlap], [1, 2, 3], default=4)


_PASSONNEAU_LEVELS = np.array([np.nan, 0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0])
# Passonneau's (2006) weights, as NLTK 3.9+ has them (NLTK before 3.9 rounded them to 0.67
# and 0.33, which moves MASI in the third decimal).
_MASI_WEIGHTS = np.array([np.nan, 1.0, 2.0 / 3.0, 1.0 / 3.0, 0.0])


def _passonneau(inter: np.ndarray, na: np.ndarray, nb: np.ndarray) -> np.ndarray:
    return _PASSONNEAU_LEVELS[_monotonicity(inter, na, nb)]


def _masi(inter: np.ndarray, na: np.ndarray, nb: np.ndarray) -> np.ndarray:
    weight = _MASI_WEIGHTS[_monotonicity(inter, na, nb)]
    union = na + nb - inter
    return np.where(union == 0, 0.0, 1.0 - inter / np.maximum(union, 1) * weight)


def jaccard(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    r"""Jaccard distance :math:`1 - |A \cap B| / |A \cup B|` (0 for two empty sets).

    Poesio & Artstein (2005), section 3.2.
    """
    return _jaccard(*_sizes(a, b))


def dice(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    r"""Dice distance :math:`1 - 2|A \cap B| / (|A| + |B|)` (0 for two empty sets).

    Poesio & Artstein (2005), section 3.2. Never larger than the Jaccard distance.
    """
    return _dice(*_sizes(a, b))


def passonneau(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Passonneau's (2004) distance: 0 equal, 1/3 subset, 2/3 overlap, 1 disjoint.

    As given by Poesio & Artstein (2005), section 3.2. The empty set against a non-empty
    set counts as disjoint (distance 1), as in MASI, where the Jaccard factor is 0 there.
    """
    return _passonneau(*_sizes(a, b))


def masi(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    r"""MASI (Passonneau 2006): :math:`1 - J(A, B) \cdot M(A, B)`.

    :math:`J` is the Jaccard similarity and :math:`M` the monotonicity weight as NLTK's
    ``masi_distance`` has it: 1 identical, 2/3 subset, 1/3 overlap, 0 disjoint. Two empty
    sets are at distance 0 (NLTK divides by zero). Since :math:`J < 1` for unequal sets, MASI
    is never below the Jaccard or the Passonneau distance.
    """
    return _masi(*_sizes(a, b))


SET_DISTANCES: dict[str, SetDistance] = {
    "passonneau": passonneau,
    "masi": masi,
    "jaccard": jaccard,
    "dice": dice,
}

_FROM_SIZES: dict[str, Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]] = {
    "passonneau": _passonneau,
    "masi": _masi,
    "jaccard": _jaccard,
    "dice": _dice,
}


def distance_matrix(sets: np.ndarray, distance: str | SetDistance) -> np.ndarray:
    """Distances between every pair of rows of ``sets`` (n_sets x n_categories, bool).

    Parameters
    ----------
    sets
        Boolean rows, one per distinct label set (``Annotations.label_sets_table``).
    distance
        A name from :data:`SET_DISTANCES` or a vectorised callable ``f(a, b)`` of the same
        form as :func:`jaccard`.

    Returns
    -------
    ndarray of float, shape (n_sets, n_sets)
        Symmetric, zero on the diagonal. Computed on the distinct sets only, so the cost is
        n_sets squared, not the number of judgements squared.
    """
    sets = np.asarray(sets, bool)
    if sets.ndim != 2:
        raise AnnotationDataError("sets must be a 2-d boolean array (n_sets x n_categories).")
    if isinstance(distance, str):
        if distance not in _FROM_SIZES:
            known = ", ".join(SET_DISTANCES)
            raise AnnotationDataError(
                f"unknown set distance {distance!r}.", hint=f"Use one of: {known}."
            )
        # Intersections of all pairs in one integer matrix product (n_sets^2 memory only).
        as_int = sets.astype(np.int32)
        inter = as_int @ as_int.T
        size = as_int.sum(axis=1)
        return np.asarray(_FROM_SIZES[distance](inter, size[:, None], size[None, :]), float)
    return np.asarray(distance(sets[:, None, :], sets[None, :, :]), dtype=float)
