"""Spans: agreement, disagreement and gold for named entities and other text spans."""

from __future__ import annotations

import io
from pathlib import Path

import streamlit as st

from analytics import AnnotationDataError, format_count, format_number
from analytics import spans as sp
from ui.engine import engine_page
from ui.frame import via_the_frame
from ui.settings import keep, one_of, recall, recall_index
from ui.text import md, md_lines
from ui.widgets import (
    DOWNLOAD_STEM,
    data_file_name,
    download_table,
    explain,
    show_error,
    show_figure,
    show_table,
    statistic_formats,
)

via_the_frame("pages/spans.py")  # opened by its address before the app frame ran

SPANS_KEY = "concord_spans"
SAMPLE = Path(__file__).resolve().parents[1] / "sample_data" / "news_spans.csv"
WORST = 50  # documents offered in the browser
UPLOAD_TYPES = ["csv", "tsv", "json", "jsonl", "conll", "bio", "iob", "bilou", "txt"]
#: The extensions a CoNLL file may have (several files at once are CoNLL, one per annotator).
CONLL = {".conll", ".bio", ".iob", ".bilou", ".txt"}


@st.cache_resource(max_entries=4, show_spinner="Reading the spans...")
def _load(data: bytes | tuple[tuple[str, bytes], ...], name: str, fmt: str | None):
    if isinstance(data, tuple):
        return sp.load_spans({Path(n).stem: d for n, d in data}, format="conll", name=name)
    upload = io.BytesIO(data)  # named, so that errors (and format detection) use its name
    upload.name = name
    return sp.load_spans(upload, format=fmt, name=name)


@st.cache_data(max_entries=16, show_spinner=False)
def _agreement(fingerprint: str, _spans, match: str, n_boot: int) -> dict:
    return {
        "f1": sp.span_f1(_spans, match=match, n_boot=n_boot),
        "by_label": sp.span_f1(_spans, match=match, by_label=True, n_boot=n_boot),
        "pairs": sp.pairwise_f1(_spans, match=match),
        "documents": sp.document_agreement(_spans, match=match),
    }


@st.cache_data(max_entries=16, show_spinner=False)
def _pairs_by_label(fingerprint: str, _spans, match: str):
    return sp.pairwise_f1(_spans, match=match, by_label=True)


@st.cache_data(max_entries=16, show_spinner=False)
def _tokens(fingerprint: str, _spans):
    return sp.token_agreement(_spans)


@st.cache_data(max_entries=16, show_spinner=False)
def _fixed(fingerprint: str, _spans) -> dict:
    return {
        "alpha": sp.unitizing_alpha(_spans),
        "alpha_by_label": sp.unitizing_alpha(_spans, by_label=True),
        "confusion": sp.label_confusion(_spans),
    }


st.title("Spans")
explain(
    """
For **span annotation**, where annotators mark pieces of text (named entities, aspects,
evidence) and give each a label. Every measure here counts a document an annotator read
and left **without** spans as "no span here": leaving those out would inflate agreement.

- **Span F1** between two annotators: the share of one's spans the other also marked
  (precision), the reverse (recall), and their harmonic mean. *Exact*: same start, end
  and label; *overlap*: same label and at least one shared character; *token*: every token
  a span covers counts apart. The headline is the mean over annotator pairs, with an
  interval from resampling documents.
- **Krippendorff's alpha_U**: chance-corrected agreement on where units lie and what they
  are (1 perfect, 0 chance), on the documents every annotator finished. The headline value
  pools the labels (one minus observed over expected disagreement, each summed over the
  labels), so it is not the mean of the per-label values.
- **Gold spans**: the spans a majority of annotators share, with each one's support.
"""
)

# ------------------------------------------------------------------ data
# the files whose load the reader undid with "Back to the sample" (not loaded again)
DISMISSED = "concord_spans_dismissed"

