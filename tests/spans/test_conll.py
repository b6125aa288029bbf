"""CoNLL BIO/IOB1/BIOES/BILOU token files: decoding, annotators, errors, round trip."""

from __future__ import annotations

import re

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
        ("Anna B-PER O\n", "no '# annotators:", 1),
        ("# annotators: a b c\nAnna B-PER O\n", "names 3 annotators", 1),
        ("A B-X\nb O O\n", "different numbers of columns: this line has 3, line 1 has 2", 2),
        ("-DOCSTART-\n# document: d\nA O\n-DOCSTART-\n# document: d\nB O\n", "twice", 6),
        ("Anna B-PER\nflew _\n", "only part", 2),
    ],
)
def test_bad_lines_are_named(content, match, row):
    with pytest.raises(AnnotationDataError, match=match) as info:
        load_spans(content.encode(), format="conll", annotator="a")
    if row is not None:
        assert row in info.value.rows


@pytest.mark.parametrize(
    ("old", "new", "match", "row"),
    [
        ("Smith", "Smyth", "token 2 is 'Smyth' here but 'Smith' there (line 4)", 4),
        ("flew O\n", "flew O\n\n", "a sentence starts at token 4 ('to') here", 7),
        ("left O\n", "left O\nagain O\n", "10 tokens here but 9 there", 13),
    ],
)
def test_annotator_files_with_different_tokens_are_refused(tmp_path, old, new, match, row):
    (tmp_path / "alice.conll").write_text(ALICE, encoding="utf-8")
    (tmp_path / "bob.conll").write_text(ALICE.replace(old, new), encoding="utf-8")
    files = {"alice": tmp_path / "alice.conll", "bob": tmp_path / "bob.conll"}
    with pytest.raises(AnnotationDataError, match=re.escape(match)) as info:
        load_spans(files)
    assert info.value.source == "bob.conll" and info.value.rows == [row]
    assert "differ from those in file 'alice.conll'" in str(info.value)


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


def test_tokens_starting_with_hash_are_tokens_not_comments():
    text = "# annotators: a b\n-DOCSTART-\n\n#WNUT B-EVT B-EVT\nrocks O O\n# O O\nfun B-X B-X\n"
    spans = load_spans(text.encode(), format="conll")
    assert spans.texts.tolist() == ["#WNUT rocks # fun"]
    got = {(who, lab): (s, e) for who, s, e, lab in spans.spans.iloc[:, 1:].values}
    assert got == {
        ("a", "EVT"): (0, 5),
        ("b", "EVT"): (0, 5),
        ("a", "X"): (14, 17),
        ("b", "X"): (14, 17),
    }
    assert not spans.report.notes


def test_hash_lines_that_are_not_token_lines_are_comments_and_reported():
    text = "# sent_id = 1\n# text = I saw it .\nI O\n#it O\n# note B-X\n"
    spans = load_spans(text.encode(), format="conll", annotator="a")
    assert spans.texts.tolist() == ["I #it"]  # "# note B-X" has three columns, not two
    assert spans.report.notes == (
        "<bytes>: 3 lines starting with '#' read as comments (not token lines), "
        "the first at line 1",
    )


@pytest.mark.parametrize("scheme", ["BIO", "BILOU"])
def test_round_trip_of_tokens_starting_with_hash(scheme):
    df = pd.DataFrame(
        [("d", "ann", 0, 4, "TAG"), ("d", "ann", 14, 15, "TAG"), ("d", "bob", 8, 13, "X")],
        columns=["item", "annotator", "start", "end", "label"],
    )
    one = load_spans(
        pd.concat([df, pd.DataFrame([("e", "bob", None, None, None)], columns=df.columns)]),
        text={"d": "#NLP is\n# fun #", "e": "# #"},
    )
    written = to_conll(one, scheme=scheme)
    first = {"BIO": "B", "BILOU": "U"}[scheme]
    assert f"#NLP {first}-TAG O" in written.splitlines()
    assert "# O B-X" in written.splitlines() and "# _ O" in written.splitlines()
    two = load_spans(written.encode(), format="conll")
    pd.testing.assert_frame_equal(one.spans, two.spans)
    assert np.array_equal(one.completed, two.completed)
    assert two.texts.tolist() == ["#NLP is\n# fun #", "# #"] and not two.report.notes


