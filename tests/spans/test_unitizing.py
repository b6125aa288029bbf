"""Krippendorff's alpha_U: the published worked examples, a literal re-implementation, edge cases.

Published values: Krippendorff (2004, *Content Analysis* 2nd ed., p. 254) and Krippendorff
(1995, *Sociological Methodology* 25, p. 57), as DKPro Agreement's tests
(``Krippendorff2004Test``, ``Krippendorff1995Test``) state them.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics.spans import load_spans, unitizing_alpha

COLUMNS = ["item", "annotator", "start", "end", "label"]

# Krippendorff 2004, p. 254: observers i, j on the continuum [150, 450)
K2004 = [
    ("i", 225, 295, "c"), ("i", 370, 400, "c"), ("j", 220, 300, "c"), ("j", 355, 375, "c"),
    ("j", 400, 420, "c"), ("i", 180, 240, "k"), ("i", 300, 350, "k"), ("j", 180, 240, "k"),
    ("j", 300, 350, "k"),
]  # fmt: skip

# Krippendorff 1995, p. 57: (observer, start, length, category) on [0, 24)
K1995 = [
    (0, 2, 8, "A"), (0, 14, 6, "A"), (1, 4, 4, "A"), (1, 15, 2, "A"),
    (0, 0, 18, "B"), (1, 0, 2, "B"), (1, 2, 1, "B"), (1, 3, 1, "B"), (1, 4, 1, "B"),
    (1, 5, 1, "B"), (1, 6, 3, "B"), (1, 9, 1, "B"),
    (0, 2, 6, "C"), (0, 10, 2, "C"), (0, 14, 4, "C"), (0, 20, 2, "C"), (1, 0, 2, "C"),
    (1, 4, 4, "C"), (1, 10, 4, "C"), (1, 16, 2, "C"), (1, 20, 2, "C"),
    (0, 0, 2, "D"), (0, 2, 8, "D"), (0, 10, 4, "D"), (0, 14, 6, "D"), (0, 20, 4, "D"),
    (1, 0, 4, "D"), (1, 4, 4, "D"), (1, 8, 7, "D"), (1, 15, 2, "D"), (1, 17, 7, "D"),
]  # fmt: skip


def _k2004():
    df = pd.DataFrame([("doc", a, s - 150, e - 150, c) for a, s, e, c in K2004], columns=COLUMNS)
    return load_spans(df, text={"doc": "x" * 300})


def _k1995(stretch=1):
    rows = [("doc", f"o{a}", s * stretch, (s + n) * stretch, c) for a, s, n, c in K1995]
    return load_spans(pd.DataFrame(rows, columns=COLUMNS), text={"doc": "x" * (24 * stretch)})


def test_krippendorff_2004_worked_example():
    table = unitizing_alpha(_k2004(), by_label=True).set_index("label")
    assert table.loc["c", "observed"] == pytest.approx(0.0144, abs=1e-4)
    assert table.loc["c", "expected"] == pytest.approx(0.0532, abs=1e-4)
    assert table.loc["c", "alpha"] == pytest.approx(0.7286, abs=1e-4)
    assert table.loc["k", "observed"] == 0.0
    assert table.loc["k", "expected"] == pytest.approx(0.0490, abs=1e-4)
    assert table.loc["k", "alpha"] == 1.0
    overall = unitizing_alpha(_k2004())
    # published 0.8591 comes from the four-decimal D's; unrounded 0.8587 (DKPro: +-0.0005)
    assert overall == pytest.approx(0.8591, abs=5e-4)
    d_o, d_e = table["observed"].round(4).mean(), table["expected"].round(4).mean()
    assert round(1 - d_o / d_e, 4) == 0.8591
    assert overall.items_used == 1 and "on the one document" in overall.note


def test_the_overall_value_pools_the_labels_and_says_so():
    """Krippendorff (2004, p. 254): the overall alpha_U is 1 - (sum of the labels' D_o) /
    (sum of their D_e), 1 - 0.0144 / (0.0532 + 0.0490); not the mean of the per-label
    alphas (there 0.8643), which the note once implied ("mean over 2 labels")."""
    spans = _k2004()
    table = unitizing_alpha(spans, by_label=True)
    overall = unitizing_alpha(spans)
    pooled = 1 - table["observed"].sum() / table["expected"].sum()
    assert float(overall) == pytest.approx(pooled, abs=1e-12)
    assert round(1 - 0.0144 / (0.0532 + 0.0490), 4) == 0.8591  # the book's arithmetic
    assert table["alpha"].mean() == pytest.approx(0.8643, abs=1e-4)
    assert "pooled over the 2 labels" in overall.note and "mean over" not in overall.note
    assert "not the mean of the per-label values" in overall.note
    one = load_spans(
        pd.DataFrame(
            [r for r in K2004 if r[3] == "c"], columns=["annotator", "start", "end", "label"]
        ).assign(item="doc"),
        text={"doc": "x" * 450},
    )
    assert "pooled" not in unitizing_alpha(one).note  # one label: its own alpha_U


def test_krippendorff_1995_observed_and_expected():
    table = unitizing_alpha(_k1995(), by_label=True).set_index("label")
    expected_do = {"A": 0.03125, "B": 2.26736, "C": 0.02777, "D": 0.38715}
    for c, v in expected_do.items():
        assert table.loc[c, "observed"] == pytest.approx(v, abs=1e-5)
    # D_e and alpha as the continuum is made finer (the paper's continuous limit)
    fine = unitizing_alpha(_k1995(50_000), by_label=True).set_index("label")
    published = {
        "A": (0.06990, 0.553),
        "B": (1.17731, -0.926),
        "C": (0.08642, 0.679),
        "D": (0.41445, 0.066),
    }
    for c, (d_e, alpha) in published.items():
        assert fine.loc[c, "expected"] == pytest.approx(d_e, abs=5e-3)
        assert fine.loc[c, "alpha"] == pytest.approx(alpha, abs=0.02)


# ---------------------------------------------------------------- a literal version
def _sections(units, length):
    """(begin, length, is_unit) of a rater's units and gaps, in order."""
    out, pos = [], 0
    for b, e in sorted(units):
        if b > pos:
            out.append((pos, b - pos, False))
        out.append((b, e - b, True))
        pos = e
    if pos < length:
        out.append((pos, length - pos, False))
    return out


def _delta(g, h):
    (b1, l1, u1), (b2, l2, u2) = g, h
    if u1 and u2 and -l1 < b1 - b2 < l2:
        return (b1 - b2) ** 2 + (b1 + l1 - b2 - l2) ** 2
    if u1 and not u2 and b2 <= b1 and b1 + l1 <= b2 + l2:
        return l1**2
    if u2 and not u1 and b1 <= b2 and b2 + l2 <= b1 + l1:
        return l2**2
    return 0


def _literal(per_rater, length):
    """D_o and D_e by the definitions, every section against every section."""
    m = len(per_rater)
    secs = [_sections(u, length) for u in per_rater]
    total = sum(
        _delta(g, h)
        for i, j in itertools.permutations(range(m), 2)
        for g in secs[i]
        for h in secs[j]
    )
    d_o = total / (m * (m - 1) * length**2)
    units = [s for r in secs for s in r if s[2]]
    gaps = [s[1] for r in secs for s in r if not s[2]]
    n_c = len(units)
    num = 0.0
    for _, lu, _ in units:
        num += (n_c - 1) * (2 * lu**3 - 3 * lu**2 + lu) / 3
        num += lu**2 * sum(g - lu + 1 for g in gaps if g >= lu)
    den = m * length * (m * length - 1) - sum(lu * (lu - 1) for _, lu, _ in units)
    return d_o, (2 / length) * num / den


raters_units = st.lists(
    st.lists(st.tuples(st.integers(0, 40), st.integers(1, 9)), max_size=5), min_size=2, max_size=4
)


def _disjoint(units):
    kept, end = [], -1
    for b, n in sorted(units):
        if b >= end:
            kept.append((b, b + n))
            end = b + n
    return kept


@settings(max_examples=60, deadline=None)
@given(raters_units, st.integers(0, 3))
def test_matches_a_literal_implementation(raw, pad):
    per_rater = [_disjoint(u) for u in raw]
    length = max([e for u in per_rater for _, e in u], default=1) + pad
    rows = [("d", f"r{r}", b, e, "X") for r, u in enumerate(per_rater) for b, e in u]
    done = {"d": [f"r{r}" for r in range(len(per_rater))]}
    spans = load_spans(
        pd.DataFrame(rows, columns=COLUMNS), completed=done, text={"d": "x" * length}
    )
    table = unitizing_alpha(spans, by_label=True)
    if not rows:
        assert table.empty and np.isnan(unitizing_alpha(spans))
        return
    d_o, d_e = _literal(per_rater, length)
    assert table.loc[0, "observed"] == pytest.approx(d_o, rel=1e-9, abs=1e-12)
    assert table.loc[0, "expected"] == pytest.approx(d_e, rel=1e-9, abs=1e-12)


def test_documents_are_laid_end_to_end():
    rows = [
        ("d1", "a", 0, 3, "X"),
        ("d1", "b", 1, 3, "X"),
        ("d2", "a", 2, 5, "X"),
        ("d2", "b", 2, 6, "X"),
    ]
    split = load_spans(pd.DataFrame(rows, columns=COLUMNS), text={"d1": "x" * 4, "d2": "y" * 8})
    joined_rows = [
        ("d", w, s + (4 if d == "d2" else 0), e + (4 if d == "d2" else 0), c)
        for d, w, s, e, c in rows
    ]
    joined = load_spans(pd.DataFrame(joined_rows, columns=COLUMNS), text={"d": "z" * 12})
    assert float(unitizing_alpha(split)) == pytest.approx(float(unitizing_alpha(joined)))
    assert unitizing_alpha(split).items_used == 2


def test_identical_is_one_and_invariant_to_names():
    rows = [
        (d, w, s, e, c)
        for w in ("a", "b", "c")
        for d, s, e, c in [("d", 0, 4, "X"), ("d", 6, 9, "Y")]
    ]
    spans = load_spans(pd.DataFrame(rows, columns=COLUMNS), text={"d": "x" * 12})
    assert unitizing_alpha(spans) == 1.0
    moved = [
        (d, {"a": "c", "b": "a", "c": "b"}[w], s, e, {"X": "Y", "Y": "X"}[c])
        for d, w, s, e, c in rows
    ]
    moved[0] = ("d", "c", 0, 3, "Y")
    rows[0] = ("d", "a", 0, 3, "X")
    one = unitizing_alpha(load_spans(pd.DataFrame(rows, columns=COLUMNS), text={"d": "x" * 12}))
    two = unitizing_alpha(load_spans(pd.DataFrame(moved, columns=COLUMNS), text={"d": "x" * 12}))
    assert float(one) == pytest.approx(float(two)) and one < 1


def test_undefined_cases_say_why():
    one = load_spans(pd.DataFrame([("d", "a", 0, 2, "X")], columns=COLUMNS))
    assert np.isnan(unitizing_alpha(one)) and "two annotators" in unitizing_alpha(one).reason
    apart = load_spans(
        pd.DataFrame([("d", "a", 0, 2, "X"), ("e", "b", 0, 2, "X")], columns=COLUMNS)
    )
    assert "every annotator" in unitizing_alpha(apart).reason
    # documents without text end at their last span, and the note says so
    both = load_spans(pd.DataFrame([("d", "a", 0, 2, "X"), ("d", "b", 0, 3, "X")], columns=COLUMNS))
    assert "unknown" in unitizing_alpha(both).note


def test_the_order_of_rows_and_documents_does_not_change_the_value():
    """Documents are laid end to end in the sorted order of their names: a gap at the end of
    one document runs on into the next, so the file's order had changed D_e (the sample
    read 0.6998 in file order and 0.7002 reversed)."""
    import pandas as pd

    from analytics.spans import load_spans, unitizing_alpha
    from tests.helpers.paths import SAMPLE_DATA

    rows = pd.read_csv(SAMPLE_DATA / "news_spans.csv")
    base = unitizing_alpha(load_spans(rows), by_label=True)
    for other in (rows.iloc[::-1], rows.sample(frac=1, random_state=3)):
        again = unitizing_alpha(load_spans(other), by_label=True)
        np.testing.assert_allclose(
            again.set_index("label").loc[base["label"], ["observed", "expected"]].to_numpy(),
            base[["observed", "expected"]].to_numpy(),
            rtol=1e-12,
        )
    assert float(unitizing_alpha(load_spans(rows))) == pytest.approx(0.69978, abs=1e-5)
    cols = ["item", "annotator", "start", "end", "label", "text"]
    t1, t2 = "Alice went home", "they met Bob"
    two = pd.DataFrame(
        [
            ("d1", "a", 0, 5, "PER", t1),
            ("d1", "b", 0, 5, "PER", t1),
            ("d2", "a", 9, 12, "PER", t2),
            ("d2", "b", 8, 12, "PER", t2),
        ],
        columns=cols,
    )
    forward = float(unitizing_alpha(load_spans(two)))
    assert float(unitizing_alpha(load_spans(two.iloc[::-1]))) == pytest.approx(forward, rel=1e-12)


def test_span_f1_interval_does_not_depend_on_the_row_order():
    """Documents are resampled by the rank of their names, not the file's order."""
    from analytics.spans import span_f1
    from tests.helpers.paths import SAMPLE_DATA

    rows = pd.read_csv(SAMPLE_DATA / "news_spans.csv")
    a = span_f1(load_spans(rows), n_boot=200)
    b = span_f1(load_spans(rows.sample(frac=1, random_state=4)), n_boot=200)
    assert np.isfinite([a.low, a.high]).all()
    assert (a.low, a.high) == pytest.approx((b.low, b.high), abs=1e-12)
