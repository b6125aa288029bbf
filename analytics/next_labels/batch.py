"""The next batch of judgements to ask for: greedy by expected gain, with the batch effect.

A batch is built one judgement at a time. Each item is scored under the fitted model
(:mod:`analytics.next_labels.gain`); the best-scoring item gets a judgement; then that item
alone is re-scored *as if the judgement were already planned*: its state becomes the
exact distribution over the posteriors it can end up with (one branch per possible answer,
weighted by the predictive probability of that answer), and its next judgement is worth
the expected gain over those branches,

.. math::

    G_2 = I[Z; Y_2 \\mid Y_1] = \\sum_{y_1} p(y_1) \\, G\\big(q(\\cdot \\mid y_1), \\theta\\big),

so a second judgement of the same item competes fairly with first judgements of others
(an item with one planned label is worth less than it was). A lazy max-heap keeps the
loop over the budget at :math:`O(\\log N)` per step; every re-score is vectorised over
the item's branches and candidate annotators.

References
----------
Sheng, V. S., Provost, F. and Ipeirotis, P. G. (2008). Get another label? Improving data
quality and data mining using multiple, noisy labelers. *KDD 2008*, 614-622.

MacKay, D. J. C. (1992). Information-based objective functions for active data selection.
*Neural Computation* 4(4), 590-604.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import repeat

import numpy as np
from scipy.special import entr

from analytics.next_labels.pruning import no_rounding_noise

__all__ = ["STRATEGIES", "Planner", "branch"]

_LN2 = np.log(2.0)
_ONE = np.ones(1)  # the weight of an untouched item's single branch
_ONE.setflags(write=False)
STRATEGIES = ("gain", "uncertainty", "random")
MAX_BRANCHES = 20_000  # answer branches kept per item (K ** (per_item_cap - 1) at most)
_BLOCK = 2_048  # items scored exactly at once when first scores are bounds


def branch(w: np.ndarray, q: np.ndarray, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The branches of an item's state after one more judgement through channel ``theta``.

    Parameters
    ----------
    w : ndarray, shape (O,)
        Probability of each current branch.
    q : ndarray, shape (O, K)
        Posterior in each branch.
    theta : ndarray, shape (K, K)
        The judge's confusion matrix (true x given).

    Returns
    -------
    w, q : ndarrays, shapes (O * K,) and (O * K, K)
        Branch ``(o, y)`` has weight :math:`w_o p_o(y)` and posterior
        :math:`q_{ok} \\theta_{ky} / p_o(y)`; branches of probability 0 are dropped.
    """
    p = q @ theta  # (O, Y)
    joint = q[:, None, :] * theta.T[None, :, :]  # (O, Y, K)
    w2 = (w[:, None] * p).ravel()
    keep = w2 > 0
    q2 = joint.reshape(-1, q.shape[1])[keep] / p.ravel()[keep, None]
    return w2[keep], q2


def _drop_one(free: np.ndarray, who: int) -> np.ndarray:
    """``free`` without its first entry equal to ``who`` (one judgement uses one entry)."""
    hit = np.flatnonzero(free == who)
    if not len(hit):
        return free
    return np.concatenate((free[: hit[0]], free[hit[0] + 1 :]))


