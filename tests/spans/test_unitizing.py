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
from tests.helpers.paths import SAMPLE_DATA

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
    assert overall.items_used == 1 and "1 documents" in overall.note


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
def _sections(units, length, bounds=()):
    """(begin, length, is_unit) of a rater's units and gaps, in order; a gap ends at each
    document boundary in ``bounds``."""
    out, pos = [], 0
    cuts = sorted(c for c in set(bounds) if 0 < c < length)
    for b, e in [*sorted(units), (length, length)]:
        while cuts and cuts[0] <= b:  # the gaps up to this unit, cut at the boundaries
            if cuts[0] > pos:
                out.append((pos, cuts[0] - pos, False))
            pos = max(pos, cuts.pop(0))
        if b > pos:
            out.append((pos, b - pos, False))
        if e > b:
            out.append((b, e - b, True))
        pos = max(pos, e)
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


def _literal(per_rater, length, bounds=()):
    """D_o and D_e by the definitions, every section against every section."""
    m = len(per_rater)
    secs = [_sections(u, length, bounds) for u in per_rater]
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


def test_a_document_boundary_ends_the_gaps():
    """Documents lie end to end, but a gap ends where its document does: d1's trailing gap
    [3, 4) and d2's leading gap [4, 6) are two gaps, not the one gap [3, 6) of the same
    characters as a single document (D_o is the same, D_e counts fewer placements)."""
    rows = [
        ("d1", "a", 0, 3, "X"),
        ("d1", "b", 1, 3, "X"),
        ("d2", "a", 2, 5, "X"),
        ("d2", "b", 2, 6, "X"),
    ]
    split = load_spans(pd.DataFrame(rows, columns=COLUMNS), text={"d1": "x" * 4, "d2": "y" * 8})
    shifted = [("d", w, s + 4 * (d == "d2"), e + 4 * (d == "d2"), c) for d, w, s, e, c in rows]
    joined = load_spans(pd.DataFrame(shifted, columns=COLUMNS), text={"d": "z" * 12})
    per_rater = [[(b, e) for _, w, b, e, _ in shifted if w == r] for r in "ab"]
    by_doc = unitizing_alpha(split, by_label=True).iloc[0]
    as_one = unitizing_alpha(joined, by_label=True).iloc[0]
    assert by_doc["observed"] == pytest.approx(as_one["observed"])
    assert (by_doc["observed"], by_doc["expected"]) == pytest.approx(_literal(per_rater, 12, [4]))
    assert (as_one["observed"], as_one["expected"]) == pytest.approx(_literal(per_rater, 12))
    assert by_doc["expected"] < as_one["expected"]
    assert unitizing_alpha(split).items_used == 2


def _shuffled(df, seed):
    """``df`` with its documents in another order (rows of a document keep theirs)."""
    items = df["item"].drop_duplicates().to_numpy()
    order = np.random.default_rng(seed).permutation(len(items))
    rank = dict(zip(items[order], range(len(items)), strict=True))
    return df.iloc[np.argsort(df["item"].map(rank).to_numpy(), kind="stable")]


def test_the_order_of_the_documents_does_not_matter():
    """Laid end to end, d1's trailing gap merged with d2's leading one, so alpha_U was
    0.9809 in this order and 0.9762 reversed."""
    cols = ["item", "annotator", "start", "end", "label", "text"]
    t1, t2 = "Alice went home", "they met Bob"
    df = pd.DataFrame(
        [
            ("d1", "a", 0, 5, "PER", t1),
            ("d1", "b", 0, 5, "PER", t1),
            ("d2", "a", 9, 12, "PER", t2),
            ("d2", "b", 8, 12, "PER", t2),
        ],
        columns=cols,
    )
    value = float(unitizing_alpha(load_spans(df)))
    assert value == pytest.approx(float(unitizing_alpha(load_spans(df.iloc[::-1]))), abs=1e-12)
    # by hand, on [0, 27) with a boundary at 15: gaps a 10, 9, 0; b 10, 8, 0
    d_o = 2 * 1 / (2 * 1 * 27**2)
    num = sum(3 * (2 * u**3 - 3 * u**2 + u) / 3 for u in (5, 5, 3, 4))
    num += sum(u**2 * sum(g - u + 1 for g in (10, 9, 10, 8) if g >= u) for u in (5, 5, 3, 4))
    d_e = 2 / 27 * num / (2 * 27 * (2 * 27 - 1) - sum(u * (u - 1) for u in (5, 5, 3, 4)))
    assert value == pytest.approx(1 - d_o / d_e, abs=1e-12)
    assert round(value, 4) == 0.9762


