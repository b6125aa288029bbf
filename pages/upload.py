"""Data: load a sample or a file, check how it was read, and see who labelled what."""

from __future__ import annotations

import streamlit as st

from analytics import AnnotationDataError
from analytics.data import DUPLICATE_POLICIES, SAMPLES, LabelKind
from analytics.engines import is_lazy
from ui.columns import column_roles, flagged_columns
from ui.engine_data import LOAD_TOKEN, PATH_MODE, big_upload, engine_summary_view, path_form
from ui.frame import via_the_frame
from ui.loaders import (
    DEFAULT_MISSING,
    coverage_cached,
    data_overview,
    describe_upload,
    fractional_count_agreement,
    load_cached,
    parse_category_order,
    parse_missing,
    preview_upload,
    read_cached,
    sample_source,
    sheets_cached,
    span_file_error,
)
from ui.state import (
    get_annotations,
    get_source,
    keep_for_reload,
    set_annotations,
    set_source,
)
from ui.text import md, md_lines
from ui.widgets import (
    annotation_downloads,
    data_set_counts,
    download_table,
    explain,
    show_figure,
    show_table,
)

via_the_frame("pages/upload.py")  # opened by its address before the app frame ran

AUTO = "(detect)"
#: The source segment the page last showed (restored if a client deselects it).
MODE_SHOWN = "concord_upload_mode_shown"


def _fractional(data: bytes, name: str, sheet: str | None):
    """The count-table coefficients of fractional counts, or None (a plain message then)."""
    try:
        return fractional_count_agreement(data, name, sheet)
    except AnnotationDataError:
        return None


LAYOUTS = {
    "long": "long (one judgement per row)",
    "wide": "wide (one column per annotator)",
    "counts": "count table (items x categories)",
    "contingency": "contingency table (two raters)",
}
UPLOAD_TYPES = ["csv", "tsv", "tab", "txt", "json", "jsonl", "ndjson", "xlsx", "parquet", "pq"]

st.title("Your annotations")
explain(
    """
Concord reads **one judgement per row** (*long form*: an item column, an annotator column and a
label column) or **one row per item** (*wide form*: an item column and one column per annotator).
Formats: CSV, TSV, JSON, JSON Lines, Excel (.xlsx) and Parquet. Column names such as
*item/task/unit/id*, *annotator/worker/rater/coder/user* and *label/response/answer/category/value*
are recognised; otherwise choose them under **Columns and parsing**.

Empty cells (and NA, None, NaN, null: change the list under **Columns and parsing**) mean
*not labelled*: they are counted, never turned into a category. Multi-label cells such as `anger;fear` become sets; `{}` is an explicit empty set.
Everything the loader decided, and every row it skipped, is listed under **What the loader did**.
"""
)

current = get_annotations()
source_now = get_source() or ""
# a data set that did not come from a sample (an upload, or set by a script) stays put
mode_default = (
    "Sample data set"
    if current is None or source_now.startswith("sample:")
    else PATH_MODE
    if source_now.startswith("path:")
    else "Upload a file"
)
if st.session_state.get("upload_mode", "") is None:
    # A second click on the selected segment deselects it (None), which once read as
    # "Sample data set" and replaced an upload with the sample: the choice stays as shown.
    st.session_state["upload_mode"] = st.session_state.get(MODE_SHOWN, mode_default)
mode = st.segmented_control(
    "Load from",
    ["Sample data set", "Upload a file", PATH_MODE],
    default=mode_default,
    required=True,  # in the browser a click on the selected segment does nothing
    key="upload_mode",
)
st.session_state[MODE_SHOWN] = mode

