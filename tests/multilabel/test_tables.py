"""Tables 3-5 of Bhowmick et al. (2008) and per-category kappa / alpha on 0/1 data."""

from __future__ import annotations

import itertools

import krippendorff
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.inter_rater import fleiss_kappa

from analytics import AnnotationDataError, Annotations
from analytics import agreement as agreement
from analytics.multilabel import (
    PAPER_BINS,
    am_item_agreement,
    category_disagreement,
    category_pair_confusion,
    items_by_agreement,
    set_pair_types,
)
from tests.helpers.builders import from_array, random_data
from tests.helpers.multilabel_loops import loop_per_category


def _frame(rows) -> Annotations:
    df = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    return Annotations.from_frame(df, kind="multilabel", categories=["a", "b", "c"])


CROSSED = _frame(
    [
        ("1", "u0", {"a"}),
        ("1", "u1", {"b"}),
        ("2", "u0", {"a", "c"}),
        ("2", "u1", {"b"}),
        ("3", "u0", {"a"}),
        ("3", "u1", {"a", "b"}),
    ]
)


def test_item_agreement_and_bands_worked_example():
    # item 1: {a} vs {b} differ on 2 of 3 categories -> C(1,2)/C(3,2) = 0
    # item 2: {a,c} vs {b} differ on all 3 -> 0;  item 3: differ on b only -> C(2,2)/3 = 1/3
    p_i = am_item_agreement(CROSSED)["p_i"]
    assert p_i.tolist() == pytest.approx([0.0, 0.0, 1 / 3])
    bands = items_by_agreement(CROSSED)
    assert bands["n_items"].tolist() == [2, 1, 0, 0]  # 0 (first band includes 0), 1/3 in (0.2, 0.4]
    assert bands["share"].tolist() == pytest.approx([2 / 3, 1 / 3, 0, 0])
    assert bands["band"][0] == "0 ≤ P_i ≤ 0.2" and bands["band"][3] == "0.7 < P_i ≤ 1"
    assert bands.attrs["n_without_agreement"] == 0


def test_bands_are_closed_on_the_right_and_custom_bins():
    # 1/3 lies in (0.2, 0.4]; with bins (0, 1/3, 1) it lies in the first band (right-closed)
    bands = items_by_agreement(CROSSED, bins=(0, 1 / 3, 1))
    assert bands["n_items"].tolist() == [3, 0]
    with pytest.raises(AnnotationDataError):
        items_by_agreement(CROSSED, bins=(0.5, 0.2))


def test_an_item_on_a_band_edge_falls_in_the_band_the_paper_puts_it_in():
    """{a}, {b}, {c} of six categories: P_i = 0.4 exactly, computed 0.4000000000000001,
    had been counted in 0.4 < P_i <= 0.7. On the affect sample 6 items at 0.4 and 3 at 0.7
    had moved up a band (0/8/149/143 against the exact 0/14/146/140)."""
    from fractions import Fraction

    from analytics.data import load_sample

    rows = [("i1", w, frozenset({c})) for w, c in zip("xyz", "abc", strict=True)]
    rows += [("i2", "x", frozenset("def"))]
    ann = Annotations.from_frame(
        pd.DataFrame(rows, columns=["item", "annotator", "label"]), categories=list("abcdef")
    )
    assert am_item_agreement(ann).loc["i1", "p_i"] == pytest.approx(0.4)
    assert items_by_agreement(ann)["n_items"].tolist() == [0, 1, 0, 0]
    affect = load_sample("affect_multilabel")
    p_i = am_item_agreement(affect)["p_i"].dropna()
    exact = [Fraction(v).limit_denominator(10_000) for v in p_i]  # small whole-number ratios
    edges = [Fraction(0), Fraction(1, 5), Fraction(2, 5), Fraction(7, 10), Fraction(1)]
    expected = [sum(lo < v <= hi or (k == 0 and v == lo) for v in exact)
                for k, (lo, hi) in enumerate(itertools.pairwise(edges))]  # fmt: skip
    assert items_by_agreement(affect)["n_items"].tolist() == expected == [0, 14, 146, 140]


