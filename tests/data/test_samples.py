"""The bundled samples: each loads, and its known truth matches its items and categories."""

from __future__ import annotations

import pandas as pd
import pytest

from analytics.data import DEFAULT_SAMPLE, SAMPLES, load_sample, sample_truth


def test_the_default_sample_is_a_sample():
    assert DEFAULT_SAMPLE in SAMPLES


@pytest.mark.parametrize("key", [k for k, s in SAMPLES.items() if s.truth is not None])
def test_sample_truth_covers_every_item_once_with_a_known_category(key):
    truth = sample_truth(key)
    ann = load_sample(key)
    assert isinstance(truth, pd.Series)
    assert truth.index.is_unique
    assert set(truth.index) == set(ann.items)
    names = {str(c) for c in ann.categories}
    if ann.is_multilabel:
        parts = {p for v in truth for p in v.split(";") if v not in ("", "{}")}
        assert parts <= names
    else:
        assert set(truth) <= names
    assert all(isinstance(v, str) for v in truth)


def test_sample_truth_is_text_as_written():
    truth = sample_truth("rte_snow2008")
    assert (truth.index[0], truth.iloc[0]) == ("1000", "0")
    assert set(truth) == {"0", "1"}
    assert sample_truth("crowd_intents")["msg001"] == "question"


def test_samples_without_truth_and_unknown_keys():
    assert all(sample_truth(k) is None for k, s in SAMPLES.items() if s.truth is None)
    with pytest.raises(KeyError):
        sample_truth("no such sample")
    with pytest.raises(KeyError):
        load_sample("no such sample")
