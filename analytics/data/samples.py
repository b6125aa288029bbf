"""The sample data sets that ship with Concord, and how to load each one.

>>> from analytics.data.samples import load_sample
>>> ann = load_sample("crowd_intents")  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from analytics.data.loading import load_annotations
from analytics.data.model import Annotations

SAMPLE_DIR = Path(__file__).resolve().parents[2] / "sample_data"


@dataclass(frozen=True)
class Sample:
    """A sample data set: its file, how to load it, and its true labels if known."""

    key: str
    title: str
    description: str
    file: str
    options: dict[str, Any] = field(default_factory=dict)
    truth: str | None = None

    @property
    def path(self) -> Path:
        return SAMPLE_DIR / self.file


SAMPLES: dict[str, Sample] = {
    s.key: s
    for s in (
        Sample(
            "crowd_intents",
            "Crowd intents (simulated, 4 classes)",
            "300 customer messages, 20 crowd workers, 5 judgements each. Two workers are "
            "biased (w17 over-uses 'complaint', w18 mixes up 'question' and 'request') and "
            "w19 answers at random. True labels are known.",
            "crowd_intents.csv",
            truth="crowd_intents_truth.csv",
        ),
        Sample(
            "affect_multilabel",
            "Affect, multi-label (simulated, 6 emotions)",
            "300 sentences, 3 annotators on each and a fourth on about a third of them (so "
            "majority ties occur), each judgement a set of Ekman's six emotions (as in "
            "Bhowmick et al. 2008); '{}' is an explicit 'no emotion'.",
            "affect_multilabel.csv",
            options={
                "multilabel_sep": ";",
                "categories": ["anger", "disgust", "fear", "happiness", "sadness", "surprise"],
            },
            truth="affect_multilabel_truth.csv",
        ),
        Sample(
            "ratings_ordinal",
            "Answer ratings 1-5 (simulated, wide form, missing ratings)",
            "200 answers rated on a 1-5 scale by 6 raters, one column per rater; about 15% "
            "of ratings are missing and rater r6 is harsh.",
            "ratings_ordinal_wide.csv",
            options={"kind": "ordinal", "categories": [1, 2, 3, 4, 5]},
        ),
        Sample(
            "rte_snow2008",
            "RTE entailment (real: Snow et al. 2008, Mechanical Turk)",
            "800 sentence pairs from PASCAL RTE-1, 10 Mechanical Turk workers each, "
            "164 workers in all; 1 = entailed. Expert gold labels are known.",
            "rte_snow2008.csv",
            truth="rte_snow2008_gold.csv",
        ),
    )
}
DEFAULT_SAMPLE = "crowd_intents"


def load_sample(key: str = DEFAULT_SAMPLE) -> Annotations:
    """Load a sample data set by its key (see :data:`SAMPLES`)."""
    sample = SAMPLES[key]
    return load_annotations(sample.path, **sample.options)


def sample_truth(key: str) -> pd.Series | None:
    """The true (or expert gold) label per item of a sample, as text, or None."""
    sample = SAMPLES[key]
    if sample.truth is None:
        return None
    frame = pd.read_csv(SAMPLE_DIR / sample.truth, dtype=str, keep_default_na=False)
    return frame.set_index(frame.columns[0])[frame.columns[1]]