def test_items_judged_once_have_no_agreement():
    ann = _frame([("1", "u0", {"a"}), ("1", "u1", {"a"}), ("2", "u0", {"b"})])
    frame = am_item_agreement(ann)
    assert frame.loc["2", "n_annotators"] == 1 and np.isnan(frame.loc["2", "p_i"])
    assert items_by_agreement(ann).attrs["n_without_agreement"] == 1


def test_category_disagreement_worked_example():
    # item 1 differs on a, b; item 2 on a, b, c; item 3 on b  ->  a 2, b 3, c 1
    table = category_disagreement(CROSSED)
    assert table.loc[("u0", "u1")].tolist() == [2, 3, 1]
    assert list(table.columns) == ["a", "b", "c"]


def test_category_pair_confusion_worked_example():
    # [a -] meets [- b]: item 1 ({a} vs {b}) on <a,b>; item 2 ({a,c} vs {b}) on <a,b> and
    # <b,c> (u0 has c not b, u1 has b not c); item 3 ({a} vs {a,b}): u0 gave no category
    # that u1 lacks, so nothing.  <a,b> = 2, <a,c> = 0, <b,c> = 1.
    table = category_pair_confusion(CROSSED)
    assert table.loc["a", "b"] == 2 and table.loc["a", "c"] == 0 and table.loc["b", "c"] == 1
    assert np.isnan(table.to_numpy()[np.tril_indices(3)]).all()


def _loop_tables(x, judged):
    n_i, n_u, n_c = x.shape
    dis, conf = {}, np.zeros((n_c, n_c))
    for a, b in itertools.combinations(range(n_u), 2):
        row = np.zeros(n_c, int)
        for i in range(n_i):
            if not (judged[i, a] and judged[i, b]):
                continue
            row += x[i, a] != x[i, b]
            for c1, c2 in itertools.combinations(range(n_c), 2):
                for p, q in ((a, b), (b, a)):
                    conf[c1, c2] += (
                        x[i, p, c1] and not x[i, p, c2] and x[i, q, c2] and not x[i, q, c1]
                    )
        if any(judged[i, a] and judged[i, b] for i in range(n_i)):
            dis[(f"u{a}", f"u{b}")] = row.tolist()
    return dis, conf


@pytest.mark.parametrize("seed", range(5))
def test_tables_equal_plain_loops_on_random_data(seed):
    x, judged = random_data(seed, n_i=25, n_u=4, n_c=5, p_missing=0.25)
    ann = from_array(x, judged)
    dis, conf = _loop_tables(x, judged)
    table = category_disagreement(ann)
    assert {tuple(sorted(k)): v.tolist() for k, v in table.iterrows()} == dis
    # The paper's "Total" row is the column sum. (Its printed table 4 has Fear 74 + 105 + 58
    # = 237 per pair but 273 as the total, a transposition; the other five columns add up.)
    assert table.sum().tolist() == np.sum(list(dis.values()), axis=0).tolist()
    got = category_pair_confusion(ann).to_numpy()
    upper = np.triu_indices(5, 1)
    assert got[upper].tolist() == conf[upper].tolist()


def _per_category_oracles(x, c):
    """statsmodels' Fleiss kappa and the krippendorff package's nominal alpha, category c."""
    yes = x[:, :, c].sum(axis=1)
    table = np.stack([x.shape[1] - yes, yes], axis=1)
    reliability = x[:, :, c].T.astype(float)  # annotators x items
    return fleiss_kappa(table), krippendorff.alpha(reliability, level_of_measurement="nominal")


@pytest.mark.parametrize("seed", range(4))
def test_per_category_kappa_and_alpha_against_statsmodels_and_krippendorff(seed):
    x, judged = random_data(seed, n_i=40, n_u=4, n_c=3, p=0.4)
    frame = agreement.per_category(from_array(x, judged), n_boot=0)
    for c in range(3):
        kappa, alpha = _per_category_oracles(x, c)
        assert frame["fleiss_kappa"].iloc[c] == pytest.approx(kappa, abs=1e-12)
        assert frame["alpha"].iloc[c] == pytest.approx(alpha, abs=1e-12)
        assert frame["prevalence"].iloc[c] == pytest.approx(x[:, :, c].mean())


def test_per_category_alpha_with_missing_against_krippendorff():
    x, judged = random_data(5, n_i=40, n_u=5, n_c=2, p=0.4, p_missing=0.3)
    frame = agreement.per_category(from_array(x, judged), n_boot=0)
    for c in range(2):
        data = np.where(judged, x[:, :, c], np.nan).T
        expect = krippendorff.alpha(data, level_of_measurement="nominal")
        assert frame["alpha"].iloc[c] == pytest.approx(expect, abs=1e-12)


