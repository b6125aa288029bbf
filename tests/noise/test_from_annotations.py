"""noise_from_annotations: the noise bound on loaded data."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics import Annotations
from analytics.noise import hidden_hard_posterior, noise_bound, noise_from_annotations
from tests.helpers.paths import load_public


def frame(rows: list[tuple[str, str, str]]) -> Annotations:
    return Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))


def two_annotators() -> Annotations:
    rows = []
    for i in range(7):  # agreed
        lab = "x" if i % 2 else "y"
        rows += [(f"i{i}", "A", lab), (f"i{i}", "B", lab)]
    for i, (a, b) in enumerate([("x", "y"), ("x", "y"), ("y", "x")], start=7):
        rows += [(f"i{i}", "A", a), (f"i{i}", "B", b)]
    return frame(rows)


def test_two_annotators_footnote_3_and_equation_1():
    r = noise_from_annotations(two_annotators())
    assert (r.n_items, r.n_disagreed, r.n_agreed, r.n_excluded) == (10, 3, 7, 0)
    # footnote 3: A put 2 of the 3 disagreed items in x, B put 1
    assert r.rates.loc["A", "x"] == pytest.approx(2 / 3)
    assert r.rates.loc["B", "x"] == pytest.approx(1 / 3)
    assert r.rates["disagreed judged"].tolist() == [3, 3]
    assert r.p == pytest.approx(2 / 3 * 1 / 3 + 1 / 3 * 2 / 3)
    ref = noise_bound(10, 3, 4 / 9)
    assert (r.t0, r.hidden_hard, r.gamma) == (ref.t0, ref.hidden_hard, ref.gamma)
    assert not r.uneven and r.method == "equation (1)"
    gold = r.agreed_items()
    assert len(gold) == 7 and set(gold.columns) == {"item", "label", "annotators", "p"}
    assert gold.set_index("item").loc["i1", "label"] == "x"
    assert "of your 7 agreed items" in r.explain()


def uneven() -> Annotations:
    rows = [
        ("a1", "A", "x"),
        ("a1", "B", "x"),
        ("a1", "C", "x"),
        ("a2", "A", "y"),
        ("a2", "B", "y"),
        ("a3", "B", "z"),
        ("a3", "C", "z"),
        ("a4", "A", "x"),
        ("a4", "C", "x"),
        ("a5", "A", "y"),
        ("a5", "B", "y"),
        ("a5", "C", "y"),
        ("d1", "A", "x"),
        ("d1", "B", "y"),
        ("d1", "C", "y"),
        ("d2", "A", "z"),
        ("d2", "B", "y"),
        ("d3", "B", "x"),
        ("d3", "C", "z"),
        ("d4", "A", "y"),
        ("d4", "C", "x"),
        ("d4", "B", "x"),
        ("solo", "A", "x"),
    ]
    return frame(rows)


def test_uneven_coverage_uses_per_item_p():
    ann = uneven()
    r = noise_from_annotations(ann)
    assert r.n_excluded == 1 and any("fewer than two" in n for n in r.notes)
    assert "1 item judged by fewer than two" in r.explain() and r.summary == r.explain()
    assert (r.n_items, r.n_disagreed) == (9, 4)
    # footnote 3 by hand, in a loop
    wide = {(i, a): lab for i, a, lab in ann.to_frame().itertuples(index=False)}
    disagreed = ["d1", "d2", "d3", "d4"]
    cats = ["x", "y", "z"]
    rates = {}
    for a in "ABC":
        labs = [wide[(i, a)] for i in disagreed if (i, a) in wide]
        rates[a] = {c: labs.count(c) / len(labs) for c in cats}
        for c in cats:
            assert r.rates.loc[a, c] == pytest.approx(rates[a][c])
    items = r.items.set_index("item")
    for item in items.index:
        judges = [a for a in "ABC" if (item, a) in wide]
        p_loop = sum(math.prod(rates[a][c] for a in judges) for c in cats)
        assert items.loc[item, "p"] == pytest.approx(p_loop)
    assert r.uneven and "mixture" in r.method
    assert any("uneven" in n for n in r.notes)
    agreed_p = items.loc[items["status"] == "agreed", "p"].to_numpy()
    post = hidden_hard_posterior(agreed_p, 4)
    hidden = post.offset + int(np.argmax(post.tail() < 0.05))
    assert r.hidden_hard == hidden and r.t0 == 4 + hidden
    assert r.gamma == pytest.approx(hidden / 5)
    # the p shown is the mean over the agreed items, the ones the bound is about
    assert r.p == pytest.approx(agreed_p.mean()) and r.p != pytest.approx(items["p"].mean())
    assert r.p_min <= r.p <= r.p_max


def test_equal_p_with_different_panels_is_equation_1():
    """Three annotators with equal rates (1/2) on disagreed items, every item judged by a
    different pair: p = 1/2 for every pair, so equation (1) applies directly."""
    rows = []
    pairs = [("A", "B"), ("B", "C"), ("A", "C")]
    for k, (a, b) in enumerate(pairs):
        rows += [(f"d{k}x", a, "x"), (f"d{k}x", b, "y"), (f"d{k}y", a, "y"), (f"d{k}y", b, "x")]
    for k in range(30):
        a, b = pairs[k % 3]
        lab = "x" if k % 2 else "y"
        rows += [(f"g{k}", a, lab), (f"g{k}", b, lab)]
    r = noise_from_annotations(frame(rows))
    assert not r.uneven and r.p == pytest.approx(0.5)
    ref = noise_bound(36, 6, 0.5)
    assert (r.t0, r.gamma) == (ref.t0, ref.gamma)
    # forcing the mixture on the same p gives the same answer (the generalisation's claim)
    post = hidden_hard_posterior(np.full(30, 0.5), 6)
    assert 6 + post.offset + int(np.argmax(post.tail() < 0.05)) == ref.t0


def test_chosen_annotators():
    ann = uneven()
    r = noise_from_annotations(ann, annotators=["A", "B"])
    assert r.annotators == ("A", "B")
    direct = noise_from_annotations(ann.subset(annotators=["A", "B"]))
    assert (r.n_items, r.n_disagreed, r.t0) == (direct.n_items, direct.n_disagreed, direct.t0)
    assert r.n_items == 6  # a1, a2, a5, d1, d2, d4 are judged by both A and B


@pytest.mark.parametrize(
    ("rows", "needle"),
    [
        ([("i1", "A", "x"), ("i2", "A", "y")], "at least two annotators"),
        ([("i1", "A", "x"), ("i2", "B", "y")], "no item was judged by two"),
        (
            [("i1", "A", "x"), ("i1", "B", "x"), ("i2", "A", "y"), ("i2", "B", "y")],
            "never disagreed",
        ),
        ([("i1", "A", "x"), ("i1", "B", "y")], "disagreed on every item"),
        # A says x, z on the disagreed items, B says y, y: p = 0, so 0 noise by construction
        (
            [
                ("g1", "A", "x"),
                ("g1", "B", "x"),
                ("d1", "A", "x"),
                ("d1", "B", "y"),
                ("d2", "A", "z"),
                ("d2", "B", "y"),
            ],
            "a bound of 0 would follow by construction",
        ),
    ],
)
def test_degenerate_data_gives_nan_with_reason(rows, needle):
    r = noise_from_annotations(frame(rows))
    assert math.isnan(r.gamma) and math.isnan(r.t0)
    assert needle in r.reason
    assert r.explain().startswith("No noise bound")
    assert isinstance(r.agreed_items(), pd.DataFrame)


def test_annotator_without_disagreed_items_gets_pooled_rates():
    rows = [(f"d{k}", "A", lab) for k, lab in enumerate("xyx")]
    rows += [(f"d{k}", "B", lab) for k, lab in enumerate("yxy")]
    rows += [("g1", "A", "x"), ("g1", "C", "x"), ("g2", "B", "y"), ("g2", "C", "y")]
    r = noise_from_annotations(frame(rows))
    assert r.rates.loc["C", "x"] == pytest.approx(0.5) and r.rates.loc["C", "disagreed judged"] == 0
    assert any("pooled" in n for n in r.notes)


def test_numeric_labels_are_compared_as_values():
    df = pd.DataFrame(
        {
            "item": ["a", "a", "b", "b", "c", "c"],
            "annotator": ["A", "B"] * 3,
            "label": ["1", "1", "2", "3", "3", "2"],
        }
    )
    r = noise_from_annotations(Annotations.from_frame(df, kind="ordinal"))
    assert (r.n_items, r.n_disagreed) == (3, 2)
    assert any("exactly the same value" in n for n in r.notes)


def test_multilabel_sets_are_categories():
    df = pd.DataFrame(
        {
            "item": ["i1", "i1", "i2", "i2", "i3", "i3", "i4", "i4"],
            "annotator": ["A", "B"] * 4,
            "label": ["a|b", "b|a", "a", "a|b", "{}", "{}", "b", "a"],
        }
    )
    ann = Annotations.from_frame(df, multilabel_sep="|")
    r = noise_from_annotations(ann)
    assert (r.n_items, r.n_disagreed) == (4, 2)  # {a,b} = {b,a} and {} = {} agree
    assert any("label set" in n for n in r.notes)
    gold = r.agreed_items().set_index("item")
    assert gold.loc["i1", "label"] == "a;b"  # sets written as every CSV writes them
    assert gold.loc["i3", "label"] == "{}"  # as every CSV writes the empty set


def test_public_data_set_runs_and_gold_is_the_agreed_items():
    labels, _ = load_public("snow_rte")
    ann = Annotations.from_frame(labels)
    r = noise_from_annotations(ann)
    assert r.ok and r.uneven  # 164 workers, 10 per item: many panels
    assert r.n_items == 800 and r.n_excluded == 0
    gold = r.agreed_items()
    assert len(gold) == r.n_agreed
    wide = ann.wide()
    for item, label in gold.head(20)[["item", "label"]].itertuples(index=False):
        values = set(wide.loc[item].dropna().astype(str))
        assert values == {label}
    assert 0 <= r.gamma <= 1 and r.t0 >= r.n_disagreed


@settings(max_examples=25, deadline=None)
@given(
    labels=st.lists(
        st.lists(st.sampled_from(["x", "y", "z", None]), min_size=4, max_size=4),
        min_size=6,
        max_size=25,
    ),
    seed=st.integers(0, 10_000),
)
def test_invariant_to_renaming_and_reordering(labels, seed):
    rows = [
        (f"i{i}", f"A{j}", lab)
        for i, row in enumerate(labels)
        for j, lab in enumerate(row)
        if lab is not None
    ]
    if not rows:
        return
    base = noise_from_annotations(frame(rows))
    rng = np.random.default_rng(seed)
    rename = dict(zip(["x", "y", "z"], rng.permutation(["red", "green", "blue"]), strict=True))
    shuffled = [rows[k] for k in rng.permutation(len(rows))]
    moved = [(f"item-{i}", f"coder-{a[::-1]}", rename[lab]) for i, a, lab in shuffled]
    other = noise_from_annotations(frame(moved))
    assert base.reason == other.reason
    assert (base.n_items, base.n_disagreed, base.n_excluded) == (
        other.n_items,
        other.n_disagreed,
        other.n_excluded,
    )
    if base.ok:
        assert (base.t0, base.hidden_hard) == (other.t0, other.hidden_hard)
        assert base.p == pytest.approx(other.p)


def test_few_disagreed_items_are_noted_and_many_are_not():
    """A review saw "at most 0.0% noise, good" resting on two disagreed items; p > 0 from
    fewer than FEW_DISAGREED items is now noted as rough."""
    from analytics.noise.from_annotations import FEW_DISAGREED

    r = noise_from_annotations(two_annotators())  # 3 disagreed items
    assert r.n_disagreed == 3 < FEW_DISAGREED and np.isfinite(r.gamma)
    assert any("only 3 disagreed items" in n for n in r.notes)
    rows = [(f"g{i}", w, "x" if i % 2 else "y") for i in range(40) for w in ("A", "B")]
    for i in range(12):  # disagreed: A and B each say x on half of them, y on the others
        rows += [(f"d{i}", "A", "xy"[i % 2]), (f"d{i}", "B", "yx"[i % 2])]
    r = noise_from_annotations(frame(rows))
    assert r.n_disagreed >= FEW_DISAGREED and not any("disagreed item" in n for n in r.notes)


def test_the_follow_up_questions_start_from_the_bound_s_categories():
    """Multi-label data: the bound counts each label set as a category (53 on the affect
    sample); 'would more annotators help?' had started from the 6 categories instead."""
    from analytics.data import load_sample
    from analytics.noise import follow_up_defaults

    affect = noise_from_annotations(load_sample("affect_multilabel"))
    assert follow_up_defaults(affect).categories == affect.rates.shape[1] - 1 == 53
    crowd = noise_from_annotations(load_sample("crowd_intents"))
    assert follow_up_defaults(crowd).categories == 4
    assert follow_up_defaults(None).categories is None


def test_p_zero_with_three_annotators_names_the_real_cause_and_keeps_the_rates(tmp_path):
    # item 1 is a, a, b: two annotators did choose the same category; p is 0 because no
    # category is shared by all three (sum_c prod_j r_jc), and the reason had said otherwise
    from analytics import load_annotations

    path = tmp_path / "counts.csv"
    path.write_text("item,a,b,c\n1,2,1,0\n2,0,3,0\n3,1,1,1\n")
    r = noise_from_annotations(load_annotations(path, layout="counts"))
    assert math.isnan(r.t0)
    assert "no two annotators" not in r.reason
    assert "no category was chosen by every annotator" in r.reason
    assert r.rates.shape[0] == 3  # the rates p came from, not an empty table


def test_one_string_for_annotators_is_refused_not_read_as_letters():
    from analytics import AnnotationDataError

    ann = uneven()
    with pytest.raises(AnnotationDataError, match=r"list of annotator names.*'AB'"):
        noise_from_annotations(ann, annotators="AB")
