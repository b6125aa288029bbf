"""The DuckDB engine gives the in-memory engine's agreement numbers (issue 18).

Random data sets with missing judgements (hypothesis) go through both engines: every
coefficient agrees to 1e-9, with the same note and item count; faults name their cause.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analytics import AnnotationDataError, agreement
from analytics import load_annotations as load
from analytics.data import Annotations

pytest.importorskip("duckdb")

COEFFS = [
    ("percent_agreement", {}),
    ("fleiss_kappa", {}),
    ("gwet_ac1", {}),
    ("gwet_ac1", {"weights": "quadratic"}),
    ("brennan_prediger", {}),
    ("conger_kappa", {}),
    ("krippendorff_alpha", {}),
    ("krippendorff_alpha", {"distance": "ordinal"}),
    ("krippendorff_alpha", {"distance": "interval"}),
    ("cohen_kappa", {}),
    ("cohen_kappa", {"weights": "linear"}),
    ("scott_pi", {}),
]


def random_frame(seed: int, n_items: int, n_annotators: int, q: int, p_missing: float):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, q, n_items)
    item = np.repeat(np.arange(n_items), n_annotators)
    ann = np.tile(np.arange(n_annotators), n_items)
    noisy = rng.random(len(item)) < 0.4
    label = np.where(noisy, rng.integers(0, q, len(item)), truth[item])
    keep = rng.random(len(item)) >= p_missing
    return pd.DataFrame(
        {
            "item": [f"i{i}" for i in item[keep]],
            "annotator": [f"a{a}" for a in ann[keep]],
            "label": label[keep] + 1,
        }
    )


def same(x: agreement.Coefficient, y: agreement.Coefficient) -> None:
    if np.isnan(y):
        assert np.isnan(x) and x.reason == y.reason
    else:
        assert abs(float(x) - float(y)) < 1e-9
    assert x.items_used == y.items_used
    assert x.note == y.note


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    n_items=st.integers(1, 40),
    n_annotators=st.integers(1, 5),
    q=st.integers(1, 4),
    p_missing=st.sampled_from([0.0, 0.3, 0.7]),
)
def test_every_coefficient_equals_the_memory_engine(seed, n_items, n_annotators, q, p_missing):
    df = random_frame(seed, n_items, n_annotators, q, p_missing)
    if df.empty:
        return
    cats = list(range(1, q + 1))
    mem = Annotations.from_frame(df, categories=cats, kind="ordinal")
    lazy = load(df, engine="duckdb", categories=cats, kind="ordinal")
    assert (lazy.n_items, lazy.n_judgements) == (mem.n_items, mem.n_judgements)
    for name, kw in COEFFS:
        same(getattr(agreement, name)(lazy, **kw), getattr(agreement, name)(mem, **kw))


def test_the_report_has_the_memory_values_and_bootstrap_intervals(tmp_path):
    df = random_frame(3, 120, 4, 3, 0.2)
    df.to_parquet(tmp_path / "j.parquet")
    lazy = load(tmp_path / "j.parquet", engine="duckdb", kind="ordinal")
    mem = Annotations.from_frame(df, kind="ordinal")
    got = agreement.agreement_report(lazy, n_boot=200)
    want = agreement.agreement_report(mem, n_boot=200)
    assert got["coefficient"].tolist() == want["coefficient"].tolist()
    np.testing.assert_allclose(got["value"], want["value"], atol=1e-9)
    assert (got["items_used"] == want["items_used"]).all()
    fleiss = got.set_index("coefficient").loc["Fleiss' kappa"]
    assert fleiss.ci_low < fleiss.value < fleiss.ci_high
    conger = got.set_index("coefficient").loc["Conger's kappa"]
    assert np.isnan(conger.ci_low) and "none" in conger.ci_method


def test_named_pair_and_csv_source(tmp_path):
    df = random_frame(5, 60, 3, 3, 0.1)
    df.to_csv(tmp_path / "j.csv", index=False)
    lazy = load(tmp_path / "j.csv", engine="duckdb")
    mem = Annotations.from_frame(df)
    same(agreement.cohen_kappa(lazy, "a2", "a0"), agreement.cohen_kappa(mem, "a2", "a0"))
    with pytest.raises(AnnotationDataError, match="unknown annotator"):
        agreement.cohen_kappa(lazy, "a0", "nobody")


def test_faults_name_their_cause(tmp_path):
    df = random_frame(1, 10, 2, 2, 0.0)
    df.rename(columns={"label": "verdict"}).to_parquet(tmp_path / "x.parquet")
    with pytest.raises(AnnotationDataError, match=r"x\.parquet.*column 'label'"):
        load(tmp_path / "x.parquet", engine="duckdb")
    with pytest.raises(AnnotationDataError, match="no such file"):
        load(tmp_path / "nope.parquet", engine="duckdb")
    first = df.iloc[0]
    with pytest.raises(AnnotationDataError, match="1 repeated judgement ") as err:
        load(pd.concat([df, df.iloc[:1]]), engine="duckdb")
    # an example, as the in-memory loader names its repeats
    assert f"e.g. annotator '{first['annotator']}' on item '{first['item']}' (2 times)" in str(
        err.value
    )
    with pytest.raises(AnnotationDataError, match="outside the declared"):
        load(df, engine="duckdb", categories=[1])
    with pytest.raises(AnnotationDataError, match="unknown engine"):
        load(df, engine="sqlite")
    kept = load(pd.concat([df, df.iloc[:1]]), engine="duckdb", duplicates="keep")
    with pytest.raises(AnnotationDataError, match="judged an item twice"):
        agreement.fleiss_kappa(kept)


def test_missing_labels_are_skipped_as_in_memory():
    df = pd.DataFrame(
        {
            "item": ["i1", "i1", "i2", "i2", "i3"],
            "annotator": ["a", "b"] * 2 + ["a"],
            "label": ["x", "N/A", "y", "y", " "],
        }
    )
    lazy = load(df, engine="duckdb")
    mem = Annotations.from_frame(df)
    assert lazy.n_judgements == mem.n_judgements == 3
    same(agreement.percent_agreement(lazy), agreement.percent_agreement(mem))


def test_an_analysis_without_an_engine_answer_says_so():
    lazy = load(random_frame(1, 10, 2, 2, 0.0), engine="duckdb")
    with pytest.raises(AnnotationDataError, match="never substituted"):
        agreement.per_category(lazy)


def test_options_the_engine_does_not_compute_are_refused_not_dropped():
    lazy = load(random_frame(1, 10, 2, 2, 0.0), engine="duckdb")
    with pytest.raises(AnnotationDataError, match="finite-population correction"):
        agreement.agreement_report(lazy, n_boot=0, population=1000)
    with pytest.raises(AnnotationDataError, match="weighted agreement report"):
        agreement.agreement_report(lazy, n_boot=0, weights="linear")
    with pytest.raises(AnnotationDataError, match="weighted Scott's pi"):
        agreement.scott_pi(lazy, weights="linear")


def test_ordinal_alpha_on_undeclared_text_says_which_order_it_used(tmp_path):
    """The engine sorts text categories (it keeps no input order) but its note said
    'first-seen order', the memory engine's; declared, both agree."""
    df = pd.DataFrame(
        {
            "item": [1, 1, 2, 2, 3, 3, 4, 4, 5, 5],
            "annotator": ["a", "b"] * 5,
            "label": ["mid", "low", "low", "low", "high", "mid", "high", "high", "mid", "mid"],
        }
    )
    df.to_parquet(tmp_path / "j.parquet")
    lazy = load(tmp_path / "j.parquet", engine="duckdb")
    mem = Annotations.from_frame(df)
    assert "sorted order, NOT declared" in agreement.krippendorff_alpha(lazy, "ordinal").note
    assert "first-seen order, NOT declared" in agreement.krippendorff_alpha(mem, "ordinal").note
    order = ["low", "mid", "high"]
    lazy = load(tmp_path / "j.parquet", engine="duckdb", categories=order)
    mem = Annotations.from_frame(df, categories=order)
    same(
        agreement.krippendorff_alpha(lazy, "ordinal"), agreement.krippendorff_alpha(mem, "ordinal")
    )


