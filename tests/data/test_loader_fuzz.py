"""Random tables, JSON, delimited text, Parquet and workbooks: a clean load or an AnnotationDataError.

The property every input must meet: ``load_annotations`` either returns annotations whose
report accounts for every cell it read (judgements + missing + skipped + dropped repeats,
see :func:`tests.helpers.hostile.unaccounted_rows`), and that never hold a nested or binary
cell's Python text as an id or a category, or it raises AnnotationDataError naming the
source. Any other exception fails (CONCORD_STRICT_ERRORS is set by tests/conftest.py, so
the loader's safety net does not hide it). The analyses on what loaded return, or raise
AnnotationDataError; degenerate data give NaN with a reason, not a crash.
"""

from __future__ import annotations

import io
import json
import math

import pandas as pd
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from analytics import AnnotationDataError, load_annotations
from analytics.agreement import agreement_report
from analytics.dawid_skene import fit
from analytics.noise import noise_from_annotations
from tests.helpers.hostile import WRAPPED_EXCEPTION, unaccounted_rows

# No shrinking: the strategies draw small inputs already, and shrinking a failure costs
# minutes on a busy machine; derandomized, so a failure is the same example every run.
FUZZ = settings(
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
ROLE_NAMES = ["item", "annotator", "label", "task", "worker", "answer", "Item ", "", " ", "x"]

# ------------------------------------------------------------------ strategies
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.sampled_from(["", " ", "NA", "None", "null", "N/A", "a;b", "a|b", "x", "y", "1", "2.5"]),
)
nested = st.one_of(
    st.lists(st.sampled_from(["x", "y", "z"]), max_size=3),
    st.lists(st.one_of(scalars, st.lists(scalars, max_size=2)), max_size=3),
    st.dictionaries(st.text(max_size=3), scalars, max_size=2),
    st.binary(max_size=4),
)
cells = st.one_of(scalars, nested)
column_names = st.one_of(st.sampled_from(ROLE_NAMES), st.text(max_size=6))


@st.composite
def random_frames(draw) -> pd.DataFrame:
    """A table of random column names (empty, repeated, unicode) and random cell types."""
    n_cols = draw(st.integers(1, 5))
    n_rows = draw(st.integers(0, 8))
    names = draw(st.lists(column_names, min_size=n_cols, max_size=n_cols))
    columns = [draw(st.lists(cells, min_size=n_rows, max_size=n_rows)) for _ in names]
    frame = pd.DataFrame(dict(enumerate(columns)), dtype=object)
    frame.columns = names  # may repeat: a DataFrame allows it, the loader must not crash
    return frame


@st.composite
def annotation_frames(draw) -> pd.DataFrame:
    """A long table with the usual roles: mostly plain ids and labels, some columns odd.

    Each column is plain, or odd (a quarter of its cells any cell at all), so that most
    tables load and the analyses run on them, and the rest probe the refusals.
    """
    n = draw(st.integers(1, 30))
    plain = {
        "item": st.sampled_from(["i1", "i2", "i3", "i4", " i1", "i1 ", 1, 2]),
        "annotator": st.sampled_from(["a", "b", "c", "a "]),
        "label": st.sampled_from(["x", "y", "z", "x;y", "", None, "NA"]),
    }
    numeric = st.one_of(st.integers(-3, 3), st.sampled_from([0.5, 10**20, float("nan")]))
    columns = {}
    for role, values in plain.items():
        style = draw(st.sampled_from(["plain", "plain", "numeric", "odd"]))
        if style == "numeric" and role == "label":
            values = numeric
        elif style == "odd":
            values = st.one_of(values, values, values, cells)
        columns[role] = draw(st.lists(values, min_size=n, max_size=n))
    return pd.DataFrame(columns, dtype=object)


json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**25), max_value=10**25),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=5),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.one_of(st.sampled_from(ROLE_NAMES), st.text(max_size=4)), inner, max_size=4
        ),
    ),
    max_leaves=20,
)
record_values = st.one_of(
    st.sampled_from(["i1", "i2", "a", "b", "x", "y", "", None, 1, 2.5]), json_values
)
json_records = st.lists(
    st.dictionaries(st.sampled_from(ROLE_NAMES), record_values, max_size=5), max_size=8
)


