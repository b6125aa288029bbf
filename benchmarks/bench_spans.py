"""Benchmark the span measures at their target size, beside nervaluate.

Target: 10,000 documents x 5 annotators x ~20 spans each, every measure on the
Spans page under 5 s. Synthetic documents of 60 tokens; 20 entities per document, one per
3-token slot, 1-3 tokens long, 5 labels; each annotator misses an entity with p = 0.1,
clips it by a token with p = 0.1 and swaps its label with p = 0.05. nervaluate (strict and
ent_type on one annotator pair) is timed on the same spans as the anchor.
pygamma-agreement is not run here: see docs/spans.md for why.

    python -m benchmarks.bench_spans            # the target size
    python -m benchmarks.bench_spans --quick    # 1,000 documents
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
import pandas as pd

from analytics.spans import (
    document_agreement,
    gold_spans,
    label_confusion,
    load_spans,
    pairwise_f1,
    span_f1,
    token_agreement,
    unitizing_alpha,
)


def make_data(n_docs: int, n_annotators: int = 5, seed: int = 0):
    """Synthetic span annotations (see the module docstring): a DataFrame and the texts."""
    rng = np.random.default_rng(seed)
    n_tok, n_slots = 60, 20
    tok_len = rng.integers(3, 9, size=(n_docs, n_tok))
    tok_start = np.concatenate(
        [np.zeros((n_docs, 1), np.int64), np.cumsum(tok_len + 1, axis=1)[:, :-1]], axis=1
    )
    tok_end = tok_start + tok_len
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    chars = letters[rng.integers(0, 26, size=(n_docs, (tok_len + 1).sum(axis=1).max()))]
    texts = {}
    for d in range(n_docs):
        length = int(tok_end[d, -1])
        row = chars[d, :length].copy()
        row[tok_end[d, :-1]] = " "
        texts[f"doc{d}"] = "".join(row)
    true_len = rng.integers(1, 4, size=(n_docs, n_slots))
    true_label = rng.integers(0, 5, size=(n_docs, n_slots))
    d, k, a = np.meshgrid(
        np.arange(n_docs), np.arange(n_slots), np.arange(n_annotators), indexing="ij"
    )
    d, k, a = d.ravel(), k.ravel(), a.ravel()
    keep = rng.random(len(d)) >= 0.1
    length = true_len[d, k] - ((rng.random(len(d)) < 0.1) & (true_len[d, k] > 1))
    label = np.where(rng.random(len(d)) < 0.05, (true_label[d, k] + 1) % 5, true_label[d, k])
    first = 3 * k
    frame = pd.DataFrame(
        {
            "item": np.char.add("doc", d.astype(str))[keep],
            "annotator": np.char.add("a", a.astype(str))[keep],
            "start": tok_start[d, first][keep],
            "end": tok_end[d, first + length - 1][keep],
            "label": np.array(["PER", "ORG", "LOC", "DATE", "MISC"])[label][keep],
        }
    )
    return frame, texts


def _time(name: str, fn: Callable[[], object], rows: list) -> object:
    t = time.perf_counter()
    out = fn()
    rows.append((name, time.perf_counter() - t))
    print(f"{name:<52} {rows[-1][1]:7.2f} s", flush=True)
    return out


def _nervaluate(spans, a: str, b: str) -> float | None:
    try:
        from nervaluate import Evaluator
    except ImportError:
        return None
    table = spans.spans
    docs = list(spans.items)

    def of(who):
        sub = table[table["annotator"] == who]
        grouped = {k: g for k, g in sub.groupby("item")}
        return [
            [
                {"label": lab, "start": int(s), "end": int(e) - 1}
                for s, e, lab in zip(g["start"], g["end"], g["label"], strict=True)
            ]
            if (g := grouped.get(doc)) is not None
            else []
            for doc in docs
        ]

    true, pred = of(b), of(a)
    t = time.perf_counter()
    res = Evaluator(true, pred, tags=sorted(spans.labels), loader="dict").evaluate()
    elapsed = time.perf_counter() - t
    res = res[0] if isinstance(res, tuple) else res
    print(
        f"{'nervaluate strict+ent_type, one pair':<52} {elapsed:7.2f} s  (F1 strict {res['overall']['strict'].f1:.4f})"
    )
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    n_docs = 1_000 if args.quick else 10_000
    frame, texts = make_data(n_docs)
    print(f"{n_docs:,} documents x 5 annotators, {len(frame):,} spans")
    rows: list = []
    spans = _time(
        "load_spans (DataFrame + texts, every check)", lambda: load_spans(frame, text=texts), rows
    )
    for match in ("exact", "overlap", "token"):
        _time(
            f"span_f1 {match}, 500 document resamples",
            lambda m=match: span_f1(spans, match=m, n_boot=500),
            rows,
        )
        _time(
            f"span_f1 {match} by label, 500 resamples",
            lambda m=match: span_f1(spans, match=m, by_label=True, n_boot=500),
            rows,
        )
    exact = _time("pairwise_f1 exact", lambda: pairwise_f1(spans), rows)
    _time(
        "unitizing_alpha (overall and by label)",
        lambda: (unitizing_alpha(spans), unitizing_alpha(spans, by_label=True)),
        rows,
    )
    _time("gold_spans", lambda: gold_spans(spans), rows)
    _time("label_confusion", lambda: label_confusion(spans), rows)
    _time("document_agreement (overlap)", lambda: document_agreement(spans), rows)
    _time("token_agreement (kappa, Fleiss, alpha)", lambda: token_agreement(spans), rows)
    row = exact.iloc[0]
    print(f"Concord exact F1 for {row.annotator_a}/{row.annotator_b}: {row.f1:.4f}")
    _nervaluate(spans, row.annotator_a, row.annotator_b)
    slowest = max(rows[1:], key=lambda r: r[1])
    print(f"slowest measure: {slowest[0]} ({slowest[1]:.2f} s); target: each under 5 s")


if __name__ == "__main__":
    main()
