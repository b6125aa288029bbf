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

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

from analytics import AnnotationDataError, Annotations, as_annotations
from analytics._core.validation import check_confidence, check_whole
from analytics.data import table_to_csv, zip_texts
from analytics.report_html import Block, render, slug
from analytics.report_sections import (
    REPORT_PAIRWISE_ANNOTATORS,
    agreement_blocks,
    dawid_skene_blocks,
    dawid_skene_per_category_blocks,
    multilabel_blocks,
    noise_blocks,
    overview_blocks,
    summary_blocks,
)
from analytics.report_settings import ReportSettings

__all__ = [
    "REPORT_PAIRWISE_ANNOTATORS",
    "SECTIONS",
    "Block",
    "ReportSettings",
    "build_report",
    "build_report_zip",
    "report_blocks",
]

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
    gold: Mapping[Any, Any] | pd.Series | None = None,
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
    gold : mapping, pandas.Series or None, default None
        Known true labels of some items (item -> label): the overview then judges the
        labels' error against them, as the app's Overview does, instead of by the
        model's own posteriors.

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
        "overview": lambda: overview_blocks(ann, settings, gold),
        "summary": lambda: summary_blocks(ann, settings),
        "agreement": lambda: agreement_blocks(ann, settings),
        "multilabel": lambda: multilabel_blocks(ann),
        "noise": lambda: noise_blocks(ann, settings),
        "dawid_skene": lambda: dawid_skene_blocks(ann, settings, gold),
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
        try:
            if name == "dawid_skene" and ann.is_multilabel:
                blocks.extend(dawid_skene_per_category_blocks(ann, settings))
            else:
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
    gold: Mapping[Any, Any] | pd.Series | None = None,
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
    gold : mapping, pandas.Series or None, default None
        Known true labels of some items, for the overview (see :func:`report_blocks`).

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
    return _blocks_and_html(ann, sections, title, n_boot, confidence, progress, settings, gold)[1]


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
    gold: Mapping[Any, Any] | pd.Series | None = None,
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
    gold : mapping, pandas.Series or None, default None
        Known true labels of some items, for the overview (see :func:`report_blocks`).

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
    blocks, html = _blocks_and_html(
        ann, sections, title, n_boot, confidence, progress, settings, gold
    )
    files = {"report.html": html}
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


def _blocks_and_html(
    ann: Annotations | pd.DataFrame,
    sections: Sequence[str] | None,
    title: str | None,
    n_boot: int,
    confidence: float,
    progress: Callable[[str], None] | None,
    settings: ReportSettings | None,
    gold: Mapping[Any, Any] | pd.Series | None,
) -> tuple[list[Block], str]:
    """The report's blocks and its HTML (what :func:`build_report` returns)."""
    ann = as_annotations(ann)
    blocks = report_blocks(
        ann,
        sections,
        n_boot=n_boot,
        confidence=confidence,
        progress=progress,
        settings=settings,
        gold=gold,
    )
    return blocks, render(blocks, ann, title or f"Concord report: {ann.name}", SECTIONS)
