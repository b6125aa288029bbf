"""What the loader found and decided: :class:`LoadReport` and its :class:`SkipNote` lines.

Every :class:`~analytics.data.model.Annotations` carries one. Nothing the user gave is
dropped silently: each row that did not become a judgement is counted in a
:class:`SkipNote` with its reason.

>>> note = SkipNote("no item id (column 'item' empty)", 2, (3, 7))
>>> str(note)
"2 skipped: no item id (column 'item' empty) (rows 3, 7)"
>>> LoadReport(source="a.csv", format="csv", n_rows=10, skipped=(note,)).n_skipped
2
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["LoadReport", "SkipNote", "missing_token_cautions"]


@dataclass(frozen=True)
class SkipNote:
    """Rows of the input that did not become judgements, and why.

    Parameters
    ----------
    reason : str
        Why the rows were skipped, in plain words.
    count : int
        How many rows.
    rows : tuple of int, default ()
        Their row numbers as a person counts them in the file (the first few suffice).
    """

    reason: str
    count: int
    rows: tuple[int, ...] = ()

    def __str__(self) -> str:
        # several skipped entries of one row (a Label Studio task's predictions) name it
        # once: "rows 1, 1, 2" read as a mistake
        rows = list(dict.fromkeys(self.rows))
        shown = ", ".join(str(r) for r in rows[:5])
        more = f", ... ({self.count} in all)" if self.count > 5 or len(rows) > 5 else ""
        noun = "row" if len(rows) == 1 else "rows"
        where = f" ({noun} {shown}{more})" if self.rows else ""
        return f"{self.count} skipped: {self.reason}{where}"


@dataclass(frozen=True)
class LoadReport:
    """What the loader found and decided, for the user to check.

    Nothing the user gave is dropped silently: every skipped row is in ``skipped``.

    Parameters
    ----------
    source : str, default "<DataFrame>"
        The file name shown to the user.
    format : str, default "dataframe"
        One of :data:`analytics.data.FORMATS`, or ``"dataframe"``.
    layout : str, default "long"
        ``"long"`` (one judgement per row) or ``"wide"`` (one column per annotator).
    layout_reason : str, default ""
        Why that layout and those columns were chosen.
    encoding : str or None, default None
        The text encoding used (None for binary formats and DataFrames).
    columns : dict, default {}
        The columns chosen for each role (``item``, ``annotator``, ``label``, or
        ``annotators`` for wide data).
    n_rows : int, default 0
        Rows (records) read.
    n_judgements : int, default 0
        Judgements kept.
    n_missing : int, default 0
        Empty label cells read as "not labelled".
    skipped : tuple of SkipNote, default ()
        Rows that did not become judgements, by reason.
    kind : str, default ""
        The label kind (a :class:`~analytics.data.kinds.LabelKind` value).
    kind_reason : str, default ""
        Why that kind.
    multilabel_sep : str or None, default None
        The separator label cells were split on, if any.
    n_split : int, default 0
        Label cells that held the separator and were split into label sets.
    duplicates : str, default "error"
        The policy for repeated judgements (one of ``DUPLICATE_POLICIES``).
    n_duplicates : int, default 0
        Repeated judgements found (same annotator, same item).
    tool : str or None, default None
        The annotation tool whose export was recognised, if any.
    categories_declared : bool, default False
        Whether the categories were declared by the caller.
    cautions : tuple of str, default ()
        Guesses and repairs the user should check.
    notes : tuple of str, default ()
        Other decisions (format, delimiter, ...).
    kind_caution : str, default ""
        :data:`~analytics.data.kinds.SCALE_CAUTION` when the loader read three or more
        whole numbers as nominal codes (a 1-5 scale would lose its order); listed by
        :meth:`warnings`.
    """

    source: str = "<DataFrame>"
    format: str = "dataframe"
    layout: str = "long"
    layout_reason: str = ""
    encoding: str | None = None
    columns: dict[str, Any] = field(default_factory=dict)
    n_rows: int = 0
    n_judgements: int = 0
    n_missing: int = 0
    skipped: tuple[SkipNote, ...] = ()
    kind: str = ""
    kind_reason: str = ""
    multilabel_sep: str | None = None
    n_split: int = 0
    duplicates: str = "error"
    n_duplicates: int = 0
    tool: str | None = None
    categories_declared: bool = False
    cautions: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    kind_caution: str = ""

    @property
    def n_skipped(self) -> int:
        """How many rows were skipped, over all reasons."""
        return int(sum(s.count for s in self.skipped))

    def messages(self) -> list[str]:
        """Plain-language lines describing every decision and every skipped row.

        Returns
        -------
        list of str
            One sentence per decision, in the order a reader checks them.
        """
        out = []
        if self.tool:
            out.append(f"Recognised an export of {self.tool}.")
        out.append(f"Read {self.n_rows:,} rows as {self.format.upper()} ({self.layout} form).")
        out.extend(self.notes)
        if self.layout_reason:
            out.append(self.layout_reason)
        if self.encoding and not _unicode(self.encoding):
            out.append(f"The file is not valid UTF-8; it was decoded as {self.encoding}.")
        if self.kind_reason:
            out.append(self.kind_reason)
        if self.multilabel_sep:
            out.append(
                f"{self.n_split:,} label cells were split into label sets on "
                f"{self.multilabel_sep!r}."
            )
        if self.n_missing:
            out.append(
                f"{self.n_missing:,} empty or missing label cells were read as 'not labelled' "
                "(not as a category)."
            )
        if self.n_duplicates:
            action = {
                "first": "kept the first of each",
                "last": "kept the last of each",
                "keep": "kept all of them (repeated judgements)",
            }.get(self.duplicates, "")
            out.append(
                f"{self.n_duplicates:,} repeated judgements (same annotator, same item): {action}."
            )
        out.extend(str(s) for s in self.skipped)
        out.extend(self.cautions)
        return out

    def warnings(self) -> list[str]:
        """Only the lines that say something was skipped, repaired or guessed.

        Returns
        -------
        list of str
            Empty when nothing needs the user's attention.
        """
        out = [str(s) for s in self.skipped] + list(self.cautions)
        if self.kind_caution:
            out.append(self.kind_caution)
        if self.n_duplicates and self.duplicates in ("first", "last"):
            out.append(
                f"{self.n_duplicates:,} repeated judgements were dropped "
                f"(policy '{self.duplicates}')."
            )
        if self.encoding and not _unicode(self.encoding):
            out.append(f"The file was decoded as {self.encoding}, not UTF-8.")
        return out


def _unicode(encoding: str) -> bool:
    """UTF-8, or UTF-16/32 (told by a byte-order mark, read exactly): nothing was guessed, so
    nothing to caution about (Excel's "Unicode Text" had read "decoded as utf-16-le, not
    UTF-8" in yellow)."""
    return encoding.lower().replace("_", "-").startswith(("utf-8", "utf-16", "utf-32", "ascii"))


def missing_token_cautions(
    token_counts: pd.Series, per_category: np.ndarray, categories: pd.Index, column: str
) -> list[str]:
    """Cautions for missing tokens used at least as often as the rarest real category.

    A token such as ``None`` or ``N/A`` that fills as many label cells as a category does
    may be a category (a relation type ``None``, a survey answer ``N/A``).

    Parameters
    ----------
    token_counts : pandas.Series of int
        Label cells read as missing, per token (not counting blank cells).
    per_category : ndarray of int
        Judgements per category.
    categories : pandas.Index
        The categories, in the order of ``per_category``.
    column : str
        The label column, for the message.

    Returns
    -------
    list of str
        One caution per such token, saying how to keep it (``missing=``).

    Examples
    --------
    >>> missing_token_cautions(pd.Series({"none": 5}), np.array([9, 5]),
    ...                        pd.Index(["a", "b"]), "label")[0][:46]
    "'none' was read as missing in 5 label cells of"
    """
    seen = per_category > 0
    if token_counts.empty or not seen.any():
        return []
    rarest = int(np.flatnonzero(seen)[np.argmin(per_category[seen])])
    n_rare = int(per_category[rarest])
    return [
        f"'{tok}' was read as missing in {int(n):,} label cells of '{column}', as often as a "
        f"category (the rarest, '{categories[rarest]}', has {n_rare:,}): if '{tok}' is a real "
        "category, leave it out of the missing-value texts: the Data page's 'Missing-value "
        "texts' box under Columns and parsing, missing= in the library, --missing on the "
        "command line."
        for tok, n in token_counts.items()
        if n >= n_rare
    ]
