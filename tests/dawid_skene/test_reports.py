"""The comparison tables, each checked against a plain-loop computation."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError, Annotations
from analytics.dawid_skene import (
    annotator_information,
    annotator_table,
    confident_share,
    fit,
    gold_accuracy,
    item_judgements,
    majority_agreement,
    model_labels_table,
    mutual_information,
    prevalence_comparison,
    spammer_scores,
)

ROWS = [
    ("i1", "a", "x"),
    ("i1", "b", "x"),
    ("i1", "c", "y"),
    ("i2", "a", "y"),
    ("i2", "b", "y"),
    ("i2", "c", "y"),
    ("i3", "a", "x"),
    ("i3", "b", "z"),
    ("i3", "c", "z"),
    ("i4", "a", "z"),
    ("i4", "c", "x"),
    ("i5", "b", "x"),
    ("i5", "c", "x"),
    ("i5", "a", "y"),
    ("i6", "a", "x"),
    ("i6", "b", "y"),
    ("i6", "c", "z"),
    ("i7", "a", "y"),
    ("i7", "b", "y"),
    ("i7", "c", "x"),
    ("i8", "a", "x"),
    ("i8", "b", "x"),
]


@pytest.fixture(scope="module")
def ann() -> Annotations:
    return Annotations.from_frame(pd.DataFrame(ROWS, columns=["item", "annotator", "label"]))


@pytest.fixture(scope="module")
def res(ann):
    return fit(ann, smoothing=0.2)


def votes_of(ann):
    out = {}
    for i, _, y in ROWS:
        out.setdefault(i, {}).setdefault(y, 0)
        out[i][y] += 1
    return out


def mv_share(ann, item, cat) -> float:
    v = votes_of(ann)[item]
    top = max(v.values())
    tied = [c for c, n in v.items() if n == top]
    return 1 / len(tied) if cat in tied else 0.0


def test_annotator_table_against_loops(res):
    t = annotator_table(res)
    pi = res.prevalence
    for a, mat in res.confusion.items():
        acc = sum(pi[c] * mat.loc[c, c] for c in pi.index)
        assert t.loc[a, "accuracy"] == pytest.approx(acc)
        for c in pi.index:
            assert t.loc[a, f"accuracy on {c}"] == pytest.approx(mat.loc[c, c])
            use = sum(pi[z] * mat.loc[z, c] for z in pi.index)
            assert t.loc[a, f"bias toward {c}"] == pytest.approx(use - pi[c])
        assert t.loc[a, "mutual information (bits)"] == pytest.approx(mutual_information(mat, pi))
        rows = mat.to_numpy()
        tv = [0.5 * abs(rows[i] - rows[j]).sum() for i in range(3) for j in range(i + 1, 3)]
        assert t.loc[a, "spammer score"] == pytest.approx(1 - sum(tv) / len(tv))
    assert t["judgements"].to_dict() == {"a": 8, "b": 7, "c": 7}
    bias = t[[c for c in t.columns if c.startswith("bias")]].sum(axis=1)
    np.testing.assert_allclose(bias, 0.0, atol=1e-12)


def test_spammer_scores_extremes():
    spam = np.array([[[0.5, 0.3, 0.2]] * 3])
    assert spammer_scores(spam) == pytest.approx([1.0])
    assert spammer_scores(np.eye(3)[None]) == pytest.approx([0.0])
    assert np.isnan(spammer_scores(np.ones((2, 1, 1)))).all()


def test_annotator_information_sorted(res):
    info = annotator_information(res)
    assert info["mutual information (bits)"].is_monotonic_decreasing
    h = -sum(p * math.log2(p) for p in res.prevalence)
    np.testing.assert_allclose(info["share of maximum"], info["mutual information (bits)"] / h)


def test_prevalence_comparison(ann, res):
    t = prevalence_comparison(res)
    items = sorted({i for i, _, _ in ROWS})
    for c in ["x", "y", "z"]:
        assert t.loc[c, "model"] == pytest.approx(res.prevalence[c])
        assert t.loc[c, "majority vote"] == pytest.approx(
            sum(mv_share(ann, i, c) for i in items) / len(items)
        )
        assert t.loc[c, "raw frequency"] == pytest.approx(
            sum(y == c for _, _, y in ROWS) / len(ROWS)
        )
    np.testing.assert_allclose(t.sum(), 1.0)


def test_confident_share(res):
    t = confident_share(res, threshold=0.9)
    for c in res.categories:
        mine = res.labels == c
        assert t.loc[str(c), "items"] == mine.sum()
        assert t.loc[str(c), "confident items"] == (mine & (res.confidence >= 0.9)).sum()
    assert t.loc["all categories", "items"] == len(res.items)
    assert t.loc["all categories", "share of all items"] == pytest.approx(
        (res.confidence >= 0.9).mean()
    )


def test_majority_agreement_fractional_ties(ann, res):
    t = majority_agreement(res)
    agree = sum(mv_share(ann, i, res.labels[i]) for i in res.items)
    assert t.loc["all categories", "agree"] == pytest.approx(agree)
    assert t.loc["all categories", "share"] == pytest.approx(agree / len(res.items))


def test_gold_accuracy(ann, res):
    gold = {"i1": "x", "i2": "y", "i3": "z", "i6": "z", "i7": "q", "other": "x"}
    t = gold_accuracy(res, gold)
    used = ["i1", "i2", "i3", "i6", "i7"]
    mv = sum(mv_share(ann, i, gold[i]) for i in used)  # "q" is not a category: wrong
    ds = sum(res.labels[i] == gold[i] for i in used)
    assert t.loc["majority vote", "items"] == 5
    assert t.loc["majority vote", "correct"] == pytest.approx(mv)
    assert t.loc["Dawid-Skene", "accuracy"] == pytest.approx(ds / 5)
    assert t.loc["majority vote", "tied items"] == 1  # i6
    clamped = fit(ann, gold={"i1": "x", "i6": "z"})
    assert gold_accuracy(clamped, gold).loc["Dawid-Skene", "items"] == 3
    assert gold_accuracy(clamped, gold, exclude_clamped=False).iloc[0]["items"] == 5
    with pytest.raises(AnnotationDataError, match="no item"):
        gold_accuracy(res, {"nope": "x"})


def test_model_labels_table_and_item_judgements(ann, res):
    t = model_labels_table(res).set_index("item")
    assert t.loc["i6", "categories tied at top"] == 3 and t.loc["i8", "categories tied at top"] == 1
    assert t.loc["i8", "majority label"] == "x" and t.loc["i8", "judgements"] == 2
    for i in res.items:
        assert t.loc[i, "agrees with majority"] == (mv_share(ann, i, res.labels[i]) > 0)
        # the row never contradicts itself: it agrees exactly when it shows the same label
        agrees = t.loc[i, "agrees with majority"]
        assert agrees == (t.loc[i, "majority label"] == t.loc[i, "label"]), i
    np.testing.assert_allclose(t[["p(x)", "p(y)", "p(z)"]].to_numpy(), res.posteriors.to_numpy())
    j = item_judgements(ann, res, "i3")
    assert list(j["annotator"]) == ["a", "b", "c"] and list(j["label"]) == ["x", "z", "z"]
    z = res.labels["i3"]
    assert j.loc[1, "p(label | model label)"] == pytest.approx(res.confusion["b"].loc[z, "z"])
    with pytest.raises(AnnotationDataError):
        item_judgements(ann, res, "nope")


def test_one_category_tables_say_why():
    one = Annotations.from_frame(
        pd.DataFrame(
            [("i1", "a", "x"), ("i1", "b", "x"), ("i2", "a", "x")],
            columns=["item", "annotator", "label"],
        )
    )
    t = annotator_table(fit(one))
    assert t["mutual information (bits)"].isna().all()
    assert t["spammer score"].isna().all()
    assert t["note"].str.contains("one category").all()


def test_gold_accuracy_refuses_a_whole_table_in_words():
    """pd.read_csv(gold) passed as gold raised pandas' 'Cannot construct a Series from a
    DataFrame'."""
    import analytics
    from analytics.dawid_skene import fit, gold_accuracy

    ann = analytics.load_annotations(
        pd.DataFrame({"item": [1, 1, 2, 2], "annotator": ["a", "b"] * 2, "label": list("xxyy")})
    )
    table = pd.DataFrame({"item": [1, 2], "label": ["x", "y"]})
    with pytest.raises(analytics.AnnotationDataError, match="not one label per item"):
        gold_accuracy(fit(ann), table)
    assert (
        gold_accuracy(fit(ann), table.set_index("item")["label"]).loc["Dawid-Skene", "items"] == 2
    )


