"""Multi-label functions on degenerate data: no categories, only empty sets, one annotator.

Every public function of :mod:`analytics.multilabel` and every figure of
:mod:`analytics.multilabel.figures` must answer (NaN with a reason, empty tables,
figures that say why they are empty) and never raise on such data.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from analytics import Annotations, format_number
from analytics import agreement as ag
from analytics import multilabel as ml
from analytics.multilabel import figures as mf

FOUR = {"item": ["s1", "s1", "s2", "s2"], "annotator": ["a", "b", "a", "b"]}


def _all_empty(categories: list[str] | None = None) -> Annotations:
    """Two annotators give the empty set ``{}`` to two items (as a CSV file would spell it)."""
    df = pd.DataFrame({**FOUR, "label": ["{}"] * 4})
    return Annotations.from_frame(df, kind="multilabel", multilabel_sep=";", categories=categories)


def _one_annotator() -> Annotations:
    df = pd.DataFrame(
        {"item": ["s1", "s2", "s3"], "annotator": ["a"] * 3, "label": ["x;y", "x", "{}"]}
    )
    return Annotations.from_frame(df, kind="multilabel", multilabel_sep=";")


DEGENERATE = {
    "no categories, all empty": lambda: _all_empty(),
    "one category, all empty": lambda: _all_empty(["x"]),
    "two categories, all empty": lambda: _all_empty(["x", "y"]),
    "one annotator": _one_annotator,
    "no categories, one annotator": lambda: Annotations.from_frame(
        pd.DataFrame({"item": ["s1", "s2"], "annotator": ["a", "a"], "label": ["{}", "{}"]}),
        kind="multilabel",
        multilabel_sep=";",
    ),
}


def _everything(ann: Annotations) -> tuple[dict[str, object], dict[str, go.Figure]]:
    results: dict[str, object] = {
        "am": ml.am_agreement(ann),
        "am4": ml.am_agreement_unclubbed(ann),
        "boot": ml.am_bootstrap(ann, n_boot=20),
        "pairs": ml.pairwise_am(ann),
        "items": ml.am_item_agreement(ann),
        "bands": ml.items_by_agreement(ann),
        "disagreement": ml.category_disagreement(ann),
        "confusion": ml.category_pair_confusion(ann),
        "per_category": ag.per_category(ann, n_boot=0),
        "pair_types": ml.set_pair_types(ann),
        "alphas": ml.set_distance_alphas(ann),
        "gold": ml.gold_standard(ann),
    }
    results["gold_frame"] = results["gold"].to_frame()
    results["summary"] = ml.am_summary(results["am"], results["am4"])
    results["reading"] = ml.am_reading(results["am"].a_m)
    results["lowest"] = ml.lowest_pair(results["pairs"])
    results["shown"] = format_number(results["am"].a_m)
    results["sentence"] = ml.set_distance_sentence(results["pair_types"], results["alphas"])
    gold = results["gold"]
    figures = {
        "pairwise_heatmap": mf.pairwise_am_heatmap(results["pairs"]),
        "pairwise_bars": mf.pairwise_am_bars(results["pairs"]),
        "bands": mf.items_by_agreement_bars(results["bands"]),
        "dis_heatmap": mf.category_disagreement_heatmap(results["disagreement"]),
        "dis_bars": mf.category_disagreement_bars(results["disagreement"]),
        "conf_heatmap": mf.category_pair_confusion_heatmap(results["confusion"]),
        "conf_bars": mf.category_pair_bars(results["confusion"]),
        "gold": mf.gold_distribution_bars(gold),
        "rho": mf.expert_index_bars(gold),
        "per_category": ag.per_category_bars(results["per_category"], measure="both"),
        "bootstrap": mf.am_bootstrap_histogram(results["boot"]),
        "alpha": mf.set_distance_alpha_bars(results["alphas"]),
    }
    return results, figures


def _message(fig: go.Figure) -> str:
    return " ".join(a.text or "" for a in fig.layout.annotations)


def _draws_something(fig: go.Figure) -> bool:
    """At least one trace with a finite number in it (a real chart, not a blank frame)."""
    for trace in fig.data:
        for attr in ("z", "y", "x"):
            values = getattr(trace, attr, None)
            if values is None:
                continue
            arr = pd.to_numeric(
                pd.Series(np.asarray(values, dtype=object).ravel()), errors="coerce"
            )
            if np.isfinite(arr.to_numpy(dtype=float)).any():
                return True
    return False


def test_every_public_name_is_exercised():
    called = {
        "am_agreement",
        "am_agreement_unclubbed",
        "am_bootstrap",
        "pairwise_am",
        "am_item_agreement",
        "items_by_agreement",
        "category_disagreement",
        "category_pair_confusion",
        "set_pair_types",
        "set_distance_alphas",
        "gold_standard",
        "set_distance_sentence",
        "am_summary",
        "am_reading",
        "lowest_pair",
    }
    functions = {
        n for n in ml.__all__ if callable(getattr(ml, n)) and n[0].islower() and n not in mf.__all__
    }
    assert functions <= called
    assert {n for n in mf.__all__} <= {
        "pairwise_am_heatmap",
        "pairwise_am_bars",
        "items_by_agreement_bars",
        "category_disagreement_heatmap",
        "category_disagreement_bars",
        "category_pair_confusion_heatmap",
        "category_pair_bars",
        "gold_distribution_bars",
        "expert_index_bars",
        "per_category_bars",
        "am_bootstrap_histogram",
        "set_distance_alpha_bars",
    }


@pytest.mark.parametrize("name", list(DEGENERATE))
def test_degenerate_data_never_raise_and_every_figure_explains_itself(name):
    ann = DEGENERATE[name]()
    results, figures = _everything(ann)
    assert np.isnan(results["am"].a_m) and results["am"].reason
    assert np.isnan(results["am4"].a_m) and results["am4"].reason
    assert np.isnan(results["boot"].low) and results["boot"].reason
    assert results["summary"] == "" and results["reading"] == "undefined"
    assert results["lowest"] == "" and results["shown"] == "—"
    for fig_name, fig in figures.items():
        assert fig.layout.title.text, (name, fig_name)
        assert _draws_something(fig) or _message(fig).strip(), (name, fig_name)
        assert not _message(fig).rstrip().endswith(":"), (name, fig_name, _message(fig))


def test_gold_standard_of_all_empty_sets_without_categories():
    gold = ml.gold_standard(_all_empty())
    assert gold.matrix.shape == (2, 0)
    assert gold.labels.tolist() == [frozenset(), frozenset()]
    assert gold.ties.empty
    assert gold.expert_index.tolist() == [0, 0]
    frame = gold.to_frame()
    assert frame["item"].tolist() == ["s1", "s2"]
    assert frame["labels"].tolist() == ["{}", "{}"]
    assert frame["tie_broken"].tolist() == ["", ""] and frame["unresolved"].tolist() == ["", ""]


def test_gold_standard_to_frame_with_categories_but_no_item():
    """Items x 0 or 0 x categories: to_frame still gives the four columns."""
    gold = ml.gold_standard(_all_empty(["x", "y"]))
    assert gold.to_frame()["labels"].tolist() == ["{}", "{}"]
    assert gold.labels.tolist() == [frozenset(), frozenset()]


def test_no_categories_figures_say_so_not_something_untrue():
    """Two annotators judged the same items here: figures must blame the categories."""
    _, figures = _everything(_all_empty())
    for fig_name in (
        "pairwise_heatmap",
        "pairwise_bars",
        "dis_heatmap",
        "dis_bars",
        "gold",
        "per_category",
        "conf_heatmap",
    ):
        text = _message(figures[fig_name])
        assert "categor" in text, (fig_name, text)
        assert "No two annotators" not in text and "No items" not in text, (fig_name, text)
    assert _message(figures["rho"]), "all-zero expert indices need a word of explanation"


def test_fewer_than_two_categories_keep_the_annotator_pairs_with_a_note():
    for ann in (_all_empty(), _all_empty(["x"])):
        pairs = ml.pairwise_am(ann)
        assert pairs[["annotator_a", "annotator_b"]].values.tolist() == [["a", "b"]]
        assert pairs["n_items"].tolist() == [2]
        assert pairs["a_m"].isna().all() and "two categories" in pairs["note"].iloc[0]


def test_no_pairs_sentence_does_not_claim_identical_sets():
    ann = _one_annotator()
    sentence = ml.set_distance_sentence(ml.set_pair_types(ann), ml.set_distance_alphas(ann))
    assert "identical" not in sentence
    assert "two or more annotators" in sentence


@pytest.mark.parametrize("a_m", [-0.2, 0.0, 0.3, 0.428, 0.6669, 0.667, 0.75, 0.7999, 0.8, 1.0])
def test_am_reading_says_the_verdict_of_the_severity_rule(a_m):
    """One voice: the reading's first word is the verdict the page colours A_m by."""
    from analytics.overview import judge

    words = ml.am_reading(a_m)
    assert words.startswith(judge("agreement", a_m).label + ":")
    assert "moderate" not in words
    assert ("no agreement beyond chance" in words) == (a_m <= 0)
