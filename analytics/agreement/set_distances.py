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
  and MASI (all 1 there). DKPro Agreement reads it as a subset (Passonneau distance 1/3):
  ``passonneau(a, b, empty_set="subset")``, and by name the distances of
  :data:`DKPRO_SET_DISTANCES` (``"passonneau_dkpro"``, and ``"masi_dkpro"``, DKPro's
  MASI, the Jaccard distance times the Passonneau distance), which reproduce DKPro's
  published alpha values.

Every measure is a function of three counts only: ``|A & B|``, ``|A|`` and ``|B|``.
:func:`distance_matrix` therefore gets the intersections of all pairs of distinct sets in
one integer matrix product instead of broadcasting an n x n x categories array.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from analytics._core.errors import AnnotationDataError

__all__ = [
    "DKPRO_SET_DISTANCES",
    "EMPTY_SET_READINGS",
    "SET_DISTANCES",
    "dice",
    "distance_matrix",
    "jaccard",
    "masi",
    "masi_dkpro",
    "passonneau",
]

EMPTY_SET_READINGS = ("disjoint", "subset")
"""How Passonneau's distance reads the empty set against a non-empty set."""

SetDistance = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _rows(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    """Two label sets as boolean rows: rows as given, or two Python sets over their union.

    Anything else (a list of names, numbers other than 0 and 1) is refused: read as
    booleans, a list of names would be a set of every category.
    """
    sets = isinstance(a, (set, frozenset)), isinstance(b, (set, frozenset))
    if all(sets):
        names = sorted(a | b, key=repr)
        return np.isin(names, list(a)), np.isin(names, list(b))
    rows = np.asarray(a), np.asarray(b)
    for row, was_set in zip(rows, sets, strict=True):
        if row.dtype == bool:
            continue
        numeric = np.issubdtype(row.dtype, np.number)
        if was_set or not numeric or not np.isin(row, (0, 1)).all():
            raise AnnotationDataError(
                "a set distance takes two label sets as boolean category rows (True where "
                "the set holds the category), or as two Python sets.",
                hint="Pass e.g. masi({'a', 'b'}, {'a'}) or masi([True, True], [True, False]).",
            )
    return rows[0].astype(bool, copy=False), rows[1].astype(bool, copy=False)


def _sizes(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``|A & B|``, ``|A|``, ``|B|`` for broadcast boolean rows (or two Python sets)."""
    a, b = _rows(a, b)
    inter = (a & b).sum(axis=-1)
    na, nb = np.broadcast_arrays(a.sum(axis=-1), b.sum(axis=-1))
    return inter, na, nb


def _jaccard(inter: np.ndarray, na: np.ndarray, nb: np.ndarray) -> np.ndarray:
    union = na + nb - inter
    return np.where(union == 0, 0.0, 1.0 - inter / np.maximum(union, 1))


def _dice(inter: np.ndarray, na: np.ndarray, nb: np.ndarray) -> np.ndarray:
    total = na + nb
    return np.where(total == 0, 0.0, 1.0 - 2.0 * inter / np.maximum(total, 1))


def _monotonicity(
    inter: np.ndarray, na: np.ndarray, nb: np.ndarray, empty_set: str = "disjoint"
) -> np.ndarray:
    """1 identical, 2 one a proper subset of the other, 3 overlapping, 4 disjoint.

    The empty set against a non-empty set is level 4 (disjoint), or 2 with
    ``empty_set="subset"`` (DKPro's reading).
    """
    union = na + nb - inter
    equal = inter == union
    subset = (inter == np.minimum(na, nb)) & ((inter > 0) | (empty_set == "subset"))
    overlap = inter > 0
    return np.select([equal, subset, overlap], [1, 2, 3], default=4)


_PASSONNEAU_LEVELS = np.array([np.nan, 0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0])
# Passonneau's (2006) weights, as NLTK 3.9+ has them (NLTK before 3.9 rounded them to 0.67
# and 0.33, which moves MASI in the third decimal).
_MASI_WEIGHTS = np.array([np.nan, 1.0, 2.0 / 3.0, 1.0 / 3.0, 0.0])


def _passonneau(
    inter: np.ndarray, na: np.ndarray, nb: np.ndarray, empty_set: str = "disjoint"
) -> np.ndarray:
    return _PASSONNEAU_LEVELS[_monotonicity(inter, na, nb, empty_set)]


def _passonneau_dkpro(inter: np.ndarray, na: np.ndarray, nb: np.ndarray) -> np.ndarray:
    return _passonneau(inter, na, nb, "subset")


def _masi_dkpro(inter: np.ndarray, na: np.ndarray, nb: np.ndarray) -> np.ndarray:
    return _jaccard_dkpro(inter, na, nb) * _passonneau(inter, na, nb, "subset")


def _jaccard_dkpro(inter: np.ndarray, na: np.ndarray, nb: np.ndarray) -> np.ndarray:
    union = na + nb - inter
    return np.where(union == 0, 1.0, 1.0 - inter / np.maximum(union, 1))


def _check_reading(empty_set: str) -> None:
    if empty_set not in EMPTY_SET_READINGS:
        raise AnnotationDataError(
            f"unknown reading of the empty set {empty_set!r}.",
            hint="Use 'disjoint' (Concord's default) or 'subset' (DKPro Agreement's).",
        )


def _masi(inter: np.ndarray, na: np.ndarray, nb: np.ndarray) -> np.ndarray:
    weight = _MASI_WEIGHTS[_monotonicity(inter, na, nb)]
    union = na + nb - inter
    return np.where(union == 0, 0.0, 1.0 - inter / np.maximum(union, 1) * weight)


def jaccard(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    r"""Jaccard distance :math:`1 - |A \cap B| / |A \cup B|` (0 for two empty sets).

    Parameters
    ----------
    a, b : array_like of bool, shape (..., n_categories), or two sets
        Label sets as boolean category rows (they broadcast against each other), or as
        two Python sets (or frozensets) of category names.

    Returns
    -------
    ndarray of float
        The distance of every pair, in [0, 1].

    Notes
    -----
    .. math:: d_J(A, B) = 1 - \frac{|A \cap B|}{|A \cup B|}

    References
    ----------
    Poesio, M., & Artstein, R. (2005). The reliability of anaphoric annotation,
    reconsidered: taking ambiguity into account. *Proceedings of the Workshop on Frontiers
    in Corpus Annotation II*, ACL 2005, section 3.2.

    Examples
    --------
    >>> float(jaccard([True, True, False], [True, False, False]))
    0.5
    """
    return _jaccard(*_sizes(a, b))


def dice(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    r"""Dice distance :math:`1 - 2|A \cap B| / (|A| + |B|)` (0 for two empty sets).

    Parameters
    ----------
    a, b : array_like of bool, shape (..., n_categories), or two sets
        Label sets as boolean category rows (they broadcast against each other), or as
        two Python sets (or frozensets) of category names.

    Returns
    -------
    ndarray of float
        The distance of every pair, in [0, 1].

    Notes
    -----
    .. math:: d_D(A, B) = 1 - \frac{2 |A \cap B|}{|A| + |B|}

    Never larger than the Jaccard distance.

    References
    ----------
    Poesio, M., & Artstein, R. (2005). The reliability of anaphoric annotation,
    reconsidered: taking ambiguity into account. ACL 2005 workshop, section 3.2.

    Examples
    --------
    >>> round(float(dice([True, True, False], [True, False, False])), 3)
    0.333
    """
    return _dice(*_sizes(a, b))


def passonneau(a: np.ndarray, b: np.ndarray, empty_set: str = "disjoint") -> np.ndarray:
    r"""Passonneau's (2004) distance: 0 equal, 1/3 subset, 2/3 overlap, 1 disjoint.

    Parameters
    ----------
    a, b : array_like of bool, shape (..., n_categories), or two sets
        Label sets as boolean category rows (they broadcast against each other), or as
        two Python sets (or frozensets) of category names.
    empty_set : {"disjoint", "subset"}, default "disjoint"
        The empty set against a non-empty set: disjoint (distance 1, Concord's reading)
        or a subset (1/3, DKPro Agreement's ``SetAnnotationDistanceFunction``).

    Returns
    -------
    ndarray of float
        The distance of every pair, in [0, 1].

    Notes
    -----
    .. math:: d_P(A, B) = \begin{cases} 0 & A = B \\ 1/3 & A \subset B \text{ or }
              B \subset A \\ 2/3 & A \cap B \ne \emptyset \\ 1 & \text{otherwise}
              \end{cases}

    The empty set against a non-empty set counts as disjoint (distance 1) by default, as
    in MASI, where the Jaccard factor is 0 there; ``empty_set="subset"`` reads it as a
    subset (1/3), as DKPro Agreement does.

    References
    ----------
    Passonneau, R. (2004). Computing reliability for coreference annotation. *Proceedings
    of LREC 2004*.
    Poesio, M., & Artstein, R. (2005). The reliability of anaphoric annotation,
    reconsidered. ACL 2005 workshop, section 3.2 (the distance as used here).

    Examples
    --------
    >>> round(float(passonneau([True, True, False], [True, False, False])), 3)
    0.333
    >>> [round(float(passonneau([False, False], [True, False], r)), 3) for r in ("disjoint", "subset")]
    [1.0, 0.333]
    """
    _check_reading(empty_set)
    return _passonneau(*_sizes(a, b), empty_set)


def masi(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    r"""MASI (Passonneau 2006): :math:`1 - J(A, B) \cdot M(A, B)`.

    Parameters
    ----------
    a, b : array_like of bool, shape (..., n_categories), or two sets
        Label sets as boolean category rows (they broadcast against each other), or as
        two Python sets (or frozensets) of category names.

    Returns
    -------
    ndarray of float
        The distance of every pair, in [0, 1].

    Notes
    -----
    .. math:: d_{MASI}(A, B) = 1 - \frac{|A \cap B|}{|A \cup B|}\, M(A, B)

    :math:`M` is the monotonicity weight as NLTK's ``masi_distance`` has it: 1 identical,
    2/3 subset, 1/3 overlap, 0 disjoint. Two empty sets are at distance 0 (NLTK divides by
    zero). Since the Jaccard similarity is below 1 for unequal sets, MASI is never below
    the Jaccard or the Passonneau distance.

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. *Proceedings of LREC 2006*.

    Examples
    --------
    >>> round(float(masi([True, True, False], [True, False, False])), 3)
    0.667
    >>> round(float(masi({"a", "b"}, {"a"})), 3)  # NLTK's masi_distance: 0.667
    0.667
    """
    return _masi(*_sizes(a, b))


def masi_dkpro(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    r"""DKPro Agreement's MASI: the Jaccard distance times Passonneau's distance.

    Parameters
    ----------
    a, b : array_like of bool, shape (..., n_categories), or two sets
        Label sets as boolean category rows (they broadcast against each other), or as
        two Python sets (or frozensets) of category names.

    Returns
    -------
    ndarray of float
        The distance of every pair, in [0, 1].

    Notes
    -----
    .. math:: d(A, B) = d_J(A, B)\, d_P(A, B)

    with the empty set a subset of every set (:func:`passonneau` with
    ``empty_set="subset"``), as DKPro's ``MASISetAnnotationDistanceFunction`` computes it.
    This is not Passonneau's (2006) :math:`1 - J \cdot M` (:func:`masi`, NLTK's
    ``masi_distance``): a subset {a} of {a, b} is at 1/6 here and at 2/3 there. It is
    offered so that DKPro's published values can be reproduced by name.

    References
    ----------
    Meyer, C. M., Mieskes, M., Stab, C., & Gurevych, I. (2014). DKPro Agreement: an
    open-source Java library for measuring inter-rater agreement. *Proceedings of COLING
    2014: System Demonstrations*, 105-109.
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. *Proceedings of LREC 2006*.

    Examples
    --------
    >>> round(float(masi_dkpro([True, False], [True, True])), 4)
    0.1667
    """
    return _masi_dkpro(*_sizes(a, b))


SET_DISTANCES: dict[str, SetDistance] = {
    "passonneau": passonneau,
    "masi": masi,
    "jaccard": jaccard,
    "dice": dice,
}

DKPRO_SET_DISTANCES: dict[str, SetDistance] = {
    "passonneau_dkpro": lambda a, b: passonneau(a, b, empty_set="subset"),
    "masi_dkpro": masi_dkpro,
}
"""DKPro Agreement's readings, by name: Passonneau's distance with the empty set as a
subset (``SetAnnotationDistanceFunction``) and DKPro's MASI
(``MASISetAnnotationDistanceFunction``, :func:`masi_dkpro`)."""

_FROM_SIZES: dict[str, Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]] = {
    "passonneau": _passonneau,
    "masi": _masi,
    "jaccard": _jaccard,
    "dice": _dice,
    "passonneau_dkpro": _passonneau_dkpro,
    "masi_dkpro": _masi_dkpro,
}


def distance_matrix(sets: np.ndarray, distance: str | SetDistance) -> np.ndarray:
    """Distances between every pair of rows of ``sets`` (n_sets x n_categories, bool).

    Parameters
    ----------
    sets : ndarray of bool, shape (n_sets, n_categories)
        Boolean rows, one per distinct label set (``Annotations.label_sets_table``).
    distance : str or callable
        A name from :data:`SET_DISTANCES` or :data:`DKPRO_SET_DISTANCES`, or a vectorised
        callable ``f(a, b)`` of the same form as :func:`jaccard`.

    Returns
    -------
    ndarray of float, shape (n_sets, n_sets)
        Symmetric, zero on the diagonal. Computed on the distinct sets only, so the cost is
        n_sets squared, not the number of judgements squared.

    Raises
    ------
    AnnotationDataError
        ``sets`` is not 2-d, or ``distance`` is an unknown name.

    Notes
    -----
    Entry :math:`(s, t)` is :math:`d(A_s, A_t)` for the chosen distance: the named ones
    are computed from :math:`|A_s \\cap A_t|`, :math:`|A_s|` and :math:`|A_t|` alone
    (one integer matrix product gives every intersection). It is the distance table
    :math:`\\delta_{ck}` over the distinct values that Krippendorff's alpha with a set
    distance uses.

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. *Proceedings of LREC 2006* (the MASI distance).

    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School
    for Communication, University of Pennsylvania (the distance :math:`\\delta` of
    alpha).
    """
    sets = np.asarray(sets, bool)
    if sets.ndim != 2:
        raise AnnotationDataError("sets must be a 2-d boolean array (n_sets x n_categories).")
    if isinstance(distance, str):
        if distance not in _FROM_SIZES:
            known = ", ".join([*SET_DISTANCES, *DKPRO_SET_DISTANCES])
            raise AnnotationDataError(
                f"unknown set distance {distance!r}.", hint=f"Use one of: {known}."
            )
        # Intersections of all pairs in one integer matrix product (n_sets^2 memory only).
        as_int = sets.astype(np.int32)
        inter = as_int @ as_int.T
        size = as_int.sum(axis=1)
        return np.asarray(_FROM_SIZES[distance](inter, size[:, None], size[None, :]), float)
    return np.asarray(distance(sets[:, None, :], sets[None, :, :]), dtype=float)
