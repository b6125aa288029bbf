"""Judgements that stay in a query engine: the contract between the engines and the analyses.

:class:`LazyAnnotations` is what ``load_annotations(source, engine="duckdb" | "spark")``
returns. It never holds the judgements: it answers with the *small* sufficient-statistic
tables the in-memory analyses already reduce the data to (per-item category-count
patterns, annotator x category counts, per-annotator-pair label tables, the Dawid-Skene
E- and M-step sums), computed where the data live.

The analysis families register, per public function, how to answer from those tables
(:func:`on_engine`); the public function itself only asks :func:`engine_answer`, so the
families never import an engine and the engines never reach into a family's internals.
"""

from __future__ import annotations

import abc
import uuid
from collections.abc import Callable
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.errors import AnnotationDataError

__all__ = ["LazyAnnotations", "engine_answer", "is_lazy", "no_engine_weights", "on_engine"]

_REGISTRY: dict[str, Callable[..., Any]] = {}


class LazyAnnotations(abc.ABC):
    """Single-label judgements held by a query engine (DuckDB or Spark).

    Attributes
    ----------
    name : str
        A display name (the file or table).
    engine : str
        ``"duckdb"`` or ``"spark"``.
    annotators, categories : pandas.Index
        Annotator names (codes are positions) and categories in their order.
    kind : LabelKind
        Nominal, ordinal or numeric (multi-label data are not read by the engines).
    report : LoadReport
        What the loader did (declared categories, missing labels skipped).
    n_items, n_judgements : int
        Items with a judgement, judgements (rows with a label).
    has_repeats : bool
        Some annotator judged some item more than once.
    """

    name: str
    engine: str
    annotators: pd.Index
    categories: pd.Index
    kind: Any
    report: Any
    n_items: int
    n_judgements: int
    has_repeats: bool

    @cached_property
    def fingerprint(self) -> str:
        """A key of this handle for caches of results (unique per handle: the engine's data
        are not hashed, since reading them all is what a handle avoids)."""
        return f"{self.engine}-{uuid.uuid4().hex}"

    @property
    def n_annotators(self) -> int:
        """How many annotators."""
        return len(self.annotators)

    @property
    def n_categories(self) -> int:
        """How many categories."""
        return len(self.categories)

    @property
    def is_multilabel(self) -> bool:
        """Always False: the engines read one label per judgement."""
        return False

    # ------------------------------------------------------------------ agreement tables
    @abc.abstractmethod
    def count_patterns(self) -> tuple[np.ndarray, np.ndarray]:
        """Distinct per-item category counts and how many items show each.

        Returns
        -------
        counts : ndarray of int64, shape (n_patterns, q)
            :math:`r_{ik}` of the items of each pattern.
        multiplicity : ndarray of int64, shape (n_patterns,)
            Items per pattern (they sum to ``n_items``).
        """

    @abc.abstractmethod
    def annotator_category_counts(self) -> np.ndarray:
        """Judgements per annotator and category, shape (n_annotators, q)."""

    @abc.abstractmethod
    def pair_table(self, a: int | None = None, b: int | None = None) -> pd.DataFrame:
        """Per annotator pair ``a < b`` and label pair: items where a said ``la``, b ``lb``.

        Columns ``a, b, la, lb, n`` (integer codes); only the pair ``(a, b)`` when given.
        """

    @abc.abstractmethod
    def sharing_pairs(self) -> int:
        """Annotator pairs ``a < b`` that judged at least one item in common."""

    # ------------------------------------------------------------------ noise tables
    @abc.abstractmethod
    def noise_split(self, chosen: list[int] | None) -> tuple[int, int, int, np.ndarray]:
        """Split the items judged by the ``chosen`` annotator codes (None: all).

        Returns
        -------
        excluded, n, d : int
            Items judged once (left out), judged twice or more, and disagreed on.
        counts : ndarray, shape (n_annotators, q)
            Judgements per annotator and category on the disagreed items.
        """

    @abc.abstractmethod
    def noise_chance(
        self, chosen: list[int] | None, logr: np.ndarray, sample: int
    ) -> tuple[np.ndarray, np.ndarray, pd.DataFrame]:
        """Each item's chance agreement :math:`p_i = \\sum_c \\exp \\sum_j \\log r_{jc}`.

        Returns
        -------
        p_item, agreed : ndarray
            One entry per item taking part, grouped by value (not in item order).
        sample : DataFrame
            The first ``sample`` items: ``item, r, lo, hi, p``.
        """

    @abc.abstractmethod
    def noise_sample(self, sample: int) -> pd.DataFrame:
        """The first ``sample`` items taking part: ``item, r, lo, hi`` (label codes)."""

    @abc.abstractmethod
    def noise_panels(self, chosen: list[int] | None) -> int:
        """Distinct annotator panels among the items taking part."""

    # ------------------------------------------------------------------ Dawid-Skene tables
    @abc.abstractmethod
    def ds_start(self, how: str) -> None:
        """Count the votes per item and set the initial posteriors (``majority``/``soft``)."""

    @abc.abstractmethod
    def ds_expected(self) -> tuple[np.ndarray, np.ndarray, float]:
        """M-step sums of the current posteriors (join of judgements and posteriors grouped
        by annotator and given label): counts annotator x true x given, the posteriors'
        column sums, and the summed log-likelihood terms of the last E-step."""

    @abc.abstractmethod
    def ds_e_step(self, log_pi: np.ndarray, log_theta: np.ndarray) -> float:
        """E-step (join of judgements and log confusions grouped by item): replace the
        posteriors; return the sum over items of their log-likelihood terms."""

    @abc.abstractmethod
    def ds_sample(self, limit: int) -> tuple[pd.Index, np.ndarray, np.ndarray]:
        """The first ``limit`` items (in item order): names, posteriors, votes."""

    @abc.abstractmethod
    def ds_sizes(self) -> tuple[int, np.ndarray]:
        """Items with a single judgement, and judgements per annotator."""


def is_lazy(obj: object) -> bool:
    """Whether ``obj`` is judgements held by an engine (a :class:`LazyAnnotations`)."""
    return isinstance(obj, LazyAnnotations)


def on_engine(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register how the public function ``name`` answers from an engine's tables."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        _REGISTRY[name] = fn
        return fn

    return register


def engine_answer(name: str, ann: LazyAnnotations, *args: Any, **kwargs: Any) -> Any:
    """The registered engine answer of the public function ``name``.

    Raises
    ------
    AnnotationDataError
        When ``name`` has no engine answer (the in-memory path is never substituted).
    """
    fn = _REGISTRY.get(name)
    if fn is None:
        raise AnnotationDataError(
            f"{name} is not computed on the {ann.engine} engine: it needs every judgement in "
            "memory, and the in-memory path is never substituted for a requested engine.",
            hint="Load a subset with engine='memory', or use agreement_report, the coefficient "
            "functions, noise_from_annotations or dawid_skene.fit, which run on the engine.",
        )
    return fn(ann, *args, **kwargs)


def no_engine_weights(lazy: Any, weights: Any, what: str) -> None:
    """Refuse ``weights=`` for a coefficient the engines compute unweighted only.

    Raises
    ------
    AnnotationDataError
        When ``weights`` is given (anything but None).
    """
    if weights is not None:
        raise AnnotationDataError(
            f"weighted {what} is not computed on the {lazy.engine} engine.",
            source=lazy.name,
            hint="Leave weights=None, or load the data in memory (engine='memory') for the "
            "weighted coefficient.",
        )