def test_the_sample_does_not_depend_on_the_order_of_its_documents():
    """On the bundled sample, reversing the documents gave 0.7002 instead of 0.6998."""
    df = pd.read_csv(SAMPLE_DATA / "news_spans.csv")
    spans = load_spans(df)
    overall = float(unitizing_alpha(spans))
    table = unitizing_alpha(spans, by_label=True)
    for other in (df.iloc[::-1], _shuffled(df, 0), _shuffled(df, 1)):
        moved = load_spans(other)
        assert list(moved.items) != list(spans.items)  # the continuum really is reordered
        assert float(unitizing_alpha(moved)) == pytest.approx(overall, abs=1e-12)
        again = unitizing_alpha(moved, by_label=True)
        for col in ("observed", "expected"):
            assert again[col].to_numpy() == pytest.approx(table[col].to_numpy(), rel=1e-12)
    assert round(overall, 4) == 0.5812


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(1, 14), min_size=1, max_size=4),
    st.lists(
        st.lists(st.tuples(st.integers(0, 60), st.integers(1, 6)), max_size=8),
        min_size=2,
        max_size=3,
    ),
    st.randoms(use_true_random=False),
)
def test_several_documents_match_a_literal_implementation_in_any_order(sizes, raw, rnd):
    """Units kept inside their documents; gaps cut at the boundaries; any document order."""
    bounds = np.cumsum(sizes)
    length = int(bounds[-1])
    per_rater = []
    for units in raw:
        inside = [(b, b + n) for b, n in units if b + n <= length]
        inside = [
            (b, e)
            for b, e in inside
            if np.searchsorted(bounds, b, "right") == np.searchsorted(bounds, e - 1, "right")
        ]
        per_rater.append(_disjoint([(b, e - b) for b, e in inside]))
    starts = np.concatenate([[0], bounds[:-1]])
    rows = []
    for r, units in enumerate(per_rater):
        for b, e in units:
            d = int(np.searchsorted(bounds, b, "right"))
            rows.append((f"d{d}", f"r{r}", b - starts[d], e - starts[d], "X"))
    if not rows:
        return
    df = pd.DataFrame(rows, columns=COLUMNS)
    text = {f"d{d}": "x" * n for d, n in enumerate(sizes)}
    done = {f"d{d}": [f"r{r}" for r in range(len(per_rater))] for d in range(len(sizes))}
    spans = load_spans(df, completed=done, text=text)
    table = unitizing_alpha(spans, by_label=True)
    d_o, d_e = _literal(per_rater, length, bounds[:-1])
    assert table.loc[0, "observed"] == pytest.approx(d_o, rel=1e-9, abs=1e-12)
    assert table.loc[0, "expected"] == pytest.approx(d_e, rel=1e-9, abs=1e-12)
    order = list(text)
    rnd.shuffle(order)
    moved = load_spans(
        df.sample(frac=1, random_state=rnd.randrange(2**32)),
        completed={d: done[d] for d in order},
        text={d: text[d] for d in order},
    )
    again = unitizing_alpha(moved, by_label=True)
    assert again.loc[0, "observed"] == pytest.approx(d_o, rel=1e-9, abs=1e-12)
    assert again.loc[0, "expected"] == pytest.approx(d_e, rel=1e-9, abs=1e-12)


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