def test_per_category_on_label_sets_matches_the_loop_reference_with_missing_judgements():
    """agreement.per_category is the one per-category view, multi-label data included."""
    x, judged = random_data(5, n_i=40, n_u=5, n_c=3, p=0.4, p_missing=0.3)
    ann = from_array(x, judged)
    ours = agreement.per_category(ann, n_boot=0)
    loops = loop_per_category(x, judged)
    np.testing.assert_allclose(ours["fleiss_kappa"], [r["kappa"] for r in loops], atol=1e-12)
    np.testing.assert_allclose(ours["alpha"], [r["alpha"] for r in loops], atol=1e-12)
    # by hand for category 0, Gwet's form for unequal numbers of judges m_i:
    # P = mean over items with m >= 2 of [y(y-1) + (m-y)(m-y-1)] / [m(m-1)],
    # pi = mean over every judged item of y/m, P_e = pi^2 + (1-pi)^2
    m_all = judged.sum(axis=1)
    y_all = (x[:, :, 0] & judged).sum(axis=1)
    keep = m_all >= 2
    m, y = m_all[keep], y_all[keep]
    agree = np.mean((y * (y - 1) + (m - y) * (m - y - 1)) / (m * (m - 1)))
    pi = np.mean(y_all[m_all > 0] / m_all[m_all > 0])
    p_e = pi**2 + (1 - pi) ** 2
    assert ours["fleiss_kappa"].iloc[0] == pytest.approx((agree - p_e) / (1 - p_e))


def test_per_category_worked_example_and_degenerate_category():
    # category a: items 1-3 have (y, m) = (1,2), (1,2), (2,2); b: (1,2), (1,2), (1,2); c: (0,2)...
    # a: P_i = 0, 0, 1 -> P = 1/3; p = 4/6; P_e = 4/9 + 1/9 = 5/9; kappa = (1/3-5/9)/(4/9) = -1/2
    #    alpha: D_o = (1/6) * (2*1*1/1 + 2*1*1/1 + 0) = 4/6; D_e = 2*4*2/(6*5) = 16/30
    #    alpha = 1 - (4/6)/(16/30) = 1 - 1.25 = -1/4
    frame = agreement.per_category(CROSSED, n_boot=0).set_index("category")
    x = np.array([[[1, 0, 0], [0, 1, 0]], [[1, 0, 1], [0, 1, 0]], [[1, 0, 0], [1, 1, 0]]], bool)
    loops = loop_per_category(x, np.ones((3, 2), bool))
    assert loops[0]["observed"] == pytest.approx(1 / 3)
    assert loops[0]["kappa"] == pytest.approx(frame.loc["a", "fleiss_kappa"])
    assert frame.loc["a", "fleiss_kappa"] == pytest.approx(-0.5)
    assert frame.loc["a", "alpha"] == pytest.approx(-0.25)
    nobody = _frame(
        [("1", "u0", {"a"}), ("1", "u1", {"a"}), ("2", "u0", set()), ("2", "u1", {"a"})]
    )
    out = agreement.per_category(nobody, n_boot=0).set_index("category")
    assert np.isnan(out.loc["b", "fleiss_kappa"]) and "nobody" in out.loc["b", "note"]


def test_set_pair_types_worked_example():
    # item 1 disjoint, item 2 disjoint, item 3 subset
    frame = set_pair_types(CROSSED).set_index("relation")
    assert frame["n_pairs"].tolist() == [0, 1, 0, 2]
    assert frame.loc["subset", "distance_jaccard"] == pytest.approx(0.5)
    assert frame.loc["subset", "distance_passonneau"] == pytest.approx(1 / 3)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_tables_follow_renamed_categories_and_reordered_annotators(seed):
    x, judged = random_data(seed, n_i=10, n_u=3, n_c=4, p_missing=0.2)
    perm = np.random.default_rng(seed).permutation(4)
    names = ["w", "x", "y", "z"]
    base = from_array(x, judged, categories=names)
    moved = from_array(
        x[:, ::-1][:, :, perm],
        judged[:, ::-1],
        categories=[names[k] for k in perm],
        annotators=["u2", "u1", "u0"],
    )
    a = category_disagreement(base)
    b = category_disagreement(moved)
    for t in (a, b):
        t.index = pd.MultiIndex.from_tuples(
            [tuple(sorted(p)) for p in t.index], names=t.index.names
        )
    pd.testing.assert_frame_equal(a.sort_index(), b.sort_index()[a.columns])
    ca = category_pair_confusion(base).fillna(0)
    cb = category_pair_confusion(moved).fillna(0)
    cb = (cb + cb.T).loc[names, names]
    pd.testing.assert_frame_equal(ca + ca.T, cb)
    assert PAPER_BINS == (0.0, 0.2, 0.4, 0.7, 1.0)


