"""The agreement coefficients of judgements held by an engine (DuckDB, Spark).

Every coefficient here is ``finish(sum over items of per-item statistics)``
(:class:`~analytics._core.bootstrap.ItemStatistic`), and for the Fleiss family, percent
agreement and Krippendorff's alpha the per-item statistics depend on an item only through
its category counts :math:`(r_{i1}, \\dots, r_{iq})`. The engine returns the distinct
count rows and how many items show each (a few hundred rows, whatever the number of
items); one stand-in item per pattern goes through the *same* builders as in-memory data,
and the sums weight each pattern by its multiplicity. Conger's kappa adds the annotator x
category counts; the two-annotator coefficients read the per-annotator-pair label table.
No coefficient formula is restated here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.bootstrap import (
    ItemStatistic,
    Patterns,
    bootstrap_replicates,
    check_resampling,
    percentile_interval,
)
from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_count
from analytics._core.lazy import LazyAnnotations, on_engine
from analytics.agreement.annotator_pairs import pair_values_from_margins
from analytics.agreement.coefficients import build_conger, build_family, build_percent
from analytics.agreement.coincidence import resolve_distance
from analytics.agreement.krippendorff import build_alpha, default_distance, distance_label
from analytics.agreement.prepared import (
    ONE_CATEGORY,
    Built,
    Coefficient,
    Prepared,
    join_notes,
    prepare,
    undefined,
)
from analytics.agreement.reading import FEW_SHARED
from analytics.agreement.report import MIN_RESAMPLED_ITEMS, REPORT_COLUMNS
from analytics.agreement.weights import agreement_weights, weights_order_problem
from analytics.data import Annotations, LabelKind

__all__ = ["MAX_ENGINE_PAIRS", "PatternData", "engine_report"]

MAX_ENGINE_PAIRS = 1_000_000
"""Annotator pairs sharing an item above which the pairwise means are not computed on an
engine (their per-pair table is then no longer small)."""


class PatternData:
    """The stand-in data: one item per distinct count pattern, and the pattern weights.

    Parameters
    ----------
    lazy : LazyAnnotations
        The judgements held by an engine (without repeated judgements).
    """

    def __init__(self, lazy: LazyAnnotations) -> None:
        if lazy.has_repeats:
            raise AnnotationDataError(
                "agreement compares coders, and some annotator judged an item twice; an engine "
                "does not keep the input order that picks the last judgement.",
                source=lazy.name,
                hint="Load with duplicates='error' after removing the repeats.",
            )
        counts, mult = lazy.count_patterns()
        self.lazy, self.counts, self.mult = lazy, counts, mult
        r = counts.sum(axis=1)
        u, q = counts.shape
        item = np.repeat(np.arange(u), r)
        start = np.repeat(np.cumsum(r) - r, r)
        label = np.repeat(np.tile(np.arange(q), u), counts.ravel())
        self.ann = Annotations(
            item_codes=item,
            annotator_codes=np.arange(len(item)) - start,
            label_codes=label,
            items=pd.RangeIndex(u),
            annotators=lazy.annotators,
            categories=lazy.categories,
            kind=lazy.kind,
            name=lazy.name,
            report=lazy.report,
        )
        self.prepared: Prepared = prepare(self.ann)
        self.weights = mult[None, :].astype(float)
        self.pairable = int(mult[r >= 2].sum())

    def value(self, stat: ItemStatistic) -> float:
        """The statistic on the real data: pattern sums weighted by their multiplicity."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return float(stat.finish(stat.totals(self.weights))[0])

    def weighted(self, built: Built, items_used: int) -> Built:
        """A built coefficient of the stand-in data, recomputed for the real data."""
        coef, stat = built
        if callable(stat) and not isinstance(stat, ItemStatistic):
            stat = stat()
        if stat is None:
            return Coefficient(float("nan"), coef.note, items_used if coef.note else 0), None
        value = self.value(stat)
        if np.isnan(value):
            return undefined(ONE_CATEGORY, items_used), None
        return Coefficient(value, self.note(coef.note), items_used), stat

    def note(self, text: str) -> str:
        """A note of the stand-in data with its item count replaced by the real one."""
        stand_in = int((self.counts.sum(axis=1) >= 2).sum())
        return text.replace(
            f"the {stand_in:,} items with 2+", f"the {self.pairable:,} items with 2+"
        )

    @property
    def patterns(self) -> Patterns:
        """The bootstrap's view: pattern ``u`` is item ``u`` of the stand-in data."""
        u, n = len(self.mult), int(self.mult.sum())
        first = np.arange(u, dtype=np.int64)
        # the bootstrap reads of_item only when the patterns are not far fewer than the items
        of_item = np.repeat(first, self.mult) if u * 8 >= n else np.broadcast_to(first[:1], (n,))
        return Patterns(of_item, first, self.mult)


