"""Write ``sample_data/news_spans.csv``: a simulated named-entity set for the Spans page.

Seeded, so every run writes the same file. 150 short news sentences built from templates,
with PER, ORG, LOC and DATE entities; four annotators mark them with known habits:

- ``ann`` is careful (rare misses);
- ``bob`` clips boundaries (drops a first name, keeps only the first word of a place);
- ``cat`` swaps ORG and LOC now and then;
- ``dan`` misses entities more often and skipped about 15% of the documents.

A document an annotator finished without marking anything is a row with empty
``start``, ``end`` and ``label``, so agreement counts it.

    python scripts/make_span_sample.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
PEOPLE = ["Anna Keller", "Omar Haddad", "Li Wei", "Maria Santos", "John Okafor", "Sara Lind"]
ORGS = ["Nordbank", "the World Health Organization", "Acme Corp", "the city council", "Tata Steel"]
PLACES = ["New York", "Rio de Janeiro", "Oslo", "Nairobi", "Kuala Lumpur", "Lyon"]
DATES = ["Monday", "last week", "March 3", "in 2021", "on Friday"]
TEMPLATES = [
    "{PER} joined {ORG} {DATE} .",
    "{ORG} opened an office in {LOC} {DATE} .",
    "{PER} flew from {LOC} to {LOC} .",
    "Officials in {LOC} met {PER} of {ORG} .",
    "Prices rose again , analysts said .",
    "{PER} said the deal with {ORG} was signed {DATE} .",
    "It rained all day .",
]


def _document(rng: np.random.Generator) -> tuple[str, list[tuple[int, int, str]]]:
    template = TEMPLATES[rng.integers(len(TEMPLATES))]
    text, spans, pos = "", [], 0
    for piece in template.split(" "):
        pool = {"{PER}": PEOPLE, "{ORG}": ORGS, "{LOC}": PLACES, "{DATE}": DATES}.get(piece)
        word = piece if pool is None else pool[rng.integers(len(pool))]
        start = len(text) + (1 if text else 0)
        text = f"{text} {word}" if text else word
        if pool is not None:
            spans.append((start, start + len(word), piece.strip("{}")))
        pos += 1
    return text, spans


def _annotate(who: str, text: str, spans, rng: np.random.Generator):
    out = []
    for s, e, label in spans:
        miss = {"ann": 0.03, "bob": 0.06, "cat": 0.06, "dan": 0.2}[who]
        if rng.random() < miss:
            continue
        words = text[s:e].split(" ")
        if who == "bob" and len(words) > 1 and rng.random() < 0.5:
            if label == "PER":
                s = e - len(words[-1])
            elif label in ("LOC", "ORG"):
                e = s + len(words[0])
        if who == "cat" and label in ("ORG", "LOC") and rng.random() < 0.3:
            label = "LOC" if label == "ORG" else "ORG"
        out.append((s, e, label))
    return out


def main() -> None:
    rng = np.random.default_rng(19)
    rows = []
    for d in range(150):
        item = f"news{d + 1:03d}"
        text, spans = _document(rng)
        for who in ("ann", "bob", "cat", "dan"):
            if who == "dan" and rng.random() < 0.15:
                continue
            marked = _annotate(who, text, spans, rng)
            if not marked:
                rows.append((item, who, None, None, None, text))
            rows += [(item, who, s, e, label, text) for s, e, label in marked]
    frame = pd.DataFrame(rows, columns=["item", "annotator", "start", "end", "label", "text"])
    frame = frame.astype({"start": "Int64", "end": "Int64"})
    frame.to_csv(ROOT / "sample_data" / "news_spans.csv", index=False)


if __name__ == "__main__":
    main()
