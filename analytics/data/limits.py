"""The resource limits every file read is held to, checked before the work is done.

A :class:`Limits` travels from :func:`~analytics.data.loading.load_annotations` (``limits=``)
to :func:`~analytics.data.reading.read_table`, which checks each one before it parses,
decompresses or allocates, and names the limit it hit in the error.

>>> Limits().max_bytes == 200 * 1024 * 1024
True
>>> Limits(max_cells=10).max_cells
10
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_LIMITS", "Limits"]


@dataclass(frozen=True)
class Limits:
    """How much work one file may ask of Concord.

    Parameters
    ----------
    max_bytes : int, default 200 MiB
        The file's size as stored (compressed for .xlsx and Parquet).
    max_decompressed_bytes : int, default 1 GiB
        The size of a container's contents once inflated (the XML inside an .xlsx).
    max_cells : int, default 100_000_000
        Rows x columns of the table read (an .xlsx sheet's declared dimension counts).
    max_depth : int, default 64
        How deeply JSON arrays and objects may nest.
    max_digits : int, default 400
        The longest number JSON may hold (Python refuses to parse longer integers).
    """

    max_bytes: int = 200 * 1024 * 1024
    max_decompressed_bytes: int = 1024 * 1024 * 1024
    max_cells: int = 100_000_000
    max_depth: int = 64
    max_digits: int = 400


#: The limits used when none are given.
DEFAULT_LIMITS = Limits()
