"""Which gold-free criterion would make ``model="auto"`` pick the more accurate models?

``analytics.models.fit(ann)`` stacks the models with the weights that best predict held-out
judgements (item-grouped cross-validation, :mod:`analytics.models.heldout`). On three public
sets outside the repository that rule falls short of issue 15's last target (the mean of
``auto`` at least the mean of the best crowd-kit model per set): on the CrowdFlower and
Mechanical Turk weather-sentiment crowds held-out likelihood prefers the hierarchical model,
which is among the least accurate there. This script measures, on the in-repo sets and on any
outside folders given, how other criteria computed from the *same* cross-validation fits would
choose or stack, next to each model's accuracy against the expert labels (which no criterion
sees). It changes nothing in the library; docs/models.md, "What was tried for the outside
target", reports its output.

Criteria (every one scores a held-out judgement n of annotator j on item i from a model fitted
without it; q_i is the model's posterior of item i given its remaining judgements):

- ``joint``: log sum_k q_ik prod_{n in out(i)} theta_jk[y_n], per item: what auto uses today;
- ``single``: log sum_k q_ik theta_jk[y_n], per judgement;
- ``experienced``: ``single`` weighted by n_j / (n_j + 10), n_j the annotator's judgements in
  the training part (sparse annotators' idiosyncrasies count less);
- ``attested``: ``single`` on the judgements of annotators with at least 30 training
  judgements only;
- ``population``: log sum_k q_ik theta_bar_k[y_n] with theta_bar the model's own confusion
  matrix averaged over annotators (weighted by their training judgements): each model's
  posterior scored without its per-annotator parameters;
- ``symmetric``: log sum_k q_ik phi_k[y_n] with one channel phi for every model (right with
  the mean share of its item's votes a judgement's label has, the rest spread evenly): only
  the posteriors differ between models;
- ``agreement``: q_i[y_n], the probability the posterior gives the held-out label (linear).

Each criterion either chooses the single best model or (log scores only) stacks them, the
weights maximising the (weighted) held-out log score of the mixture as
:func:`analytics.models.stacking_weights` does. Families: the six models of
:data:`analytics.models.MODELS` (``today``), plus a hierarchical one-coin model
(``+hier_one_coin``: each annotator's accuracy drawn from a population Beta estimated from
all annotators, Carpenter 2008, defined here for the experiment only), with MACE's
prevalence uniform as in Hovy et al. (2013) (``mace_uniform``), and both.

Usage::

    python -m benchmarks.auto_criteria                          # the six in-repo sets
    python -m benchmarks.auto_criteria --duplicates first /tmp/outside/*/
    python -m benchmarks.auto_criteria --out results/ /tmp/outside/*/

Prints every model's accuracy, then for every family and criterion the accuracy of its
choice (or stack) per set with the means in the repo and outside, and the mean over sets of
the Spearman correlation between the criterion and accuracy across models.
"""

from __future__ import annotations

import argparse
import pickle
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy.optimize import minimize
from scipy.special import log_expit, logsumexp
from scipy.stats import spearmanr

from analytics import Annotations
from analytics.dawid_skene import data_notes
from analytics.models import MODELS
from analytics.models.heldout import FoldScore
from analytics.models.hierarchical import (
    A_MAX,
    A_MIN,
    _expected_log,
    _Hierarchical,
    dirichlet_kl,
    polya_log_likelihood,
    population_step,
)
from analytics.models.registry import fit_model
from analytics.models.result import Coded, ModelResult, code, expected_counts, make_result
from analytics.models.selection import quick
from analytics.models.simple import DataEngine, one_coin_confusion
from benchmarks.outside_public import load as load_outside
from benchmarks.outside_public import tie_accuracy
from benchmarks.replay_public import SETS