@st.composite
def delimited_texts(draw) -> bytes:
    """Delimited text with random delimiters, quoting, line endings and cells."""
    sep = draw(st.sampled_from([",", ";", "\t", "|"]))
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    plain = st.text(alphabet=st.sampled_from(list("abxy12")), min_size=1, max_size=3)
    odd = st.one_of(
        st.text(alphabet=st.sampled_from(list("ab1 ;|,\t\"'\n\r{}[]=é\x00")), max_size=5),
        st.sampled_from(["", "NA", "None", "a;b", "a|b"]),
    )
    cell = st.one_of(plain, plain, plain, odd) if draw(st.booleans()) else plain
    ragged = draw(st.integers(0, 3)) == 0
    header = draw(
        st.one_of(
            st.just(["item", "annotator", "label"]),
            st.lists(st.one_of(st.sampled_from(ROLE_NAMES), cell), min_size=1, max_size=4),
        )
    )
    n_rows = draw(st.integers(0, 12))
    lines = [header]
    for _ in range(n_rows):
        width = draw(st.sampled_from([1, len(header), len(header) + 1])) if ragged else len(header)
        lines.append(draw(st.lists(cell, min_size=width, max_size=width)))

    def quote(c: str) -> str:
        if draw(st.integers(0, 3)) == 0:
            return '"' + c.replace('"', '""') + '"'
        return c

    text = newline.join(sep.join(quote(c) for c in row) for row in lines) + draw(
        st.sampled_from(["", newline])
    )
    return text.encode(draw(st.sampled_from(["utf-8", "utf-8", "latin-1"])), errors="replace")


def upload(data: bytes, name: str) -> io.BytesIO:
    buf = io.BytesIO(data)
    buf.name = name
    return buf


# ------------------------------------------------------------------ the property
def _reprs(values) -> set[str]:
    """The Python text of the nested and binary cells among ``values``."""
    out = set()
    for v in values:
        if isinstance(v, (dict, list, tuple, set, bytes, bytearray)):
            out.add(str(v))
            if isinstance(v, (list, tuple)):
                out.update(str(x) for x in v if isinstance(x, (dict, list, tuple, bytes)))
    return out


def load_or_refuse(source, source_name: str, *, cells=(), **kwargs):
    """Load, or check the AnnotationDataError is a plain message naming the source.

    Returns the annotations, or None when the input was refused.
    """
    try:
        ann = load_annotations(source, **kwargs)
    except AnnotationDataError as err:
        event("refused")
        assert source_name in str(err) or err.source is None, str(err)
        assert WRAPPED_EXCEPTION.search(str(err)) is None, str(err)
        return None
    event("loaded")
    assert ann.n_judgements > 0
    assert unaccounted_rows(ann) == 0, ann.report
    # nothing nested or binary was stringified into an id or a category
    texts = {str(c) for c in cells if isinstance(c, str)}
    stringified = _reprs(cells) - texts
    shown = {str(v) for v in [*ann.items, *ann.annotators, *ann.categories]}
    assert not (stringified & shown), sorted(stringified & shown)[:3]
    return ann


def analyses_return_or_refuse(ann) -> None:
    """agreement_report, the noise bound and Dawid-Skene return or raise AnnotationDataError."""
    try:
        table = agreement_report(ann, n_boot=0)
    except AnnotationDataError as err:
        assert WRAPPED_EXCEPTION.search(str(err)) is None, str(err)
    else:
        undefined = table[pd.to_numeric(table["value"], errors="coerce").isna()]
        assert all(str(n).strip() for n in undefined["note"]), undefined  # NaN says why
    try:
        noise = noise_from_annotations(ann)
    except AnnotationDataError as err:
        assert WRAPPED_EXCEPTION.search(str(err)) is None, str(err)
    else:
        assert not (isinstance(noise.gamma, float) and math.isnan(noise.gamma)) or noise.reason
    try:
        result = fit(ann, max_iter=20)
    except AnnotationDataError as err:
        assert WRAPPED_EXCEPTION.search(str(err)) is None, str(err)
    else:
        assert len(result.posteriors) == ann.n_items


def all_cells(frame: pd.DataFrame) -> list:
    return [v for col in range(frame.shape[1]) for v in frame.iloc[:, col].tolist()]


# ------------------------------------------------------------------ tables
@given(random_frames())
@settings(FUZZ, max_examples=150)
def test_a_random_table_loads_cleanly_or_is_refused(frame):
    load_or_refuse(frame, "<DataFrame>", cells=all_cells(frame))


@given(annotation_frames())
@settings(FUZZ, max_examples=100)
def test_a_random_annotation_table_loads_and_every_analysis_returns_or_refuses(frame):
    ann = load_or_refuse(frame, "<DataFrame>", cells=all_cells(frame), duplicates="first")
    if ann is not None:
        analyses_return_or_refuse(ann)


@given(annotation_frames(), st.sampled_from(["first", "last", "keep"]))
@settings(FUZZ, max_examples=60)
def test_every_duplicates_policy_accounts_for_every_row(frame, policy):
    load_or_refuse(frame, "<DataFrame>", cells=all_cells(frame), duplicates=policy)


