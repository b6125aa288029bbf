"""The noise calculator page, driven with AppTest."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from analytics import Annotations
from analytics.noise import noise_from_annotations
from tests.helpers.app import run_page
from tests.helpers.markup import shown
from tests.helpers.paths import load_public


def run(ann: Annotations | None) -> AppTest:
    at = run_page("noise", ann)
    assert not at.exception, at.exception
    return at


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def small() -> Annotations:
    rows = []
    for i in range(40):
        lab = "x" if i % 3 else "y"
        rows += [(f"i{i}", "A", lab), (f"i{i}", "B", lab)]
    for i, (a, b) in enumerate([("x", "y"), ("y", "x"), ("x", "y"), ("y", "x")] * 2):
        rows += [(f"d{i}", "A", a), (f"d{i}", "B", b)]
    return Annotations.from_frame(
        pd.DataFrame(rows, columns=["item", "annotator", "label"]), name="small"
    )


def test_no_data_shows_info_and_the_hand_calculator():
    at = run(None)
    assert at.info and "No data set is loaded" in at.info[0].value
    m = metrics(at)
    assert m["Coin-flips, at most"] == "125"
    assert m["Noise, at most (γ)"] == "13.9%"
    # 13.9% noise is "caution" (5% to 15%): amber, never green, and the rule is stated
    assert not at.success
    assert any(
        "Caution" in shown(s.value)
        and "at most 125 of your 900 agreed items are coin-flips" in shown(s.value)
        for s in at.warning
    )
    assert any("good ≤ 5%, caution 5% to 15%, bad > 15%" in shown(c.value) for c in at.caption)
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    names = [t.get("name") for t in spec["data"]]
    assert "P(more than j coin-flips)" in names
    shapes = spec["layout"]["shapes"]
    assert any(abs(s.get("y0", 9) - 0.05) < 1e-9 for s in shapes)  # the 1 - confidence cut-off
    assert any(s.get("x0") == 125 for s in shapes)  # the bound
    # the reverse question is the default further question: 33 for n = 1000, p = 0.5, 5%
    assert m["Disagreements you can afford"] == "33"


def test_hand_mode_with_rates_and_confidence():
    at = run(None)
    at.radio(key="noise_p_mode").set_value("From each annotator's label shares on hard items").run()
    assert not at.exception
    at.number_input(key="noise_k").set_value(5).run()
    assert not at.exception
    assert any("0.0625" in c.value for c in at.caption)
    at.number_input(key="noise_d").set_value(340).run()
    assert metrics(at)["Coin-flips, at most"] == "31"
    at.select_slider(key="noise_confidence").set_value(0.99).run()
    assert int(metrics(at)["Coin-flips, at most"]) > 31


def test_from_data_mode():
    ann = small()
    at = run(ann)
    ref = noise_from_annotations(ann)
    m = metrics(at)
    assert m["Disagreed (d)"] == str(ref.n_disagreed) == "8"
    assert m["Coin-flips, at most"] == str(ref.hidden_hard)
    gold = next(d.value for d in at.dataframe if "label" in d.value.columns)
    assert len(gold) == 40
    rates = next(d.value for d in at.dataframe if "disagreed judged" in d.value.columns)
    assert rates.loc["A", "x"] == 0.5
    from analytics.data import load_sample

    crowd = load_sample("crowd_intents")
    assert list(noise_from_annotations(crowd).rates.index) != sorted(crowd.annotators)
    shown = next(d.value for d in run(crowd).dataframe if "disagreed judged" in d.value.columns)
    assert list(shown.index) == sorted(crowd.annotators)  # name order, not first-seen
    labels = [b.label for b in at.get("download_button")]
    assert labels.count("Download CSV") >= 2


def test_from_data_degenerate_and_public_set():
    ann = small()
    at = run(ann)
    at.multiselect(key="noise_annotators").set_value(["A"]).run()
    assert not at.exception
    assert any("at least two annotators" in w.value for w in at.warning)
    labels, _ = load_public("snow_temp")
    at2 = run(Annotations.from_frame(labels, name="temp"))
    # the only red box is the verdict on the result (snow_temp's bound is "bad"), not a failure
    assert [e.value.split(".")[0] for e in at2.error] == ["**Bad"]
    assert any("uneven" in c.value for c in at2.caption)


def test_further_questions():
    at = run(None)
    at.segmented_control(key="noise_section").set_value("Would more annotators help?").run()
    assert not at.exception
    table = next(d.value for d in at.dataframe if "annotators" in d.value.columns)
    assert table["annotators"].tolist() == list(range(2, 11))
    assert len(at.get("plotly_chart")) == 2
    at.segmented_control(key="noise_section").set_value("Is system A really better than B?").run()
    assert not at.exception
    assert metrics(at)["Difference in correct answers noise alone can make"] == "35.4"
    at.segmented_control(key="noise_section").set_value("What does kappa say?").run()
    assert not at.exception
    assert metrics(at)["Noise of the agreed items (kappa's reading)"] == "11.1%"
    agreed = next(w for w in at.number_input if w.key.startswith("noise_kappa_a_"))
    agreed.set_value(500).run()
    assert not at.exception and at.warning  # kappa says 800 easy but only 500 agreed


def test_follow_up_questions_start_from_the_bound_shown():
    """Switching to "By hand" moves the follow-up inputs to the hand bound's numbers (a
    widget under a fixed key kept the loaded data's 300 items and p)."""
    at = run(small())
    at.segmented_control(key="noise_section").set_value("How many disagreements can we afford?")
    at.run()

    def items() -> int:
        return next(w.value for w in at.number_input if w.key.startswith("noise_rev_n_"))

    assert items() == 48  # the loaded data's items
    at.segmented_control(key="noise_mode").set_value("By hand").run()
    assert not at.exception
    assert items() == 1000  # the hand calculator's n
    at.number_input(key="noise_n").set_value(700).run()
    assert items() == 700


