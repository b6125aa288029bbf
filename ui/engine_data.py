"""The Data page's way to large files: a typed path (or a big upload) opened on DuckDB.

Streamlit holds an upload in memory and caps it at ``server.maxUploadSize``
(``.streamlit/config.toml``); for 10^8 judgements the useful way is a path on the machine
running Concord: a Parquet or CSV file, or a folder of Parquet files, which DuckDB reads
where it lies. The engine follows the command line's rule
(:func:`analytics.engines.default_engine`: in memory below 200 MiB, DuckDB from there), with
a control to override it.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import streamlit as st

from analytics import AnnotationDataError, format_count
from analytics.data import LabelKind
from analytics.engines import (
    ENGINE_THRESHOLD_BYTES,
    LocalSource,
    engine_summary,
    format_bytes,
    guess_columns,
    local_source,
    open_on_engine,
    source_columns,
)
from ui.engine import ENGINE_SOURCE_KEY, engine_name
from ui.state import set_annotations, set_source
from ui.text import md, md_lines
from ui.widgets import data_set_counts, show_error, show_table

PATH_MODE = "Open a large file (path)"
ENGINES_OFFERED = ("memory", "duckdb")
AUTO = "(detect)"
#: The Data page's record of what it last loaded (shared with pages/upload.py).
LOAD_TOKEN = "concord_load_choice"


def engine_choice(n_bytes: int, default: str, *, key: str) -> str:
    """The engine control: the rule's default, stated, and the user's override."""
    threshold = format_bytes(ENGINE_THRESHOLD_BYTES)
    engine = st.radio(
        "Engine",
        ENGINES_OFFERED,
        index=ENGINES_OFFERED.index(default),
        format_func=lambda e: (
            engine_name(e)[:1].upper()
            + engine_name(e)[1:]
            + (" (default for this size)" if e == default else "")
        ),
        key=key,
        horizontal=True,
        help=f"Below {threshold} files are read in memory (every page works); from {threshold} "
        "DuckDB reads them where they lie, and the pages defined at that scale run on it "
        "(the command line's --engine auto follows the same rule).",
    )
    st.caption(
        md(
            f"{format_bytes(n_bytes)}: by default read "
            f"{'by DuckDB' if default == 'duckdb' else 'in memory'} (in memory below "
            f"{threshold}, DuckDB from {threshold}). Change it above."
        )
    )
    return str(engine)


@st.cache_data(max_entries=8, show_spinner=False)
def _columns(path: str, n_bytes: int, mtime: float) -> list[str]:
    return source_columns(local_source(path))


_SPILLED: list[Path] = []


@st.cache_resource(max_entries=2, show_spinner="Writing the upload to a temporary file…")
def spill_upload(file_id: str, name: str, _data: bytes) -> str:
    """A big upload written to a temporary file, for DuckDB to read (kept while cached).

    Keyed by the upload's id, not its bytes: hashing a gigabyte on every rerun would cost
    seconds.
    """
    folder = Path(tempfile.mkdtemp(prefix="concord-upload-"))
    path = folder / Path(name).name
    path.write_bytes(_data)
    # at most the cache's two spilled uploads on disk: a handle reads its file only while
    # it opens (the engine keeps its own coded table), so older files can go
    _SPILLED.append(folder)
    while len(_SPILLED) > 2:
        shutil.rmtree(_SPILLED.pop(0), ignore_errors=True)
    return str(path)


def open_form(source: LocalSource, engine: str, *, key: str, description: str) -> None:
    """Column choice and the Open button for a checked source; loads it on a click."""
    try:
        stat = source.path.stat()
        columns = _columns(str(source.path), source.n_bytes, stat.st_mtime)
    except AnnotationDataError as exc:
        show_error(exc)
        return
    guess = guess_columns(columns)
    c1, c2, c3, c4 = st.columns(4)
    roles = {}
    for col, role, title in (
        (c1, "item", "Item column"),
        (c2, "annotator", "Annotator column"),
        (c3, "label", "Label column"),
    ):
        index = columns.index(guess[role]) if guess[role] in columns else None
        roles[role] = col.selectbox(
            title, columns, index=index, placeholder="Choose one", key=f"{key}_{role}"
        )
    kinds = [AUTO, *(k.value for k in LabelKind if k is not LabelKind.MULTILABEL)]
    kind = c4.selectbox("Label kind", kinds, key=f"{key}_kind")
    options: dict[str, Any] = {**roles, "kind": None if kind == AUTO else kind}
    if engine == "duckdb":
        limit = st.text_input(
            "DuckDB memory limit (empty: DuckDB's default, 80% of the machine's memory)",
            key=f"{key}_memory",
            placeholder="e.g. 3GB",
            help="DuckDB spills to disk past this bound, so the data may be far bigger.",
        ).strip()
        if limit:
            options["memory_limit"] = limit
        # DuckDB spills to .tmp in the working folder by default: the app's is the repository
        options["temp_directory"] = str(Path(tempfile.gettempdir()) / "concord-duckdb")
    if not st.button(
        f"Open ({engine_name(engine)})",
        key=f"{key}_open",
        type="primary",
        icon=":material/database:",
        disabled=None in roles.values(),
    ):
        if None in roles.values():
            st.caption("Choose the item, annotator and label columns to open the file.")
        return
    try:
        with st.spinner(f"Opening {md(source.path.name)} ({format_bytes(source.n_bytes)})…"):
            ann = open_on_engine(source, engine, **options)
    except AnnotationDataError as exc:
        show_error(exc)
        return
    set_annotations(ann)
    set_source(f"{description} ({engine_name(engine)})")
    st.session_state[ENGINE_SOURCE_KEY] = {"path": description, "size": source.describe()}
    st.session_state[LOAD_TOKEN] = ("engine", description, engine, tuple(sorted(options.items())))
    st.rerun()  # the sidebar and the page below describe the data just opened


def path_form() -> None:
    """The typed path: checked, its engine chosen, its columns named, then opened."""
    text = st.text_input(
        "Path of a Parquet or CSV file, or of a folder of Parquet files",
        key="engine_path",
        placeholder="/data/judgements.parquet or /data/judgements/",
        help="Read on the machine running Concord (not uploaded): the way in for files of "
        "10^7 to 10^9 judgements. Columns item, annotator and label (or name them below).",
    )
    if not text.strip():
        st.caption(
            "Type a path and press Enter. A folder is read with every *.parquet file in it "
            "and below it."
        )
        return
    try:
        source = local_source(text)
    except AnnotationDataError as exc:
        show_error(exc)
        return
    st.caption(md(f"{source.path}: {source.describe()}."))
    # another file gets its own engine default and freshly guessed columns, not the
    # previous file's choices (the widgets' state is dropped when the path changes)
    if st.session_state.get("engine_path_shown") != str(source.path):
        for old in [k for k in st.session_state if str(k).startswith(_PATH_WIDGETS)]:
            del st.session_state[old]
        st.session_state["engine_path_shown"] = str(source.path)
    engine = engine_choice(source.n_bytes, source.default_engine, key="engine_path_choice")
    open_form(source, engine, key="engine_path_form", description=f"path: {source.path}")


_PATH_WIDGETS = ("engine_path_choice", "engine_path_form")


def big_upload(data: bytes, name: str, file_id: str) -> bool:
    """For an uploaded Parquet/CSV/TSV file: the engine choice; True when DuckDB takes it.

    On DuckDB the upload is written to a temporary file and opened from there (the
    in-memory loading of the Data page then does not run).
    """
    suffix = Path(name).suffix.lower()
    if suffix not in (".parquet", ".pq", ".csv", ".tsv") or not data:
        return False  # an empty file gets the loader's "the file is empty", no engine choice
    if suffix in (".csv", ".tsv") and len(data) < 65536 and data.rstrip().count(b"\n") < 1:
        return False  # a header alone: the loader says there are no rows, nothing to choose
    default = "duckdb" if len(data) >= ENGINE_THRESHOLD_BYTES else "memory"
    engine = engine_choice(len(data), default, key=f"upload_engine_{name}")
    if engine != "duckdb":
        return False
    source = local_source(spill_upload(file_id, name, data))
    open_form(source, engine, key=f"upload_engine_form_{name}", description=f"file: {name}")
    return True


def engine_summary_view(ann: Any) -> None:
    """The Data page's description of a data set held by an engine."""
    source = st.session_state.get(ENGINE_SOURCE_KEY) or {}
    st.subheader(f"Loaded: {md(ann.name)} (on {engine_name(ann)})")
    if source:
        st.caption(md(f"{source.get('path', '')}: {source.get('size', '')}"))
    data_set_counts(ann)
    st.info(
        f"The judgements stay in {engine_name(ann)}: the Overview, Agreement report, Noise "
        "calculator and Gold labels (Dawid-Skene) pages run on it, with per-item views "
        "sampled (and saying so). Multi-label, Next labels, the report and the Export page "
        "need every judgement in memory.",
        icon=":material/database:",
    )
    with st.expander("What the loader did"):
        st.markdown(md_lines(ann.report.messages()))
    tables = engine_summary(ann)
    tab_labels, tab_annotators = st.tabs(["Labels", "Judgements per annotator"])
    with tab_labels:
        show_table(tables["labels"], "labels", key="eng_labels", index=False)
    with tab_annotators:
        show_table(tables["annotators"], "annotators", key="eng_annotators")
        st.caption(
            f"{format_count(ann.n_annotators, 'annotator')}, busiest first; each category's "
            "share of that annotator's judgements."
        )
