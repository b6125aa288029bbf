"""The one exception type for bad annotation data."""

from __future__ import annotations

from collections.abc import Sequence


class AnnotationDataError(ValueError):
    """Raised for annotation data that cannot be read or does not make sense.

    The message always says where the problem is (file, column, rows) and how to
    fix it, so that the app can show it to a person as it is.

    Parameters
    ----------
    problem
        What is wrong, in plain words.
    source
        The file name (or ``"<DataFrame>"``), when known.
    column
        The column involved, when one is.
    rows
        1-based row numbers involved (as a person counts them in the file, the header
        being row 1 for delimited files); only the first few are printed.
    hint
        How to fix it.
    """

    def __init__(
        self,
        problem: str,
        *,
        source: str | None = None,
        column: str | None = None,
        rows: Sequence[int] | None = None,
        hint: str | None = None,
    ) -> None:
        self.problem = problem
        self.source = source
        self.column = column
        self.rows = list(rows) if rows is not None else []
        self.hint = hint
        super().__init__(self._compose())

    def _compose(self) -> str:
        where = []
        if self.source:
            where.append(f"file '{self.source}'")
        if self.column is not None:
            where.append(f"column '{self.column}'")
        if self.rows:
            shown = ", ".join(str(r) for r in self.rows[:5])
            more = f" and {len(self.rows) - 5} more" if len(self.rows) > 5 else ""
            label = "row" if len(self.rows) == 1 else "rows"
            where.append(f"{label} {shown}{more}")
        text = (", ".join(where) + ": " if where else "") + self.problem
        if self.hint:
            text += f" {self.hint}"
        return text
