"""Annotator models: each item's most likely label and each annotator's errors, by model.

No single annotator model wins on every crowd: full-confusion Dawid-Skene overfits
annotators who gave few labels, one-coin models underfit annotators with real biases.
This family fits several behind one interface.

- :func:`fit`: fit one model by name (:data:`MODELS`); every model returns a
  :class:`ModelResult`, which has every field of
  :class:`~analytics.dawid_skene.DawidSkeneResult` (posteriors, confusion matrices,
  prevalence, log-likelihood trace) plus ``model`` and ``parameters``;
  ``fit(ann)`` (``model="auto"``) stacks the models with the weights that best predict
  held-out judgements, without gold (:func:`stacking_weights`).
- :func:`compare`: every model's held-out predictive log-likelihood (item-grouped
  cross-validation), parameters, fit time and, with gold, accuracy with a bootstrap
  interval; :func:`choose`: the rule ``"auto"`` applies to that table.
- Evaluation against partial gold: :func:`gold_table` (accuracy of every model with an
  interval, mean confidence, calibration error), :func:`annotator_gold_accuracy`,
  :func:`calibration` (reliability-diagram table), :func:`best_calibrated` and
  :func:`expected_calibration_error`.
- Uncertainty of the model itself: :func:`bootstrap` (item bootstrap of the whole fit:
  intervals for annotator accuracy, confusion entries, prevalence; label change rates).
- Figures and views: :func:`comparison_figure`, :func:`calibration_figure`,
  :func:`accuracy_intervals_figure`, :func:`disagreements` (items where models differ);
  for a page: :func:`applicable_models`, :func:`refuse_scale` (numbers on a scale have
  no categories to model), :func:`comparison_with_gold`,
  :func:`split_notes`, :func:`plain_settings` (and :func:`settings_table`, the same to read), :func:`stack_parts` (a stack's models
  and their own fits).

References
----------
Passonneau, R. J. and Carpenter, B. (2014). The benefits of a model of annotation.
*TACL* 2, 311-326, section 2.2.3 (priors, hierarchical models, estimation uncertainty).
Each model's own paper is cited in its function's docstring.
"""

from __future__ import annotations

from analytics.data import refuse_scale  # the models' refusal of scores on a scale
from analytics.models.evaluation import (
    accuracy_interval,
    annotator_gold_accuracy,
    best_calibrated,
    bootstrap_accuracy,
    calibration,
    expected_calibration_error,
    gold_table,
)
from analytics.models.figures import (
    ALARM_WORDS,
    SETTING_MEANINGS,
    accuracy_intervals_figure,
    calibration_figure,
    comparison_figure,
    comparison_with_gold,
    disagreements,
    plain_settings,
    settings_table,
    split_notes,
    stack_parts,
)
from analytics.models.fitting import fit
from analytics.models.registry import MODELS, applicable_models
from analytics.models.result import ModelResult
from analytics.models.selection import choose, compare, n_parameters
from analytics.models.simple import one_coin_confusion
from analytics.models.stacking import stacking_weights
from analytics.models.uncertainty import Uncertainty, bootstrap

__all__ = [
    "ALARM_WORDS",
    "MODELS",
    "SETTING_MEANINGS",
    "ModelResult",
    "Uncertainty",
    "accuracy_interval",
    "accuracy_intervals_figure",
    "annotator_gold_accuracy",
    "applicable_models",
    "best_calibrated",
    "bootstrap",
    "bootstrap_accuracy",
    "calibration",
    "calibration_figure",
    "choose",
    "compare",
    "comparison_figure",
    "comparison_with_gold",
    "disagreements",
    "expected_calibration_error",
    "fit",
    "gold_table",
    "n_parameters",
    "one_coin_confusion",
    "plain_settings",
    "refuse_scale",
    "settings_table",
    "split_notes",
    "stack_parts",
    "stacking_weights",
]
