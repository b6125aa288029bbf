"""Bootstrap over items by resampling item *counts*, never by copying data.

Every agreement coefficient in :mod:`analytics.agreement` is a smooth function of sums
over items of per-item statistics (counts of categories, agreeing pairs, coincidences).
A bootstrap replicate draws ``n`` items with replacement; all it changes is how many
times each item is counted, so the replicate's sums are ``weights @ stats`` with
multinomial weights. Items with identical judgement patterns share one row of ``stats``
(their weights add), so typical data with a few hundred distinct patterns cost
a few hundred rows, whatever the number of items (Efron & Tibshirani 1993, ch. 6,
percentile intervals).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
from scipy import sparse, special, stats

from analytics._core.validation import check_confidence, check_whole

__all__ = [
    "ItemStatistic",
    "Patterns",
    "basic_interval",
    "bca_interval",
    "bootstrap_replicates",
    "check_resampling",
    "jackknife_interval",
    "jackknife_values",
    "percentile_interval",
]

_CELLS_PER_CHUNK = 4_000_000  # replicates x items drawn at once (32 MB of int64)
#: A replicate within this much of the estimate (relative, for estimates above 1) is a tie.
TIE_TOLERANCE = 1e-12


@dataclass(frozen=True)
class Patterns:
    """Items grouped by identical judgement pattern.

    Attributes
    ----------
    of_item : ndarray of int64, shape (n_items,)
        The pattern of each item.
    first_item : ndarray of int64, shape (n_patterns,)
        One item showing each pattern (its per-item statistics stand for the pattern).
    multiplicity : ndarray of int64, shape (n_patterns,)
        How many items show each pattern.
    """

    of_item: np.ndarray
    first_item: np.ndarray
    multiplicity: np.ndarray

    @classmethod
    def from_keys(cls, keys: np.ndarray) -> Patterns:
        """Group the rows of ``keys`` (items x anything, integers) that are identical."""
        keys = np.asarray(keys)
        if keys.ndim == 1:
            keys = keys[:, None]
        n = keys.shape[0]
        if n == 0:
            z = np.zeros(0, np.int64)
            return cls(z, z, z)
        # pack a row into one integer when it fits, which makes np.unique 1-D and fast
        base = int(keys.max()) + 2 if keys.size else 1
        if keys.shape[1] * np.log2(max(base, 2)) < 62:
            packed = np.zeros(n, np.int64)
            for col in range(keys.shape[1]):  # loop over annotators, not items
                packed = packed * base + (keys[:, col].astype(np.int64) + 1)
            _, first, inverse, counts = np.unique(
                packed, return_index=True, return_inverse=True, return_counts=True
            )
        else:
            _, first, inverse, counts = np.unique(
                keys, axis=0, return_index=True, return_inverse=True, return_counts=True
            )
        return cls(
            inverse.reshape(-1).astype(np.int64), first.astype(np.int64), counts.astype(np.int64)
        )

    @classmethod
    def identity(cls, n_items: int) -> Patterns:
        """Every item its own pattern."""
        idx = np.arange(n_items, dtype=np.int64)
        return cls(idx, idx, np.ones(n_items, np.int64))

    @property
    def n_items(self) -> int:
        return len(self.of_item)

    @property
    def n_patterns(self) -> int:
        return len(self.first_item)


@dataclass(frozen=True)
class ItemStatistic:
    """A coefficient written as ``finish(sum over items of stats)``.

    Attributes
    ----------
    stats : ndarray or scipy.sparse matrix, shape (n_items, k)
        Per-item sufficient statistics.
    finish : callable
        Maps totals of shape (replicates, k) to the coefficient, shape (replicates,) or
        (replicates, m) for m coefficients at once;
        NaN where undefined.
    """

    stats: np.ndarray | sparse.spmatrix
    finish: Callable[[np.ndarray], np.ndarray]

    def totals(self, weights: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
        """``weights @ stats[rows]`` as a dense (replicates, k) array."""
        s = self.stats if rows is None else self.stats[rows]
        if sparse.issparse(s):
            return np.asarray((s.T @ weights.T).T)
        return weights @ s

    def value(self) -> float:
        """The statistic on the data as they are (every item weighted once)."""
        n = self.stats.shape[0]
        return float(self.finish(self.totals(np.ones((1, n))))[0])


def _pattern_weights(
    patterns: Patterns, n_boot: int, rng: np.random.Generator, width: int = 1
) -> Iterator[np.ndarray]:
    """Multinomial item counts per replicate, summed by pattern, in chunks of replicates.

    ``width`` is the widest statistic: chunks stay under ``_CELLS_PER_CHUNK`` cells for
    both the draws and the totals.
    """
    n, u = patterns.n_items, patterns.n_patterns
    cap = max(1, _CELLS_PER_CHUNK // max(width, 1))
    if u * 8 < n:
        # few patterns: draw the pattern counts directly (same distribution)
        p = patterns.multiplicity / n
        step = max(1, min(cap, _CELLS_PER_CHUNK // max(u, 1)))
        for start in range(0, n_boot, step):
            b = min(step, n_boot - start)
            yield rng.multinomial(n, p, size=b).astype(float)
        return
    step = max(1, min(cap, _CELLS_PER_CHUNK // max(n, 1)))
    for start in range(0, n_boot, step):
        b = min(step, n_boot - start)
        drawn = patterns.of_item[rng.integers(0, n, size=(b, n))]
        flat = drawn + (np.arange(b) * u)[:, None]
        yield np.bincount(flat.ravel(), minlength=b * u).reshape(b, u).astype(float)


def bootstrap_replicates(
    statistics: dict[str, ItemStatistic],
    patterns: Patterns,
    n_boot: int,
    seed: int | None = 0,
) -> dict[str, np.ndarray]:
    """``n_boot`` bootstrap replicates of every statistic, all from the same resamples.

    Items are resampled with replacement (``n_items`` draws per replicate); each
    replicate's totals are the multinomial counts times the per-pattern statistics.
    """
    rng = np.random.default_rng(seed)
    out: dict[str, list[np.ndarray]] = {name: [] for name in statistics}
    if n_boot <= 0 or patterns.n_items == 0:
        return {name: np.zeros(0) for name in statistics}
    width = max(stat.stats.shape[1] for stat in statistics.values()) if statistics else 1
    for weights in _pattern_weights(patterns, n_boot, rng, width):
        for name, stat in statistics.items():
            with np.errstate(invalid="ignore", divide="ignore"):
                out[name].append(stat.finish(stat.totals(weights, patterns.first_item)))
    return {name: np.concatenate(parts) for name, parts in out.items()}


def percentile_interval(
    replicates: np.ndarray, confidence: float = 0.95
) -> tuple[float, float, int]:
    """Percentile interval of the finite replicates: ``(low, high, n_finite)``.

    Replicates where the coefficient is undefined (NaN) are left out and counted, so
    the caller can say how many there were.
    """
    reps = np.asarray(replicates, dtype=float)
    reps = reps[np.isfinite(reps)]
    if len(reps) < 2:
        return float("nan"), float("nan"), len(reps)
    tail = (1.0 - confidence) / 2.0
    lo, hi = np.quantile(reps, [tail, 1.0 - tail])
    return float(lo), float(hi), len(reps)


def jackknife_values(stat: ItemStatistic, patterns: Patterns) -> np.ndarray:
    """The statistic with one item left out, once per judgement pattern.

    Every item of a pattern gives the same leave-one-out value, so ``n_patterns`` values
    (weighted by :attr:`Patterns.multiplicity`) stand for the ``n_items`` of the
    jackknife. The totals are ``all items - the item left out``, in chunks of patterns that
    keep the dense totals under ``_CELLS_PER_CHUNK`` cells.

    Returns
    -------
    ndarray, shape (n_patterns,)
        NaN where the statistic is undefined without that item.
    """
    full = stat.totals(np.ones((1, stat.stats.shape[0])))
    width = max(full.shape[1], 1)
    step = max(1, _CELLS_PER_CHUNK // width)
    parts = []
    for start in range(0, patterns.n_patterns, step):
        rows = patterns.first_item[start : start + step]
        own = stat.stats[rows]
        own = own.toarray() if sparse.issparse(own) else np.asarray(own)
        with np.errstate(invalid="ignore", divide="ignore"):
            parts.append(np.asarray(stat.finish(full - own), dtype=float).reshape(len(rows)))
    return np.concatenate(parts) if parts else np.zeros(0)


def bca_interval(
    replicates: np.ndarray,
    estimate: float,
    jackknife: np.ndarray,
    multiplicity: np.ndarray | None = None,
    confidence: float = 0.95,
    min_level: float = 0.001,
) -> tuple[float, float, int, float, bool]:
    """Bias-corrected and accelerated (BCa) bootstrap interval.

    Parameters
    ----------
    replicates : ndarray
        Bootstrap replicates of the statistic (NaN: undefined, left out and counted).
    estimate : float
        The statistic on the data, :math:`\\hat\\theta`.
    jackknife : ndarray
        Leave-one-out values :math:`\\hat\\theta_{(i)}` (one per pattern of items).
    multiplicity : ndarray, optional
        How many items each jackknife value stands for (default: one each).
    confidence : float, default 0.95
    min_level : float, default 0.001
        The corrected levels must lie in ``[min_level, 1 - min_level]``: beyond, the
        interval would be an extreme tail of the resamples, the sign that the estimate's
        bias is comparable to its spread, and no interval is given.

    Returns
    -------
    low, high : float
        NaN when fewer than two replicates are finite, or when a corrected level lies
        beyond ``min_level``.
    n_finite : int
        Replicates used.
    z0 : float
        The bias correction (0: the replicates are centred on the estimate).
    clipped : bool
        A corrected level lies within ``0.5 / n_finite`` of an end, so the outermost
        replicates stand for it (as in R's ``boot.ci`` and SciPy): more replicates would
        widen that side.

    Notes
    -----
    With :math:`G` the share of replicates below the estimate (ties, within
    :data:`TIE_TOLERANCE` for rounding, count half),

    .. math:: z_0 = \\Phi^{-1}(G),\\qquad
              a = \\frac{\\sum_i d_i^3}{6 (\\sum_i d_i^2)^{3/2}},\\quad
              d_i = \\bar\\theta_{(\\cdot)} - \\hat\\theta_{(i)},

    and the interval runs between the replicates' quantiles
    :math:`\\Phi\\big(z_0 + \\frac{z_0 + z_\\alpha}{1 - a (z_0 + z_\\alpha)}\\big)` for
    :math:`z_\\alpha = \\Phi^{-1}((1 \\mp c)/2)`. A statistic whose bootstrap replicates
    are shifted from the estimate (a mean of many small-sample ratios is) has
    :math:`z_0 \\ne 0`, and the interval moves the other way: for a normal :math:`G`
    with bias :math:`b`, it is centred on :math:`\\hat\\theta - b`.

    References
    ----------
    Efron, B. (1987). Better bootstrap confidence intervals. *Journal of the American
    Statistical Association* 82(397), 171-185.
    Efron, B., & Tibshirani, R. J. (1993). *An Introduction to the Bootstrap*, Chapman &
    Hall, chapter 14.3 (equations 14.10, 14.14, 14.15).
    """
    reps = np.asarray(replicates, dtype=float)
    reps = reps[np.isfinite(reps)]
    n_ok = len(reps)
    if n_ok < 2 or not np.isfinite(estimate):
        return float("nan"), float("nan"), n_ok, float("nan"), False
    # ties within rounding: the estimate is summed in the data's row order, a replicate in
    # its draw's order, so a replicate equal to it (common for a statistic of counts) can
    # differ in the last bits, and an exact == moved z0 with the order of the rows
    tol = TIE_TOLERANCE * max(1.0, abs(estimate))
    tied = np.abs(reps - estimate) <= tol
    share = ((reps < estimate - tol).sum() + 0.5 * tied.sum()) / n_ok
    if not 0.0 < share < 1.0:
        z0 = float("inf") if share else float("-inf")
        return float("nan"), float("nan"), n_ok, z0, False
    z0 = float(special.ndtri(share))
    jack = np.asarray(jackknife, dtype=float)
    m = np.ones(len(jack)) if multiplicity is None else np.asarray(multiplicity, dtype=float)
    ok = np.isfinite(jack)
    jack, m = jack[ok], m[ok]
    a = 0.0
    if m.sum() > 1:
        d = np.average(jack, weights=m) - jack
        s2 = (m * d**2).sum()
        a = float((m * d**3).sum() / (6.0 * s2**1.5)) if s2 > 0 else 0.0
    z = special.ndtri(np.array([(1.0 - confidence) / 2.0, (1.0 + confidence) / 2.0]))
    levels = special.ndtr(z0 + (z0 + z) / (1.0 - a * (z0 + z)))
    if not (min_level <= levels[0] < levels[1] <= 1.0 - min_level):
        # the bias (or skew) is so large that the interval is a tail of the resamples
        return float("nan"), float("nan"), n_ok, z0, False
    clipped = bool(levels[0] < 0.5 / n_ok or levels[1] > 1.0 - 0.5 / n_ok)
    lo, hi = np.quantile(reps, levels)
    return float(lo), float(hi), n_ok, z0, clipped


def jackknife_interval(
    estimate: float,
    jackknife: np.ndarray,
    multiplicity: np.ndarray | None = None,
    confidence: float = 0.95,
) -> tuple[float, float, float, float]:
    """Jackknife bias-corrected interval: ``(low, high, bias, se)``.

    Parameters
    ----------
    estimate : float
        The statistic on all items, :math:`\\hat\\theta`.
    jackknife : ndarray
        Leave-one-out values :math:`\\hat\\theta_{(i)}` (one per pattern of items; NaN
        values are left out).
    multiplicity : ndarray, optional
        How many items each value stands for (default: one each).
    confidence : float, default 0.95

    Returns
    -------
    low, high, bias, se : float
        NaN with fewer than two finite leave-one-out values.

    Notes
    -----
    With :math:`n` items and :math:`\\bar\\theta_{(\\cdot)}` the mean leave-one-out value,

    .. math:: \\hat b = (n - 1)(\\bar\\theta_{(\\cdot)} - \\hat\\theta),\\qquad
              \\widehat{SE} = \\sqrt{\\frac{n-1}{n} \\sum_i (\\hat\\theta_{(i)} -
              \\bar\\theta_{(\\cdot)})^2},

    and the interval is :math:`\\hat\\theta - \\hat b \\pm t_{n-1,(1+c)/2}\\,\\widehat{SE}`.
    Quenouille's bias estimate removes a bias of order :math:`1/n` exactly, where the
    bootstrap's estimate of it can fall short (a mean over annotator pairs of kappas on
    few shared items: the bootstrap found 60% of the bias in the coverage simulation).

    References
    ----------
    Quenouille, M. H. (1956). Notes on bias in estimation. *Biometrika* 43(3/4), 353-360.
    Efron, B., & Tibshirani, R. J. (1993). *An Introduction to the Bootstrap*, Chapman &
    Hall, chapter 11 (equations 11.3 and 11.5).
    """
    jack = np.asarray(jackknife, dtype=float)
    m = np.ones(len(jack)) if multiplicity is None else np.asarray(multiplicity, dtype=float)
    ok = np.isfinite(jack)
    jack, m = jack[ok], m[ok]
    n = m.sum()
    if len(jack) < 1 or n < 2 or not np.isfinite(estimate):
        return float("nan"), float("nan"), float("nan"), float("nan")
    mean = np.average(jack, weights=m)
    bias = (n - 1) * (mean - estimate)
    se = float(np.sqrt((n - 1) / n * (m * (jack - mean) ** 2).sum()))
    half = float(stats.t.ppf(0.5 + confidence / 2.0, n - 1)) * se
    centre = estimate - bias
    return float(centre - half), float(centre + half), float(bias), se


def basic_interval(
    replicates: np.ndarray, estimate: float, confidence: float = 0.95
) -> tuple[float, float, int]:
    """Basic (reverse percentile) bootstrap interval: ``(low, high, n_finite)``.

    Notes
    -----
    .. math:: [2\\hat\\theta - \\theta^\\star_{(1+c)/2},\\; 2\\hat\\theta - \\theta^\\star_{(1-c)/2}]

    It takes the law of :math:`\\theta^\\star - \\hat\\theta` for that of
    :math:`\\hat\\theta - \\theta`, so a bias of the estimate shows in the replicates and is
    removed, however large, without the extreme quantiles BCa would need.

    References
    ----------
    Davison, A. C., & Hinkley, D. V. (1997). *Bootstrap Methods and their Application*,
    Cambridge University Press, section 5.2, equation 5.6.
    """
    reps = np.asarray(replicates, dtype=float)
    reps = reps[np.isfinite(reps)]
    if len(reps) < 2 or not np.isfinite(estimate):
        return float("nan"), float("nan"), len(reps)
    tail = (1.0 - confidence) / 2.0
    q_lo, q_hi = np.quantile(reps, [tail, 1.0 - tail])
    return float(2 * estimate - q_hi), float(2 * estimate - q_lo), len(reps)


def check_resampling(
    confidence: object, n_boot: object, seed: object, *, min_boot: int = 0
) -> tuple[float, int, int | None]:
    """The arguments of every bootstrap interval, checked the same way everywhere.

    Parameters
    ----------
    confidence : object
        The interval's level, strictly between 0 and 1 (0.95 for 95%).
    n_boot : object
        Resamples: a whole number >= ``min_boot`` (0 means no bootstrap where the caller
        has an analytic interval to fall back on).
    seed : object
        A whole number >= 0, or None for a fresh random stream.
    min_boot : int, default 0
        The fewest resamples the caller accepts.

    Returns
    -------
    tuple of (float, int, int or None)
        ``confidence``, ``n_boot``, ``seed``.

    Raises
    ------
    AnnotationDataError
        Naming the argument that is wrong.

    Examples
    --------
    >>> check_resampling(0.95, 1000.0, None)
    (0.95, 1000, None)
    """
    return (
        check_confidence(confidence),
        check_whole(n_boot, "n_boot", min_boot),
        None if seed is None else check_whole(seed, "seed", 0),
    )