ROOT = Path(__file__).resolve().parents[1]
IN_REPO = SETS  # the six sets of datasets/
#: the extra models of the experiment (name -> model of the registry and its settings)
VARIANTS = {"mace_uniform": ("mace", {"prevalence": "uniform"})}
FAMILIES = {
    "today": list(MODELS),
    "symmetric_population": [m if m != "hierarchical" else "hier_symmetric" for m in MODELS],
    "+hier_symmetric": [*MODELS, "hier_symmetric"],
    "+hier_one_coin": [*MODELS, "hier_one_coin"],
    "mace_uniform": [m if m != "mace" else "mace_uniform" for m in MODELS],
    "symmetric_population+mace_uniform": [
        {"hierarchical": "hier_symmetric", "mace": "mace_uniform"}.get(m, m) for m in MODELS
    ],
    "both": [*(m if m != "mace" else "mace_uniform" for m in MODELS), "hier_one_coin"],
}
CRITERIA = (
    "joint",
    "single",
    "experienced",
    "attested",
    "population",
    "symmetric",
    "agreement",
)
#: pseudo-count of the ``experienced`` weights n / (n + EXPERIENCE)
EXPERIENCE = 10.0
#: training judgements an annotator needs for ``attested``
ATTESTED = 30


class _HierOneCoin(DataEngine):
    """Variational EM of one-coin Dawid-Skene with accuracies a_j ~ Beta(A) and A estimated
    by type-II maximum likelihood (the hierarchical model's machinery with K = 2 outcomes:
    right or wrong). Experiment only."""

    def __init__(self, coded: Coded) -> None:
        super().__init__(coded)
        self.prior_pi = np.ones(coded.k)
        self.reset()

    def reset(self) -> None:
        self.population = np.ones((1, 2))

    def m_step(self, q: np.ndarray, initial_error: None = None) -> tuple[Any, Any, Any]:
        counts = expected_counts(self.coded, q)
        right = np.trace(counts, axis1=1, axis2=2)
        wrong = np.maximum(counts.sum(axis=(1, 2)) - right, 0.0)
        pair = np.stack([right, wrong], axis=1)[:, None, :]  # J x 1 x 2
        a = self.population
        for _ in range(50):
            new = population_step(a, pair, pair.sum(axis=2))
            done = np.abs(new - a).max() <= 1e-6 * a.max()
            a = new
            if done:
                break
        self.population = a
        return self.prior_pi + q.sum(axis=0), (a + pair, a), counts

    def e_step(self, post_pi: np.ndarray, params: tuple) -> tuple[np.ndarray, float]:
        post, self.population = params
        k = self.coded.k
        e = np.exp(_expected_log(post)[:, 0, :])  # exp E log a, exp E log(1 - a)
        theta = np.broadcast_to((e[:, 1] / max(k - 1, 1))[:, None, None], (len(e), k, k)).copy()
        theta[:, np.arange(k), np.arange(k)] = e[:, :1]
        q, log_z = self.data_step(np.exp(_expected_log(post_pi)), theta)
        kl = dirichlet_kl(post, self.population).sum() + dirichlet_kl(post_pi, self.prior_pi)
        return q, float(log_z - kl)


def fit_hier_one_coin(coded: Coded, init: str = "best", seed: int = 0) -> ModelResult:
    """The hierarchical one-coin fit (posterior mean accuracies), as a ModelResult."""
    run, notes = _HierOneCoin(coded).from_starts(init, seed, 500, 1e-7)
    post = run.theta[0][:, 0, :]
    acc = post[:, 0] / post.sum(axis=1)
    return make_result(
        coded,
        "hier_one_coin",
        run.q,
        run.pi / run.pi.sum(),
        one_coin_confusion(acc, coded.k),
        run.trace,
        run.n_iter,
        run.converged,
        settings={"init": init},
        notes=data_notes(coded.ann) + notes,
        parameters={"accuracy": acc, "population": run.theta[1][0]},
    )


def _symmetric(p: np.ndarray, k: int) -> np.ndarray:
    """Population Dirichlet with exp(p[0]) on the diagonal and exp(p[1]) elsewhere."""
    a = np.full((k, k), np.exp(p[1]))
    np.fill_diagonal(a, np.exp(p[0]))
    return a


