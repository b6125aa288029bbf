"""The result of :func:`~analytics.noise.noise_from_annotations`: the bound and its steps.

Kept apart from the computation (:mod:`analytics.noise.from_annotations`) so that both stay
small; the engines (:mod:`analytics.noise.on_engine`) build the same result.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

import numpy as np
import pandas as pd

from analytics._core.validation import check_confidence
from analytics.noise.bound import NoiseBound, noise_bound

__all__ = ["MULTILABEL_SHORT", "AnnotationNoise"]

MULTILABEL_SHORT = (
    "Multi-label data: each distinct label set is one category; annotators agree only on "
    "exactly the same set."
)


@dataclass(frozen=True, eq=False)
class AnnotationNoise(NoiseBound):
    """:class:`~analytics.noise.NoiseBound` on loaded data, with every intermediate step.

    Built by :func:`noise_from_annotations`. Besides the attributes of
    :class:`~analytics.noise.NoiseBound`:

    Attributes
    ----------
    annotators : tuple
        The annotators used.
    n_excluded : int
        Items judged by fewer than two of them (left out).
    rates : pandas.DataFrame
        Annotators x categories: each annotator's category rates on disagreed items
        (footnote 3), with a column ``disagreed judged`` (how many they judged).
    items : pandas.DataFrame
        One row per item taking part: ``item, status ('agreed' | 'disagreed'), label
        (the agreed label, empty when disagreed), annotators, p``.
    p_min, p_max : float
        Range of the per-item chance agreement (``p`` is the mean over items).
    uneven : bool
        True when p differs between items and the per-item generalisation was used.
    multilabel : bool
        True for multi-label data: each distinct label set was one category (said in
        ``notes`` and in :meth:`explain`).

    References
    ----------
    Beigman Klebanov, B. & Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4): 495-503. Equation (1);
    footnote 3 for the rates on hard items.
    """

    annotators: tuple = ()
    n_excluded: int = 0
    rates: pd.DataFrame = field(default_factory=pd.DataFrame)
    items: pd.DataFrame = field(default_factory=pd.DataFrame)
    p_min: float = float("nan")
    p_max: float = float("nan")
    uneven: bool = False
    multilabel: bool = False
    full_pmf: np.ndarray | None = field(default=None, repr=False)
    pmf_offset: int = 0

    def at_confidence(self, confidence: float) -> AnnotationNoise:
        """The same data read at another confidence, without estimating again.

        The posterior of the hidden hard items does not depend on the confidence (only
        where its tail is cut does), so the rates, the per-item p and the posterior are
        reused: equation (1) directly for one p, or the kept per-item posterior
        (:attr:`full_pmf`) for uneven coverage. Equals ``noise_from_annotations(ann,
        confidence, ...)`` on the same data.

        Parameters
        ----------
        confidence : float
            The new confidence, strictly between 0 and 1.

        Returns
        -------
        AnnotationNoise
        """
        confidence = check_confidence(confidence)
        if not self.ok:
            return replace(self, confidence=confidence)
        if self.uneven and self.full_pmf is not None:
            bound = NoiseBound.from_posterior(
                self.n_items,
                self.n_disagreed,
                self.p,
                confidence,
                self.pmf_offset,
                self.full_pmf,
            )
        else:
            bound = noise_bound(self.n_items, self.n_disagreed, self.p, confidence)
        kept = ("prior", "method", "reason", "notes")
        return replace(
            self,
            **{f.name: getattr(bound, f.name) for f in fields(NoiseBound) if f.name not in kept},
        )

    def explain(self, shown: str | None = None) -> str:
        """The bound's sentence, plus what was left out (and, for multi-label data, how
        label sets were compared).

        Parameters
        ----------
        shown : str or None, default None
            The noise bound as printed beside its verdict (see :meth:`NoiseBound.explain`).
        """
        text = super().explain(shown)
        if self.multilabel:
            text += f" ({MULTILABEL_SHORT})"
        if self.n_excluded:
            what = "item" if self.n_excluded == 1 else "items"
            text += (
                f" ({self.n_excluded:,} {what} judged by fewer than two of the annotators used "
                "left out.)"
            )
        return text

    def agreed_items(self) -> pd.DataFrame:
        """The agreed items with their label: the subset whose noise this result bounds.

        Teams often take these as their gold standard; up to ``gamma`` of them may be
        coin-flips (see :meth:`explain`). Not to be confused with the Dawid-Skene model's
        labels (:func:`analytics.dawid_skene.model_labels_table`) or the multi-label gold
        standard of label sets (:func:`analytics.multilabel.gold_standard`).

        Returns
        -------
        pandas.DataFrame
            Columns ``item, label, annotators, p``: one row per agreed item.
        """
        if self.items.empty:
            return pd.DataFrame(columns=["item", "label", "annotators", "p"])
        gold = self.items[self.items["status"] == "agreed"]
        return gold.drop(columns="status").reset_index(drop=True)
