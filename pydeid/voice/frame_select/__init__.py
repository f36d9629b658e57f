"""Frame selection ("knn"): a CPU voice conversion whose output frames come from target speakers only.

Each source frame is replaced by the average of the k frames of the target's matching set (up to max_utts utterances
of one or several pool speakers) that are nearest in CONTENT (`content`): `mcep`, WORLD mel-cepstra normalised over
each speaker's own frames (the source utterance's, the pool speaker's), with deltas; `whisper`, the Whisper
encoder's output frames (cosine; whisper_content); or `both` side by side (the config's setting); voiced frames are
matched among voiced target frames, unvoiced among unvoiced. The output envelope and aperiodicity are averages of
target frames (none of the source's spectral detail is kept); the F0 is the source's contour mapped to the target's
log-F0 mean and std and smoothed (pydeid.voice.vtln.f0_contour); timing and voicing follow the source. This is
kNN-VC (Baas et al. 2023) with Whisper's or CPU features instead of WavLM's and WORLD instead of a neural vocoder.

Modules: features (coding, mel-cepstral content), whisper_content (the Whisper encoder feature), pool (the
matching set, FramePool), match (the kNN), segments (`match: segments`: whole aligned phones taken from the
target, where phone alignments exist), core (params, transformer). Targets are chosen by
pydeid.voice.target_selection (default per_gender_pseudo: one consistent target per gender, the setting where an
output made of target frames leaves the attacker least)."""

from ..method import VoiceMethod
from ..target_modes import MODES as TARGET_SELECTIONS
from .core import (DEFAULT_FRAME_PERIOD, MATCHES, FrameSelectParams, FrameSelectTransformer, build_frame_select,
                   build_pool, draw_frame_select, needs_phones)
from .pool import FramePool


def _transformer(params, world, pool_path=None):
    if pool_path is None:
        raise ValueError("frame_select converts from a frame pool (--target-data at the plan)")
    return FrameSelectTransformer(params, world, FramePool.load(pool_path))


METHOD = VoiceMethod(
    name="frame_select", params=FrameSelectParams, build=build_frame_select, draw=draw_frame_select,
    transformer=_transformer,
    summary="each frame replaced by the average of the k target-pool frames nearest in content (speaker-normalised "
            "mel-cepstra and/or Whisper encoder frames: kNN-VC on CPU), F0 mapped to the target's and smoothed",
    frame_period=DEFAULT_FRAME_PERIOD, gendered=True,
    config_keys={"target_gender": ("same", "any"), "target_selection": TARGET_SELECTIONS, "match": MATCHES},
    frame_pool=build_pool, phone_classes=needs_phones)

__all__ = ["METHOD", "FramePool", "FrameSelectParams", "FrameSelectTransformer", "build_frame_select"]