with st.expander(
    "Load span annotations",
    expanded=SPANS_KEY not in st.session_state or bool(st.session_state.get("spans_upload")),
):
    st.markdown(
        "A long table (CSV/TSV: item, annotator, start, end, label, optional text; a row "
        "with empty start, end and label is a document finished without spans), a Label "
        "Studio JSON export, a Prodigy JSONL export, or CoNLL BIO/BILOU files (one per "
        "annotator, or one with a tag column per annotator). A file is loaded as soon as it "
        "is dropped, as on the Data page."
    )
    files = st.file_uploader(
        "Span file(s)",
        type=UPLOAD_TYPES,
        accept_multiple_files=True,
        key="spans_upload",
        max_upload_size=sp.MAX_BYTES // 2**20,  # what the reader takes, not the app's 1 GiB
    )
    formats = ["detect", *[f for f in sp.SPAN_FORMATS if f != "dataframe"]]
    fmt = st.selectbox(
        "Format", formats, index=recall_index("spans_format", formats), key="spans_format"
    )
    keep("spans_format", fmt)
    chosen = (tuple(f.file_id for f in files), fmt) if files else None
    if chosen is not None and st.session_state.get(DISMISSED) != chosen:
        try:
            if len(files) > 1:
                tables = [f.name for f in files if Path(f.name).suffix.lower() not in CONLL]
                if tables:  # two CSVs had been read as CoNLL: "a token line needs the tag"
                    raise AnnotationDataError(
                        f"{len(files)} files are in the box, and several files are read as "
                        "CoNLL files, one per annotator; "
                        + ", ".join(f"'{n}'" for n in tables[:3])
                        + (" is not one." if len(tables) == 1 else " are not."),
                        hint="Load one table at a time: remove the other files from the box "
                        "(the x beside each).",
                    )
                data = tuple((f.name, f.getvalue()) for f in files)
                loaded = _load(data, ", ".join(f.name for f in files), "conll")
            else:
                loaded = _load(files[0].getvalue(), files[0].name, None if fmt == "detect" else fmt)
        except AnnotationDataError as exc:
            show_error(exc)
            if SPANS_KEY in st.session_state:
                st.info(md(f"Still showing {st.session_state[SPANS_KEY].name}."))
        else:
            st.session_state[SPANS_KEY] = loaded
    if SPANS_KEY in st.session_state and st.button("Back to the sample", key="spans_sample"):
        del st.session_state[SPANS_KEY]
        st.session_state[DISMISSED] = chosen  # the files still in the box stay unloaded
        st.rerun()

engine_page("spans")  # data on DuckDB/Spark: its own view, or why not
spans = st.session_state.get(SPANS_KEY)
if spans is None:
    spans = _load(SAMPLE.read_bytes(), SAMPLE.name, None)
    st.caption("Showing the bundled sample: 150 simulated news sentences, 4 annotators.")
st.markdown(
    f"**{md(spans.name)}**: {format_count(spans.n_items, 'document')} · "
    f"{format_count(spans.n_annotators, 'annotator')} · {format_count(spans.n_spans, 'span')} · "
    f"{format_count(len(spans.labels), 'label')}"
)
# the sidebar names the label data set of the other pages; this page shows its span data
st.sidebar.caption(md(f"This page: span data {spans.name} (kept apart from the label data)."))
st.session_state[DOWNLOAD_STEM] = Path(spans.name).stem  # downloads named by the span data
report = spans.report
if report.cautions:
    st.warning(md_lines(report.cautions))
notes = [str(note) for note in report.skipped] + list(report.notes)
if notes:
    st.caption(md_lines(notes))
if spans.n_annotators < 2:
    st.info("Only one annotator: there is nothing to compare. Load a file with two or more.")
    st.stop()
if not spans.n_spans:  # every document finished without a span: agreement has no units
    st.info(
        "No annotator marked any span: every document was finished empty, so there is "
        "nothing to compare. If the file should hold spans, check that its span results are "
        "of a type Concord reads (the load notes above say what was skipped)."
    )
    st.stop()

