"""The canonical data model and everything that turns a file into it.

:class:`Annotations` (immutable, integer codes beside the original names), the loader
:func:`load_annotations` with its format and layout detection, exports, bundled samples
and overview figures. The tool importers have their own face,
:mod:`analytics.data.importers`.

The modules, bottom to top (each imports only those above it in this list):

- :mod:`~analytics.data.cells`: what one cell means (missing, number, label set, id);
- :mod:`~analytics.data.kinds`: :class:`LabelKind`;
- :mod:`~analytics.data.load_report`: :class:`LoadReport` and :class:`SkipNote`;
- :mod:`~analytics.data.encode`: a long table into integer codes (ingestion);
- :mod:`~analytics.data.views`: the read-only views the model inherits (wide, counts, ...);
- :mod:`~analytics.data.model`: :class:`Annotations`, its checks and subsets;
- :mod:`~analytics.data.count_tables`: items x categories count tables and two-rater
  contingency tables as :class:`Annotations` (:func:`from_count_table`,
  :func:`from_contingency_table`);
- :mod:`~analytics.data.limits`: :class:`Limits`, the resource limits of a read;
- :mod:`~analytics.data.delimited`, :mod:`~analytics.data.json_records`,
  :mod:`~analytics.data.workbook`, :mod:`~analytics.data.parquet_file`: one reader per format;
- :mod:`~analytics.data.reading`: bytes into a raw table (:func:`read_table`);
- :mod:`~analytics.data.layout`: which column is which, long or wide form;
- :mod:`~analytics.data.importers`: annotation-tool exports into long tables;
- :mod:`~analytics.data.loading`: :func:`load_annotations` and :func:`as_annotations`;
- :mod:`~analytics.data.gold_labels`: a file of known true labels (:func:`read_gold_labels`);
- :mod:`~analytics.data.overview`, :mod:`~analytics.data.export`,
  :mod:`~analytics.data.samples`: figures, CSV exports and the bundled samples.

>>> from analytics.data import load_annotations
>>> load_annotations("sample_data/crowd_intents.csv")
Annotations('crowd_intents.csv': 300 items, 20 annotators, 1500 judgements, 4 categories, nominal)
"""

from __future__ import annotations

from analytics.data.cells import (
    MISSING_TOKENS,
    is_missing,
    label_set,
    label_text,
    long_integer_text,
    looks_numeric,
    to_number,
)
from analytics.data.count_tables import (
    COUNT_LAYOUTS,
    anonymous_annotators,
    count_matrix_of,
    from_contingency_table,
    from_count_table,
)
from analytics.data.delimited import check_header, sniff_delimiter
from analytics.data.encode import DUPLICATE_POLICIES
from analytics.data.export import (
    EMPTY_SET,
    choose_separator,
    reload_options,
    separator_for,
    spreadsheet_safe,
    table_to_csv,
    to_long_csv,
    to_wide_csv,
    zip_texts,
)
from analytics.data.free_text import free_text_columns
from analytics.data.gold_labels import read_gold_labels
from analytics.data.json_records import RepeatedKey, loads_strict
from analytics.data.kinds import (
    MAX_CODES,
    SCALE_CAUTION,
    LabelKind,
    infer_kind,
    on_a_scale,
    refuse_scale,
)
from analytics.data.layout import ROLE_SYNONYMS, detect_columns
from analytics.data.limits import DEFAULT_LIMITS, Limits, scan_json
from analytics.data.load_report import LoadReport, SkipNote
from analytics.data.loading import RawTable, as_annotations, load_annotations
from analytics.data.model import Annotations
from analytics.data.overview import (
    coverage_figure,
    judgements_per_item_figure,
    label_distribution_figure,
    wide_table,
)
from analytics.data.reading import DEFAULT_MAX_BYTES, FORMATS, read_table
from analytics.data.samples import (
    DEFAULT_SAMPLE,
    SAMPLES,
    Sample,
    load_sample,
    sample_truth,
)
from analytics.data.workbook import workbook_sheets

__all__ = [
    "COUNT_LAYOUTS",
    "DEFAULT_LIMITS",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_SAMPLE",
    "DUPLICATE_POLICIES",
    "EMPTY_SET",
    "FORMATS",
    "MAX_CODES",
    "MISSING_TOKENS",
    "ROLE_SYNONYMS",
    "SAMPLES",
    "SCALE_CAUTION",
    "Annotations",
    "LabelKind",
    "Limits",
    "LoadReport",
    "RawTable",
    "RepeatedKey",
    "Sample",
    "SkipNote",
    "anonymous_annotators",
    "as_annotations",
    "check_header",
    "choose_separator",
    "count_matrix_of",
    "coverage_figure",
    "detect_columns",
    "free_text_columns",
    "from_contingency_table",
    "from_count_table",
    "infer_kind",
    "is_missing",
    "judgements_per_item_figure",
    "label_distribution_figure",
    "label_set",
    "label_text",
    "load_annotations",
    "load_sample",
    "loads_strict",
    "long_integer_text",
    "looks_numeric",
    "on_a_scale",
    "read_gold_labels",
    "read_table",
    "refuse_scale",
    "reload_options",
    "sample_truth",
    "scan_json",
    "separator_for",
    "sniff_delimiter",
    "spreadsheet_safe",
    "table_to_csv",
    "to_long_csv",
    "to_number",
    "to_wide_csv",
    "wide_table",
    "workbook_sheets",
    "zip_texts",
]
