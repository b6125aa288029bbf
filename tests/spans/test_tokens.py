"""Token-level kappa and alpha: the projection by hand, and sklearn / krippendorff as oracles."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics.spans import TOKEN_CAVEAT, load_spans, token_agreement, token_annotations

TEXT = "Anna Smith flew to New York ."
ROWS = [
    ("d", "a", 0, 10, "PER"), ("d", "a", 19, 27, "LOC"),
    ("d", "b", 5, 10, "PER"), ("d", "b", 19, 22, "ORG"),
    ("d", "c", 0, 10, "PER"),
    ("e", "a", 0, 2, "X"), ("e", "b", 0, 2, "X"),
]  # fmt: skip


def _spans():
    df = pd.DataFrame(ROWS, columns=["item", "annotator", "start", "end", "label"])
    return load_spans(df, text={"d": TEXT, "e": "Hi there"}, completed={"e": ["c"]})


def test_projection_by_hand():
    ann = token_annotations(_spans())
    wide = ann.wide()
    assert wide.loc["d#0"].tolist() == ["PER", "O", "PER"]  # Anna: b started at Smith
    assert wide.loc["d#4"].tolist() == ["LOC", "ORG", "O"]  # New
    assert wide.loc["d#5"].tolist() == ["LOC", "O", "O"]  # York
    assert wide.loc["e#1"].tolist() == ["O", "O", "O"]
    assert ann.n_items == 9 and ann.n_judgements == 27


def test_coefficients_match_independent_implementations():
    sklearn = pytest.importorskip("sklearn.metrics")
    krippendorff = pytest.importorskip("krippendorff")
    spans = _spans()
    wide = token_annotations(spans).wide()
    table = token_agreement(spans).set_index("coefficient")
    pairs = [("a", "b"), ("a", "c"), ("b", "c")]
    light = np.mean([sklearn.cohen_kappa_score(wide[x], wide[y]) for x, y in pairs])
    assert table.loc["Cohen's kappa (mean over pairs)", "value"] == pytest.approx(light)
    codes = {lab: k for k, lab in enumerate(sorted(set(wide.to_numpy().ravel())))}
    data = np.vectorize(codes.get)(wide.to_numpy().T).astype(float)
    ref = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    assert table.loc["Krippendorff's alpha", "value"] == pytest.approx(ref)
    assert token_agreement(spans).attrs["caveat"] == TOKEN_CAVEAT


def test_nested_spans_join_their_labels():
    df = pd.DataFrame(
        [("d", "a", 0, 10, "PER"), ("d", "a", 5, 10, "X"), ("d", "b", 0, 10, "PER")],
        columns=["item", "annotator", "start", "end", "label"],
    )
    wide = token_annotations(load_spans(df, text={"d": TEXT})).wide()
    assert wide.loc["d#1"].tolist() == ["PER+X", "PER"]


def test_a_label_named_o_is_kept_apart_from_outside():
    df = pd.DataFrame(
        [("d", "a", 0, 4, "O"), ("d", "b", 0, 4, "O")],
        columns=["item", "annotator", "start", "end", "label"],
    )
    ann = token_annotations(load_spans(df, text={"d": TEXT}))
    assert list(ann.categories) == ["(outside)", "O"]
    assert ann.wide().loc["d#0"].tolist() == ["O", "O"]
