"""The best available annotator of every item, exactly, without scoring every pair.

:func:`~analytics.next_labels.gain.gain_matrix` scores all :math:`N \\times J` (item,
annotator) pairs, :math:`N J K` entropy terms: :math:`10^9` at 200,000 items, 1,000
annotators and 5 categories, seconds of logarithms. The best annotator of an item needs
far fewer, because the gain has an upper bound *linear* in the posterior.

The bound
---------
The mutual information is a minimum over reference distributions (Cover and Thomas 1991,
eq. 13.? "the capacity as a minimax"; Csiszar and Korner 2011, lemma 8.?): for every
distribution :math:`r` over the answers,

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
1. Items are put in *cells* of nearby posteriors (a grid on :math:`\\sqrt{q}`, finer near
   the simplex's corners, where confident items sit and gains are small); each cell's
   reference point :math:`c` is the mean of its members.
2. Per cell and annotator: :math:`G_j(c)` and the largest :math:`q \\cdot B_j(c)` over
   the members' bounding box (a small linear programme, solved greedily): an upper bound
   of :math:`G_j` over every member.
3. Every item is scored exactly against its cell's few best annotators at :math:`c`;
   the best *available* one (not judged the item yet) gives a lower bound
   :math:`L_i` of the answer.
4. An annotator whose cell bound is below every member's :math:`L_i` cannot win for any
   member and is dropped without looking at the items. The rest are checked per item
   with the linear bound :math:`q_i \\cdot B_j(c)` (:math:`K` products) and scored
   exactly only when that bound reaches :math:`L_i`.

Every annotator that is not scored exactly has an upper bound below the gain of one that
is, so the best and its gain equal a full evaluation (ties within ``_TOL`` nats, far
below the rounding of the gains themselves, go to the lower annotator code, as in
:func:`numpy.argmax` over the full matrix). Items none of whose cell candidates is
available are scored against the whole pool.

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

__all__ = ["best_available"]

_TOL = 1e-12  # nats: a bound this close to the lower bound is scored, not pruned
_CANDIDATES = 8  # annotators scored exactly per item before any pruning
_GRID = 5  # cells per sqrt(probability) axis
_CELL_BLOCK = 2_000_000  # cells x annotators x categories held at once
_PAIR_BLOCK = 500_000  # (item, annotator) pairs scored at once
_ROWS = 64  # items per block of linear bounds (grouped by how many they need)


def _xlogx(theta: np.ndarray) -> np.ndarray:
    """:math:`\\sum_y \\theta_{ky} \\log \\theta_{ky}` (nats, 0 log 0 = 0) per row."""
    return -entr(theta).sum(-1)


def _exact(q: np.ndarray, theta: np.ndarray, h: np.ndarray) -> np.ndarray:
    """:math:`G` in nats for pairs: ``q`` (P, K), ``theta`` (P, K, K), ``h`` (P, K)."""
    p = np.einsum("pk,pky->py", q, theta)
    g = entr(p).sum(-1) - np.einsum("pk,pk->p", q, h)
    return np.maximum(g, 0.0, out=g)


def _cells(q: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(item order sorted by cell, first position of every cell, cell of every position)."""
    bins = np.minimum((np.sqrt(q) * _GRID).astype(np.int64), _GRID - 1)
    k = q.shape[1]
    if k * np.log2(_GRID) < 62:
        key = bins @ (_GRID ** np.arange(k, dtype=np.int64))
        order = np.argsort(key, kind="stable")
        skey = key[order]
        starts = np.flatnonzero(np.r_[True, skey[1:] != skey[:-1]])
    else:
        _, inverse = np.unique(bins, axis=0, return_inverse=True)
        order = np.argsort(inverse.ravel(), kind="stable")
        sk = inverse.ravel()[order]
        starts = np.flatnonzero(np.r_[True, sk[1:] != sk[:-1]])
    cell = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(q)]))
    return order, starts, cell


