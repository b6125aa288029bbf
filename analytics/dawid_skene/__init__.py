"""Dawid & Skene (1979): each annotator's confusion matrix and each item's most likely label."""

from __future__ import annotations

from analytics.dawid_skene.em import INIT_METHODS, category_codes, majority_posteriors
from analytics.dawid_skene.figures import (
    PICKS,
    confidence_histogram,
    confusion_heatmaps,
    log_likelihood_figure,
    mutual_information_figure,
    pick_annotators,
    prevalence_figure,
)
from analytics.dawid_skene.information import mutual_information
from analytics.dawid_skene.model import DawidSkeneResult, fit, log_likelihood, posterior
from analytics.dawid_skene.reports import (
    annotator_information,
    annotator_table,
    confident_share,
    gold_accuracy,
    gold_labels_table,
    item_judgements,
    majority_agreement,
    prevalence_comparison,
    spammer_scores,
)

__all__ = [
    "INIT_METHODS",
    "PICKS",
    "DawidSkeneResult",
    "annotator_information",
    "annotator_table",
    "category_codes",
    "confidence_histogram",
    "confident_share",
    "confusion_heatmaps",
    "fit",
    "gold_accuracy",
    "gold_labels_table",
    "item_judgements",
    "log_likelihood",
    "log_likelihood_figure",
    "majority_agreement",
    "majority_posteriors",
    "mutual_information",
    "mutual_information_figure",
    "pick_annotators",
    "posterior",
    "prevalence_comparison",
    "prevalence_figure",
    "spammer_scores",
]
