"""How much do the annotators agree? Chance-corrected agreement coefficients.

Krippendorff's alpha with any distance, Cohen's and Conger's kappa, Scott's pi, Fleiss'
kappa, Gwet's AC1/AC2, Brennan-Prediger and percent agreement, with bootstrap or analytic
intervals (:func:`agreement_report`), per-category, per-pair and per-item views, a
plain-language reading, and the figures that show them. This module is the family's
public face; its modules are:

- ``prepared``: the :class:`Coefficient` type and the data every coefficient starts from;
- ``chance``: chance agreement of the Fleiss family and agreement beyond chance;
- ``coefficients``: percent agreement and the kappa-type coefficients;
- ``annotator_pairs``: two-annotator coefficients and their mean over pairs;
- ``krippendorff`` (on the ``coincidence`` engine) and ``set_distances``: alpha;
- ``report``: :func:`agreement_report`; ``tables``: per category, pairwise, per item;
- ``reading``: the plain-language reading; ``paradox``: the kappa paradox;
- ``figures``: the plotly figures (they draw, they compute nothing);
- ``on_engine``: the same coefficients of judgements held by DuckDB or Spark.
"""

from __future__ import annotations

from analytics.agreement import on_engine  # noqa: F401 (registers the engine answers)
from analytics.agreement.chance import beyond_chance, chance_agreement
from analytics.agreement.coefficients import (
    brennan_prediger,
    cohen_kappa,
    conger_kappa,
    fleiss_kappa,
    gwet_ac1,
    percent_agreement,
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
from analytics.agreement.krippendorff import default_distance, distance_options, krippendorff_alpha
from analytics.agreement.paradox import KappaParadox, kappa_paradox
from analytics.agreement.prepared import Coefficient
from analytics.agreement.reading import CAVEAT, band, reading
from analytics.agreement.report import COEFFICIENTS, agreement_report, bootstrap_cost
from analytics.agreement.set_distances import (
    SET_DISTANCES,
    dice,
    distance_matrix,
    jaccard,
    masi,
    passonneau,
)
from analytics.agreement.tables import (
    ItemAgreementSummary,
    Pairwise,
    agreement_levels,
    contingency,
    item_agreement,
    item_agreement_summary,
    pairwise,
    per_category,
)

__all__ = [
    "CAVEAT",
    "COEFFICIENTS",
    "SET_DISTANCES",
    "Coefficient",
    "ItemAgreementSummary",
    "KappaParadox",
    "Pairwise",
    "agreement_levels",
    "agreement_report",
    "band",
    "beyond_chance",
    "bootstrap_cost",
    "brennan_prediger",
    "chance_agreement",
    "cohen_kappa",
    "conger_kappa",
    "contingency",
    "contingency_heatmap",
    "default_distance",
    "dice",
    "distance_matrix",
    "distance_options",
    "fleiss_kappa",
    "forest_plot",
    "gwet_ac1",
    "item_agreement",
    "item_agreement_histogram",
    "item_agreement_summary",
    "jaccard",
    "kappa_paradox",
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
