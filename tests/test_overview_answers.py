"""analytics.overview.overview: five answers, one recommendation, stated rules."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import Annotations, load_annotations
from analytics.data import load_sample
from analytics.overview import MERGE_SHARE, Severity, expected_label_error, judge, overview
from tests.helpers.paths import FIXTURES, ROOT

KEYS = ["agreement", "noise", "annotators", "gold", "more_labels"]


@pytest.fixture(scope="module")
def crowd():
    return load_sample("crowd_intents")


def test_five_answers_with_pages_and_verdicts(crowd):
    result = overview(crowd)
    assert [a.key for a in result.answers] == KEYS
    for a in result.answers:
        assert a.page.startswith("pages/") and a.sentence and a.number
        assert (ROOT / a.page).is_file(), a.page  # a page the app still has
    assert result.answers[2].page == "pages/gold_labels.py"  # annotators: the model's views
    table = result.to_frame()
    assert list(table["severity"]) == [a.verdict.label for a in result.answers]


def test_the_sample_spammer_is_the_recommendation(crowd):
    """The sample was simulated with spammer w19: the overview names it."""
    result = overview(crowd)
    assert "w19" in result.answers[2].sentence
    assert result.recommendation.text.startswith("Annotator w19 labels at chance")


def test_numbers_match_their_sources(crowd):
    from analytics.agreement import krippendorff_alpha
    from analytics.noise import noise_from_annotations

    result = overview(crowd, confidence=0.99)
    assert result.answers[0].number == f"{float(krippendorff_alpha(crowd)):.3f}"
    gamma = noise_from_annotations(crowd, 0.99).gamma
    assert result.answers[1].verdict.value == pytest.approx(gamma)
    assert result.answers[1].verdict.label == judge("noise", gamma).label


def _frame(n_items=60, seed=0, spam=False):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, n_items)
    rows = []
    for a in range(5):
        for i in range(n_items):
            if spam and a == 4:
                lab = rng.integers(0, 3)
            else:
                lab = truth[i] if rng.random() < 0.9 else rng.integers(0, 3)
            rows.append((f"i{i}", f"a{a}", ["x", "y", "z"][lab]))
    return pd.DataFrame(rows, columns=["item", "annotator", "label"])


def test_invariant_to_label_renaming_and_annotator_order():
    df = _frame(spam=True)
    base = overview(Annotations.from_frame(df))
    renamed = df.assign(label=df["label"].map({"x": "P", "y": "Q", "z": "R"}))
    shuffled = renamed.sample(frac=1.0, random_state=3)
    other = overview(Annotations.from_frame(shuffled))
    for a, b in zip(base.answers, other.answers, strict=True):
        assert a.verdict.label == b.verdict.label
        if np.isfinite(a.verdict.value):
            assert a.verdict.value == pytest.approx(b.verdict.value, abs=1e-6)
    assert "a4" in base.answers[2].sentence and "a4" in other.answers[2].sentence


def test_one_annotator_gives_undefined_answers_not_a_crash():
    df = pd.DataFrame({"item": ["a", "b", "c"], "annotator": ["x"] * 3, "label": ["p", "q", "p"]})
    result = overview(Annotations.from_frame(df))
    assert result.answers[0].verdict.severity is Severity.UNDEFINED
    assert result.answers[1].verdict.severity is Severity.UNDEFINED
    assert result.recommendation.text


def test_a_concentrated_confusion_recommends_a_merge():
    rng = np.random.default_rng(5)
    rows = []
    truth = rng.integers(0, 3, 200)
    for a in range(4):
        for i in range(200):
            t = truth[i]
            lab = t if t == 0 or rng.random() < 0.6 else 3 - t  # y and z swapped often
            rows.append((f"i{i}", f"a{a}", ["x", "y", "z"][lab]))
    result = overview(
        Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))
    )
    assert result.answers[0].verdict.severity is Severity.BAD
    assert result.recommendation.text.startswith("Merge categories")
    assert {"y", "z"} <= set(result.recommendation.text.replace(",", " ").split())
    assert 0 < MERGE_SHARE < 1


def test_multilabel_uses_one_model_per_category():
    from analytics.dawid_skene import fit_per_category

    ann = load_sample("affect_multilabel")
    result = overview(ann)
    assert "the categories' yes/no models' own posteriors" in result.answers[3].sentence
    # the error is per label set: wrong when any category's decision is (the mean over the
    # decisions had read 2.0% where 11.3% of the sets were expected wrong)
    p = np.column_stack(
        [f.posteriors.iloc[:, -1].to_numpy() for f in fit_per_category(ann).values()]
    )
    expected = 1 - np.prod(np.maximum(p, 1 - p), axis=1).mean()
    assert f"{expected:.1%} of their label sets are wrong" in result.answers[3].sentence
    assert expected > np.minimum(p, 1 - p).mean()
    # with the true sets the answer is measured on them, as on single-label data
    from analytics.data import sample_truth

    measured = overview(ann, gold=sample_truth("affect_multilabel")).answers[3]
    assert measured.sentence.startswith("Against the 300 items with known gold labels, 16.7%")
    assert measured.verdict.severity is Severity.BAD
    # the Gold labels page shows the per-category models on multi-label data
    assert {a.page for a in result.answers[2:]} == {"pages/gold_labels.py"}
    assert result.recommendation.items  # the items to relabel are handed over


def test_clean_data_recommend_benchmarking():
    rng = np.random.default_rng(11)
    truth = rng.integers(0, 3, 300)
    rows = [
        (f"i{i}", f"a{a}", ["x", "y", "z"][truth[i] if rng.random() < 0.97 else rng.integers(0, 3)])
        for a in range(5)
        for i in range(300)
    ]
    ann = Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))
    # without gold the model's own account (a lower bound) cannot read good: check first
    result = overview(ann)
    answers = {a.key: a for a in result.answers}
    assert answers["gold"].verdict.severity is Severity.CAUTION
    assert all(a.verdict.severity is Severity.GOOD for k, a in answers.items() if k != "gold")
    assert result.recommendation.text.startswith(
        "Benchmark on the model's labels once a few expert-labelled items confirm them"
    )
    assert result.recommendation.severity is Severity.CAUTION
    # with gold labels that measure the model: all good, benchmark
    gold = pd.Series(np.array(["x", "y", "z"])[truth[:60]], index=[f"i{i}" for i in range(60)])
    result = overview(ann, gold=gold)
    assert all(a.verdict.severity is Severity.GOOD for a in result.answers), result.to_frame()
    assert result.recommendation.text.startswith("Benchmark on the model's labels: agreement")
    assert result.recommendation.severity is Severity.GOOD


def test_gold_and_more_labels_draw_on_the_model_family_and_next_labels(crowd):
    """Issue 17: the Overview answers with the Gold labels and Next labels pages' tools."""
    from analytics.dawid_skene import fit
    from analytics.next_labels import plan

    result = {a.key: a for a in overview(crowd).answers}
    assert result["gold"].page == "pages/gold_labels.py"
    more = result["more_labels"]
    assert more.page == "pages/next_labels.py"
    res = fit(crowd)
    curve = plan(res, current=True, max_k=2, n_items=1000, n_draws=20).curve
    now, two = curve.iloc[0], curve.iloc[-1]
    assert two["accuracy"] >= now["accuracy"]
    # one figure for "now" in both answers: the gold answer's 1 - expected error, and the
    # plan's simulated gain added to it (the simulation's own "now" differs by its noise)
    level = 1 - expected_label_error(res.confidence)
    assert f"about {level:.1%} of its labels are right now" in more.sentence
    assert f"{1 - level:.1%} of its labels are wrong" in result["gold"].sentence
    after = min(level + two["accuracy"] - now["accuracy"], 1.0)
    assert f"would make that about {after:.1%}" in more.sentence


