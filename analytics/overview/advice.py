"""The one recommendation that follows from the Overview's five answers."""

from __future__ import annotations

from analytics._core.formatting import format_count, format_percent
from analytics.overview.confusion import confused_pair
from analytics.overview.measures import SURE
from analytics.overview.results import Answer, Recommendation
from analytics.overview.severity import OWN_ACCOUNT, Severity

__all__ = ["FEW_ITEMS", "recommend"]

#: How the recommendation names an answer that is not good.
_NAMES = {
    "agreement": "agreement",
    "noise": "the noise bound of the agreed items",
    "annotators": "annotator quality",
    "gold": "the model's label certainty",
    "more_labels": "the share of unsure items",
}
_RANK = {Severity.BAD: 0, Severity.CAUTION: 1, Severity.UNDEFINED: 2, Severity.GOOD: 3}
#: Fewer items than this are no benchmark, whatever the answers read: on six items a
#: model is "sure" of every label and an interval is a point.
FEW_ITEMS = 30


def recommend(
    answers: dict[str, Answer],
    weak: list,
    unsure: list,
    fits: list,
    lazy: bool = False,
    multilabel: bool = False,
    *,
    nobody_left: bool = False,
    n_items: int = 0,
    scale: bool = False,
) -> Recommendation:
    """The one thing to do next, from the answers and what they found.

    Parameters
    ----------
    answers : dict of str to Answer
        The five answers by key.
    weak : list of (annotator, float)
        Annotators at or above the chance spammer score, worst first.
    unsure : list
        Items whose model label is less than :data:`~analytics.overview.measures.SURE` sure.
    fits : list of DawidSkeneResult
        The fitted model (one on single-label data); empty when it could not be fitted.
    lazy : bool, default False
        The data live on an engine (the Next labels page needs them in memory).
    multilabel : bool, default False
        Multi-label data (Next labels plans single-label batches only).
    nobody_left : bool, default False
        Every annotator has already judged each unsure item.
    n_items : int, default 0
        How many items the data hold (0: not said). Below :data:`FEW_ITEMS`, when no
        action above applies, the advice is to label more items, at caution, whatever
        the answers read.
    scale : bool, default False
        The labels are numbers on a scale (:func:`~analytics.overview.scale.scale_reason`):
        agreement is the one answer, and the advice reads it, at its severity.

    Returns
    -------
    Recommendation
        With fewer than :data:`FEW_ITEMS` items, "not a benchmark yet" (at caution),
        whatever else applies. Otherwise, among "review annotator *j*", "merge categories
        *a* and *b*" and "relabel these items", the one whose answer is most severe (ties
        in that order). When none
        applies: "benchmark on the model's labels" if all five answers read good; "not a
        benchmark yet" if some are undefined (at their own, undefined, severity: their
        reasons say what is missing); otherwise the answers that are not
        good are named, with "benchmark on the model's labels, checked on expert-labelled
        items" when the model is sure of its labels and "not a benchmark yet" when not,
        at the severity of the worst of them (low agreement never reads "all good").

    References
    ----------
    Passonneau, R. J., & Carpenter, B. (2014). The benefits of a model of annotation.
    *TACL* 2, 311-326 (low agreement does not rule out a reliable model-based gold standard).
    """

    def rec(text: str, key: str, items: tuple = ()) -> Recommendation:
        a = answers[key]
        return Recommendation(text, a.verdict.severity, a.page, a.page_title, items, a.verdict)

    options: list[Recommendation] = []
    if weak:
        who, score = weak[0]
        found = (
            f"{len(weak):,} annotators label at chance (the worst, {who}, has spammer score "
            f"{score:.2f})"
            if len(weak) > 1
            else f"Annotator {who} labels at chance (spammer score {score:.2f})"
        )
        options.append(rec(f"{found}: review their work, or leave their labels out.", "annotators"))
    pair = confused_pair(fits[0]) if fits and len(fits) == 1 else None
    if pair is not None:
        a, b, mass = pair
        options.append(
            rec(
                f"Merge categories {a!s} and {b!s}, or sharpen the guidelines between them: "
                f"annotators confuse them most ({format_percent(mass)} of all labels).",
                "agreement",
            )
        )
    if unsure:
        options.append(
            rec(
                # Next labels plans single-label batches only: multi-label data are
                # pointed at the Gold labels page's per-category posteriors instead
                (
                    f"Relabel these {format_count(len(unsure), 'item')}: some category's yes/no is less "
                    f"than {SURE:.0%} sure (the Gold labels page shows every category's "
                    "posterior for each item)."
                )
                if multilabel
                else f"Relabel these {format_count(len(unsure), 'item')} with new annotators or an expert: "
                f"their label is less than {SURE:.0%} sure, and every annotator here has "
                "already judged them."
                if nobody_left
                else f"Relabel these {format_count(len(unsure), 'item')}: their label is less than "
                f"{SURE:.0%} sure "
                + (
                    "(on data in memory the Next labels page plans that batch)."
                    if lazy
                    else "(the Next labels page plans the batch that settles them)."
                ),
                "more_labels",
                tuple(unsure),
            )
        )
    # a handful of items first: any advice below would rest on them alone (three items
    # of two annotators who never agree had been told to merge two categories)
    if 0 < n_items < FEW_ITEMS:
        a = answers["agreement"]
        return Recommendation(
            f"Not a benchmark yet: {format_count(n_items, 'item')} "
            f"{'is' if n_items == 1 else 'are'} too few for these answers to mean "
            "much (each figure rests on a handful of items; intervals and the model's "
            f"certainty are rough). Label at least {FEW_ITEMS} items, then read them again.",
            Severity.CAUTION,
            a.page,
            a.page_title,
        )
    if scale:
        a = answers["agreement"]
        return rec(
            "Judge this scale by its agreement (the first answer), "
            + (
                "which reads good: the mean of the annotators' values per item is a "
                "reference score to benchmark on"
                if a.verdict.severity is Severity.GOOD
                else "which does not read good: the annotators' values are not yet one "
                "reference score; sharpen the guidelines and calibrate the annotators on "
                "shared examples"
            )
            + ". The other answers compare labels as categories, which a scale does not have.",
            "agreement",
        )
    options = [o for o in options if o.severity in (Severity.BAD, Severity.CAUTION)]
    if options:
        return min(options, key=lambda o: _RANK[o.severity])
    undefined = [k for k, a in answers.items() if a.verdict.severity is Severity.UNDEFINED]
    if undefined:
        # judged as the undefined answer itself, never green or red by whichever other
        # answer happened to be named (the same advice had shown in both colours)
        return rec(
            "Not a benchmark yet: some answers are undefined for these data; their reasons "
            "say what is missing (often more items, more overlapping labels, or some "
            "disagreement to learn from).",
            undefined[0],
        )
    gold = answers["gold"]
    # sure of its labels by its own account only (a lower bound, read caution until gold
    # measures it): that asks for a check on expert labels, not for new guidelines
    own_only = gold.verdict.reason == OWN_ACCOUNT
    others = [
        a
        for a in answers.values()
        if a.verdict.severity is not Severity.GOOD and not (a is gold and own_only)
    ]
    if not others and own_only:
        return Recommendation(
            "Benchmark on the model's labels once a few expert-labelled items confirm them: "
            "agreement, noise and annotators read good, and the model is sure of its labels "
            f"by its own account ({gold.number} expected wrong), which runs overconfident "
            "(the Gold labels page scores it on gold labels).",
            gold.verdict.severity,
            gold.page,
            gold.page_title,
            (),
            gold.verdict,
        )
    if not others:
        return rec(
            "Benchmark on the model's labels: agreement, noise, annotators and label "
            "certainty all read good.",
            "gold",
        )
    # no action above applies, yet some answer is not good (low agreement, a high noise
    # bound, a biased annotator): never say "all read good" then
    worst = min(others, key=lambda a: _RANK[a.verdict.severity])
    read = "; ".join(f"{_NAMES[a.key]} reads {a.verdict.severity} ({a.number})" for a in others)
    if own_only:
        text = (
            f"Benchmark on the model's labels, not on agreed or majority labels, and check "
            f"them first on a few expert-labelled items (the Gold labels page scores the "
            f"model on them): {read}, while the model is sure of its labels ({gold.number} "
            "expected wrong, by its own posteriors, which run overconfident)."
        )
    elif gold.verdict.severity is Severity.GOOD:  # measured on gold labels
        text = f"Benchmark on the model's labels, not on agreed or majority labels: {read}, " + (
            "while none of the model's labels is wrong on the gold labels."
            if gold.verdict.value == 0
            else f"while on the gold labels only {gold.number} of the model's labels are wrong."
        )
    if own_only or gold.verdict.severity is Severity.GOOD:
        return Recommendation(
            text, worst.verdict.severity, gold.page, gold.page_title, (), worst.verdict
        )
    text = f"Not a benchmark yet: {read}. Sharpen the guidelines, then collect more labels."
    return Recommendation(
        text, worst.verdict.severity, worst.page, worst.page_title, (), worst.verdict
    )
