"""The canonical data model and everything that turns a file into it.

:class:`Annotations` (immutable, integer codes beside the original names), the loader
:func:`load_annotations` with its format and layout detection and the tool importers,
exports, bundled samples and overview figures.
"""

from __future__ import annotations

from analytics.data.export import (
    EMPTY_SET,
    choose_separator,
    to_long_csv,
    to_wide_csv,
)
from analytics.data.loading import (
    DEFAULT_MAX_BYTES,
    FORMATS,
    ROLE_SYNONYMS,
    detect_columns,
    load_annotations,
    read_table,
)
from analytics.data.model import (
    DUPLICATE_POLICIES,
    MISSING_TOKENS,
    Annotations,
    LabelKind,
    LoadReport,
    SkipNote,
    as_annotations,
    is_missing,
    looks_numeric,
)
from analytics.data.overview import (
    coverage_figure,
    judgements_per_item_figure,
    label_distribution_figure,
    wide_table,
)
from analytics.data.samples import (
    DEFAULT_SAMPLE,
    SAMPLES,
    Sample,
    load_sample,
)

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_SAMPLE",
    "DUPLICATE_POLICIES",
    "EMPTY_SET",
    "FORMATS",
    "MISSING_TOKENS",
    "ROLE_SYNONYMS",
    "SAMPLES",
    "Annotations",
    "LabelKind",
    "LoadReport",
    "Sample",
    "SkipNote",
    "as_annotations",
    "choose_separator",
    "coverage_figure",
    "detect_columns",
    "is_missing",
    "judgements_per_item_figure",
    "label_distribution_figure",
    "load_annotations",
    "load_sample",
    "looks_numeric",
    "read_table",
    "to_long_csv",
    "to_wide_csv",
    "wide_table",
]
