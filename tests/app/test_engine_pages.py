"""The app on DuckDB (issue 18): a Parquet file opened by path, every page on the handle."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from analytics.agreement import agreement_report
from analytics.engines import is_lazy, load_annotations
from analytics.engines.scale import ANALYSES
from tests.helpers.app import run_page
from tests.helpers.markup import is_literal, shown
from tests.helpers.paths import ROOT

pytest.importorskip("duckdb")

APP = str(ROOT / "app.py")
N_ITEMS = 10_050  # past the 10,000 items an engine brings back: the per-item views are sampled


def crowd(n_items: int, seed: int = 0) -> pd.DataFrame:
    """Three workers per task, right 80% of the time (columns named as a platform would)."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, n_items)
    item = np.repeat(np.arange(n_items), 3)
    right = rng.random(len(item)) < 0.8
    label = np.where(right, truth[item], rng.integers(0, 3, len(item)))
    return pd.DataFrame(
        {
            "task": [f"t{i:05d}" for i in item],
            "worker": [f"w{j}" for j in np.tile(np.arange(3), n_items)],
            "answer": np.array(["cat", "dog", "fox"])[label],
        }
    )


@pytest.fixture(scope="module")
def parquet(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("engine") / "judgements.parquet"
    crowd(N_ITEMS).to_parquet(path)
    return str(path)


@pytest.fixture(scope="module")
def handle(parquet):
    return load_annotations(
        parquet, engine="duckdb", item="task", annotator="worker", label="answer"
    )


def frame_run(at: AppTest) -> AppTest:
    """Run through app.py (sidebar included): AppTest otherwise reruns only the page."""
    at._finished_page_script_hash = ""
    return at.run()


def texts(elements) -> str:
    """What the elements show, bold marks dropped."""
    return " ".join(shown(e.value) for e in elements).replace("**", "")


def path_typed(path: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    at.segmented_control(key="upload_mode").set_value("Open a large file (path)")
    frame_run(at)
    at.text_input(key="engine_path").set_value(path)
    frame_run(at)
    assert not at.exception, at.exception
    return at


def test_a_small_parquet_forced_onto_duckdb_opens_by_path(parquet):
    at = path_typed(parquet)
    captions = texts(at.caption)
    # the rule is stated: this small file would be read in memory
    assert "by default read in memory (in memory below 200 MiB, DuckDB from 200 MiB)" in captions
    assert at.radio(key="engine_path_choice").value == "memory"
    # the columns are recognised by name, as the in-memory loader does
    assert at.selectbox(key="engine_path_form_item").value == "task"
    assert at.selectbox(key="engine_path_form_annotator").value == "worker"
    at.radio(key="engine_path_choice").set_value("duckdb")
    frame_run(at)
    at.button(key="engine_path_form_open").click()
    frame_run(at)
    assert not at.exception and not at.error, (at.exception, at.error)
    ann = at.session_state["concord_annotations"]
    assert is_lazy(ann) and ann.engine == "duckdb"
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Items"] == f"{N_ITEMS:,}" and metrics["Judgements"] == f"{3 * N_ITEMS:,}"
    assert "Loaded: judgements.parquet (on DuckDB)" in texts(at.subheader)
    labels = next(d.value for d in at.dataframe if "category" in d.value.columns)
    assert labels["judgements"].sum() == 3 * N_ITEMS
    side = texts(at.sidebar.markdown) + texts(at.sidebar.caption)
    assert "Engine: DuckDB" in side and "KiB" in side  # the engine and the size
    assert "judgements.parquet" in side


def test_the_default_memory_engine_loads_in_memory(parquet):
    at = path_typed(parquet)
    at.button(key="engine_path_form_open").click()
    frame_run(at)
    assert not at.exception and not at.error
    ann = at.session_state["concord_annotations"]
    assert not is_lazy(ann) and ann.n_items == N_ITEMS


@pytest.mark.parametrize(
    ("name", "content", "said"),
    [
        ("missing.parquet", None, "no file or folder at this path"),
        ("book.xlsx", b"PK", "not .xlsx"),
        ("broken.parquet", b"this is not a parquet file " * 20, "DuckDB cannot read"),
    ],
)
def test_bad_paths_and_files_are_plain_errors(tmp_path, name, content, said):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    at = path_typed(str(path))
    assert said in texts(at.error)
    assert "Traceback" not in texts(at.error) and "SELECT" not in texts(at.error)
    # the data set loaded before (the sample) is still the one shown
    assert not is_lazy(at.session_state["concord_annotations"])


def test_an_empty_folder_and_missing_columns_are_said(tmp_path):
    at = path_typed(str(tmp_path))
    assert "holds no Parquet files" in texts(at.error)
    pd.DataFrame({"task": ["a", "a"], "worker": ["u", "v"], "note": ["x", "y"]}).to_parquet(
        tmp_path / "nolabel.parquet"
    )
    at = path_typed(str(tmp_path / "nolabel.parquet"))
    assert at.button(key="engine_path_form_open").disabled  # no label column recognised
    assert "Choose the item, annotator and label columns" in texts(at.caption)


def test_a_big_upload_goes_to_duckdb(monkeypatch, parquet):
    import ui.engine_data

    monkeypatch.setattr(ui.engine_data, "ENGINE_THRESHOLD_BYTES", 1)  # "big" from one byte
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    at.segmented_control(key="upload_mode").set_value("Upload a file")
    frame_run(at)
    with open(parquet, "rb") as fh:
        at.file_uploader(key="upload_file").set_value(
            ("big.parquet", fh.read(), "application/octet-stream")
        )
    frame_run(at)
    assert not at.exception, at.exception
    assert at.radio(key="upload_engine_big.parquet").value == "duckdb"
    at.button(key="upload_engine_form_big.parquet_open").click()
    frame_run(at)
    assert not at.exception and not at.error, (at.exception, at.error)
    ann = at.session_state["concord_annotations"]
    assert is_lazy(ann) and ann.n_items == N_ITEMS


SAMPLED = f"showing 10,000 of {N_ITEMS:,} items, sampled"


@pytest.mark.parametrize("page", ["overview", "noise", "gold_labels"])
def test_the_pages_defined_at_scale_run_on_the_handle(handle, page):
    at = run_page(page, handle, timeout=240)
    assert not at.exception, at.exception
    info = texts(at.info)
    assert "held by DuckDB" in info and ANALYSES[page].what.split(";")[0][:40] in info
    assert SAMPLED in texts(at.caption)


def test_the_agreement_report_on_the_handle_is_the_engine_report(handle):
    at = run_page("agreement", handle, timeout=240)
    assert not at.exception, at.exception
    table = next(d.value for d in at.dataframe if "coefficient" in d.value.columns)
    want = agreement_report(handle, n_boot=1000, seed=0)
    assert list(table["coefficient"]) == list(want["coefficient"])
    assert np.allclose(table["value"], want["value"], equal_nan=True)
    assert "need every judgement in memory" in texts(at.caption)


def test_the_gold_labels_page_fits_dawid_skene_through_the_engine(handle):
    from analytics.dawid_skene import fit

    at = run_page("gold_labels", handle, timeout=240)
    want = fit(handle, max_iter=200)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Iterations"] == f"{want.n_iter:,}"
    assert "other annotator models" in texts(at.caption) + texts(at.info)
    labels = next(d.value for d in at.dataframe if "confidence" in d.value.columns)
    assert len(labels) == 10_000  # the sample, said in the caption


@pytest.mark.parametrize("page", ["multilabel", "next_labels", "export"])
def test_pages_not_defined_at_scale_say_why_and_what_to_do(handle, page):
    at = run_page(page, handle)
    assert not at.exception and not at.error, (at.exception, at.error)
    info = texts(at.info)
    assert "held by DuckDB" in info and ANALYSES[page].what in info
    assert "in memory" in texts(at.markdown)
    assert not at.dataframe and not at.metric  # stopped: nothing computed


def test_the_span_page_keeps_its_own_data(handle):
    at = run_page("spans", handle)
    assert not at.exception
    assert "own span data" in texts(at.info)
    assert at.metric  # the span sample is still analysed


def test_a_hostile_file_name_is_shown_literally(tmp_path, handle):
    name = "[win](mailto:x@y.z) :red[URGENT] $x^2$ <b>.parquet"
    path = tmp_path / name
    crowd(30).to_parquet(path)
    at = path_typed(str(path))
    at.radio(key="engine_path_choice").set_value("duckdb")
    frame_run(at)
    at.button(key="engine_path_form_open").click()
    frame_run(at)
    assert not at.exception and not at.error, (at.exception, at.error)
    assert any(is_literal(s.value, name) and "(on DuckDB)" in s.value for s in at.subheader)
    at.switch_page("pages/next_labels.py").run()
    assert any(is_literal(i.value, name) for i in at.info)


def test_a_new_path_gets_its_columns_guessed_again(tmp_path, parquet):
    # found by a fresh-clone review: after a file without an annotator column, the next
    # path kept "Choose one" and a greyed-out Open button
    bad = tmp_path / "item_label.csv"
    bad.write_text("task,label\na,x\nb,y\n")
    at = path_typed(str(bad))
    assert at.button(key="engine_path_form_open").disabled
    at.text_input(key="engine_path").set_value(parquet)
    frame_run(at)
    assert not at.exception
    assert at.selectbox(key="engine_path_form_annotator").value == "worker"
    assert not at.button(key="engine_path_form_open").disabled


def test_the_engine_gold_labels_view_refuses_numbers_on_a_scale(tmp_path):
    """In memory the Gold labels page refuses the models on scores of many values; on an
    engine it fitted Dawid-Skene over every value as a category (200 items scored 0-100:
    over 5 minutes on DuckDB)."""
    from tests.helpers.builders import scores_on_a_scale
    from tests.helpers.markup import shown

    path = tmp_path / "scores.parquet"
    scores_on_a_scale().to_parquet(path)
    at = run_page("gold_labels", load_annotations(str(path), engine="duckdb"), timeout=120)
    assert not at.exception, at.exception
    assert any("numbers on a scale" in shown(e.value) for e in at.error), at.error
    assert not [m for m in at.metric if m.label == "Iterations"]