def test_a_value_just_under_a_threshold_is_not_printed_on_it():
    """Reviewer's file: alpha = 2/3 read "0.667: ... (below 0.667)"."""
    from analytics.agreement import reading

    df = pd.DataFrame(
        {
            "item": [1, 1, 2, 2, 3, 3, 4, 4],
            "annotator": [":red[ann]", "b"] * 4,
            "label": ["**bold**", "$x^2$", "**bold**", "**bold**", "$x^2$", "$x^2$"]
            + 2 * ["<b>h</b>"],
        }
    )
    answer = overview(Annotations.from_frame(df)).answers[0]
    assert answer.verdict.label == "bad"
    assert answer.number == "0.6667"
    assert "is 0.6667: not reliable by Krippendorff's standard (below 0.667)" in answer.sentence
    # the Agreement page's verdict sentence
    text = reading("Krippendorff's alpha (nominal)", 2 / 3)
    assert text.startswith("0.6667: not reliable by Krippendorff's standard (below 0.667)")
    assert reading("Fleiss' kappa", 0.5999).startswith("0.5999: moderate")


def test_the_strongest_bias_reads_as_shares_that_add_up(crowd):
    """It read "gives '0' 52 points less often than it is true"; now the annotator's share,
    the model's share and their difference, which add up."""
    import re

    sentence = {a.key: a for a in overview(crowd).answers}["annotators"].sentence
    found = re.search(
        r"would label ([\d.]+)% of items '.+', where the model puts ([\d.]+)% of them "
        r"\(([+-]\d+) points\); in the data they gave it to (\d+) of their (\d+) judgements",
        sentence,
    )
    assert found, sentence
    usage, prevalence, points, n, m = (float(g) for g in found.groups())
    assert abs(usage - prevalence - points) <= 0.6
    # the model's share is said to be the model's; what the annotator did is counted
    assert sentence.count("w17") == 1 and (n, m) == (49, 89)


