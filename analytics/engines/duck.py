"""DuckDB, the embedded engine: files bigger than memory, read and reduced where they lie.

DuckDB streams Parquet and CSV files and spills to disk past ``memory_limit``, so the
peak memory of an analysis is bounded by that setting, not by the data.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pandas as pd

from analytics._core.errors import AnnotationDataError, show_text
from analytics.engines.handle import Runner

__all__ = ["DuckRunner", "duck_error", "duckdb_scan"]


class DuckRunner(Runner):
    """A DuckDB connection of its own (in memory, spilling to ``temp_directory``).

    Parameters
    ----------
    memory_limit : str or None, default None
        DuckDB's ``memory_limit`` (e.g. ``"2GB"``): the bound on its working memory.
    temp_directory : str or None, default None
        Where DuckDB spills; its default (``.tmp`` next to the database) when None.
    threads : int or None, default None
        Worker threads (DuckDB's default: all cores).
    connection : duckdb.DuckDBPyConnection or None, default None
        Use this connection instead (its tables are then readable by name).
    """

    engine = "duckdb"
    text_type = "VARCHAR"
    source: str | None = None
    """The file read, named in error messages (set by :func:`duckdb_scan`)."""

    def __init__(
        self,
        memory_limit: str | None = None,
        temp_directory: str | None = None,
        threads: int | None = None,
        connection: Any = None,
    ) -> None:
        import duckdb

        self.duckdb = duckdb
        if connection is None:
            config: dict[str, Any] = {}
            if memory_limit:
                config["memory_limit"] = memory_limit
            if temp_directory:
                config["temp_directory"] = temp_directory
            if threads:
                config["threads"] = int(threads)
            try:
                connection = duckdb.connect(":memory:", config=config)
            except (duckdb.Error, ValueError, TypeError) as exc:  # "xyz", "0", -3 ...
                raise AnnotationDataError(
                    f"DuckDB refused the settings memory_limit={memory_limit!r}, "
                    f"temp_directory={temp_directory!r}, threads={threads!r}: {exc}",
                    hint="Give the memory limit as a size such as '3GB' or '512MB', and "
                    "threads as a whole number of at least 1.",
                ) from None
        self.con = connection

    def quote(self, column: str) -> str:
        return '"' + column.replace('"', '""') + '"'

    def execute(self, query: str) -> Any:
        """Run ``query``; every DuckDB error becomes an :class:`AnnotationDataError`
        (:func:`duck_error`)."""
        try:
            return self.con.execute(query)
        except self.duckdb.Error as exc:
            raise duck_error(exc, self.source) from exc

    def columns(self, scan: str) -> dict[str, str]:
        rows = self.execute(f"DESCRIBE SELECT * FROM {scan}").fetchall()
        return {r[0]: str(r[1]) for r in rows}

    def view(self, name: str, query: str) -> None:
        self.execute(f"CREATE OR REPLACE TEMP VIEW {name} AS {query}")

    def table(self, name: str, query: str) -> None:
        self.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS {query}")

    def register(self, name: str, frame: pd.DataFrame) -> None:
        self.con.register(f"{name}_df", frame)
        self.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS SELECT * FROM {name}_df")
        self.con.unregister(f"{name}_df")

    def sorted_codes(self, column: str) -> str:
        return f"STRING_AGG(CAST({column} AS VARCHAR), ',' ORDER BY {column})"

    def fetch(self, query: str) -> pd.DataFrame:
        result = self.execute(query)
        try:
            return result.df()
        except self.duckdb.Error as exc:
            raise duck_error(exc, self.source) from exc

    def int_type(self, lo: int, hi: int) -> str:
        """The narrowest integer type for ``lo .. hi``: unsigned when ``lo >= 0`` (DuckDB's
        ``UTINYINT``, ``USMALLINT``, ``UINTEGER``), so 10,000 annotators x 5 categories fit
        two bytes."""
        if lo >= 0:
            for name, bits in (("UTINYINT", 8), ("USMALLINT", 16), ("UINTEGER", 32)):
                if hi < 2**bits:
                    return name
        return super().int_type(lo, hi)


def _literal(path: str) -> str:
    return "'" + path.replace("'", "''") + "'"


def duckdb_scan(source: Any, runner: DuckRunner, table: str | None = None) -> tuple[str, str]:
    """The FROM clause reading ``source`` and its display name.

    ``source`` is a Parquet file, a folder of Parquet files, a CSV/TSV file, a DuckDB
    database file (with ``table``), or a pandas DataFrame (registered as a view).

    Raises
    ------
    AnnotationDataError
        A path that does not exist, or a kind of file DuckDB is not asked to read.
    """
    if isinstance(source, pd.DataFrame):
        runner.source = "<DataFrame>"
        runner.con.register("concord_input", source)
        return "concord_input", "<DataFrame>"
    path = Path(os.fspath(source))
    name = runner.source = path.name
    if not path.exists():
        raise AnnotationDataError("no such file or folder.", source=str(path))
    if path.is_dir():
        return f"read_parquet({_literal(str(path / '**' / '*.parquet'))})", name
    suffix = path.suffix.lower()
    if suffix in (".parquet", ".pq"):
        return f"read_parquet({_literal(str(path))})", name
    if suffix in (".csv", ".tsv", ".txt"):
        if path.stat().st_size == 0:
            raise AnnotationDataError(
                "the file is empty.",
                source=name,
                hint="Give a file with a header row and data rows.",
            )
        # every column as text, as the in-memory loader reads a CSV: a column whose type
        # changes past DuckDB's sniffed sample cannot fail, and ids "007" and "7" differ.
        # The delimiter and header as the in-memory loader reads them, and '"' the only
        # quote: DuckDB's sniffer took ' for a quote (labels 'x' and x merged) and, with a
        # ragged row in its sample, read the header as one column
        sep, header = delimiter_and_header(path, suffix, name)
        columns = ", ".join(f"{_literal(h)}: 'VARCHAR'" for h in header)
        scan = (
            f"read_csv({_literal(str(path))}, auto_detect=false, header=true, "
            f"columns={{{columns}}}, delim={_literal(sep)}, quote='\"', escape='\"')"
        )
        return scan, name
    if suffix in (".duckdb", ".db"):
        if not table:
            raise AnnotationDataError(
                "a DuckDB database needs the table to read.", source=name, hint="Pass table=..."
            )
        runner.execute(f"ATTACH {_literal(str(path))} AS concord_db (READ_ONLY)")
        return f"concord_db.{runner.quote(table)}", f"{name}:{table}"
    raise AnnotationDataError(
        f"the duckdb engine reads Parquet, CSV/TSV and DuckDB files, not {suffix or 'this'}.",
        source=name,
    )


def delimiter_and_header(path: Path, suffix: str, name: str) -> tuple[str, list[str]]:
    """The delimiter and header of a CSV/TSV file as the in-memory loader reads them,
    checked as that loader checks them (no empty or repeated column names).

    Raises
    ------
    AnnotationDataError
        For an empty or repeated column name, naming it.
    """
    import csv

    from analytics.data import check_header, sniff_delimiter

    with open(path, "rb") as f:
        raw = f.read(1 << 16)
    try:  # a multi-byte character cut at the end of the piece is no fault
        raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if exc.start < len(raw) - 3:
            raise AnnotationDataError(
                "the file is not UTF-8 text (latin-1, Windows-1252 or UTF-16, for example): "
                "the duckdb engine reads UTF-8 only.",
                source=name,
                hint="Save the file as UTF-8 (CSV UTF-8 in Excel), or load it in memory "
                "(engine='memory'; --engine memory on the command line), which converts "
                "other encodings and says so.",
            ) from None
    head = raw.decode("utf-8-sig", errors="replace").lstrip("\r\n")
    sep = "\t" if suffix == ".tsv" else sniff_delimiter(head)
    first = head.splitlines()[0] if head else ""
    header = [h.strip() for h in next(csv.reader([first], delimiter=sep), [])]
    check_header(header, name)
    return sep, header


def duck_error(exc: Exception, source: str | None) -> AnnotationDataError:
    """A DuckDB error as one line naming the file, and the line and column when DuckDB
    gives them, with what to do.

    Parameters
    ----------
    exc : duckdb.Error
        What DuckDB raised.
    source : str or None
        The file read.

    Returns
    -------
    AnnotationDataError
    """
    import duckdb

    text = str(exc).strip()
    first = re.sub(r"^[A-Za-z ]*Error: ", "", text.splitlines()[0]) if text else type(exc).__name__
    line = re.search(r"on Line: (\d+)", text)
    rows = [int(line.group(1))] if line else None
    column = re.search(r'converting column "([^"]+)"', text)
    col = column.group(1) if column else None
    fields = re.search(r"Expected Number of Columns: (\d+) Found: (\d+)", text)
    if isinstance(exc, duckdb.OutOfMemoryException):
        problem, hint = (
            f"DuckDB ran out of memory or spill space: {first}",
            ("Raise memory_limit, or point temp_directory at a disk with room."),
        )
    elif fields:
        problem = f"the row does not have the {fields.group(1)} fields of the header."
        hint = "Quote cells that contain the delimiter, or fix that row."
    elif "schema mismatch" in text or "union_by_name" in text:
        problem = "the Parquet files of the folder do not have the same columns" + _which(text)
        hint = (
            "Give every file the same column names (rename the odd ones), or open the files "
            "one at a time."
        )
    elif col is not None:
        problem = f"a value does not have the column's type: {first}"
        hint = "Correct that cell, or save the file with that column as text."
    elif isinstance(exc, duckdb.IOException):
        problem, hint = (
            f"DuckDB could not read or spill: {first}",
            ("Check that the file is readable and complete, and the spill folder has room."),
        )
    else:
        problem = f"DuckDB cannot read the data: {first}"
        hint = "Check that the file is a complete Parquet or CSV file with a header row."
    return AnnotationDataError(problem, source=source, column=col, rows=rows, hint=hint)


def _which(text: str) -> str:
    """Which files differ, from DuckDB's message on a folder of differing files."""
    lacking = re.search(
        r'column "([^"]+)" was read from the original file "([^"]+)", but could not be '
        r'found in file "([^"]+)"',
        text,
    )
    if lacking:
        col, has, lacks = lacking.groups()
        return f": column {show_text(col)} is in {Path(has).name} but not in {Path(lacks).name}."
    files = dict.fromkeys(Path(f).name for f in re.findall(r'file "([^"]+)"', text))
    return f" ({' and '.join(files)} differ)." if files else "."
