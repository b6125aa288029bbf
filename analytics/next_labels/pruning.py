"""The best available annotator of every item, exactly, without scoring every pair.

:func:`~analytics.next_labels.gain.gain_matrix` scores all :math:`N \\times J` (item,
annotator) pairs, :math:`N J K` entropy terms: :math:`10^9` at 200,000 items, 1,000
annotators and 5 categories, seconds of logarithms. The best annotator of an item needs
far fewer, because the gain has an upper bound *linear* in the posterior.

The bound
---------
The mutual information is a minimum over reference distributions (Cover and Thomas 1991,
section 13.1; Csiszar 1974): for every distribution :math:`r` over the answers,

.. math::

    G_j(q) = I[Z; Y] = \\sum_k q_k \\, KL(\\theta_{jk\\cdot} \\,\\|\\, p_j(q))
           \\le \\sum_k q_k \\, KL(\\theta_{jk\\cdot} \\,\\|\\, r),

because :math:`\\sum_k q_k KL(\\theta_{jk} \\| r) - G_j(q) = KL(p_j(q) \\| r) \\ge 0`
with :math:`p_j(q) = q \\theta_j` the predictive distribution. With :math:`r = p_j(c)`
for a point :math:`c` the bound :math:`U_j(q) = q \\cdot B_j(c)`,
:math:`B_{jk}(c) = KL(\\theta_{jk} \\| p_j(c))`, is the tangent plane of the concave
:math:`G_j` at :math:`c` (equal at :math:`q = c`, off by the second order nearby).

The search
----------
1. Items are put in *cells* of nearby posteriors (a grid on :math:`\\sqrt{q}`, about
   300 items per cell); each cell's reference point :math:`c` is the mean of its members.
2. Every item is scored exactly against the few annotators with the largest
   :math:`G_j(c)` at its cell's centre; the best *available* one (who has not judged the
   item yet) gives a lower bound :math:`L_i` of the answer.
3. Per cell, the annotators are ranked by :math:`G_j(c)` and put in groups of 32; the
   elementwise maximum :math:`M_g = \\max_{j \\in g} B_j(c)` gives
   :math:`q \\cdot M_g \\ge q \\cdot B_j(c) \\ge G_j(q)` for every member
   (:math:`q \\ge 0`). A group whose bound is below :math:`L_i` is dropped for that item
   without looking at its members; in the others, a member is scored exactly only when
   its own bound :math:`q_i \\cdot B_j(c)` reaches :math:`L_i` (the first two groups,
   where most survivors are, go straight to the members' bounds, as one matrix product
   per cell). An item none of whose
   candidates is available has :math:`L_i = -\\infty`: its whole pool is scored.

Why it is exact: every (item, annotator) pair that is not scored has an upper bound
below the exact gain of an available annotator that is, so the maximum over the scored
available pairs is the maximum over all of them. The bounds are computed in float64
and compared with :math:`L_i - 10^{-12}` nats (``_TOL``), so rounding cannot prune a
pair whose gain reaches the best; ties (equal to the last bit) go to the annotator
listed first in the pool, as :func:`numpy.argmax` over the full matrix does. On the
benchmark (200,000 items, 1,000 annotators, 5 categories) about 1.5 pairs per item
beyond the 8 candidates are scored, instead of 1,000.

References
----------
Cover, T. M. and Thomas, J. A. (1991). *Elements of Information Theory*. Wiley, section
13.1 (mutual information as a minimum of relative entropies; the capacity).

Csiszar, I. (1974). On the computation of rate-distortion functions. *IEEE Transactions
on Information Theory* 20(1), 122-124.
"""

from __future__ import annotations

import numpy as np
from scipy.special import entr
from threadpoolctl import threadpool_limits

__all__ = ["ROUNDING", "best_available", "mean_bounds", "no_rounding_noise", "tangent_bounds"]

