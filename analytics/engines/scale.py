"""Which engine for which file, and which analyses each engine answers.

The command line and the app share one rule (:func:`default_engine`): files below
:data:`ENGINE_THRESHOLD_BYTES` are read in memory, bigger Parquet/CSV/TSV files (and
folders of Parquet files) by DuckDB. :func:`local_source` checks a path typed by a user
before any engine touches it; :func:`open_on_engine` opens it and turns every engine
error into an :class:`~analytics.AnnotationDataError`; :func:`engine_support` says, per
analysis (an app page), whether an engine computes it, and what to do when it does not.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analytics._core.budget import format_bytes
from analytics._core.errors import AnnotationDataError
from analytics.data import DEFAULT_MAX_BYTES, detect_columns
from analytics.engines.loading import load_annotations

__all__ = [
    "ANALYSES",
    "ENGINE_SUFFIXES",
    "ENGINE_THRESHOLD_BYTES",
    "LocalSource",
    "Support",
    "default_engine",
    "engine_summary",
    "engine_support",
    "format_bytes",
    "guess_columns",
    "local_source",
    "open_on_engine",
    "sampled_note",
    "source_columns",
]

ENGINE_THRESHOLD_BYTES = DEFAULT_MAX_BYTES
"""Files at least this big (200 MiB, the most the in-memory loader reads by default) are
read by DuckDB by default; smaller ones in memory. Were it higher, a file between the two
would go to the memory engine and be refused for its size."""
ENGINE_SUFFIXES = (".parquet", ".pq", ".csv", ".tsv")
"""The files DuckDB reads for Concord (and folders of ``*.parquet``)."""
_PARQUET = (".parquet", ".pq")


@dataclass(frozen=True)
class LocalSource:
    """A checked local file or folder of Parquet files.

    Attributes
    ----------
    path : pathlib.Path
        The absolute path.
    n_bytes : int
        Its size (a folder: the sum over its Parquet files).
    n_files : int
        1 for a file; the Parquet files of a folder.
    kind : str
        ``"parquet"``, ``"csv"``, ``"tsv"`` or ``"parquet folder"``.
    """

    path: Path
    n_bytes: int
    n_files: int
    kind: str

    @property
    def default_engine(self) -> str:
        """:func:`default_engine` of this source."""
        return default_engine(self.n_bytes)

    def describe(self) -> str:
        """One line: kind, files and size (``"parquet folder, 12 files, 3.1 GiB"``)."""
        files = f", {self.n_files:,} files" if self.kind == "parquet folder" else ""
        return f"{self.kind}{files}, {format_bytes(self.n_bytes)}"


def default_engine(n_bytes: int, suffix: str = ".parquet") -> str:
    """The engine a file is read with by default.

    Parameters
    ----------
    n_bytes : int
        The file's size (a folder of Parquet files: their total).
    suffix : str, default ".parquet"
        The file's extension; only :data:`ENGINE_SUFFIXES` ever go to DuckDB by default.

    Returns
    -------
    str
        ``"duckdb"`` when ``n_bytes >= ENGINE_THRESHOLD_BYTES`` and DuckDB reads the
        format, else ``"memory"``.

    Examples
    --------
    >>> default_engine(10), default_engine(ENGINE_THRESHOLD_BYTES)
    ('memory', 'duckdb')
    >>> default_engine(2**40, ".xlsx")
    'memory'
    """
    big = n_bytes >= ENGINE_THRESHOLD_BYTES
    return "duckdb" if big and suffix.lower() in ENGINE_SUFFIXES else "memory"


def local_source(text: str) -> LocalSource:
    """Check a typed path: a Parquet, CSV or TSV file, or a folder of Parquet files.

    Parameters
    ----------
    text : str
        The path as typed (``~`` expanded, surrounding blanks and quotes dropped; a
        relative path is taken from the server's working folder).

    Returns
    -------
    LocalSource

    Raises
    ------
    AnnotationDataError
        An empty text, a path that does not exist or cannot be read, a folder without
        Parquet files, or a file of another kind, each said in plain words.
    """
    cleaned = text.strip().strip("'\"").strip()
    if not cleaned:
        raise AnnotationDataError(
            "no path was given.",
            hint="Type the path of a Parquet or CSV file, or of a folder of Parquet files.",
        )
    path = Path(cleaned).expanduser().resolve()
    if not path.exists():
        raise AnnotationDataError(
            "there is no file or folder at this path (on the machine running Concord).",
            source=str(path),
            hint="Check the spelling; the path is read on the server, not on your computer.",
        )
    if not os.access(path, os.R_OK | (os.X_OK if path.is_dir() else 0)):
        raise AnnotationDataError("Concord is not allowed to read this path.", source=str(path))
    if path.is_dir():
        files = _parquet_files(path)
        if not files:
            raise AnnotationDataError(
                "the folder holds no Parquet files (*.parquet, in it or below it).",
                source=str(path),
                hint="Point at a folder of .parquet files, or at one Parquet or CSV file.",
            )
        return LocalSource(path, sum(p.stat().st_size for p in files), len(files), "parquet folder")
    suffix = path.suffix.lower()
    if suffix not in ENGINE_SUFFIXES:
        raise AnnotationDataError(
            f"a path opens Parquet (.parquet, .pq), CSV (.csv) and TSV (.tsv) files, not "
            f"{suffix or 'a file without an extension'}.",
            source=path.name,
            hint="Other formats (Excel, JSON) load in memory: upload them instead.",
        )
    kind = "parquet" if suffix in _PARQUET else suffix[1:]
    return LocalSource(path, path.stat().st_size, 1, kind)


SCAN_LIMIT = 100_000
"""Entries a typed folder is searched through for Parquet files before giving up."""


def _parquet_files(folder: Path) -> list[Path]:
    """The ``*.parquet`` files in ``folder`` and below (what DuckDB's ``**`` glob reads)."""
    found, seen = [], 0
    for root, dirs, names in os.walk(folder):
        seen += len(dirs) + len(names)
        if seen > SCAN_LIMIT:
            raise AnnotationDataError(
                f"the folder holds more than {SCAN_LIMIT:,} files and folders.",
                source=str(folder),
                hint="Point at the folder that holds the Parquet files.",
            )
        found += [Path(root) / n for n in names if n.endswith(".parquet")]
    return [p for p in found if p.is_file()]


def _duck_errors() -> tuple[type[BaseException], ...]:
    try:
        import duckdb
    except ImportError:  # pragma: no cover - duckdb is a requirement
        return ()
    return (duckdb.Error,)


def source_columns(source: LocalSource) -> list[str]:
    """The column names of a checked source, read by DuckDB from its header or schema.

    Parameters
    ----------
    source : LocalSource
        From :func:`local_source`.

    Returns
    -------
    list of str
        The columns in file order (no row is read besides a CSV's sniffed sample).

    Raises
    ------
    AnnotationDataError
        When DuckDB cannot read the file (not Parquet, damaged, unreadable).
    """
    from analytics.engines.duck import DuckRunner, duckdb_scan

    runner = DuckRunner(threads=1)
    try:
        scan, _ = duckdb_scan(source.path, runner)
        return list(runner.columns(scan))
    except _duck_errors() as exc:
        raise AnnotationDataError(
            f"DuckDB cannot read the file: {exc}", source=source.path.name
        ) from exc
    finally:
        runner.con.close()


def guess_columns(columns: list[str]) -> dict[str, str | None]:
    """The item, annotator and label columns recognised by name (None where none is).

    The in-memory loader's rule (:func:`analytics.data.detect_columns`); a name that
    several columns could fill is left unguessed rather than refused.

    Parameters
    ----------
    columns : list of str
        The source's columns.

    Returns
    -------
    dict
        ``{"item": ..., "annotator": ..., "label": ...}``, None where no column matched.
    """
    try:
        return detect_columns(columns)
    except AnnotationDataError:
        return {"item": None, "annotator": None, "label": None}


def open_on_engine(source: LocalSource | Any, engine: str, **options: Any) -> Any:
    """Open a checked source on ``engine``; every engine error as AnnotationDataError.

    Parameters
    ----------
    source : LocalSource or any source of :func:`analytics.engines.load_annotations`
        What to read.
    engine : {"memory", "duckdb", "spark"}
        Where to hold the judgements. ``"memory"`` reads one file (not a folder).
    **options
        Passed to :func:`analytics.engines.load_annotations` (``item``, ``annotator``,
        ``label``, ``kind``, ``duplicates``, ``memory_limit``, ...).

    Returns
    -------
    Annotations or LazyAnnotations

    Raises
    ------
    AnnotationDataError
        What the loader refuses, and any error the engine raises, named as such.
    """
    path = source.path if isinstance(source, LocalSource) else source
    if engine == "memory" and isinstance(source, LocalSource) and source.kind == "parquet folder":
        raise AnnotationDataError(
            "a folder of Parquet files opens on DuckDB only.",
            source=str(path),
            hint="Choose the DuckDB engine, or point at one file.",
        )
    try:
        return load_annotations(str(path), engine=engine, **options)
    except _duck_errors() as exc:
        raise AnnotationDataError(
            f"DuckDB could not read the data: {exc}", source=str(path)
        ) from exc


@dataclass(frozen=True)
class Support:
    """Whether an engine computes an analysis, and what to do when it does not.

    Attributes
    ----------
    analysis : str
        The analysis (an app page's key, e.g. ``"agreement"``).
    on_engine : bool
        Whether the engine computes it at all.
    what : str
        What is computed, or why it is not.
    todo : str
        What to do instead ("" when nothing is needed).
    """

    analysis: str
    on_engine: bool
    what: str
    todo: str = ""


_SAMPLE_ADVICE = (
    "To see it, load a sample of the data in memory: a Parquet or CSV file of a few "
    "hundred thousand judgements (for example every judgement of a random set of items)."
)
ANALYSES: dict[str, Support] = {
    "overview": Support(
        "overview",
        True,
        "Agreement, the noise bound and the Dawid-Skene model are computed on the whole data "
        "by the engine; the answers about single items use the sampled items.",
    ),
    "agreement": Support(
        "agreement",
        True,
        "Every coefficient of the report is computed on the whole data by the engine. The "
        "pairwise heatmap, per-category and per-item tabs and the kappa paradox need every "
        "judgement in memory, so they are not shown.",
        _SAMPLE_ADVICE,
    ),
    "noise": Support(
        "noise",
        True,
        "The noise bound is computed on the whole data by the engine; the per-item table "
        "is sampled.",
    ),
    "dawid_skene": Support(
        "dawid_skene",
        True,
        "The Dawid-Skene model is fitted by the engine on the whole data (EM as SQL); "
        "posteriors are brought back for a sample of the items. Known gold labels, random "
        "starts and the other annotator models need every judgement in memory.",
        _SAMPLE_ADVICE,
    ),
    "gold_labels": Support(
        "gold_labels",
        True,
        "Only the Dawid-Skene model is fitted by the engine (on the whole data). The other "
        "annotator models (MACE, GLAD, the Bayesian models, ...) and their comparison need "
        "every judgement in memory.",
        _SAMPLE_ADVICE,
    ),
    "multilabel": Support(
        "multilabel",
        False,
        "The engines read one label per judgement; multi-label data (label sets) are read "
        "in memory only.",
        "Load multi-label data in memory (upload the file, or type its path and choose the "
        "memory engine).",
    ),
    "next_labels": Support(
        "next_labels",
        False,
        "Choosing the next items to label scores every item under the model in memory, which "
        "is not defined at this scale.",
        _SAMPLE_ADVICE,
    ),
    "export": Support(
        "export",
        False,
        "The report and the exported tables hold every item's rows; they are built in memory "
        "only. The tables of the engine pages (agreement report, noise, Dawid-Skene) have "
        "their own download buttons.",
        _SAMPLE_ADVICE,
    ),
    "spans": Support(
        "spans",
        False,
        "Span annotations are read in memory only; this page uses its own span data, not the "
        "judgements on the engine.",
        "Load span data on this page (it stays apart from the label data).",
    ),
}
"""Per analysis (app page): what an engine computes, or why not and what to do."""


def engine_support(analysis: str, engine: str) -> Support:
    """Whether ``engine`` computes ``analysis`` (an app page's key), and what to do if not.

    Parameters
    ----------
    analysis : str
        A key of :data:`ANALYSES`.
    engine : {"memory", "duckdb", "spark"}
        The engine holding the judgements.

    Returns
    -------
    Support
        In memory, everything is supported (``what`` empty).

    Raises
    ------
    KeyError
        An analysis not in :data:`ANALYSES`.
    """
    found = ANALYSES[analysis]
    if engine == "memory":
        return Support(analysis, True, "")
    return found


def sampled_note(shown: int, total: int, what: str = "items", engine: str = "duckdb") -> str:
    """The sentence under a sampled per-item view ("" when nothing is left out).

    Parameters
    ----------
    shown : int
        The items (or rows) the view holds.
    total : int
        All of them.
    what : str, default "items"
        What is counted.
    engine : str, default "duckdb"
        The engine that keeps the rest.

    Returns
    -------
    str
        "Showing <shown> of <total> <what>, sampled (the first in item order): ..."; the
        engines bring back the first items in item order (see
        :data:`analytics.dawid_skene.ENGINE_ITEMS_SHOWN`).

    Examples
    --------
    >>> sampled_note(10_000, 10_000_000)
    'Showing 10,000 of 10,000,000 items, sampled (the first in item order): the duckdb engine keeps the rest.'
    >>> sampled_note(5, 5)
    ''
    """
    if shown >= total:
        return ""
    return (
        f"Showing {shown:,} of {total:,} {what}, sampled (the first in item order): the "
        f"{engine} engine keeps the rest."
    )


def engine_summary(lazy: Any) -> dict[str, pd.DataFrame]:
    """The Data page's tables of judgements on an engine, from its small tables only.

    Parameters
    ----------
    lazy : LazyAnnotations
        Judgements held by an engine.

    Returns
    -------
    dict
        ``"labels"``: per category the judgements and their share of all judgements;
        ``"annotators"``: per annotator the judgements, and per category their share of
        that annotator's judgements (NaN for an annotator without judgements), busiest
        first. Both come from :meth:`~analytics.engines.LazyAnnotations.annotator_category_counts`
        (annotators x categories), so no per-item table is read.
    """
    counts = lazy.annotator_category_counts().astype(float)
    cats = [str(c) for c in lazy.categories]
    per_label = counts.sum(axis=0)
    total = per_label.sum()
    labels = pd.DataFrame(
        {
            "category": cats,
            "judgements": per_label.astype(np.int64),
            "share": per_label / total if total else np.full(len(cats), np.nan),
        }
    )
    per_annotator = counts.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        shares = counts / per_annotator[:, None]
    annotators = pd.DataFrame(shares, columns=[f"share {c}" for c in cats])
    annotators.insert(0, "judgements", per_annotator.astype(np.int64))
    annotators.index = pd.Index([str(a) for a in lazy.annotators], name="annotator")
    return {
        "labels": labels,
        "annotators": annotators.sort_values("judgements", ascending=False, kind="stable"),
    }