def test_multilabel_data_set():
    from tests.helpers.paths import SAMPLE_DATA

    df = pd.read_csv(SAMPLE_DATA / "affect_multilabel.csv", dtype=str, keep_default_na=False)
    ann = Annotations.from_frame(
        df, item="sentence", label="emotions", multilabel_sep=";", name="affect"
    )
    at = run(ann)
    assert not at.error
    assert any("label set" in c.value for c in at.caption)
    gold = next(d.value for d in at.dataframe if "label" in d.value.columns)
    assert len(gold) == noise_from_annotations(ann).n_agreed


def test_kappa_questions_start_from_the_loaded_datas_kappa():
    # they started at 0.8 and 80% whatever the data, pairing the example's kappa with the
    # data's counts (and then blaming the data for not fitting it)
    from analytics.agreement import fleiss_kappa

    ann = small()
    kappa = float(fleiss_kappa(ann))
    at = run(ann)
    at.segmented_control(key="noise_section").set_value("What does kappa say?").run()
    assert not at.exception
    kap = next(w for w in at.number_input if w.label == "Kappa")
    assert kap.value == pytest.approx(round(kappa, 3))
    at.segmented_control(key="noise_section").set_value("Would more annotators help?").run()
    easy = next(w for w in at.number_input if w.label == "Easy items (%)")
    assert easy.value == pytest.approx(round(100 * min(max(kappa, 0), 1), 1))
    at.segmented_control(key="noise_mode").set_value("By hand").run()
    easy = next(w for w in at.number_input if w.label == "Easy items (%)")
    assert easy.value == 80.0  # the paper's example, by hand


def test_hard_item_categories_start_at_the_datas():
    """They were 2 whatever the data: crowd_intents' 4 categories gave a bound at 5
    annotators twice the one the page headline states for the same data."""
    from analytics.data import load_sample

    at = run(load_sample("crowd_intents"))
    at.segmented_control(key="noise_section").set_value("Would more annotators help?").run()
    assert not at.exception
    cats = next(w for w in at.number_input if w.label.startswith("Categories on hard items"))
    assert cats.value == 4
    at.segmented_control(key="noise_mode").set_value("By hand").run()
    cats = next(w for w in at.number_input if w.label.startswith("Categories on hard items"))
    assert cats.value == 2


def test_an_undefined_bound_keeps_the_datas_counts_for_the_questions():
    """They fell back to the paper's 1,000 items beside the data's own easy share."""
    rows = [("g1", "A", "x"), ("g1", "B", "x"), ("g2", "A", "y"), ("g2", "B", "y")]
    rows += [("d1", "A", "x"), ("d1", "B", "y"), ("d2", "A", "z"), ("d2", "B", "y")]
    ann = Annotations.from_frame(pd.DataFrame(rows, columns=["item", "annotator", "label"]))
    at = run(ann)
    assert not at.exception
    items = next(w for w in at.number_input if w.key.startswith("noise_rev_n_"))
    assert items.value == 4
    assert any(
        "as the data give" in c.value and "no bound with their own p" in c.value for c in at.caption
    )


def test_by_hand_numbers_that_give_no_bound_say_where_the_questions_start():
    """With d > n the questions below had jumped to 1,000 items and p = 0.5 without a word."""
    at = run(None)  # no data set: the page is by hand
    at.number_input(key="noise_n").set_value(10).run()
    at.number_input(key="noise_d").set_value(20).run()
    assert not at.exception and at.error
    assert any(
        "paper's worked example" in c.value and "the numbers above give no bound" in c.value
        for c in at.caption
    )


def test_more_annotators_starts_within_the_agreed_items_and_explains_its_columns():
    """The sample's kappa (0.486) would make more items easy than the 87 of 300 agreed: the
    start is 29%. The table's t0 and hidden_hard are explained, p keeps its digits, and a
    whole chance difference prints without a decimal."""
    from analytics.data import load_sample

    at = run(load_sample("crowd_intents"))
    at.segmented_control(key="noise_section").set_value("Would more annotators help?").run()
    assert not at.exception
    easy = next(w for w in at.number_input if w.key.startswith("noise_add_e_"))
    assert easy.value == 29.0
    said = "\n".join(c.value for c in at.caption)
    assert "t0: the most hard items there can be" in said and "hidden_hard: t0 less" in said
    table = next(d for d in at.dataframe if "hidden_hard" in d.value.columns)
    config = json.loads(table.proto.columns)
    assert config["p"]["type_config"]["format"] == "%.3g"
    at.segmented_control(key="noise_section").set_value("Is system A really better than B?").run()
    r = next(w for w in at.number_input if w.key.startswith("noise_cd_r_"))
    r.set_value(4).run()
    assert metrics(at)["Difference in correct answers noise alone can make"] == "4"
