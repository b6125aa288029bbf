"""The memory budget: wide data stay within it (blocks, no q x q), or are refused before
allocating with a message that says what, how much, the budget and what to do."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import analytics
from analytics import AnnotationDataError
from analytics._core.budget import (
    BUDGET_ENV,
    DEFAULT_MEMORY_BUDGET,
    budget_bytes,
    check_budget,
    memory_budget,
)
from analytics.agreement import (
    agreement_report,
    cohen_kappa,
    contingency,
    pair_margins,
    pairwise,
    per_category,
)
from analytics.agreement.prepared import prepare
from analytics.agreement.report import gwet_standard_error


def _random(
    n_items: int, n_annotators: int, k: int, share: float = 1.0, seed: int = 0, kind="ordinal"
):
    rng = np.random.default_rng(seed)
    item = np.repeat(np.arange(n_items), n_annotators)
    annotator = np.tile(np.arange(n_annotators), n_items)
    keep = rng.random(len(item)) < share
    label = rng.integers(0, k, len(item))
    frame = pd.DataFrame(
        {
            "item": [f"i{i}" for i in item[keep]],
            "annotator": [f"a{a:03d}" for a in annotator[keep]],
            "label": label[keep] + 1,
        }
    )
    return analytics.as_annotations(frame, kind=kind, categories=list(range(1, k + 1)))


# ---------------------------------------------------------------------- the budget itself
def test_budget_default_env_and_context(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(BUDGET_ENV, raising=False)
    assert budget_bytes() == DEFAULT_MEMORY_BUDGET == 2 * 2**30
    monkeypatch.setenv(BUDGET_ENV, "512M")
    assert budget_bytes() == 512 * 2**20
    with memory_budget(3 * 2**20) as inner:
        assert inner == budget_bytes() == 3 * 2**20
    assert budget_bytes() == 512 * 2**20
    monkeypatch.setenv(BUDGET_ENV, "lots")
    with pytest.raises(AnnotationDataError, match=BUDGET_ENV):
        budget_bytes()


@pytest.mark.parametrize("bad", ["", "-1G", "1K", True, float("nan")])
def test_budget_refuses_nonsense(bad: object) -> None:
    with pytest.raises(AnnotationDataError, match="memory budget"):
        with memory_budget(bad):  # type: ignore[arg-type]
            pass


def test_check_budget_says_what_how_much_the_budget_and_what_to_do() -> None:
    with memory_budget("1M"):
        check_budget(2**20, "exactly the budget", "nothing")
        with pytest.raises(AnnotationDataError) as err:
            check_budget(3 * 2**30, "the big table", "Use a subset.")
    text = str(err.value)
    assert "the big table" in text and "3 GiB" in text and "1 MiB" in text
    assert "Use a subset." in text and BUDGET_ENV in text


# ---------------------------------------------------------------------- engine equality
def _engine(monkeypatch: pytest.MonkeyPatch, products: bool) -> None:
    monkeypatch.setattr(pair_margins, "use_products", lambda p, weighted=False: products)


@pytest.mark.parametrize("share", [1.0, 0.5])
def test_blocks_and_engines_give_the_same_report(
    monkeypatch: pytest.MonkeyPatch, share: float
) -> None:
    ann = _random(40, 30, 4, share=share, seed=int(share * 10))
    _engine(monkeypatch, True)
    products = agreement_report(ann, n_boot=0)
    with memory_budget("1M"):  # many small blocks of first annotators
        assert len(list(pair_margins.pair_margin_blocks(prepare(ann), None))) > 1
        blocked = agreement_report(ann, n_boot=0)
    _engine(monkeypatch, False)
    pairs = agreement_report(ann, n_boot=0)
    with memory_budget("1M"):
        blocked_pairs = agreement_report(ann, n_boot=0)
    for other in (blocked, pairs, blocked_pairs):
        np.testing.assert_allclose(other["value"], products["value"], rtol=1e-12, atol=1e-15)
        assert other["note"].tolist() == products["note"].tolist()


@pytest.mark.parametrize("coefficient", ["cohen_kappa", "scott_pi", "percent_agreement"])
def test_pairwise_is_the_same_in_blocks_and_by_either_engine(
    monkeypatch: pytest.MonkeyPatch, coefficient: str
) -> None:
    ann = _random(30, 25, 3, share=0.7, seed=3)
    _engine(monkeypatch, True)
    products = pairwise(ann, coefficient).values.to_numpy()
    with memory_budget("1M"):
        blocked = pairwise(ann, coefficient).values.to_numpy()
    _engine(monkeypatch, False)
    pairs = pairwise(ann, coefficient).values.to_numpy()
    for other in (blocked, pairs):
        np.testing.assert_array_equal(np.isnan(other), np.isnan(products))
        np.testing.assert_allclose(other, products, rtol=1e-12, equal_nan=True)


def test_the_pair_mean_equals_the_mean_of_the_pairwise_table() -> None:
    ann = _random(20, 12, 3, share=0.8, seed=5)
    table = pairwise(ann, "cohen_kappa").values.to_numpy()
    upper = table[np.triu_indices_from(table, 1)]
    with memory_budget("1M"):
        light = cohen_kappa(ann)
    assert float(light) == pytest.approx(np.nanmean(upper), rel=1e-12)


# ---------------------------------------------------------------------- refusals
def test_pairwise_refuses_a_table_over_the_budget_before_allocating() -> None:
    ann = _random(3, 400, 2)  # 400 x 400 tables: about 7.3 MiB estimated
    with memory_budget("2M"), pytest.raises(AnnotationDataError) as err:
        pairwise(ann)
    text = str(err.value)
    assert "pairwise table of 400 annotators" in text and "79,800 annotator pairs" in text
    assert "2 MiB" in text and "subset" in text


def test_report_refuses_only_the_bootstrap_of_pair_means_over_the_budget() -> None:
    ann = _random(30, 60, 3, seed=2)
    with memory_budget("1M"):
        report = agreement_report(ann, n_boot=20)
    rows = report.set_index("coefficient")
    light = rows.loc["Cohen's kappa (Light's mean over pairs)"]
    assert np.isfinite(light["value"]) and np.isnan(light["ci_low"])
    assert "memory budget" in light["ci_method"] and "n_boot=0" in light["note"]
    fleiss = rows.loc["Fleiss' kappa"]
    assert np.isfinite(fleiss["ci_low"]) and "bootstrap" in fleiss["ci_method"]
    assert light["value"] == pytest.approx(
        agreement_report(ann, n_boot=0).set_index("coefficient").loc[light.name, "value"]
    )


def test_per_category_contingency_and_weights_refuse_over_the_budget() -> None:
    ann = _random(300, 2, 300)
    with memory_budget("1M"):
        with pytest.raises(AnnotationDataError, match="300 x 300 agreement weights"):
            cohen_kappa(ann, weights="quadratic")
        with pytest.raises(AnnotationDataError, match="per category of 300 items x 300"):
            per_category(ann, n_boot=0)
        with pytest.raises(AnnotationDataError, match="300 x 300 table"):
            contingency(ann, "a000", "a001")


# ---------------------------------------------------------------------- many categories
def test_many_categories_need_no_q_by_q_arrays() -> None:
    import tracemalloc

    ann = _random(300, 2, 3000, kind="nominal")  # one 3,000 x 3,000 float array is 72 MB
    tracemalloc.start()
    try:
        report = agreement_report(ann, n_boot=0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 40 * 2**20
    two = report.set_index("coefficient")
    assert np.isfinite(two.loc["Cohen's kappa", "ci_low"])  # the analytic SE, from labels
    se = gwet_standard_error(prepare(ann), None, "fleiss_kappa")
    assert se == pytest.approx(gwet_standard_error(prepare(ann), np.eye(3000), "fleiss_kappa"))


def test_cohen_se_from_labels_matches_the_table_formula() -> None:
    ann = _random(80, 2, 4, seed=9)
    p = prepare(ann)
    table = contingency(ann, "a000", "a001").to_numpy(dtype=float)
    n = table.sum()
    prob = table / n
    row, col = prob.sum(axis=1), prob.sum(axis=0)
    pe = row @ col
    kappa = (np.trace(prob) - pe) / (1 - pe)
    term_a = (np.diag(prob) * (1 - (row + col) * (1 - kappa)) ** 2).sum()
    term_b = prob * (col[:, None] + row[None, :]) ** 2
    np.fill_diagonal(term_b, 0.0)
    var = (term_a + (1 - kappa) ** 2 * term_b.sum() - (kappa - pe * (1 - kappa)) ** 2) / (
        (1 - pe) ** 2 * n
    )
    report = agreement_report(ann, n_boot=0).set_index("coefficient")
    half = report.loc["Cohen's kappa", "value"] - report.loc["Cohen's kappa", "ci_low"]
    from scipy import stats

    assert half == pytest.approx(stats.t.ppf(0.975, p.ann.n_items - 1) * np.sqrt(var))
