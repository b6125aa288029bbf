"""The expert-weighted majority gold standard of label sets: Algorithm 1 of Bhowmick et al.

One of three "gold" results in Concord, told apart by their names: this
:class:`LabelSetGoldStandard` (a label *set* per item, decided category by category by
majority vote, ties broken by the annotators' expert coder index); the gold labels of
:mod:`analytics.dawid_skene` (one label per item, the most probable under a fitted model of
the annotators' errors); and the agreed subset of :mod:`analytics.noise` (the items all
annotators agreed on, taken as gold). Import from :mod:`analytics.multilabel`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analytics.data import Annotations, as_annotations, separator_for
from analytics.multilabel.pairs import judgement_pairs

__all__ = ["LabelSetGoldStandard", "gold_standard"]


@dataclass(frozen=True)
class LabelSetGoldStandard:
    """A gold standard of label sets by Algorithm 1 of Bhowmick et al. (2008): the result of
    :func:`gold_standard`.

    Each item gets the set of categories most of its annotators gave it, ties broken by the
    expert coder index. Not a model estimate: unlike the gold labels of Dawid-Skene
    (:func:`analytics.dawid_skene.fit`) it has no probabilities, and an item may get
    several categories or none.

    Attributes
    ----------
    labels : Series
        Item -> frozenset of the categories assigned in the gold standard.
    matrix : DataFrame
        Items x categories of bool (the same decisions).
    expert_index : Series
        Annotator -> final expert coder index rho (how many majority decisions they sided with).
    ties : DataFrame
        One row per (item, category) decision that was a tie between assigners and
        non-assigners: ``item``, ``category``, ``n_assigned``, ``n_not_assigned``,
        ``rho_assigned``, ``rho_not_assigned`` (summed expert indices at that moment),
        ``assigned`` and ``outcome``: "tie-broken" (the expert indices differed) or
        "unresolved" (they were equal, so by Algorithm 1 the category is not assigned).

    See :func:`gold_standard` for the algorithm and its reference.
    """

    labels: pd.Series
    matrix: pd.DataFrame
    expert_index: pd.Series
    ties: pd.DataFrame

    @property
    def tie_broken(self) -> pd.DataFrame:
        """Tied decisions settled by the expert coder index."""
        return self.ties[self.ties["outcome"] == "tie-broken"].reset_index(drop=True)

    @property
    def unresolved(self) -> pd.DataFrame:
        """Tied decisions the expert index could not settle (left unassigned)."""
        return self.ties[self.ties["outcome"] == "unresolved"].reset_index(drop=True)

    def to_frame(self, sep: str | None = None, ties_only: bool = False) -> pd.DataFrame:
        """One row per item, for download.

        Parameters
        ----------
        sep : str or None, default None
            Joins the categories of a set; None: ``;``, or ``|`` when a category name
            holds ``;`` (as the long CSV export chooses), so the sets split again.
        ties_only : bool, default False
            Keep only the items with a tied decision (tie-broken or unresolved).

        Returns
        -------
        DataFrame
            ``item``, ``labels`` (``sep``-joined, categories in their declared order;
            ``{}`` for the empty set),
            ``tie_broken`` and ``unresolved`` (categories decided by the expert index, or
            left unassigned for lack of one).
        """
        cats = np.asarray(self.matrix.columns, dtype=object)
        if sep is None:
            sep = separator_for(cats) or ";"
        chosen = self.matrix.to_numpy(dtype=bool)  # a 0-column frame would give object dtype
        # the empty set is written "{}", as every export writes it: a blank cell would
        # read back as "no gold label" rather than "none of the categories"
        joined = [sep.join(map(str, cats[row])) if row.any() else "{}" for row in chosen]

        def per_item(frame: pd.DataFrame) -> pd.Series:
            grouped = frame.groupby("item", sort=False)["category"]
            return grouped.agg(lambda s: sep.join(map(str, s)))

        out = pd.DataFrame({"item": self.matrix.index, "labels": joined})
        for name, frame in (("tie_broken", self.tie_broken), ("unresolved", self.unresolved)):
            found = out["item"].map(per_item(frame)).astype(object)
            out[name] = found.where(found.notna(), "")
        if ties_only:
            out = out[(out["tie_broken"] != "") | (out["unresolved"] != "")]
        return out


def gold_standard(ann: Annotations | pd.DataFrame) -> LabelSetGoldStandard:
    r"""The gold label *set* of every item by Algorithm 1 of Bhowmick, Mitra & Basu (2008).

    A majority vote per (item, category) with ties broken by the annotators' expert coder
    index (how often each sided with the majority so far); see
    :class:`LabelSetGoldStandard` for how it differs from the other gold results.

    For every item in input order (the order in which items first appear in the input, as
    :attr:`Annotations.items` keeps it), and every category in the declared order: let Y be
    the annotators who assigned the category and N those who judged the item but did not.

    - |Y| > |N|: assign; every annotator in Y gains 1 on the expert coder index rho.
    - |Y| < |N|: do not assign; every annotator in N gains 1.
    - |Y| = |N|: assign if :math:`\sum_{j \in Y} \rho_j > \sum_{j \in N} \rho_j`, else not;
      nobody's rho changes (Algorithm 1 as printed has no update in this branch). A tie of
      the rho sums as well (e.g. on the first items, when every rho is 0) leaves the
      category unassigned; such decisions are reported as "unresolved".

    rho is updated as the algorithm walks, so a tie is broken by the rho values of the
    decisions taken *before* it, including earlier categories of the same item: the order
    of items in the input matters, and is kept. Annotators who did not judge an item are
    in neither Y nor N.

    Vectorised: rho changes only at majority decisions, which do not depend on rho, so rho
    at any tie is a count of earlier majority decisions each annotator sided with, found
    with a sorted search instead of walking the items one by one.

    Parameters
    ----------
    ann : Annotations or DataFrame
        Multi-label annotations (single-label data: one category per judgement), or a long
        DataFrame. Item order matters (see above).

    Returns
    -------
    LabelSetGoldStandard
        The label sets, their item x category matrix, the final expert indices and every
        tied decision.

    Notes
    -----
    For item i and category c, with :math:`Y_{ic}` the annotators who assigned c and
    :math:`N_{ic}` those who judged i but did not:

    .. math:: c \in G_i \iff |Y_{ic}| > |N_{ic}| \;\lor\; \big(|Y_{ic}| = |N_{ic}|
              \land \textstyle\sum_{j \in Y_{ic}} \rho_j > \sum_{j \in N_{ic}} \rho_j\big)

    The paper's prose says rho grows "if the item is assigned to a category in the gold
    standard data" without excluding tie-broken decisions; Algorithm 1 excludes them. We
    follow Algorithm 1.

    References
    ----------
    Bhowmick, P. K., Mitra, P., & Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. Proceedings of the
    COLING workshop on Human Judgements in Computational Linguistics, 58-65 (section 4,
    Algorithm 1).

    Examples
    --------
    Two of three annotators gave ``x`` to item 1; one of two gave ``y`` to item 2, a tie
    left unresolved because both had sided with the same number of majorities by then:

    >>> import pandas as pd
    >>> df = pd.DataFrame({"item": ["1", "1", "1", "2", "2"],
    ...                    "annotator": ["a", "b", "c", "a", "b"],
    ...                    "label": [{"x"}, {"x"}, set(), {"y"}, set()]})
    >>> gold = gold_standard(df)
    >>> [sorted(s) for s in gold.labels], gold.expert_index.tolist()
    ([['x'], []], [3, 3, 1])
    """
    ann = as_annotations(ann)
    jp = judgement_pairs(ann)
    n_i, n_c, n_a = ann.n_items, ann.n_categories, ann.n_annotators
    n_steps = n_i * n_c
    yes = jp.assigned_per_item  # |Y| per item and category
    no = jp.judges_per_item[:, None] - yes  # |N|
    majority_yes = yes > no
    tie = (yes == no) & (jp.judges_per_item > 0)[:, None]  # an item nobody judged: no decision
    # every (judgement, category): the step (item, category) and whether it said yes
    j_rows = jp.table[jp.code]  # used judgements x categories
    step = (jp.item[:, None] * n_c + np.arange(n_c)[None, :]).ravel()
    says = j_rows.ravel()
    who = np.repeat(jp.annotator, n_c)
    flat_tie = tie.ravel()
    flat_yes = majority_yes.ravel()
    won = ~flat_tie[step] & (says == flat_yes[step])
    # sorted keys of each annotator's won steps: rho before step s = wins with step < s
    win_keys = np.sort(who[won] * n_steps + step[won])
    at_tie = flat_tie[step]
    q_who, q_step, q_says = who[at_tie], step[at_tie], says[at_tie]
    rho_then = np.searchsorted(win_keys, q_who * n_steps + q_step) - np.searchsorted(
        win_keys, q_who * n_steps
    )
    tie_steps, q_slot = np.unique(q_step, return_inverse=True)
    rho_yes = np.bincount(q_slot, weights=rho_then * q_says, minlength=len(tie_steps))
    rho_no = np.bincount(q_slot, weights=rho_then * ~q_says, minlength=len(tie_steps))
    assign_tie = rho_yes > rho_no

    decided = majority_yes.ravel().copy()
    decided[tie_steps] = assign_tie
    decided = decided.reshape(n_i, n_c)

    items = ann.items
    cats = np.asarray(ann.categories, dtype=object)
    labels = pd.Series(
        [frozenset(cats[row]) for row in decided], index=items, name="labels", dtype=object
    )
    expert = pd.Series(
        np.bincount(win_keys // max(n_steps, 1), minlength=n_a).astype(np.int64),
        index=ann.annotators,
        name="expert_index",
    )
    t_item, t_cat = tie_steps // max(n_c, 1), tie_steps % max(n_c, 1)
    ties = pd.DataFrame(
        {
            "item": np.asarray(items, dtype=object)[t_item],
            "category": cats[t_cat],
            "n_assigned": yes.ravel()[tie_steps],
            "n_not_assigned": no.ravel()[tie_steps],
            "rho_assigned": rho_yes.astype(np.int64),
            "rho_not_assigned": rho_no.astype(np.int64),
            "assigned": assign_tie,
            "outcome": np.where(rho_yes != rho_no, "tie-broken", "unresolved").astype(object),
        }
    )
    matrix = pd.DataFrame(decided, index=items, columns=ann.categories)
    return LabelSetGoldStandard(labels=labels, matrix=matrix, expert_index=expert, ties=ties)
