"""``help(analytics)`` names every subpackage and an example that runs (its doctest runs too)."""

from __future__ import annotations

import re

import analytics
from tests.helpers.paths import ROOT

WORDS = {"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}


def test_every_public_subpackage_is_listed_and_counted():
    folders = sorted(
        p.name
        for p in (ROOT / "analytics").iterdir()
        if (p / "__init__.py").exists() and not p.name.startswith("_")
    )
    doc = analytics.__doc__
    listed = re.findall(r"^- :mod:`analytics\.(\w+)`", doc, flags=re.MULTILINE)
    assert sorted(listed) == folders
    count = re.search(r"(\w+)\s+ideas, \1 subpackages", doc, flags=re.IGNORECASE)
    assert count and WORDS[count.group(1).lower()] == len(folders), count


def test_the_files_the_docstring_names_exist():
    named = re.findall(r"sample_data/[\w.]+", analytics.__doc__)
    assert named
    for path in named:
        assert (ROOT / path).is_file(), path
