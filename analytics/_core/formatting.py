"""How numbers and names are written for people: one rule for the pages, the report and the CLI.

Numbers: :func:`format_percent`, :func:`format_number`, :func:`format_confidence`, and
:func:`format_judged_value` for a value printed beside a verdict with thresholds.
Names in figures: plotly renders a subset of HTML (``<a href>``, ``<b>``, ``<span style>``,
``<br>``, entities) in titles, axis and tick labels, legend names, text, annotations and the
values a hovertemplate substitutes. Every user string (a category, an annotator, an item, a
data set's name) goes into a figure through :func:`plotly_text` or :func:`plotly_labels`,
so it is drawn as exactly that text.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Decimal, localcontext

__all__ = [
    "format_confidence",
    "format_count",
    "format_judged_value",
    "format_number",
    "format_p_value",
    "format_percent",
    "plotly_labels",
    "plotly_text",
]


def format_count(n: int, noun: str, plural: str | None = None) -> str:
    """A count with its noun in the right number: ``"1 annotator"``, ``"1,003 items"``.

    Parameters
    ----------
    n : int
        The count.
    noun : str
        The singular noun.
    plural : str or None, default None
        The plural noun; None adds an "s".

    Returns
    -------
    str

    Examples
    --------
    >>> format_count(1, "annotator"), format_count(1003, "item"), format_count(0, "category", "categories")
    ('1 annotator', '1,003 items', '0 categories')
    """
    word = noun if n == 1 else (plural or f"{noun}s")
    return f"{n:,} {word}"


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
        ``"57.1%"``; ``"n/a"`` when ``x`` is not finite (an undefined statistic). A share
        that is not exactly 1 (or 0) but would round to it is written ``">99.9%"``
        (``"<0.1%"``): an expected accuracy of 0.99996 read "100.0%", which says certain.

    Notes
    -----
    The float's exact decimal value is rounded (half to even), never ``100 * x`` (a second
    rounding): 0.9275 is stored as 0.92749999999999999112, so it reads 92.7% wherever it
    is shown; Python's ``f"{x:.1%}"`` multiplies first and reads 92.8%.

    Examples
    --------
    >>> format_percent(0.5714)
    '57.1%'
    >>> format_percent(float("nan"))
    'n/a'
    >>> format_percent(0.99996), format_percent(1.0), format_percent(0.00002)
    ('>99.9%', '100.0%', '<0.1%')
    >>> format_percent(742 / 800)  # 0.9275 exactly in decimal, just below it as a float
    '92.7%'
    """
    x = float(x)
    if not math.isfinite(x):
        return "n/a"
    exact = (Decimal(x) * 100).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN)
    text = f"{exact + 0:.{digits}f}%"  # + 0: no "-0.0%"
    step = 10.0**-digits
    if 0 < x < 1 and text == f"{100:.{digits}f}%":
        return f">{100 - step:.{digits}f}%"
    if 0 < x < 1 and text == f"{0:.{digits}f}%":
        return f"<{step:.{digits}f}%"
    return text


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
    >>> format_number(0.42822), format_number(float("nan")), format_number(-0.0000001)
    ('0.428', '—', '0.000')
    """
    x = float(x)
    # + 0.0 turns the -0.0 that rounding leaves of a tiny negative into 0.0 ("-0.000")
    return f"{round(x, digits) + 0.0:.{digits}f}" if math.isfinite(x) else "—"


def _side(x: Decimal, threshold: Decimal) -> int:
    return (x > threshold) - (x < threshold)


#: How near a threshold a value counts as on it: float error is about 1e-16 (0.1 + 0.7 is
#: 0.7999999999999999), while a real difference of 1e-10 stays a difference.
EDGE_TOLERANCE = 1e-12


def snap_to_edges(x: float, edges: Iterable[float]) -> float:
    """``x``, or the edge (threshold) it lies within float error of.

    A verdict or a band compares a value with thresholds: 0.39999999999999997 (an exact
    0.4 computed in floats) must read as 0.4 does, not as the band below it.

    Parameters
    ----------
    x : float
        The value.
    edges : iterable of float
        The thresholds.

    Returns
    -------
    float
        The edge when ``|x - edge| <= EDGE_TOLERANCE * max(1, |edge|)``, else ``x``.

    Examples
    --------
    >>> snap_to_edges(0.1 + 0.7, [0.8, 0.667]), snap_to_edges(0.6670000001, [0.8, 0.667])
    (0.8, 0.6670000001)
    """
    x = float(x)
    for edge in edges:
        edge = float(edge)
        if math.isfinite(x) and abs(x - edge) <= EDGE_TOLERANCE * max(1.0, abs(edge)):
            return edge
    return x


def format_judged_value(
    x: float,
    thresholds: Iterable[float],
    digits: int = 3,
    max_digits: int = 6,
    percent: bool = False,
) -> str:
    """A value with ``digits`` decimals, more when rounding would misplace it at a threshold.

    A verdict beside a number ("bad: below 0.667") must not be contradicted by the number's
    rounding: 2/3 rounds to 0.667, which reads as *at* the threshold. The value gets one
    more decimal at a time, up to ``max_digits``, until the shown number lies on the same
    side of every threshold as the value (or on it, when the value is on it); at
    ``max_digits`` it is rounded toward its own side.

    Parameters
    ----------
    x : float
        The value (a share when ``percent``).
    thresholds : iterable of float
        The thresholds of the rule that judges it (shares when ``percent``).
    digits : int, default 3
        The usual decimals (of the percentage when ``percent``).
    max_digits : int, default 6
        The most decimals shown.
    percent : bool, default False
        Write ``x`` as a percentage (``"15.0%"``).

    Returns
    -------
    str
        ``"n/a"`` when ``x`` is not finite.

    Examples
    --------
    >>> format_judged_value(2 / 3, [0.8, 0.667]), format_judged_value(0.7, [0.8, 0.667])
    ('0.6667', '0.700')
    >>> format_judged_value(0.7999, [0.8, 0.667]), format_judged_value(0.8, [0.8, 0.667])
    ('0.7999', '0.800')
    >>> format_judged_value(0.1504, [0.05, 0.15], digits=1, max_digits=4, percent=True)
    '15.04%'
    """
    thresholds = list(thresholds)
    x = snap_to_edges(x, thresholds)  # float error at a threshold is the threshold
    if not math.isfinite(x):
        return "n/a"
    with localcontext() as ctx:
        ctx.prec = 400  # any float, quantized to a few decimals, fits
        scale = Decimal(100) if percent else Decimal(1)
        value = Decimal(repr(x)) * scale
        limits = [Decimal(repr(float(t))) * scale for t in thresholds]
        suffix = "%" if percent else ""
        shown = value
        for d in range(digits, max(digits, max_digits) + 1):
            shown = value.quantize(Decimal(1).scaleb(-d), rounding=ROUND_HALF_EVEN)
            wrong = [t for t in limits if _side(shown, t) != _side(value, t)]
            if not wrong:
                return f"{shown}{suffix}"
        # still at (or across) a threshold: round toward the value's own side of it
        toward = ROUND_FLOOR if value < wrong[0] else ROUND_CEILING
        shown = value.quantize(Decimal(1).scaleb(-max(digits, max_digits)), rounding=toward)
        return f"{shown}{suffix}"


def format_p_value(p: float, missing: str = "–") -> str:
    """A p-value for people: three decimals, ``"< 0.001"`` below that (not ``1.7e-120``).

    Parameters
    ----------
    p : float or None
        The p-value.
    missing : str, default "–"
        What is written for a p-value that is None, NaN or infinite (none was computed).

    Returns
    -------
    str
        ``"0.034"``, ``"< 0.001"``, or ``missing``.

    Examples
    --------
    >>> format_p_value(0.0342), format_p_value(1.658e-120), format_p_value(float("nan"))
    ('0.034', '< 0.001', '–')
    """
    if p is None or not math.isfinite(p):
        return missing
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


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


def plotly_text(value: object) -> str:
    """``value`` as text that plotly draws literally, never as HTML.

    ``&``, ``<`` and ``>`` become ``&amp;``, ``&lt;`` and ``&gt;``, the entities plotly
    turns back into those characters; quotes need nothing (plotly reads them only inside
    a tag).

    Parameters
    ----------
    value : object
        Any value; it is written as ``str(value)``.

    Returns
    -------
    str

    Examples
    --------
    >>> plotly_text("<a href='https://example.com'>A & B</a>")
    "&lt;a href='https://example.com'&gt;A &amp; B&lt;/a&gt;"
    """
    return html.escape(str(value), quote=False)


def plotly_labels(values: Iterable) -> list:
    """Category, annotator or item names for a figure's axis, legend or hover.

    Strings go through :func:`plotly_text`; numbers (ordinal or numeric categories, integer
    ids) stay numbers, so an axis of numbers keeps its number type.

    Parameters
    ----------
    values : iterable
        The names, e.g. ``ann.categories`` or a table's index.

    Returns
    -------
    list

    Examples
    --------
    >>> plotly_labels(["<b>x</b>", 3, 1.5])
    ['&lt;b&gt;x&lt;/b&gt;', 3, 1.5]
    """
    return [plotly_text(v) if isinstance(v, str) else v for v in values]
