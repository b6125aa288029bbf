"""Builders of small :class:`~analytics.Annotations` for the tests.

- single-label: from coders x units lists, items x coders lists, a two-annotator
  contingency table, or random coders with a shared signal;
- multi-label: from a boolean items x annotators x categories array.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analytics import Annotations


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


def from_array(
    x: np.ndarray,
    judged: np.ndarray | None = None,
    categories: list[str] | None = None,
    annotators: list[str] | None = None,
    items: list[str] | None = None,
) -> Annotations:
    """Annotations from a boolean items x annotators x categories array (+ judged mask)."""
    n_i, n_u, n_c = x.shape
    judged = np.ones((n_i, n_u), bool) if judged is None else judged
    cats = categories or [f"c{k}" for k in range(n_c)]
    anns = annotators or [f"u{k}" for k in range(n_u)]
    its = items or [f"i{k}" for k in range(n_i)]
    rows = [
        (its[i], anns[u], frozenset(c for c, b in zip(cats, x[i, u], strict=True) if b))
        for i in range(n_i)
        for u in range(n_u)
        if judged[i, u]
    ]
    df = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    return Annotations.from_frame(df, kind="multilabel", categories=cats)


def random_data(seed: int, n_i=25, n_u=4, n_c=4, p=0.35, p_missing=0.0):
    rng = np.random.default_rng(seed)
    x = rng.random((n_i, n_u, n_c)) < p
    judged = rng.random((n_i, n_u)) >= p_missing
    return x, judged


def shuffled_rows(ann: Annotations, seed: int) -> Annotations:
    """The same single-label judgements with the rows shuffled: other first-seen codes for
    items, annotators and categories, for tests that a result does not follow row order."""
    frame = pd.DataFrame(
        {
            "item": ann.items[ann.item_codes],
            "annotator": ann.annotators[ann.annotator_codes],
            "label": ann.categories[ann.label_codes],
        }
    )
    return Annotations.from_frame(frame.sample(frac=1, random_state=seed))


def scores_on_a_scale(n_items: int = 30) -> pd.DataFrame:
    """Three raters scoring items on 0-100 in steps of 0.1: far more than 12 values."""
    rng = np.random.default_rng(4)
    truth = rng.uniform(20, 80, n_items)
    return pd.DataFrame(
        [
            (f"i{i}", f"r{r}", round(float(truth[i] + rng.normal(0, 5)), 1))
            for i in range(n_items)
            for r in range(3)
        ],
        columns=["item", "annotator", "label"],
    )
