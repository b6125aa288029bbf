"""Token-level kappa and alpha: spans projected onto tokens, then the usual coefficients.

Every token of a document an annotator completed gets a label from that annotator: the
label of the span covering it, ``O`` outside spans (labels of nested spans covering the
same token are joined with ``+``). Each token is then an item judged by the annotators who
completed its document, and Cohen's kappa (Light's mean over pairs), Fleiss' kappa and
Krippendorff's alpha (nominal) are computed by :mod:`analytics.agreement`.

This is common practice (e.g. Brandsen et al. 2020) and has a known bias, stated with
every result (:data:`TOKEN_CAVEAT`): long spans weigh more than short ones, and the many
``O`` tokens that everybody leaves alone inflate observed agreement and drive chance
agreement, so the value depends on how much unannotated text the documents hold.

References
----------
Brandsen, A., Verberne, S., Wansleeben, M. & Lambers, K. (2020). Creating a dataset for
named entity recognition in the archaeology domain. *LREC*, 4573-4577.
Hripcsak, G. & Rothschild, A. S. (2005). Agreement, the F-measure, and reliability in
information retrieval. *JAMIA* 12(3), 296-298.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analytics.agreement import cohen_kappa, fleiss_kappa, krippendorff_alpha
from analytics.data import Annotations
from analytics.spans.matching import match_units, tokens
from analytics.spans.model import SpanAnnotations, require_spans

__all__ = ["OUTSIDE", "TOKEN_CAVEAT", "token_agreement", "token_annotations"]

OUTSIDE = "O"
TOKEN_CAVEAT = (
    "Token-level coefficients weigh a span by its number of tokens and count every token "
    "outside all spans ('O') as agreement, so long spans and unannotated text pull them up; "
    "compare them only between data sets with similar documents."
)


def token_annotations(spans: SpanAnnotations) -> Annotations:
    """Spans projected onto tokens: one item per token, one judgement per annotator.

    Parameters
    ----------
    spans : SpanAnnotations
        With every document text known (tokens are ``\\w+`` runs and single marks).

    Returns
    -------
    Annotations
        Items ``"<document>#<token number>"``, nominal labels (``O`` outside spans, or
        ``(outside)`` when a span label is itself ``O``).

    Raises
    ------
    ArgumentTypeError
        ``spans`` is not :class:`~analytics.spans.SpanAnnotations`.
    """
    require_spans(spans, "token_annotations")
    table = tokens(spans)
    t_doc = table[0]
    n_tok, n_labels = len(t_doc), max(len(spans.labels), 1)
    units = match_units(spans, "token", table)
    tok = units["lo"].to_numpy() // n_labels
    lab = (
        spans.labels.to_numpy(object)[units["label"].to_numpy()]
        if len(units)
        else np.array([], object)
    )
    marked = pd.DataFrame({"a": units["annotator"].to_numpy(), "t": tok, "label": lab})
    marked = marked.sort_values(["a", "t", "label"], kind="stable")
    many = marked.duplicated(["a", "t"], keep=False).to_numpy()
    if many.any():
        joined = marked[many].groupby(["a", "t"], sort=False)["label"].agg("+".join).reset_index()
        marked = pd.concat([marked[~many], joined], ignore_index=True)
    a_idx, t_idx = np.nonzero(spans.completed.T[:, t_doc])  # (annotator, token) pairs done
    codes = np.zeros(len(a_idx), np.int64)  # 0 is OUTSIDE
    key = a_idx.astype(np.int64) * max(n_tok, 1) + t_idx
    mkey = marked["a"].to_numpy(np.int64) * max(n_tok, 1) + marked["t"].to_numpy(np.int64)
    marked_codes, names = pd.factorize(marked["label"].to_numpy(object), sort=True)
    codes[np.searchsorted(key, mkey)] = marked_codes + 1
    outside = OUTSIDE if OUTSIDE not in set(names) else "(outside)"  # a label may be "O"
    done = spans.completed[t_doc].any(axis=1)  # tokens of documents somebody finished
    used = np.flatnonzero(done)  # (a mask, not np.unique of 3 M pairs: 0.7 s less at 10^4 docs)
    t_number = np.arange(n_tok) - np.searchsorted(t_doc, t_doc, side="left")
    doc_names = spans.items.astype(str).to_numpy(object)[t_doc[used]]
    item_names = pd.Index(doc_names + "#" + t_number[used].astype(str).astype(object))
    return Annotations(
        item_codes=(np.cumsum(done) - 1)[t_idx],
        annotator_codes=a_idx,
        label_codes=codes,
        items=item_names,
        annotators=spans.annotators.astype(str),
        categories=pd.Index([outside, *names], dtype=object),
        kind="nominal",
        name=f"{spans.name} (tokens)",
    )


def token_agreement(spans: SpanAnnotations) -> pd.DataFrame:
    """Cohen's (Light's mean), Fleiss' kappa and Krippendorff's alpha on tokens.

    Parameters
    ----------
    spans : SpanAnnotations
        With every document text known.

    Returns
    -------
    pandas.DataFrame
        ``coefficient, value`` (a :class:`~analytics.agreement.Coefficient`) and ``note``;
        ``attrs["caveat"]`` holds :data:`TOKEN_CAVEAT` and ``attrs["tokens"]`` the number of
        token items.

    Raises
    ------
    ArgumentTypeError
        ``spans`` is not :class:`~analytics.spans.SpanAnnotations`.
    """
    require_spans(spans, "token_agreement")
    ann = token_annotations(spans)
    rows = [
        ("Cohen's kappa (mean over pairs)", cohen_kappa(ann)),
        ("Fleiss' kappa", fleiss_kappa(ann)),
        ("Krippendorff's alpha", krippendorff_alpha(ann)),
    ]
    out = pd.DataFrame(
        {
            "coefficient": [r[0] for r in rows],
            "value": [r[1] for r in rows],
            "note": [r[1].note for r in rows],
        }
    )
    out.attrs["caveat"] = TOKEN_CAVEAT
    out.attrs["tokens"] = ann.n_items
    return out
