"""The canonical data model: codes, views, subsets, kinds, duplicates."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics import AnnotationDataError, Annotations, LabelKind, as_annotations, memory_budget


def frame(rows):
    return pd.DataFrame(rows, columns=["item", "annotator", "label"])


@pytest.fixture
def small() -> Annotations:
    return Annotations.from_frame(
        frame(
            [
                ("i1", "a", "x"),
                ("i1", "b", "y"),
                ("i2", "a", "x"),
                ("i2", "b", "x"),
                ("i2", "c", "z"),
                ("i3", "c", None),
            ]
        )
    )


def test_sizes_and_names(small):
    assert (small.n_items, small.n_annotators, small.n_judgements, small.n_categories) == (
        2,
        3,
        5,
        3,
    )
    assert list(small.items) == ["i1", "i2"]
    assert list(small.annotators) == ["a", "b", "c"]
    assert list(small.categories) == ["x", "y", "z"]  # first-seen order for text
    assert small.kind is LabelKind.NOMINAL


def test_missing_label_is_counted_not_a_category(small):
    assert small.report.n_missing == 1
    assert "None" not in small.categories
    assert any("not labelled" in m for m in small.report.messages())


def test_count_matrix_and_wide(small):
    np.testing.assert_array_equal(small.count_matrix(), [[1, 1, 0], [2, 0, 1]])
    np.testing.assert_array_equal(small.wide_codes(), [[0, 1, -1], [0, 0, 2]])
    wide = small.wide()
    assert wide.loc["i2", "c"] == "z" and pd.isna(wide.loc["i1", "c"])


def test_binary_and_judged(small):
    b = small.binary()
    assert b.shape == (2, 3, 3)
    assert b[1, 2, 2] and b.sum() == small.n_judgements
    np.testing.assert_array_equal(small.judged(), [[1, 1, 0], [1, 1, 1]])


def test_coverage_and_distribution(small):
    cov = small.coverage()
    assert cov.loc["a", "b"] == 2 and cov.loc["a", "c"] == 1 and cov.loc["c", "c"] == 1
    dist = small.label_distribution()
    assert dist.loc["a", "x"] == 2 and dist.loc["c", "z"] == 1


def test_summary_lists_the_essentials(small):
    s = small.summary().set_index("measure")["value"]
    assert s["items"] == "2" and s["annotators"] == "3" and s["judgements"] == "5"
    assert s["label kind"] == "nominal"


def test_summary_writes_counts_as_plain_digits():
    """The summary's CSV (report zip) reads back as numbers: no thousands separators."""
    df = pd.DataFrame(
        {"item": np.repeat(np.arange(600), 2), "annotator": ["a", "b"] * 600, "label": "x"}
    )
    s = Annotations.from_frame(df).summary().set_index("measure")["value"]
    assert s["judgements"] == "1200" and s["items"] == "600"
    assert s["judgements per item (mean)"] == "2.0"
    shown = Annotations.from_frame(df).summary(separators=True).set_index("measure")["value"]
    assert shown["judgements"] == "1,200"  # as the Data page and the CLI show it


def test_immutable(small):
    with pytest.raises(ValueError):
        small.item_codes[0] = 1
    with pytest.raises(AttributeError):
        small.name = "other"


def test_subset_recodes(small):
    sub = small.subset(annotators=["a", "b"])
    assert sub.n_annotators == 2 and sub.n_judgements == 4
    sub = small.subset(categories=["x"])
    assert list(sub.categories) == ["x"] and sub.n_judgements == 3
    sub = small.subset(items=["i2"])
    assert list(sub.items) == ["i2"] and sub.n_judgements == 3
    with pytest.raises(AnnotationDataError, match="unknown annotator"):
        small.subset(annotators=["nobody"])


@pytest.mark.parametrize("names", [5, 1.5, True, "ab"])
def test_subset_refuses_one_name_or_a_number_for_a_list_of_names(small, names):
    """A number raised a bare TypeError ('int' object is not iterable), also from
    noise_from_annotations(annotators=...); one name was read as its letters ('unknown
    annotators: ['a', 'b']' for the annotator 'ab')."""
    from analytics._core.errors import ArgumentTypeError

    for key in ("annotators", "items", "categories"):
        with pytest.raises(ArgumentTypeError, match=f"{key}=.*list of names"):
            small.subset(**{key: names})


def test_numeric_labels_sort_numerically_and_keep_values():
    ann = Annotations.from_frame(frame([("i", "a", "10"), ("i", "b", "9"), ("j", "a", "2.5")]))
    assert list(ann.categories) == [2.5, 9, 10]
    np.testing.assert_array_equal(ann.label_values(), [10.0, 9.0, 2.5])
    assert ann.kind is LabelKind.NUMERIC  # non-integer values are a scale


