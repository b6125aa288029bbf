"""Shared test helpers: builders, published reference data, paths, and app drivers."""