def _conger(data: PatternData) -> Built:
    coef, stat = build_conger(data.prepared)
    if stat is None:
        return Coefficient(float("nan"), coef.note, data.pairable if coef.note else 0), None
    head = stat.totals(data.weights)[:, :2]
    classif = data.lazy.annotator_category_counts().reshape(1, -1).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        value = float(stat.finish(np.hstack([head, classif]))[0])
    if np.isnan(value):
        return undefined(ONE_CATEGORY, data.pairable), None
    return Coefficient(value, data.note(coef.note), data.pairable), None  # per annotator


def _pair_mean(data: PatternData, weights: Any, which: str, name: str) -> Coefficient:
    """Light's mean of a two-annotator coefficient over the pairs, from the pair table."""
    lazy = data.lazy
    w, wlabel = agreement_weights(data.ann, weights)
    a_n, q = lazy.n_annotators, lazy.n_categories
    if a_n < 2:
        return undefined(f"only one annotator: {name} compares pairs of annotators")
    all_pairs = a_n * (a_n - 1) // 2
    # the pair table holds the pairs that share an item, often far fewer than all pairs
    # (2,000 annotators: 1,999,000 pairs, of which 8,000 shared items in a review's file)
    if all_pairs > MAX_ENGINE_PAIRS and (sharing := lazy.sharing_pairs()) > MAX_ENGINE_PAIRS:
        return undefined(
            f"{sharing:,} annotator pairs share items: the mean over pairs needs a table per "
            f"pair, which is not small on the {lazy.engine} engine (limit "
            f"{MAX_ENGINE_PAIRS:,} pairs); Fleiss' kappa, Conger's kappa and alpha are computed"
        )
    tab = lazy.pair_table()
    if tab.empty:
        return undefined("no two annotators judged a common item")
    keys, idx = np.unique(tab["a"].to_numpy() * a_n + tab["b"].to_numpy(), return_inverse=True)
    n, la, lb = (tab[c].to_numpy() for c in ("n", "la", "lb"))
    n_p = len(keys)
    agree = (la == lb) * n if w is None else w[la, lb] * n
    t = np.zeros((n_p, 2 + 2 * q))
    t[:, 0] = np.bincount(idx, weights=n, minlength=n_p)
    t[:, 1] = np.bincount(idx, weights=agree, minlength=n_p)
    np.add.at(t, (idx, 2 + la), n)
    np.add.at(t, (idx, 2 + q + lb), n)
    vals, shared = pair_values_from_margins(t, w, which, q)
    ok = np.isfinite(vals)
    if not ok.any():
        return undefined(f"{ONE_CATEGORY} (for every annotator pair)", data.pairable)
    parts = [wlabel] if wlabel else []
    if all_pairs > 1:
        parts.append(f"mean over {int(ok.sum())} of {all_pairs} annotator pairs")
        if ok.sum() < all_pairs:
            left = all_pairs - int(ok.sum())
            parts.append(
                f"{left} {'pair shares' if left == 1 else 'pairs share'} no items or "
                f"{'is' if left == 1 else 'are'} undefined"
            )
        few = int((ok & (shared < 10)).sum())
        if few:
            parts.append(f"{few} {FEW_SHARED}")
    return Coefficient(float(vals[ok].mean()), "; ".join(parts), data.pairable)


