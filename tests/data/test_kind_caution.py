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
