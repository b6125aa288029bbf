"""The HTML report with wide data: pairwise left out past its limit, refusals as text."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analytics import as_annotations
from analytics._core.budget import memory_budget
from analytics.report import REPORT_PAIRWISE_ANNOTATORS, report_blocks


def _wide(n_items: int, n_annotators: int, k: int):
    rng = np.random.default_rng(1)
    return as_annotations(
        pd.DataFrame(
            {
                "item": np.repeat(np.arange(n_items), n_annotators),
                "annotator": np.tile(np.arange(n_annotators), n_items),
                "label": rng.integers(0, k, n_items * n_annotators),
            }
        ),
        kind="nominal",
        categories=list(range(k)),
    )


def test_report_leaves_the_pairwise_table_out_past_its_limit() -> None:
    ann = _wide(4, REPORT_PAIRWISE_ANNOTATORS + 1, 2)
    blocks = report_blocks(ann, sections=["agreement"], n_boot=0)
    pairwise = [b for b in blocks if b.title.startswith("Pairwise")]
    assert [b.kind for b in pairwise] == ["text"]
    assert f"Not shown for {REPORT_PAIRWISE_ANNOTATORS + 1} annotators" in pairwise[0].text
    coefficients = next(b for b in blocks if b.title == "Agreement coefficients").table
    assert coefficients["value"].notna().any()


def test_report_shows_a_refused_section_as_text_and_builds_the_others() -> None:
    ann = _wide(40, 2, 150)
    with memory_budget("2M"):
        blocks = report_blocks(ann, sections=["agreement", "dawid_skene"], n_boot=0)
    refused = [b for b in blocks if b.section == "dawid_skene"]
    assert len(refused) == 1 and refused[0].text.startswith("Not computed for this data:")
    assert "memory budget of 2 MiB" in refused[0].text
    assert any(b.section == "agreement" and b.kind == "table" for b in blocks)
