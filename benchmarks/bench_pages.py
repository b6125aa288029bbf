"""How fast does every page answer? First render and rerun, measured with AppTest.

    python -m benchmarks.bench_pages            # 100,000 judgements (the README's size)
    python -m benchmarks.bench_pages --quick    # 20,000 judgements
    python -m benchmarks.bench_pages --crowd    # 1,000,000 judgements, 1,000 annotators
    python -m benchmarks.bench_pages --crowd --pages noise overview   # some pages only

The data: 20,000 items x 5 judgements from 200 simulated annotators over 4 categories
(multi-label pages: 20,000 items x 5 annotators x 6 categories). For each page it times
the first render (an empty cache: what a visitor waits for the first time) and a rerun
after changing one control (what they wait for when they filter). Targets:
first render < 3 s, rerun < 0.5 s. Prints a markdown table for the README.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]

import streamlit as st  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from analytics import Annotations  # noqa: E402


def single_label(
    n_items: int, per_item: int = 5, n_annotators: int = 200, seed: int = 0
) -> Annotations:
    rng = np.random.default_rng(seed)
    k = 4
    truth = rng.choice(k, n_items, p=[0.4, 0.3, 0.2, 0.1])
    acc = rng.uniform(0.6, 0.95, n_annotators)
    item = np.repeat(np.arange(n_items), per_item)
    annotator = np.concatenate(
        [rng.choice(n_annotators, per_item, replace=False) for _ in range(n_items)]
    )
    correct = rng.random(len(item)) < acc[annotator]
    label = np.where(correct, truth[item], rng.integers(0, k, len(item)))
    df = pd.DataFrame(
        {"item": item.astype(str), "annotator": annotator.astype(str), "label": label.astype(str)}
    )
    return Annotations.from_frame(df, name="bench_single.csv")


def multi_label(n_items: int, n_annotators: int = 5, seed: int = 1) -> Annotations:
    rng = np.random.default_rng(seed)
    cats = ["anger", "disgust", "fear", "happiness", "sadness", "surprise"]
    truth = rng.random((n_items, len(cats))) < 0.25
    rows = []
    for a in range(n_annotators):
        flip = rng.random(truth.shape) < 0.1
        given = truth ^ flip
        for i in range(n_items):
            rows.append(
                (f"i{i}", f"a{a}", frozenset(c for c, g in zip(cats, given[i], strict=True) if g))
            )
    return Annotations.from_frame(
        pd.DataFrame(rows, columns=["item", "annotator", "label"]), name="bench_multi.csv"
    )


def _time(at: AppTest, action: Callable[[AppTest], object] | None = None) -> tuple[float, AppTest]:
    start = time.perf_counter()
    if action is None:
        at.run()
    else:
        action(at)
    elapsed = time.perf_counter() - start
    if at.exception:
        raise RuntimeError(f"page raised: {at.exception[0].message}")
    return elapsed, at


def _page(name: str, ann: Annotations) -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages" / f"{name}.py"), default_timeout=600)
    at.session_state["concord_annotations"] = ann
    at.session_state["concord_source"] = "benchmark"
    return at


def _rerun_action(name: str, at: AppTest) -> Callable[[AppTest], object] | None:
    """Change one control the way a person would, or plain rerun if the page has none."""
    if name == "agreement":
        return lambda a: a.multiselect[0].select(a.multiselect[0].options[0]).run()
    if name == "gold_labels":  # another view of the chosen model
        return lambda a: a.segmented_control(key="gl_section").set_value("Annotators").run()
    if name == "noise":
        return lambda a: a.select_slider(key="noise_confidence").set_value(0.99).run()
    if name == "upload":
        return lambda a: a.selectbox[0].set_value(a.selectbox[0].options[1]).run()
    return lambda a: a.run()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true")
    parser.add_argument(
        "--crowd",
        action="store_true",
        help="1,000,000 judgements (200,000 items x 5) from 1,000 annotators (the README's crowd-scale table)",
    )
    parser.add_argument("--pages", nargs="*", help="only these pages")
    args = parser.parse_args()
    n_items = 4_000 if args.quick else 200_000 if args.crowd else 20_000
    single = single_label(n_items, n_annotators=1000 if args.crowd else 200)
    multi = multi_label(4_000 if args.quick else 20_000)
    print(f"single-label: {single!r}\nmulti-label: {multi!r}\n")
    rows = []
    pages = [
        ("upload", single),
        ("overview", single),
        ("agreement", single),
        ("noise", single),
        ("gold_labels", single),
        ("next_labels", single),
        ("multilabel", multi),
        ("export", single),
    ]
    for name, ann in [(n, a) for n, a in pages if not args.pages or n in args.pages]:
        st.cache_data.clear()
        st.cache_resource.clear()
        first, at = _time(_page(name, ann))
        rerun_action = _rerun_action(name, at)
        try:
            rerun, _ = _time(at, rerun_action)
            how = (
                "changed a control"
                if name in ("agreement", "gold_labels", "noise", "upload")
                else "plain rerun"
            )
        except (IndexError, AttributeError, KeyError, ValueError):
            rerun, _ = _time(at, lambda a: a.run())
            how = "plain rerun"
        rows.append((name, ann.n_judgements, first, rerun, how))
    print("| page | judgements | first render (s) | rerun (s) | rerun by | targets |")
    print("| --- | ---: | ---: | ---: | --- | --- |")
    for name, n, first, rerun, how in rows:
        ok = "met" if first < 3 and rerun < 0.5 else "MISSED"
        print(f"| {name} | {n:,} | {first:.2f} | {rerun:.2f} | {how} | {ok} (< 3 s, < 0.5 s) |")


if __name__ == "__main__":
    main()
