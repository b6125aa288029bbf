"""Agreement on label sets: Bhowmick et al.'s A_m, set distances and the expert gold standard.
"""

from __future__ import annotations

from analytics.multilabel.am import (
    AmInterval,
    AmResult,
    am_agreement,
    am_agreement_unclubbed,
    am_bootstrap,
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
    per_category_bars,
    set_distance_alpha_bars,
)
from analytics.multilabel.gold import (
    GoldStandard,
    gold_standard,
)
from analytics.multilabel.tables import (
    PAPER_BINS,
    category_disagreement,
    category_pair_confusion,
    item_agreement,
    items_by_agreement,
    per_category_agreement,
    set_distance_alphas,
    set_distance_sentence,
    set_pair_types,
)

__all__ = [
    "PAPER_BINS",
    "AmInterval",
    "AmResult",
    "GoldStandard",
    "am_agreement",
    "am_agreement_unclubbed",
    "am_bootstrap",
    "am_bootstrap_histogram",
    "category_disagreement",
    "category_disagreement_bars",
    "category_disagreement_heatmap",
    "category_pair_bars",
    "category_pair_confusion",
    "category_pair_confusion_heatmap",
    "expert_index_bars",
    "gold_distribution_bars",
    "gold_standard",
    "item_agreement",
    "items_by_agreement",
    "items_by_agreement_bars",
    "pairwise_am",
    "pairwise_am_bars",
    "pairwise_am_heatmap",
    "per_category_agreement",
    "per_category_bars",
    "set_distance_alpha_bars",
    "set_distance_alphas",
    "set_distance_sentence",
    "set_pair_types",
]
