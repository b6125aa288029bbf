"""Agreement on label sets: Bhowmick et al.'s A_m, where annotators disagree, the gold
standard of label sets, and Krippendorff's alpha with set distances.

The family's public face: import from here, not from the modules.

- the coefficient: :func:`am_agreement` (:class:`AmResult`), :func:`am_agreement_unclubbed`,
  :func:`pairwise_am`, and its interval :func:`am_bootstrap` (:class:`AmInterval`);
- where annotators disagree: :func:`am_item_agreement`, :func:`items_by_agreement`,
  :func:`category_disagreement`, :func:`category_pair_confusion`;
- alpha with set distances: :func:`set_distance_alphas`, :func:`set_pair_types`,
  :func:`set_distance_sentence`;
- the gold standard of label sets: :func:`gold_standard` (:class:`LabelSetGoldStandard`);
- plain words for pages and reports: :func:`am_reading`, :func:`am_summary`,
  :func:`lowest_pair`;
- figures: :mod:`analytics.multilabel.figures` (also re-exported here).

Per-category kappa and alpha on multi-label data are :func:`analytics.agreement.per_category`.

>>> from analytics import load_annotations, multilabel as ml
>>> ann = load_annotations("sample_data/affect_multilabel.csv", multilabel_sep=";")
>>> res = ml.am_agreement(ann)
>>> 0 < res.p_e < res.p_o < 1, res.reason
(True, '')
"""

from __future__ import annotations

from analytics.multilabel.am import (
    AmResult,
    am_agreement,
    am_agreement_unclubbed,
    pairwise_am,
)
from analytics.multilabel.figures import (
    am_bootstrap_histogram,
    category_disagreement_bars,
    category_disagreement_heatmap,
    category_pair_bars,
    category_pair_confusion_heatmap,
    expert_index_bars,
    gold_distribution_bars,
    items_by_agreement_bars,
    pairwise_am_bars,
    pairwise_am_heatmap,
    set_distance_alpha_bars,
)
from analytics.multilabel.gold import LabelSetGoldStandard, gold_standard
from analytics.multilabel.interval import AmInterval, am_bootstrap
from analytics.multilabel.reading import am_reading, am_summary, lowest_pair
from analytics.multilabel.tables import (
    PAPER_BINS,
    am_item_agreement,
    category_disagreement,
    category_pair_confusion,
    items_by_agreement,
    set_distance_alphas,
    set_distance_sentence,
    set_pair_types,
)

__all__ = [
    "PAPER_BINS",
    "AmInterval",
    "AmResult",
    "LabelSetGoldStandard",
    "am_agreement",
    "am_agreement_unclubbed",
    "am_bootstrap",
    "am_bootstrap_histogram",
    "am_item_agreement",
    "am_reading",
    "am_summary",
    "category_disagreement",
    "category_disagreement_bars",
    "category_disagreement_heatmap",
    "category_pair_bars",
    "category_pair_confusion",
    "category_pair_confusion_heatmap",
    "expert_index_bars",
    "gold_distribution_bars",
    "gold_standard",
    "items_by_agreement",
    "items_by_agreement_bars",
    "lowest_pair",
    "pairwise_am",
    "pairwise_am_bars",
    "pairwise_am_heatmap",
    "set_distance_alpha_bars",
    "set_distance_alphas",
    "set_distance_sentence",
    "set_pair_types",
]
