"""The sample data sets that ship with Concord, how to load each one, and their truth.

>>> ann = load_sample("crowd_intents")
>>> ann.n_items, ann.n_annotators
(300, 20)
>>> sample_truth("crowd_intents")["msg001"]
'question'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from analytics.data.cells import id_text
from analytics.data.loading import load_annotations
from analytics.data.model import Annotations

__all__ = ["DEFAULT_SAMPLE", "SAMPLES", "SAMPLE_DIR", "Sample", "load_sample", "sample_truth"]

#: Where the sample files are (``sample_data/`` at the repository root).
SAMPLE_DIR = Path(__file__).resolve().parents[2] / "sample_data"


@dataclass(frozen=True)
class Sample:
    """A sample data set: its file, how to load it, and its true labels if known.

    Parameters
    ----------
    key : str
        Its key in :data:`SAMPLES`.
    title : str
        A one-line title for the app.
    description : str
        What the data is, in a few sentences.
    file : str
        The file name in ``sample_data/``.
    options : dict, default {}
        Keyword arguments for :func:`~analytics.data.loading.load_annotations`.
    truth : str or None, default None
        The file in ``sample_data/`` with the true (or expert gold) label of each item:
        two columns, the item id and its label, with a header row.
    """

    key: str
    title: str
    description: str
    file: str
    options: dict[str, Any] = field(default_factory=dict)
    truth: str | None = None

    @property
    def path(self) -> Path:
        """The sample's file."""
        return SAMPLE_DIR / self.file


#: The bundled samples by key.
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
#: The sample the app opens with.
DEFAULT_SAMPLE = "crowd_intents"


def load_sample(key: str = DEFAULT_SAMPLE) -> Annotations:
    """Load a sample data set by its key.

    Parameters
    ----------
    key : str, default DEFAULT_SAMPLE
        A key of :data:`SAMPLES`.

    Returns
    -------
    Annotations
        Loaded with the sample's options.

    Raises
    ------
    KeyError
        For an unknown key.
    """
    sample = SAMPLES[key]
    return load_annotations(sample.path, **sample.options)


def sample_truth(key: str) -> pd.Series | None:
    """The true (or expert gold) label of each item of a sample, as text.

    The simulated samples know their true labels; the real RTE sample has expert gold
    labels. The app can compare the labels it infers (Dawid-Skene, majority, gold
    standard) with these.

    Parameters
    ----------
    key : str
        A key of :data:`SAMPLES`.

    Returns
    -------
    pandas.Series or None
        Indexed by item id (text, as in ``load_sample(key).items``), the label as text
        as written in the file (numbers such as ``"1"`` stay text; a multi-label truth is
        its ``;``-joined set). Named after the file's label column. None when the
        sample's truth is not known.

    Raises
    ------
    KeyError
        For an unknown key.

    Examples
    --------
    >>> truth = sample_truth("rte_snow2008")
    >>> len(truth), truth.index[0], truth.iloc[0]
    (800, '1000', '0')
    >>> sample_truth("ratings_ordinal") is None
    True
    """
    sample = SAMPLES[key]
    if sample.truth is None:
        return None
    frame = pd.read_csv(SAMPLE_DIR / sample.truth, dtype=str, keep_default_na=False)
    truth = frame.set_index(frame.columns[0])[frame.columns[1]].str.strip()
    truth.index = pd.Index([id_text(v) for v in truth.index], name=frame.columns[0])
    return truth
