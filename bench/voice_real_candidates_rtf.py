"""RTF of the issue-19 candidates with plan options the transformer applies itself (class_shift, residual_scale,
class_shift_from_hz): bench/voice_real_rtf.py with its VTLN transformer given the config's VtlnParams.

bench/voice_real_rtf.py builds each config's VtlnParams but constructs VtlnTransformer(targets) without them (its
per-utterance draws, n_average and the jitters, are passed per call, so it times those right); a class-mean
replacement config would be timed as plain VTLN. Until it passes `params=params` (one line of that file, which
this helper does not own), this runs it unchanged with VtlnTransformer defaulting to the params built last, i.e.
those of the config being timed. Same arguments as bench/voice_real_rtf.py; run it under `taskset -c 0`.
"""

from __future__ import annotations

import runpy
from pathlib import Path

import pydeid.voice.vtln as vtln

_build = vtln.build_vtln_params
_last: dict = {}


def _build_and_keep(**overrides):
    _last["params"] = _build(**overrides)
    return _last["params"]


class _Transformer(vtln.VtlnTransformer):
    def __init__(self, targets, grid=None, smooth_frames=5, params=None):
        super().__init__(targets, grid, smooth_frames, params if params is not None else _last.get("params"))


if __name__ == "__main__":
    vtln.build_vtln_params = _build_and_keep
    vtln.VtlnTransformer = _Transformer
    runpy.run_path(str(Path(__file__).with_name("voice_real_rtf.py")), run_name="__main__")
