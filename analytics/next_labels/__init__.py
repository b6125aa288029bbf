"""Next labels: which items to send for another judgement, and how many labels are enough.

Passonneau & Carpenter (2014), section 6: a model of annotation plus a decision rule for
which item to label next (Sheng, Provost & Ipeirotis 2008), with mutual information as
the criterion (MacKay 1992). Works on any fitted annotator model that carries
``posteriors``, ``prevalence`` and per-annotator confusion matrices
(:func:`analytics.dawid_skene.fit` and every model of :func:`analytics.models.fit`).

- :func:`expected_gain`: bits one more judgement is expected to tell about each item.
- :func:`next_batch`: the judgements to ask for next, greedily by expected gain with the
  batch effect (an item is re-scored once it has a planned judgement).
- :func:`plan`: expected accuracy with k judgements per item (or k more on the items at
  hand), by simulation from the fit, with an interval; how many reach a target.
- :func:`replay`: an offline test of the strategies on data with many judgements per
  item (accuracy versus judgements used); :func:`judgements_needed` (and
  :func:`replay_summary`, with the ratio to random) reads off what each
  strategy needs to reach an accuracy; :func:`pooled_confusion` shrinks the annotators'
  confusion matrices toward the crowd's for the gain (``replay(confusion="pooled")``).
- Exports of a batch: :func:`batch_csv`, :func:`label_studio_tasks`,
  :func:`mturk_input_csv`.
- Figures: :func:`accuracy_curve_figure`, :func:`replay_figure`.
"""

from __future__ import annotations

from analytics.next_labels.batch import STRATEGIES
from analytics.next_labels.export import (
    EXPORT_FORMATS,
    batch_csv,
    label_studio_tasks,
    mturk_input_csv,
)
from analytics.next_labels.figures import accuracy_curve_figure, replay_figure
from analytics.next_labels.gain import PICKS, expected_gain
from analytics.next_labels.planning import Plan, plan
from analytics.next_labels.replay import (
    REPLAY_COLUMNS,
    judgements_needed,
    pooled_confusion,
    replay,
    replay_summary,
)
from analytics.next_labels.selection import BATCH_COLUMNS, next_batch

__all__ = [
    "BATCH_COLUMNS",
    "EXPORT_FORMATS",
    "PICKS",
    "REPLAY_COLUMNS",
    "STRATEGIES",
    "Plan",
    "accuracy_curve_figure",
    "batch_csv",
    "expected_gain",
    "judgements_needed",
    "label_studio_tasks",
    "mturk_input_csv",
    "next_batch",
    "plan",
    "pooled_confusion",
    "replay",
    "replay_figure",
    "replay_summary",
]
