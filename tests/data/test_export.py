"""Long and wide CSV export: round trips through the loader, sets, empty sets, refusals."""

from __future__ import annotations

import csv
import io

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics import AnnotationDataError, load_annotations
from analytics.data import Annotations, LabelKind
from analytics.data.export import choose_separator, to_long_csv, to_wide_csv
from analytics.data.overview import wide_table
from tests.helpers.paths import FIXTURES, load_public

FIX = FIXTURES


def upload(text: str, name: str) -> io.BytesIO:
    buf = io.BytesIO(text.encode())
    buf.name = name
    return buf


def triples(ann: Annotations) -> set[tuple]:
    return {
        (str(i), str(a), lab) for i, a, lab in ann.to_frame().itertuples(index=False, name=None)
    }


def reload(text: str, name: str, **kw) -> Annotations:
    return load_annotations(upload(text, name), **kw)


MULTI = Annotations.from_frame(
    pd.DataFrame(
        {
            "item": ["d1", "d1", "d2", "d2", "d3"],
            "annotator": ["ann", "bob", "ann", "bob", "ann"],
            "label": [
                frozenset({"sport", "politics"}),
                frozenset({"sport"}),
                frozenset(),
                frozenset({"weather"}),
                frozenset({"politics"}),
            ],
        }
    )
)


def test_long_csv_plain_loop_oracle():
    """Each judgement is one row, sets joined in category order, {} for the empty set."""
    text = to_long_csv(MULTI)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["item", "annotator", "label"]
    order = list(MULTI.categories)
    expected = []
    for i, a, s in MULTI.to_frame().itertuples(index=False, name=None):
        expected.append([i, a, ";".join(sorted(s, key=order.index)) or "{}"])
    assert rows[1:] == expected


@pytest.mark.parametrize(
    "fixture",
    [
        "label_studio_export.json",
        "prodigy_binary.jsonl",
        "mturk_batch_results.csv",
        "toloka_results.tsv",
    ],
)
def test_tool_exports_round_trip_long_and_wide(fixture):
    ann = load_annotations(FIX / fixture)
    long = reload(to_long_csv(ann), "long.csv")
    assert triples(long) == triples(ann)
    assert long.kind == ann.kind
    wide = reload(to_wide_csv(ann), "wide.csv", layout="wide")
    assert triples(wide) == triples(ann)


def test_multilabel_round_trip_keeps_empty_sets():
    for text, kw in ((to_long_csv(MULTI), {}), (to_wide_csv(MULTI), {"layout": "wide"})):
        back = reload(text, "m.csv", **kw)
        assert back.kind is LabelKind.MULTILABEL
        assert triples(back) == triples(MULTI)
        assert back.n_judgements == 5  # d2 by ann: empty set kept as a judgement


def test_wide_csv_matches_wide_table_and_leaves_missing_cells_empty():
    text = to_wide_csv(MULTI)
    frame = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    assert list(frame.columns) == ["item", "ann", "bob"]
    assert frame.loc[frame["item"] == "d3", "bob"].item() == ""  # bob never saw d3
    table = wide_table(MULTI)
    assert frame.set_index("item").loc["d1", "ann"] == table.loc["d1", "ann"]


@pytest.mark.parametrize("name", ["snow_rte", "zheng_s4_Dog_data"])
def test_public_sets_round_trip(name):
    labels, _ = load_public(name)
    ann = Annotations.from_frame(labels)
    assert triples(reload(to_long_csv(ann), "l.csv")) == triples(ann)
    assert triples(reload(to_wide_csv(ann), "w.csv", layout="wide")) == triples(ann)


def test_separator_avoids_category_names():
    ann = Annotations.from_frame(
        pd.DataFrame(
            {
                "item": ["a", "b"],
                "annotator": ["x", "x"],
                "label": [frozenset({"A;1", "B"}), frozenset({"B"})],
            }
        )
    )
    assert choose_separator(ann) == "|"
    assert "A;1|B" in to_long_csv(ann)
    back = reload(to_long_csv(ann), "s.csv", multilabel_sep="|")
    assert triples(back) == triples(ann)
    both = Annotations.from_frame(
        pd.DataFrame({"item": ["a"], "annotator": ["x"], "label": [frozenset({"A;1", "B|2"})]})
    )
    with pytest.raises(AnnotationDataError, match="both ';' and '\\|'"):
        to_long_csv(both)


