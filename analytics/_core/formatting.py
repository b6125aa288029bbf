"""How numbers are written for people: one rule for the pages, the report and the CLI."""

from __future__ import annotations

import math

__all__ = ["format_confidence", "format_number", "format_percent"]


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


def format_number(x: float, digits: int = 3) -> str:
    """A coefficient with ``digits`` decimals, or "—" when it is undefined (NaN).

    Parameters
    ----------
    x : float
        The value.
    digits : int, default 3
        Decimals shown.

    Returns
    -------
    str

    Examples
    --------
    >>> format_number(0.42822), format_number(float("nan"))
    ('0.428', '—')
    """
    x = float(x)
    return f"{x:.{digits}f}" if math.isfinite(x) else "—"


def format_confidence(confidence: float) -> str:
    """A confidence (the paper's alpha) written as a percentage without trailing zeros.

    Parameters
    ----------
    confidence : float
        A share strictly between 0 and 1, e.g. 0.95.

    Returns
    -------
    str
        ``"95%"`` for 0.95, ``"97.5%"`` for 0.975 (``%g``: as many digits as it needs).

    Examples
    --------
    >>> format_confidence(0.95), format_confidence(0.975)
    ('95%', '97.5%')
    """
    return f"{100 * confidence:g}%"