data = name = None
defaults: dict = {}
if mode == "Upload a file":
    uploaded = st.file_uploader(
        "Drop an annotation file here",
        type=UPLOAD_TYPES,
        key="upload_file",
        help="CSV, TSV, JSON, JSON Lines, Excel or Parquet; long or wide form. Up to 1 GiB: "
        "Parquet, CSV and TSV files from 200 MiB are read by DuckDB. Bigger files: open them "
        f"by path ({PATH_MODE}).",
    )
    if uploaded is not None:
        data, name = uploaded.getvalue(), uploaded.name
        origin = ("file", uploaded.file_id)
        # on DuckDB it is opened from a temporary file, not parsed here
        if big_upload(data, name, uploaded.file_id):
            data = None
    elif current is not None:
        st.caption(f"Showing **{md(current.name)}**, loaded earlier. Drop a file to replace it.")
elif mode == PATH_MODE:
    path_form()
else:
    keys = list(SAMPLES)
    loaded_key = next((k for k in keys if source_now == f"sample: {SAMPLES[k].title}"), keys[0])
    key = st.selectbox(
        "Sample data set",
        keys,
        index=keys.index(loaded_key),
        format_func=lambda k: SAMPLES[k].title,
        key="upload_sample",
    )
    st.caption(SAMPLES[key].description)
    data, name, defaults = sample_source(key)
    origin = ("sample", key)

