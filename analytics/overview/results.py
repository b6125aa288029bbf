"""What :func:`~analytics.overview.overview` returns: answers and one recommendation."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analytics.overview.severity import Severity, Verdict

__all__ = ["ASKED", "MODEL_ANSWERS", "Answer", "Overview", "Recommendation"]

#: The answers the annotator model gives.
MODEL_ANSWERS = ("annotators", "gold", "more_labels")

#: Question, severity rule and page of the answers after the first.
ASKED = {
    "noise": ("How noisy is the agreed subset?", "noise", "noise"),
    "annotators": ("Which annotators are biased, and how?", "weak_annotators", "gold_labels"),
    "gold": ("How sure are the gold labels?", "gold_error", "gold_labels"),
    "more_labels": ("Would more labels help?", "uncertain_items", "gold_labels"),
}


@dataclass(frozen=True)
class Answer:
    """One of the five answers.

    Parameters
    ----------
    key : str
        ``"agreement"``, ``"noise"``, ``"annotators"``, ``"gold"`` or ``"more_labels"``.
    question : str
        The question, as a person asks it.
    sentence : str
        The answer in one plain sentence.
    number : str
        The headline number, formatted.
    verdict : Verdict
        Its severity and the rule that gave it.
    page : str
        The app page that explains it (a path such as ``"pages/noise.py"``).
    page_title : str
        That page's title.
    """

    key: str
    question: str
    sentence: str
    number: str
    verdict: Verdict
    page: str
    page_title: str


@dataclass(frozen=True)
class Recommendation:
    """The one thing to do next.

    Parameters
    ----------
    text : str
        What to do, in one sentence.
    severity : Severity
        How urgent (the severity of the answer it follows from).
    page : str
        The page where it is done.
    page_title : str
        That page's title.
    items : tuple, default ()
        The items concerned (e.g. the items to relabel), when there are some.
    verdict : Verdict or None, default None
        The verdict of the answer it follows from (its rule says why it is urgent).
    """

    text: str
    severity: Severity
    page: str
    page_title: str
    items: tuple = ()
    verdict: Verdict | None = None


@dataclass(frozen=True)
class Overview:
    """The five answers and the recommendation; :meth:`to_frame` is the table form."""

    answers: tuple[Answer, ...]
    recommendation: Recommendation

    def to_frame(self) -> pd.DataFrame:
        """One row per answer: question, answer, number, severity, rule, page."""
        return pd.DataFrame(
            {
                "question": [a.question for a in self.answers],
                "answer": [a.sentence for a in self.answers],
                "number": [a.number for a in self.answers],
                "severity": [a.verdict.label for a in self.answers],
                "rule": [a.verdict.rule.describe() for a in self.answers],
                "page": [a.page_title for a in self.answers],
            }
        )
