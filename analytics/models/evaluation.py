"""Evaluation against partial gold: accuracy of models and annotators, calibration.

Gold labels for some items (honeypots, expert-checked items) let a user check what the
models say: how often each model's label is right on those items, how often each
annotator is, and whether the posteriors mean what they say (do items at 0.9 confidence
come out right 90% of the time?).

References
----------
Guo, C., Pleiss, G., Sun, Y. and Weinberger, K. Q. (2017). On calibration of modern neural
networks. *ICML 2017*, section 2 (reliability diagrams, expected calibration error, eq. 3).

Naeini, M. P., Cooper, G. F. and Hauskrecht, M. (2015). Obtaining well calibrated
probabilities using Bayesian binning. *AAAI 2015* (ECE).

Efron, B. and Tibshirani, R. J. (1993). *An Introduction to the Bootstrap*. Chapman &
Hall, chapter 13 (percentile intervals).

Wilson, E. B. (1927). Probable inference, the law of succession, and statistical inference.
*JASA* 22, 209-212 (the score interval).

Brown, L. D., Cai, T. T. and DasGupta, A. (2001). Interval estimation for a binomial
proportion. *Statistical Science* 16, 101-133 (why Wilson's, not Wald's or a bootstrap's).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import norm

from analytics._core.bootstrap import check_resampling, percentile_interval
from analytics._core.errors import AnnotationDataError, show_text
from analytics._core.formatting import format_count
from analytics._core.ids import id_positions
from analytics._core.validation import check_whole
from analytics.data import Annotations, as_annotations
from analytics.dawid_skene import category_codes, gold_series
from analytics.models.result import ModelResult

__all__ = [
    "accuracy_interval",
    "annotator_gold_accuracy",
    "best_calibrated",
    "bootstrap_accuracy",
    "calibration",
    "check_scoring_gold",
    "expected_calibration_error",
    "gold_table",
    "tie_split_credit",
]


def tie_split_credit(post: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """Per item: 1 when the top posterior is the gold category, 1/t for a t-way tie.

    Majority vote ties often; taking the first tied category would score it by the order
    of the categories, so a tie shares its credit (as every page scores it).
    """
    if not len(gold):
        return np.zeros(0)
    at_top = np.isclose(post, post.max(axis=1, keepdims=True), rtol=0, atol=1e-12)
    credit = at_top[np.arange(len(gold)), np.maximum(gold, 0)] / at_top.sum(axis=1)
    return np.where(gold >= 0, credit, 0.0)  # -1: a gold label no model can give


def _gold_for(result: ModelResult, gold: Any) -> pd.Series:
    return _gold_codes(result.items, result.categories, gold, "the fit")


def _gold_codes(items: pd.Index, categories: pd.Index, gold: Any, where: str) -> pd.Series:
    """Gold as category codes indexed by item name (-1: a category no annotator used).

    Refused: an item not in ``items`` (``where`` names them), or gold none of whose labels
    is a category.
    """
    g = gold_series(gold)  # the one check of gold=: paths, tables, repeated items
    g = pd.Series(dtype=object) if g is None else g
    keys = pd.Index(g.index, dtype=object)
    rows = id_positions(keys, items)
    if (rows < 0).any():
        missing = ", ".join(repr(m) for m in list(keys[rows < 0][:5]))
        n = int((rows < 0).sum())
        # none at all: most likely another data set's gold file, which "not in the fit"
        # alone does not say
        data = ", ".join(show_text(m) for m in list(items[:3]))
        raise AnnotationDataError(
            f"{format_count(n, 'gold item')} {'is' if n == 1 else 'are'} not in {where}: {missing}.",
            hint=f"None of the gold items is in this data set: is the gold file for these "
            f"data? The data's items look like {data}."
            if n == len(keys)
            else None,
        )
    # the one matching of gold values to categories (exact, then as text, then as a number:
    # "1.0" is the category 1), as gold_accuracy and clamping read the same gold
    codes = category_codes(categories, g.to_numpy())
    if len(codes) and (codes < 0).all():  # the values do not match ("yes" against 1)
        bad = sorted({str(v) for v in g.to_numpy()[codes < 0]})[:5]
        known = ", ".join(show_text(c) for c in list(categories[:10]))
        raise AnnotationDataError(
            f"gold labels {bad} are not among the categories ({known}).",
            hint="No gold label is one of the data's categories: is the gold file for these "
            "data, with the same category names?",
        )
    # some do: an expert's category no annotator used is kept as -1, scored as wrong
    return pd.Series(codes, index=items[rows], name="gold code")


def check_scoring_gold(ann: Annotations, gold: Any) -> tuple[pd.Series | None, list[str]]:
    """Gold labels checked for scoring, before any fit, and what the check noticed.

    Scoring is less strict than clamping (:func:`~analytics.models.result.check_gold`): a
    gold label that is no annotator's category (an expert's "other") is kept, and scored
    as wrong by :func:`gold_table`, since no model can give it. Refused as there: items not
    in the data, repeated items, or no gold label among the categories.

    Returns
    -------
    gold : pandas.Series or None
        Item -> label as given (:func:`~analytics.dawid_skene.gold_series`); None for None.
    notes : list of str
        How many gold labels are not among the categories, when some are.
    """
    g = gold_series(gold)
    if g is None:
        return None, []
    codes = _gold_codes(ann.items, ann.categories, g, "the data set")
    return g, _not_categories(codes)


def _not_categories(g: pd.Series, name: str = "") -> list[str]:
    """The note for gold labels that are not categories (code -1), as gold_accuracy says it;
    ``name`` (a model's) starts it when given."""
    n = int((g.to_numpy() < 0).sum())
    if not n:
        return []
    return [
        f"{name + ': ' if name else ''}{format_count(n, 'gold label')} "
        f"{'is' if n == 1 else 'are'} not among the categories, so no model can give it: "
        "counted as wrong."
    ]


def bootstrap_accuracy(
    correct: np.ndarray, *, n_boot: int = 2000, confidence: float = 0.95, seed: int = 0
) -> tuple[float, float, float]:
    """Accuracy and its item-bootstrap percentile interval.

    Parameters
    ----------
    correct : ndarray of bool
        One entry per gold item: is the model's label right?
    n_boot : int, default 2000
    confidence : float, default 0.95
    seed : int, default 0

    Returns
    -------
    tuple of float
        (accuracy, low, high); NaN for all three when there is no gold item.

    Notes
    -----
    Resampling n items with replacement from n right/wrong outcomes makes the number
    right :math:`\\mathrm{Binomial}(n, \\hat p)`, so the bootstrap is drawn from that
    binomial directly (exact, and cheap for any n). The interval has no width when every
    outcome is right (or wrong) and covers poorly near 0 and 1: the tables of this module
    use :func:`accuracy_interval` (Wilson's) instead.
    """
    confidence, n_boot, seed = check_resampling(confidence, n_boot, seed, min_boot=2)
    n = len(correct)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    p = float(np.mean(correct))
    draws = np.random.default_rng(seed).binomial(n, p, n_boot) / n
    low, high, _ = percentile_interval(draws, confidence)
    return p, low, high


def accuracy_interval(
    right: Any, n: Any, confidence: float = 0.95
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Accuracy and Wilson's score interval, for one count or an array of them.

    .. math::

        \\frac{\\hat p + z^2 / 2n}{1 + z^2 / n} \\pm \\frac{z}{1 + z^2 / n}
        \\sqrt{\\frac{\\hat p (1 - \\hat p)}{n} + \\frac{z^2}{4 n^2}},
        \\qquad \\hat p = \\text{right} / n,

    with :math:`z` the normal quantile of ``(1 + confidence) / 2``. A bootstrap of the
    right/wrong outcomes (:func:`bootstrap_accuracy`) has no width at 0 of n or n of n
    (20 right of 20 read [1.000, 1.000]) and covers poorly near them; Wilson's interval
    keeps its nominal coverage there (20 of 20: [0.839, 1.000]; Brown, Cai & DasGupta
    2001). ``right`` may be fractional (a tie's 1/t credit).

    Parameters
    ----------
    right : float or array_like
        Right answers (credit), per count.
    n : int or array_like
        Gold items (or judgements) per count.
    confidence : float, default 0.95

    Returns
    -------
    (accuracy, low, high) : ndarrays (0-d for scalars)
        NaN where ``n`` is 0.

    Examples
    --------
    >>> [round(float(v), 3) for v in accuracy_interval(20, 20)]
    [1.0, 0.839, 1.0]
    """
    confidence = check_resampling(confidence, 2, 0, min_boot=2)[0]
    right, n = np.asarray(right, float), np.asarray(n, float)
    z = norm.ppf(0.5 + confidence / 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = right / n
        shrink = 1 + z**2 / n
        centre = (p + z**2 / (2 * n)) / shrink
        half = z / shrink * np.sqrt(np.clip(p * (1 - p), 0, None) / n + z**2 / (4 * n**2))
    # all right (or all wrong): the bound is exactly 1 (0), which rounding can miss
    high, low = np.where(right >= n, 1.0, centre + half), np.where(right <= 0, 0.0, centre - half)
    empty = n <= 0
    p, low, high = (np.where(empty, np.nan, v) for v in (p, low, high))
    return p, np.clip(low, 0, 1), np.clip(high, 0, 1)


def gold_table(
    results: Mapping[str, ModelResult], gold: Mapping[Any, Any] | pd.Series, *, seed: int = 0
) -> pd.DataFrame:
    """Accuracy of every model on the gold items, with a 95% interval (Wilson's).

    Parameters
    ----------
    results : mapping of str to ModelResult
        Name -> fitted model (e.g. one per model of :data:`~analytics.models.MODELS`).
    gold : mapping or pandas.Series
        Item -> true label, for some items of the data.
    seed : int, default 0
        Not used: the interval is in closed form (kept so that calls passing it work).

    Returns
    -------
    pandas.DataFrame
        Index ``model``; columns ``gold_items``, ``correct``, ``accuracy``,
        ``accuracy_low``, ``accuracy_high`` (:func:`accuracy_interval`, over the gold
        items), ``mean_confidence`` (the model's average top
        posterior on those items) and ``ece`` (:func:`expected_calibration_error`).
        Items clamped to their gold label in a fit are left out of its row (they would
        be right by construction); a row left with no gold item is NaN, and
        ``attrs["notes"]`` says why. A gold label that is not among the categories (an
        expert's category no annotator used) counts as wrong, and the notes say how many,
        as :func:`analytics.dawid_skene.gold_accuracy` scores it.

    Raises
    ------
    AnnotationDataError
        Gold items not in the fits, repeated items, or no gold label among the categories
        (the values do not match, e.g. ``"yes"`` against ``1``).
    """
    rows, notes = [], []
    for name, result in results.items():
        g = _gold_for(result, gold).drop(result.gold_items, errors="ignore")
        if not len(g):  # NaN row: say why
            notes.append(
                f"{name}: every gold item was clamped to its gold label in the fit, so none "
                "is left to score it on (fit without gold=, or clamp only some items)."
            )
        notes += _not_categories(g, name)
        post = result.posteriors.loc[g.index].to_numpy()
        correct = tie_split_credit(post, g.to_numpy())
        acc, low, high = map(float, accuracy_interval(correct.sum(), len(correct)))
        conf = post.max(axis=1) if len(g) else np.zeros(0)
        rows.append(
            {
                "model": name,
                "gold_items": len(g),
                "correct": float(correct.sum()),
                "accuracy": acc,
                "accuracy_low": low,
                "accuracy_high": high,
                "mean_confidence": float(conf.mean()) if len(conf) else float("nan"),
                "ece": expected_calibration_error(conf, correct),
            }
        )
    table = pd.DataFrame(rows).set_index("model")
    table.attrs["notes"] = tuple(notes)
    return table


def annotator_gold_accuracy(
    ann: Annotations | pd.DataFrame, gold: Mapping[Any, Any] | pd.Series, *, seed: int = 0
) -> pd.DataFrame:
    """How often each annotator's labels on the gold items are right.

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        Single-label annotations.
    gold : mapping or pandas.Series
        Item -> true label.
    seed : int, default 0
        Not used: the interval is in closed form (kept so that calls passing it work).

    Returns
    -------
    pandas.DataFrame
        Index ``annotator``; columns ``gold_judgements``, ``correct``, ``accuracy``,
        ``accuracy_low``, ``accuracy_high`` (95%, :func:`accuracy_interval` over their
        gold judgements; NaN with no gold judgement), sorted by accuracy.

    Raises
    ------
    AnnotationDataError
        Multi-label data, or gold labels that do not match the data.
    """
    ann = as_annotations(ann)
    g = _gold_codes(ann.items, ann.categories, gold, "the data set")
    truth = np.full(ann.n_items, -1)
    # an expert's category no annotator used (-1) becomes -2: on gold, and no judgement
    # equals it, so every judgement of the item is wrong, as gold_table scores it
    truth[ann.items.get_indexer(g.index)] = np.where(g.to_numpy() >= 0, g.to_numpy(), -2)
    on_gold = truth[ann.item_codes] != -1
    right = ann.label_codes == truth[ann.item_codes]
    n_a = ann.n_annotators
    n = np.bincount(ann.annotator_codes[on_gold], minlength=n_a)
    c = np.bincount(ann.annotator_codes[on_gold & right], minlength=n_a)
    acc, low, high = accuracy_interval(c, n)
    out = pd.DataFrame(
        {
            "gold_judgements": n,
            "correct": c,
            "accuracy": acc,
            "accuracy_low": low,
            "accuracy_high": high,
        },
        index=pd.Index(ann.annotators, name="annotator"),
    )
    return out.sort_values("accuracy", ascending=False, kind="stable")


def expected_calibration_error(
    confidence: np.ndarray, correct: np.ndarray, bins: int = 10
) -> float:
    """Expected calibration error of top-label confidences.

    Parameters
    ----------
    confidence : ndarray
        The top posterior probability of each item.
    correct : ndarray of bool or float
        Whether each item's top label is right: 1 or 0, or the share of credit when the
        top posterior is tied between t labels (1/t for a tie that holds the true one).
    bins : int, default 10
        Equal-width confidence bins on [0, 1].

    Returns
    -------
    float
        :math:`\\mathrm{ECE} = \\sum_b \\frac{n_b}{n} |\\mathrm{acc}_b - \\mathrm{conf}_b|`;
        NaN with no item.

    References
    ----------
    Guo et al. (2017), On calibration of modern neural networks, *ICML*, eq. 3.

    Examples
    --------
    >>> expected_calibration_error(np.array([0.9, 0.9]), np.array([True, False]))
    0.4
    """
    conf, right = _checked_scores(confidence, correct)
    table = _bins(conf, right, check_whole(bins, "bins", 1))
    n = table["items"].sum()
    if n == 0:
        return float("nan")
    gap = (table["accuracy"] - table["mean_confidence"]).abs().fillna(0.0)
    return float(round((table["items"] * gap).sum() / n, 12))


def _checked_scores(confidence: Any, correct: Any) -> tuple[np.ndarray, np.ndarray]:
    """Confidences in [0, 1] and credits in [0, 1], one each per item, as float arrays."""
    try:
        conf = np.asarray(confidence, float).reshape(-1)
        right = np.asarray(correct, float).reshape(-1)
    except (TypeError, ValueError):
        raise AnnotationDataError("confidence and correct must be numbers, one per item.") from None
    if len(conf) != len(right):
        raise AnnotationDataError(
            f"{len(conf):,} confidences but {len(right):,} correct values: give one of each "
            "per item."
        )
    for name, x in (("confidence", conf), ("correct", right)):
        if len(x) and not (np.isfinite(x).all() and (x >= 0).all() and (x <= 1).all()):
            bad = float(x[~(np.isfinite(x) & (x >= 0) & (x <= 1))][0])
            raise AnnotationDataError(
                f"every {name} value must be a number from 0 to 1, not {bad:g}."
            )
    return conf, right


def _bins(conf: np.ndarray, correct: np.ndarray, bins: int) -> pd.DataFrame:
    edges = np.linspace(0.0, 1.0, bins + 1)
    which = np.clip(np.searchsorted(edges, conf, side="left") - 1, 0, bins - 1)
    n = np.bincount(which, minlength=bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_conf = np.bincount(which, conf, bins) / n
        acc = np.bincount(which, correct.astype(float), bins) / n
    return pd.DataFrame(
        {
            "low": edges[:-1],
            "high": edges[1:],
            "items": n,
            "mean_confidence": mean_conf,
            "accuracy": acc,
        }
    )


def calibration(
    result: ModelResult, gold: Mapping[Any, Any] | pd.Series, *, bins: int = 10
) -> pd.DataFrame:
    """Calibration table of one fit on the gold items (the data of a reliability diagram).

    Parameters
    ----------
    result : ModelResult
    gold : mapping or pandas.Series
        Item -> true label; clamped items of the fit are left out.
    bins : int, default 10
        Equal-width bins of the top posterior probability on [0, 1] (a whole number >= 1;
        each bin includes its upper edge).

    Returns
    -------
    pandas.DataFrame
        One row per bin: ``low``, ``high``, ``items``, ``mean_confidence``, ``accuracy``
        (NaN in an empty bin), ``gap`` (accuracy - mean confidence). ``attrs["ece"]``
        holds :func:`expected_calibration_error`.

    References
    ----------
    Guo et al. (2017), On calibration of modern neural networks, *ICML*, section 2.
    """
    bins = check_whole(bins, "bins", 1)
    g = _gold_for(result, gold).drop(result.gold_items, errors="ignore")
    post = result.posteriors.loc[g.index].to_numpy()
    conf = post.max(axis=1) if len(g) else np.zeros(0)
    # ties split the credit (1/t), as accuracy does in gold_table: the same ECE in both
    correct = tie_split_credit(post, g.to_numpy()) if len(g) else np.zeros(0)
    table = _bins(conf, correct, bins)
    table["gap"] = table["accuracy"] - table["mean_confidence"]
    table.attrs["ece"] = expected_calibration_error(conf, correct, bins)
    return table


def best_calibrated(tables: Mapping[str, pd.DataFrame]) -> str | None:
    """The model whose posteriors are best calibrated: the lowest expected calibration error.

    Parameters
    ----------
    tables : mapping of str to pandas.DataFrame
        Model name -> :func:`calibration` table (``attrs["ece"]``).

    Returns
    -------
    str or None
        The name with the lowest ECE, majority vote excepted while another model is
        there: its "posteriors" are 1 for any clear winner and 1/t in a tie, not
        probabilities, so a low ECE says only that clear majorities are usually right.
        None when ``tables`` is empty.

    Examples
    --------
    >>> import pandas as pd
    >>> t = {m: pd.DataFrame() for m in ("majority", "dawid_skene", "mace")}
    >>> for m, e in zip(t, (0.01, 0.07, 0.04)):
    ...     t[m].attrs["ece"] = e
    >>> best_calibrated(t)
    'mace'
    """
    names = [m for m in tables if m != "majority"] or list(tables)
    if not names:
        return None
    return min(names, key=lambda m: tables[m].attrs.get("ece", float("inf")))
