"""The lazy handle: judgements read, checked and coded by an engine, never pulled to Python.

:class:`EngineAnnotations` does what the in-memory loader does (find the columns, skip
missing labels, fix the categories and their order, code annotators and labels, refuse
repeated judgements unless asked to keep them), but as queries
(:mod:`analytics.engines.queries`) run by a :class:`Runner`, so the same code serves DuckDB
and Spark. Its answers are the small tables of :class:`~analytics._core.lazy.LazyAnnotations`.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

import analytics.engines.queries as sql
import analytics.engines.source as src
from analytics._core.errors import AnnotationDataError, show_text
from analytics._core.formatting import format_count
from analytics._core.lazy import LazyAnnotations
from analytics.data import LabelKind, LoadReport, detect_columns

__all__ = ["EngineAnnotations", "Runner"]


class Runner(abc.ABC):
    """What an engine must do for :class:`EngineAnnotations`: run SQL, hold small tables."""

    engine: str
    text_type: str

    @abc.abstractmethod
    def quote(self, column: str) -> str:
        """A column name quoted for this dialect."""

    @abc.abstractmethod
    def columns(self, scan: str) -> dict[str, str]:
        """Column name -> type name of a source (``scan`` is a FROM clause)."""

    @abc.abstractmethod
    def view(self, name: str, query: str) -> None:
        """Create (or replace) a temporary view."""

    @abc.abstractmethod
    def table(self, name: str, query: str) -> None:
        """Create (or replace) a materialised temporary table (the engine may spill it)."""

    @abc.abstractmethod
    def register(self, name: str, frame: pd.DataFrame) -> None:
        """Make a small pandas table queryable under ``name``."""

    @abc.abstractmethod
    def fetch(self, query: str) -> pd.DataFrame:
        """Run a query whose result is small and return it."""

    @abc.abstractmethod
    def sorted_codes(self, column: str) -> str:
        """An aggregate turning the integer ``column`` of a group into one sorted text."""

    def int_type(self, lo: int, hi: int) -> str:
        """The narrowest signed integer type holding every value from ``lo`` to ``hi``.

        Parameters
        ----------
        lo, hi : int
            The smallest and largest value to hold.

        Returns
        -------
        str
            ``TINYINT``, ``SMALLINT``, ``INTEGER`` or ``BIGINT`` (1, 2, 4 or 8 bytes), types
            both dialects know; an engine with unsigned types may answer narrower.
        """
        for name, bits in SIGNED_TYPES:
            if -(2 ** (bits - 1)) <= lo and hi < 2 ** (bits - 1):
                return name
        return "BIGINT"


SIGNED_TYPES = (("TINYINT", 8), ("SMALLINT", 16), ("INTEGER", 32), ("BIGINT", 64))
"""The integer types of both dialects, narrowest first, with their bits."""
INTEGER_TYPES = (
    "TINYINT",
    "SMALLINT",
    "INTEGER",
    "INT",
    "BIGINT",
    "UTINYINT",
    "USMALLINT",
    "UINTEGER",
)
"""Integer column types (DuckDB's and Spark's names) an item column can be narrowed from."""

NUMERIC_TYPES = (
    "TINYINT",
    "SMALLINT",
    "INTEGER",
    "BIGINT",
    "HUGEINT",
    "FLOAT",
    "DOUBLE",
    "DECIMAL",
    "UTINYINT",
    "USMALLINT",
    "UINTEGER",
    "UBIGINT",
    "INT",
    "LONG",
    "SHORT",
    "BYTE",
    "REAL",
)


def _is_numeric(type_name: str) -> bool:
    t = type_name.upper()
    return t.split("(")[0].replace("TYPE", "") in NUMERIC_TYPES


class EngineAnnotations(LazyAnnotations):
    """Judgements held by an engine; build one with :func:`analytics.engines.load_annotations`.

    Parameters
    ----------
    runner : Runner
        The engine connection.
    scan : str
        The FROM clause reading the source (a file scan or a table).
    name : str
        A display name (the file or table).
    item, annotator, label : str, default "item", "annotator", "label"
        Column names.
    categories : sequence or None, default None
        Declared categories in order; by default the labels used, sorted (numbers, and
        texts that are all numbers, numerically; text alphabetically). Ids and labels are
        read as the in-memory loader reads them (:mod:`analytics.engines.source`).
    kind : str, LabelKind or None, default None
        ``"nominal"``, ``"ordinal"`` or ``"numeric"``; by default the loader's rule
        (:func:`~analytics.data.kinds.infer_kind`): text labels and up to 12 whole numbers
        are nominal, other numbers numeric.
    duplicates : {"error", "keep"}, default "error"
        An annotator judging an item twice: an error, or kept (Dawid-Skene uses the
        repeats; agreement refuses them, see :meth:`check_no_repeats`).

    Raises
    ------
    AnnotationDataError
        A missing column (named, with the columns found), a label outside the declared
        categories, repeated judgements under ``"error"``, or no judgement at all.
    """

    def __init__(
        self,
        runner: Runner,
        scan: str,
        name: str,
        *,
        item: str | None = None,
        annotator: str | None = None,
        label: str | None = None,
        categories: Sequence[Any] | None = None,
        kind: str | LabelKind | None = None,
        duplicates: str = "error",
    ) -> None:
        if duplicates not in ("error", "keep"):
            raise AnnotationDataError(
                f"duplicates={duplicates!r} needs the input order, which an engine does not "
                "keep; use 'error' or 'keep'.",
                source=name,
            )
        self.runner, self.name, self.engine = runner, name, runner.engine
        self._pairs: dict[tuple[int | None, int | None], pd.DataFrame] = {}
        found = runner.columns(scan)
        item, annotator, label = _roles(list(found), item, annotator, label)
        for role, col in (("item", item), ("annotator", annotator), ("label", label)):
            if col not in found:
                raise AnnotationDataError(
                    f"no {role} column {col!r}.",
                    source=name,
                    column=col,
                    hint=f"Columns found: {', '.join(found)}. Name it with {role}=...",
                )
        q = runner.quote
        cols = {"item": item, "annotator": annotator, "label": label}
        runner.view(
            src.RAW,
            src.raw_view(scan, {r: (q(c), found[c]) for r, c in cols.items()}, runner.text_type),
        )
        runner.view(sql.SOURCE, src.source_view())
        read = src.read_labels(
            runner.fetch(src.label_groups()),
            categories,
            kind,
            _is_numeric(found[label]),
            cols,
            name,
        )
        self.categories, self.kind = read.categories, read.kind
        runner.register(sql.CATEGORIES, read.codes)
        names = sorted(runner.fetch(sql.annotators_query())["name"].astype(str))
        self.annotators = pd.Index(names, dtype=object)
        runner.register(
            sql.ANNOTATORS,
            pd.DataFrame({"name": names, "code": np.arange(len(names), dtype=np.int32)}),
        )
        runner.table(sql.JUDGEMENTS, self._coded(found[item]))
        size = runner.fetch(sql.sizes()).iloc[0]
        self.n_judgements = int(0 if pd.isna(size["judgements"]) else size["judgements"])
        self.n_items = int(size["items"])
        self.has_repeats = int(size["coders"]) < self.n_judgements
        if self.n_judgements == 0:
            raise AnnotationDataError(
                "no row is a judgement (every label is missing).", source=name
            )
        if self.has_repeats and duplicates == "error":
            seen = runner.fetch(  # a few examples, as the in-memory loader names them
                f"SELECT item, annotator, COUNT(*) AS n FROM {sql.SOURCE} WHERE label IS NOT "
                "NULL GROUP BY item, annotator HAVING COUNT(*) > 1 ORDER BY item, annotator "
                "LIMIT 3"
            )
            shown = "; ".join(
                f"annotator {show_text(r.annotator)} on item {show_text(r.item)} ({int(r.n)} times)"
                for r in seen.itertuples()
            )
            extra = self.n_judgements - int(size["coders"])
            raise AnnotationDataError(
                f"{format_count(extra, 'repeated judgement')} (an annotator judged an item "
                f"more than once), e.g. {shown}.",
                source=name,
                hint="Pass duplicates='keep' to keep them (Dawid-Skene uses them).",
            )
        self.report = LoadReport(
            source=name,
            format=runner.engine,
            columns=dict(cols),
            n_rows=read.n_rows,
            n_judgements=self.n_judgements,
            n_missing=read.n_missing,
            skipped=read.skipped,
            kind=self.kind.value,
            kind_reason=read.kind_reason,
            duplicates=duplicates,
            n_duplicates=self.n_judgements - int(size["coders"]),
            categories_declared=categories is not None,
            cautions=read.cautions,
            kind_caution=read.kind_caution,
        )

    def _coded(self, item_type: str) -> str:
        """The query of the coded table, in the narrowest integer types that hold the codes.

        At 10^8 judgements every byte per row is 100 MB of the engine's working memory:
        the annotator and label codes and their key ``al`` take the narrowest type for
        their range, and an integer item column the narrowest type for its smallest and
        largest value (its values, and so its names, unchanged); other items stay as they are.
        """
        q, n_ann = len(self.categories), len(self.annotators)
        item_cast = None
        if item_type.upper().split("(")[0] in INTEGER_TYPES:
            span = self.runner.fetch(sql.item_range()).iloc[0]
            if not (pd.isna(span["lo"]) or pd.isna(span["hi"])):
                item_cast = self.runner.int_type(int(span["lo"]), int(span["hi"]))
        return sql.coded_view(
            q,
            item=item_cast,
            annotator=self.runner.int_type(0, max(n_ann - 1, 0)),
            label=self.runner.int_type(0, max(q - 1, 0)),
            al=self.runner.int_type(0, max(n_ann * q - 1, 0)),
        )

    # ------------------------------------------------------------------ small tables
    @cached_property
    def _patterns(self) -> tuple[np.ndarray, np.ndarray]:
        q = self.n_categories
        got = self.runner.fetch(sql.count_patterns(q))
        counts = got[[f"c{k}" for k in range(q)]].to_numpy(np.int64)
        mult = got["m"].to_numpy(np.int64)
        order = np.lexsort(counts.T[::-1])  # a fixed order, whatever the engine returned
        return counts[order], mult[order]

    def count_patterns(self) -> tuple[np.ndarray, np.ndarray]:
        return self._patterns

    @cached_property
    def _annotator_counts(self) -> np.ndarray:
        got = self.runner.fetch(sql.annotator_category_counts())
        out = np.zeros((self.n_annotators, self.n_categories), np.int64)
        out[got["annotator"].to_numpy(np.int64), got["label"].to_numpy(np.int64)] = got["n"]
        return out

    def annotator_category_counts(self) -> np.ndarray:
        return self._annotator_counts

    def pair_table(self, a: int | None = None, b: int | None = None) -> pd.DataFrame:
        key = (a, b)
        if key not in self._pairs:  # the judgements never change: ask the engine once
            got = self.runner.fetch(sql.pair_table(a, b))
            self._pairs[key] = got.astype(np.int64).sort_values(
                ["a", "b", "la", "lb"], ignore_index=True
            )
        return self._pairs[key]

    @cached_property
    def _sharing(self) -> int:
        return int(self.runner.fetch(sql.sharing_pairs()).iloc[0]["n"])

    def sharing_pairs(self) -> int:
        return self._sharing

    # ------------------------------------------------------------------ noise tables
    def noise_split(self, chosen: list[int] | None) -> tuple[int, int, int, np.ndarray]:
        """Items left out, taking part and disagreed on; counts on the disagreed items."""
        self.runner.table(sql.NOISE_ITEMS, sql.noise_items(sql.among(chosen)))
        got = self.runner.fetch(sql.noise_counts()).iloc[0].fillna(0)
        counts = np.zeros((self.n_annotators, self.n_categories))
        tab = self.runner.fetch(sql.disagreed_counts(sql.among(chosen, "j.")))
        counts[tab["annotator"].to_numpy(np.int64), tab["label"].to_numpy(np.int64)] = tab["n"]
        return int(got["excluded"]), int(got["n"]), int(got["d"]), counts

    def noise_chance(
        self, chosen: list[int] | None, logr: np.ndarray, sample: int
    ) -> tuple[np.ndarray, np.ndarray, pd.DataFrame]:
        """Per item taking part its p (as value counts) and a sample of the items.

        Returns ``p_item`` and ``agreed`` (one entry per item taking part, grouped by
        value) and the first ``sample`` items with ``item, r, lo, hi, p``.
        """
        a, q = logr.shape
        self.runner.register(
            sql.LOG_RATES,
            pd.DataFrame(
                {
                    "annotator": np.repeat(np.arange(a), q),
                    "label": np.tile(np.arange(q), a),
                    "logr": logr.ravel(),
                }
            ),
        )
        self.runner.table(sql.ITEM_CHANCE, sql.item_chance(sql.among(chosen, "j.")))
        vals = self.runner.fetch(sql.chance_values())
        m = vals["m"].to_numpy(np.int64)
        p_item = np.repeat(vals["p"].to_numpy(float), m)
        agreed = np.repeat(vals["agreed"].to_numpy(np.int64) == 1, m)
        return p_item, agreed, self.runner.fetch(sql.chance_sample(sample))

    def noise_sample(self, sample: int) -> pd.DataFrame:
        """The first ``sample`` items taking part: ``item, r, lo, hi`` (after :meth:`noise_split`)."""
        return self.runner.fetch(sql.noise_sample(sample))

    def noise_panels(self, chosen: list[int] | None) -> int:
        """Distinct annotator panels of the items taking part."""
        query = sql.panels(sql.among(chosen, "j."), self.runner.sorted_codes("j.annotator"))
        return int(self.runner.fetch(query).iloc[0]["panels"])

    # ------------------------------------------------------------------ Dawid-Skene tables
    def ds_start(self, how: str) -> None:
        """Set the initial posteriors (``majority``/``soft``) from the votes per item.

        The votes are a view, not a table: they are read once here and, for the sampled
        items only, at the end (:meth:`ds_sample`), so they take no memory during EM.
        """
        k = self.n_categories
        self.runner.view(sql.VOTES, sql.votes(k))
        self.runner.table(sql.POSTERIORS, sql.start(k, how))
        self._totals = self.runner.fetch(sql.posterior_totals(k)).iloc[0]

    def ds_expected(self) -> tuple[np.ndarray, np.ndarray, float]:
        """M-step sums of the current posteriors: counts (annotator x true x given), the
        posteriors' column sums and the summed log-likelihood terms."""
        k = self.n_categories
        tab = self.runner.fetch(sql.expected_counts(k))
        counts = np.zeros((self.n_annotators * k, k))  # (annotator, given) x true
        counts[tab["al"].to_numpy(np.int64)] = tab[[f"n{i}" for i in range(k)]].to_numpy(float)
        counts = counts.reshape(self.n_annotators, k, k)
        tot = self._totals  # fetched when the posteriors were last replaced
        q_totals = tot[[f"t{i}" for i in range(k)]].to_numpy(float)
        return counts.transpose(0, 2, 1), q_totals, float(tot["ll"])

    def ds_e_step(self, log_pi: np.ndarray, log_theta: np.ndarray) -> float:
        """Replace the posteriors by Bayes' rule under (pi, theta); the summed item terms."""
        a, k, _ = log_theta.shape
        given = log_theta.transpose(0, 2, 1).reshape(a * k, k)  # row (j, given) -> true
        frame = pd.DataFrame(given, columns=[f"l{i}" for i in range(k)])
        frame.insert(0, "al", np.arange(a * k, dtype=np.int32))
        self.runner.register(sql.LOG_THETA, frame)
        self.runner.table(sql.POSTERIORS, sql.e_step([float(x) for x in log_pi]))
        self._totals = self.runner.fetch(sql.posterior_totals(k)).iloc[0]
        return float(self._totals["ll"])

    def ds_sample(self, limit: int) -> tuple[pd.Index, np.ndarray, np.ndarray]:
        """The first ``limit`` items: names, posteriors and votes."""
        k = self.n_categories
        got = self.runner.fetch(sql.posterior_sample(k, limit))
        q = got[[f"q{i}" for i in range(k)]].to_numpy(float)
        v = got[[f"c{i}" for i in range(k)]].to_numpy(np.int64)
        return pd.Index(got["item"].astype(str), dtype=object), q, v

    def ds_sizes(self) -> tuple[int, np.ndarray]:
        """Items with one judgement, and judgements per annotator."""
        single = int(self.runner.fetch(sql.single_judgement_items()).iloc[0]["single"])
        tab = self.runner.fetch(sql.judgements_per_annotator())
        per = np.zeros(self.n_annotators, np.int64)
        per[tab["annotator"].to_numpy(np.int64)] = tab["n"]
        return single, per

    def __repr__(self) -> str:
        return (
            f"EngineAnnotations({self.name!r} on {self.engine}: {self.n_items} items, "
            f"{self.n_annotators} annotators, {self.n_judgements} judgements, "
            f"{self.n_categories} categories, {self.kind.value})"
        )


def _roles(found: list[str], *given: str | None) -> tuple[str, str, str]:
    """The item, annotator and label columns: as given, else recognised by name as the
    in-memory loader does (``doc_id``, ``worker_id``, ``answer``, ...), else the role's name."""
    roles = ("item", "annotator", "label")
    if all(given):
        return given  # type: ignore[return-value]
    try:
        guessed = detect_columns(found)
    except AnnotationDataError:  # ambiguous names: the role's own name, refused if absent
        guessed = {}
    return tuple(g or guessed.get(r) or r for r, g in zip(roles, given, strict=True))  # type: ignore[return-value]