def _cell_bounds(
    centre: np.ndarray, lo: np.ndarray, hi: np.ndarray, theta: np.ndarray, neg_h: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(G_j(c), an upper bound of q . B_j(c) over the box lo <= q <= hi on the simplex).

    Shapes: ``centre``, ``lo``, ``hi`` (C, K); ``theta`` (J, K, K); ``neg_h`` (J, K) the
    sums :math:`\\sum_y \\theta \\log \\theta`. Returns two (C, J) arrays, nats.

    The box maximum :math:`\\max q \\cdot B` subject to :math:`lo \\le q \\le hi`,
    :math:`\\sum_k q_k = 1` is bounded by its Lagrange dual
    :math:`t + \\sum_k \\max(lo_k (B_k - t), hi_k (B_k - t))`, valid for every
    :math:`t` (weak duality) and equal to the maximum at the best breakpoint
    :math:`t = B_{k'}`; the minimum over the :math:`K` breakpoints is taken.
    """
    n_cells, k = centre.shape
    n_ann = len(theta)
    g_c = np.empty((n_cells, n_ann))
    ub = np.empty((n_cells, n_ann))
    flat = theta.transpose(1, 0, 2).reshape(k, n_ann * k)  # true x (annotator, given)
    step = max(1, _CELL_BLOCK // max(1, n_ann * k))
    for a in range(0, n_cells, step):
        c = centre[a : a + step]
        log_p = np.log(np.maximum((c @ flat).reshape(len(c), n_ann, k), 1e-300))
        # B_jk = sum_y theta_jky log theta_jky - sum_y theta_jky log p_jy (a KL, >= 0)
        b = np.broadcast_to(neg_h, (len(c), n_ann, k)).copy()
        for y in range(k):
            b -= theta[None, :, :, y] * log_p[:, :, y : y + 1]
        np.maximum(b, 0.0, out=b)
        g_c[a : a + step] = np.einsum("ck,cjk->cj", c, b)
        lo_a, hi_a = lo[a : a + step, None, :], hi[a : a + step, None, :]
        best = np.full((len(c), n_ann), np.inf)
        for t in range(k):
            d = b - b[:, :, t : t + 1]
            np.minimum(best, b[:, :, t] + np.maximum(lo_a * d, hi_a * d).sum(-1), out=best)
        ub[a : a + step] = best
    return g_c, ub


def _available(judged: np.ndarray | None, n_ann: int, item: np.ndarray, ann: np.ndarray):
    """True where (item, annotator code) is not among the judged keys."""
    if judged is None or not len(judged):
        return np.ones(len(item), bool)
    key = item * n_ann + ann
    at = np.searchsorted(judged, key)
    return judged[np.minimum(at, len(judged) - 1)] != key


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
    return np.maximum(out, 0.0, out=out)


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


def _first_available(g, cols, rows_orig, pool, n_ann, judged):
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
        ok = _available(judged, n_ann, rows_orig[todo], pool[who])
        val[todo[ok]] = got[ok]
        pos[todo[ok]] = who[ok]
        g[todo[~ok], arg[~ok]] = -np.inf
        todo = todo[~ok]
    return val, pos


def _best_available(q, theta, pool, judged):
    n, k = q.shape
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
    lo = np.minimum.reduceat(qs, starts, axis=0)
    hi = np.maximum.reduceat(qs, starts, axis=0)
    g_c, ub = _cell_bounds(centre, lo, hi, th, neg_h)
    n_cand = min(_CANDIDATES, n_pool)
    if n_cand < n_pool:
        cand = np.argpartition(-g_c, n_cand - 1, axis=1)[:, :n_cand]
    else:
        cand = np.broadcast_to(np.arange(n_pool), (len(starts), n_pool))
    # 3. exact scores against the cell's candidates; the best available one is L_i
    g = _candidate_scores(qs, th, ent, starts, ends, cand)
    cols = np.repeat(cand, counts, axis=0)
    low, low_pos = _first_available(g, cols, order, pool, n_ann, judged)
    # 4. per cell, the annotators by decreasing cell bound; per item, the prefix whose
    #    cell bound reaches L_i is checked with the item's own linear bound
    hit_i, hit_j = [np.empty(0, np.int64)], [np.empty(0, np.int64)]
    ub[np.arange(len(starts))[:, None], cand] = -np.inf  # scored already
    floor = low - _TOL
    for c, (a, e) in enumerate(zip(starts, ends, strict=True)):
        f = floor[a:e]
        live = np.flatnonzero(ub[c] >= f.min())
        if not len(live):
            continue
        ranked = live[np.argsort(-ub[c, live])]
        need = np.searchsorted(-ub[c, ranked], -f, side="right")
        top = int(need.max())
        if top == 0:
            continue
        who = ranked[:top]
        th_c = th[who]
        log_p = np.log(np.maximum(centre[c] @ th_c, 1e-300))  # (top, K)
        b = np.maximum(neg_h[who] - np.einsum("jky,jy->jk", th_c, log_p), 0.0)
        by_need = np.argsort(need)
        for s in range(0, e - a, _ROWS):
            rows = by_need[s : s + _ROWS]
            m = int(need[rows[-1]])
            if m == 0:
                continue
            bound = qs[a + rows] @ b[:m].T
            fi, fj = np.nonzero((bound >= f[rows, None]) & (np.arange(m) < need[rows, None]))
            hit_i.append(rows[fi] + a)
            hit_j.append(who[fj])
    hi_, hj_ = np.concatenate(hit_i), np.concatenate(hit_j)
    if len(hi_):
        avail = _available(judged, n_ann, order[hi_], pool[hj_])
        hi_, hj_ = hi_[avail], hj_[avail]
    g_hit = _score_pairs(qs, th, ent, hi_, hj_)
    # the best of the exactly scored available pairs; ties to the first pool position
    has = low_pos >= 0
    all_i = np.r_[np.flatnonzero(has), hi_]
    all_j = np.r_[low_pos[has], hj_]
    all_g = np.r_[low[has], g_hit]
    pick = np.lexsort((all_j, -all_g, all_i))
    head = pick[np.r_[True, all_i[pick][1:] != all_i[pick][:-1]]] if len(pick) else pick
    best = np.full(n, np.nan)
    best_ann = np.full(n, -1, np.int64)
    best[order[all_i[head]]] = all_g[head] / np.log(2.0)
    best_ann[order[all_i[head]]] = pool[all_j[head]]
    return best, best_ann