def test_small_integer_codes_are_nominal_with_a_stated_reason():
    ann = Annotations.from_frame(frame([("i", "a", "1"), ("i", "b", "2")]))
    assert ann.kind is LabelKind.NOMINAL
    assert "choose ordinal or numeric" in ann.report.kind_reason


def test_declared_categories_keep_order_and_unused():
    ann = Annotations.from_frame(
        frame([("i", "a", "low"), ("i", "b", "high")]),
        kind="ordinal",
        categories=["low", "mid", "high"],
    )
    assert list(ann.categories) == ["low", "mid", "high"]
    np.testing.assert_array_equal(ann.count_matrix(), [[1, 0, 1]])
    np.testing.assert_array_equal(ann.label_values(), [0.0, 2.0])


def test_declared_text_categories_keep_numeric_looking_labels_as_text():
    ann = Annotations.from_frame(frame([("i", "a", "01"), ("i", "b", "1")]), categories=["01", "1"])
    assert list(ann.categories) == ["01", "1"]


def test_undeclared_label_is_an_error_naming_rows():
    with pytest.raises(AnnotationDataError, match=r"row 3.*not among the declared"):
        Annotations.from_frame(frame([("i", "a", "x"), ("i", "b", "q")]), categories=["x", "y"])


def test_item_ids_stay_text():
    ann = Annotations.from_frame(frame([("4_20", "a", "1"), ("42_0", "a", "1"), ("420", "a", "2")]))
    assert ann.n_items == 3


def test_multilabel_sets_and_empty_set():
    df = pd.DataFrame(
        {
            "item": ["s1", "s1", "s2", "s2"],
            "annotator": ["a", "b", "a", "b"],
            "label": [frozenset({"anger", "fear"}), {"fear"}, frozenset(), ["joy"]],
        }
    )
    ann = Annotations.from_frame(df)
    assert ann.kind is LabelKind.MULTILABEL and ann.n_judgements == 4
    assert ann.labels()[2] == frozenset()  # an empty set is a judgement, not missing
    cm = pd.DataFrame(ann.count_matrix(), index=ann.items, columns=ann.categories)
    assert cm.loc["s1", "fear"] == 2 and cm.loc["s2"].sum() == 1
    b = ann.binary()
    assert b.shape == (2, 2, 3) and ann.judged().all()
    assert len(ann.label_sets_table) == 4


def test_multilabel_text_with_separator_and_subset_keeps_empty_judgements():
    ann = Annotations.from_frame(
        frame([("s", "a", "x;y"), ("s", "b", "y"), ("t", "a", "{}")]), multilabel_sep=";"
    )
    sub = ann.subset(categories=["x"])
    assert sub.n_judgements == 3
    assert [set(s) for s in sub.labels()] == [{"x"}, set(), set()]


@pytest.mark.parametrize(
    ("policy", "expected"), [("first", ["x"]), ("last", ["y"]), ("keep", ["x", "y"])]
)
def test_duplicate_policies(policy, expected):
    df = frame([("i", "a", "x"), ("i", "b", "z"), ("i", "a", "y")])
    ann = Annotations.from_frame(df, duplicates=policy)
    lab = ann.to_frame()
    assert lab.loc[lab.annotator == "a", "label"].tolist() == expected
    assert ann.report.n_duplicates == 1
    assert ann.has_repeats == (policy == "keep")


def test_duplicates_error_lists_rows():
    df = frame([("i", "a", "x"), ("i", "b", "z"), ("i", "a", "y")])
    with pytest.raises(AnnotationDataError, match=r"item 'i' by 'a' \(row 4\)"):
        Annotations.from_frame(df)


def test_rows_without_item_or_annotator_are_skipped_and_reported():
    ann = Annotations.from_frame(frame([("i", "a", "x"), (None, "b", "x"), ("i", "", "y")]))
    assert ann.n_judgements == 1 and ann.report.n_skipped == 2
    assert any("no item id" in str(s) for s in ann.report.skipped)


def test_with_kind_and_fingerprint(small):
    numeric = Annotations.from_frame(frame([("i", "a", "1"), ("i", "b", "2")]))
    assert numeric.with_kind("ordinal").kind is LabelKind.ORDINAL
    with pytest.raises(AnnotationDataError):
        small.with_kind("numeric")
    assert small.fingerprint == small.subset().fingerprint
    assert small.fingerprint != small.subset(annotators=["a"]).fingerprint


def test_as_annotations_accepts_long_dataframe():
    ann = as_annotations(frame([("i", "a", "x"), ("i", "b", "y")]))
    assert isinstance(ann, Annotations) and ann.n_judgements == 2
    with pytest.raises(TypeError):
        as_annotations([1, 2, 3])