if data is not None:
    sheet = None
    try:  # the file is parsed once: preview, description and load share the table
        sheets = sheets_cached(data, name)
        if len(sheets) > 1:  # a workbook of several sheets: the user picks, nothing guessed
            sheet = st.selectbox(
                "Sheet",
                sheets,
                key=f"upload_sheet_{name}",
                help="The workbook has several sheets; Concord reads the one chosen here.",
            )
        preview, columns = preview_upload(data, name, sheet)
        tool = describe_upload(data, name, sheet)
        read_error = None
    except AnnotationDataError as exc:
        preview, columns, tool, read_error = None, [], None, exc
    if read_error is not None:
        st.error(md(read_error))
        if current is not None:
            st.info(f"This file was not loaded: still showing **{md(current.name)}**.")
    else:
        with st.expander("Raw preview (first 20 rows as read)"):
            st.dataframe(preview, width="stretch", hide_index=True)
        tool_options: dict = {}
        if tool is not None:
            st.info(  # neutral: a recognised export can still fail to load (red below)
                f"Recognised a **{md(tool.tool)}** export ({md(tool.export)}).",
                icon=":material/check_circle:",
            )
            must_choose = any(
                tool.defaults.get(k) is None and len(v) > 1 and None not in v
                for k, v in tool.choices.items()
            )
            with st.expander(f"{md(tool.tool)} choices", expanded=must_choose):
                for opt, values in tool.choices.items():
                    if len(values) < 2:
                        continue
                    default = tool.defaults.get(opt)
                    pick = st.selectbox(
                        opt.replace("_", " ").capitalize(),
                        values,
                        index=values.index(default) if default in values else None,
                        format_func=lambda v: "default" if v is None else str(v),
                        placeholder="Choose one",
                        help=tool.help.get(opt),
                        key=f"tool_{opt}_{name}",
                    )
                    if pick is not None and pick != default:
                        tool_options[opt] = pick
        with st.expander("Columns and parsing", expanded=False):
            c1, c2, c3 = st.columns(3)
            choices = [AUTO, *columns]
            item_col = c1.selectbox("Item column", choices, key=f"map_item_{name}")
            annotator_col = c2.selectbox("Annotator column", choices, key=f"map_ann_{name}")
            label_col = c3.selectbox("Label column", choices, key=f"map_label_{name}")
            c4, c5, c6, c7 = st.columns(4)
            layout = c4.selectbox(
                "Layout",
                [AUTO, *LAYOUTS],
                format_func=lambda v: LAYOUTS.get(v, v),
                key=f"map_layout_{name}",
                help="Count tables are never guessed: choose 'count table' for one row per "
                "item and one column per category (how many raters chose it; the raters are "
                "anonymous), 'contingency table' for two raters' categories against each "
                "other (rows: rater 1, columns: rater 2).",
            )
            kind_default = defaults.get("kind", AUTO)
            kinds = [AUTO, *(k.value for k in LabelKind)]
            kind = c5.selectbox(
                "Label kind", kinds, index=kinds.index(kind_default), key=f"map_kind_{name}"
            )
            seps = [AUTO, "none", ";", "|", ","]
            sep_default = defaults.get("multilabel_sep", AUTO)
            sep = c6.selectbox(
                "Multi-label separator", seps, index=seps.index(sep_default), key=f"map_sep_{name}"
            )
            duplicates = c7.selectbox(
                "Repeated judgements",
                list(DUPLICATE_POLICIES),
                key=f"map_dup_{name}",
                help="What to do when one annotator labelled one item more than once.",
            )
            ignored = st.multiselect(
                "Ignore these columns",
                columns,
                key=f"map_ignore_{name}",
                help="Columns that are neither the item, an annotator nor the label (notes, "
                "comments, timestamps) are set aside before reading. In wide form every "
                "column besides the item is otherwise an annotator.",
            )
            missing_text = st.text_input(
                "Missing-value texts",
                value=DEFAULT_MISSING,
                key=f"map_missing_{name}",
                help="Cells holding these texts (comma-separated, case ignored) mean 'not "
                "labelled'. Empty cells always do. Remove a text that is a real category in "
                "your data (e.g. 'none' for a relation type); clear the box to treat only "
                "empty cells as missing.",
            )
            order_text = st.text_input(
                "Category order (optional)",
                value="",
                key=f"map_order_{name}",
                placeholder="e.g. negative, neutral, positive",
                help="The categories in their order, comma-separated: an order for ordinal "
                "distances and weighted coefficients, and the categories nobody used. Labels "
                "outside them are an error. Empty: the categories as found.",
            )
        options = {
            "item": None if item_col == AUTO else item_col,
            "annotator": None if annotator_col == AUTO else annotator_col,
            "label": None if label_col == AUTO else label_col,
            "layout": None if layout == AUTO else layout,
            "kind": None if kind == AUTO else kind,
            "multilabel_sep": None if sep == AUTO else ("" if sep == "none" else sep),
            "duplicates": duplicates,
            "missing": parse_missing(missing_text),
        }
        if ignored:
            options["ignore"] = tuple(ignored)
        if sheet is not None:
            options["sheet"] = sheet
        if tool_options:
            options["tool_options"] = tuple(sorted(tool_options.items()))
        if "categories" in defaults:
            options["categories"] = tuple(defaults["categories"])
        if order := parse_category_order(order_text):
            options["categories"] = order
        choice = (*origin, tuple(sorted(options.items())))
        # Load only when the choice differs from what this page last loaded, so that a
        # data set set elsewhere (another page, a script) is never silently replaced.
        if choice != st.session_state.get(LOAD_TOKEN):
            try:
                ann = load_cached(data, name, choice[2])
            except AnnotationDataError as exc:
                fractional = (
                    _fractional(data, name, sheet)
                    if options.get("layout") == "counts" and "fractional" in str(exc)
                    else None
                )
                if fractional is not None:  # no judgements behind them: coefficients only
                    st.info(
                        "The count table holds fractional counts, so it cannot become "
                        "judgements (the other pages need those); here are the coefficients "
                        "defined on counts."
                    )
                    show_table(
                        fractional, "agreement on the count table", key="frac_counts", index=False
                    )
                    st.stop()
                spans = span_file_error(exc, columns)  # its hint first, no column advice
                st.error(md(exc) if spans is None else spans)
                still = (
                    f" This file was not loaded: still showing **{md(current.name)}**."
                    if current is not None
                    else ""
                )
                where = (
                    f"the **{md(tool.tool)} choices**"
                    if tool is not None
                    else "**Columns and parsing**"
                )
                if spans is None:
                    st.info(f"Adjust {where} above, or fix the file and upload it again." + still)
                elif still:
                    st.info(still.strip())
            else:
                set_annotations(ann)
                if origin[0] == "file":
                    set_source(f"file: {name}")
                    keep_for_reload(ann, f"file: {name}")
                else:
                    set_source(f"sample: {SAMPLES[key].title}", sample=key)
                st.session_state[LOAD_TOKEN] = choice
                current = ann

