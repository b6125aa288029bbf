"""The multi-label test builders and loop references keep empty sets and missing judgements apart."""

from __future__ import annotations

import numpy as np

from tests.helpers.builders import from_array


def test_from_array_keeps_empty_sets_and_missing_apart():
    x = np.zeros((2, 2, 3), bool)
    x[0, 0, 1] = True
    judged = np.array([[True, True], [True, False]])
    ann = from_array(x, judged)
    assert ann.n_judgements == 3
    assert ann.judged().tolist() == judged.tolist()
    assert (ann.binary() == x * judged[:, :, None]).all()
