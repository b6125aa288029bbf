"""Property tests: no model cares what labels or annotators are called or in which order
the judgements come; posteriors and confusion rows are probability vectors."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analytics import Annotations
from analytics.models import MODELS, fit


@st.composite
def crowds(draw):
    n_items = draw(st.integers(3, 12))
    n_annotators = draw(st.integers(2, 4))
    k = draw(st.integers(2, 3))
    rows = []
    for i in range(n_items):
        who = draw(st.lists(st.integers(0, n_annotators - 1), min_size=2, max_size=3, unique=True))
        rows += [(f"i{i}", f"a{a}", draw(st.integers(0, k - 1))) for a in who]
    frame = pd.DataFrame(rows, columns=["item", "annotator", "label"])
    if frame["label"].nunique() < 2:
        frame.loc[0, "label"] = 1 - frame.loc[0, "label"]
    return frame


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crowds(), st.randoms(use_true_random=False))
def test_renaming_and_reordering_change_nothing(frame, rnd):
    ann = Annotations.from_frame(frame)
    codes = sorted(frame["label"].unique())
    names = [f"c{c}" for c in codes]
    rnd.shuffle(names)
    rename = dict(zip(codes, names, strict=True))
    order = list(range(len(frame)))
    rnd.shuffle(order)
    other_frame = frame.iloc[order].assign(
        label=frame["label"].iloc[order].map(rename),
        annotator="w" + frame["annotator"].iloc[order],
    )
    other = Annotations.from_frame(other_frame)
    for model in MODELS:
        # one deterministic start, few iterations: the same steps on renamed data
        opts = {} if model == "majority" else {"init": "majority", "max_iter": 60}
        a, b = fit(ann, model, **opts), fit(other, model, **opts)
        cols = [rename[c] for c in a.categories]
        pa = a.posteriors.to_numpy()
        pb = b.posteriors.reindex(a.items)[cols].to_numpy()
        # summation order can move the tol-based stop by an iteration: equal to 1e-4
        np.testing.assert_allclose(pa, pb, atol=1e-4, err_msg=model)
        np.testing.assert_allclose(pa.sum(axis=1), 1.0, atol=1e-9)
        assert ((pa >= 0) & (pa <= 1)).all()
        theta = a.confusion_array
        np.testing.assert_allclose(theta.sum(axis=2), 1.0, atol=1e-9, err_msg=model)
        assert (theta >= 0).all() and (a.annotator_accuracy.between(0, 1)).all()
