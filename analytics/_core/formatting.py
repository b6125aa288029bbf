"""How numbers are written for people: one rule for the pages, the report and the CLI."""

from __future__ import annotations

import math

__all__ = ["format_percent"]


def format_percent(x: float, digits: int = 1) -> str:
    """A share in [0, 1] written as a percentage; ``"n/a"`` for NaN or infinity.

    Parameters
    ----------
    x : float
        The share, e.g. 0.571.
    digits : int, default 1
        Digits after the decimal point.

    Returns
    -------
    str
        ``"57.1%"``; ``"n/a"`` when ``x`` is not finite (an undefined statistic).

    Examples
    --------
    >>> format_percent(0.5714)
    '57.1%'
    >>> format_percent(float("nan"))
    'n/a'
    """
    x = float(x)
    return f"{100 * x:.{digits}f}%" if math.isfinite(x) else "n/a"