def test_gold_accuracy_names_the_model_and_refuses_gold_in_other_values():
    import analytics.models as models
    from analytics.data import load_sample, sample_truth

    rte = load_sample("rte_snow2008")
    truth = sample_truth("rte_snow2008")
    mace = models.fit(rte, model="mace")
    assert list(gold_accuracy(mace, truth).index) == ["majority vote", "mace"]
    assert list(gold_accuracy(fit(rte), truth).index) == ["majority vote", "Dawid-Skene"]
    # "yes"/"no" against 0/1 labels: a mismatch, not a model wrong on every item
    words = truth.map({0: "no", 1: "yes", "0": "no", "1": "yes"})
    with pytest.raises(AnnotationDataError, match="none of the gold labels"):
        gold_accuracy(fit(rte), words)
    # the message shows the labels of the items scored, not those of items not in the data
    odd = pd.Series({"nowhere": "1", rte.items[0]: "banana"})
    with pytest.raises(AnnotationDataError, match=r"of the 1 item scored \('banana'\) is among"):
        gold_accuracy(fit(rte), odd)


def test_gold_for_items_not_in_the_data_is_said_not_silently_ignored():
    from analytics.data import load_sample, sample_truth

    crowd = load_sample()
    gold = pd.concat([sample_truth("crowd_intents").iloc[:5], pd.Series({"nope": "question"})])
    result = fit(crowd, gold=gold)
    assert len(result.gold_items) == 5
    assert any("1 of the 6 gold labels name items not in the data" in n for n in result.notes)
    assert not any("gold labels name items" in n for n in fit(crowd).notes)