# ------------------------------------------------------------------ settings
# kept when the page is left: how to match and resample for any span data (token matching
# only where the texts are known); labels, documents and quorums for this span data alone
fp = spans.fingerprint  # a hash of every span: made once per run, not per use
left, right = st.columns(2)
matches = ["exact", "overlap", "token"] if spans.texts_known else ["exact", "overlap"]
match = (
    left.segmented_control(
        "When do two spans agree?",
        matches,
        default=recall("spans_match", "exact", fit=one_of(matches)),
        required=True,
        key="spans_match",
    )
    or "exact"
)
resamples = [0, 200, 500, 1000]
n_boot = right.select_slider(
    "Bootstrap resamples",
    resamples,
    value=recall("spans_boot", 500, fit=one_of(resamples)),
    key="spans_boot",
)
keep("spans_match", match)
keep("spans_boot", n_boot)
if not spans.texts_known:
    st.caption("Token matching needs the document texts, which this file does not give.")

try:
    agree = _agreement(fp, spans, match, int(n_boot))
    fixed = _fixed(fp, spans)
except AnnotationDataError as exc:
    show_error(exc)
    st.stop()

res, alpha = agree["f1"], fixed["alpha"]
c1, c2, c3 = st.columns(3)
c1.metric(
    f"Span F1 ({match})", format_number(res.f1), help="Mean pairwise F1 over annotator pairs."
)
if res.low == res.low:
    c1.caption(
        f"{res.confidence:.0%} interval {res.low:.3f} to {res.high:.3f} (documents resampled)"
    )
c2.metric(
    "Krippendorff's alpha_U",
    format_number(alpha),
    help="Krippendorff (2004); 1 perfect, 0 chance. Pooled over the labels: 1 - D_o / D_e "
    "with both disagreements summed over the labels, not the mean of the per-label values.",
)
c2.caption(md(alpha.reason or alpha.note))
gold = sp.gold_spans(spans)
c3.metric("Gold spans (majority)", f"{len(gold):,}")
if res.f1.reason:
    st.warning(md(f"Span F1 is undefined: {res.f1.reason}"))
if spans.n_items < sp.FEW_DOCUMENTS:  # every interval and alpha_U below, not one of them
    st.caption(
        f"Only {format_count(spans.n_items, 'document')}: too few for resampled intervals "
        f"(none is given below {sp.FEW_DOCUMENTS}, here and per label) or for alpha_U to "
        "mean much."
    )

tabs = st.tabs(["Per label", "Annotator pairs", "Label swaps", "Documents", "Gold", "Token level"])

with tabs[0]:
    st.markdown(
        "F1 and alpha_U for each label taken alone. The headline alpha_U pools the labels "
        "rather than averaging these: a label with more room for disagreement weighs more."
    )
    per = agree["by_label"].merge(
        fixed["alpha_by_label"][["label", "alpha", "units"]].rename(columns={"alpha": "alpha_U"}),
        on="label",
        how="left",
    )
    show_table(
        per,
        "spans_per_label",
        key="spans_per_label",
        index=False,
        formats=statistic_formats(per, ("units",)),
    )

with tabs[1]:
    labels = ["all labels", *spans.labels]
    which = st.selectbox(
        "Label",
        labels,
        index=recall_index("spans_pair_label", labels, scope=fp),
        key="spans_pair_label",
    )
    keep("spans_pair_label", which, scope=fp)
    if which == "all labels":
        pairs = agree["pairs"]
    else:
        pairs = _pairs_by_label(fp, spans, match)
        pairs = pairs[pairs["label"] == which].drop(columns="label")
    label = None if which == "all labels" else which
    show_figure(sp.pair_f1_heatmap(pairs, label=label), "span_pairs", key="spans_pairs_fig")
    show_table(
        pairs, "span_pairs", key="spans_pairs", index=False, formats=statistic_formats(pairs)
    )

with tabs[2]:
    st.markdown(
        "Each span against the other annotators' spans that overlap it: the diagonal is "
        "agreement on the label, off the diagonal the swaps, and *(none)* a span the other "
        "did not mark at all."
    )
    show_figure(sp.label_confusion_heatmap(fixed["confusion"]), "label_swaps", key="spans_conf_fig")
    show_table(fixed["confusion"], "label_swaps", key="spans_conf")