ann = get_annotations()
if ann is None:
    st.info("Load a sample or upload a file to begin.")
    st.stop()
if is_lazy(ann):  # held by DuckDB/Spark: described from its small tables only
    engine_summary_view(ann)
    st.stop()

st.subheader(f"Loaded: {md(ann.name)}")
data_set_counts(ann)

for warning in ann.report.warnings():
    st.warning(md(warning))

# Column roles: what each column of the file became, with a one-click way out for a column
# that looks like notes rather than labels (it would otherwise be an annotator).
raw_columns = columns if data is not None and read_error is None else []
chosen_columns = dict(ann.report.columns)
set_aside = list(st.session_state.get(f"map_ignore_{name}", [])) if raw_columns else []
free_text: list[str] = []
if raw_columns and ann.report.layout == "wide" and "annotators" in chosen_columns:
    free_text = flagged_columns(
        ann.fingerprint, read_cached(data, name, sheet), tuple(chosen_columns["annotators"])
    )


def _ignore_column(widget_key: str, column: str) -> None:
    st.session_state[widget_key] = [*st.session_state.get(widget_key, []), column]


for col in free_text:
    st.button(
        f"Ignore column {md(repr(col))} and load again",
        key=f"ignore_{name}_{col}",
        on_click=_ignore_column,
        args=(f"map_ignore_{name}", col),
        icon=":material/visibility_off:",
        type="primary",
    )
if raw_columns and ann.report.tool:  # a tool's fields, not columns mapped to roles
    st.caption(
        f"Read as a {md(ann.report.tool)} export: its importer reads the fields it knows "
        "(see **What the loader did**), so there are no column roles to set."
    )
elif raw_columns:
    with st.expander("Column roles", expanded=bool(free_text or set_aside)):
        st.dataframe(
            column_roles(
                raw_columns, chosen_columns, set_aside, free_text, annotators=ann.annotators
            ),
            width="stretch",
            hide_index=True,
        )
        st.caption(
            "Change a role under **Columns and parsing** above: the item, annotator and label "
            "columns, the layout, and columns to ignore."
        )
with st.expander("What the loader did", expanded=bool(ann.report.warnings())):
    st.markdown(md_lines(ann.report.messages()))
st.caption(
    md(
        "Categories: "
        + ", ".join(map(str, ann.categories[:30]))
        + (" ..." if ann.n_categories > 30 else "")
    )
)

overview = data_overview(ann.fingerprint, ann)
tab_summary, tab_items, tab_coverage, tab_labels, tab_data = st.tabs(
    ["Summary", "Judgements per item", "Coverage", "Labels per annotator", "Data"]
)
with tab_summary:
    show_table(
        overview["summary"], "summary", key="summary", index=False, csv=overview["summary_csv"]
    )
with tab_items:
    show_figure(overview["per_item"], "judgements per item", key="per_item")
with tab_coverage:
    show_figure(overview["coverage"], "coverage", key="coverage")
    shared, refused = coverage_cached(ann.fingerprint, ann)
    if shared is None:  # annotators² past the memory budget: said, not computed
        st.error(md(refused))
    else:
        download_table(shared, "shared items per annotator pair", key="coverage_table")
with tab_labels:
    show_figure(overview["labels"], "label distribution", key="label_dist")
    download_table(
        ann.label_distribution(), "label distribution per annotator", key="label_dist_table"
    )
with tab_data:
    head = overview["head"]
    st.dataframe(head, width="stretch", hide_index=True)
    st.caption(f"First {len(head):,} of {ann.n_judgements:,} judgements.")
    annotation_downloads(ann, key="data")
