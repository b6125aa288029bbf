"""Loading annotation files (work in progress: DataFrame input only for now)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from .annotations import Annotations


def load_annotations(source: Any, *, item=None, annotator=None, label=None, format=None,
                     multilabel_sep=None, categories=None, duplicates="error", kind=None) -> Annotations:
    df = source
    return Annotations.from_frame(df, item=item or "item", annotator=annotator or "annotator",
                                  label=label or "label", multilabel_sep=multilabel_sep,
                                  categories=categories, duplicates=duplicates, kind=kind)
