"""What a voice conversion method declares (one `METHOD = VoiceMethod(...)` in its module) so that the CLI, the
plan and the conversion can use it without knowing it by name. pydeid.voice.registry lists the methods.

A method that draws its parameters per utterance and converts one waveform at a time (VoiceMask, McAdams, a new
one) needs `params`, `build`, `draw` and `transformer`; VTLN's target-speaker pool, strategies and one-pass
conversion of several outputs are the `speaker_targets` capability, which only VTLN has today. A method converting
from a pool of target frames (frame selection) declares `frame_pool`: the plan draws its targets by the method's
`target_selection` (pydeid.voice.target_selection) and the transformer reads the pool the plan built."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


def _never(params) -> bool:
    return False


@dataclass(frozen=True)
class VoiceMethod:
    name: str
    params: type                               # dataclass of the parameters: its fields are the YAML config keys
    build: Callable[..., Any]                  # builder: keyword overrides -> validated params (ValueError if bad)
    draw: Callable[[Any, Any], dict]           # (params, numpy Generator) -> the utterance's draws (a JSON dict)
    transformer: Callable[[Any, Any], Any] | None = None   # (params, WorldConfig) -> .transform(wav, sr, draw=...)
    summary: str = ""
    frame_period: float | None = None          # default WORLD frame period in ms (None: WorldConfig's)
    config_keys: dict = field(default_factory=dict)   # YAML keys beyond the params' -> allowed names (None: any)
    gendered: bool = False                     # target choice can follow the source speaker's gender
    speaker_targets: bool = False              # a pool of target speakers from --target-data, --strategy 1/2/3
    pitch_pool: Callable[[Any], bool] = _never   # (params) -> whether a pool of target log-F0 statistics is needed
    phone_classes: Callable[[dict], bool] = _never   # (config dict) -> whether it needs phone alignments
    groups: dict = field(default_factory=dict)  # YAML group -> its options (pydeid.voice.configs; {}: a flat file)
    # a matching set of target-pool frames (frame selection): (target_data, pool speakers, params, WorldConfig,
    # progress) -> a pool with .save(path); the transformer then takes pool_path=
    frame_pool: Callable[..., Any] | None = None

    def config_allowed(self) -> list[str]:
        from dataclasses import fields
        return [f.name for f in fields(self.params)] + ["world"] + list(self.config_keys)


__all__ = ["VoiceMethod"]