@pytest.mark.parametrize(
    ("rows", "categories", "why"),
    [
        (
            [("1", "u0", {"a"}), ("1", "u1", set()), ("2", "u0", {"a"}), ("2", "u1", {"a"})],
            ["a"],
            "two categories",
        ),
        (
            [("1", "u0", {"a"}), ("2", "u0", {"b"}), ("3", "u0", {"a", "b"})],
            ["a", "b"],
            "two or more annotators",
        ),
    ],
)
def test_items_by_agreement_says_why_every_count_is_zero(rows, categories, why):
    """One category, or one annotator: no item has a P_i, and the table says why."""
    df = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    ann = Annotations.from_frame(df, kind="multilabel", categories=categories)
    bands = items_by_agreement(ann)
    assert (bands["n_items"] == 0).all() and bands["share"].isna().all()
    assert why in bands.attrs["reason"]
    assert why in am_item_agreement(ann).attrs["reason"]
    assert bands.attrs["n_without_agreement"] == ann.n_items


def test_items_by_agreement_reason_is_empty_when_defined():
    bands = items_by_agreement(CROSSED)
    assert bands.attrs["reason"] == "" and am_item_agreement(CROSSED).attrs["reason"] == ""


def test_per_category_note_is_true_when_a_category_was_used_only_on_items_judged_once():
    """'nobody used' would be false: u0 used b on item 3, which nobody else judged."""
    ann = _frame(
        [
            ("1", "u0", {"a"}),
            ("1", "u1", {"a"}),
            ("2", "u0", {"c"}),
            ("2", "u1", set()),
            ("3", "u0", {"b"}),
        ]
    )
    note = agreement.per_category(ann, n_boot=0).set_index("category").loc["b", "note"]
    assert "judged by two or more annotators" in note
    assert not note.startswith("nobody used this category:")


def test_the_set_distance_sentence_follows_the_alphas_it_prints():
    """One item, {a} against {a, b}: 'matters a lot ... alpha runs from 0.000 to 0.000' had
    contradicted itself; with alphas the verdict follows their spread."""
    from analytics.multilabel import set_distance_alphas, set_distance_sentence

    one = _frame([("i", "x", frozenset("a")), ("i", "y", frozenset("ab"))])
    text = set_distance_sentence(set_pair_types(one), set_distance_alphas(one))
    assert text.endswith("yet here every distance gives alpha 0.000: the choice does not matter.")
    assert "runs from" not in text
    from analytics.data import load_sample

    affect = load_sample("affect_multilabel")
    alphas = set_distance_alphas(affect).dropna(subset=["alpha"])
    spread = alphas["alpha"].max() - alphas["alpha"].min()
    text = set_distance_sentence(set_pair_types(affect), set_distance_alphas(affect))
    assert spread > 0.05 and text.endswith("the choice of distance matters a lot.")


def test_readings_of_one_item_and_one_pair_are_in_the_singular():
    from analytics.multilabel import (
        am_agreement,
        am_agreement_unclubbed,
        am_summary,
        lowest_pair,
        pairwise_am,
    )

    one = Annotations.from_frame(
        pd.DataFrame(
            {
                "item": ["i", "i"],
                "annotator": ["x", "y"],
                "label": [frozenset("a"), frozenset("ab")],
            }
        )
    )
    text = am_summary(am_agreement(one), am_agreement_unclubbed(one))
    assert "Over 1 item judged" in text and "(1 annotator pair, 2 categories)" in text
    assert lowest_pair(pairwise_am(one)) == "Lowest: x and y (A_m 0.000 over 1 item)."
