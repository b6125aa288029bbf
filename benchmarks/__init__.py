"""Benchmarks that time Concord beside the anchor libraries: run `python -m benchmarks.bench_<topic>` from the repository root."""