# ------------------------------------------------------------------ JSON
@given(json_values)
@settings(FUZZ, max_examples=150)
def test_random_json_loads_cleanly_or_is_refused(value):
    data = json.dumps(value).encode()
    load_or_refuse(upload(data, "fuzz.json"), "fuzz.json", format="json")


@given(json_records)
@settings(FUZZ, max_examples=120)
def test_random_json_records_load_cleanly_or_are_refused(records):
    data = json.dumps(records).encode()
    cells = [v for r in records for v in r.values()]
    ann = load_or_refuse(upload(data, "fuzz.json"), "fuzz.json", cells=cells)
    if ann is not None and ann.n_judgements <= 20:
        analyses_return_or_refuse(ann)


@given(json_records)
@settings(FUZZ, max_examples=80)
def test_random_json_lines_load_cleanly_or_are_refused(records):
    data = "\n".join(json.dumps(r) for r in records).encode()
    cells = [v for r in records for v in r.values()]
    load_or_refuse(upload(data, "fuzz.jsonl"), "fuzz.jsonl", cells=cells, format="jsonl")


# ------------------------------------------------------------------ delimited text
@given(delimited_texts())
@settings(FUZZ, max_examples=200)
def test_random_delimited_text_loads_cleanly_or_is_refused(data):
    ann = load_or_refuse(upload(data, "fuzz.csv"), "fuzz.csv")
    if ann is not None and ann.n_judgements <= 30:
        analyses_return_or_refuse(ann)


@given(delimited_texts())
@settings(FUZZ, max_examples=80)
def test_random_text_read_as_tsv_loads_cleanly_or_is_refused(data):
    load_or_refuse(upload(data, "fuzz.tsv"), "fuzz.tsv", format="tsv")


# ------------------------------------------------------------------ the checks themselves
def test_the_property_refuses_stringified_cells():
    assert _reprs([{"a": 1}, b"x", ["x", ["y"]], "plain"]) == {
        "{'a': 1}",
        "b'x'",
        "['x', ['y']]",
        "['y']",
    }


# ------------------------------------------------------------------ Parquet and Excel
ARROW_COLUMNS = {
    "string": (st.one_of(st.none(), st.sampled_from(["i1", "i2", "a", "b", "x", "y", ""])), None),
    "int": (st.one_of(st.none(), st.integers(-(2**62), 2**62)), "int64"),
    "float": (st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True)), "float64"),
    "bool": (st.one_of(st.none(), st.booleans()), "bool"),
    "binary": (st.one_of(st.none(), st.binary(max_size=3)), "binary"),
    "list": (st.one_of(st.none(), st.lists(st.sampled_from(["x", "y"]), max_size=2)), None),
    "struct": (
        st.one_of(st.none(), st.fixed_dictionaries({"v": st.sampled_from(["x", "y"])})),
        None,
    ),
}


@st.composite
def arrow_tables(draw):
    """A Parquet-shaped table: role-like column names, each column of one Arrow type."""
    import pyarrow as pa

    n = draw(st.integers(0, 12))
    names = draw(st.lists(st.sampled_from(ROLE_NAMES[:6]), min_size=1, max_size=4, unique=True))
    columns, cells = {}, []
    for name in names:
        kind = draw(st.sampled_from(["string", "string", *ARROW_COLUMNS]))
        values, arrow_type = ARROW_COLUMNS[kind]
        data = draw(st.lists(values, min_size=n, max_size=n))
        columns[name] = pa.array(data, type=arrow_type)
        cells.extend(data)
    return pa.table(columns), cells


@given(arrow_tables())
@settings(FUZZ, max_examples=100)
def test_a_random_parquet_file_loads_cleanly_or_is_refused(table_and_cells):
    import pyarrow.parquet as pq

    table, cells = table_and_cells
    buf = io.BytesIO()
    pq.write_table(table, buf)
    load_or_refuse(upload(buf.getvalue(), "fuzz.parquet"), "fuzz.parquet", cells=cells)


excel_cells = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**15), 10**15),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from(["i1", "i2", "a", "b", "x", "y", "x;y", "NA", " ", "=1+1"]),
)


@given(st.data())
@settings(FUZZ, max_examples=25)
def test_a_random_workbook_loads_cleanly_or_is_refused(data):
    from openpyxl import Workbook

    header = data.draw(
        st.one_of(
            st.just(["item", "annotator", "label"]),
            st.lists(st.sampled_from(ROLE_NAMES), min_size=1, max_size=4),
        )
    )
    row = st.lists(excel_cells, min_size=len(header), max_size=len(header))
    wb = Workbook()
    ws = wb.active
    ws.append(header)
    for values in data.draw(st.lists(row, max_size=8)):
        ws.append(values)
    buf = io.BytesIO()
    wb.save(buf)
    load_or_refuse(upload(buf.getvalue(), "fuzz.xlsx"), "fuzz.xlsx")
