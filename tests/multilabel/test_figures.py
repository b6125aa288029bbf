"""Figures for the multi-label measures: titles, axis titles, and words for empty input."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from analytics import Annotations
from analytics import agreement as ag
from analytics import multilabel as ml
from analytics.multilabel import figures as mf
from tests.helpers.builders import from_array, random_data


def _figures(ann: Annotations) -> dict[str, go.Figure]:
    pairs = ml.pairwise_am(ann)
    dis = ml.category_disagreement(ann)
    conf = ml.category_pair_confusion(ann)
    gold = ml.gold_standard(ann)
    return {
        "pairwise_heatmap": mf.pairwise_am_heatmap(pairs),
        "pairwise_bars": mf.pairwise_am_bars(pairs),
        "bands": mf.items_by_agreement_bars(ml.items_by_agreement(ann)),
        "dis_heatmap": mf.category_disagreement_heatmap(dis),
        "dis_bars": mf.category_disagreement_bars(dis),
        "conf_heatmap": mf.category_pair_confusion_heatmap(conf),
        "conf_bars": mf.category_pair_bars(conf),
        "gold": mf.gold_distribution_bars(gold),
        "rho": mf.expert_index_bars(gold),
        "per_category": ag.per_category_bars(ag.per_category(ann, n_boot=0), measure="both"),
        "bootstrap": mf.am_bootstrap_histogram(ml.am_bootstrap(ann, n_boot=50)),
        "alpha": mf.set_distance_alpha_bars(
            pd.DataFrame({"distance": ["masi", "dice"], "alpha": [0.4, 0.5], "note": ["", ""]})
        ),
    }


def test_every_figure_has_a_title_axis_titles_and_data():
    x, judged = random_data(2, n_i=40, n_u=3, n_c=4, p=0.4)
    for name, fig in _figures(from_array(x, judged)).items():
        assert fig.layout.title.text, name
        assert fig.layout.xaxis.title.text and fig.layout.yaxis.title.text, name
        assert len(fig.data) >= 1, name


def test_table_5_heatmap_is_triangular_and_table_2_diverging_around_zero():
    x, judged = random_data(3, n_i=40, n_u=3, n_c=4, p=0.4)
    figs = _figures(from_array(x, judged))
    z = np.array(figs["conf_heatmap"].data[0].z, dtype=float)
    assert np.isnan(z[np.tril_indices(4)]).all() and np.isfinite(z[np.triu_indices(4, 1)]).all()
    heat = figs["pairwise_heatmap"].data[0]
    assert heat.zmid == 0 and heat.zmin == -1 and heat.zmax == 1


@pytest.mark.parametrize(
    "frame",
    [
        pd.DataFrame({"item": ["1", "2"], "annotator": ["a", "b"], "label": [{"x"}, {"y"}]}),
        pd.DataFrame({"item": ["1", "1"], "annotator": ["a", "b"], "label": [{"x"}, {"x"}]}),
    ],
)
def test_degenerate_input_gives_words_not_a_blank_chart(frame):
    ann = Annotations.from_frame(frame, kind="multilabel")
    figs = _figures(ann)
    explained = [n for n, f in figs.items() if len(f.data) == 0]
    assert explained  # some figures have nothing to draw ...
    for name in explained:  # ... and say why
        assert figs[name].layout.annotations and figs[name].layout.annotations[0].text, name


def test_pairwise_heatmap_of_a_crowd_draws_the_annotators_sharing_most_items():
    names = [f"a{k}" for k in range(8)]
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    # a0 and a1 share most items with everyone: they, and then a2, must be drawn
    n_items = [10 if "a0" in p or "a1" in p else (5 if "a2" in p else 1) for p in pairs]
    table = pd.DataFrame(
        {
            "annotator_a": [p[0] for p in pairs],
            "annotator_b": [p[1] for p in pairs],
            "n_items": n_items,
            "p_o": 0.5,
            "p_e": 0.25,
            "a_m": np.linspace(-0.5, 0.9, len(pairs)),
            "note": "",
        }
    )
    fig = mf.pairwise_am_heatmap(table, max_annotators=3)
    assert list(fig.data[0].x) == ["a0", "a1", "a2"]
    assert "(the 3 sharing most items, of 8 annotators)" in fig.layout.title.text
    # the drawn cells keep their values: a0 with a1 is the first pair
    assert fig.data[0].z[0][1] == pytest.approx(table["a_m"][0])
    assert len(mf.pairwise_am_heatmap(table).data[0].x) == 8  # under the cap: everyone
