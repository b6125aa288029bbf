"""The HTML report states each headline's severity with the same rules as the pages (issue 17.2)."""

from __future__ import annotations

import re
from html import escape as html_escape

from analytics import Annotations
from analytics.overview import RULES, judge, judge_own_error
from analytics.report import build_report, report_blocks
from tests.helpers.paths import load_public


def test_a_bad_noise_bound_is_marked_bad_with_its_rule():
    labels, _ = load_public("snow_temp")
    ann = Annotations.from_frame(labels, name="temp")
    blocks = report_blocks(ann, ["noise"])
    headline = blocks[0]
    assert headline.verdict is not None and headline.verdict.label == "bad"
    html = build_report(ann, sections=["noise"])
    assert '<p class="sev-bad"><b>Bad.</b>' in html and 'class="sev-good"' not in html
    assert html_escape(RULES["noise"].describe()) in html


def test_every_headline_of_the_sample_carries_a_verdict_that_matches_judge():
    from analytics.data import load_sample

    ann = load_sample("crowd_intents")
    judged = [
        b for b in report_blocks(ann, n_boot=0) if b.verdict is not None and b.section != "overview"
    ]
    assert {b.section for b in judged} == {"agreement", "noise", "dawid_skene"}
    for block in judged:
        kind = {"agreement": "agreement", "noise": "noise", "dawid_skene": "gold_error"}[
            block.section
        ]
        if block.section == "dawid_skene":  # the model's own account: never "good"
            assert block.verdict.label == judge_own_error(block.verdict.value).label
            if block.verdict.value <= 0.05:
                assert "A lower bound cannot show that the labels are good" in block.text
        else:
            assert block.verdict.label == judge(kind, block.verdict.value).label


def test_an_undefined_headline_is_grey_not_green():
    tiny = Annotations.from_frame(
        __import__("pandas").DataFrame(
            {"item": ["a", "b"], "annotator": ["x", "x"], "label": ["p", "q"]}
        ),
        name="one_annotator",
    )
    html = build_report(tiny, sections=["noise"])
    assert re.search(r'class="sev-undefined"><b>Undefined\.</b>', html)
    assert 'class="sev-good"' not in html


def test_the_report_opens_with_the_overview():
    from analytics.data import load_sample
    from analytics.overview import overview

    ann = load_sample("crowd_intents")
    html = build_report(ann, n_boot=0)
    first = html.index("<h2")
    assert html[first:].startswith('<h2 id="overview">Overview: can we benchmark on this?</h2>')
    expected = overview(ann)
    assert html_escape(expected.recommendation.text) in html
    for answer in expected.answers:
        assert html_escape(answer.sentence) in html


def test_the_multilabel_headline_is_judged_like_alpha():
    from analytics.data import load_sample
    from analytics.multilabel import am_agreement

    ann = load_sample("affect_multilabel")
    block = next(b for b in report_blocks(ann, ["multilabel"]) if b.verdict is not None)
    assert block.verdict.label == judge("agreement", am_agreement(ann).a_m).label


def test_with_gold_the_model_s_own_account_gets_no_second_verdict():
    """Against gold the measured error is judged; the posteriors' own figure (0.3% on the
    bluebirds, 'Good') had stood under the measured 10.2% ('Caution') with its own verdict."""
    labels, gold = load_public("welinder_bluebirds")
    ann = Annotations.from_frame(labels, name="bluebirds")
    gold = gold.set_index("item")["label"]
    blocks = [b for b in report_blocks(ann, ["dawid_skene"], gold=gold) if b.kind == "text"]
    judged = [b for b in blocks if b.verdict is not None]
    assert len(judged) == 1 and judged[0].text.startswith("Against the 108 items")
    own = next(b for b in blocks if b.text.startswith("If the model is right"))
    assert own.text.endswith("The gold figure above is the one judged.")