class _HierSymmetric(_Hierarchical):
    """Hierarchical Dawid-Skene whose population Dirichlet has one value on the diagonal and
    one off it (its mean is a one-coin matrix): a sparse annotator is shrunk toward a
    symmetric confusion, a heavy one keeps their own full matrix. The two values maximise
    the Polya likelihood of the expected counts (Nelder-Mead in log space, kept only when
    it does not lower it, so the bound never decreases). Experiment only."""

    def reset(self) -> None:
        self.population = np.ones((self.coded.k, self.coded.k))
        self.log_ad = np.zeros(2)

    def m_step(self, q: np.ndarray, initial_error: None = None) -> tuple[Any, Any, Any]:
        counts = expected_counts(self.coded, q)
        k, n_row = self.coded.k, counts.sum(axis=2)
        lo, hi = np.log(A_MIN), np.log(A_MAX)

        def loss(p: np.ndarray) -> float:
            p = np.clip(p, lo, hi)
            return -float(polya_log_likelihood(_symmetric(p, k), counts, n_row).sum())

        found = minimize(loss, self.log_ad, method="Nelder-Mead", options={"xatol": 1e-7})
        if found.fun <= loss(self.log_ad):
            self.log_ad = np.clip(found.x, lo, hi)
        a = _symmetric(self.log_ad, k)
        self.population = a
        return self.prior_pi + q.sum(axis=0), (a + counts, a), counts


def fit_hier_symmetric(coded: Coded, init: str = "best", seed: int = 0) -> ModelResult:
    """The symmetric-population hierarchical fit (posterior mean matrices)."""
    run, notes = _HierSymmetric(coded, 50).from_starts(init, seed, 500, 1e-7)
    post, a = run.theta
    return make_result(
        coded,
        "hier_symmetric",
        run.q,
        run.pi / run.pi.sum(),
        post / post.sum(axis=2, keepdims=True),
        run.trace,
        run.n_iter,
        run.converged,
        settings={"init": init},
        notes=data_notes(coded.ann) + notes,
        parameters={"population": a},
    )


def fit_any(coded: Coded, name: str, full: bool) -> ModelResult:
    """A model of the experiment: the full fit (several starts) or a cross-validation fit."""
    if name == "hier_symmetric":
        return fit_hier_symmetric(coded, init="best" if full else "majority")
    if name == "hier_one_coin":
        return fit_hier_one_coin(coded, init="best" if full else "majority")
    model, settings = VARIANTS.get(name, (name, {}))
    start = {} if full else quick(model)
    return fit_model(coded, model, gold=None, seed=0, **settings, **start)


def load_in_repo(name: str) -> tuple[Annotations, pd.Series]:
    folder = ROOT / "datasets" / name
    frame = pd.read_csv(folder / "labels.csv", dtype=str, keep_default_na=False)
    gold = pd.read_csv(folder / "gold.csv", dtype=str, keep_default_na=False)
    return Annotations.from_frame(frame, name=name), gold.set_index("item")["label"]


@dataclass
class Scored:
    """One model on one set: accuracy of the full fit, posteriors, held-out unit scores."""

    accuracy: float
    posteriors: np.ndarray
    units: dict[str, np.ndarray]  # criterion -> per held-out unit score


def log_terms(result: ModelResult, coded: Coded, held: np.ndarray) -> np.ndarray:
    """log p(y_n | z = k) of every held-out judgement under a fit, shape (n, K)."""
    jj, yy, k = coded.jj[held], coded.yy[held], coded.k
    if result.model == "glad":
        x = result.parameters["alpha"][jj] * result.parameters["beta"][coded.ii[held]]
        terms = np.repeat((log_expit(-x) - np.log(max(k - 1, 1)))[:, None], k, axis=1)
        terms[np.arange(len(yy)), yy] = log_expit(x)
        return terms
    with np.errstate(divide="ignore"):
        return np.log(result.confusion_array[jj, :, yy])