with tabs[3]:
    docs = agree["documents"]
    if not spans.texts_known:
        st.info(
            "The document texts are unknown, so documents cannot be shown; the table ranks them."
        )
    else:
        worst = docs.head(WORST)
        f1 = dict(zip(worst["item"], worst["f1"], strict=True))
        # the documents themselves are the options, under a key of this data set: with
        # positions under one key, loading another file kept the old document's name
        # on screen above the new file's first document
        documents = list(f1)
        choice = st.selectbox(
            f"Document (the {len(worst)} with the lowest agreement first)",
            documents,
            index=recall_index("spans_doc", documents, scope=fp),  # if still among them
            format_func=lambda item: f"{item} · F1 {format_number(f1[item])}",
            key=f"spans_doc_{fp}_{match}",  # its F1s follow the matching
        )
        keep("spans_doc", choice, scope=fp)
        st.caption("Green: every annotator marked this exact span. Orange: disputed.")
        segments = sp.document_segments(spans, choice)
        for who, part in segments.groupby("annotator", sort=False):
            pieces = []
            for row in part.itertuples():
                piece = md(row.text)
                if row.labels:
                    colour = "green" if row.agreed else "orange"
                    piece = f":{colour}-background[{piece}]"
                if row.closes:
                    piece += " :gray[" + md("[" + ", ".join(map(str, row.closes)) + "]") + "]"
                pieces.append(piece)
            st.markdown(f"**{md(who)}**: " + "".join(pieces))
    show_table(
        docs, "span_documents", key="spans_docs", index=False, formats=statistic_formats(docs)
    )

with tabs[4]:
    quorums = list(range(spans.n_annotators + 1))
    quorum = st.selectbox(  # 0 stands for the library's default, a strict majority
        "Annotators a gold span needs",
        quorums,
        index=recall_index("spans_quorum", quorums, scope=fp),
        format_func=lambda k: (
            "a majority of those who finished the document"
            if k == 0
            else f"at least {k} annotator{'s' if k > 1 else ''}"
        ),
        key="spans_quorum",
    )
    keep("spans_quorum", quorum, scope=fp)
    gold = sp.gold_spans(spans, quorum=None if quorum == 0 else int(quorum))
    st.markdown(
        "Overlapping spans form one candidate; it is gold when enough annotators marked it. "
        "Its label is the one most of them gave, its boundaries the ones most gave with that "
        "label (*label_tie* flags a tied label)."
    )
    show_table(gold, "gold_spans", key="spans_gold", index=False)
    texts = {k: v for k, v in spans.texts.items() if isinstance(v, str)}
    col1, col2 = st.columns(2)
    col1.download_button(
        "Gold as Label Studio JSON",
        data=lambda: sp.to_label_studio(gold, texts).encode("utf-8"),
        file_name=data_file_name("gold_spans_label_studio.json"),
        mime="application/json",
        key="spans_gold_ls",
        on_click="ignore",
        icon=":material/download:",
    )
    col2.download_button(
        "Gold as Prodigy JSONL",
        data=lambda: sp.to_prodigy(gold, texts).encode("utf-8"),
        file_name=data_file_name("gold_spans_prodigy.jsonl"),
        mime="application/jsonl",
        key="spans_gold_prodigy",
        on_click="ignore",
        icon=":material/download:",
    )
    download_table(
        spans.to_frame(with_text=spans.texts_known),  # texts kept: tokens work after reload
        "span_annotations",
        key="spans_all",
        index=False,
        label="All spans as CSV (loads back here)",
    )

with tabs[5]:
    st.markdown(
        "The common practice: every token gets each annotator's label (O outside spans) "
        "and the usual coefficients are computed on tokens."
    )
    if not spans.texts_known:
        st.info("Token-level coefficients need the document texts, which this file does not give.")
    else:
        table = _tokens(fp, spans)
        st.warning(md(table.attrs["caveat"]))
        show_table(
            table,
            "token_agreement",
            key="spans_tokens",
            index=False,
            formats=statistic_formats(table),
        )
        st.caption(f"{table.attrs['tokens']:,} tokens.")