@dataclass
class Planner:
    """Greedy batch state over the items of one fitted model.

    Attributes
    ----------
    q : ndarray, shape (N, K)
        Current posteriors.
    theta : ndarray, shape (J, K, K)
        Every annotator's confusion matrix.
    available : callable
        ``available(i)`` -> annotator codes that may still judge item ``i`` (repeats
        allowed: one entry per purchasable judgement).
    assign : bool
        True: each judgement goes to a named annotator (the best one for ``"gain"``, a
        random available one otherwise). False: a random annotator from the available
        ones answers; the planned judgement then acts through their mean confusion
        matrix (the mixture), since who answers is not known when the batch is sent.
    annotator_cap : int or None
        With ``assign``: most judgements one annotator gets in the batch (None: no
        limit). An annotator at the cap leaves every item's choice; an item queued for
        them is scored again without them when it comes up (its score can only fall, so
        the greedy order stays exact: lazy evaluation).
    """

    q: np.ndarray
    theta: np.ndarray
    available: Callable[[int], np.ndarray]
    assign: bool
    strategy: str = "gain"
    stop_at: float = 0.99
    cap: int = 2
    rng: np.random.Generator = field(default_factory=lambda: np.random.default_rng(0))
    states: dict[int, tuple[np.ndarray, np.ndarray, list[int]]] = field(default_factory=dict)
    _free: dict[int, np.ndarray] = field(default_factory=dict, repr=False)
    available_mask: Callable[[np.ndarray], np.ndarray] | None = None
    annotator_cap: int | None = None
    _conf: dict[int, float] = field(default_factory=dict, repr=False)
    _pre: dict[int, tuple] = field(default_factory=dict, repr=False)
    #: the last score :meth:`run` computed for an item it re-scored (NaN: stopped)
    last_score: dict[int, float] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._row_entropy = entr(self.theta).sum(-1)  # (J, K): H of every confusion row, nats
        n_ann, k, _ = self.theta.shape
        self._flat = self.theta.transpose(1, 0, 2).reshape(k, n_ann * k)  # every annotator
        self._used = np.zeros(n_ann, np.int64)  # judgements given to each annotator so far
        self._full = np.zeros(n_ann, bool)  # annotators at annotator_cap

    def _count(self, who: int) -> None:
        """One more judgement for annotator ``who``; at the cap they leave every choice."""
        if who < 0 or self.annotator_cap is None:
            return
        self._used[who] += 1
        if self._used[who] >= self.annotator_cap:
            self._full[who] = True

    @property
    def full(self) -> np.ndarray:
        """Which annotators are at ``annotator_cap`` (all False without a cap)."""
        return self._full

    def why_stopped(self, i: int) -> str:
        """Why item ``i``, with judgements planned, takes no more in this batch.

        Returns
        -------
        str
            ``"at_item_cap"``, ``"reached_stop_at"``, ``"nobody_left"`` (every annotator
            has judged it or is planned to), ``"annotators_at_cap"``, ``"no_gain"`` (its
            next judgement is worth nothing), or ``""`` when it could take another one.
        """
        if len(self.state(i)[2]) >= self.cap:
            return "at_item_cap"
        if self.confidence(i) >= self.stop_at:
            return "reached_stop_at"
        if not len(self._free_of(i)):
            return "nobody_left"
        if not len(self.free(i)):
            return "annotators_at_cap"
        last = self.last_score.get(i, float("nan"))
        return "no_gain" if np.isfinite(last) and last <= 0 else ""

    def state(self, i: int) -> tuple[np.ndarray, np.ndarray, list[int]]:
        """(branch weights, branch posteriors, annotators planned) of item ``i``."""
        got = self.states.get(i)
        return got if got is not None else (_ONE, self.q[i : i + 1], [])

    def free(self, i: int) -> np.ndarray:
        """Annotators still available for item ``i`` once this batch's plan is counted
        (and, with ``annotator_cap``, not yet at the cap)."""
        avail = self._free_of(i)
        return avail[~self._full[avail]] if self._full.any() else avail

    def _free_of(self, i: int) -> np.ndarray:
        cached = self._free.get(i)
        if cached is not None:
            return cached
        avail = self.available(i)
        planned = self.state(i)[2]
        if planned and len(avail):
            keep = np.ones(len(avail), bool)
            for a in planned:  # one planned judgement uses up one entry of that annotator
                hit = np.flatnonzero((avail == a) & keep)
                if len(hit):
                    keep[hit[0]] = False
            avail = avail[keep]
            # a judgement planned without a name is someone's who has not judged the item:
            # once there are as many as annotators left, nobody is
            if sum(a < 0 for a in planned) >= len(avail):
                avail = avail[:0]
        self._free[i] = avail
        return avail

    def gains(self, i: int, judges: np.ndarray) -> np.ndarray:
        """Expected gain of one more judgement by each of ``judges`` (bits).

        :math:`\\sum_b w_b G(q_b, \\theta_j)` over the item's branches ``b``, with
        :math:`G = H[q_b \\theta_j] - q_b \\cdot H[\\theta_{j, k \\cdot}]`
        (:func:`~analytics.next_labels.gain.gain_matrix`, inlined for one item).
        """
        w, qs, _ = self.state(i)
        n_ann, k, _ = self.theta.shape
        if 2 * len(judges) >= n_ann:  # most of them: every annotator, no gather
            h_y = entr(qs @ self._flat).reshape(len(qs), n_ann, k).sum(-1)
            g = no_rounding_noise(h_y - qs @ self._row_entropy.T)
            return (w @ g)[judges] / _LN2
        flat = self.theta[judges].transpose(1, 0, 2).reshape(k, -1)
        h_y = entr(qs @ flat).reshape(len(qs), len(judges), k).sum(-1)
        g = no_rounding_noise(h_y - qs @ self._row_entropy[judges].T) / _LN2
        return w @ g

    def confidence(self, i: int) -> float:
        """Expected top posterior after the judgements planned so far."""
        got = self._conf.get(i)
        if got is None:
            w, qs, _ = self.state(i)
            got = self._conf[i] = float(w @ qs.max(1))
        return got

    def prefetch(self, items: np.ndarray, whos: np.ndarray) -> None:
        """Plan a first judgement of each of ``items`` (by ``whos``) and score the next one,
        vectorised over the items; :meth:`plan` and :meth:`score` then read the results.

        The same formulas as :func:`branch` and :meth:`gains` (the first judgement acts
        through the assigned annotator, or the mean confusion matrix of the available
        ones), for every item at once: the greedy loop then only does per-item work for
        second and later judgements. ``"gain"`` strategy only (no random draws).
        """
        if self.strategy != "gain" or self.available_mask is None or not len(items):
            return
        n_ann, k, _ = self.theta.shape
        step = max(16, 4_000_000 // (n_ann * k * k))
        for a in range(0, len(items), step):
            self._prefetch(items[a : a + step], whos[a : a + step], n_ann, k)

    def _prefetch(self, items: np.ndarray, whos: np.ndarray, n_ann: int, k: int) -> None:
        avail = self.available_mask(items)  # (B, J)
        if self.assign and self._full.any():
            avail &= ~self._full[None, :]
        n_free = avail.sum(1)
        rows = np.arange(len(items))
        if self.assign:
            chan = self.theta[np.maximum(whos, 0)]
            avail[rows, np.maximum(whos, 0)] = False  # the first judge's entry is used
        else:
            chan = (avail @ self.theta.reshape(n_ann, k * k)).reshape(-1, k, k)
            chan /= np.maximum(n_free, 1)[:, None, None]
        q = self.q[items]
        p = np.einsum("bk,bky->by", q, chan)  # (B, Y): weights of the branches
        joint = q[:, None, :] * chan.transpose(0, 2, 1)  # (B, Y, K)
        with np.errstate(invalid="ignore", divide="ignore"):
            q2 = np.where(p[..., None] > 0, joint / p[..., None], 0.0)
        conf = (p * q2.max(2)).sum(1)
        h_y = entr(q2.reshape(-1, k) @ self._flat).reshape(len(items), k, n_ann, k).sum(-1)
        g = no_rounding_noise(h_y - (q2.reshape(-1, k) @ self._row_entropy.T).reshape(h_y.shape))
        g = np.einsum("by,byj->bj", p, g) / _LN2  # (B, J)
        left = avail.sum(1)
        if self.assign:
            g_free = np.where(avail, g, -np.inf)
            nxt_who = np.argmax(g_free, axis=1)
            nxt = g_free[rows, nxt_who]
        else:
            nxt_who = np.full(len(items), -1)
            with np.errstate(invalid="ignore", divide="ignore"):
                nxt = np.where(avail, g, 0.0).sum(1) / left
        # without names the first judgement takes one of the ``left`` annotators too
        stop = (self.cap <= 1) | (left <= (0 if self.assign else 1)) | (conf >= self.stop_at)
        nxt = np.where(stop, np.nan, nxt)
        block = (whos, p, q2, conf, nxt, nxt_who)
        self._pre.update(zip(items.tolist(), zip(repeat(block), range(len(items))), strict=False))

    def score(self, i: int) -> tuple[float, int]:
        """(priority, annotator code or -1) of item ``i``'s next judgement; NaN: none."""
        pre = self._pre.pop(i, None)
        if pre is not None and len(self.state(i)[2]) == 1:
            (_, _, _, _, nxt, nxt_who), b = pre
            return float(nxt[b]), int(nxt_who[b])
        judges = self.free(i)
        full = len(self.state(i)[2]) >= self.cap
        if full or not len(judges) or self.confidence(i) >= self.stop_at:
            return float("nan"), -1
        if self.strategy == "gain":
            if not self.assign:
                g = self.gains(i, judges)
                return float(g.sum() / len(g)), -1
            judges = np.unique(judges)
            g = self.gains(i, judges)
            return float(g[np.argmax(g)]), int(judges[np.argmax(g)])
        who = int(self.rng.choice(judges)) if self.assign else -1
        if self.strategy == "uncertainty":
            return 1.0 - self.confidence(i), who
        return float(self.rng.random()), who

    def plan(self, i: int, who: int, gain: float | None = None) -> tuple[int, float, float]:
        """Add one judgement of item ``i`` to the batch.

        ``who`` is the annotator code, or -1: a random available annotator when
        ``assign`` (drawn now), the mixture of the available ones otherwise. ``gain``, when
        known (the ``"gain"`` strategy's score), is not computed again.

        Returns
        -------
        (annotator code or -1, expected gain, expected confidence after)
        """
        pre = self._pre.get(i)
        if pre is not None and gain is not None and i not in self.states:
            (whos, p, q2, conf, _, _), b = pre
            if whos[b] == who:
                keep = p[b] > 0  # the branches of probability 0 are dropped, as in branch()
                if who >= 0:
                    self._free[i] = _drop_one(self._free_of(i), who)
                    self._count(who)
                else:
                    self._free.pop(i, None)
                self.states[i] = (p[b, keep], q2[b, keep], [who])
                self._conf[i] = float(conf[b])
                return who, gain, float(conf[b])
        free = self.free(i)
        self._pre.pop(i, None)
        if self.assign and who < 0:
            who = int(self.rng.choice(free))
        judges = free if who < 0 else np.array([who])
        if gain is None:
            g = self.gains(i, judges)
            gain = float(g.sum() / len(g))
        w, qs, planned = self.state(i)
        w2, q2 = branch(w, qs, self.theta[judges].sum(0) / len(judges))
        self.states[i] = (w2, q2, [*planned, who])
        self._conf.pop(i, None)
        if who >= 0:  # that annotator's entry is used up
            self._free[i] = _drop_one(self._free_of(i), who)
            self._count(who)
        else:  # without a name, one of the annotators left: counted in _free_of
            self._free.pop(i, None)
        return who, gain, self.confidence(i)

    def run(
        self,
        budget: int,
        first: np.ndarray,
        first_who: np.ndarray,
        exact: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None = None,
    ) -> list[tuple]:
        """Greedy loop over the items' first scores ``first`` (``first_who``: annotators).

        ``exact``: when given, ``first`` holds *upper bounds* of the first scores, and
        ``exact(items)`` returns their exact (score, annotator); items are scored exactly
        in blocks, in decreasing bound, only while an unscored item's bound reaches the
        best exact score at hand (an item whose bound is below it cannot be picked
        before it), so the batch is the one the exact scores of every item would give.

        Items not yet touched are taken from one array sorted by (score, item), the
        re-scored ones from a heap; the larger (ties: lower item code) goes first, as if
        every item sat in one heap.

        Returns
        -------
        list of (item code, annotator code or -1, expected gain, expected confidence)
        """
        usable = first > 0  # NaN (stopped, nobody left) and 0 never enter
        order = np.flatnonzero(usable if exact is not None else usable & np.isfinite(first))
        order = order[np.lexsort((order, -first[order]))]
        keys, whos = first[order], first_who[order]
        heap: list[tuple[float, int, int]] = []
        stamp: dict[int, int] = {}
        out: list[tuple] = []
        ptr = 0
        fetched = 0
        while len(out) < budget:
            if exact is None and ptr >= fetched and ptr < len(order):
                self.prefetch(order[ptr : ptr + _BLOCK], whos[ptr : ptr + _BLOCK])
                fetched = ptr + _BLOCK
            if exact is not None:
                # score blocks of unscored items while one of them might come first
                while ptr < len(order) and (not heap or -heap[0][0] <= keys[ptr]):
                    block = order[ptr : ptr + _BLOCK]
                    score, who = exact(block)
                    self.prefetch(block[score > 0], who[score > 0])
                    for i, g, w in zip(block.tolist(), score.tolist(), who.tolist(), strict=True):
                        if g > 0:  # NaN (nobody left) and 0 never enter
                            heapq.heappush(heap, (-g, i, w))
                    ptr += len(block)
                if not heap:
                    break
                key, i, who = heapq.heappop(heap)
            elif heap and (
                ptr >= len(order) or (heap[0][0], heap[0][1]) < (-keys[ptr], order[ptr])
            ):
                key, i, who = heapq.heappop(heap)
            elif ptr < len(order):
                key, i, who = -float(keys[ptr]), int(order[ptr]), int(whos[ptr])
                ptr += 1
            else:
                break
            if stamp.get(i, 0) != len(self.state(i)[2]):
                continue  # a stale entry: the item was re-scored since
            if who >= 0 and self._full[who]:
                # queued for an annotator now at the cap: score it again without them
                self._pre.pop(i, None)
                nxt, nxt_who = self.score(i)
                self.last_score[i] = nxt
                if np.isfinite(nxt) and nxt > 0:
                    heapq.heappush(heap, (-nxt, i, nxt_who))
                continue
            if who < 0 and self.assign and not len(self.free(i)):
                # queued before an annotator was drawn (random, uncertainty), and everyone
                # free for it is now at the cap: left out, as the cap's note says
                continue
            known = -key if self.strategy == "gain" else None
            out.append((i, *self.plan(i, who, known)))
            stamp[i] = len(self.state(i)[2])
            nxt, nxt_who = self.score(i)
            self.last_score[i] = nxt
            if np.isfinite(nxt) and nxt > 0:
                heapq.heappush(heap, (-nxt, i, nxt_who))
        return out
