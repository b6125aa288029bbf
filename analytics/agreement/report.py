"""Every agreement coefficient with a confidence interval, in one tidy table.

:func:`agreement_report` computes every coefficient of :data:`COEFFICIENTS` once, then
either bootstraps them all from the same resamples of the items
(:mod:`analytics._core.bootstrap`) or, with ``n_boot=0``, uses the analytic standard error
where one exists (:func:`gwet_standard_error`, Cohen's kappa of one pair).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.bootstrap import (
    ItemStatistic,
    Patterns,
    basic_interval,
    bca_interval,
    bootstrap_replicates,
    check_resampling,
    jackknife_interval,
    jackknife_values,
)
from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_count
from analytics._core.lazy import engine_answer, is_lazy, no_engine_weights
from analytics.agreement.annotator_pairs import pair_labels, pair_mean
from analytics.agreement.coefficients import build_conger, build_family, build_percent
from analytics.agreement.coincidence import resolve_distance
from analytics.agreement.krippendorff import build_alpha, default_distance, distance_label
from analytics.agreement.prepared import (
    Built,
    Prepared,
    coders,
    join_notes,
    prepare,
    undefined,
)
from analytics.agreement.ranges import CLIPPED, clip_interval
from analytics.agreement.standard_errors import (
    Analytic,
    alpha_se,
    conger_se,
    fleiss_family_se,
    pair_table_se,
    percent_se,
    t_interval,
)
from analytics.agreement.weights import agreement_weights, category_positions, weights_order_problem
from analytics.data import Annotations, LabelKind, as_annotations

__all__ = [
    "COEFFICIENTS",
    "REPORT_COLUMNS",
    "agreement_report",
    "bootstrap_cost",
    "gwet_standard_error",
]

COEFFICIENTS = {
    "percent_agreement": "Percent agreement",
    "cohen_kappa": "Cohen's kappa",
    "scott_pi": "Scott's pi",
    "fleiss_kappa": "Fleiss' kappa",
    "conger_kappa": "Conger's kappa",
    "brennan_prediger": "Brennan-Prediger",
    "gwet_ac1": "Gwet's AC1",
    "krippendorff_alpha": "Krippendorff's alpha",
}
"""Machine name -> display name of the coefficients in :func:`agreement_report`."""

UNSTABLE = (
    "no interval: the bias-corrected interval does not contain the estimate, or is an extreme "
    "tail of the resamples: the estimate's bias is as large as its spread (a mean "
    "over annotator pairs is biased when many pairs share few items); rely on Fleiss' "
    "kappa, AC1 or alpha here"
)
REPORT_COLUMNS = [
    "coefficient",
    "value",
    "ci_low",
    "ci_high",
    "ci_method",
    "se",
    "p_value",
    "se_method",
    "analytic_low",
    "analytic_high",
    "items_used",
    "note",
]
"""The columns of :func:`agreement_report`, in order."""
JACKKNIFE_CELLS = 50_000_000
#: Below this many items compared, resampling items gives no interval worth showing: one
#: item resamples to itself (an interval "0.00 to 0.00"), three to a handful of values.
MIN_RESAMPLED_ITEMS = 10
"""Above this many (patterns x statistic width) cells, the BCa acceleration is left at 0
(the jackknife would cost more than about 50 million cells of work, the bootstrap of a
wide statistic several times over)."""


def bootstrap_cost(ann: Annotations | pd.DataFrame) -> int:
    """The work of one bootstrap resample of :func:`agreement_report`: items x annotator pairs.

    The pairwise means (Light's kappa, Scott's pi) cost that much per resample, so a
    caller can choose between the bootstrap and the analytic intervals by it.

    Parameters
    ----------
    ann : Annotations or DataFrame

    Returns
    -------
    int
        :math:`n_{items} \\cdot \\max(1, a(a-1)/2)` for :math:`a` annotators.

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1, 1, 2], "annotator": ["a", "b", "c", "a"],
    ...                    "label": ["x", "y", "x", "y"]})
    >>> bootstrap_cost(df)
    6
    """
    ann = as_annotations(ann)
    n_pairs = ann.n_annotators * (ann.n_annotators - 1) // 2
    return ann.n_items * max(n_pairs, 1)


def _weights_label(weights: Any) -> str:
    """How a report row names its weights: ``"linear weights"``, ``"custom weights"``."""
    return f"{weights} weights" if isinstance(weights, str) else "custom weights"


def _report_entries(
    p: Prepared, distance: str | Callable, weights: Any = None
) -> list[tuple[str, Built]]:
    """(display name, (point estimate, bootstrap statistic)) for every report row."""
    ann = p.ann
    two = ann.n_annotators == 2
    entries: list[tuple[str, Built]] = [
        ("Percent agreement", build_percent(p)),
        (
            "Cohen's kappa" if two else "Cohen's kappa (Light's mean over pairs)",
            pair_mean(p, None, "cohen", "Cohen's kappa"),
        ),
        (
            "Scott's pi" if two else "Scott's pi (mean over pairs)",
            pair_mean(p, None, "scott", "Scott's pi"),
        ),
        ("Fleiss' kappa", build_family(p, None, "fleiss_kappa", "Fleiss' kappa")),
        ("Conger's kappa", build_conger(p)),
        ("Brennan-Prediger", build_family(p, None, "brennan_prediger", "Brennan-Prediger")),
        ("Gwet's AC1", build_family(p, None, "gwet_ac1", "Gwet's AC1")),
    ]
    if weights is not None or ann.kind in (LabelKind.ORDINAL, LabelKind.NUMERIC):
        w = "quadratic" if weights is None else weights
        unordered = weights_order_problem(ann, w) if isinstance(w, str) else ""
        label = _weights_label(w)
        entries.append(
            (
                f"Gwet's AC2 ({label})",
                (undefined(unordered), None)
                if unordered
                else build_family(p, w, "gwet_ac1", "AC2"),
            )
        )
        entries.append(
            (
                f"Cohen's kappa ({label})",
                (undefined(unordered), None)
                if unordered
                else pair_mean(p, w, "cohen", "Cohen's kappa"),
            )
        )
    name = resolve_distance(distance, ann.kind)
    for d in [name] if name == "nominal" else ["nominal", name]:
        entries.append((f"Krippendorff's alpha ({distance_label(d)})", build_alpha(ann, d)))
    return entries


def agreement_report(
    ann: Annotations | pd.DataFrame,
    confidence: float = 0.95,
    n_boot: int = 1000,
    seed: int | None = 0,
    *,
    distance: str | Callable | None = None,
    population: float | None = None,
    weights: Any = None,
) -> pd.DataFrame:
    """Every coefficient, with a confidence interval, in one tidy table.

    Parameters
    ----------
    ann : Annotations or DataFrame
        The judgements (a long DataFrame: item, annotator, label).
    confidence : float, default 0.95
        Coverage of the intervals, strictly between 0 and 1 (0.95: 95% intervals).
    n_boot : int, default 1000
        Bootstrap resamples of the items (0: no bootstrap; then the analytic standard
        error is used where one exists).
    seed : int or None, default 0
        Seed of the resampling, for reproducible intervals.
    distance : str or callable, optional
        Alpha's distance (keyword only); default :func:`~analytics.agreement.default_distance`.
        Nominal alpha is always included.
    population : float, optional
        How many items the population holds that the data's items were drawn from
        (keyword only): the analytic variances get the finite-population correction
        :math:`1 - n/N` (``irrCAC``'s ``N``). None: an infinite population.
    weights : str, array_like or None, default None
        The weights of the weighted rows, Gwet's AC2 and weighted Cohen's kappa (keyword
        only): a family of :data:`~analytics.agreement.WEIGHT_FAMILIES` or a categories x
        categories matrix, meaning what ``weights=`` means for every coefficient. None:
        quadratic weights, and the weighted rows only for ordinal and numeric labels.

    Returns
    -------
    DataFrame
        One row per coefficient (Gwet's AC2 and quadratic-weighted Cohen's kappa too for
        ordinal and numeric labels), columns :data:`REPORT_COLUMNS`:

        - ``value``; ``ci_low``, ``ci_high``, ``ci_method``: the interval (bootstrap when
          ``n_boot > 0``, else the analytic one; for a mean over annotator pairs, Cohen's
          kappa and Scott's pi of more than two annotators, a bias-corrected jackknife t
          interval, see Notes), and how it was made;
        - ``se``, ``p_value``, ``se_method``: the analytic standard error and the two-sided
          t test of "no agreement beyond chance" where a variance formula exists, else the
          bootstrap SD (no p-value), as ``se_method`` says; percent agreement has no chance
          level (its 0 is total disagreement), so no p-value;
        - ``analytic_low``, ``analytic_high``: the analytic t interval, whenever it exists
          (so a bootstrap report shows both);
        - ``items_used``, ``note``.

    Raises
    ------
    AnnotationDataError
        ``confidence``, ``n_boot``, ``seed`` or ``population`` out of range (the message
        names it).

    Notes
    -----
    Bootstrap intervals resample items, every coefficient from the same resamples, and are
    bias-corrected and accelerated (BCa, Efron 1987): a mean of pairwise coefficients on a
    sparse crowd design is biased (each pair's kappa on a few shared items is), and the
    percentile interval then sits on the wrong side of the estimate. When the bias is so
    large that BCa would need an extreme tail of the resamples, the basic interval is used
    (Davison & Hinkley 1997); if even that excludes the estimate, the interval is withheld
    with the reason. A mean over annotator pairs (Cohen's kappa and Scott's pi of three or
    more annotators) gets the jackknife bias-corrected t interval instead,
    :math:`\\hat\\theta - \\hat b \\pm t_{n-1}\\,\\widehat{SE}_{jack}` with Quenouille's
    bias :math:`\\hat b = (n-1)(\\bar\\theta_{(\\cdot)} - \\hat\\theta)`: the bootstrap
    underestimates that bias (docs/agreement.md, coverage).
    The analytic interval is :math:`\\hat\\kappa \\pm t_{df, (1+c)/2}\\,
    \\widehat{SE}`, with the standard errors of :mod:`analytics.agreement.standard_errors`.
    Every interval end beyond the coefficient's range (above 1; below 0 for percent
    agreement, below -1 for Cohen's kappa and Scott's pi) is moved back to it
    (:func:`~analytics.agreement.ranges.clip_interval`; ``irrCAC`` caps the t interval at 1
    too), and the method text then says "clipped to the coefficient's range".

    References
    ----------
    Efron, B. (1987). Better bootstrap confidence intervals. *Journal of the American
    Statistical Association* 82(397), 171-185.
    Davison, A. C., & Hinkley, D. V. (1997). *Bootstrap Methods and their Application*,
    Cambridge University Press, section 5.2 (the basic interval).
    Quenouille, M. H. (1956). Notes on bias in estimation. *Biometrika* 43(3/4), 353-360
    (the jackknife's bias estimate).
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed. (the variance of
    the agreement coefficients).
    Fleiss, J. L., Cohen, J., & Everitt, B. S. (1969). Large sample standard errors of
    kappa and weighted kappa. *Psychological Bulletin* 72(5), 323-327.

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3, 4, 4], "annotator": ["a", "b"] * 4,
    ...                    "label": ["x", "x", "y", "y", "x", "y", "y", "y"]})
    >>> agreement_report(df, n_boot=0)["value"].round(3).tolist()
    [0.75, 0.5, 0.467, 0.467, 0.5, 0.5, 0.529, 0.533]
    """
    if is_lazy(ann):
        no_engine_weights(ann, weights, "agreement report")
        if population is not None:
            raise AnnotationDataError(
                f"the finite-population correction is not computed on the {ann.engine} engine "
                "(it has no analytic standard errors).",
                source=ann.name,
                hint="Leave population=None, or load the data in memory (engine='memory').",
            )
        return engine_answer("agreement_report", ann, confidence, n_boot, seed, distance=distance)
    confidence, n_boot, seed = check_resampling(confidence, n_boot, seed)
    original = as_annotations(ann)
    if population is not None and not (
        isinstance(population, int | float) and population >= original.n_items
    ):
        raise AnnotationDataError(
            f"population={population!r} must be a number of items at least as large as the "
            f"{original.n_items:,} items in the data (None: an infinite population)."
        )
    ann = coders(original)
    repeat_note = (
        f"{original.n_judgements - ann.n_judgements:,} repeated judgements (same annotator, same "
        "item): only each annotator's last judgement of an item is compared"
        if ann is not original
        else ""
    )
    p = prepare(ann)
    entries = _report_entries(p, default_distance(ann) if distance is None else distance, weights)
    boot: dict[str, np.ndarray] = {}
    refused: dict[str, str] = {}  # rows whose bootstrap would exceed the memory budget
    to_boot: dict[str, ItemStatistic] = {}
    if n_boot > 0:
        for name, (_, stat) in entries:
            if stat is None:
                continue
            try:
                to_boot[name] = (
                    stat() if callable(stat) and not isinstance(stat, ItemStatistic) else stat
                )
            except AnnotationDataError as exc:
                refused[name] = f"no bootstrap interval: {exc}"
        boot = bootstrap_replicates(to_boot, p.patterns, n_boot, seed)
    rows = []
    for name, (value, _) in entries:
        lo = hi = float("nan")
        method, note = "", value.note
        jack_row = None
        few = 0 < value.items_used < MIN_RESAMPLED_ITEMS
        if few and name in boot:
            method = "none (too few items to resample)"
            note = join_notes(
                note,
                f"no resampled interval: {format_count(value.items_used, 'item')} compared, "
                f"fewer than {MIN_RESAMPLED_ITEMS}",
            )
        elif name in boot and _pair_mean_row(ann, name):
            jack_row = _jackknife_row(to_boot[name], p.patterns, float(value), confidence)
        if jack_row is not None:
            lo, hi, method, extra = jack_row
            note = join_notes(note, extra)
        elif name in boot and not few:
            lo, hi, n_ok, kind = _bca(to_boot[name], p.patterns, boot[name], value, confidence)
            method = f"bootstrap over items ({n_boot:,} resamples, {kind})"
            if n_ok < n_boot:
                note = join_notes(
                    note, f"{n_boot - n_ok} resamples undefined, left out of the interval"
                )
            if n_ok >= 2 and not (np.isfinite(lo) and lo - 1e-12 <= value <= hi + 1e-12):
                lo = hi = float("nan")
                method = f"bootstrap over items ({n_boot:,} resamples): interval withheld"
                note = join_notes(note, UNSTABLE)
        elif name in refused:
            method = "none (the bootstrap would exceed the memory budget)"
            note = join_notes(note, refused[name])
        lo, hi, clipped = clip_interval(name, lo, hi)
        if clipped:
            method = f"{method}; {CLIPPED}"
        analytic = _analytic_se(ann, p, name, population, weights) if np.isfinite(value) else ""
        a_lo = a_hi = se = p_value = float("nan")
        se_method = ""
        if method and population is not None:  # resampled: said, not silently mixed
            method += f"; it ignores the finite-population correction N={population:,g}"
        if isinstance(analytic, Analytic) and analytic.se == 0 and population is not None:
            # N = n: the data are the whole population, so the value is exact
            se, a_lo, a_hi = 0.0, float(value), float(value)
            se_method = f"census (N={population:,g} = the items): no sampling error"
        elif isinstance(analytic, Analytic) and np.isfinite(analytic.se):
            a_lo, a_hi, p_value = t_interval(float(value), analytic, confidence, cap=False)
            if name == "Percent agreement":  # no chance level: 0 is total disagreement
                p_value = float("nan")
            se, se_method = analytic.se, f"{analytic.method}, t({analytic.df}) interval"
            if population is not None:
                se_method += f", finite-population correction N={population:,g}"
            a_lo, a_hi, clipped = clip_interval(name, a_lo, a_hi)
            if clipped:
                se_method += f"; {CLIPPED}"
        elif name in boot and np.isfinite(value) and not few:  # too few: no resampled SE
            reps = boot[name][np.isfinite(boot[name])]
            if len(reps) >= 2:
                se, se_method = float(reps.std(ddof=1)), "bootstrap SD (no analytic SE)"
        if not method and np.isfinite(value) and name not in refused:
            if np.isfinite(a_lo):
                lo, hi, method = a_lo, a_hi, se_method
            else:
                why = analytic if isinstance(analytic, str) and analytic else "undefined here"
                method = f"none (no analytic standard error: {why}; use the bootstrap)"
        rows.append(
            (
                name,
                float(value),
                lo,
                hi,
                method,
                se,
                p_value,
                se_method,
                a_lo,
                a_hi,
                value.items_used,
                join_notes(note, repeat_note),
            )
        )
    return pd.DataFrame(rows, columns=REPORT_COLUMNS)


def _pair_mean_row(ann: Annotations, name: str) -> bool:
    """Is the row a mean of a two-annotator coefficient over annotator pairs?"""
    return ann.n_annotators > 2 and name.startswith(("Cohen's kappa", "Scott's pi"))


def _jackknife_row(
    stat: ItemStatistic, patterns: Patterns, value: float, confidence: float
) -> tuple[float, float, str, str] | None:
    """Jackknife bias-corrected interval of a mean over pairs: lo, hi, method, note.

    None when the jackknife would exceed :data:`JACKKNIFE_CELLS` (then the bootstrap's).
    """
    if patterns.n_patterns * stat.stats.shape[1] > JACKKNIFE_CELLS:
        return None
    jack = jackknife_values(stat, patterns)
    lo, hi, bias, _ = jackknife_interval(value, jack, patterns.multiplicity, confidence)
    if not np.isfinite(lo):
        return None
    method = (
        f"jackknife over items, bias-corrected t interval (bias {bias:+.3f}): the bootstrap "
        "underestimates the small-sample bias of a mean over annotator pairs"
    )
    if lo <= value <= hi:
        return lo, hi, method, ""
    # a bias larger than the spread: pairs share so few items that a first-order bias
    # correction cannot be trusted (act_MS: -0.15 for Scott's pi over pairs)
    note = (
        f"no interval: the estimate lies outside its bias-corrected interval (jackknife bias "
        f"{bias:+.3f}): a mean over annotator pairs that share few items is too biased to "
        "correct; rely on Fleiss' kappa, AC1 or alpha here"
    )
    return float("nan"), float("nan"), "jackknife over items: interval withheld", note


def _bca(
    stat: ItemStatistic, patterns: Patterns, reps: np.ndarray, value: float, confidence: float
) -> tuple[float, float, int, str]:
    """BCa interval of one report row, and how it was made (BC when the jackknife is too big)."""
    width = stat.stats.shape[1]
    if patterns.n_patterns * width <= JACKKNIFE_CELLS:
        jack, kind = jackknife_values(stat, patterns), "BCa"
    else:
        jack, kind = (
            np.zeros(0),
            "BC: bias-corrected, no acceleration (too many items to jackknife)",
        )
    lo, hi, n_ok, _, clipped = bca_interval(
        reps, value, jack, patterns.multiplicity[: len(jack)], confidence
    )
    if clipped:
        kind += "; an end is the outermost resample: more resamples would widen it"
    if n_ok >= 2 and not np.isfinite(lo):
        # BCa needs an extreme tail: the estimate's bias is as large as its spread
        lo, hi, n_ok = basic_interval(reps, value, confidence)
        kind = "basic: the estimate is biased by as much as it varies, too much for BCa"
    return lo, hi, n_ok, kind


_FAMILY_ROWS = {
    "Fleiss' kappa": "fleiss_kappa",
    "Brennan-Prediger": "brennan_prediger",
    "Gwet's AC1": "gwet_ac1",
}


def _alpha_weights(ann: Annotations, distance: str) -> np.ndarray | str | None:
    """Alpha's distance as agreement weights :math:`1 - \\delta/\\max\\delta`; a reason if none."""
    if distance == "nominal":
        return None
    if distance in ("interval", "ratio") and ann.n_categories >= 2:
        x = category_positions(ann)
        d = (x[:, None] - x[None, :]) ** 2
        if distance == "ratio":
            with np.errstate(invalid="ignore", divide="ignore"):
                d = np.where(d > 0, d / (x[:, None] + x[None, :]) ** 2, 0.0)
        top = d.max()
        return 1.0 - d / top if np.isfinite(top) and top > 0 else "no spread of values"
    return (
        "its distances depend on the category frequencies (Krippendorff's ordinal metric)"
        if distance == "ordinal"
        else "no variance formula for this distance"
    )


def _analytic_se(
    ann: Annotations, p: Prepared, name: str, population: float | None, weights: Any = None
) -> Analytic | str:
    """The analytic standard error of a report row, or why there is none."""
    two = ann.n_annotators == 2
    w_spec = "quadratic" if weights is None else weights
    w_label = _weights_label(w_spec)
    if name == "Percent agreement" and not ann.is_multilabel:
        return percent_se(p, population)
    if name in _FAMILY_ROWS:
        return fleiss_family_se(p, None, _FAMILY_ROWS[name], population)
    if name == "Conger's kappa":
        return conger_se(p, None, population)
    if name == f"Gwet's AC2 ({w_label})":
        return fleiss_family_se(p, agreement_weights(ann, w_spec)[0], "gwet_ac1", population)
    pair_rows = {
        "Cohen's kappa": (None, "cohen"),
        "Scott's pi": (None, "scott"),
        f"Cohen's kappa ({w_label})": (w_spec, "cohen"),
    }
    if name in pair_rows and two:
        weights, which = pair_rows[name]
        w = agreement_weights(ann, weights)[0]
        return pair_table_se(*pair_labels(p, 0, 1), p.q, w, which, population)
    if name.startswith("Krippendorff's alpha (") and not ann.is_multilabel:
        w = _alpha_weights(ann, name[len("Krippendorff's alpha (") : -1])
        return w if isinstance(w, str) else alpha_se(p, w, population)
    if name in pair_rows or "over pairs" in name:
        return "a mean over annotator pairs has no variance formula in the literature"
    return "no variance formula for this coefficient"


def gwet_standard_error(p: Prepared, w: np.ndarray | None, which: str) -> float:
    """Gwet's linearised SE of Fleiss' kappa, AC1/AC2 or Brennan-Prediger (a float).

    See :func:`~analytics.agreement.standard_errors.fleiss_family_se`, which this returns
    the ``se`` of (no finite-population correction).
    """
    return fleiss_family_se(p, w, which).se
