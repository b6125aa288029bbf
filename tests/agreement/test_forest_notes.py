"""The forest plot's 'undefined' notes end at a word with an ellipsis, not mid-word."""

from __future__ import annotations

import pandas as pd

from analytics import load_annotations
from analytics.agreement import agreement_report, forest_plot
from analytics.report import build_report

MULTI = pd.DataFrame(
    {
        "item": ["m0", "m0", "m0", "m1", "m1", "m1", "m2", "m2", "m2"],
        "annotator": ["x", "y", "z"] * 3,
        "label": ["a", "b", "a;b", "b;c", "b;c", "b", "a", "a", "a;c"],
    }
)


def test_undefined_notes_are_cut_at_a_word_with_the_whole_note_on_hover():
    ann = load_annotations(MULTI, multilabel_sep=";")
    report = agreement_report(ann, n_boot=0)
    notes = dict(zip(report["coefficient"], report["note"], strict=True))
    fig = forest_plot(report)
    shown = {a.y: a for a in fig.layout.annotations}
    kappa = shown["Fleiss' kappa"]
    note = notes["Fleiss' kappa"]
    assert len(note) > 70  # long enough to be cut
    text = kappa.text.removeprefix("undefined: ")
    assert text.endswith("…") and not text.endswith(" …")
    kept = text.removesuffix("…")
    assert note.startswith(kept) and note[len(kept)] in " ;,."  # ends at a word boundary
    assert kappa.hovertext == note.replace("&", "&amp;").replace("<", "&lt;")
    assert "multi-label d" not in text.replace("multi-label data", "")


def test_the_html_report_has_no_word_cut_in_half():
    ann = load_annotations(MULTI, multilabel_sep=";")
    html = build_report(ann, sections=["agreement"], n_boot=0)
    # the figure's JSON held "... only; for multi-label d" (70 characters, mid-word)
    assert 'only; for multi-label d"' not in html
    assert "only; for multi-label\\u2026" in html or "only; for multi-label…" in html


def test_the_paradox_axis_names_the_side_its_markers_sit_on():
    """With no category at half the judgements the markers sit at the rest's share (62%
    on a review's file) under an axis that said "majority category" (37.5% there)."""
    from analytics.agreement import kappa_paradox_figure
    from analytics.data import load_sample

    fig = kappa_paradox_figure(load_sample("crowd_intents"))
    assert (
        fig.layout.xaxis2.title.text == "Prevalence of the larger side (top category or the rest)"
    )
