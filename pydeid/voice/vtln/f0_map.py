"""The F0 mapping of a voice conversion (issue 19, part V): how far the converted F0 moves towards the target's.

The default is the log-Gaussian normalised conversion (pydeid.voice.common.convert_log_f0): the source's log-F0 mean
and std replaced by the target's. With targets of any gender a female source gets a male F0 and vice versa (about
10 semitones); two options limit that move:
- max_shift (semitones, > 0): the shift of the log-F0 mean is capped at this many semitones, in the target's
  direction (0: no cap);
- keep_range: the source's log-F0 std is kept (the contour's range and intonation stay the source's), only the mean
  moves.
"""

from __future__ import annotations

import numpy as np

from ..common import convert_log_f0

SEMITONE = np.log(2.0) / 12.0


def check_options(max_shift, keep_range, convert_f0: bool = True) -> None:
    if isinstance(max_shift, bool) or not isinstance(max_shift, (int, float)) or not 0.0 <= float(max_shift) <= 24.0:
        raise ValueError(f"f0_max_shift must be a number in [0, 24] (semitones; 0: no cap), got {max_shift!r}")
    if not isinstance(keep_range, bool):
        raise ValueError(f"f0_keep_range must be true or false, got {keep_range!r}")
    if not convert_f0 and (max_shift > 0 or keep_range):
        raise ValueError("f0_max_shift / f0_keep_range need convert_f0 true")


def mapped_target(source: tuple[float, float], target: tuple[float, float], max_shift: float = 0.0,
                  keep_range: bool = False) -> tuple[float, float]:
    """The (log-F0 mean, std) the source is converted to."""
    mu, sd = target
    if max_shift > 0:
        cap = float(max_shift) * SEMITONE
        mu = source[0] + float(np.clip(mu - source[0], -cap, cap))
    if keep_range:
        sd = source[1]
    return mu, sd


def map_f0(f0: np.ndarray, source: tuple[float, float], target: tuple[float, float], max_shift: float = 0.0,
           keep_range: bool = False) -> np.ndarray:
    """Converted F0 track (unvoiced frames stay 0); the defaults are convert_log_f0's conversion, bit for bit."""
    return convert_log_f0(f0, source, mapped_target(source, target, max_shift, keep_range))
