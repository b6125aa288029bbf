"""The report's sections: each a function of the data and the settings, returning blocks.

:func:`analytics.report.report_blocks` calls them in section order; each block is what
:mod:`analytics.report_html` draws and what the report zip writes as a CSV.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from analytics import AnnotationDataError, Annotations
from analytics._core.formatting import format_count
from analytics.data import anonymous_annotators
from analytics.overview import (
    OWN_ACCOUNT,
    expected_label_error,
    format_judged,
    judge,
    judge_measured_error,
    judge_own_error,
)
from analytics.report_html import Block, agreement_display
from analytics.report_settings import ReportSettings

__all__ = [
    "REPORT_PAIRWISE_ANNOTATORS",
    "agreement_blocks",
    "dawid_skene_blocks",
    "dawid_skene_per_category_blocks",
    "multilabel_blocks",
    "noise_blocks",
    "overview_blocks",
    "summary_blocks",
]

REPORT_PAIRWISE_ANNOTATORS = 200
"""The most annotators whose pairwise table and heatmap the report shows (40,000 cells)."""


def summary_blocks(ann: Annotations, settings: ReportSettings) -> list[Block]:
    from analytics.data import (
        coverage_figure,
        judgements_per_item_figure,
        label_distribution_figure,
    )

    s = "summary"
    return [
        Block(
            s,
            "text",
            text=", ".join(
                [
                    format_count(ann.n_items, "item"),
                    format_count(ann.n_annotators, "annotator"),
                    format_count(ann.n_judgements, "judgement"),
                    format_count(ann.n_categories, "category", "categories"),
                ]
            )
            + f" ({ann.kind.value} labels).",
        ),
        Block(
            s,
            "table",
            "Data summary",
            table=ann.summary(),
            display=ann.summary(separators=True),  # 1,500 as on the pages; the CSV keeps 1500
        ),
        Block(s, "text", "What the loader did", text="\n".join(ann.report.messages())),
        Block(
            s,
            "text",
            "Settings of this report",
            text="\n".join(settings.describe(_alpha_default(ann))),
        ),
        Block(s, "figure", "Judgements per item", figure=judgements_per_item_figure(ann)),
        Block(s, "figure", "Coverage", figure=coverage_figure(ann)),
        Block(s, "figure", "Label distribution", figure=label_distribution_figure(ann)),
    ]


def _alpha_verdict(report: pd.DataFrame) -> Block:
    """The report's headline: Krippendorff's alpha judged by :func:`analytics.overview.judge`."""
    rows = report[report["coefficient"].str.startswith("Krippendorff")]
    # alpha of the report's distance: nominal's row comes first when another is chosen
    row = rows.iloc[-1] if len(rows) else report.iloc[0]
    verdict = judge("agreement", row["value"], str(row.get("note", "") or ""))
    shown = verdict.shown if pd.notna(row["value"]) else "undefined"
    return Block("agreement", "text", text=f"{row['coefficient']} = {shown}.", verdict=verdict)


def agreement_blocks(ann: Annotations, settings: ReportSettings) -> list[Block]:
    from analytics import agreement as ag

    s = "agreement"
    conf, n_boot = settings.agreement_confidence, settings.agreement_n_boot
    report = ag.agreement_report(ann, conf, n_boot, distance=settings.distance)
    shown = agreement_display(report, conf)  # the HTML's table; the CSV keeps the numbers
    blocks = [
        Block(
            s,
            "text",
            text="Chance-corrected agreement (1 = perfect, 0 = what chance alone would give). Agreement is "
            "neither necessary nor sufficient for a usable gold standard (Beigman Klebanov & Beigman 2009, "
            "section 3; Passonneau & Carpenter 2014, section 2.1): read it beside the noise bound and the "
            "annotator model below.",
        ),
        _alpha_verdict(report),
        Block(s, "table", "Agreement coefficients", table=report, display=shown),
        Block(s, "figure", "Coefficients with intervals", figure=ag.forest_plot(report)),
    ]
    coefficient, label = (
        ("percent_agreement", "agreement (identical label sets)")
        if ann.is_multilabel
        else ("cohen_kappa", "Cohen's kappa")
    )
    if anonymous_annotators(ann):  # a count table: nobody to pair
        blocks.append(
            Block(
                s,
                "text",
                f"Pairwise {label}",
                text="Not shown: the data are a count table, whose raters are anonymous, so "
                "there are no annotator pairs (the coefficients above that need them say so).",
            )
        )
    elif ann.n_annotators > REPORT_PAIRWISE_ANNOTATORS:  # an N x N heatmap and two N x N tables
        blocks.append(
            Block(
                s,
                "text",
                f"Pairwise {label}",
                text=f"Not shown for {ann.n_annotators:,} annotators "
                f"({ann.n_annotators * (ann.n_annotators - 1) // 2:,} pairs): the report shows the "
                f"pairwise table and heatmap for up to {REPORT_PAIRWISE_ANNOTATORS} annotators. "
                "The coefficients above cover every pair; for the table, call "
                "analytics.agreement.pairwise (held to the memory budget) or use a subset of "
                "the annotators.",
            )
        )
    else:
        pw = ag.pairwise(ann, coefficient)
        blocks.append(Block(s, "figure", f"Pairwise {label}", figure=ag.pairwise_heatmap(pw)))
        blocks.append(Block(s, "table", f"Pairwise {label}", table=pw.values))
        blocks.append(Block(s, "table", "Shared items per pair", table=pw.shared))
    if not ann.is_multilabel:
        pc = ag.per_category(ann)
        blocks.append(Block(s, "table", "Agreement per category", table=pc))
        blocks.append(Block(s, "figure", "Agreement per category", figure=ag.per_category_bars(pc)))
    return blocks


def multilabel_blocks(ann: Annotations) -> list[Block]:
    from analytics import multilabel as ml

    s = "multilabel"
    am = ml.am_agreement(ann)
    pairs = ml.pairwise_am(ann)
    bands = ml.items_by_agreement(ann)
    disagreement = ml.category_disagreement(ann)
    confusion = ml.category_pair_confusion(ann)
    blocks = [
        Block(
            s,
            "text",
            text=(
                f"A_m (Bhowmick, Mitra & Basu 2008) = {format_judged('agreement', am.a_m)} "
                f"(observed {am.p_o:.3f}, expected {am.p_e:.3f})."
                if not am.reason
                else f"A_m (Bhowmick, Mitra & Basu 2008) is undefined: {am.reason}"
            ),
            verdict=judge("agreement", am.a_m, am.reason),
        ),
        Block(s, "table", "A_m per annotator pair", table=pairs),
        Block(s, "figure", "A_m per annotator pair", figure=ml.pairwise_am_heatmap(pairs)),
        Block(s, "table", "Items by observed agreement", table=bands),
        Block(s, "figure", "Items by observed agreement", figure=ml.items_by_agreement_bars(bands)),
        Block(s, "table", "Disagreements per category and annotator pair", table=disagreement),
        Block(
            s,
            "figure",
            "Disagreements per category",
            figure=ml.category_disagreement_heatmap(disagreement),
        ),
        Block(s, "table", "Category-pair confusion", table=confusion),
        Block(
            s,
            "figure",
            "Category-pair confusion",
            figure=ml.category_pair_confusion_heatmap(confusion),
        ),
        Block(s, "table", "Alpha with set distances", table=ml.set_distance_alphas(ann)),
    ]
    gold = ml.gold_standard(ann)
    blocks.append(Block(s, "table", "Gold standard (Algorithm 1)", table=gold.to_frame()))
    return blocks


def noise_blocks(ann: Annotations, settings: ReportSettings) -> list[Block]:
    from analytics.noise import noise_from_annotations, posterior_figure

    s = "noise"
    result = noise_from_annotations(
        ann, settings.noise_confidence, annotators=settings.noise_annotators
    )
    verdict = judge("noise", result.gamma if result.ok else float("nan"), result.reason)
    blocks = [Block(s, "text", text=result.explain(verdict.shown), verdict=verdict)]
    if result.notes:
        blocks.append(Block(s, "text", "How it was computed", text="\n".join(result.notes)))
    if result.ok:
        blocks.append(
            Block(
                s,
                "figure",
                "Posterior of the number of hard items",
                figure=posterior_figure(result),
            )
        )
    blocks.append(
        Block(s, "table", "Annotator category rates on disagreed items", table=result.rates)
    )
    blocks.append(
        Block(s, "table", "Agreed items (candidate gold standard)", table=result.agreed_items())
    )
    return blocks


def _gold_blocks(result: Any, gold: Any) -> list[Block]:
    """Against known gold labels: the model's measured error, judged, and the table."""
    from analytics import dawid_skene as ds

    table = ds.gold_accuracy(result, gold)
    row = table.iloc[-1]  # the model's row (majority vote's comes first)
    error = 1.0 - float(row["accuracy"])
    verdict, few = judge_measured_error(error, int(row["items"]))
    return [
        Block(
            "dawid_skene",
            "text",
            text=f"Against the {format_count(int(row['items']), 'item')} with known gold labels, "
            f"{format_judged('gold_error', error)} of the model's labels are wrong: the "
            f"figure to trust over the model's own account below.{few}"
            + "".join(f" {note}" for note in table.attrs.get("notes", ())),
            verdict=verdict,
        ),
        Block("dawid_skene", "table", "Accuracy on the gold labels", table=table),
    ]