@pytest.mark.parametrize(
    ("row", "text", "match"),
    [
        (("d", "Anna Smith", 0, 4, "PER"), "Anna is", "annotator name 'Anna Smith' has a blank"),
        (("d", "a", 0, 4, "Named Person"), "Anna is", "label 'Named Person' has a blank"),
        (("d", "a", 0, 4, "Named\tPerson"), "Anna is", "label 'Named\\\\tPerson' has a blank"),
        (("d\ne", "a", 0, 4, "PER"), "Anna is", "document id 'd\\\\ne' is empty or has a line"),
        (("d", "a", 0, 4, "PER"), "Anna -DOCSTART- x", "the token '-DOCSTART-' \\(at offset 5"),
    ],
)
def test_export_refuses_what_a_conll_file_cannot_hold(row, text, match):
    df = pd.DataFrame([row], columns=["item", "annotator", "start", "end", "label"])
    spans = load_spans(df, text={row[0]: text})
    with pytest.raises(AnnotationDataError, match=match):
        to_conll(spans)


def test_export_refuses_annotators_with_the_same_name_as_text():
    df = pd.DataFrame(
        [("d", 1, 0, 4, "PER"), ("d", "1", 0, 4, "PER")],
        columns=["item", "annotator", "start", "end", "label"],
    )
    with pytest.raises(AnnotationDataError, match="same name"):
        to_conll(load_spans(df, text={"d": "Anna is"}))


# the start of eng.train (CoNLL-2003, IOB1 tags) and of eng.testa, with their POS and chunk
CONLL_2003 = """-DOCSTART- -X- O O

EU NNP I-NP I-ORG
rejects VBZ I-VP O
German JJ I-NP I-MISC
call NN I-NP O
to TO I-VP O
boycott VB I-VP O
British JJ I-NP I-MISC
lamb NN I-NP O
. . O O

Peter NNP I-NP I-PER
Blackburn NNP I-NP I-PER

-DOCSTART- -X- -X- O

CRICKET NNP B-NP O
- : O O
LEICESTERSHIRE NNP B-NP B-ORG
TAKE NNP I-NP O
OVER IN B-PP O
AT NNP B-NP O
TOP NNP I-NP O
AFTER NNP I-NP O
INNINGS NNP I-NP O
VICTORY NN I-NP O
. . O O
"""


def test_conll_2003_file_reads_token_and_last_column(tmp_path):
    path = tmp_path / "eng.train"
    path.write_text(CONLL_2003, encoding="utf-8")
    spans = load_spans(path, format="conll")
    assert list(spans.items) == ["doc1", "doc2"] and list(spans.annotators) == ["eng"]
    got = sorted(
        (item, spans.texts[item][s:e], lab)
        for item, _, s, e, lab in spans.spans.itertuples(index=False)
    )
    assert got == [
        ("doc1", "British", "MISC"),
        ("doc1", "EU", "ORG"),
        ("doc1", "German", "MISC"),
        ("doc1", "Peter Blackburn", "PER"),
        ("doc2", "LEICESTERSHIRE", "ORG"),
    ]
    assert spans.texts["doc1"].endswith("lamb .\nPeter Blackburn")
    assert "columns 2-3 ignored" in spans.report.notes[0]
    assert "4 spans open with I-" in spans.report.cautions[0]


def test_a_txt_file_that_opens_like_conll_is_read_as_conll():
    """A single .txt CoNLL upload had been read as a CSV table ("no column 'item'")."""
    from analytics.spans import load_spans

    text = b"# annotators: a b\n-DOCSTART-\n\nAnna B-PER B-PER\nmet O O\n"
    spans = load_spans(text, name="upload.txt")
    assert spans.report.format == "conll" and spans.n_spans == 2
    conll_2003 = b"-DOCSTART- -X- O O\n\nEU NNP B-NP B-ORG\nrejects VBZ B-VP O\n"
    assert load_spans(conll_2003, name="eng.txt").labels.tolist() == ["ORG"]
    table = b"item,annotator,start,end,label\nd,a,0,4,PER\n"
    assert load_spans(table, name="spans.txt").report.format == "table"


def test_a_txt_conll_file_with_a_byte_order_mark_is_read_as_conll():
    from analytics.spans import load_spans

    text = b"\xef\xbb\xbf-DOCSTART- -X- O O\n\nEU NNP B-NP B-ORG\n"
    assert load_spans(text, name="eng.txt").report.format == "conll"


def test_a_document_with_an_empty_text_is_said_to_be_left_out():
    """to_conll writes an empty text as no token lines; the reload had dropped it silently."""
    import pandas as pd

    from analytics.spans import load_spans, to_conll

    df = pd.DataFrame(
        {
            "item": ["d1", "d1", "d2", "d2"],
            "annotator": ["a", "b", "a", "b"],
            "start": [0, 0, None, None],
            "end": [4, 4, None, None],
            "label": ["PER", "PER", None, None],
        }
    )
    spans = load_spans(df, text={"d1": "Anna met", "d2": ""})
    again = load_spans(to_conll(spans).encode(), format="conll", name="x.conll")
    assert list(again.items) == ["d1"]
    assert any("1 document without a token left out ('d2')" in n for n in again.report.notes)
