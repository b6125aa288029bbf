"""How much do the annotators agree? Chance-corrected agreement coefficients.

Krippendorff's alpha with any distance, Cohen's and Conger's kappa, Scott's pi, Fleiss'
kappa, Gwet's AC1/AC2, Brennan-Prediger and percent agreement, with bootstrap or analytic
intervals (:func:`agreement_report`), per-category, per-pair and per-item views, a
plain-language reading, and the figures that show them.
"""

from __future__ import annotations

from analytics.agreement.coefficients import (
    CAVEAT,
    COEFFICIENTS,
    Coefficient,
    Pairwise,
    agreement_levels,
    agreement_report,
    band,
    brennan_prediger,
    cohen_kappa,
    conger_kappa,
    contingency,
    default_distance,
    fleiss_kappa,
    gwet_ac1,
    item_agreement,
    krippendorff_alpha,
    pairwise,
    per_category,
    percent_agreement,
    reading,
    scott_pi,
)
from analytics.agreement.figures import (
    contingency_heatmap,
    forest_plot,
    item_agreement_histogram,
    kappa_paradox_figure,
    pairwise_heatmap,
    per_category_bars,
)
from analytics.agreement.set_distances import (
    SET_DISTANCES,
    dice,
    distance_matrix,
    jaccard,
    masi,
    passonneau,
)

__all__ = [
    "CAVEAT",
    "COEFFICIENTS",
    "SET_DISTANCES",
    "Coefficient",
    "Pairwise",
    "agreement_levels",
    "agreement_report",
    "band",
    "brennan_prediger",
    "cohen_kappa",
    "conger_kappa",
    "contingency",
    "contingency_heatmap",
    "default_distance",
    "dice",
    "distance_matrix",
    "fleiss_kappa",
    "forest_plot",
    "gwet_ac1",
    "item_agreement",
    "item_agreement_histogram",
    "jaccard",
    "kappa_paradox_figure",
    "krippendorff_alpha",
    "masi",
    "pairwise",
    "pairwise_heatmap",
    "passonneau",
    "per_category",
    "per_category_bars",
    "percent_agreement",
    "reading",
    "scott_pi",
]