# --------------------------------------------------------------------- properties
judgements = st.lists(
    st.tuples(st.integers(0, 6), st.integers(0, 4), st.integers(0, 3)),
    min_size=1,
    max_size=40,
    unique_by=lambda t: t[:2],
)


@given(judgements, st.permutations(range(4)), st.randoms(use_true_random=False))
@settings(max_examples=60, deadline=None)
def test_counts_invariant_to_renaming_and_row_order(rows, perm, rnd):
    df = frame([(f"i{i}", f"a{a}", f"c{c}") for i, a, c in rows])
    base = Annotations.from_frame(df).counts()
    renamed = df.assign(label=df["label"].map({f"c{k}": f"L{perm[k]}" for k in range(4)}))
    shuffled = renamed.sample(frac=1.0, random_state=rnd.randint(0, 10_000))
    other = Annotations.from_frame(shuffled).counts()
    back = other.rename(columns={f"L{perm[k]}": f"c{k}" for k in range(4)})
    pd.testing.assert_frame_equal(
        base.sort_index().sort_index(axis=1),
        back.sort_index().sort_index(axis=1),
        check_names=False,
    )


@given(judgements)
@settings(max_examples=60, deadline=None)
def test_views_agree_with_each_other(rows):
    ann = Annotations.from_frame(frame([(f"i{i}", f"a{a}", f"c{c}") for i, a, c in rows]))
    b = ann.binary()
    np.testing.assert_array_equal(b.sum(axis=1), ann.count_matrix())
    np.testing.assert_array_equal(b.any(axis=2), ann.judged())
    assert ann.count_matrix().sum() == ann.n_judgements == len(rows)
    cov = ann.coverage().to_numpy()
    np.testing.assert_array_equal(np.diag(cov), ann.judgements_per_annotator().to_numpy())
    judged = ann.judged().astype(np.int64)
    np.testing.assert_array_equal(cov, judged.T @ judged)  # items each pair shares


@pytest.mark.parametrize(("n_items", "n_annotators", "per_item"), [(60, 400, 400), (500, 300, 3)])
def test_coverage_of_dense_and_sparse_crowds(n_items, n_annotators, per_item):
    """Both products (dense blocks, sparse) count the items each pair shares."""
    rng = np.random.default_rng(1)
    rows = [
        (f"i{i}", f"a{a}", "x")
        for i in range(n_items)
        for a in rng.choice(n_annotators, per_item, replace=False)
    ]
    ann = Annotations.from_frame(frame(rows))
    judged = ann.judged().astype(np.int64)
    cov = ann.coverage()
    np.testing.assert_array_equal(cov.to_numpy(), judged.T @ judged)
    assert cov.to_numpy().dtype == np.int64 and list(cov.index) == list(ann.annotators)


def test_coverage_is_held_to_the_memory_budget():
    ann = Annotations.from_frame(frame([("i", f"a{a}", "x") for a in range(600)]))
    with memory_budget("1M"), pytest.raises(AnnotationDataError, match="600 x 600 table"):
        ann.coverage()


@pytest.mark.parametrize(("keep", "expected"), [("first", "x"), ("last", "y")])
def test_without_repeats_keeps_one_judgement_per_annotator_and_item(keep, expected):
    ann = Annotations.from_frame(
        frame([("i", "a", "x"), ("i", "b", "z"), ("i", "a", "y")]), duplicates="keep"
    )
    one = ann.without_repeats(keep)
    assert one.n_judgements == 2 and not one.has_repeats
    long = one.to_frame()
    assert long.loc[long.annotator == "a", "label"].item() == expected
    assert ann.without_repeats().n_judgements == 2 and small_unchanged(one)


def small_unchanged(ann: Annotations) -> bool:
    return ann.without_repeats() is ann  # nothing to drop: the same object


def test_agreement_compares_coders_not_repeats():
    from analytics import agreement as ag

    rows = [("1", "a", "y"), ("1", "a", "x"), ("1", "b", "x"), ("2", "a", "x"), ("2", "b", "y")]
    ann = Annotations.from_frame(frame(rows), duplicates="keep")
    # a's last look at item 1 is x, as b's; item 2 disagrees: 1 of 2 coder pairs agree.
    # Pairing a's two looks with each other would give (2 + 0) / (6 + 2) = 0.25.
    assert ag.percent_agreement(ann) == pytest.approx(0.5)
    clean = Annotations.from_frame(frame([rows[1], rows[2], rows[3], rows[4]]))
    assert ag.fleiss_kappa(ann) == pytest.approx(ag.fleiss_kappa(clean))
    report = ag.agreement_report(ann, n_boot=0)
    assert report["note"].str.contains("1 repeated judgements").all()
