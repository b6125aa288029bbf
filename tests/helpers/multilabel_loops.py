"""Plain-loop references for the multi-label statistics.

They follow Bhowmick, Mitra & Basu (2008) word for word, with Python loops over items,
annotator pairs and category pairs, so that the vectorised code in
:mod:`analytics.multilabel` is checked against an independent implementation.
"""

from __future__ import annotations

import itertools

import numpy as np


def loop_am(x: np.ndarray, judged: np.ndarray, combinations: str = "clubbed"):
    """(P_o, P_e, A_m) by equations 1-8, pairwise over items both judged, pooled by items.

    For complete data this is the paper's formula: P_o = 1/(I C(C,2) C(U,2)) sum n_ip.
    """
    n_i, n_u, n_c = x.shape
    cat_pairs = list(itertools.combinations(range(n_c), 2))
    if combinations == "clubbed":
        combos = [[(0, 0)], [(0, 1), (1, 0)], [(1, 1)]]
    else:
        combos = [[(0, 0)], [(0, 1)], [(1, 0)], [(1, 1)]]
    obs_total = pe_total = weight = 0.0
    per_pair = {}
    for a, b in itertools.combinations(range(n_u), 2):
        shared = [i for i in range(n_i) if judged[i, a] and judged[i, b]]
        if not shared:
            continue
        agree = 0
        for i in shared:
            for c1, c2 in cat_pairs:
                agree += x[i, a, c1] == x[i, b, c1] and x[i, a, c2] == x[i, b, c2]
        p_o = agree / (len(shared) * len(cat_pairs))
        p_e = 0.0
        for c1, c2 in cat_pairs:
            for g in combos:
                share = []
                for u in (a, b):
                    n = sum((int(x[i, u, c1]), int(x[i, u, c2])) in g for i in shared)
                    share.append(n / len(shared))
                p_e += share[0] * share[1]
        p_e /= len(cat_pairs)
        per_pair[(a, b)] = (len(shared), p_o, p_e)
        obs_total += p_o * len(shared)
        pe_total += p_e * len(shared)
        weight += len(shared)
    p_o, p_e = obs_total / weight, pe_total / weight
    return p_o, p_e, (p_o - p_e) / (1 - p_e), per_pair


def loop_gold(x: np.ndarray, judged: np.ndarray):
    """Algorithm 1 with loops: (assigned items x categories, rho, {(i, c): outcome})."""
    n_i, n_u, n_c = x.shape
    rho = [0] * n_u
    out = np.zeros((n_i, n_c), bool)
    outcomes = {}
    for i in range(n_i):
        for c in range(n_c):
            yes = [u for u in range(n_u) if judged[i, u] and x[i, u, c]]
            no = [u for u in range(n_u) if judged[i, u] and not x[i, u, c]]
            if len(yes) > len(no):
                out[i, c] = True
                for u in yes:
                    rho[u] += 1
            elif len(yes) < len(no):
                for u in no:
                    rho[u] += 1
            else:
                ry, rn = sum(rho[u] for u in yes), sum(rho[u] for u in no)
                out[i, c] = ry > rn
                outcomes[(i, c)] = "tie-broken" if ry != rn else "unresolved"
    return out, rho, outcomes


def loop_per_category(x: np.ndarray, judged: np.ndarray) -> list[dict[str, float]]:
    """Each category as a yes/no question, with loops over items and pairs of judges.

    Per category: ``observed`` (Fleiss 1971: the mean over items with two or more judges of
    the share of ordered pairs of judges who agree), ``kappa`` (Gwet's form for unequal
    numbers of judges: chance pi = mean over judged items of the share saying yes) and
    ``alpha`` (Krippendorff's nominal alpha from the coincidence matrix, each pair of
    judges of an item weighted 1 / (m_i - 1)).
    """
    n_i, n_u, n_c = x.shape
    out = []
    for c in range(n_c):
        agree_shares, yes_shares = [], []
        coincide = np.zeros((2, 2))
        for i in range(n_i):
            values = [int(x[i, u, c]) for u in range(n_u) if judged[i, u]]
            m = len(values)
            if m:
                yes_shares.append(sum(values) / m)
            if m < 2:
                continue
            pairs = list(itertools.permutations(range(m), 2))
            agree_shares.append(sum(values[a] == values[b] for a, b in pairs) / len(pairs))
            for a, b in pairs:
                coincide[values[a], values[b]] += 1 / (m - 1)
        observed = float(np.mean(agree_shares)) if agree_shares else float("nan")
        pi = float(np.mean(yes_shares)) if yes_shares else float("nan")
        p_e = pi**2 + (1 - pi) ** 2
        n = coincide.sum()
        n0, n1 = coincide.sum(axis=1)
        d_o = (coincide[0, 1] + coincide[1, 0]) / n if n else float("nan")
        d_e = 2 * n0 * n1 / (n * (n - 1)) if n > 1 else float("nan")
        out.append(
            {
                "observed": observed,
                "kappa": (observed - p_e) / (1 - p_e) if p_e < 1 else float("nan"),
                "alpha": 1 - d_o / d_e if d_e else float("nan"),
            }
        )
    return out
