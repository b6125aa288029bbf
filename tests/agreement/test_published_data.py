"""The published reliability data in ``tests/helpers/references.py`` are transcribed as printed."""

from __future__ import annotations

import numpy as np

from tests.helpers.references import COHEN_1960, FLEISS_1971, KRIPPENDORFF_2011


def test_published_data_are_transcribed_as_printed():
    assert (
        sum(v is not None for row in KRIPPENDORFF_2011 for v in row) == 41
    )  # "n = 40" pairable + 1
    counts = np.array([[row.count(k) for k in range(1, 6)] for row in FLEISS_1971])
    # Fleiss (1971) prints the category proportions p_j = .144, .144, .167, .306, .239
    assert (counts.sum(axis=0) / 180).round(3).tolist() == [0.144, 0.144, 0.167, 0.306, 0.239]
    assert (counts.sum(axis=1) == 6).all()
    assert np.asarray(COHEN_1960).sum() == 200
