"""Published reliability data used by the agreement tests, and builders for test data.

Also checks that the data below are transcribed as published (totals the papers print).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analytics.data.model import Annotations

NA = None

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C-E: 4 coders
# (rows) x 12 units (columns), missing judgements as None.
KRIPPENDORFF_2011 = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, NA, NA, NA],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NA, 3],
    [NA, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NA],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NA],
]

# Fleiss (1971), table 1: 30 patients x 6 psychiatrists, 5 diagnoses
# (1 depression, 2 personality disorder, 3 schizophrenia, 4 neurosis, 5 other).
# Fleiss printed only the counts per patient; this is the raw form as statsmodels' tests have it.
FLEISS_1971 = [
    [4, 4, 4, 4, 4, 4],
    [2, 2, 2, 5, 5, 5],
    [2, 3, 3, 3, 3, 5],
    [5, 5, 5, 5, 5, 5],
    [2, 2, 2, 4, 4, 4],
    [1, 1, 3, 3, 3, 3],
    [3, 3, 3, 3, 5, 5],
    [1, 1, 3, 3, 3, 4],
    [1, 1, 4, 4, 4, 4],
    [5, 5, 5, 5, 5, 5],
    [1, 4, 4, 4, 4, 4],
    [1, 2, 4, 4, 4, 4],
    [2, 2, 2, 3, 3, 3],
    [1, 4, 4, 4, 4, 4],
    [2, 2, 4, 4, 4, 5],
    [3, 3, 3, 3, 3, 5],
    [1, 1, 1, 4, 5, 5],
    [1, 1, 1, 1, 1, 2],
    [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 5, 5, 5],
    [5, 5, 5, 5, 5, 5],
    [2, 4, 4, 4, 4, 4],
    [2, 2, 4, 5, 5, 5],
    [1, 1, 4, 4, 4, 4],
    [1, 4, 4, 4, 4, 5],
    [2, 2, 2, 2, 2, 4],
    [1, 1, 1, 1, 5, 5],
    [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 3, 3, 3],
    [5, 5, 5, 5, 5, 5],
]

# Cohen (1960), table 1 as counts of 200 items (proportions x 200): judge A in rows.
COHEN_1960 = [[88, 14, 18], [10, 40, 10], [2, 6, 12]]

# Gwet (2014) / irrCAC ``cac.raw4raters``: 4 raters x 12 subjects, 5 categories.
GWET_RAW4RATERS = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, NA, NA, NA],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NA, NA],
    [NA, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, 3],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NA],
]


def from_coders(rows, kind="nominal", categories=None) -> Annotations:
    """Annotations from coders x units lists (None or NaN = not judged)."""
    records = [
        (f"u{u:03d}", f"c{c}", v)
        for c, row in enumerate(rows)
        for u, v in enumerate(row)
        if v is not None and not (isinstance(v, float) and np.isnan(v))
    ]
    df = pd.DataFrame(records, columns=["item", "annotator", "label"])
    return Annotations.from_frame(df, kind=kind, categories=categories)


def from_items(rows, kind="nominal", categories=None) -> Annotations:
    """Annotations from items x coders lists."""
    return from_coders(list(map(list, zip(*rows, strict=True))), kind=kind, categories=categories)


def from_table(table, labels=None) -> Annotations:
    """Two annotators 'A' (rows) and 'B' (columns) from a contingency table of counts."""
    table = np.asarray(table)
    q = table.shape[0]
    labels = labels or [f"k{k}" for k in range(q)]
    recs = []
    item = 0
    for i in range(q):
        for j in range(q):
            for _ in range(int(table[i, j])):
                recs += [(f"i{item}", "A", labels[i]), (f"i{item}", "B", labels[j])]
                item += 1
    df = pd.DataFrame(recs, columns=["item", "annotator", "label"])
    return Annotations.from_frame(df, kind="nominal", categories=labels)


def random_coders(rng, n_items, n_coders, n_values, missing=0.0, values=None) -> list[list]:
    """Random coders x items data with a shared signal, some cells missing."""
    truth = rng.integers(0, n_values, n_items)
    out = []
    for _ in range(n_coders):
        noise = rng.integers(0, n_values, n_items)
        row = np.where(rng.random(n_items) < 0.6, truth, noise)
        vals = [int(v) if values is None else values[int(v)] for v in row]
        mask = rng.random(n_items) < missing
        out.append([None if m else v for v, m in zip(vals, mask, strict=True)])
    return out


def test_published_data_are_transcribed_as_printed():
    assert (
        sum(v is not None for row in KRIPPENDORFF_2011 for v in row) == 41
    )  # "n = 40" pairable + 1
    counts = np.array([[row.count(k) for k in range(1, 6)] for row in FLEISS_1971])
    # Fleiss (1971) prints the category proportions p_j = .144, .144, .167, .306, .239
    assert (counts.sum(axis=0) / 180).round(3).tolist() == [0.144, 0.144, 0.167, 0.306, 0.239]
    assert (counts.sum(axis=1) == 6).all()
    assert np.asarray(COHEN_1960).sum() == 200
