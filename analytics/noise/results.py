"""What every result of the noise model shares: a plain-language sentence, and how a
confidence is written in it.

Every result class of :mod:`analytics.noise` (:class:`~analytics.noise.NoiseBound`,
:class:`~analytics.noise.MaxDisagreements`, :class:`~analytics.noise.ChanceDifference`,
:class:`~analytics.noise.KappaNoiseEstimate`) derives from :class:`ExplainedResult`, so a
page, the report or the command line can show any of them with ``result.explain()``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

__all__ = ["ExplainedResult"]


class ExplainedResult(ABC):
    """A result that explains itself in one plain-language sentence.

    Subclasses implement :meth:`explain`; :attr:`summary` returns the same sentence.
    """

    @abstractmethod
    def explain(self) -> str:
        """One plain-language sentence for an annotation team.

        Returns
        -------
        str
            The result in words; when the result is undefined, why.
        """

    @property
    def summary(self) -> str:
        """The same sentence as :meth:`explain`."""
        return self.explain()