_TOL = 1e-12  # nats: a bound this close to the lower bound is scored, not pruned
#: Gains below this many nats are rounding noise of H[p] - q . h (two sums of at most
#: log K nats each, about 1e-16 relative) and are reported as exactly 0: a spammer's or a
#: certain item's gain is 0, not 2e-16.
ROUNDING = 1e-13
_CANDIDATES = 8  # annotators scored exactly per item before any pruning
_PER_CELL = 300  # items per cell aimed at
_CELL_BLOCK = 2_000_000  # cells x annotators x categories held at once
_PAIR_BLOCK = 65_536  # (item, annotator) pairs scored at once
_GROUP = 32  # annotators per group bound
_HEAD = 2  # groups bounded member by member for every item of a cell


def _xlogx(theta: np.ndarray) -> np.ndarray:
    """:math:`\\sum_y \\theta_{ky} \\log \\theta_{ky}` (nats, 0 log 0 = 0) per row."""
    return -entr(theta).sum(-1)


def no_rounding_noise(g: np.ndarray) -> np.ndarray:
    """``g`` (nats) with values below :data:`ROUNDING` (and negatives) set to 0, in place.

    Parameters
    ----------
    g : ndarray of float
        Gains in nats, computed as :math:`H[p] - q \\cdot h`.

    Returns
    -------
    ndarray
        ``g`` itself.
    """
    g[g < ROUNDING] = 0.0
    return g


def _exact(q: np.ndarray, theta: np.ndarray, h: np.ndarray) -> np.ndarray:
    """:math:`G` in nats for pairs: ``q`` (P, K), ``theta`` (P, K, K), ``h`` (P, K)."""
    p = np.einsum("pk,pky->py", q, theta)
    return no_rounding_noise(entr(p).sum(-1) - np.einsum("pk,pk->p", q, h))