def test_wide_refuses_repeats_and_an_annotator_called_item():
    repeats = Annotations.from_frame(
        pd.DataFrame({"item": ["a", "a"], "annotator": ["x", "x"], "label": ["p", "q"]}),
        duplicates="keep",
    )
    assert to_long_csv(repeats).count("\n") == 3  # long keeps both judgements
    with pytest.raises(AnnotationDataError, match="more than once"):
        to_wide_csv(repeats)
    named = Annotations.from_frame(
        pd.DataFrame({"item": ["a"], "annotator": ["item"], "label": ["p"]})
    )
    with pytest.raises(AnnotationDataError, match="called 'item'"):
        to_wide_csv(named)


def test_accepts_a_long_dataframe():
    df = pd.DataFrame({"item": ["a", "b"], "annotator": ["x", "y"], "label": ["p", "q"]})
    assert to_long_csv(df).splitlines() == ["item,annotator,label", "a,x,p", "b,y,q"]


CATS = ["red", "green", "blue", "grey"]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 5),
            st.integers(0, 3),
            st.frozensets(st.sampled_from(CATS), max_size=3),
        ),
        min_size=1,
        max_size=25,
        unique_by=lambda t: (t[0], t[1]),
    )
)
def test_multilabel_round_trip_property(rows):
    ann = Annotations.from_frame(
        pd.DataFrame(
            {
                "item": [f"i{r[0]}" for r in rows],
                "annotator": [f"a{r[1]}" for r in rows],
                "label": [r[2] for r in rows],
            }
        ),
        kind="multilabel",
    )
    back = reload(to_long_csv(ann), "p.csv", kind="multilabel", multilabel_sep=";")
    assert triples(back) == triples(ann)
    wide = reload(to_wide_csv(ann), "p.csv", kind="multilabel", multilabel_sep=";", layout="wide")
    assert triples(wide) == triples(ann)


def _same(a: Annotations, b: Annotations) -> bool:
    """The same judgements (in any order), categories in the same order, the same kind."""
    import numpy as np

    def rows(x):
        if x.is_multilabel:
            labels = [tuple(np.flatnonzero(r)) for r in x.label_matrix]
        else:
            labels = list(x.label_codes)
        items = x.items[x.item_codes].astype(str)
        names = zip(items, x.annotators[x.annotator_codes].astype(str), strict=True)
        return sorted((i, j, str(lab)) for (i, j), lab in zip(names, labels, strict=True))

    return rows(a) == rows(b) and list(a.categories) == list(b.categories) and a.kind == b.kind


@pytest.mark.parametrize(
    "make",
    [
        # an ordinal 1-7 scale used up to 5: had come back nominal with five categories
        lambda: load_annotations(
            FIXTURES.parent.parent / "sample_data" / "ratings_ordinal_wide.csv",
            kind="ordinal",
            categories=[1, 2, 3, 4, 5, 6, 7],
        ),
        # a text scale: had come back in another order
        lambda: Annotations.from_frame(
            pd.DataFrame(
                {
                    "item": list("aabb"),
                    "annotator": list("xyxy"),
                    "label": ["low", "mid", "high", "mid"],
                }
            ),
            kind="ordinal",
            categories=["low", "mid", "high"],
        ),
        # a category literally called None: had become missing
        lambda: Annotations.from_frame(
            pd.DataFrame(
                {
                    "item": list("aabb"),
                    "annotator": list("xyxy"),
                    "label": ["None", "rel", "None", "None"],
                }
            ),
            missing=(),
        ),
        # repeated judgements kept: had been refused
        lambda: load_annotations(
            pd.DataFrame({"item": list("aaab"), "annotator": list("xxyy"), "label": list("pqpq")}),
            duplicates="keep",
        ),
    ],
)
def test_reload_options_read_an_export_back_as_it_was(make):
    from analytics.data import reload_options

    ann = make()
    options = reload_options(ann)
    assert options  # each case needs something the defaults get wrong
    back = load_annotations(io.BytesIO(to_long_csv(ann).encode()), **options)
    assert _same(back, ann)
    try:  # without them: refused, or read as something else
        plain = load_annotations(io.BytesIO(to_long_csv(ann).encode()))
    except AnnotationDataError:
        plain = None
    assert plain is None or not _same(plain, ann)


def test_reload_options_are_empty_when_the_defaults_suffice():
    from analytics.data import load_sample, reload_options

    assert reload_options(load_sample("crowd_intents")) == {}
