"""The HTML report's tables (issue 17, point 9): no pandas row numbers, text left, numbers right."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analytics.report_html import MAX_TABLE_ROWS, table_html


def test_a_row_count_index_is_not_shown_and_alignment_follows_the_type():
    df = pd.DataFrame({"coefficient": ["alpha", "<b>kappa</b>"], "value": [0.81234, np.nan]})
    out = table_html(df)
    assert '<th class="text">coefficient</th><th class="num">value</th>' in out
    assert '<td class="num">0.812</td>' in out and '<td class="num">–</td>' in out
    assert "&lt;b&gt;kappa&lt;/b&gt;" in out and "<b>kappa" not in out
    assert '<td class="num">0</td>' not in out and "<th></th>" not in out  # no 0, 1 row numbers


def test_a_named_index_becomes_the_first_column():
    df = pd.DataFrame({"accuracy": [0.9, 0.5]}, index=pd.Index(["w1", "w2"], name="annotator"))
    out = table_html(df)
    assert out.index("annotator") < out.index("accuracy")
    assert '<td class="text">w1</td>' in out


def test_an_index_named_like_a_column_keeps_both():
    df = pd.DataFrame({"a": [1, 2]}, index=pd.Index(["x", "y"], name="a"))
    out = table_html(df)
    assert out.count("<th ") == 2


def test_long_tables_are_cut_with_a_note():
    out = table_html(pd.DataFrame({"v": range(MAX_TABLE_ROWS + 5)}))
    assert out.count("<tr>") == MAX_TABLE_ROWS + 1
    assert f"First {MAX_TABLE_ROWS} of {MAX_TABLE_ROWS + 5:,} rows" in out


def test_missing_cells_and_small_p_values_read_as_on_the_pages():
    """Missing cells were blank and p-values printed as 1.658e-120."""
    df = pd.DataFrame({"coefficient": ["a", "b"], "p_value": [1.658e-120, float("nan")]})
    out = table_html(df)
    assert "&lt; 0.001" in out and "e-120" not in out
    assert '<td class="num">–</td>' in out


def test_the_reports_agreement_table_reads_like_the_pages_and_its_csv_keeps_the_numbers():
    """The HTML gave the interval as two raw columns (ci_low, ci_high) and raw names."""
    import io
    import zipfile

    from analytics.data import load_sample
    from analytics.report import build_report, build_report_zip

    ann = load_sample("crowd_intents")
    html = build_report(ann, sections=["agreement"], n_boot=0)
    assert "95% interval" in html and "ci_low" not in html and "se_method" not in html
    assert " to " in html.split("95% interval", 1)[1][:2000]
    with zipfile.ZipFile(io.BytesIO(build_report_zip(ann, sections=["agreement"], n_boot=0))) as zf:
        name = next(n for n in zf.namelist() if "coefficients" in n)
        table = pd.read_csv(io.BytesIO(zf.read(name)))
    assert {"ci_low", "ci_high", "se_method", "analytic_low"} <= set(table.columns)


def test_flags_read_yes_and_no_as_in_the_cli():
    """A boolean column (e.g. a spammer flag) printed True/False where the CLI says yes/no."""
    df = pd.DataFrame({"annotator": ["w1", "w2"], "flagged": np.array([True, False])})
    out = table_html(df)
    assert '<td class="text">yes</td>' in out and '<td class="text">no</td>' in out
    assert "True" not in out and "False" not in out


def test_numbers_in_a_column_read_alike():
    """Four significant digits mixed precisions in one column: 0.06122 beside 0.463."""
    df = pd.DataFrame({"rate": [0.06122, 0.463], "items": [1200.0, 35.0], "n": [3, 4]})
    out = table_html(df)
    assert '<td class="num">0.061</td>' in out and '<td class="num">0.463</td>' in out
    assert '<td class="num">1,200</td>' in out and '<td class="num">35</td>' in out


def test_counts_with_a_tie_s_half_read_as_counts():
    """Correct answers with ties split read "717.5" beside "742", not "717.500" beside "742.000"."""
    out = table_html(pd.DataFrame({"correct": [717.5, 742.0, 1234.0], "accuracy": [0.5, 1.0, 1.0]}))
    assert '<td class="num">717.5</td>' in out and '<td class="num">742</td>' in out
    assert '<td class="num">1,234</td>' in out and '<td class="num">0.500</td>' in out


def test_coefficients_of_perfect_agreement_read_as_coefficients():
    """A column of 1s read "1" beside "1.000 to 1.000"."""
    out = table_html(pd.DataFrame({"value": [1.0, 1.0], "se": [0.0, 0.0]}))
    assert '<td class="num">1.000</td>' in out and '<td class="num">0.000</td>' in out


def test_the_data_summary_shows_thousands_separators_and_its_csv_plain_digits():
    """A review saw "judgements 1500" in the report beside "1,500" on the pages."""
    import io
    import zipfile

    from analytics.data import load_sample
    from analytics.report import build_report, build_report_zip

    ann = load_sample("crowd_intents")
    html_text = build_report(ann, sections=("summary",))
    assert '<td class="text">1,500</td>' in html_text and ">1500</td>" not in html_text
    with zipfile.ZipFile(io.BytesIO(build_report_zip(ann, sections=("summary",)))) as z:
        name = next(n for n in z.namelist() if "data_summary" in n)
        assert "judgements,1500" in z.read(name).decode()


def test_the_report_prints_wide_tables_whole():
    """On screen a wide table scrolls; printed, scrolling hides its right-hand columns, so
    print styles lay tables out whole in smaller type, and start each section on a page."""
    from analytics.data import load_sample
    from analytics.report import build_report

    text = build_report(load_sample("crowd_intents"), sections=("summary",))
    style = text[text.index("<style>") : text.index("</style>")]
    assert "@media print" in style and "table{display:table" in style
