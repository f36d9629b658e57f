"""VTLN-based voice conversion and its add-ons, one module each:

  features          the shared building blocks (cepstral basis, speech frames, speaker model, class alignment)
  core              VtlnParams, the builder (build_vtln -> VtlnTargets), VtlnTransformer, the plan's draws
  class_residual    class means moved towards the paired target class (class_shift, residual_scale)
  phone_classes     classes from a phone alignment instead of k-means (classes: phones); phone_set: its inventory
  unvoiced_classes  unvoiced obstruents and pauses replaced too (unvoiced_shift, pause_*)
  speaker_subspace  coordinates in the pool's speaker subspace replaced (ss_*)
  soft_classes      soft class posteriors (class_temperature)
  target_choice     targets of close vocal-tract length (near_targets)
  f0_map            the log-F0 mapping and its caps (f0_max_shift, f0_keep_range)

Imports go one way: core -> add-ons -> features (core imports the add-ons inside functions, so an unused option
costs nothing at import)."""

from .core import (CLASS_MODES, METHOD, VtlnParams, VtlnTargets, VtlnTransformer, build_vtln, build_vtln_params,
                   draw_vtln)
from .features import (MAX_ALPHA, N_CEPS, SpeakerModel, align, dct_basis, normalised_log, speaker_model,
                       speech_frames, voiced_smooth, warp_candidates)

__all__ = ["CLASS_MODES", "METHOD", "VtlnParams", "VtlnTargets", "VtlnTransformer", "build_vtln", "build_vtln_params",
           "draw_vtln", "MAX_ALPHA", "N_CEPS", "SpeakerModel", "align", "dct_basis", "normalised_log", "speaker_model",
           "speech_frames", "voiced_smooth", "warp_candidates"]
