"""The settings a report (and every export) is computed with, so it matches the screen.

The app's pages each choose their own settings (the Agreement page its intervals and
distance, the Noise calculator its confidence and annotators, the Gold labels page the
Dawid-Skene model's EM settings); :class:`ReportSettings` carries them into
:func:`analytics.report.build_report` and the Export page's files, and :meth:`ReportSettings.describe` prints them in the report,
so an exported number is the number that was on screen, computed the stated way.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from analytics._core.formatting import format_confidence
from analytics._core.validation import check_confidence, check_whole

__all__ = ["ReportSettings"]


@dataclass(frozen=True)
class ReportSettings:
    """Every choice a report section depends on.

    Parameters
    ----------
    agreement_n_boot : int, default 1000
        Bootstrap resamples for the agreement intervals (0: analytic intervals where one
        exists, none otherwise).
    agreement_confidence : float, default 0.95
        The coverage of the agreement intervals.
    distance : str or None, default None
        Krippendorff's alpha distance; None: the default for the label kind.
    noise_confidence : float, default 0.95
        The confidence of the noise bound.
    noise_annotators : tuple or None, default None
        The annotators whose agreement makes the gold standard; None: all.
    ds_smoothing : float, default 0.01
        Dawid-Skene pseudo-count.
    ds_init : str, default "majority"
        Dawid-Skene starting point.
    ds_max_iter : int, default 500
        Most EM iterations.
    ds_tol : float, default 1e-7
        EM's relative stopping tolerance.

    Examples
    --------
    >>> ReportSettings(agreement_n_boot=500).describe()[0]
    'Agreement: 500 bootstrap resamples, 95% intervals, default distance for alpha.'
    """

    agreement_n_boot: int = 1000
    agreement_confidence: float = 0.95
    distance: str | None = None
    noise_confidence: float = 0.95
    noise_annotators: tuple | None = None
    ds_smoothing: float = 0.01
    ds_init: str = "majority"
    ds_max_iter: int = 500
    ds_tol: float = 1e-7

    def __post_init__(self) -> None:
        check_whole(self.agreement_n_boot, "agreement_n_boot", 0)
        check_whole(self.ds_max_iter, "ds_max_iter", 1)
        for name in ("agreement_confidence", "noise_confidence"):
            check_confidence(getattr(self, name))
        if self.noise_annotators is not None:
            object.__setattr__(self, "noise_annotators", tuple(self.noise_annotators))

    def key(self) -> tuple:
        """The settings as a plain tuple (a cache key)."""
        return tuple(getattr(self, f.name) for f in fields(self))

    def fit_options(self) -> dict[str, Any]:
        """The Dawid-Skene settings as keywords of :func:`analytics.dawid_skene.fit`.

        >>> ReportSettings().fit_options()
        {'smoothing': 0.01, 'init': 'majority', 'max_iter': 500, 'tol': 1e-07}
        """
        return {
            "smoothing": self.ds_smoothing,
            "init": self.ds_init,
            "max_iter": self.ds_max_iter,
            "tol": self.ds_tol,
        }

    def describe(self, default_distance: str | None = None) -> list[str]:
        """One sentence per analysis saying how it was computed.

        ``default_distance``: the distance that ``distance=None`` means for the data
        (:func:`analytics.agreement.default_distance`), named instead of "default".
        """
        boot = (
            f"{self.agreement_n_boot:,} bootstrap resamples"
            if self.agreement_n_boot
            else "analytic intervals where one exists (no bootstrap)"
        )
        dist = (
            f"{self.distance} distance"
            if self.distance
            else f"{default_distance} distance (the default for these labels)"
            if default_distance
            else "default distance"
        )
        who = (
            "all annotators"
            if self.noise_annotators is None
            else f"{len(self.noise_annotators):,} chosen annotators"
        )
        return [
            f"Agreement: {boot}, {format_confidence(self.agreement_confidence)} intervals, {dist} for alpha.",
            f"Noise bound: {format_confidence(self.noise_confidence)} confidence, agreement among {who}.",
            f"Dawid-Skene: start from {self.ds_init}, smoothing {self.ds_smoothing:g}, "
            f"at most {self.ds_max_iter:,} EM iterations, tolerance {self.ds_tol:g}.",
        ]