def score_model(coded: Coded, cv: FoldScore, gold: pd.Series, name: str) -> Scored:
    """Full fit and cross-validation fits of one model, with every criterion's unit scores."""
    full = fit_any(coded, name, True)
    k = coded.k
    majority = coded.votes / coded.votes.sum(axis=1, keepdims=True)
    # the symmetric channel's accuracy: the mean vote share of a judgement's own label
    agree = float(np.mean(majority[coded.ii, coded.yy]))
    phi = np.full((k, k), (1 - agree) / max(k - 1, 1))
    np.fill_diagonal(phi, agree)
    parts: dict[str, list[np.ndarray]] = {c: [] for c in (*CRITERIA, "n_train")}
    for held in cv.masks:
        if not held.any():
            continue
        r = fit_any(code(cv.training(held)), name, False)
        q = r.posteriors.to_numpy()
        ii, jj, yy = coded.ii[held], coded.jj[held], coded.yy[held]
        with np.errstate(divide="ignore"):
            lq = np.log(q[ii])
        terms = log_terms(r, coded, held)
        parts["single"].append(logsumexp(lq + terms, axis=1))
        per_item = np.zeros((coded.n_items, k))
        for col in range(k):
            per_item[:, col] = np.bincount(ii, terms[:, col], coded.n_items)
        rows = np.unique(ii)
        with np.errstate(divide="ignore"):
            parts["joint"].append(logsumexp(np.log(q[rows]) + per_item[rows], axis=1))
        n_train = np.bincount(coded.jj[~held], minlength=coded.n_annotators).astype(float)
        parts["n_train"].append(n_train[jj])
        theta_bar = np.einsum("j,jkl->kl", n_train, r.confusion_array) / n_train.sum()
        with np.errstate(divide="ignore"):
            parts["population"].append(logsumexp(lq + np.log(theta_bar[:, yy].T), axis=1))
            parts["symmetric"].append(logsumexp(lq + np.log(phi[:, yy].T), axis=1))
        parts["agreement"].append(q[ii, yy])
    units = {c: np.concatenate(v) for c, v in parts.items() if v}
    units["experienced"] = units["single"]
    units["attested"] = units["single"]
    return Scored(tie_accuracy(full.posteriors, gold), full.posteriors.to_numpy(), units)


def unit_weights(criterion: str, n_train: np.ndarray) -> np.ndarray:
    """Weight of each held-out judgement in a criterion (all 1 but two)."""
    if criterion == "experienced":
        return n_train / (n_train + EXPERIENCE)
    if criterion == "attested":
        attested = n_train >= ATTESTED
        # no annotator that experienced (cf_weather: 3.7 judgements each): every one counts
        return attested.astype(float) if attested.any() else np.ones(len(n_train))
    return np.ones(len(n_train))


def weighted_stack(scores: np.ndarray, weights: np.ndarray, iters: int = 5000) -> np.ndarray:
    """Simplex weights maximising sum_n u_n log sum_m w_m exp(s_mn) (EM for mixture weights,
    as :func:`analytics.models.stacking_weights`, with unit weights u)."""
    m = scores.shape[0]
    w = np.full(m, 1.0 / m)
    e = np.exp(scores - scores.max(axis=0))
    u = weights / weights.sum()
    last = -np.inf
    for _ in range(iters):
        mix = w @ e
        value = float(u @ np.log(mix))
        if value - last < 1e-10:
            break
        last = value
        w = w * ((e / mix) @ u)
        w /= w.sum()
    w = np.where(w >= 0.01, w, 0.0)  # as auto drops weights below MIN_WEIGHT
    return w / w.sum()


def evaluate(name: str, ann: Annotations, gold: pd.Series, models: list[str]) -> dict:
    """Every model's accuracy and criterion scores on one set."""
    coded = code(ann)
    cv = FoldScore(coded, 5, 0)
    out = {}
    for m in models:
        t0 = time.perf_counter()
        out[m] = score_model(coded, cv, gold, m)
        print(f"  {name} {m}: accuracy {out[m].accuracy:.4f} ({time.perf_counter() - t0:.1f} s)")
    return {"gold": gold, "items": [str(i) for i in ann.items], "models": out, "ann": ann}