def test_an_annotator_of_one_judgement_is_counted_in_the_singular():
    """It read "in the data they gave it to 0 of their 1 judgements"."""
    df = pd.DataFrame(
        {"item": ["x"] * 3, "annotator": ["a1", "a2", "a3"], "label": ["yes", "yes", "no"]}
    )
    sentence = {a.key: a for a in overview(df).answers}["annotators"].sentence
    assert "of their 1 judgement." in sentence, sentence
    assert "1 judgements" not in sentence


def test_an_undefined_alpha_ends_its_sentence():
    """One category only: the answer stopped short, "... and alpha is undefined"."""
    df = pd.DataFrame(
        {"item": np.repeat(np.arange(12), 3), "annotator": list("abc") * 12, "label": "same"}
    )
    answer = {a.key: a for a in overview(df).answers}["agreement"]
    assert answer.number == "n/a"
    assert answer.sentence.startswith("Krippendorff's alpha is undefined for these data: ")
    assert answer.sentence.endswith("alpha is undefined.") and ".." not in answer.sentence


def test_no_bias_below_a_point_is_named():
    """Two annotators who agree everywhere had "labels 66.6% ... (-0 points)"."""
    df = pd.DataFrame(
        {"item": [1, 1, 2, 2, 3, 3], "annotator": ["a", "b"] * 3, "label": list("ccddcc")}
    )
    sentence = {a.key: a for a in overview(df).answers}["annotators"].sentence
    assert "Strongest bias" not in sentence and "-0 points" not in sentence
    assert "No annotator uses a label more than 1 point away" in sentence


def test_no_about_before_a_bound():
    """ "about >99.9%" read oddly: a bound is said without "about"."""
    result = overview(load_annotations(FIXTURES / "low_agreement_sure_model.csv"))
    text = " ".join(a.sentence for a in result.answers)
    assert "about >" not in text and "about <" not in text


