"""python -m analytics gold-labels: the annotator models of analytics.models on the command line."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from analytics import load_annotations
from analytics.cli import main
from analytics.data import read_gold_labels
from analytics.dawid_skene import gold_accuracy, model_labels_table
from analytics.models import MODELS, fit
from tests.helpers.paths import SAMPLE_DATA

CROWD = str(SAMPLE_DATA / "crowd_intents.csv")
CROWD_GOLD = str(SAMPLE_DATA / "crowd_intents_truth.csv")


def test_auto_is_the_default_and_its_labels_are_the_library_s(capsys, tmp_path):
    out = tmp_path / "labels.csv"
    assert main(["gold-labels", CROWD, "--out", str(out), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    expected = fit(load_annotations(CROWD), "auto", seed=0)
    assert payload["model"] == expected.model
    assert payload["notes"] == [str(n) for n in expected.notes]
    assert payload["labels_file"] == str(out)
    written = pd.read_csv(out, dtype={"item": str, "label": str})
    library = model_labels_table(expected)
    assert written["item"].tolist() == library["item"].astype(str).tolist()
    assert written["label"].tolist() == library["label"].astype(str).tolist()


@pytest.mark.parametrize("model", MODELS)
def test_each_model_is_reachable_and_scored_against_gold(capsys, model):
    assert main(["gold-labels", CROWD, "--model", model, "--gold", CROWD_GOLD]) == 0
    text = capsys.readouterr().out
    assert f"{model} model" in text
    ann = load_annotations(CROWD)
    accuracy = gold_accuracy(fit(ann, model, seed=0), read_gold_labels(CROWD_GOLD))
    name, right = accuracy.index[-1], accuracy["accuracy"].iloc[-1]
    assert f"  {name}: {right:.1%} right" in text


def test_bad_requests_exit_2_with_one_line(capsys):
    with pytest.raises(SystemExit) as exit_info:  # argparse refuses an unknown model
        main(["gold-labels", CROWD, "--model", "nonsense"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'nonsense'" in capsys.readouterr().err
    assert main(["gold-labels", CROWD, "--clamp"]) == 2
    assert "--clamp needs --gold FILE" in capsys.readouterr().err


def run_ok(capsys, *argv) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


COUNTS = "item,a,b,c\n" + "".join(
    f"{i},{(i * 7) % 4},{(i * 3) % 3 + 1},{i % 2}\n" for i in range(40)
)


@pytest.mark.parametrize("model", ["one_coin", "mace", "glad", "dawid_skene", "hierarchical"])
def test_per_annotator_models_refuse_a_count_tables_anonymous_raters(capsys, tmp_path, model):
    # they had fitted "rater 1..k", slots the counts were unrolled into, and printed
    # their "accuracies"; dawid-skene refused the same file
    path = tmp_path / "counts.csv"
    path.write_text(COUNTS)
    assert main(["gold-labels", str(path), "--layout", "counts", "--model", model]) == 2
    err = capsys.readouterr().err
    assert f"the {model} model needs to know who gave which label" in err
    assert "anonymous" in err


def test_auto_on_a_count_table_is_majority_vote_saying_why(capsys, tmp_path):
    # with 40 items auto had compared the models and failed with Dawid-Skene's error
    path = tmp_path / "counts.csv"
    path.write_text(COUNTS)
    out = json.loads(run_ok(capsys, "gold-labels", str(path), "--layout", "counts", "--json"))
    assert out["model"] == "majority" and out["annotators"] == []
    assert "raters are anonymous" in out["notes"][0]
    text = run_ok(capsys, "gold-labels", str(path), "--layout", "counts")
    assert "no per-annotator accuracy" in text and "rater 1" not in text


@pytest.mark.parametrize("command", ["gold-labels", "dawid-skene"])
def test_gold_labels_for_items_not_in_the_data_are_counted_not_silently_dropped(
    capsys, tmp_path, command
):
    """A gold file covering more than the data: the report and the Overview say how many
    gold labels were left out; the command line scored the overlap without a word (and said
    so only with --clamp)."""
    gold = tmp_path / "gold.csv"
    gold.write_text(
        open(CROWD_GOLD, encoding="utf-8").read().rstrip("\n") + "\nnot_an_item,question\n"
    )
    model = ["--model", "majority"] if command == "gold-labels" else []
    assert main([command, CROWD, *model, "--gold", str(gold)]) == 0
    assert "1 gold label for an item not in the data left out" in capsys.readouterr().out
    assert main([command, CROWD, *model, "--gold", str(gold), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["known_gold"]["left_out"] == 1
    assert main([command, CROWD, *model, "--gold", CROWD_GOLD, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["known_gold"]["left_out"] == 0


@pytest.mark.parametrize(
    "argv", [["gold-labels"], ["dawid-skene"], ["next-batch", "--budget", "5"]]
)
def test_numbers_on_a_scale_are_refused_by_every_model_command(capsys, tmp_path, argv):
    """The Gold labels and Next labels pages refuse scores on a scale (refuse_scale):
    ``dawid-skene`` printed 80 categories' prevalence and ``next-batch`` planned a batch
    over them (32 s on 200 items scored 0-100); and the hint read "in Python,
    load_annotations(..., --kind ordinal)" once the command line had put its words in."""
    from tests.helpers.builders import scores_on_a_scale

    path = tmp_path / "scores.csv"
    scores_on_a_scale().to_csv(path, index=False)
    assert main([argv[0], str(path), *argv[1:]]) == 2
    said = capsys.readouterr()
    assert not said.out
    assert "numbers on a scale" in said.err
    assert "--kind ordinal on the command line" in said.err
    assert "load_annotations(..., --kind" not in said.err
    # read as categories, as the message says, the same scores fit
    assert main([argv[0], str(path), *argv[1:], "--kind", "ordinal"]) == 0
