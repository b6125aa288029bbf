"""The pair of categories annotators confuse most, for the Overview's "merge" advice."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["MERGE_SHARE", "confused_pair"]

#: "Merge categories a and b" is recommended only when that pair holds at least this
#: share of all the confusion between categories.
MERGE_SHARE = 0.5


def confused_pair(fit_result: Any) -> tuple[Any, Any, float] | None:
    """The two categories the annotators confuse most (prevalence-weighted, both ways).

    None with fewer than three categories, or when that pair holds less than
    :data:`MERGE_SHARE` of all the confusion (no single pair stands out).
    """
    theta = np.asarray(fit_result.confusion_array, float)
    if theta.ndim != 3 or theta.shape[1] < 3:
        return None
    weights = fit_result.judgements.reindex(fit_result.confusion.keys()).to_numpy(float)
    weights = weights / weights.sum() if weights.sum() else np.full(len(theta), 1 / len(theta))
    pi = fit_result.prevalence.to_numpy(float)
    mass = np.einsum("j,jkl->kl", weights, theta) * pi[:, None]
    both = mass + mass.T
    np.fill_diagonal(both, 0.0)
    total = both.sum() / 2.0
    k, m = np.unravel_index(int(np.argmax(both)), both.shape)
    if total <= 0 or both[k, m] < MERGE_SHARE * total:  # confusion spread out: no one pair
        return None
    cats = list(fit_result.prevalence.index)
    return cats[k], cats[m], float(both[k, m])