def _cells(q: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(item order sorted by cell, first position of every cell, cell of every position).

    A cell is a box of a grid on :math:`\\sqrt{q}` (finer near 0, where the small
    probabilities of confident items differ by factors rather than by amounts). The grid
    has about ``N / _PER_CELL`` boxes, coarser when too many of them are occupied (every
    cell costs :math:`O(J K^2)`).
    """
    n, k = q.shape
    root = np.sqrt(q)
    grid = int(np.clip(round((n / _PER_CELL) ** (1 / max(1, k - 1))), 1, 64))
    while True:
        bins = np.minimum((root * grid).astype(np.int64), grid - 1)
        if k * np.log2(max(grid, 2)) < 62:
            key = bins @ (grid ** np.arange(k, dtype=np.int64))
        else:
            key = np.unique(bins, axis=0, return_inverse=True)[1].ravel()
        order = np.argsort(key, kind="stable")
        skey = key[order]
        starts = np.flatnonzero(np.r_[True, skey[1:] != skey[:-1]])
        if grid == 1 or len(starts) <= max(64, n // (_PER_CELL // 4)):
            break
        grid -= 1
    cell = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, n]))
    return order, starts, cell


def tangent_bounds(
    centre: np.ndarray, theta: np.ndarray, neg_h: np.ndarray | None = None
) -> np.ndarray:
    """Coefficients of the linear upper bounds of the gain, tangent at reference points.

    .. math::

        B_{jk}(c) = KL(\\theta_{jk\\cdot} \\,\\|\\, c \\, \\theta_j), \\qquad
        G_j(q) \\le q \\cdot B_j(c) \\text{ for every } q,
        \\text{ with equality at } q = c.

    Parameters
    ----------
    centre : ndarray, shape (C, K)
        Reference posteriors.
    theta : ndarray, shape (J, K, K)
        Confusion matrices (true x given).
    neg_h : ndarray, shape (J, K), optional
        :math:`\\sum_y \\theta_{jky} \\log \\theta_{jky}` when already known.

    Returns
    -------
    ndarray, shape (C, J, K)
        Nats. A predictive probability of 0 (every row reaching that answer has weight 0
        in ``c``) is clamped to 1e-300: the bound stays an upper bound (the reference then
        sums to at most 1 + 1e-300, which moves it by far less than ``_TOL``).

    References
    ----------
    Cover, T. M. and Thomas, J. A. (1991). *Elements of Information Theory*. Wiley,
    section 13.1.
    """
    if neg_h is None:
        neg_h = -entr(theta).sum(-1)
    n_ann, k, _ = theta.shape
    flat = theta.transpose(1, 0, 2).reshape(k, n_ann * k)  # true x (annotator, given)
    log_p = (centre @ flat).reshape(len(centre), n_ann, k)
    np.log(np.maximum(log_p, 1e-300, out=log_p), out=log_p)
    b = np.empty((len(centre), n_ann, k))
    b[:] = neg_h
    for y in range(k):
        b -= theta[None, :, :, y] * log_p[:, :, y : y + 1]
    return np.maximum(b, 0.0, out=b)  # a KL divergence; rounding can dip below 0


class _Judged:
    """The judged ``item * J + annotator`` keys with every item's run located once."""

    def __init__(self, judged: np.ndarray | None, n_items: int, n_ann: int) -> None:
        self.keys = judged if judged is not None else np.empty(0, np.int64)
        self.n_ann = n_ann
        self.start = np.searchsorted(self.keys, np.arange(n_items + 1) * n_ann)
        self.longest = int(np.diff(self.start).max()) if n_items else 0

    def free(self, item: np.ndarray, ann: np.ndarray) -> np.ndarray:
        """True where (item, annotator code) is not among the judged keys."""
        out = np.ones(len(item), bool)
        if not len(self.keys):
            return out
        key = item * self.n_ann + ann
        if self.longest <= 64:  # walk every item's short run, one vectorised step per entry
            lo, size = self.start[item], self.start[item + 1] - self.start[item]
            last = len(self.keys) - 1
            for m in range(self.longest):
                out &= ~((self.keys[np.minimum(lo + m, last)] == key) & (m < size))
            return out
        by = np.argsort(key)  # a binary search in key order stays in cache
        at = np.searchsorted(self.keys, key[by])
        out[by] = self.keys[np.minimum(at, len(self.keys) - 1)] != key[by]
        return out


def _score_pairs(q, theta, ent, item, ann):
    """Exact gains (nats) of the pairs ``(item[p], ann[p])``, in blocks."""
    out = np.empty(len(item))
    for a in range(0, len(item), _PAIR_BLOCK):
        i, j = item[a : a + _PAIR_BLOCK], ann[a : a + _PAIR_BLOCK]
        out[a : a + _PAIR_BLOCK] = _exact(q[i], theta[j], ent[j])
    return out


def _candidate_scores(qs, th, ent, starts, ends, cand):
    """Exact gains (nats) of every item against its cell's candidates, (N, c)."""
    n, k = qs.shape
    out = np.empty((n, cand.shape[1]))
    for c, (a, e) in enumerate(zip(starts, ends, strict=True)):
        who = cand[c]
        flat = th[who].transpose(1, 0, 2).reshape(k, -1)
        p = (qs[a:e] @ flat).reshape(e - a, len(who), k)
        out[a:e] = entr(p).sum(-1) - qs[a:e] @ ent[who].T
    return no_rounding_noise(out)


def best_available(
    q: np.ndarray, theta: np.ndarray, pool: np.ndarray, judged: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """The pool member with the largest gain among those who have not judged each item.

    Parameters
    ----------
    q : ndarray, shape (N, K)
        Posteriors.
    theta : ndarray, shape (J, K, K)
        Every annotator's confusion matrix (true x given).
    pool : ndarray of int
        Codes of the annotators who may give the next judgement.
    judged : ndarray of int or None
        Sorted ``item * J + annotator`` keys of the judgements already made.

    Returns
    -------
    best : ndarray, shape (N,)
        The largest gain in bits; NaN when nobody in the pool is available.
    best_annotator : ndarray of int, shape (N,)
        Its annotator code (-1 when nobody is available); ties go to the member listed
        first in ``pool``.

    Notes
    -----
    Equal to the maximum of :func:`~analytics.next_labels.gain.gain_matrix` over the
    available pool members (see the module docstring for why the pruning is exact), at a
    cost of a few exact scores per item plus :math:`O(\\text{cells} \\times J K^2)`.
    """
    with threadpool_limits(1, "blas"):  # many small products: threads only add waiting
        return _best_available(q, theta, pool, judged)


def _first_available(g, cols, rows_orig, pool, judged):
    """Per row of ``g`` (exact gains of pool positions ``cols``), the best available one.

    Returns (gain or -inf, pool position or -1); checks availability lazily, best first.
    """
    n = len(g)
    g = g.copy()
    val = np.full(n, -np.inf)
    pos = np.full(n, -1, np.int64)
    todo = np.arange(n)
    while len(todo):
        arg = np.argmax(g[todo], axis=1)
        got = g[todo, arg]
        live = got > -np.inf
        todo, arg, got = todo[live], arg[live], got[live]
        who = cols[todo, arg]
        ok = judged.free(rows_orig[todo], pool[who])
        val[todo[ok]] = got[ok]
        pos[todo[ok]] = who[ok]
        g[todo[~ok], arg[~ok]] = -np.inf
        todo = todo[~ok]
    return val, pos


def _best_available(q, theta, pool, judged):
    n, k = q.shape
    if n == 0:
        return np.empty(0), np.empty(0, np.int64)
    n_ann = theta.shape[0]
    pool = np.asarray(pool, np.int64)
    n_pool = len(pool)
    th = theta[pool]
    ent = entr(th).sum(-1)  # (P, K) row entropies, nats
    neg_h = -ent
    order, starts, _ = _cells(q)
    ends = np.r_[starts[1:], n]
    qs = q[order]
    counts = ends - starts
    centre = np.add.reduceat(qs, starts, axis=0) / counts[:, None]
    # G_j(c), nats, (cells, P), in float32: it only picks the candidates (which pair is
    # scored first), never what is pruned, so its rounding cannot change the result
    p_c = np.maximum(centre.astype(np.float32) @ th.transpose(1, 0, 2).reshape(k, -1), 1e-30)
    p_c *= np.log(p_c)
    g_c = -p_c.reshape(len(centre), n_pool, k).sum(-1) - centre.astype(np.float32) @ ent.T.astype(
        np.float32
    )
    n_cand = min(_CANDIDATES, n_pool)
    if n_cand < n_pool:
        cand = np.argpartition(-g_c, n_cand - 1, axis=1)[:, :n_cand]
    else:
        cand = np.broadcast_to(np.arange(n_pool), (len(starts), n_pool))
    # 3. exact scores against the cell's candidates; the best available one is L_i
    g = _candidate_scores(qs, th, ent, starts, ends, cand)
    cols = np.repeat(cand, counts, axis=0)
    judged = _Judged(judged, n, n_ann)
    low, low_pos = _first_available(g, cols, order, pool, judged)
    # 4. per cell: annotators in groups of similar gain at the centre; a group's bound
    #    q . max_j B_j (elementwise max) bounds every member's q . B_j, which bounds G_j
    hit_i, hit_j = [np.empty(0, np.int64)], [np.empty(0, np.int64)]
    floor = low - _TOL
    n_grp = -(-n_pool // _GROUP)
    step = max(1, _CELL_BLOCK // max(1, n_pool * k))
    for c, (a, e) in enumerate(zip(starts, ends, strict=True)):
        if c % step == 0:
            tangents = tangent_bounds(centre[c : c + step], th, neg_h)
        b = tangents[c % step]
        b[cand[c]] = 0.0  # scored already: flagged again only when L_i <= 0 (harmless)
        ranked = np.argsort(-g_c[c])
        b_r = np.zeros((n_grp * _GROUP, k))
        b_r[:n_pool] = b[ranked]
        f = floor[a:e]
        # the first groups (where most hits are) for every member at once: one product
        head = min(n_grp, _HEAD) * _GROUP
        fi, fj = np.nonzero(qs[a:e] @ b_r[:head].T >= f[:, None])
        keep = fj < n_pool
        hit_i.append(fi[keep] + a)
        hit_j.append(ranked[fj[keep]])
        if head == len(b_r):
            continue
        tops = b_r[head:].reshape(-1, _GROUP, k).max(1)  # (later groups, K)
        gi, gg = np.nonzero(qs[a:e] @ tops.T >= f[:, None])
        if not len(gi):
            continue
        gg += head // _GROUP
        # the (item, group) hits: every member's exact linear bound for that item
        bound = np.einsum("hk,hgk->hg", qs[a + gi], b_r.reshape(n_grp, _GROUP, k)[gg])
        fi, fj = np.nonzero(bound >= f[gi, None])
        slot = gg[fi] * _GROUP + fj
        keep = slot < n_pool
        hit_i.append(gi[fi[keep]] + a)
        hit_j.append(ranked[slot[keep]])
    hi_, hj_ = np.concatenate(hit_i), np.concatenate(hit_j)
    if len(hi_):
        avail = judged.free(order[hi_], pool[hj_])
        hi_, hj_ = hi_[avail], hj_[avail]
    g_hit = _score_pairs(qs, th, ent, hi_, hj_)
    # the best of the exactly scored available pairs; ties to the first pool position
    best = low.copy()
    best_pos = low_pos.copy()
    np.maximum.at(best, hi_, g_hit)
    win = g_hit == best[hi_]  # a flagged pair that reaches the best (ties included)
    tie = np.where(best > low, n_pool, best_pos)  # the candidate only if it is still best
    np.minimum.at(tie, hi_[win], hj_[win])
    found = (tie >= 0) & (tie < n_pool)
    out = np.full(n, np.nan)
    out_ann = np.full(n, -1, np.int64)
    out[order[found]] = best[found] / np.log(2.0)
    out_ann[order[found]] = pool[tie[found]]
    return out, out_ann


def mean_bounds(
    q: np.ndarray, theta: np.ndarray, pool: np.ndarray, judged: np.ndarray | None
) -> np.ndarray:
    """Upper bounds (bits) of the mean gain over the pool members who have not judged each item.

    The mean of the tangent bounds :math:`q_i \\cdot B_j(c)` (module docstring) over the
    available members, with :math:`c` the centre of the item's cell: :math:`O(K)` per item
    and per judgement instead of :math:`O(J K)` entropy terms per item. Used to score
    exactly only the items that can enter a batch (:mod:`analytics.next_labels.batch`).

    Parameters
    ----------
    q, theta, pool, judged
        As for :func:`best_available`.

    Returns
    -------
    ndarray, shape (N,)
        Bits, raised by 1e-9 relative plus :data:`_TOL` against rounding; ``inf`` when
        the bounds would need more than ``_CELL_BLOCK`` numbers at once (the caller then
        scores everything), NaN when nobody is available.
    """
    n, k = q.shape
    if n == 0:
        return np.empty(0)
    n_ann = theta.shape[0]
    pool = np.asarray(pool, np.int64)
    th = theta[pool]
    order, starts, cell_sorted = _cells(q)
    if len(starts) * len(pool) * k > 10 * _CELL_BLOCK:
        return np.full(n, np.inf)
    cell = np.empty(n, np.int64)
    cell[order] = cell_sorted
    counts = np.diff(np.r_[starts, n])
    centre = np.add.reduceat(q[order], starts, axis=0) / counts[:, None]
    b = tangent_bounds(centre, th)  # (C, P, K)
    total = b.sum(1)[cell]  # (N, K): sum over the pool
    n_free = np.full(n, float(len(pool)))
    if judged is not None and len(judged):
        where = np.full(n_ann, -1, np.int64)
        where[pool] = np.arange(len(pool))
        item, pos = judged // n_ann, where[judged % n_ann]
        item, pos = item[pos >= 0], pos[pos >= 0]
        sub = b[cell[item], pos]  # (pairs, K)
        for kk in range(k):
            total[:, kk] -= np.bincount(item, weights=sub[:, kk], minlength=n)
        n_free -= np.bincount(item, minlength=n)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.einsum("nk,nk->n", q, np.maximum(total, 0.0)) / n_free / np.log(2.0)
    out = out * (1 + 1e-9) + _TOL
    out[n_free <= 0] = np.nan
    return out
