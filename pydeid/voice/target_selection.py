"""Target selection, an option of every target-based voice method (`target_selection:` in its config, or
`--target-selection` of steps/transform_voice.sh): which pool voices an utterance is converted towards.

  random_per_utterance  one pool speaker drawn per utterance (seed 004's strategy 3)
  per_speaker           one pool speaker drawn per source speaker (strategy 2)
  per_gender_pseudo     one pool speaker for every source speaker of a gender (strategy 1, same gender)
  pooled_pseudo         one pseudo-speaker per gender made of `pool_voices` pool speakers (strategy 1 with the
                        targets averaged, VTLN's n_average; frame selection picks its frames among all of theirs):
                        no single real target voice is published

All draws are seeded by (seed, key) with key the utterance, the speaker or the gender, so they do not depend on the
job split; a source speaker who is himself in the pool is never his own target (pydeid.voice.convert). With
VoicePrivacy's rule (target_gender same) the voices are drawn among the pool speakers of the source's gender.
"""

from __future__ import annotations

from .target_draws import assign_target, assign_targets
from .target_modes import MODES

STRATEGY = {"random_per_utterance": 3, "per_speaker": 2, "per_gender_pseudo": 1, "pooled_pseudo": 1}
POOL_VOICES = 4   # voices of a pooled pseudo-speaker unless the method says otherwise


def check(mode) -> str:
    if mode not in MODES:
        raise ValueError(f"unknown target_selection {mode!r}; allowed: {', '.join(MODES)}")
    return mode


def n_voices(mode: str, pool_voices: int = POOL_VOICES) -> int:
    """How many pool voices one target is made of."""
    return int(pool_voices) if check(mode) == "pooled_pseudo" else 1


def select(mode: str, pool: list[str], seed: int, spk: str, utt: str, gender: str | None = None,
           pool_genders: dict[str, str] | None = None, pool_voices: int = POOL_VOICES) -> list[str]:
    """The pool speakers of this utterance's target (one, or pool_voices for pooled_pseudo)."""
    strategy = STRATEGY[check(mode)]
    n = n_voices(mode, pool_voices)
    if n > 1:
        return assign_targets(n, strategy, pool, seed, spk, utt, gender, pool_genders)
    return [assign_target(strategy, pool, seed, spk, utt, gender, pool_genders)]


def vtln_equivalent(mode: str, n_average: int = 1) -> tuple[int, int]:
    """(strategy, n_average) of VTLN (and of the strategy-based methods) for a selection mode."""
    strategy = STRATEGY[check(mode)]
    if mode == "pooled_pseudo":
        return strategy, n_average if n_average > 1 else POOL_VOICES
    return strategy, n_average


__all__ = ["MODES", "POOL_VOICES", "STRATEGY", "check", "n_voices", "select", "vtln_equivalent"]