def dawid_skene_blocks(ann: Annotations, settings: ReportSettings, gold: Any = None) -> list[Block]:
    from analytics import dawid_skene as ds

    s = "dawid_skene"
    result = ds.fit(ann, **settings.fit_options())
    share = ds.fit_summary(result).confident_share
    error = expected_label_error(result.confidence)
    measured = [] if gold is None else _gold_blocks(result, gold)
    # judged only without gold: beside the measured error, a second verdict on the same
    # quantity ("Good" under a "Caution") would contradict it
    own = None if measured else judge_own_error(error)
    return [
        Block(
            s,
            "text",
            text=f"The Dawid-Skene model (fitted by EM, {format_count(result.n_iter, 'iteration')}, "
            f"{'converged' if result.converged else 'not converged'}) gives each item a probability for every "
            f"category; {share:.1%} of items have a top posterior of at least 0.99.",
        ),
        *measured,
        Block(
            s,
            "text",
            text="If the model is right about its own uncertainty, about "
            f"{format_judged('gold_error', error)} of its "
            "labels are wrong; read it as a lower bound, since fitted models are "
            "overconfident (RTE: 0.8% by its own account, 7.3% against expert gold)."
            + (" The gold figure above is the one judged." if measured else "")
            + (
                " A lower bound cannot show that the labels are good: score the model on a "
                "few expert-labelled items (report --gold) to know."
                if own is not None and own.reason == OWN_ACCOUNT
                else ""
            ),
            verdict=own,
        ),
        Block(
            s,
            "table",
            "Prevalence: model, majority vote, raw frequency",
            table=ds.prevalence_comparison(result),
        ),
        Block(s, "figure", "Prevalence", figure=ds.prevalence_figure(result)),
        Block(s, "table", "Annotators", table=ds.annotator_table(result)),
        Block(
            s,
            "figure",
            "Annotator confusion matrices",
            figure=ds.confusion_heatmaps(result),  # the 6 least accurate annotators
        ),
        Block(s, "figure", "Posterior confidence", figure=ds.confidence_histogram(result)),
        Block(
            s,
            "table",
            "The model's most likely labels, with confidence",
            table=ds.model_labels_table(result),
        ),
    ]


