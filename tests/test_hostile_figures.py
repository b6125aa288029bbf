"""Every figure draws hostile names as text: no user string reaches plotly as HTML.

plotly renders ``<a href>``, ``<b>``, ``<span style>`` and entities in titles, tick labels,
legend names, text, annotations and hover values. Each figure is built on a data set
whose items, annotators and categories are HTML (and Markdown) and its JSON is searched.
"""

from __future__ import annotations

import html
from collections.abc import Iterator

import pytest

from analytics import agreement as ag
from analytics import data, noise
from analytics import dawid_skene as ds
from analytics import multilabel as ml
from analytics._core.formatting import plotly_labels, plotly_text
from tests.helpers.markup import (
    HOSTILE_ANNOTATORS,
    HOSTILE_CATEGORIES,
    HOSTILE_ITEM,
    hostile_annotations,
)

TAGS = ("<a", "</a", "<b>", "</b", "<span", "</span", "<img")
NAMES = [*HOSTILE_CATEGORIES, *HOSTILE_ANNOTATORS, HOSTILE_ITEM]


def _strings(node, path: str = "") -> Iterator[tuple[str, str]]:
    """Every string in a figure's JSON with where it sits (the theme template left out)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if path == "layout" and key == "template":
                continue
            yield from _strings(value, f"{path}.{key}" if path else key)
    elif isinstance(node, list | tuple):
        for value in node:
            yield from _strings(value, path)
    elif isinstance(node, str):
        yield path, node
    elif hasattr(node, "tolist"):  # numpy arrays of names
        yield from _strings(node.tolist(), path)


def _single_label_figures():
    ann = hostile_annotations()
    a, b = ann.annotators[0], ann.annotators[1]
    result = ds.fit(ann)
    per_cat = ag.per_category(ann, n_boot=0)
    return {
        "pairwise_heatmap": ag.pairwise_heatmap(ag.pairwise(ann, "cohen_kappa")),
        "forest_plot": ag.forest_plot(ag.agreement_report(ann, n_boot=0)),
        "per_category_bars": ag.per_category_bars(per_cat),
        "per_category_bars_both": ag.per_category_bars(per_cat, "both"),
        "contingency_heatmap": ag.contingency_heatmap(ag.contingency(ann, a, b)),
        "item_agreement_histogram": ag.item_agreement_histogram(ag.item_agreement(ann)),
        "kappa_paradox_figure": ag.kappa_paradox_figure(ann),
        "coverage_figure": data.coverage_figure(ann),
        "judgements_per_item_figure": data.judgements_per_item_figure(ann),
        "label_distribution_figure": data.label_distribution_figure(ann),
        "confusion_heatmaps": ds.confusion_heatmaps(result, list(ann.annotators)),
        "prevalence_figure": ds.prevalence_figure(result),
        "confidence_histogram": ds.confidence_histogram(result),
        "mutual_information_figure": ds.mutual_information_figure(result),
        "log_likelihood_figure": ds.log_likelihood_figure(result),
        "posterior_figure": noise.posterior_figure(noise.noise_from_annotations(ann)),
    }


def _multilabel_figures():
    ann = hostile_annotations(multilabel=True)
    pairs = ml.pairwise_am(ann)
    confusion = ml.category_pair_confusion(ann)
    disagreement = ml.category_disagreement(ann)
    gold = ml.gold_standard(ann)
    return {
        "pairwise_am_heatmap": ml.pairwise_am_heatmap(pairs),
        "pairwise_am_bars": ml.pairwise_am_bars(pairs),
        "items_by_agreement_bars": ml.items_by_agreement_bars(ml.items_by_agreement(ann)),
        "category_disagreement_heatmap": ml.category_disagreement_heatmap(disagreement),
        "category_disagreement_bars": ml.category_disagreement_bars(disagreement),
        "category_pair_confusion_heatmap": ml.category_pair_confusion_heatmap(confusion),
        "category_pair_bars": ml.category_pair_bars(confusion),
        "gold_distribution_bars": ml.gold_distribution_bars(gold),
        "expert_index_bars": ml.expert_index_bars(gold),
        "set_distance_alpha_bars": ml.set_distance_alpha_bars(ml.set_distance_alphas(ann)),
        "per_category_bars_multilabel": ag.per_category_bars(
            ag.per_category(ann, n_boot=0), "both"
        ),
        "am_bootstrap_histogram": ml.am_bootstrap_histogram(
            ml.am_bootstrap(ann, n_boot=20, seed=0)
        ),
        "per_category_figure": ds.per_category_figure(
            ds.per_category_table(ds.fit_per_category(ann))
        ),
    }


@pytest.fixture(scope="module")
def figures():
    return {**_single_label_figures(), **_multilabel_figures()}


def test_every_figure_family_is_covered(figures):
    drawn = set(figures)
    for family in (ag, ml, ds, noise):
        names = {n for n in family.__all__ if n.endswith(("_figure", "_heatmap", "_bars"))}
        names |= {n for n in family.__all__ if n.endswith(("_histogram", "_heatmaps", "_plot"))}
        names -= {"adding_annotators_figure"}  # numbers only: annotator counts and shares
        assert names <= drawn, names - drawn


def test_no_figure_carries_a_user_string_as_html(figures):
    for name, fig in figures.items():
        for path, text in _strings(fig.to_plotly_json()):
            assert not any(tag in text for tag in TAGS), (name, path, text)


def test_the_names_are_drawn_escaped(figures):
    """The escaped names are there (so the test above looked at them), on axes and in legends."""
    every = " ".join(t for fig in figures.values() for _, t in _strings(fig.to_plotly_json()))
    for name in [*HOSTILE_CATEGORIES, *HOSTILE_ANNOTATORS]:
        assert html.escape(name, quote=False) in every, name
    assert html.escape(HOSTILE_ITEM, quote=False) not in every  # no figure names an item


def test_no_user_string_is_part_of_a_template(figures):
    """A name inside a hovertemplate could hold "%{...}": names go in as data or meta."""
    for name, fig in figures.items():
        for path, text in _strings(fig.to_plotly_json()):
            if path.endswith(("hovertemplate", "texttemplate")):
                assert not any(n in text or plotly_text(n) in text for n in NAMES if len(n) > 3), (
                    name,
                    path,
                    text,
                )


def test_plotly_text_escapes_what_plotly_reads_as_markup():
    assert plotly_text("<b>a & b</b>") == "&lt;b&gt;a &amp; b&lt;/b&gt;"
    assert plotly_text("&lt;") == "&amp;lt;"  # an entity in a name stays the text "&lt;"
    assert plotly_labels(["<i>", 2, 0.5]) == ["&lt;i&gt;", 2, 0.5]
