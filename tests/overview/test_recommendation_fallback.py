"""The recommendation when no action applies: "all read good" only when all five do.

A review found the Overview advising "Benchmark on the model's labels: agreement, noise and
label certainty all read good" directly above answers reading *bad* for agreement (alpha
0.496) and for the noise bound (16.7%): the last branch never looked at those answers.
"""

from __future__ import annotations

import pandas as pd
import pytest

from analytics import load_annotations
from analytics.overview import Severity, judge, overview
from analytics.overview.advice import recommend
from analytics.overview.measures import judged_by_everyone
from analytics.overview.results import Answer
from tests.helpers.paths import FIXTURES


def test_low_agreement_with_a_sure_model_is_never_called_all_good():
    """30 items x 4 annotators, 3 labels: alpha 0.496, noise bound 16.7%, and a model sure
    of every label (a file made by hand during the review)."""
    result = overview(load_annotations(FIXTURES / "low_agreement_sure_model.csv"))
    severities = {a.key: a.verdict.severity for a in result.answers}
    assert severities["agreement"] is Severity.BAD and severities["noise"] is Severity.BAD
    rec = result.recommendation
    assert "all read good" not in rec.text
    assert rec.severity is Severity.BAD
    assert "agreement reads bad (0.496)" in rec.text
    assert "noise bound of the agreed items reads bad (16.7%)" in rec.text
    assert "expert-labelled items" in rec.text and rec.page_title == "Gold labels"


def answer(key: str, kind: str, value: float) -> Answer:
    return Answer(key, "?", "...", f"{value}", judge(kind, value), f"pages/{key}.py", key)


def answers(**values: float) -> dict[str, Answer]:
    good = {"agreement": 0.9, "noise": 0.01, "annotators": 0.0, "gold": 0.01, "more_labels": 0.0}
    kinds = {
        "agreement": "agreement",
        "noise": "noise",
        "annotators": "weak_annotators",
        "gold": "gold_error",
        "more_labels": "uncertain_items",
    }
    return {k: answer(k, kinds[k], values.get(k, v)) for k, v in good.items()}


@pytest.mark.parametrize(
    ("values", "severity", "start", "named"),
    [
        ({}, Severity.GOOD, "Benchmark on the model's labels: agreement, noise, annotators", None),
        ({"agreement": 0.7}, Severity.CAUTION, "Benchmark on the model's labels, not on", "agreement reads caution (0.7)"),
        ({"annotators": 0.5}, Severity.BAD, "Benchmark on the model's labels, not on", "annotator quality reads bad"),
        ({"agreement": 0.3, "gold": 0.1}, Severity.BAD, "Not a benchmark yet", "label certainty reads caution (0.1)"),
    ],
)  # fmt: skip
def test_the_last_branch_names_every_answer_that_is_not_good(values, severity, start, named):
    rec = recommend(answers(**values), weak=[], unsure=[], fits=[])
    assert rec.text.startswith(start) and rec.severity is severity
    if named:
        assert named in rec.text and "all read good" not in rec.text


def test_items_every_annotator_judged_ask_for_new_annotators():
    """Two annotators who judged all 30 items, apart on 2: the Overview used to send the
    user to Next labels, which can plan nothing (nobody is left to judge those items)."""
    rows = [(f"i{i}", who, "a" if i % 2 else "b") for i in range(30) for who in ("x", "y")]
    rows[1] = ("i0", "y", "a")
    rows[3] = ("i1", "y", "b")
    ann = load_annotations(pd.DataFrame(rows, columns=["item", "annotator", "label"]))
    result = overview(ann)
    more = {a.key: a for a in result.answers}["more_labels"]
    assert more.verdict.severity is not Severity.GOOD
    assert "from new annotators or an expert" in more.sentence
    assert "none is left for the unsure items" in more.sentence
    rec = result.recommendation
    assert rec.text.startswith("Relabel these 2 items with new annotators or an expert")
    assert set(rec.items) == {"i0", "i1"}


def test_judged_by_everyone_counts_each_annotator_once():
    items, who = [0, 0, 0, 1, 1], [0, 0, 1, 0, 0]  # item 1: annotator 0 twice
    assert judged_by_everyone(items, who, 2, [0])
    assert not judged_by_everyone(items, who, 2, [1])
    assert not judged_by_everyone(items, who, 2, [])


def test_tiny_shares_and_empty_intervals_read_plainly():
    """A review read "about 0.0% of its labels are wrong" and ">99.9% (>99.9% to >99.9%)"."""
    result = overview(load_annotations(FIXTURES / "low_agreement_sure_model.csv"))
    text = " ".join(a.sentence for a in result.answers)
    assert "less than 0.1% of its labels are wrong" in text and "about 0.0%" not in text
    assert "(>99.9% to >99.9%" not in text


def test_no_error_at_all_reads_zero_not_about_zero():
    """A file whose annotators all gave one category: 'about 0.0% of its labels are wrong'."""
    from analytics.overview.answers import _about

    assert _about("0.0%", 0.0) == "0%"
    assert _about("0.0%", 1e-9) == "less than 0.1%"
    assert _about("1.2%", 0.012) == "about 1.2%"


def test_an_undefined_answer_gives_advice_in_its_own_colour_not_a_neighbours():
    """ "Collect more overlapping labels" had shown green on data whose agreement read good
    and red where it read bad: the same advice, judged by whichever answer it borrowed."""
    labels = list("cd" * 20)
    agree = pd.DataFrame(
        {
            "item": [i for i in range(40) for _ in "ab"],
            "annotator": ["a", "b"] * 40,
            "label": [x for x in labels for _ in "ab"],
        }
    )
    result = overview(agree)
    assert any(a.verdict.severity is Severity.UNDEFINED for a in result.answers)
    assert result.recommendation.severity is Severity.UNDEFINED
    assert result.recommendation.text.startswith("Not a benchmark yet")


def test_a_handful_of_items_is_never_called_a_benchmark():
    """Six items read "Benchmark on the model's labels ... 0.0% expected wrong"."""
    few = pd.DataFrame(
        {"item": [1, 1, 2, 2, 3, 3], "annotator": ["a", "b"] * 3, "label": list("ccddcc")}
    )
    rec = overview(few).recommendation
    assert rec.severity is Severity.CAUTION
    assert rec.text.startswith("Not a benchmark yet: 3 items are too few")


def test_a_handful_of_items_is_not_a_benchmark_whatever_else_applies():
    # three items of two annotators who never agree had been told to merge two categories
    import pandas as pd

    from analytics import load_annotations
    from analytics.overview import overview

    df = pd.DataFrame(
        {
            "item": ["i1", "i1", "i2", "i2", "i3", "i3"],
            "annotator": ["a", "b"] * 3,
            "label": ["x", "y", "y", "x", "x", "z"],
        }
    )
    rec = overview(load_annotations(df)).recommendation
    assert rec.text.startswith("Not a benchmark yet: 3 items are too few")