def _two(lazy: LazyAnnotations, a: Any, b: Any, weights: Any, which: str, name: str) -> Coefficient:
    data = PatternData(lazy)
    if a is None and b is None:
        return _pair_mean(data, weights, which, name)
    w, wlabel = agreement_weights(data.ann, weights)
    ia, ib = (_annotator_code(lazy, x) for x in (a, b))
    if ia == ib:
        return undefined(f"{a!r} and {b!r} are the same annotator")
    tab = lazy.pair_table(min(ia, ib), max(ia, ib))
    if tab.empty:
        return undefined(f"annotators {a!r} and {b!r} judged no item in common")
    q = lazy.n_categories
    n, la, lb = (tab[c].to_numpy() for c in ("n", "la", "lb"))
    if ia > ib:
        la, lb = lb, la
    agree = ((la == lb) * n).sum() if w is None else (w[la, lb] * n).sum()
    t = np.concatenate([[n.sum(), agree], np.bincount(la, n, q), np.bincount(lb, n, q)]).astype(
        float
    )
    value, shared = pair_values_from_margins(t, w, which, q)
    if np.isnan(value):
        return undefined(
            f"{ONE_CATEGORY} (on the {int(shared)} items {a!r} and {b!r} share)", int(shared)
        )
    return Coefficient(float(value), wlabel, int(shared))


def _annotator_code(lazy: LazyAnnotations, who: Any) -> int:
    idx = lazy.annotators.get_indexer([str(who)])[0]
    if idx < 0:
        raise AnnotationDataError(f"unknown annotator {who!r}.", source=lazy.name)
    return int(idx)


# ---------------------------------------------------------------------- public answers
def _family(which: str, name: str) -> Callable[..., Coefficient]:
    def answer(lazy: LazyAnnotations, weights: Any = None) -> Coefficient:
        data = PatternData(lazy)
        return data.weighted(build_family(data.prepared, weights, which, name), data.pairable)[0]

    return answer


on_engine("fleiss_kappa")(_family("fleiss_kappa", "Fleiss' kappa"))
on_engine("gwet_ac1")(_family("gwet_ac1", "Gwet's AC1"))
on_engine("brennan_prediger")(_family("brennan_prediger", "Brennan-Prediger"))


@on_engine("percent_agreement")
def _percent(lazy: LazyAnnotations) -> Coefficient:
    data = PatternData(lazy)
    return data.weighted(build_percent(data.prepared), data.pairable)[0]


@on_engine("conger_kappa")
def _conger_answer(lazy: LazyAnnotations) -> Coefficient:
    return _conger(PatternData(lazy))[0]


@on_engine("krippendorff_alpha")
def _alpha(lazy: LazyAnnotations, distance: str | Callable = "nominal") -> Coefficient:
    data = PatternData(lazy)
    return data.weighted(build_alpha(data.ann, distance), data.pairable)[0]


@on_engine("cohen_kappa")
def _cohen(lazy: LazyAnnotations, a: Any = None, b: Any = None, weights: Any = None) -> Coefficient:
    return _two(lazy, a, b, weights, "cohen", "Cohen's kappa")


@on_engine("scott_pi")
def _scott(lazy: LazyAnnotations, a: Any = None, b: Any = None) -> Coefficient:
    return _two(lazy, a, b, None, "scott", "Scott's pi")


