"""How much do the annotators agree? Chance-corrected agreement coefficients.

Krippendorff's alpha with any distance, Cohen's and Conger's kappa, Scott's pi, Fleiss'
kappa, Gwet's AC1/AC2, Brennan-Prediger and percent agreement, with bootstrap or analytic
intervals (:func:`agreement_report`), per-category, per-pair and per-item views, a
plain-language reading, and the figures that show them. This module is the family's
public face; its modules are:

- ``prepared``: the :class:`Coefficient` type and the data every coefficient starts from;
- ``weights``: ``weights=`` for every weighted coefficient (:data:`WEIGHT_FAMILIES`);
- ``chance``: chance agreement of the Fleiss family and agreement beyond chance;
- ``coefficients``: percent agreement and the kappa-type coefficients;
- ``annotator_pairs``: two-annotator coefficients and their mean over pairs;
- ``krippendorff`` (on the ``coincidence`` engine) and ``set_distances``: alpha;
- ``count_tables``: :func:`count_table_agreement`, the coefficients of a count table;
- ``report``: :func:`agreement_report`; ``categories``: per category; ``tables``: pairwise,
  per item;
- ``reading``: the plain-language reading; ``paradox``: the kappa paradox;
- ``figures``: the plotly figures (they draw, they compute nothing);
- ``on_engine``: the same coefficients of judgements held by DuckDB or Spark.
"""

from __future__ import annotations

from analytics.agreement import on_engine  # noqa: F401 (registers the engine answers)
from analytics.agreement.categories import per_category
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
from analytics.agreement.count_tables import count_table_agreement
from analytics.agreement.figures import (
    contingency_heatmap,
    forest_plot,
    item_agreement_histogram,
    kappa_paradox_figure,
    pairwise_heatmap,
    per_category_bars,
)
from analytics.agreement.krippendorff import (
    check_distance,
    default_distance,
    distance_options,
    krippendorff_alpha,
)
from analytics.agreement.ordering import ORDERS, annotator_order, pairwise_window
from analytics.agreement.paradox import KappaParadox, kappa_max, kappa_paradox
from analytics.agreement.prepared import Coefficient
from analytics.agreement.reading import CAVEAT, band, reading, shown_value
from analytics.agreement.report import COEFFICIENTS, agreement_report, bootstrap_cost
from analytics.agreement.set_distances import (
    DKPRO_SET_DISTANCES,
    SET_DISTANCES,
    dice,
    distance_matrix,
    jaccard,
    masi,
    masi_dkpro,
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
)
from analytics.agreement.weights import WEIGHT_FAMILIES, weight_matrix

__all__ = [
    "CAVEAT",
    "COEFFICIENTS",
    "DKPRO_SET_DISTANCES",
    "ORDERS",
    "SET_DISTANCES",
    "WEIGHT_FAMILIES",
    "Coefficient",
    "ItemAgreementSummary",
    "KappaParadox",
    "Pairwise",
    "agreement_levels",
    "agreement_report",
    "annotator_order",
    "band",
    "beyond_chance",
    "bootstrap_cost",
    "brennan_prediger",
    "chance_agreement",
    "check_distance",
    "cohen_kappa",
    "conger_kappa",
    "contingency",
    "contingency_heatmap",
    "count_table_agreement",
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
    "kappa_max",
    "kappa_paradox",
    "kappa_paradox_figure",
    "krippendorff_alpha",
    "masi",
    "masi_dkpro",
    "pairwise",
    "pairwise_heatmap",
    "pairwise_window",
    "passonneau",
    "per_category",
    "per_category_bars",
    "percent_agreement",
    "reading",
    "scott_pi",
    "shown_value",
    "weight_matrix",
]
