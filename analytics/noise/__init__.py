"""How noisy is the agreed subset? Beigman Klebanov & Beigman (2009), "From annotator
agreement to noise models", Computational Linguistics 35(4), 495-503.

The model: every item is *easy* (all annotators give the same label) or *hard* (each
annotator independently flips their own coin). Disagreed items are hard for sure; some
hard items hide among the agreed ones because the coins happened to agree. Given d
disagreements among n items and p, the chance that the annotators agree on a hard item,
equation (1) gives the posterior of the number of hard items and, with a confidence (the
paper's alpha), an upper bound gamma on the share of coin-flips in the agreed gold
standard.

- :func:`agreement_probability`: p from each annotator's category rates on hard items
  (:mod:`~analytics.noise.chance_agreement`).
- :func:`noise_bound`: equation (1): ``t0``, ``gamma``, ``hidden_hard``, the posterior
  (:mod:`~analytics.noise.bound`, :mod:`~analytics.noise.posterior`).
- The questions the paper answers with it (:mod:`~analytics.noise.questions`):
  :func:`max_disagreements`, the reverse question (section 3.1); :func:`adding_annotators`,
  what more annotators buy (section 5.3); :func:`kappa_noise_estimate`, kappa read as the
  share of easy items (section 3.3); and :func:`chance_difference`, the difference between
  two systems noise alone can make (section 4.1, :mod:`~analytics.noise.comparing_systems`).
- :func:`noise_from_annotations`: the whole pipeline on loaded data, with per-item p when
  coverage is uneven (:mod:`~analytics.noise.mixture`, over the Poisson-binomials of
  :mod:`~analytics.noise.poisson_binomial`).
- Figures: :func:`posterior_figure`, :func:`adding_annotators_figure`
  (:mod:`~analytics.noise.figures`).
- Starting values for asking by hand: :func:`follow_up_defaults`, :func:`rates_table`, ...
  (:mod:`~analytics.noise.inputs`).

>>> noise_bound(1000, 100, 0.5).hidden_hard
125
"""

from __future__ import annotations

from analytics.noise import on_engine  # noqa: F401 (registers the engine answer)
from analytics.noise.annotation_noise import AnnotationNoise
from analytics.noise.bound import NoiseBound, noise_bound
from analytics.noise.chance_agreement import agreement_probability
from analytics.noise.comparing_systems import ChanceDifference, chance_difference
from analytics.noise.figures import adding_annotators_figure, posterior_figure
from analytics.noise.from_annotations import noise_from_annotations
from analytics.noise.inputs import (
    FollowUpDefaults,
    easy_share,
    equal_rates,
    follow_up_defaults,
    rates_table,
)
from analytics.noise.mixture import HiddenHardPosterior, hidden_hard_posterior
from analytics.noise.posterior import equation1_posterior
from analytics.noise.questions import (
    KappaNoiseEstimate,
    MaxDisagreements,
    adding_annotators,
    kappa_noise_estimate,
    max_disagreements,
)

__all__ = [
    "AnnotationNoise",
    "ChanceDifference",
    "FollowUpDefaults",
    "HiddenHardPosterior",
    "KappaNoiseEstimate",
    "MaxDisagreements",
    "NoiseBound",
    "adding_annotators",
    "adding_annotators_figure",
    "agreement_probability",
    "chance_difference",
    "easy_share",
    "equal_rates",
    "equation1_posterior",
    "follow_up_defaults",
    "hidden_hard_posterior",
    "kappa_noise_estimate",
    "max_disagreements",
    "noise_bound",
    "noise_from_annotations",
    "posterior_figure",
    "rates_table",
]