def decide(data: dict, family: list[str], criterion: str, how: str) -> tuple[float, str]:
    """Accuracy of a criterion's choice (or stack) within a family, and what it picked."""
    scored = {m: data["models"][m] for m in family}
    n_train = scored[family[0]].units["n_train"]
    key = "joint" if criterion == "joint" else criterion
    u = (
        np.ones(len(scored[family[0]].units[key]))
        if criterion == "joint"
        else (unit_weights(criterion, n_train))
    )
    values = np.vstack([scored[m].units[key] for m in family])
    if how == "choose" or criterion == "agreement":
        means = values @ u / max(u.sum(), 1e-300)
        best = family[int(np.argmax(means))]
        return scored[best].accuracy, best
    w = weighted_stack(values, u)
    q = sum(wm * scored[m].posteriors for m, wm in zip(family, w, strict=True))
    post = pd.DataFrame(q, index=data["items"], columns=[str(c) for c in data["ann"].categories])
    label = " ".join(f"{m} {wm:.2f}" for m, wm in zip(family, w, strict=True) if wm > 0)
    return tie_accuracy(post, data["gold"]), label


def correlation(data: dict, family: list[str], criterion: str) -> float:
    """Spearman correlation, across the family's models, of a criterion and accuracy."""
    scored = {m: data["models"][m] for m in family}
    key = criterion
    u = unit_weights(criterion, scored[family[0]].units["n_train"])
    if criterion == "joint":
        u = np.ones(len(scored[family[0]].units["joint"]))
    means = [scored[m].units[key] @ u / max(u.sum(), 1e-300) for m in family]
    acc = [scored[m].accuracy for m in family]
    if np.ptp(acc) == 0 or np.ptp(means) == 0:
        return float("nan")
    return float(spearmanr(means, acc).statistic)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("outside", nargs="*", type=Path, help="folders outside the repo")
    parser.add_argument("--duplicates", default="first", help="as outside_public's")
    parser.add_argument("--sets", nargs="*", default=IN_REPO, help="in-repo sets")
    parser.add_argument("--out", type=Path, default=None, help="write the tables as CSV here")
    parser.add_argument("--cached", type=Path, default=None, help="scores.pkl of an earlier --out")
    args = parser.parse_args()
    models = list(dict.fromkeys(m for fam in FAMILIES.values() for m in fam))
    if args.cached is not None:
        with args.cached.open("rb") as f:
            data, outside = pickle.load(f)
    else:
        data, outside = {}, []
        for name in args.sets:
            data[name] = evaluate(name, *load_in_repo(name), models)
        for folder in args.outside:
            ann, gold = load_outside(folder, args.duplicates)
            data[folder.name] = evaluate(folder.name, ann, gold, models)
            outside.append(folder.name)
        if args.out is not None:
            args.out.mkdir(parents=True, exist_ok=True)
            with (args.out / "scores.pkl").open("wb") as f:
                pickle.dump((data, outside), f)
    inside = [s for s in data if s not in outside]
    accuracy = pd.DataFrame(
        {m: {s: d["models"][m].accuracy for s, d in data.items()} for m in models}
    )
    print("\nAccuracy of every model (full fit, several starts):")
    print(accuracy.round(3).to_string())
    rows, picks = [], []
    for family, members in FAMILIES.items():
        for criterion in CRITERIA:
            for how in ("choose", "stack"):
                if how == "stack" and criterion == "agreement":
                    continue
                row = {"family": family, "criterion": criterion, "how": how}
                for s, d in data.items():
                    row[s], pick = decide(d, members, criterion, how)
                    picks.append(
                        {
                            "family": family,
                            "criterion": criterion,
                            "how": how,
                            "set": s,
                            "picked": pick,
                        }
                    )
                row["mean in repo"] = float(np.mean([row[s] for s in inside])) if inside else np.nan
                row["mean outside"] = (
                    float(np.mean([row[s] for s in outside])) if outside else np.nan
                )
                row["spearman"] = float(
                    np.nanmean([correlation(d, members, criterion) for d in data.values()])
                )
                rows.append(row)
    table = pd.DataFrame(rows)
    pd.set_option("display.width", 250)
    print("\nAccuracy of each criterion's choice or stack (no criterion sees gold):")
    print(table.round(4).to_string(index=False))
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        accuracy.to_csv(args.out / "model_accuracy.csv")
        table.to_csv(args.out / "criteria.csv", index=False)
        pd.DataFrame(picks).to_csv(args.out / "picks.csv", index=False)


if __name__ == "__main__":
    main()
