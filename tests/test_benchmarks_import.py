"""Every benchmark script still imports: the scripts are not run by the suite (they time
things), so a renamed library function would otherwise break one silently (it happened:
``outside_public`` imported a helper that ``replay_public`` had replaced)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

SCRIPTS = sorted(
    p.stem
    for p in (Path(__file__).resolve().parents[1] / "benchmarks").glob("*.py")
    if p.stem != "__init__"
)


def test_there_are_benchmarks():
    assert len(SCRIPTS) >= 10


@pytest.mark.parametrize("name", SCRIPTS)
def test_benchmark_imports(name):
    module = importlib.import_module(f"benchmarks.{name}")
    assert callable(getattr(module, "main", None)), f"benchmarks/{name}.py has no main()"
