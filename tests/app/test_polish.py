"""Issue 17, point 9: small things a user must not second-guess."""

from __future__ import annotations

import pytest
from streamlit.proto.Metric_pb2 import Metric

from analytics import format_count
from analytics.data import LoadReport, SkipNote, load_sample
from tests.helpers.app import run_page
from tests.helpers.paths import ROOT


def test_counts_agree_with_their_nouns():
    assert str(SkipNote("no label", 1, (4,))).endswith("(row 4)")
    assert str(SkipNote("no label", 2, (3, 7))).endswith("(rows 3, 7)")
    assert format_count(1, "annotator") == "1 annotator"
    assert format_count(2, "category", "categories") == "2 categories"
    assert LoadReport  # the report's own messages use SkipNote


def test_agreement_interval_deltas_carry_no_arrow():
    at = run_page("agreement", load_sample("crowd_intents"), timeout=120)
    assert not at.exception
    intervals = [m for m in at.metric if "interval" in m.proto.delta]
    assert intervals, "the headline metrics show their interval beneath the value"
    assert all(m.proto.direction == Metric.MetricDirection.NONE for m in intervals)


def test_the_favicon_is_a_file_in_the_repository():
    source = (ROOT / "app.py").read_text(encoding="utf-8")
    assert "page_icon=FAVICON" in source and (ROOT / "ui" / "favicon.png").is_file()
    assert ":material/" not in source.split("st.set_page_config", 1)[1].split("\n", 1)[0]


def test_long_tables_show_a_page_and_say_the_csv_has_all():
    from streamlit.testing.v1 import AppTest

    def page():
        import pandas as pd

        from ui.widgets import show_table

        show_table(pd.DataFrame({"v": range(10_005)}), "long", key="t", index=False)

    at = AppTest.from_function(page)
    at.run()
    assert not at.exception
    assert len(at.dataframe[0].value) == 10_000
    assert "first 10,000 of 10,005 rows" in at.caption[0].value


def test_a_short_table_with_attrs_is_shown_whole_without_a_truncation_note():
    from streamlit.testing.v1 import AppTest

    def page():
        import pandas as pd

        from ui.widgets import show_table

        df = pd.DataFrame({"v": range(14)})
        df.attrs["pairwise"] = pd.DataFrame({"x": [1]})  # not JSON: must not reach the grid
        show_table(df, "short", key="t", index=False)

    at = AppTest.from_function(page)
    at.run()
    assert not at.exception
    assert len(at.dataframe[0].value) == 14
    assert not [c for c in at.caption if "Showing the first" in c.value]


def test_shares_are_drawn_as_percents_with_one_decimal():
    from streamlit.testing.v1 import AppTest

    def page():
        import pandas as pd

        from ui.widgets import show_table

        df = pd.DataFrame({"k": [1, 2], "accuracy": [0.919, 0.9291]})
        show_table(df, "shares", key="t", index=False, percents=("accuracy",))

    at = AppTest.from_function(page)
    at.run()
    assert not at.exception
    assert at.dataframe[0].value["accuracy"].round(2).tolist() == [91.9, 92.91]
    assert '"%.1f%%"' in at.dataframe[0].proto.columns


def test_float_columns_are_drawn_with_three_decimals_unless_that_hides_a_value():
    from streamlit.testing.v1 import AppTest

    def page():
        import pandas as pd

        from ui.widgets import show_table

        df = pd.DataFrame({"confidence": [0.777, 0.7945], "gain": [0.5, 0.0002], "n": [3.0, 4.0]})
        show_table(df, "floats", key="t", index=False)

    at = AppTest.from_function(page)
    at.run()
    assert not at.exception
    columns = at.dataframe[0].proto.columns
    assert columns.count('"%.3f"') == 1  # confidence; gain's 0.0002 would read 0.000
    assert '"%,.0f"' in columns  # whole-number floats as counts, with separators
    assert at.dataframe[0].value["confidence"].tolist() == [0.777, 0.7945]  # numbers kept


def test_a_format_keeps_its_precision_with_thousands_separators():
    """The replay summary's "{:,.0f}" became the grid's "localized", which drew 911.25
    under a caption saying "to the nearest judgement"."""
    import json

    from streamlit.testing.v1 import AppTest

    from ui.widgets import printf_format

    def page():
        import pandas as pd

        from ui.widgets import show_table

        df = pd.DataFrame({"judgements": [911.25, 1417.5], "x": [1.25, 2.5]})
        show_table(df, "formats", key="t", formats={"judgements": "{:,.0f}", "x": "{:.1f} s"})

    at = AppTest.from_function(page)
    at.run()
    assert not at.exception
    config = json.loads(at.dataframe[0].proto.columns)
    assert config["judgements"]["type_config"]["format"] == "%,.0f"  # rounded, 1,418
    assert config["x"]["type_config"]["format"] == "%.1f s"
    assert at.dataframe[0].value["judgements"].tolist() == [911.25, 1417.5]  # numbers kept
    assert printf_format("{:,.3f}") == "%,.3f"
    assert printf_format("5% of {:.2f}") == "5%% of %.2f"
    with pytest.raises(ValueError, match="expected one field"):
        printf_format("{:.1%}")  # percents= draws shares, not a format


def test_posteriors_and_confidences_have_one_precision():
    """The Gold labels item browser and the multi-label label-set table mixed 1, 0.9999
    and 0.00002 in one column: a probability column is drawn with three decimals, even
    where that writes 0.000; the CSV keeps every digit."""
    import json

    from streamlit.testing.v1 import AppTest

    def page():
        import pandas as pd

        from ui.widgets import show_table

        df = pd.DataFrame(
            {
                "item": ["a", "b", "c"],
                "confidence": [1.0, 0.9999, 0.572],
                "P(fear)": [0.00002, 0.9999, 1.0],
                "p(question)": [0.0175, 0.00002, 0.725],
                "expected_confidence": [0.9, 0.95, 1.0],
                "posterior": [1.0, 0.0, 1.0],  # all whole: still a probability, not a count
                "gain": [0.5, 0.0002, 0.1],  # not a probability: 0.0002 is not written 0.000
            }
        )
        show_table(df, "posteriors", key="t", index=False)

    at = AppTest.from_function(page)
    at.run()
    assert not at.exception
    config = json.loads(at.dataframe[0].proto.columns)
    for column in ("confidence", "P(fear)", "p(question)", "expected_confidence", "posterior"):
        assert config[column]["type_config"]["format"] == "%.3f", column
    assert "gain" not in config
    assert at.dataframe[0].value["P(fear)"].tolist() == [0.00002, 0.9999, 1.0]
