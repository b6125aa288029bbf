"""Multi-label agreement refuses pairs of judgements over the memory budget, before building."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError, as_annotations
from analytics._core.budget import memory_budget
from analytics.multilabel import am_agreement


def test_multilabel_pairs_refuse_over_the_budget() -> None:
    rng = np.random.default_rng(0)
    n_items, n_annotators = 20, 150  # 20 x 11,175 = 223,500 pairs of judgements
    frame = pd.DataFrame(
        {
            "item": np.repeat(np.arange(n_items), n_annotators),
            "annotator": np.tile(np.arange(n_annotators), n_items),
            "label": rng.choice(["a", "b", "a|b", "c|a"], n_items * n_annotators),
        }
    )
    ann = as_annotations(frame, multilabel_sep="|")
    with memory_budget("8M"), pytest.raises(AnnotationDataError) as err:
        am_agreement(ann)
    assert "223,500 pairs of judgements" in str(err.value) and "8 MiB" in str(err.value)
    assert np.isfinite(am_agreement(ann).a_m)
