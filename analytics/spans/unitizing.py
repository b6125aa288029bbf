"""Krippendorff's unitizing alpha (alpha_U): agreement on where units are and what they are.

The documents every annotator completed are laid end to end, in the sorted order of their
names (so that the file's order of rows or documents cannot change the value), into one
continuum of length ``L`` (characters), as Krippendorff's continuum of ``m`` observers. For a label
``c`` each annotator's text splits into their units of ``c`` and the gaps between them.
Two annotators ``i``, ``j`` disagree on a pair of sections ``g`` (of ``i``) and ``h`` (of
``j``) by

- ``(b_g - b_h)^2 + (e_g - e_h)^2`` when both are units and they overlap;
- ``l_g^2`` when ``g`` is a unit lying wholly in a gap ``h`` of ``j`` (and ``l_h^2``
  the other way round);
- ``0`` otherwise (a gap against a gap, or partial overlaps of a unit and a gap).

Observed disagreement ``D_o(c) = sum over ordered pairs i != j of the sums above /
(m (m - 1) L^2)``. Expected disagreement, over all ways the same units could have been
placed (Krippendorff 2004, p. 253-254; as in DKPro Agreement)::

    D_e(c) = 2 / L * sum over units u of c [ (N_c - 1) (2 l_u^3 - 3 l_u^2 + l_u) / 3
                                            + l_u^2 * sum over gaps g with l_g >= l_u
                                                      of (l_g - l_u + 1) ]
             / ( m L (m L - 1) - sum over units u of c of l_u (l_u - 1) )

with ``N_c`` the units of ``c`` of all annotators and the gaps those of all annotators.
``alpha_U(c) = 1 - D_o(c) / D_e(c)``. Over all labels the value is **pooled**, not the
mean of the per-label alphas: ``alpha_U = 1 - sum_c D_o(c) / sum_c D_e(c)``, both
disagreements summed over the labels before dividing (Krippendorff 2004, p. 254, where
``1 - 0.0144 / (0.0532 + 0.0490)`` gives the overall value of the worked example; DKPro's
``KrippendorffAlphaUnitizingAgreement``). A label with more room for disagreement (a
larger ``D_e``) weighs more, so the pooled value can lie well away from the mean of the
per-label values.

References
----------
Krippendorff, K. (1995). On the reliability of unitizing continuous data. *Sociological
Methodology* 25, 47-76.
Krippendorff, K. (2004). Measuring the reliability of qualitative text analysis data.
*Quality & Quantity* 38, 787-800; and *Content Analysis* (2nd ed.), Sage, ch. 11.
Meyer, C. M. et al. (2014). DKPro Agreement: an open-source Java library for measuring
inter-rater agreement. *COLING 2014: System Demonstrations*, 105-109.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analytics._core.formatting import format_count
from analytics._core.ids import name_order
from analytics.agreement import Coefficient
from analytics.spans.model import SpanAnnotations, require_spans

__all__ = ["observed_expected", "unitizing_alpha", "unitizing_table"]

NO_COMMON = (
    "no document was completed by every annotator, and alpha_U compares annotators on "
    "one shared continuum"
)
FEW_ANNOTATORS = "alpha_U needs at least two annotators"
NO_UNITS = "no annotator marked a span of this label in the documents all completed"
NO_SPANS = "no annotator marked any span in the documents all completed"


def _overlap_sum(
    b1: np.ndarray, e1: np.ndarray, b2: np.ndarray, e2: np.ndarray
) -> tuple[float, np.ndarray]:
    """Sum over overlapping unit pairs of the squared boundary differences, and which
    units of side 1 overlap nothing on side 2 (both sides sorted and disjoint)."""
    lo = np.searchsorted(e2, b1, side="right")
    hi = np.searchsorted(b2, e1, side="left")
    count = np.maximum(hi - lo, 0)
    k = np.repeat(lo, count) + (np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count))
    i = np.repeat(np.arange(len(b1)), count)
    d = (b1[i] - b2[k]).astype(float) ** 2 + (e1[i] - e2[k]).astype(float) ** 2
    return float(d.sum()), count == 0


def observed_expected(
    units: list[tuple[np.ndarray, np.ndarray]], length: int
) -> tuple[float, float, int]:
    """``(D_o, D_e, N_c)`` of one label from each annotator's sorted disjoint units.

    Parameters
    ----------
    units : list of (starts, ends)
        One entry per annotator: the units of the label on the continuum ``[0, length)``.
    length : int
        ``L``, the continuum's length.
    """
    m = len(units)
    big_l = float(length)
    observed = 0.0
    for i in range(m):
        for j in range(i + 1, m):
            (b1, e1), (b2, e2) = units[i], units[j]
            both, alone1 = _overlap_sum(b1, e1, b2, e2)
            _, alone2 = _overlap_sum(b2, e2, b1, e1)
            lone = ((e1 - b1)[alone1].astype(float) ** 2).sum()
            lone += ((e2 - b2)[alone2].astype(float) ** 2).sum()
            observed += both + lone
    d_o = 2.0 * observed / (m * (m - 1) * big_l**2)
    lengths = np.concatenate([e - b for b, e in units]).astype(float)
    n_c = len(lengths)
    if n_c == 0:
        return d_o, 0.0, 0
    gaps = []
    for b, e in units:
        edges_lo = np.concatenate([[0], e])
        edges_hi = np.concatenate([b, [length]])
        g = edges_hi - edges_lo
        gaps.append(g[g > 0])
    gap = np.sort(np.concatenate(gaps).astype(float))
    above = np.concatenate([np.cumsum(gap[::-1])[::-1], [0.0]])  # sum of gaps from index k on
    first = np.searchsorted(gap, lengths, side="left")  # gaps >= l start here
    n_fit = len(gap) - first
    fits = above[first] - n_fit * (lengths - 1.0)
    total = (
        (n_c - 1) * (2 * lengths**3 - 3 * lengths**2 + lengths) / 3.0 + lengths**2 * fits
    ).sum()
    denom = m * big_l * (m * big_l - 1) - (lengths * (lengths - 1)).sum()
    return d_o, 2.0 / big_l * total / denom, n_c


def unitizing_table(spans: SpanAnnotations) -> tuple[pd.DataFrame, str, int]:
    """Per label: ``label, observed, expected, units, alpha`` (Coefficient), on the
    documents every annotator completed; also the note shared by all and the number of
    documents used."""
    rows: list[dict] = []
    if spans.n_annotators < 2:
        return pd.DataFrame(rows, columns=_COLUMNS), FEW_ANNOTATORS, 0
    common = spans.completed.all(axis=1)
    n_docs = int(common.sum())
    if not n_docs:
        return pd.DataFrame(rows, columns=_COLUMNS), NO_COMMON, 0
    lengths = np.where(common, spans.lengths(), 0)
    # laid end to end in the sorted order of the document names, not the file's order: a
    # gap at the end of one document runs on into the next, so the order changes D_e
    # (the sample read 0.6998 in file order and 0.7002 reversed); sorted, the value is a
    # function of the data alone, on Krippendorff's one continuum
    order = name_order(spans.items)
    offset = np.empty(len(lengths), np.int64)
    offset[order] = np.concatenate([[0], np.cumsum(lengths[order])[:-1]])
    total = int(lengths.sum())
    note = (
        f"on the {n_docs:,} documents every annotator completed ({total:,} characters)"
        if n_docs != 1
        else f"on the one document every annotator completed ({total:,} characters)"
    )
    if spans.n_items > n_docs:
        left = spans.n_items - n_docs
        note += f"; {format_count(left, 'document')} not completed by all {'is' if left == 1 else 'are'} left out"
    if not spans.texts_known:
        note += (
            "; some texts are unknown, so those documents are taken to end at their last "
            "span (expected disagreement, and so alpha_U, depend on the length)"
        )
    keep = common[spans.item_code]
    pos_b = (offset[spans.item_code] + spans.starts)[keep]
    pos_e = (offset[spans.item_code] + spans.ends)[keep]
    ann, lab = spans.annotator_code[keep], spans.label_code[keep]
    for c, name in enumerate(spans.labels):
        per = []
        for a in range(spans.n_annotators):
            sel = (lab == c) & (ann == a)
            order = np.argsort(pos_b[sel], kind="stable")
            per.append((pos_b[sel][order], pos_e[sel][order]))
        d_o, d_e, n_c = observed_expected(per, total)
        if d_e > 0:
            alpha = Coefficient(1.0 - d_o / d_e, note, n_docs)
        else:
            alpha = Coefficient(float("nan"), NO_UNITS, n_docs)
        rows.append({"label": name, "observed": d_o, "expected": d_e, "units": n_c, "alpha": alpha})
    return pd.DataFrame(rows, columns=_COLUMNS), note, n_docs


_COLUMNS = ["label", "observed", "expected", "units", "alpha"]


def unitizing_alpha(
    spans: SpanAnnotations, *, by_label: bool = False
) -> Coefficient | pd.DataFrame:
    """Krippendorff's alpha_U for span annotations.

    Parameters
    ----------
    spans : SpanAnnotations
        From :func:`analytics.spans.load_spans`. Character offsets are the continuum's
        positions; documents every annotator completed are concatenated in the sorted
        order of their names.
    by_label : bool, default False
        One row per label instead of the overall coefficient.

    Returns
    -------
    Coefficient or pandas.DataFrame
        Overall: pooled over the labels, ``1 - sum_c D_o(c) / sum_c D_e(c)`` (both
        disagreements summed over the labels, not the mean of the per-label alphas), as
        a :class:`Coefficient` (NaN with a reason when fewer than two annotators, no
        document completed by all, or no span). ``by_label``: ``label, observed,
        expected, units, alpha``.

    Raises
    ------
    ArgumentTypeError
        ``spans`` is not :class:`~analytics.spans.SpanAnnotations`.

    Notes
    -----
    The formulas are in the module docstring. Spans of one label by one annotator never
    overlap (the loader refuses them), as alpha_U requires.

    Examples
    --------
    Krippendorff's (2004, p. 254) example, two observers on the continuum [150, 450)
    (published: alpha_c = 0.7286, alpha_k = 1, alpha_U = 0.8591, the last from
    D_o and D_e rounded to four decimals, 1 - 0.0144 / (0.0532 + 0.0490); unrounded it
    is 0.8587, as DKPro Agreement's test allows):

    >>> import pandas as pd
    >>> from analytics.spans import load_spans
    >>> rows = [(0, 225, 295, "c"), (0, 370, 400, "c"), (1, 220, 300, "c"),
    ...         (1, 355, 375, "c"), (1, 400, 420, "c"), (0, 180, 240, "k"),
    ...         (0, 300, 350, "k"), (1, 180, 240, "k"), (1, 300, 350, "k")]
    >>> df = pd.DataFrame([("doc", f"obs{a}", s - 150, e - 150, c) for a, s, e, c in rows],
    ...                   columns=["item", "annotator", "start", "end", "label"])
    >>> spans = load_spans(df, text={"doc": "x" * 300})
    >>> round(float(unitizing_alpha(spans)), 4)
    0.8587
    >>> table = unitizing_alpha(spans, by_label=True)
    >>> table["alpha"].round(4).tolist()
    [0.7286, 1.0]

    The overall value pools the labels; it is not the mean of the two (0.8643):

    >>> round(float(1 - table["observed"].sum() / table["expected"].sum()), 4)
    0.8587
    """
    require_spans(spans, "unitizing_alpha")
    table, note, n_docs = unitizing_table(spans)
    if by_label:
        return table
    if not len(table):  # too few annotators or common documents (the note says), or no span
        return Coefficient(
            float("nan"),
            f"{NO_SPANS} ({format_count(n_docs, 'document')})" if n_docs else note,
            n_docs,
        )
    d_o, d_e = table["observed"].sum(), table["expected"].sum()  # pooled, as in the paper
    if not d_e > 0:
        return Coefficient(float("nan"), NO_UNITS, n_docs)
    return Coefficient(1.0 - d_o / d_e, f"{note}; {_pooled_note(len(table))}", n_docs)


def _pooled_note(n_labels: int) -> str:
    """How the overall alpha_U combines the labels, in plain words (for its caption).

    Parameters
    ----------
    n_labels : int
        The number of labels pooled.

    Returns
    -------
    str
        E.g. "pooled over the 4 labels: one minus observed over expected disagreement,
        each summed over the labels (not the mean of the per-label values)".
    """
    if n_labels == 1:
        return "one label, so the same as its own alpha_U"
    return (
        f"pooled over the {n_labels} labels: one minus observed over expected disagreement, "
        "each summed over the labels (not the mean of the per-label values)"
    )
