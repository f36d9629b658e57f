"""pydeid.voice: voice conversion on WORLD features (VoiceMask, VTLN-based conversion) and McAdams anonymisation.

API (seed 004 A.6): a builder computes parameters (from target-speaker data for VTLN), a Transformer is initialised
with them, `fit(utterances of one source speaker)`, `transform(waveform) -> waveform` (same length, finite, peak
normalised to the input's peak and at most 0.99).

Methods are listed by pydeid.voice.registry (one module each; VTLN and its options in pydeid.voice.vtln);
conf/voice/ holds their configs (pydeid.voice.configs finds the screening variants in conf/voice/tuning/).
"""

from .mcadams import McAdamsParams, McAdamsTransformer, build_mcadams
from .voicemask import VoiceMaskParams, VoiceMaskTransformer, build_voicemask
from .vtln import VtlnTargets, VtlnTransformer, build_vtln
from .world import WorldConfig, WorldFeatures, analyze, synthesize

__all__ = ["McAdamsParams", "McAdamsTransformer", "build_mcadams", "VoiceMaskParams", "VoiceMaskTransformer",
           "build_voicemask", "VtlnTargets", "VtlnTransformer", "build_vtln", "WorldConfig", "WorldFeatures",
           "analyze", "synthesize"]
