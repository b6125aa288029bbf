"""Dawid & Skene (1979): each annotator's confusion matrix and each item's most likely label.

- :func:`fit`: the model by EM (Dawid & Skene 1979; Passonneau & Carpenter 2014,
  section 2.2); :func:`posterior`: Bayes' rule for one item from given parameters;
  :func:`log_likelihood`: the objective at given parameters.
- Reading a fit: :func:`annotator_table`, :func:`annotator_information`,
  :func:`prevalence_comparison`, :func:`confident_share`, :func:`majority_agreement`,
  :func:`fit_summary`, :func:`item_judgements`, :func:`uncertain_items`.
- The EM engine for other annotator models (:mod:`analytics.models`): :class:`EMEngine`,
  :func:`design_matrix`, :func:`gold_codes`, :func:`data_notes`, :func:`best_run`,
  :func:`saddle_notes`.
- Multi-label data: :func:`fit_per_category` (one yes/no model per category, from
  :func:`category_yes_no`), read with :func:`per_category_table`,
  :func:`per_category_labels` and :func:`per_category_figure`, and scored against true
  label sets with :func:`per_category_gold`.
- :func:`mutual_information`: bits one label carries about the true category
  (section 2.2.2).
- Figures: :func:`confusion_heatmaps`, :func:`prevalence_figure`,
  :func:`confidence_histogram`, :func:`mutual_information_figure`,
  :func:`log_likelihood_figure`.

Which "gold" is which: :func:`model_labels_table` holds the **model's labels** (inferred,
with confidence; the app's "gold labels with confidence" download). The **known gold**
is the true labels a user already has: ``fit(..., gold=...)`` clamps them and
:func:`gold_accuracy` scores against them. The multi-label **expert gold standard** is
another thing: :func:`analytics.multilabel.gold_standard`.
"""

from __future__ import annotations

from analytics.dawid_skene import on_engine  # noqa: F401 (registers the engine answer)
from analytics.dawid_skene.bayes import posterior
from analytics.dawid_skene.em import (
    INIT_METHODS,
    EMEngine,
    EMRun,
    category_codes,
    data_notes,
    design_matrix,
    gold_codes,
    majority_posteriors,
)
from analytics.dawid_skene.figures import (
    PICKS,
    confidence_histogram,
    confusion_heatmaps,
    log_likelihood_figure,
    mutual_information_figure,
    pick_annotators,
    prevalence_figure,
)
from analytics.dawid_skene.gold import gold_series, gold_within
from analytics.dawid_skene.information import mutual_information
from analytics.dawid_skene.labels import (
    gold_accuracy,
    item_judgements,
    model_labels_table,
    uncertain_items,
)
from analytics.dawid_skene.model import DawidSkeneResult, fit, log_likelihood
from analytics.dawid_skene.on_engine import ENGINE_STARTS
from analytics.dawid_skene.on_engine import ITEMS_SHOWN as ENGINE_ITEMS_SHOWN
from analytics.dawid_skene.per_category import (
    category_yes_no,
    fit_per_category,
    per_category_figure,
    per_category_gold,
    per_category_labels,
    per_category_table,
)
from analytics.dawid_skene.reports import (
    FitSummary,
    annotator_information,
    annotator_table,
    confident_share,
    fit_summary,
    majority_agreement,
    prevalence_comparison,
    spammer_scores,
)
from analytics.dawid_skene.starts import best_run, saddle_notes

__all__ = [
    "ENGINE_ITEMS_SHOWN",
    "ENGINE_STARTS",
    "INIT_METHODS",
    "PICKS",
    "DawidSkeneResult",
    "EMEngine",
    "EMRun",
    "FitSummary",
    "annotator_information",
    "annotator_table",
    "best_run",
    "category_codes",
    "category_yes_no",
    "confidence_histogram",
    "confident_share",
    "confusion_heatmaps",
    "data_notes",
    "design_matrix",
    "fit",
    "fit_per_category",
    "fit_summary",
    "gold_accuracy",
    "gold_codes",
    "gold_series",
    "gold_within",
    "item_judgements",
    "log_likelihood",
    "log_likelihood_figure",
    "majority_agreement",
    "majority_posteriors",
    "model_labels_table",
    "mutual_information",
    "mutual_information_figure",
    "per_category_figure",
    "per_category_gold",
    "per_category_labels",
    "per_category_table",
    "pick_annotators",
    "posterior",
    "prevalence_comparison",
    "prevalence_figure",
    "saddle_notes",
    "spammer_scores",
    "uncertain_items",
]
