"""Pairwise span F1: hand-computed cases, nervaluate as an oracle, invariances, the interval."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics.spans import load_spans, pairwise_f1, span_f1

TEXT = "Anna Smith flew from New York to Paris on Monday ."


def _spans(rows, completed=None, text=None):
    df = pd.DataFrame(rows, columns=["item", "annotator", "start", "end", "label"])
    return load_spans(df, completed=completed, text=text)


def _pair(table, a="a", b="b"):
    row = table[(table.annotator_a == a) & (table.annotator_b == b)]
    assert len(row) == 1
    return row.iloc[0]


# "Anna Smith" 0-10, "New York" 21-29, "Paris" 33-38, "Monday" 42-48
A = [("d", "a", 0, 10, "PER"), ("d", "a", 21, 29, "LOC"), ("d", "a", 33, 38, "LOC")]
B = [("d", "b", 0, 4, "PER"), ("d", "b", 21, 29, "LOC"), ("d", "b", 42, 48, "DATE")]


def test_exact_by_hand():
    row = _pair(pairwise_f1(_spans(A + B)))
    # one exact match (New York); a has 3 spans, b has 3
    assert (row.n_a, row.n_b, row.matched_a, row.matched_b) == (3, 3, 1, 1)
    assert row.precision == pytest.approx(1 / 3) and row.f1 == pytest.approx(2 / 6)


def test_overlap_by_hand():
    row = _pair(pairwise_f1(_spans(A + B), match="overlap"))
    # Anna Smith/Anna overlap as PER; New York matches; Paris and Monday do not
    assert (row.matched_a, row.matched_b) == (2, 2)
    assert row.f1 == pytest.approx(2 / 3)


def test_token_by_hand():
    row = _pair(pairwise_f1(_spans(A + B, text={"d": TEXT}), match="token"))
    # a: Anna Smith New York Paris (5 tokens); b: Anna New York Monday (4 tokens)
    assert (row.n_a, row.n_b, row.matched_a, row.matched_b) == (5, 4, 3, 3)
    p, r = 3 / 5, 3 / 4
    assert row.f1 == pytest.approx(2 * p * r / (p + r))


def test_one_long_span_against_two_short_ones():
    rows = [("d", "a", 0, 10, "X"), ("d", "b", 0, 4, "X"), ("d", "b", 5, 10, "X")]
    row = _pair(pairwise_f1(_spans(rows), match="overlap"))
    assert (row.n_a, row.n_b, row.matched_a, row.matched_b) == (1, 2, 1, 2)
    assert row.f1 == 1.0
    assert _pair(pairwise_f1(_spans(rows))).f1 == 0.0


def test_by_label_splits_the_counts():
    table = pairwise_f1(_spans(A + B), match="overlap", by_label=True)
    per = table.set_index("label")
    assert per.loc["LOC", "n_a"] == 2 and per.loc["LOC", "matched_a"] == 1
    assert per.loc["DATE", "f1"] == 0.0 and per.loc["PER", "f1"] == 1.0
    assert table[["n_a", "n_b"]].sum().tolist() == [3, 3]


def test_identical_is_one_disjoint_is_zero_and_empty_is_nan():
    same = [(d, who, s, e, lab) for who in "ab" for (d, _, s, e, lab) in A]
    assert span_f1(_spans(same), n_boot=0).f1 == 1.0
    disjoint = [("d", "a", 0, 4, "X"), ("d", "b", 5, 9, "X")]
    for match in ("exact", "overlap"):
        assert span_f1(_spans(disjoint), match=match, n_boot=0).f1 == 0.0
    # both completed e, neither marked anything there; a pair only ever on e has no F1
    only_empty = _spans([("d", "a", 0, 4, "X")], completed={"e": ["a"]})
    res = span_f1(only_empty, n_boot=0)
    assert np.isnan(res.f1) and "nothing to compare" in res.f1.reason


def test_documents_left_empty_count_against_agreement():
    rows = [("d", "a", 0, 4, "X"), ("d", "b", 0, 4, "X"), ("e", "a", 0, 4, "X")]
    without = _pair(pairwise_f1(_spans(rows)))
    assert without.f1 == 1.0  # b never completed e: e does not count
    with_e = _pair(pairwise_f1(_spans(rows, completed={"e": ["a", "b"]})))
    assert (with_e.n_a, with_e.matched_a) == (2, 1) and with_e.f1 == pytest.approx(2 / 3)


def test_span_f1_interval_brackets_the_value():
    rng = np.random.default_rng(1)
    rows = []
    for d in range(40):
        for who in "abc":
            for slot in range(3):
                if rng.random() < 0.8:
                    s = slot * 20 + int(rng.integers(0, 3))
                    rows.append((f"d{d}", who, s, s + 5 + int(rng.integers(0, 2)), "X"))
    res = span_f1(_spans(rows), n_boot=200)
    assert res.low <= res.f1 <= res.high and res.high - res.low > 0
    assert res.f1.note == "mean over 3 annotator pairs"
    assert float(res.f1) == pytest.approx(res.pairs.f1.mean())
    by_label = span_f1(_spans(rows), by_label=True, n_boot=50)
    assert by_label.loc[0, "f1"] == pytest.approx(float(res.f1))


def _slot_data(draw_rows):
    """Spans in disjoint 20-character slots, at most one per annotator and slot."""
    return [(f"d{d}", f"r{w}", 20 * k + s, 20 * k + s + n, lab) for d, w, k, s, n, lab in draw_rows]


slot_rows = st.lists(
    st.tuples(
        st.integers(0, 2),
        st.integers(0, 2),
        st.integers(0, 3),
        st.integers(0, 5),
        st.integers(1, 8),
        st.sampled_from(["PER", "LOC"]),
    ),
    min_size=1,
    max_size=25,
    unique_by=lambda r: (r[0], r[1], r[2]),
)


@settings(max_examples=40, deadline=None)
@given(slot_rows)
def test_matches_nervaluate_strict_and_type(rows):
    nervaluate = pytest.importorskip("nervaluate")
    data = _slot_data(rows)
    spans = _spans(data, completed={f"d{d}": ["r0", "r1", "r2"] for d in range(3)})
    for match, scheme in (("exact", "strict"), ("overlap", "ent_type")):
        table = pairwise_f1(spans, match=match)
        for _, row in table.iterrows():
            docs = [f"d{d}" for d in range(3)]

            def of(who, docs=docs):
                return [
                    [
                        {"label": lab, "start": s, "end": e - 1}
                        for (i, w, s, e, lab) in data
                        if i == d and w == who
                    ]
                    for d in docs
                ]

            true, pred = of(row.annotator_b), of(row.annotator_a)
            if not any(true) and not any(pred):
                assert np.isnan(row.f1)
                continue
            res = nervaluate.Evaluator(true, pred, tags=["PER", "LOC"], loader="dict").evaluate()
            res = res[0] if isinstance(res, tuple) else res
            ref = res["overall"][scheme]
            assert row.f1 == pytest.approx(ref.f1), (match, row.to_dict())


@settings(max_examples=30, deadline=None)
@given(slot_rows, st.permutations(["r0", "r1", "r2"]))
def test_invariant_to_annotator_order_and_label_names(rows, order):
    data = _slot_data(rows)
    rename = {"r0": order[0], "r1": order[1], "r2": order[2]}
    relabel = {"PER": "zz", "LOC": "aa"}
    other = [(d, rename[w], s, e, relabel[lab]) for d, w, s, e, lab in reversed(data)]
    for match in ("exact", "overlap"):
        one = span_f1(_spans(data), match=match, n_boot=0).f1
        two = span_f1(_spans(other), match=match, n_boot=0).f1
        assert (np.isnan(one) and np.isnan(two)) or one == pytest.approx(two)
        assert np.isnan(one) or 0 <= one <= 1


def test_far_offsets_in_many_documents_do_not_overflow_into_a_false_match():
    """3,000 documents and one span ending near 2**53 overflowed int64 positions (one
    document times the longest), and a span of b's matched one of a's elsewhere."""
    docs = [f"d{i:04d}" for i in range(3000)]
    rows = [(d, "a", 0, 3, "X") for d in docs] + [(d, "b", 5, 8, "X") for d in docs]
    rows.append(("d0000", "a", 10, 2**53 - 10, "X"))
    spans = load_spans(pd.DataFrame(rows, columns=["item", "annotator", "start", "end", "label"]))
    table = pairwise_f1(spans, match="overlap")
    assert int(table["matched_a"].sum()) == 0 and int(table["matched_b"].sum()) == 0


def test_a_blank_document_f1_says_why():
    """Documents nobody marked showed F1 "–" with no word, on a page that says "no span
    here" counts as agreement."""
    from analytics.spans import document_agreement

    rows = [("d1", "a", 0, 3, "X"), ("d1", "b", 0, 3, "X"), ("d2", "a", None, None, None),
            ("d2", "b", None, None, None)]  # fmt: skip
    spans = load_spans(pd.DataFrame(rows, columns=["item", "annotator", "start", "end", "label"]))
    table = document_agreement(spans).set_index("item")
    assert table.loc["d1", "note"] == "" and table.loc["d1", "f1"] == 1.0
    assert np.isnan(table.loc["d2", "f1"])
    assert table.loc["d2", "note"].startswith("nobody marked a span")
