"""Agreement coefficients: invariances, bounds, perfect agreement, degenerate data."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analytics import Annotations
from analytics import agreement as ag
from analytics.agreement.krippendorff import alpha_statistic
from analytics.agreement.prepared import prepare
from tests.helpers.builders import from_coders, random_coders

SCALARS = [
    ag.percent_agreement,
    ag.cohen_kappa,
    ag.scott_pi,
    ag.fleiss_kappa,
    ag.conger_kappa,
    ag.brennan_prediger,
    ag.gwet_ac1,
    ag.krippendorff_alpha,
]


@st.composite
def coder_data(draw):
    n_coders = draw(st.integers(2, 4))
    n_items = draw(st.integers(3, 12))
    n_values = draw(st.integers(2, 4))
    cell = st.one_of(st.none(), st.integers(0, n_values - 1))
    rows = [draw(st.lists(cell, min_size=n_items, max_size=n_items)) for _ in range(n_coders)]
    return rows


def _frame(rows) -> pd.DataFrame:
    recs = [
        (f"u{u}", f"c{c}", v)
        for c, row in enumerate(rows)
        for u, v in enumerate(row)
        if v is not None
    ]
    return pd.DataFrame(recs, columns=["item", "annotator", "label"])


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) < 1e-9


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(coder_data(), st.randoms(use_true_random=False))
def test_renaming_and_reordering_change_nothing(rows, rnd):
    df = _frame(rows)
    if df.empty:
        return
    cats = sorted(df["label"].unique())
    base = Annotations.from_frame(df, kind="nominal", categories=cats)
    # rename categories to text, shuffle rows (items and annotators appear in a new order)
    names = {c: f"cat_{(c * 7 + 3) % 11}" for c in cats}
    renamed = df.assign(label=df["label"].map(names), annotator="r" + df["annotator"])
    perm = list(range(len(renamed)))
    rnd.shuffle(perm)
    shuffled = renamed.iloc[perm].reset_index(drop=True)
    other_order = sorted(names.values(), reverse=True)
    alt = Annotations.from_frame(shuffled, kind="nominal", categories=other_order)
    for fn in SCALARS:
        assert _same(fn(base), fn(alt)), fn.__name__
    if {"c0", "c1"} <= set(df["annotator"]):
        assert _same(ag.cohen_kappa(base, "c0", "c1"), ag.cohen_kappa(alt, "rc0", "rc1"))


@settings(max_examples=40, deadline=None)
@given(coder_data())
def test_bounds(rows):
    df = _frame(rows)
    if df.empty:
        return
    ann = Annotations.from_frame(df, kind="nominal")
    pa = ag.percent_agreement(ann)
    assert math.isnan(pa) or 0 <= pa <= 1
    for fn in SCALARS[1:]:
        v = fn(ann)
        # chance-corrected coefficients are at most 1; only the pairwise kappas are at least
        # -1 (with missing judgements Gwet's Fleiss/AC1 and alpha can fall below -1)
        assert math.isnan(v) or v <= 1 + 1e-9, fn.__name__
        if fn in (ag.cohen_kappa, ag.scott_pi):
            assert math.isnan(v) or v >= -1 - 1e-9
        if math.isnan(v):
            assert v.note, f"{fn.__name__} is NaN without a reason"


def test_perfect_agreement_gives_one_everywhere():
    rows = [[0, 1, 2, 1, 0, 2, None], [0, 1, 2, 1, 0, 2, 1], [0, None, 2, 1, 0, 2, 1]]
    ann = from_coders(rows, kind="numeric")
    for fn in SCALARS:
        assert fn(ann) == pytest.approx(1.0), fn.__name__
    for d in ["ordinal", "interval", "ratio"]:
        assert ag.krippendorff_alpha(ann, d) == pytest.approx(1.0)
    report = ag.agreement_report(ann, n_boot=50)
    assert np.allclose(report["value"], 1.0)


def test_bootstrap_intervals_cover_the_estimate_and_are_reproducible():
    rng = np.random.default_rng(0)
    ann = from_coders(random_coders(rng, 200, 4, 3, missing=0.2))
    r1 = ag.agreement_report(ann, n_boot=300, seed=5)
    r2 = ag.agreement_report(ann, n_boot=300, seed=5)
    pd.testing.assert_frame_equal(r1, r2)
    ok = r1["value"].notna()
    assert (
        (r1.loc[ok, "ci_low"] <= r1.loc[ok, "value"])
        & (r1.loc[ok, "value"] <= r1.loc[ok, "ci_high"])
    ).all()
    assert r1["ci_method"].str.contains("bootstrap").all()
    r3 = ag.agreement_report(ann, n_boot=300, seed=6)
    assert not np.allclose(r1["ci_low"], r3["ci_low"])


def test_bootstrap_matches_a_copying_bootstrap():
    """Resampling with counts equals resampling items by copying them (same draws)."""
    from analytics._core.bootstrap import Patterns, bootstrap_replicates

    rng = np.random.default_rng(1)
    ann = from_coders(random_coders(rng, 40, 3, 3, missing=0.2))
    p = prepare(ann)
    stat = alpha_statistic(ann, "nominal")
    reps = bootstrap_replicates({"a": stat}, Patterns.identity(ann.n_items), 20, seed=3)["a"]
    draw = np.random.default_rng(3).integers(0, ann.n_items, size=(20, ann.n_items))
    frame = ann.to_frame()
    for b in range(20):
        parts = []
        for k, i in enumerate(draw[b]):
            part = frame[frame["item"] == ann.items[i]].assign(item=f"copy{k}")
            parts.append(part)
        copied = Annotations.from_frame(
            pd.concat(parts), kind="nominal", categories=list(ann.categories)
        )
        assert _same(ag.krippendorff_alpha(copied), reps[b])
    assert p.patterns.n_items == ann.n_items


DEGENERATE = {
    "one category": [[0, 0, 0], [0, 0, 0]],
    "no shared items": [[0, 1, None, None], [None, None, 1, 0]],
    "one annotator": [[0, 1, 1, 0]],
}


@pytest.mark.parametrize("case", list(DEGENERATE))
def test_degenerate_data_give_nan_with_a_reason(case):
    ann = from_coders(DEGENERATE[case], categories=[0, 1])
    for fn in SCALARS:
        v = fn(ann)
        assert math.isnan(v), (case, fn.__name__, v)
        assert v.note, (case, fn.__name__)
    report = ag.agreement_report(ann, n_boot=20)
    chance = report[report["coefficient"] != "Percent agreement"]
    assert chance["value"].isna().all()
    assert (chance["note"].str.len() > 0).all()
    table = ag.per_category(ann, n_boot=20)
    assert table["fleiss_kappa"].isna().all()
    assert (table["note"].str.len() > 0).all()
    pw = ag.pairwise(ann)
    assert pw.values.shape == (ann.n_annotators, ann.n_annotators)
    ag.item_agreement(ann)
    ag.agreement_levels(ann)


def test_unknown_annotator_and_bad_arguments_are_plain_errors():
    ann = from_coders([[0, 1], [1, 1]])
    from analytics._core.errors import AnnotationDataError

    with pytest.raises(AnnotationDataError, match="unknown annotator"):
        ag.cohen_kappa(ann, "c0", "nobody")
    with pytest.raises(AnnotationDataError, match="both"):
        ag.cohen_kappa(ann, "c0")
    with pytest.raises(AnnotationDataError, match="weights"):
        ag.cohen_kappa(ann, weights="cubic")
    with pytest.raises(AnnotationDataError, match="2 categories"):
        ag.cohen_kappa(ann, weights=np.eye(3))
    with pytest.raises(AnnotationDataError, match="distance"):
        ag.krippendorff_alpha(ann, "masi")
    text = Annotations.from_frame(
        pd.DataFrame({"item": ["a", "a"], "annotator": ["x", "y"], "label": ["lo", "hi"]})
    )
    with pytest.raises(AnnotationDataError, match="numeric"):
        ag.krippendorff_alpha(text, "interval")


def test_text_ordinal_uses_declared_order():
    df = pd.DataFrame(
        {
            "item": ["a", "a", "b", "b", "c", "c", "d", "d"],
            "annotator": ["x", "y"] * 4,
            "label": ["low", "mid", "high", "high", "mid", "mid", "low", "high"],
        }
    )
    ordered = Annotations.from_frame(df, kind="ordinal", categories=["low", "mid", "high"])
    numeric = Annotations.from_frame(
        df.assign(label=df["label"].map({"low": 1, "mid": 2, "high": 3})), kind="numeric"
    )
    assert ag.krippendorff_alpha(ordered, "ordinal") == pytest.approx(
        ag.krippendorff_alpha(numeric, "ordinal")
    )
    scrambled = Annotations.from_frame(df, kind="ordinal", categories=["mid", "low", "high"])
    assert ag.krippendorff_alpha(scrambled, "ordinal") != pytest.approx(
        ag.krippendorff_alpha(ordered, "ordinal")
    )


def test_default_distance_follows_the_label_kind():
    df = pd.DataFrame({"item": ["a", "a"], "annotator": ["x", "y"], "label": [1, 2]})
    assert ag.default_distance(Annotations.from_frame(df, kind="nominal")) == "nominal"
    assert ag.default_distance(Annotations.from_frame(df, kind="ordinal")) == "ordinal"
    assert ag.default_distance(Annotations.from_frame(df, kind="numeric")) == "interval"
    ml = pd.DataFrame({"item": ["a", "a"], "annotator": ["x", "y"], "label": ["p|q", "q"]})
    assert ag.default_distance(Annotations.from_frame(ml, multilabel_sep="|")) == "masi"


def test_repeated_judgements_use_the_last_look_everywhere():
    df = pd.DataFrame(
        {
            "item": ["a", "a", "a", "b", "b", "c", "c"],
            "annotator": ["x", "x", "y", "x", "y", "x", "y"],
            "label": [0, 1, 1, 0, 0, 1, 0],
        }
    )
    ann = Annotations.from_frame(df, kind="nominal", duplicates="keep")
    last = Annotations.from_frame(df.drop(index=0), kind="nominal")
    assert ag.cohen_kappa(ann, "x", "y") == pytest.approx(ag.cohen_kappa(last, "x", "y"))
    # a repeat is not a second coder: alpha, like the pairwise kappas, sees the last look
    assert ag.krippendorff_alpha(ann) == pytest.approx(ag.krippendorff_alpha(last))
    assert ag.fleiss_kappa(ann) == pytest.approx(ag.fleiss_kappa(last))
    report = ag.agreement_report(ann, n_boot=20)
    assert report["note"].str.contains("last judgement").all()


@settings(max_examples=60, deadline=None)
@given(coder_data(), st.sampled_from(["nominal", "ordinal", "interval", "ratio"]))
def test_alpha_matches_krippendorff_package_on_arbitrary_small_data(rows, distance):
    import krippendorff

    df = _frame(rows)
    if df.empty:
        return
    ann = Annotations.from_frame(df.assign(label=df["label"] + 1), kind="numeric")
    ours = ag.krippendorff_alpha(ann, distance)
    matrix = np.array([[np.nan if v is None else v + 1 for v in row] for row in rows], float)
    try:
        with np.errstate(all="ignore"):
            theirs = krippendorff.alpha(matrix, level_of_measurement=distance)
    except ValueError:  # the package refuses data without a pairable unit or value
        theirs = float("nan")
    if math.isnan(ours):
        assert ours.note
        assert not np.isfinite(theirs)  # the package also finds alpha undefined
    else:
        assert ours == pytest.approx(theirs, abs=1e-9)
