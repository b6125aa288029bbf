"""Can we benchmark on this? Five answers and one recommendation for a data set.

:func:`overview` answers the five questions the README promises, each in one sentence with
its number, its severity (:func:`~analytics.overview.judge`) and the page that explains
it, and picks the one recommendation that follows. The Overview page and the first
section of the HTML report only display what it returns.

Today the answers come from :mod:`analytics.agreement` (Krippendorff's alpha),
:mod:`analytics.noise` (the noise bound of the agreed items) and
:mod:`analytics.dawid_skene` (annotator quality, label certainty); on multi-label data the
Dawid-Skene answers come from one yes/no model per category.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_count, format_percent
from analytics._core.lazy import is_lazy
from analytics.data import Annotations, as_annotations
from analytics.dawid_skene import gold_within, per_category_gold
from analytics.models import gold_table
from analytics.overview.advice import recommend
from analytics.overview.confusion import MERGE_SHARE
from analytics.overview.measures import SURE, expected_label_error, judged_by_everyone
from analytics.overview.results import ASKED, MODEL_ANSWERS, Answer, Overview, Recommendation
from analytics.overview.scale import scale_reason
from analytics.overview.severity import (
    OWN_ACCOUNT,
    Severity,
    Verdict,
    judge,
    judge_measured_error,
    judge_own_error,
    shown_share,
)

__all__ = [
    "CHANCE_SPAMMER_SCORE",
    "MERGE_SHARE",
    "SURE",
    "Answer",
    "Overview",
    "Recommendation",
    "overview",
]

#: An annotator whose spammer score is at least this labels near chance (their labels
#: barely depend on the item).
CHANCE_SPAMMER_SCORE = 0.5
#: A bias smaller than this many percentage points is not named as the strongest one.
BIAS_POINTS = 1

PAGES = {
    "agreement": ("pages/agreement.py", "Agreement report"),
    "noise": ("pages/noise.py", "Noise calculator"),
    "gold_labels": ("pages/gold_labels.py", "Gold labels"),
    "next_labels": ("pages/next_labels.py", "Next labels"),
}


def _answer(key: str, question: str, sentence: str, number: str, verdict: Verdict, page: str):
    path, title = PAGES[page]
    return Answer(key, question, sentence, number, verdict, path, title)


def _agreement(ann: Annotations, distance: str | None) -> Answer:
    from analytics import agreement as ag

    q = "How much do the annotators agree?"
    try:
        dist = distance or ag.default_distance(ann)
        coef = ag.krippendorff_alpha(ann, dist)
        value, note = float(coef), coef.note
    except AnnotationDataError as exc:
        dist, value, note = distance or "default", np.nan, str(exc)
    verdict = judge("agreement", value, note)
    if not np.isfinite(value):
        # the reason ends the sentence (alpha's note has no full stop of its own)
        sentence = f"Krippendorff's alpha is undefined for these data: {note.rstrip('. ')}."
        return _answer("agreement", q, sentence, "n/a", verdict, "agreement")
    # verdict.shown: 2/3 is "0.6667" beside "below 0.667", never "0.667"
    sentence = (
        f"Krippendorff's alpha ({dist} distance) is {verdict.shown}: "
        f"{ag.band('Krippendorff alpha', value)}."
    )
    return _answer("agreement", q, sentence, verdict.shown, verdict, "agreement")


def _noise(
    ann: Annotations, confidence: float, annotators: Iterable[Any] | None, result: Any = None
) -> Answer:
    from analytics.noise import noise_from_annotations

    q = ASKED["noise"][0]
    if result is None:
        result = noise_from_annotations(ann, confidence, annotators=annotators)
    gamma = result.gamma if result.ok else np.nan
    verdict = judge("noise", gamma, result.reason)
    number = verdict.shown if np.isfinite(gamma) else "n/a"
    return _answer("noise", q, result.explain(number), number, verdict, "noise")


def _fits(ann: Annotations, fit_options: Mapping[str, Any]) -> list:
    from analytics import dawid_skene as ds

    if ann.is_multilabel:
        return list(ds.fit_per_category(ann, **fit_options).values())
    return [ds.fit(ann, **fit_options)]


def _annotators(ann: Annotations, fits: list) -> tuple[Answer, list[tuple[Any, float]]]:
    from analytics.dawid_skene import annotator_table

    q = ASKED["annotators"][0]
    tables = [annotator_table(r) for r in fits]
    spam = pd.concat([t["spammer score"] for t in tables], axis=1).mean(axis=1)
    weak = spam[spam >= CHANCE_SPAMMER_SCORE].sort_values(ascending=False)
    share = len(weak) / len(spam) if len(spam) else np.nan
    verdict = judge("weak_annotators", share)
    named = ", ".join(f"{a} ({s:.2f})" for a, s in weak.head(5).items())
    if len(weak) > 5:
        named += f" and {len(weak) - 5:,} more"
    if len(weak):
        verb = "labels" if len(weak) == 1 else "label"
        sentence = (
            f"{len(weak):,} of {format_count(len(spam), 'annotator')} {verb} near chance "
            f"(spammer score ≥ {CHANCE_SPAMMER_SCORE}: their labels barely depend on the item): "
            f"{named}."
        )
    else:
        sentence = (
            f"None of the {len(spam):,} annotators labels near chance (every spammer score "
            f"< {CHANCE_SPAMMER_SCORE})."
            if len(spam) != 1
            else "The only annotator does not label near chance (spammer score "
            f"< {CHANCE_SPAMMER_SCORE})."
        )
    if not ann.is_multilabel:
        bias = tables[0].filter(like="bias toward ")
        if bias.size:
            values = bias.to_numpy(float)
            j, k = np.unravel_index(int(np.nanargmax(np.abs(values))), values.shape)
            towards = bias.columns[k].removeprefix("bias toward ")
            truly = float(fits[0].prevalence.iloc[k])  # bias: usage share - prevalence
            if abs(values[j, k]) >= BIAS_POINTS / 100:  # -0 points is no bias to name
                sentence += (
                    f" Strongest bias, by the model's confusion matrices: {bias.index[j]} "
                    f"would label {format_percent(truly + values[j, k])} of items "
                    f"'{towards}', where the model puts {format_percent(truly)} of them "
                    f"({values[j, k] * 100:+.0f} points)"
                    f"{_observed(ann, bias.index[j], fits[0].categories[k])}."
                )
            else:
                sentence += (
                    f" No annotator uses a label more than {BIAS_POINTS} point away from "
                    "how often the model finds it true."
                )
    number = f"{len(weak):,} of {len(spam):,}"
    return _answer("annotators", q, sentence, number, verdict, "gold_labels"), list(weak.items())


def _observed(ann: Annotations, annotator: Any, category: Any) -> str:
    """What the annotator did in the data: '; they gave it to n of their m items'."""
    if is_lazy(ann):
        return ""
    j = pd.Index(ann.annotators).get_loc(annotator)
    k = pd.Index(ann.categories).get_loc(category)
    own = ann.annotator_codes == j
    n = int((own & (ann.label_codes == k)).sum())
    return (
        f"; in the data they gave it to {n:,} of their {format_count(int(own.sum()), 'judgement')}"
    )


def _certainty(
    ann: Annotations, fits: list, gold: Any = None
) -> tuple[Answer, Answer, tuple[list, bool]]:
    q_gold, q_more = ASKED["gold"][0], ASKED["more_labels"][0]
    if ann.is_multilabel:
        p = np.column_stack([r.posteriors.iloc[:, -1].to_numpy() for r in fits])
        # a label set is wrong when any of its yes/no decisions is: 1 - prod_c max(p, 1-p)
        # per item (the models are fitted one per category, so their errors multiply);
        # the mean over decisions had read 2% where 11% of the sets were expected wrong
        right = np.prod(np.maximum(p, 1 - p), axis=1)
        error = float(np.mean(1 - right)) if p.size else np.nan
        unsure_mask = ((p > 1 - SURE) & (p < SURE)).any(axis=1)
        items = fits[0].posteriors.index if fits else pd.Index([])
        whose = "the categories' yes/no models'"
    else:
        res = fits[0]
        error = expected_label_error(res.confidence)
        unsure_mask = res.confidence.to_numpy() < SURE
        items = res.confidence.index
        whose = "the Dawid-Skene model's"
    measured, left_out = None, ""
    if gold is not None and ann.is_multilabel and not is_lazy(ann):
        exact = per_category_gold(dict(zip(ann.categories, fits, strict=True)), gold).iloc[-1]
        measured = (1.0 - float(exact["model"]), int(exact["gold_items"]))
    elif gold is not None and not is_lazy(ann):
        # a gold file may cover more items than the data: score the overlap, say the rest
        kept, outside = gold_within(gold, fits[0].items)
        scored = gold_table({"model": fits[0]}, kept if len(kept) else gold).iloc[0]
        if scored["gold_items"]:
            measured = (1.0 - float(scored["accuracy"]), int(scored["gold_items"]))
        if outside:
            left_out = (
                f" ({format_count(outside, 'gold label')} for items not in this data set "
                f"{'was' if outside == 1 else 'were'} left out)"
            )
    # the model's own account is a lower bound: it can show trouble, never that all is good
    few = ""  # a handful of gold items cannot show that the labels are good
    if measured is None:
        gold_verdict = judge_own_error(error)
    else:
        gold_verdict, few = judge_measured_error(*measured)
    unproven = (
        " A lower bound cannot show that the labels are good: score the model on a few "
        "expert-labelled items (the Gold labels page) to know."
        if gold_verdict.reason == OWN_ACCOUNT
        else ""
    )
    sampled = (
        ""
        if len(items) >= ann.n_items
        else f" Counted on {len(items):,} of {ann.n_items:,} items, sampled (the first in item "
        f"order: the {getattr(ann, 'engine', 'memory')} engine keeps the other items' posteriors)."
    )
    if measured is None:
        first = (
            f"By {whose} own posteriors {_about(gold_verdict.shown, error)} of "
            + (
                "their label sets are wrong (a set is wrong when any of its categories is). "
                "Read it as a lower bound: fitted models are overconfident."
                if ann.is_multilabel
                else "its labels are wrong. Read it as a lower bound: fitted models are "
                "overconfident (on the RTE crowd data of Snow et al. 2008, 0.8% by its own "
                "account against 7.3% wrong by expert gold); gold labels for some items give "
                "the true figure."
            )
            + unproven
        )
    else:
        first = (
            f"Against the {format_count(measured[1], 'item')} with known gold labels{left_out}, "
            f"{gold_verdict.shown} "
            f"of {whose} label{' sets' if ann.is_multilabel else 's'} are wrong; by "
            f"{'their' if ann.is_multilabel else 'its'} own posteriors "
            f"{'they' if ann.is_multilabel else 'it'} expected "
            f"{format_percent(error)}. The gold figure is the one to trust (fitted models "
            f"are overconfident).{few}"
        )
    gold = _answer(
        "gold",
        q_gold,
        first
        + (
            ""
            if ann.is_multilabel
            else " On this engine the Gold labels page fits Dawid-Skene only: the other "
            "annotator models need the judgements in memory."
            if is_lazy(ann)
            else " The Gold labels page compares it with five other annotator models, "
            "chosen without gold; its figures are for the model picked there (auto, a "
            "mixture, by default), so they can differ from this one."
        )
        + sampled,
        gold_verdict.shown,
        gold_verdict,
        "gold_labels",
    )
    unsure = list(items[unsure_mask])
    share = len(unsure) / len(items) if len(items) else np.nan
    more_verdict = judge("uncertain_items", share)
    nobody_left = (  # every annotator has judged each unsure item: none is left to ask
        bool(unsure)
        and not ann.is_multilabel
        and not is_lazy(ann)
        and judged_by_everyone(
            ann.item_codes, ann.annotator_codes, ann.n_annotators, ann.items.get_indexer(unsure)
        )
    )
    if unsure:
        sentence = (
            f"Yes, for {format_count(len(unsure), 'item')} ({more_verdict.shown}) whose "
            f"label is less than {SURE:.0%} sure: one or two more labels each would settle "
            + (
                "them, from new annotators or an expert: every annotator here has already "
                "judged them."
                if nobody_left
                else "them."
            )
            + (
                f" The model is at least {SURE:.0%} sure of the others, by its own "
                "posteriors, which run overconfident: some of those are wrong too."
                if len(unsure) < len(items)
                else ""
            )
        )
    else:
        sentence = f"Hardly: every item's label is at least {SURE:.0%} sure."
    if not ann.is_multilabel and not is_lazy(ann):
        sentence += (
            " These are Dawid-Skene's posteriors, as in answer 4; the Gold labels page's "
            "model (auto by default) can count other items as unsure."
        )
    worse = gold_verdict.severity in (Severity.CAUTION, Severity.BAD)
    if measured is not None and measured[0] > share and worse:
        # gold finds more wrong labels than the unsure items could hold: not "good"
        sentence += (
            f" But the gold labels find {gold_verdict.shown} of the labels wrong, more than "
            "the unsure items can account for: the model is sure of some wrong labels, so a "
            "second look at sure items can help too."
        )
        if more_verdict.severity is Severity.GOOD:
            more_verdict = dataclasses.replace(
                more_verdict, severity=Severity.CAUTION, reason="gold labels find more errors"
            )
    if not ann.is_multilabel:
        # measured: the share as printed ("7.3%"), so "right" reads 92.7%, not 92.8%
        plan_error = error if measured is None else shown_share(gold_verdict.shown, measured[0])
        plan = _more_labels_plan(fits[0], is_lazy(ann), plan_error, nobody_left, measured)
        sentence += plan + sampled
    more = _answer(
        "more_labels",
        q_more,
        sentence,
        format_count(len(unsure), "item"),
        more_verdict,
        # Next labels needs the judgements in memory: on an engine the link goes to the
        # Gold labels page, whose Dawid-Skene fit holds the posteriors
        "gold_labels" if ann.is_multilabel or is_lazy(ann) else "next_labels",
    )
    return gold, more, (unsure, nobody_left)


def _about(shown: str, value: float = np.nan) -> str:
    """ "about 1.2%"; a bound reads as itself (">99.9%", never "about >99.9%"), and a share
    above 0 that rounds to "0.0%" reads "less than 0.1%", and exactly 0 reads "0%"."""
    if shown == "0.0%" and np.isfinite(value):
        return "less than 0.1%" if value > 0 else "0%"
    return shown if shown[:1] in "<>" else f"about {shown}"


def _more_labels_plan(
    result,
    lazy: bool = False,
    error: float = np.nan,
    nobody_left: bool = False,
    measured: Any = None,
) -> str:
    """The model's own forecast of two more judgements per item (next_labels.plan).

    The forecast simulates runs like this one from the fitted model; its gain (two more
    judgements against today's count, in the same simulation) is added to the accuracy
    the gold answer states (1 - ``error``: measured on gold items when ``measured`` is
    given, else the model's own account), so the two answers quote one figure for now.
    """
    from analytics.next_labels import plan

    try:
        curve = plan(result, current=True, max_k=2, n_items=1000, n_draws=20).curve
    except AnnotationDataError:
        return ""
    now, two = curve.iloc[0], curve.iloc[-1]
    if not np.isfinite(two["accuracy"]):  # no plan: the data settle no annotator parameter
        return ""
    level = 1.0 - error if np.isfinite(error) else float(now["accuracy"])
    shift = level - float(now["accuracy"])

    def at(x: float) -> str:
        return format_percent(min(max(x + shift, 0.0), 1.0))

    now_said = (
        f" On the gold items {_about(format_percent(level))} of its labels are right now"
        if measured is not None
        else f" By the model's own account {_about(format_percent(level))} of its labels are "
        "right now"
    )
    return (
        now_said
        + f"; two more judgements on every item would make that {_about(at(two['accuracy']))} "
        + (
            f"({at(two['low'])} to {at(two['high'])}; the gain simulated from the fitted model); "
            if at(two["low"]) != at(two["high"])
            else "(the gain simulated from the fitted model); "
        )
        + (
            "the Next labels page, which picks the items where one more judgement tells "
            "the most, needs the judgements in memory (load a sample)."
            if lazy
            else "the Next labels page plans batches only from annotators who have not "
            "judged an item yet, and none is left for the unsure items."
            if nobody_left
            else "the Next labels page picks the items where one more judgement tells the most."
        )
    )


def overview(
    ann: Annotations | pd.DataFrame,
    *,
    confidence: float = 0.95,
    annotators: Iterable[Any] | None = None,
    distance: str | None = None,
    fit_options: Mapping[str, Any] | None = None,
    noise: Any = None,
    fits: Sequence[Any] | None = None,
    gold: Mapping[Any, Any] | pd.Series | None = None,
) -> Overview:
    """Can we benchmark on this data set? The five answers and the recommendation.

    Parameters
    ----------
    ann : Annotations, pandas.DataFrame or LazyAnnotations
        The annotations; on an engine (DuckDB, Spark) agreement, the noise bound and the
        model are computed on every item, and the two answers about single items on the
        sampled items the fit brings back (their sentences say so).
    confidence : float, default 0.95
        The confidence of the noise bound.
    annotators : iterable or None, default None
        The annotators whose agreement makes the gold standard (noise bound); None: all.
    distance : str or None, default None
        Krippendorff's alpha distance; None: the default for the label kind. A name alpha
        does not know for the label kind is refused up front.
    fit_options : mapping or None, default None
        Passed to :func:`analytics.dawid_skene.fit` (``smoothing``, ``init``,
        ``max_iter``, ``tol``).
    noise : AnnotationNoise or None, default None
        The noise bound already computed with ``confidence`` and ``annotators`` (the app
        passes its cached one); None: computed here.
    fits : sequence of DawidSkeneResult or None, default None
        The fitted model (single-label: one; multi-label: one per category, in category
        order) already computed with ``fit_options``; None: fitted here.
    gold : mapping, pandas.Series or None, default None
        Known true labels (item -> label) for some items, single-label data in memory
        only: the gold answer is then the model's measured error on those items (ties
        count 1/t), judged by the same rule, with its own estimate beside it. None: the
        model's own estimate, a lower bound.

    Returns
    -------
    Overview
        Five :class:`Answer` (agreement, noise, annotators, gold, more_labels) and one
        :class:`Recommendation`.

    Raises
    ------
    AnnotationDataError
        An unknown ``distance`` (:func:`analytics.agreement.check_distance`), or gold
        labels that do not fit the data; data on which a measure is undefined give an
        "undefined" answer instead.

    Notes
    -----
    - Agreement: Krippendorff's alpha, judged by ``RULES["agreement"]``.
    - Noise: γ of :func:`analytics.noise.noise_from_annotations` (``RULES["noise"]``).
    - Annotators: the share whose mean spammer score (over the per-category models on
      multi-label data) is at least :data:`CHANCE_SPAMMER_SCORE` (``RULES["weak_annotators"]``),
      and the largest bias :math:`\\sum_m \\pi_m \\theta_{jmk} - \\pi_k`.
    - Gold: the expected share of wrong model labels,
      :math:`\\frac1n\\sum_i(1 - \\max_k p_{ik})` (``RULES["gold_error"]``); on multi-label
      data the mean over items and categories of :math:`\\min(p, 1 - p)`. With ``gold``,
      the share of the gold items the model labels wrongly
      (:func:`analytics.models.gold_table`), judged by the same rule.
    - More labels: the items whose label is less than :data:`SURE` sure
      (``RULES["uncertain_items"]``).
    - Recommendation: among "review annotator *j*", "merge categories *a* and *b*" (the
      pair with the most prevalence-weighted confusion :math:`\\sum_j w_j \\pi_a
      \\theta_{jab}` both ways, when it holds at least :data:`MERGE_SHARE` of all
      confusion) and "relabel these items", the one whose answer is most severe (ties in
      that order); when none applies, "benchmark on the model's labels" only if all five
      answers read good, and otherwise the answers that do not, named
      (:func:`~analytics.overview.advice.recommend`).

    References
    ----------
    Dawid, A. P., & Skene, A. M. (1979). *Applied Statistics* 28(1), 20-28.
    Beigman Klebanov, B., & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4), 495-503.
    Passonneau, R. J., & Carpenter, B. (2014). The benefits of a model of annotation.
    *TACL* 2, 311-326.
    Krippendorff, K. (2004). *Content Analysis*, 2nd ed., Sage, chapter 11.
    """
    ann = ann if is_lazy(ann) else as_annotations(ann)
    if distance is not None:  # an unknown name is the caller's error, not the data's
        from analytics import agreement as ag

        ag.check_distance(ann, distance)
    answers = {"agreement": _agreement(ann, distance)}
    scale = scale_reason(ann)
    given, fits = fits, []
    weak, unsure, nobody_left = [], [], False
    if scale is not None:  # categories to compare are missing: nothing is computed
        answers.update(_undefined(("noise", *MODEL_ANSWERS), scale[0].upper() + scale[1:] + "."))
    else:
        answers["noise"] = _noise(ann, confidence, annotators, noise)
        try:
            fits = list(given) if given is not None else _fits(ann, dict(fit_options or {}))
            answers["annotators"], weak = _annotators(ann, fits)
        except AnnotationDataError as exc:
            fits = []
            answers.update(
                _undefined(MODEL_ANSWERS, f"The annotator model could not be fitted: {exc}")
            )
        else:  # gold labels that do not fit the data are the caller's error, said as such
            answers["gold"], answers["more_labels"], (unsure, nobody_left) = _certainty(
                ann, fits, gold
            )
    order = ("agreement", "noise", "annotators", "gold", "more_labels")
    return Overview(
        tuple(answers[k] for k in order),
        recommend(
            answers,
            weak,
            unsure,
            fits,
            is_lazy(ann),
            ann.is_multilabel,
            nobody_left=nobody_left,
            n_items=ann.n_items,
            scale=scale is not None,
        ),
    )


def _undefined(keys: Sequence[str], sentence: str) -> dict[str, Answer]:
    """The answers ``keys``, each undefined with ``sentence`` as its reason."""
    out = {}
    for key in keys:
        question, rule, page = ASKED[key]
        out[key] = _answer(key, question, sentence, "n/a", judge(rule, np.nan, sentence), page)
    return out