def dawid_skene_per_category_blocks(ann: Annotations, settings: ReportSettings) -> list[Block]:
    from analytics import dawid_skene as ds

    s = "dawid_skene"
    fits = ds.fit_per_category(ann, **settings.fit_options())
    table = ds.per_category_table(fits)
    return [
        Block(
            s,
            "text",
            text="The Dawid-Skene model needs one label per judgement: on multi-label data it "
            "is fitted once per category, as a yes/no question (did the annotator include it?). "
            "Dependencies between categories are not modelled.",
        ),
        Block(s, "table", "One yes/no model per category", table=table),
        Block(s, "figure", "Prevalence per category", figure=ds.per_category_figure(table)),
        Block(s, "table", "Model label sets", table=ds.per_category_labels(fits)),
    ]


def overview_blocks(ann: Annotations, settings: ReportSettings, gold: Any = None) -> list[Block]:
    from analytics.overview import overview

    def answers(known: Any):
        return overview(
            ann,
            gold=known,
            confidence=settings.noise_confidence,
            annotators=settings.noise_annotators,
            distance=settings.distance,
            fit_options=settings.fit_options(),
        )

    s = "overview"
    blocks = []
    try:
        result = answers(gold)
    except AnnotationDataError as exc:
        if gold is None:
            raise
        # gold the model cannot score cost the whole section; the app's Overview answers
        # without it and says why, and so does the report
        result = answers(None)
        blocks.append(
            Block(
                s,
                "text",
                "Gold labels not used",
                text="The gold labels could not be scored, so question 4 gives the model's "
                f"own account instead: {exc}",
            )
        )
    rec = result.recommendation
    blocks.insert(0, Block(s, "text", "What to do next", text=rec.text, verdict=rec.verdict))
    blocks += [
        Block(s, "text", f"{n}. {a.question}", text=a.sentence, verdict=a.verdict)
        for n, a in enumerate(result.answers, start=1)
    ]
    if rec.items:
        items = pd.DataFrame({"item": list(rec.items)})
        blocks.append(Block(s, "table", "Items to relabel", table=items))
    return blocks


def _alpha_default(ann: Annotations) -> str:
    """The alpha distance ``distance=None`` means for these data."""
    from analytics.agreement import default_distance

    return default_distance(ann)
