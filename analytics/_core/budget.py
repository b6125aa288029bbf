"""The one memory budget every analysis is held to, and the one check against it.

Some analyses grow faster than the data: tables over annotator pairs grow with
annotators², tables over category pairs with categories², and a bootstrap multiplies what
it resamples. Each such analysis estimates the memory it is about to allocate with
:func:`estimate_bytes` and calls :func:`check_budget` *before* allocating, so a data set
that is too wide gets an :class:`~analytics._core.errors.AnnotationDataError` saying what
is too large, how much memory it would need, the budget, and how to proceed, never a
``MemoryError`` or a machine that swaps. Work that can be split (the annotator pairs)
is split into blocks that each fit the budget (:func:`block_rows`).

The budget is :data:`DEFAULT_MEMORY_BUDGET` (2 GiB), or the ``CONCORD_MEMORY_BUDGET``
environment variable (bytes, or a number with ``K``, ``M``, ``G`` or ``T``: ``"512M"``),
or, innermost, :func:`memory_budget` used as a context manager.

Examples
--------
>>> with memory_budget("1M"):
...     budget_bytes()
1048576
>>> format_bytes(3 * 2**30)
'3 GiB'
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from analytics._core.errors import AnnotationDataError

__all__ = [
    "BUDGET_ENV",
    "DEFAULT_MEMORY_BUDGET",
    "block_rows",
    "budget_bytes",
    "check_budget",
    "estimate_bytes",
    "format_bytes",
    "memory_budget",
    "over_budget",
]

DEFAULT_MEMORY_BUDGET = 2 * 2**30
"""The memory an analysis may allocate for its largest intermediate: 2 GiB."""

BUDGET_ENV = "CONCORD_MEMORY_BUDGET"
"""The environment variable that overrides :data:`DEFAULT_MEMORY_BUDGET`."""

_UNITS = {"": 1, "B": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
_override: ContextVar[int | None] = ContextVar("concord_memory_budget", default=None)


def _parse(value: object, where: str) -> int:
    """A budget in bytes from an int or a text like ``"512M"`` / ``"2 GiB"``."""
    if isinstance(value, bool):
        raise AnnotationDataError(f"{where} must be a number of bytes, got {value!r}.")
    if isinstance(value, int | float):
        number = float(value)
    else:
        match = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]*)?)\s*([KMGT]?)(?:I?B)?\s*", str(value), re.I)
        if match is None:
            raise AnnotationDataError(
                f"{where} must be a number of bytes, optionally with K, M, G or T "
                f"(e.g. 512M or 4G), got {str(value)[:40]!r}."
            )
        number = float(match.group(1)) * _UNITS[match.group(2).upper()]
    if not number >= 2**20:  # NaN too
        raise AnnotationDataError(f"{where} must be at least 1M (1 MiB), got {value!r}.")
    return int(number)


def budget_bytes() -> int:
    """The memory budget in force, in bytes (innermost :func:`memory_budget`, else the
    ``CONCORD_MEMORY_BUDGET`` environment variable, else :data:`DEFAULT_MEMORY_BUDGET`)."""
    inner = _override.get()
    if inner is not None:
        return inner
    env = os.environ.get(BUDGET_ENV, "").strip()
    return _parse(env, f"the environment variable {BUDGET_ENV}") if env else DEFAULT_MEMORY_BUDGET


@contextmanager
def memory_budget(nbytes: int | float | str) -> Iterator[int]:
    """Run the analyses inside the ``with`` block under another memory budget.

    Parameters
    ----------
    nbytes : int, float or str
        The budget in bytes, or text with a unit (``"512M"``, ``"8G"``); at least 1 MiB.

    Yields
    ------
    int
        The budget in bytes.
    """
    value = _parse(nbytes, "the memory budget")
    token = _override.set(value)
    try:
        yield value
    finally:
        _override.reset(token)


def format_bytes(nbytes: float) -> str:
    """``nbytes`` as text, in the largest binary unit that keeps a digit before the point.

    Binary units with their IEC names (1 KiB = 1,024 bytes), so a size reads the same
    wherever Concord prints it: file limits, memory budgets, engine thresholds.

    Parameters
    ----------
    nbytes : float
        A size in bytes.

    Returns
    -------
    str
        ``"812 bytes"``, ``"2.4 KiB"``, ``"200 MiB"``, ``"3.1 GiB"``, ``"2 TiB"``: one
        decimal, dropped when it is zero.

    Examples
    --------
    >>> format_bytes(812), format_bytes(200 * 2**20), format_bytes(5 * 2**30 // 2)
    ('812 bytes', '200 MiB', '2.5 GiB')
    """
    size = float(nbytes)
    if size < 1024:
        return f"{int(size):,} bytes"
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        size /= 1024
        if size < 1024 or unit == "TiB":
            break
    return f"{size:,.1f} {unit}".replace(".0 ", " ")


def estimate_bytes(*cells: float, itemsize: int = 8, copies: float = 1.0) -> int:
    """The memory of arrays with ``cells`` elements each, ``copies`` times over.

    Every analysis estimates its largest intermediate with this one function, so the
    estimates (and the messages quoting them) are comparable.
    """
    return int(sum(float(c) for c in cells) * itemsize * copies)


def over_budget(nbytes: float) -> bool:
    """Whether ``nbytes`` exceed the budget in force."""
    return nbytes > budget_bytes()


def check_budget(nbytes: float, what: str, hint: str) -> None:
    """Refuse, before allocating, work that would exceed the memory budget.

    Parameters
    ----------
    nbytes : float
        The estimated memory (:func:`estimate_bytes`).
    what : str
        What would be allocated, with its size (e.g. ``"the pairwise table of 20,000
        annotators (200,000,000 annotator pairs)"``).
    hint : str
        How to proceed.

    Raises
    ------
    AnnotationDataError
        When ``nbytes`` exceed :func:`budget_bytes`.
    """
    budget = budget_bytes()
    if nbytes > budget:
        raise AnnotationDataError(
            f"{what} would need about {format_bytes(nbytes)} of memory, over the memory "
            f"budget of {format_bytes(budget)}.",
            hint=f"{hint} (Or raise the budget with {BUDGET_ENV}, e.g. {BUDGET_ENV}=8G, if "
            "the machine has the memory.)",
        )


def block_rows(n_rows: int, bytes_per_row: float, *, share: float = 0.25) -> int:
    """How many rows of a blocked computation fit in ``share`` of the budget (at least 1)."""
    if bytes_per_row <= 0:
        return max(n_rows, 1)
    return int(max(1, min(max(n_rows, 1), budget_bytes() * share // bytes_per_row)))
