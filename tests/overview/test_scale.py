"""Scores on a scale: the answers that compare labels as categories are undefined.

A review loaded 50 items x 4 raters with scores such as 47.3: agreement (interval alpha)
read good, while the other answers took the 164 distinct values for categories, called
every annotator near chance and advised reviewing all four.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analytics import Annotations
from analytics.overview import Severity, overview, scale_reason


def scores(noise: float, seed: int = 0, **options) -> Annotations:
    rng = np.random.default_rng(seed)
    truth = rng.normal(50, 10, 50)
    rows = [
        (f"i{i}", f"r{a}", round(float(truth[i] + rng.normal(0, noise)), 1))
        for i in range(50)
        for a in range(4)
    ]
    return Annotations.from_frame(
        pd.DataFrame(rows, columns=["item", "annotator", "label"]), **options
    )


def test_scores_leave_the_category_answers_undefined_and_say_why():
    ann = scores(4.0)
    assert ann.kind.value == "numeric" and ann.n_categories > 100
    result = overview(ann)
    by_key = {a.key: a for a in result.answers}
    assert by_key["agreement"].verdict.severity is Severity.GOOD
    for key in ("noise", "annotators", "gold", "more_labels"):
        assert by_key[key].number == "n/a"
        assert by_key[key].verdict.severity is Severity.UNDEFINED
        assert "numbers on a scale" in by_key[key].sentence
        assert "kind='ordinal'" in by_key[key].sentence
    rec = result.recommendation
    assert rec.severity is Severity.GOOD and "reads good" in rec.text
    assert "review" not in rec.text and rec.page_title == by_key["agreement"].page_title


def test_a_noisy_scale_is_advised_on_its_agreement_not_on_its_annotators():
    result = overview(scores(25.0))
    agreement = result.answers[0]
    assert agreement.verdict.severity is not Severity.GOOD
    assert result.recommendation.severity is agreement.verdict.severity
    assert "does not read good" in result.recommendation.text


def test_codes_and_few_declared_values_are_still_compared_as_categories():
    assert scale_reason(scores(4.0, kind="ordinal")) is None  # the user's categories
    rows = [(f"i{i}", f"r{a}", (i + a) % 5 + 1) for i in range(30) for a in range(3)]
    frame = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    assert scale_reason(Annotations.from_frame(frame)) is None  # 5 codes: nominal
    few = Annotations.from_frame(frame, kind="numeric")  # a declared 1-5 scale
    assert few.kind.value == "numeric" and scale_reason(few) is None
    assert overview(few).answers[2].number != "n/a"


def test_answer_five_names_its_model_as_answer_four_does():
    """Answer 5 counted Dawid-Skene's unsure items while the Gold labels page counts its
    own model's (auto): a review found 27.5% against 51.5% with nothing said."""
    from analytics.data import load_sample

    text = overview(load_sample("ratings_ordinal")).answers[4].sentence
    assert "These are Dawid-Skene's posteriors, as in answer 4" in text
    assert "Dawid-Skene's posteriors" not in overview(scores(4.0)).answers[4].sentence
