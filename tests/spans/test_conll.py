"""CoNLL BIO/IOB1/BIOES/BILOU token files: decoding, annotators, errors, round trip."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analytics import AnnotationDataError
from analytics.spans import load_spans, pairwise_f1, to_conll

ALICE = """-DOCSTART-

Anna B-PER
Smith I-PER
flew O
to O
New B-LOC
York I-LOC
. O

Bo B-PER
left O
"""


def test_bio_file_for_one_annotator(tmp_path):
    path = tmp_path / "alice.conll"
    path.write_text(ALICE, encoding="utf-8")
    spans = load_spans(path)
    assert spans.report.format == "conll" and list(spans.annotators) == ["alice"]
    text = spans.texts["doc1"]
    assert text == "Anna Smith flew to New York .\nBo left"
    got = [text[s:e] + "/" + lab for s, e, lab in spans.spans[["start", "end", "label"]].values]
    assert sorted(got) == ["Anna Smith/PER", "Bo/PER", "New York/LOC"]


def test_one_file_per_annotator_and_bilou(tmp_path):
    bob = ALICE.replace("Anna B-PER\nSmith I-PER", "Anna B-PER\nSmith L-PER").replace(
        "New B-LOC\nYork I-LOC", "New U-LOC\nYork U-LOC"
    )
    spans = load_spans({"alice": ALICE.encode(), "bob": bob.encode()})
    table = pairwise_f1(spans)
    # Anna Smith and Bo agree; New York vs New + York do not
    assert (table.loc[0, "n_a"], table.loc[0, "n_b"], table.loc[0, "matched_a"]) == (3, 4, 2)


def test_orphan_i_tags_open_spans_and_are_reported():
    iob1 = "Anna I-PER\nSmith I-PER\nmet O\nBo I-PER\n"
    spans = load_spans(iob1.encode(), format="conll", annotator="x")
    assert spans.n_spans == 2 and "2 spans open with I-" in spans.report.cautions[0]
    # each sentence is a document when there is no -DOCSTART-
    two = load_spans(b"A B-X\nb O\n\nC B-X\n", format="conll", annotator="x")
    assert list(two.items) == ["doc1", "doc2"]


def test_columns_per_annotator_with_not_completed_marks():
    text = "# annotators: ann bob\n-DOCSTART-\n# document: d1\nAnna B-PER B-PER\nflew O O\n"
    text += "-DOCSTART-\n# document: d2\nBo B-PER _\n"
    spans = load_spans(text.encode(), format="conll")
    assert list(spans.items) == ["d1", "d2"]
    assert spans.completed.tolist() == [[True, True], [True, False]]


@pytest.mark.parametrize(
    ("content", "match", "row"),
    [
        ("Anna B-PER\nflew X-Y\n", "not O or", 2),
        ("Anna\n", "token and a tag", 1),
        ("Anna B-PER O\n", "no '# annotators:", None),
        ("# annotators: a b c\nAnna B-PER O\n", "names 3 annotators", None),
        ("Anna B-PER\nflew _\n", "only part", 2),
    ],
)
def test_bad_lines_are_named(content, match, row):
    with pytest.raises(AnnotationDataError, match=match) as info:
        load_spans(content.encode(), format="conll", annotator="a")
    if row is not None:
        assert row in info.value.rows


def test_annotator_files_with_different_tokens_are_refused():
    other = ALICE.replace("Smith", "Smyth")
    with pytest.raises(AnnotationDataError, match="differs"):
        load_spans({"alice": ALICE.encode(), "bob": other.encode()})


@pytest.mark.parametrize("scheme", ["BIO", "BILOU"])
def test_round_trip(scheme):
    text = "# annotators: ann bob\n-DOCSTART-\n# document: d1\nAnna B-PER B-PER\nSmith I-PER O\n"
    text += "went O O\n\nto O O\nNew B-LOC B-LOC\nYork I-LOC I-LOC\n-DOCSTART-\n# document: d2\n"
    text += "Bo B-PER _\n"
    one = load_spans(text.encode(), format="conll")
    two = load_spans(to_conll(one, scheme=scheme).encode(), format="conll")
    pd.testing.assert_frame_equal(one.spans, two.spans)
    assert np.array_equal(one.completed, two.completed)
    assert one.texts.tolist() == two.texts.tolist()


def test_export_refuses_spans_that_cut_tokens():
    df = pd.DataFrame(
        [("d", "a", 0, 3, "X")], columns=["item", "annotator", "start", "end", "label"]
    )
    with pytest.raises(AnnotationDataError, match="cuts a token"):
        to_conll(load_spans(df, text={"d": "Anna"}))