@on_engine("agreement_report")
def engine_report(
    lazy: LazyAnnotations,
    confidence: float = 0.95,
    n_boot: int = 1000,
    seed: int | None = 0,
    *,
    distance: str | Callable | None = None,
) -> pd.DataFrame:
    """:func:`~analytics.agreement.agreement_report` of judgements held by an engine.

    The same rows and values; bootstrap intervals resample items through their count
    patterns (the same distribution as resampling items; the draws differ from the
    in-memory run's, so the interval ends differ by the Monte Carlo error). Conger's kappa
    and the means over annotator pairs have no interval here (their statistics are per
    annotator), and there are no analytic intervals (they need every item).
    """
    confidence, n_boot, seed = check_resampling(confidence, n_boot, seed)
    data = PatternData(lazy)
    p, used = data.prepared, data.pairable
    two = lazy.n_annotators == 2
    entries: list[tuple[str, Built]] = [
        ("Percent agreement", data.weighted(build_percent(p), used)),
        (
            "Cohen's kappa" if two else "Cohen's kappa (Light's mean over pairs)",
            (_pair_mean(data, None, "cohen", "Cohen's kappa"), None),
        ),
        (
            "Scott's pi" if two else "Scott's pi (mean over pairs)",
            (_pair_mean(data, None, "scott", "Scott's pi"), None),
        ),
        (
            "Fleiss' kappa",
            data.weighted(build_family(p, None, "fleiss_kappa", "Fleiss' kappa"), used),
        ),
        ("Conger's kappa", _conger(data)),
        (
            "Brennan-Prediger",
            data.weighted(build_family(p, None, "brennan_prediger", "Brennan-Prediger"), used),
        ),
        ("Gwet's AC1", data.weighted(build_family(p, None, "gwet_ac1", "Gwet's AC1"), used)),
    ]
    if lazy.kind in (LabelKind.ORDINAL, LabelKind.NUMERIC):
        unordered = weights_order_problem(data.ann, "quadratic")
        entries.append(
            (
                "Gwet's AC2 (quadratic weights)",
                (undefined(unordered), None)
                if unordered
                else data.weighted(build_family(p, "quadratic", "gwet_ac1", "AC2"), used),
            )
        )
        entries.append(
            (
                "Cohen's kappa (quadratic weights)",
                (undefined(unordered), None)
                if unordered
                else (_pair_mean(data, "quadratic", "cohen", "Cohen's kappa"), None),
            )
        )
    name = resolve_distance(default_distance(data.ann) if distance is None else distance, lazy.kind)
    for d in [name] if name == "nominal" else ["nominal", name]:
        entries.append(
            (
                f"Krippendorff's alpha ({distance_label(d)})",
                data.weighted(build_alpha(data.ann, d), used),
            )
        )
    stats = {n: s for n, (_, s) in entries if isinstance(s, ItemStatistic)}
    boot = bootstrap_replicates(stats, data.patterns, n_boot, seed) if n_boot > 0 else {}
    rows = []
    for label, (value, _) in entries:
        lo = hi = float("nan")
        method, note = "", value.note
        if label in boot and 0 < value.items_used < MIN_RESAMPLED_ITEMS:
            # as in memory: resampling 1 to 9 items gives a false certainty, not an interval
            method = "none (too few items to resample)"
            note = join_notes(
                note,
                f"no resampled interval: {format_count(value.items_used, 'item')} compared, "
                f"fewer than {MIN_RESAMPLED_ITEMS}",
            )
        elif label in boot:
            lo, hi, n_ok = percentile_interval(boot[label], confidence)
            method = f"bootstrap over items ({n_boot:,} resamples, percentile, by count pattern)"
            if n_ok < n_boot:
                note = join_notes(note, f"{n_boot - n_ok} resamples undefined, left out")
        elif np.isfinite(value):
            method = f"none (on the {lazy.engine} engine: per-annotator statistic or n_boot=0)"
        rows.append((label, float(value), lo, hi, method, value.items_used, note))
    out = pd.DataFrame(
        rows,
        columns=["coefficient", "value", "ci_low", "ci_high", "ci_method", "items_used", "note"],
    )
    # the in-memory report's columns, in its order: the analytic standard errors are not
    # computed on an engine (NaN, and se_method says so), so scripts and --json find every key
    out[["se", "p_value", "analytic_low", "analytic_high"]] = np.nan
    out["se_method"] = f"none (not computed on the {lazy.engine} engine)"
    return out[REPORT_COLUMNS]
