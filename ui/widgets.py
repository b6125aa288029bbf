"""Small building blocks every page uses: figures with downloads, tables with downloads.

Downloads are deferred (a callable as ``data``): the file is made when the button is
clicked, so showing a page never pays for files nobody asked for.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from analytics import figure_table
from analytics.data import Annotations, reload_options, table_to_csv, to_long_csv, to_wide_csv
from ui.text import kind_text, md


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_").lower() or "concord"


#: A page whose data are not the loaded annotations (Spans) names its downloads by this.
DOWNLOAD_STEM = "concord_download_stem"


def data_file_name(file_name: str) -> str:
    """A download's file name, led by the data set's name (``intents_coverage.csv``), so
    the files of several data sets never overwrite one another in a downloads folder.

    The data set is the loaded annotations, or what the page set under
    :data:`DOWNLOAD_STEM` in this run (:func:`ui.frame.via_the_frame` clears it first).
    """
    from ui.state import get_annotations

    ann = get_annotations()
    named = st.session_state.get(DOWNLOAD_STEM)
    stem = _slug(named or (ann.name.rsplit(".", 1)[0] if ann is not None else ""))
    stem = "" if stem == "concord" and not named else stem
    if not stem or _slug(file_name).startswith(stem):
        return file_name
    return f"{stem}_{file_name}"


def explain(markdown: str, *, title: str = "What am I looking at?", expanded: bool = False) -> None:
    """A collapsible plain-language explanation for first-time visitors."""
    with st.expander(title, expanded=expanded, icon=":material/help:"):
        st.markdown(markdown)


def download_table(
    df: pd.DataFrame | Callable[[], pd.DataFrame],
    name: str,
    *,
    key: str,
    index: bool = True,
    label: str = "Download CSV",
    help: str | None = None,
) -> None:
    """A CSV download button for a table (made on click, safe to open in a spreadsheet).

    ``df`` may be a function that makes the table: it then runs on click only.
    """
    st.download_button(
        label,
        data=lambda: table_to_csv(df() if callable(df) else df, index=index).encode("utf-8"),
        file_name=data_file_name(f"{_slug(name)}.csv"),
        mime="text/csv",
        key=f"dl_csv_{key}",
        on_click="ignore",
        icon=":material/download:",
        help=help,
    )


#: The most rows a table shows on screen; the CSV download always has every row. Sending
#: 200,000 rows to the browser on every rerun costs about half a second (issue 17.10).
MAX_SHOWN_ROWS = 10_000
#: Tables of at most this many rows are shown at their full height (no inner scrolling).
WHOLE_ROWS = 20


#: How a missing value (NaN) reads on screen, as in the CLI's tables.
MISSING = "–"


def three_decimals(df: pd.DataFrame) -> dict[str, str]:
    """``formats`` for :func:`show_table`: float columns with three decimals (0.463, 0.222,
    0.250 rather than 0.463, 0.2222, 0.25), whole-number floats as counts (1,234)."""
    formats = {}
    for c in df.columns:
        if pd.api.types.is_float_dtype(df[c]):
            whole = bool(((df[c] % 1 == 0) | df[c].isna()).all())
            formats[c] = "{:,.0f}" if whole else "{:.3f}"
    return formats


def _default_formats(
    df: pd.DataFrame,
    config: dict,
    percents: Sequence[str],
    texts: dict[str, Sequence[str]] | None,
) -> dict[str, str]:
    """:func:`three_decimals` for the float columns no other argument draws, leaving out
    a column with a value that would read 0.000 (a gain of 0.0002 bits is not 0)."""
    taken = set(config) | set(percents) | set(texts or {})
    formats = {}
    for column, form in three_decimals(df).items():
        if column in taken:
            continue
        if _is_probability(column):  # one precision for every posterior in the column
            formats[column] = PROBABILITY_FORMAT
            continue
        values = df[column].abs()
        if bool(((values > 0) & (values < 0.0005)).any()):
            continue
        formats[column] = form
    return formats


def statistic_formats(df: pd.DataFrame, counts: Sequence[str] = ()) -> dict[str, str]:
    """``formats`` for :func:`show_table` where every float column is a statistic: three
    decimals, 1.000 and 0.500 included (:func:`three_decimals` would write an all-whole
    column as a count); the ``counts`` as whole numbers even when a missing cell made them
    floats."""
    stats = {c: "{:.3f}" for c in df.select_dtypes("float").columns if c not in counts}
    return stats | {c: "{:,.0f}" for c in counts if c in df.columns}


#: A Python format field such as ``{:,.0f}``: thousands separator, precision and type.
_FIELD = re.compile(r"\{:(,?)(\.\d+)?([dfeg])\}")


def printf_format(form: str) -> str:
    """A Python format string (``"{:,.0f}"``) as the grid's printf format (``"%,.0f"``).

    The separator and the precision are both kept: the grid's "localized" preset, used
    for thousands separators before, drew 911.25 for a column formatted to whole numbers.
    Text around the field stays (``"{:.1f} s"`` -> ``"%.1f s"``).

    >>> printf_format("{:,.0f}"), printf_format("{:.3f}"), printf_format("{:.3g}")
    ('%,.0f', '%.3f', '%.3g')
    """
    fields = list(_FIELD.finditer(form))
    if len(fields) != 1:
        raise ValueError(f"show_table format {form!r}: expected one field such as '{{:,.0f}}'")
    field = fields[0]
    before, after = (
        text.replace("%", "%%") for text in (form[: field.start()], form[field.end() :])
    )
    sep, precision, kind = field.groups()
    return f"{before}%{sep}{precision or ''}{kind}{after}"


#: Float columns of probabilities (a posterior, a confidence): drawn with a fixed number
#: of decimals, 0.00002 as 0.000 beside 0.9999 as 1.000, never 1 beside 0.9999.
PROBABILITY_FORMAT = "{:.3f}"


def _is_probability(column: object) -> bool:
    """A column named for a probability: ``confidence``, ``posterior``, ``p(...)``,
    ``P(...)`` or a name ending in ``confidence``."""
    name = str(column).strip()
    return bool(re.fullmatch(r"[pP]\(.*\)", name)) or name.lower().endswith(
        ("confidence", "posterior")
    )


def show_table(
    df: pd.DataFrame,
    name: str,
    *,
    key: str,
    index: bool = True,
    formats: dict[str, str] | None = None,
    percents: tuple[str, ...] = (),
    texts: dict[str, Sequence[str]] | None = None,
    csv: pd.DataFrame | Callable[[], pd.DataFrame] | None = None,
    download: bool = True,
    **kwargs,
) -> None:
    """A table with its CSV download beside it (on screen at most MAX_SHOWN_ROWS rows).

    ``formats`` (column -> format string, e.g. ``"{:.3f}"``): those columns drawn in that
    format; a column with a missing cell is shown as right-aligned text with
    :data:`MISSING` there, since the grid writes a missing number as "None" (a Styler's
    ``na_rep`` is not honoured). The CSV keeps the numbers and leaves missing cells empty.
    The format's precision and thousands separator are both honoured (:func:`printf_format`).
    Other float columns are drawn by :func:`three_decimals` (0.777 beside 0.795, not 0.777
    beside 0.7945), except one holding a value that three decimals would write as 0.000;
    probabilities (posteriors, confidences: :func:`_is_probability`) always get
    :data:`PROBABILITY_FORMAT`, so 1, 0.9999 and 0.00002 never share a column.
    ``percents``: columns of shares drawn as percents with one decimal.
    ``texts`` (column -> one text per row): the column drawn as those texts, right-aligned,
    for a format no format string gives (e.g. :func:`analytics.format_p_value`'s
    "< 0.001", or one that depends on the row); the CSV keeps the numbers.
    ``csv``: the table the CSV holds when ``df`` is written for reading (``1,500`` as
    text); None: ``df`` itself. ``download``: False for a table whose page offers its CSV
    in a row of export formats just below it (one CSV of the same rows, not two).
    """
    shown = df.head(MAX_SHOWN_ROWS) if len(df) > MAX_SHOWN_ROWS else df
    truncated = shown is not df
    if shown.attrs:  # Streamlit tries to send attrs as JSON and warns on frames held there
        shown = shown.copy(deep=False)
        shown.attrs = {}
    # a short table is shown whole; a longer one scrolls inside ten rows' height
    kwargs.setdefault("height", "content" if len(shown) <= WHOLE_ROWS else "auto")
    config = dict(kwargs.pop("column_config", None) or {})
    formats = _default_formats(shown, config, percents, texts) | (formats or {})
    if percents or formats or texts:
        shown = shown.copy()
    for column, written in (texts or {}).items():
        shown[column] = list(written)[: len(shown)]
        config.setdefault(column, st.column_config.TextColumn(alignment="right"))
    for column in (c for c in percents if c in shown.columns):
        # one decimal: the grid's "percent" preset drops trailing zeros (91.9% beside
        # 92.91%); the CSV keeps the shares
        shown[column] = shown[column] * 100.0
        config.setdefault(column, st.column_config.NumberColumn(format="%.1f%%"))
    for column, form in (formats or {}).items():
        if column not in shown.columns:
            continue
        if shown[column].isna().any():  # as text: the grid writes a missing number "None"
            shown[column] = [
                MISSING if pd.isna(v) else form.format(v) for v in shown[column].tolist()
            ]  # a display table: at most MAX_SHOWN_ROWS cells
            config.setdefault(column, st.column_config.TextColumn(alignment="right"))
        else:  # numbers stay numbers (they sort as such), drawn in the same format
            config.setdefault(column, st.column_config.NumberColumn(format=printf_format(form)))
    if config:
        kwargs["column_config"] = config
    st.dataframe(shown, width="stretch", hide_index=not index, key=f"df_{key}", **kwargs)
    if truncated:
        where = "the CSV has" if download else "the downloads below have"
        st.caption(f"Showing the first {MAX_SHOWN_ROWS:,} of {len(df):,} rows; {where} them all.")
    if download:
        download_table(df if csv is None else csv, name, key=key, index=index)


def show_figure(fig: go.Figure, name: str, *, key: str) -> None:
    """A plotly figure: PNG from its toolbar (camera icon); below it, the figure as
    self-contained HTML and its numbers as CSV (:func:`analytics.figure_table`)."""
    st.plotly_chart(
        fig,
        width="stretch",
        key=f"fig_{key}",
        config={
            "displaylogo": False,
            "toImageButtonOptions": {
                "format": "png",
                "filename": data_file_name(_slug(name)),
                "scale": 2,
            },
        },
    )
    with st.container(horizontal=True):
        st.download_button(
            "Download figure (HTML)",
            data=lambda: fig.to_html(include_plotlyjs=True, full_html=True).encode("utf-8"),
            file_name=data_file_name(f"{_slug(name)}.html"),
            mime="text/html",
            key=f"dl_fig_{key}",
            on_click="ignore",
            icon=":material/download:",
            help="A self-contained, interactive copy of the figure. For a PNG use the camera "
            "icon above the figure.",
        )
        download_table(  # the table is made on click, like the HTML
            lambda: figure_table(fig),
            f"{name} data",
            key=f"fig_{key}",
            index=False,
            label="Figure data (CSV)",
            help="The numbers drawn, one row per point (per cell for a heatmap).",
        )


def show_error(exc: Exception) -> None:
    """A plain-language error, never a traceback; the message is shown literally."""
    st.error(md(exc))


def annotation_downloads(ann: Annotations, *, key: str) -> None:
    """Long and wide CSV of the loaded annotations, side by side (made on click).

    Both load back into Concord unchanged: label sets joined with ';', {} for the empty set,
    text a spreadsheet would run as a formula behind a ``'`` that the loader removes; what
    the file cannot carry (label kind, category order, a duplicates policy, missing-value
    texts) is said beside the buttons (:func:`analytics.data.reload_options`).
    """
    options = _reload_options(ann.fingerprint, ann)
    if options:
        st.caption(md(_reload_sentence(options)))
    columns = st.columns(2)
    for column, label, make, file_name in (
        (columns[0], "Long CSV (item, annotator, label)", to_long_csv, "annotations_long.csv"),
        (columns[1], "Wide CSV (items x annotators)", to_wide_csv, "annotations_wide.csv"),
    ):
        with column:
            st.download_button(
                label,
                data=lambda make=make: make(ann).encode("utf-8"),
                file_name=data_file_name(file_name),
                mime="text/csv",
                key=f"dl_{key}_{file_name}",
                on_click="ignore",
                icon=":material/download:",
            )


@st.cache_data(max_entries=8, show_spinner=False)
def _reload_options(fingerprint: str, _ann: Annotations) -> dict:
    """:func:`reload_options` once per data set, not on every rerun of the Data page."""
    return reload_options(_ann)


def _reload_sentence(options: dict) -> str:
    """What to choose on the Data page (and pass in Python) to load an export back as it is."""
    parts, kwargs = [], []
    if "kind" in options:
        parts.append(f"label kind {options['kind']}")
        kwargs.append(f"kind={options['kind']!r}")
    if "categories" in options:
        cats = options["categories"]
        shown = ", ".join(map(str, cats[:20])) + (", ..." if len(cats) > 20 else "")
        parts.append(f"category order {shown}")
        kwargs.append(f"categories={cats!r}" if len(cats) <= 20 else "categories=[...]")
    if "duplicates" in options:
        parts.append(f"repeated judgements: {options['duplicates']}")
        kwargs.append(f"duplicates={options['duplicates']!r}")
    if "missing" in options:
        texts = [t for t in options["missing"] if t]
        parts.append("missing-value texts: " + (", ".join(texts) or "none (clear the box)"))
        kwargs.append(f"missing={tuple(texts)!r}")
    return (
        "A CSV holds the judgements, not how they were read: to get these annotations back, "
        f"choose {'; '.join(parts)} when loading (in Python: load_annotations(path, "
        f"{', '.join(kwargs)}))."
    )


def page_link(page: str, label: str, icon: str | None = None) -> None:
    """A link to another page of the app; plain text when the page runs on its own.

    ``st.page_link`` needs the page registered by the app's ``st.navigation``; a page run
    alone (a test, ``streamlit run pages/x.py``) gets the label as a caption instead.
    """
    try:
        st.page_link(page, label=label, icon=icon)
    except st.errors.StreamlitAPIException:
        st.caption(md(label))


def data_set_counts(ann) -> None:
    """The Data page's link to the Overview and its five counts (items, annotators,
    judgements, categories, label kind), for data in memory and on an engine alike."""
    page_link(
        "pages/overview.py",
        "Next: the Overview answers 'can we benchmark on this?'",
        ":material/fact_check:",
    )
    m = st.columns(5)
    m[0].metric("Items", f"{ann.n_items:,}")
    m[1].metric("Annotators", f"{ann.n_annotators:,}")
    m[2].metric("Judgements", f"{ann.n_judgements:,}")
    m[3].metric("Categories", f"{ann.n_categories:,}")
    m[4].metric("Label kind", kind_text(ann.kind))
