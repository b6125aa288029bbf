"""Export: everything Concord can hand over, in one place."""

from __future__ import annotations

import streamlit as st

from analytics import AnnotationDataError, format_count
from analytics.agreement import agreement_report, default_distance
from analytics.data import table_to_csv
from analytics.dawid_skene import fit, model_labels_table
from analytics.models import refuse_scale
from analytics.multilabel import gold_standard
from analytics.noise import noise_from_annotations
from ui.engine import engine_page
from ui.frame import via_the_frame
from ui.report import report_button
from ui.settings import report_settings
from ui.state import require_annotations
from ui.text import md, md_lines
from ui.widgets import annotation_downloads, data_file_name, download_table, explain

via_the_frame("pages/export.py")  # opened by its address before the app frame ran

engine_page("export")  # data on DuckDB/Spark: its own view, or why not
ann = require_annotations()
st.title("Export")
explain(
    """
Everything downloadable for the loaded data set. The **report** is one HTML file with every
section (data summary, agreement, multi-label measures or the noise bound and the Dawid-Skene
model), with interactive figures, that opens offline; the **zip** adds every table as a CSV.
Each page also has downloads next to its own tables and figures.
"""
)

st.subheader("Report")
st.caption(
    f"For **{md(ann.name)}**: {format_count(ann.n_items, 'item')}, "
    f"{format_count(ann.n_annotators, 'annotator')}, {format_count(ann.n_judgements, 'judgement')}."
)
settings = report_settings(ann)
report_button(ann, settings, key="export", zip_too=True)
st.markdown(
    "**Computed with the settings chosen on the pages** (a page not visited yet uses its "
    "defaults); the report lists them too:\n" + md_lines(settings.describe(default_distance(ann)))
)

st.subheader("The annotations")
st.caption(
    "The long and wide files load back into Concord: label sets are joined with ';', {} is "
    "an empty set. The summary is a table of counts, for reading."
)
annotation_downloads(ann, key="export")
download_table(
    ann.summary(),
    "summary",  # led by the data set name (data_file_name)
    key="export_summary",
    index=False,
    label="Data summary CSV",
)

st.subheader("Results")
st.caption(
    "Each file is computed when you click, with the settings listed above (the Agreement "
    "page's annotator and category filters apply only on that page)."
)
results = [
    (
        "Agreement coefficients CSV",
        "agreement_coefficients.csv",
        lambda: agreement_report(
            ann,
            settings.agreement_confidence,
            settings.agreement_n_boot,
            seed=0,
            distance=settings.distance,
        ),
    ),
]
if ann.is_multilabel:
    results.append(
        (
            "Label-set gold standard (Algorithm 1) CSV",
            "gold_standard_algorithm1.csv",
            lambda: gold_standard(ann).to_frame(),
        )
    )
else:
    try:
        refuse_scale(ann)  # scores on a scale: no categories to model, as Gold labels says
    except AnnotationDataError as exc:
        st.caption(md(f"No model labels to download: {exc.problem}"))
    else:
        results.append(
            (
                "Model labels with confidence, Dawid-Skene CSV",
                "model_labels_dawid_skene.csv",
                lambda: model_labels_table(fit(ann, **settings.fit_options())),
            )
        )
results.append(
    (
        "Agreed items (noise calculator) CSV",
        "agreed_items.csv",
        lambda: noise_from_annotations(
            ann, settings.noise_confidence, annotators=settings.noise_annotators
        ).agreed_items(),
    )
)
# one button per line: side by side in columns, the long labels were cut off
for label, file_name, make in results:
    st.download_button(
        label,
        data=lambda make=make: table_to_csv(make(), index=False).encode("utf-8"),
        file_name=data_file_name(file_name),
        mime="text/csv",
        key=f"export_{file_name}",
        on_click="ignore",
        icon=":material/download:",
    )

st.subheader("Where the other results are")
st.markdown(
    """
- **Overview**: the items to relabel, when that is the advice (CSV).
- **Agreement report**: the coefficient table, per-category and pairwise tables (CSV), every figure (HTML/PNG).
- **Multi-label**: A_m tables, category disagreement, the Algorithm 1 gold standard (CSV).
- **Spans**: span F1 per label, annotator pairs and documents (CSV), the gold spans (CSV, Label Studio JSON, Prodigy JSONL), every span as a CSV that loads back.
- **Noise calculator**: the agreed items, the usual candidate gold standard (CSV).
- **Gold labels**: the chosen model's most likely labels with confidence, the model comparison, the annotator table (CSV).
- **Next labels**: the batch of items to label next (CSV, Label Studio tasks, Mechanical Turk input).
"""
)