def test_no_others_are_mentioned_when_every_item_is_unsure():
    import pandas as pd

    from analytics import load_annotations
    from analytics.overview import overview

    df = pd.DataFrame(
        {"item": ["i1", "i2", "i3"], "annotator": ["a"] * 3, "label": ["x", "y", "x"]}
    )
    more = next(a for a in overview(load_annotations(df)).answers if a.key == "more_labels")
    assert more.number == "3 items" and "the others" not in more.sentence


def test_gold_for_more_items_than_the_data_is_scored_on_the_overlap():
    """Half of RTE's judgements beside its whole gold file: the gold answer had been
    "Not computed: 400 gold items are not in the fit" while the report's Dawid-Skene
    section scored the 400 items that are there."""
    from analytics.data import sample_truth
    from analytics.dawid_skene import fit, gold_accuracy

    rte = load_sample("rte_snow2008")
    ann = rte.subset(items=rte.items[:400])
    truth = sample_truth("rte_snow2008")
    gold = {a.key: a for a in overview(ann, gold=truth).answers}["gold"]
    scored = gold_accuracy(fit(ann), truth).iloc[-1]
    assert gold.sentence.startswith(
        "Against the 400 items with known gold labels (400 gold labels for items not in this "
        f"data set were left out), {1 - scored['accuracy']:.1%} of"
    ), gold.sentence
    # gold for none of the items is still refused in words
    from analytics import AnnotationDataError

    with pytest.raises(AnnotationDataError, match="1 gold item is not in the fit: 'nowhere'"):
        overview(ann, gold=pd.Series({"nowhere": "1"}))


def test_one_annotator_is_the_only_annotator_not_none_of_one():
    df = pd.DataFrame({"item": list("abcdef"), "annotator": ["x"] * 6, "label": list("pqpqpq")})
    sentence = {a.key: a for a in overview(Annotations.from_frame(df)).answers}["annotators"]
    assert "None of the 1 annotators" not in sentence.sentence


def test_more_labels_with_gold_reads_the_measured_error_not_the_models_own():
    """RTE with its gold: the model's own account says 99.2% right and few items unsure, but
    gold finds 7.3% wrong. "Would more labels help?" had read Good with the own account's
    99.2%; it now quotes the gold figure, as 92.7% (with 7.3% wrong: the two add to 100%),
    and reads caution."""
    from analytics.data import read_gold_labels
    from analytics.overview import format_right

    ann = load_annotations(ROOT / "sample_data" / "rte_snow2008.csv")
    gold = read_gold_labels(ROOT / "sample_data" / "rte_snow2008_gold.csv")
    answers = {a.key: a for a in overview(ann, gold=gold).answers}
    more, said = answers["more_labels"], answers["gold"]
    assert "7.3% of the Dawid-Skene model's labels are wrong" in said.sentence
    assert more.verdict.severity is Severity.CAUTION
    assert "the gold labels find 7.3% of the labels wrong" in more.sentence
    assert "On the gold items about 92.7% of its labels are right now" in more.sentence
    assert "By the model's own account" not in more.sentence
    assert format_right(1 - 742 / 800) == "92.7%"
    plain = {a.key: a for a in overview(ann).answers}["more_labels"]
    assert "By the model's own account" in plain.sentence and "gold" not in plain.sentence


def test_several_annotators_at_chance_are_counted_in_a_plain_sentence():
    """RTE read "Annotator A2QPX2MS844TYJ labels at chance (spammer score 1.00; and 30
    more)": several are counted first, then the worst is named."""
    rng = np.random.default_rng(1)
    frame = _frame(n_items=80)
    spam = frame["annotator"].isin(["a3", "a4"])
    frame.loc[spam, "label"] = rng.choice(["x", "y", "z"], int(spam.sum()))
    text = overview(Annotations.from_frame(frame)).recommendation.text
    assert text.startswith("2 annotators label at chance (the worst, a"), text
    assert "has spammer score" in text and "more)" not in text
    assert text.endswith("): review their work, or leave their labels out.")
