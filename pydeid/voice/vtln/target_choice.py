"""Target choice by vocal-tract length for VTLN (issue 19 part K; VTLN option near_targets).

VTLN's WER cost comes from the envelope warp (on speechocean762 the F0 conversion alone costs +4.6 WER points, the
whole S3 conversion +20.7): the further the target's vocal-tract length from the source's, the more each frame's
formants are moved, and the more a mis-assigned or mis-paired class costs the recogniser. With near_targets n > 0,
each source speaker's targets are restricted to the n pool speakers whose global warping factor a0 towards him is
smallest in magnitude (ties: the smaller mean paired class distance at a0), and the plan's drawn target t is
replaced by one of them, chosen by a hash of t: a deterministic function of the plan's draw, so the same plan, pool
and source give the same output, and the plan's draws (uniform over the pool or its gender) stay spread over the n
near speakers. With the class-mean replacement (class_shift) the target's class spectra still replace the source's:
the speaker's own spectral detail goes while the formants move little. With near_f0_drawn, the F0 is converted to
the drawn target's log-F0 statistics (of any speaker of the pool the plan allows): on speechocean762 the F0
conversion alone costs +3.4 to +4.6 WER points, within the noise, so its variety is kept where it is cheap.
"""

from __future__ import annotations

import hashlib

import numpy as np


def rank_near(alignments: dict[str, dict]) -> list[str]:
    """Pool speaker ids by |a0| then by their mean paired class distance (alignment dicts of vtln.align)."""
    return sorted(alignments, key=lambda t: (abs(alignments[t]["global_alpha"]),
                                             float(alignments[t].get("distance", 0.0)), t))


def pick(near: list[str], drawn: str) -> str:
    """The near target standing in for the plan's drawn target (a hash of its id: the same draw, the same pick)."""
    if not near:
        raise ValueError("no near target")
    h = int.from_bytes(hashlib.sha256(f"near\x1f{drawn}".encode("utf-8")).digest()[:8], "little")
    return near[h % len(near)]


def choose(targets, near: list[str]):
    """The plan's target (an id or a list of ids for an averaged pseudo-target) mapped onto the near speakers."""
    if isinstance(targets, str):
        return pick(near, targets)
    return [pick(near, t) for t in targets]
