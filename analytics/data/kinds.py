"""What a label is: :class:`LabelKind`.

The kind decides the sensible distances between labels (nominal: same or different;
ordinal: ranks; numeric: differences; multi-label: set distances).

>>> LabelKind.parse("Ordinal")
<LabelKind.ORDINAL: 'ordinal'>
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from analytics._core.errors import AnnotationDataError
from analytics._core.formatting import format_count

__all__ = ["MAX_CODES", "SCALE_CAUTION", "LabelKind", "infer_kind", "on_a_scale", "refuse_scale"]

SCALE_CAUTION = (
    "The labels are whole numbers and were read as nominal codes: every disagreement then "
    "counts the same (4 against 5 as much as 1 against 5). If the numbers are a scale "
    "(ratings), choose the label kind ordinal (or numeric): Label kind under Columns and "
    'parsing on the Data page, kind="ordinal" in the library, --kind ordinal on the command '
    "line."
)
"""The load caution when three or more whole numbers were read as nominal codes (with two,
0/1, every distance gives the same agreement)."""


class LabelKind(StrEnum):
    """What a label is, which decides the sensible distances between labels.

    Members are ``NOMINAL``, ``ORDINAL``, ``NUMERIC`` (interval or ratio) and
    ``MULTILABEL`` (each judgement a set of categories).

    Parameters
    ----------
    value : str
        ``"nominal"``, ``"ordinal"``, ``"numeric"`` or ``"multilabel"`` (exact, lower
        case; :meth:`parse` also takes other cases and gives a readable error).

    Returns
    -------
    LabelKind
        The member with that value (a ``str`` subclass, equal to its value).
    """

    NOMINAL = "nominal"
    ORDINAL = "ordinal"
    NUMERIC = "numeric"  # interval or ratio
    MULTILABEL = "multilabel"

    @classmethod
    def parse(cls, value: str | LabelKind) -> LabelKind:
        """The kind named by ``value`` (case-insensitive).

        Parameters
        ----------
        value : str or LabelKind
            ``"nominal"``, ``"ordinal"``, ``"numeric"`` or ``"multilabel"``.

        Returns
        -------
        LabelKind

        Raises
        ------
        AnnotationDataError
            For any other name; the message lists the allowed ones.

        Examples
        --------
        >>> LabelKind.parse("NUMERIC") is LabelKind.NUMERIC
        True
        """
        try:
            return cls(value.value if isinstance(value, LabelKind) else str(value).lower())
        except ValueError:
            allowed = ", ".join(k.value for k in cls)
            raise AnnotationDataError(
                f"unknown label kind {value!r}.", hint=f"Use one of: {allowed}."
            ) from None


#: Whole-number labels with at most this many values are read as category codes.
MAX_CODES = 12


def on_a_scale(ann: Any) -> bool:
    """Numeric labels of more than :data:`MAX_CODES` distinct values: scores on a scale,
    not categories (the rule the annotator models and the Overview share).

    Parameters
    ----------
    ann : Annotations or LazyAnnotations
        Anything with ``kind`` and ``n_categories``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> on_a_scale(SimpleNamespace(kind=LabelKind.NUMERIC, n_categories=13))
    True
    >>> on_a_scale(SimpleNamespace(kind=LabelKind.NOMINAL, n_categories=50))
    False
    """
    return ann.kind is LabelKind.NUMERIC and ann.n_categories > MAX_CODES


def refuse_scale(ann: Any) -> None:
    """Refuse numeric labels of more than :data:`~analytics.data.MAX_CODES` distinct values.

    ``ann``: :class:`~analytics.data.Annotations`, or judgements held by an engine (only
    the label kind and the number of categories are read).

    Every annotator model reads a label as one of K categories, a judgement as right or
    wrong, and an annotator as a K x K confusion matrix. Scores on a scale (47.3, 51.0,
    ...) have no such categories: 200 items rated by 5 annotators on a 0-100 scale in
    steps of 0.1 (473 values) took ``fit(model="auto")`` 197 s to call nearly every item
    unsure, and majority vote picks among values no two annotators gave. The Overview
    leaves its model answers undefined on the same data
    (:func:`analytics.overview.scale_reason`), by the same rule (:func:`on_a_scale`);
    :func:`analytics.dawid_skene.fit` and every model of :mod:`analytics.models` call it.

    Raises
    ------
    AnnotationDataError
        Saying why, and how to read the values as categories if they are.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> ann = SimpleNamespace(kind=LabelKind.NUMERIC, n_categories=30)
    >>> try:
    ...     refuse_scale(ann)
    ... except AnnotationDataError as exc:
    ...     print(exc.problem.split(", and")[0])
    the labels are numbers on a scale (30 distinct values)
    """
    if not on_a_scale(ann):
        return
    raise AnnotationDataError(
        f"the labels are numbers on a scale ({format_count(ann.n_categories, 'distinct value')}"
        "), and the annotator models compare labels as categories (a label is exactly "
        "right or wrong), which a scale does not have.",
        # kind="ordinal" in double quotes: the command line's wording (cli_words) turns
        # kind='ordinal' into --kind ordinal, which inside a Python call read as nonsense
        hint="For scores, agreement on the scale is the measure (Krippendorff's interval "
        "alpha: the Agreement page, or the agreement command). If the values are "
        "categories, load them as categories: the label kind ordinal or nominal (Label "
        'kind on the Data page, kind="ordinal" in Python, --kind ordinal on the command '
        "line).",
    )


def infer_kind(categories: list, numeric: bool) -> tuple[LabelKind, str]:
    """The label kind of undeclared single labels, and the rule used, in plain words.

    Text labels are nominal; up to 12 whole numbers are nominal codes; other numbers
    are numeric.

    Parameters
    ----------
    categories : list
        The distinct labels.
    numeric : bool
        Whether the labels were read as numbers.

    Returns
    -------
    kind : LabelKind
    reason : str

    Examples
    --------
    >>> infer_kind([1, 2, 3], numeric=True)[0], infer_kind(["a"], numeric=False)[0]
    (<LabelKind.NOMINAL: 'nominal'>, <LabelKind.NOMINAL: 'nominal'>)
    """
    if not numeric:
        return LabelKind.NOMINAL, "Label kind: nominal (text labels)."
    if all(float(c).is_integer() for c in categories) and len(categories) <= MAX_CODES:
        return (
            LabelKind.NOMINAL,
            f"Label kind: nominal ({len(categories)} whole-number codes read as categories); "
            "choose ordinal or numeric if the numbers are a scale.",
        )
    return (
        LabelKind.NUMERIC,
        f"Label kind: numeric ({len(categories)} distinct numbers); choose nominal or ordinal "
        "if they are codes.",
    )