def test_the_pair_limit_counts_the_pairs_that_share_items(monkeypatch):
    """The limit on the pairwise means counts annotator pairs that share an item, not all
    possible pairs: 2,000 annotators of which few share items had been refused."""
    import analytics.agreement.on_engine as eng

    rng = np.random.default_rng(0)
    rows = [  # 30 annotators (435 possible pairs); only (a0, a1) and (a2, a3) share items
        (f"i{i}", f"a{a}", int(rng.integers(0, 3)))
        for i in range(60)
        for a in ((0, 1) if i % 2 else (2, 3))
    ] + [(f"solo{a}", f"a{a}", 0) for a in range(4, 30)]
    df = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    lazy = load(df, engine="duckdb")
    assert lazy.n_annotators == 30 and lazy.sharing_pairs() == 2
    monkeypatch.setattr(eng, "MAX_ENGINE_PAIRS", 10)  # below the 435 possible pairs
    report = agreement.agreement_report(lazy, n_boot=0)
    light = report[report["coefficient"].str.contains("Light")].iloc[0]
    memory = agreement.agreement_report(load(df), n_boot=0)
    expected = memory[memory["coefficient"].str.contains("Light")].iloc[0]["value"]
    assert light["value"] == pytest.approx(expected)
    monkeypatch.setattr(eng, "MAX_ENGINE_PAIRS", 1)
    report = agreement.agreement_report(load(df, engine="duckdb"), n_boot=0)
    light = report[report["coefficient"].str.contains("Light")].iloc[0]
    assert np.isnan(light["value"]) and "2 annotator pairs share items" in light["note"]
