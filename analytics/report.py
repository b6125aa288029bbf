"""The one-click report: every result of Concord in one self-contained HTML file.

:func:`build_report` returns HTML that opens offline (plotly's JavaScript is embedded once,
in the page head, not fetched). :func:`build_report_zip` adds every table as a CSV. Both
are built from the same list of :class:`Block` objects made by :func:`report_blocks`, so
the page, the CLI and a notebook get the same numbers.

Sections: ``"overview"`` (the five answers and the recommendation of
:func:`analytics.overview.overview`, first), ``"summary"`` (always), ``"agreement"``, ``"multilabel"`` (multi-label data),
``"noise"`` (each distinct label set a category on multi-label data) and ``"dawid_skene"``
(on multi-label data one yes/no model per category). A section that cannot be computed
for the data (for example one annotator) says why instead of failing the report.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd

from analytics import AnnotationDataError, Annotations, as_annotations
from analytics._core.formatting import format_count
from analytics._core.validation import check_confidence, check_whole
from analytics.data import anonymous_annotators, table_to_csv, zip_texts
from analytics.overview import expected_label_error, format_judged, judge
from analytics.report_html import Block, agreement_display, render, slug
from analytics.report_settings import ReportSettings

__all__ = [
    "SECTIONS",
    "Block",
    "ReportSettings",
    "build_report",
    "build_report_zip",
    "report_blocks",
]

# ---------------------------------------------------------------------- sections
REPORT_PAIRWISE_ANNOTATORS = 200
"""The most annotators whose pairwise table and heatmap the report shows (40,000 cells)."""


def _summary_blocks(ann: Annotations, settings: ReportSettings) -> list[Block]:
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
        Block(s, "text", "Settings of this report", text="\n".join(settings.describe())),
        Block(s, "figure", "Judgements per item", figure=judgements_per_item_figure(ann)),
        Block(s, "figure", "Coverage", figure=coverage_figure(ann)),
        Block(s, "figure", "Label distribution", figure=label_distribution_figure(ann)),
    ]


def _alpha_verdict(report: pd.DataFrame) -> Block:
    """The report's headline: Krippendorff's alpha judged by :func:`analytics.overview.judge`."""
    rows = report[report["coefficient"].str.startswith("Krippendorff")]
    row = (rows if len(rows) else report).iloc[0]
    verdict = judge("agreement", row["value"], str(row.get("note", "") or ""))
    shown = verdict.shown if pd.notna(row["value"]) else "undefined"
    return Block("agreement", "text", text=f"{row['coefficient']} = {shown}.", verdict=verdict)


def _agreement_blocks(ann: Annotations, settings: ReportSettings) -> list[Block]:
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


def _multilabel_blocks(ann: Annotations) -> list[Block]:
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


def _noise_blocks(ann: Annotations, settings: ReportSettings) -> list[Block]:
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


def _dawid_skene_blocks(ann: Annotations, settings: ReportSettings) -> list[Block]:
    from analytics import dawid_skene as ds

    s = "dawid_skene"
    result = ds.fit(
        ann,
        smoothing=settings.ds_smoothing,
        init=settings.ds_init,
        max_iter=settings.ds_max_iter,
        tol=settings.ds_tol,
    )
    share = ds.fit_summary(result).confident_share
    error = expected_label_error(result.confidence)
    return [
        Block(
            s,
            "text",
            text=f"The Dawid-Skene model (fitted by EM, {result.n_iter} iterations, "
            f"{'converged' if result.converged else 'not converged'}) gives each item a probability for every "
            f"category; {share:.1%} of items have a top posterior of at least 0.99.",
        ),
        Block(
            s,
            "text",
            text="If the model is right about its own uncertainty, about "
            f"{format_judged('gold_error', error)} of its "
            "labels are wrong; read it as a lower bound, since fitted models are "
            "overconfident (RTE: 0.8% by its own account, 7.3% against expert gold).",
            verdict=judge("gold_error", error),
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


def _dawid_skene_per_category_blocks(ann: Annotations, settings: ReportSettings) -> list[Block]:
    from analytics import dawid_skene as ds

    s = "dawid_skene"
    fits = ds.fit_per_category(
        ann,
        smoothing=settings.ds_smoothing,
        init=settings.ds_init,
        max_iter=settings.ds_max_iter,
        tol=settings.ds_tol,
    )
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


def _overview_blocks(ann: Annotations, settings: ReportSettings) -> list[Block]:
    from analytics.overview import overview

    result = overview(
        ann,
        confidence=settings.noise_confidence,
        annotators=settings.noise_annotators,
        distance=settings.distance,
        fit_options={
            "smoothing": settings.ds_smoothing,
            "init": settings.ds_init,
            "max_iter": settings.ds_max_iter,
            "tol": settings.ds_tol,
        },
    )
    rec = result.recommendation
    s = "overview"
    blocks = [Block(s, "text", "What to do next", text=rec.text, verdict=rec.verdict)]
    blocks += [
        Block(s, "text", f"{n}. {a.question}", text=a.sentence, verdict=a.verdict)
        for n, a in enumerate(result.answers, start=1)
    ]
    if rec.items:
        items = pd.DataFrame({"item": list(rec.items)})
        blocks.append(Block(s, "table", "Items to relabel", table=items))
    return blocks


SECTIONS: dict[str, str] = {
    "overview": "Overview: can we benchmark on this?",
    "summary": "Data",
    "agreement": "Agreement",
    "multilabel": "Multi-label agreement",
    "noise": "Noise of the agreed subset",
    "dawid_skene": "Dawid-Skene annotator model",
}


def _default_sections(ann: Annotations) -> list[str]:
    if ann.is_multilabel:  # the noise bound reads each distinct label set as a category
        return ["overview", "summary", "agreement", "multilabel", "noise", "dawid_skene"]
    return ["overview", "summary", "agreement", "noise", "dawid_skene"]


def report_blocks(
    ann: Annotations | pd.DataFrame,
    sections: Sequence[str] | None = None,
    *,
    n_boot: int = 1000,
    confidence: float = 0.95,
    progress: Callable[[str], None] | None = None,
    settings: ReportSettings | None = None,
) -> list[Block]:
    """Compute every block of the report, section by section.

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        The annotations (or a long DataFrame).
    sections : str, sequence of str or None, default None
        Which sections, in order, from :data:`SECTIONS`; None: all that apply to the data
        (overview, summary, agreement, then multilabel on multi-label data, noise,
        dawid_skene).
    n_boot : int, default 1000
        Bootstrap resamples for the agreement intervals: a whole number >= 0 (1,000, as
        the app and the ``agreement`` command use).
    confidence : float, default 0.95
        The confidence of the noise bound, strictly between 0 and 1.
    progress : callable or None, default None
        Called with each section's title as it starts.
    settings : ReportSettings or None, default None
        Every choice the sections depend on (the app passes each page's choices); when
        given, ``n_boot`` and ``confidence`` are ignored. None: ``ReportSettings(
        agreement_n_boot=n_boot, noise_confidence=confidence)``. The summary section
        lists them.

    Returns
    -------
    list of Block
        In section order. A section that cannot be computed for this data becomes one
        text block that says why.

    Raises
    ------
    AnnotationDataError
        An unknown section, or a bad ``n_boot`` or ``confidence`` (checked before any
        section is computed, so a bad argument is never shown as "Not computed for this
        data").
    """
    ann = as_annotations(ann)
    if settings is None:
        n_boot = check_whole(n_boot, "n_boot", 0)
        confidence = check_confidence(confidence)
        settings = ReportSettings(agreement_n_boot=n_boot, noise_confidence=confidence)
    elif not isinstance(settings, ReportSettings):
        raise AnnotationDataError(
            f"settings must be a ReportSettings, not {type(settings).__name__}.",
            hint="Build one with analytics.report.ReportSettings(...).",
        )
    if isinstance(sections, str):
        sections = [sections]
    chosen = list(sections) if sections is not None else _default_sections(ann)
    unknown = [s for s in chosen if not isinstance(s, str) or s not in SECTIONS]
    if unknown:
        raise AnnotationDataError(
            f"unknown report sections {unknown}.",
            hint=f"Choose from: {', '.join(SECTIONS)}.",
        )
    makers: dict[str, Callable[[], list[Block]]] = {
        "overview": lambda: _overview_blocks(ann, settings),
        "summary": lambda: _summary_blocks(ann, settings),
        "agreement": lambda: _agreement_blocks(ann, settings),
        "multilabel": lambda: _multilabel_blocks(ann),
        "noise": lambda: _noise_blocks(ann, settings),
        "dawid_skene": lambda: _dawid_skene_blocks(ann, settings),
    }
    blocks: list[Block] = []
    for name in chosen:
        if progress is not None:
            progress(SECTIONS[name])
        if name == "multilabel" and not ann.is_multilabel:
            blocks.append(
                Block(name, "text", text="Not multi-label data: this section does not apply.")
            )
            continue
        if name == "dawid_skene" and ann.is_multilabel:
            blocks.extend(_dawid_skene_per_category_blocks(ann, settings))
            continue
        try:
            blocks.extend(makers[name]())
        except AnnotationDataError as exc:
            blocks.append(Block(name, "text", text=f"Not computed for this data: {exc}"))
    return blocks


def build_report(
    ann: Annotations | pd.DataFrame,
    sections: Sequence[str] | None = None,
    title: str | None = None,
    *,
    n_boot: int = 1000,
    confidence: float = 0.95,
    progress: Callable[[str], None] | None = None,
    settings: ReportSettings | None = None,
) -> str:
    """A self-contained HTML report of the data set (opens offline).

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        The annotations (or a long DataFrame).
    sections : str, sequence of str or None, default None
        Which sections, in order, from :data:`SECTIONS`; None: all that apply.
    title : str or None, default None
        Report title; None gives "Concord report: <data set name>".
    n_boot : int, default 1000
        Bootstrap resamples for the agreement intervals: a whole number >= 0 (1,000, as
        the app and the ``agreement`` command use).
    confidence : float, default 0.95
        The confidence of the noise bound, strictly between 0 and 1.
    progress : callable or None, default None
        Called with each section's title as it starts.
    settings : ReportSettings or None, default None
        Every choice the sections depend on (see :func:`report_blocks`).

    Returns
    -------
    str
        The whole HTML document.

    Raises
    ------
    AnnotationDataError
        An unknown section, or a bad ``n_boot`` or ``confidence`` (see
        :func:`report_blocks`).
    """
    ann = as_annotations(ann)
    blocks = report_blocks(
        ann, sections, n_boot=n_boot, confidence=confidence, progress=progress, settings=settings
    )
    return render(blocks, ann, title or f"Concord report: {ann.name}", SECTIONS)


def build_report_zip(
    ann: Annotations | pd.DataFrame,
    sections: Sequence[str] | None = None,
    title: str | None = None,
    *,
    n_boot: int = 1000,
    confidence: float = 0.95,
    progress: Callable[[str], None] | None = None,
    safe: bool = True,
    settings: ReportSettings | None = None,
) -> bytes:
    """A zip with ``report.html`` and every table of the report as a CSV under ``tables/``.

    Parameters
    ----------
    ann : Annotations or pandas.DataFrame
        The annotations (or a long DataFrame).
    sections : str, sequence of str or None, default None
        Which sections, in order, from :data:`SECTIONS`; None: all that apply.
    title : str or None, default None
        Report title; None gives "Concord report: <data set name>".
    n_boot : int, default 1000
        Bootstrap resamples for the agreement intervals: a whole number >= 0 (1,000, as
        the app and the ``agreement`` command use).
    confidence : float, default 0.95
        The confidence of the noise bound, strictly between 0 and 1.
    progress : callable or None, default None
        Called with each section's title as it starts.
    safe : bool, default True
        Write the CSVs safe to open in a spreadsheet: text that would run as a formula
        gets a ``'`` in front (:func:`analytics.data.table_to_csv`); False writes it as it is.
    settings : ReportSettings or None, default None
        Every choice the sections depend on (see :func:`report_blocks`).

    Returns
    -------
    bytes
        The zip archive: ``report.html`` (as :func:`build_report` makes it) and one
        ``tables/<section>_<title>.csv`` per table.

    Raises
    ------
    AnnotationDataError
        An unknown section, or a bad ``n_boot`` or ``confidence`` (see
        :func:`report_blocks`).
    """
    ann = as_annotations(ann)
    blocks = report_blocks(
        ann, sections, n_boot=n_boot, confidence=confidence, progress=progress, settings=settings
    )
    files = {"report.html": render(blocks, ann, title or f"Concord report: {ann.name}", SECTIONS)}
    seen: dict[str, int] = {}
    for b in blocks:
        if b.kind != "table" or b.table is None:
            continue
        stem = f"{b.section}_{slug(b.title) or 'table'}"
        seen[stem] = seen.get(stem, 0) + 1
        name = stem if seen[stem] == 1 else f"{stem}_{seen[stem]}"
        # a plain row number is no column of the table; a named index (annotators) is
        numbered = isinstance(b.table.index, pd.RangeIndex) and b.table.index.name is None
        files[f"tables/{name}.csv"] = table_to_csv(b.table, index=not numbered, safe=safe)
    return zip_texts(files)
