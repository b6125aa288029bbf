"""1-5 ratings loaded as nominal codes: a visible caution, not a note in a closed panel."""

from __future__ import annotations

import pandas as pd

from analytics import load_annotations
from analytics.data.kinds import SCALE_CAUTION


def _ratings(values: list[int]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "item": [f"q{i // 3}" for i in range(len(values))],
            "annotator": ["r1", "r2", "r3"] * (len(values) // 3),
            "label": values,
        }
    )


def test_whole_number_ratings_read_as_codes_are_cautioned():
    ann = load_annotations(_ratings([4, 5, 3, 1, 2, 1, 5, 5, 4]))
    assert ann.kind.value == "nominal"
    assert ann.report.kind_caution == SCALE_CAUTION
    assert SCALE_CAUTION in ann.report.warnings()  # the Data page shows these expanded
    assert 'kind="ordinal"' in SCALE_CAUTION and "Label kind" in SCALE_CAUTION


def test_no_caution_when_the_kind_is_chosen_or_the_codes_are_binary_or_text():
    values = [4, 5, 3, 1, 2, 1, 5, 5, 4]
    for kind in ("ordinal", "numeric", "nominal"):
        report = load_annotations(_ratings(values), kind=kind).report
        assert not report.kind_caution and SCALE_CAUTION not in report.warnings()
    assert not load_annotations(_ratings([0, 1, 1, 0, 0, 0])).report.kind_caution
    text = _ratings(values).assign(label=lambda d: d["label"].map("r{}".format))
    assert not load_annotations(text).report.kind_caution
    # numbers that are not whole are numeric, not codes
    assert not load_annotations(_ratings([0.5, 1.5, 2.5] * 3)).report.kind_caution


def test_label_texts_that_are_one_number_are_merged_with_a_caution():
    # '1' and '01' are one number: read as one category, and the load says so (a renaming
    # of three labels had silently become two categories, Fleiss' kappa 0.45 -> 1.0)
    df = pd.DataFrame(
        {
            "item": ["i1", "i1", "i2", "i2", "i3", "i3"],
            "annotator": ["a", "b"] * 3,
            "label": ["1", "01", "1", "1", "2", "2"],
        }
    )
    ann = load_annotations(df)
    assert ann.categories.tolist() == [1, 2]
    assert any("'01', '1'" in c and "same number" in c for c in ann.report.cautions)
    # declared as text, they stay apart, with nothing to say
    apart = load_annotations(df, categories=["1", "01", "2"])
    assert apart.categories.tolist() == ["1", "01", "2"]
    assert not [c for c in apart.report.cautions if "same number" in c]
    # distinct numbers say nothing
    plain = load_annotations(df.assign(label=["1", "3", "1", "1", "2", "2"]))
    assert not [c for c in plain.report.cautions if "same number" in c]
