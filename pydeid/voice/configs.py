"""Where a voice config lives: conf/voice/ holds each method's defaults, the parameter-shifted variants the recipes
use and the recommended phone-class config; the screening variants are in conf/voice/tuning/ (as ESPnet's
conf/tuning). A config named by its old top-level path (conf/voice/vtln_cm.yaml) is found in tuning/, so recipes,
results and scripts that cite the old name keep working. utils/voice_config.sh answers the same for the shell."""

from __future__ import annotations

from pathlib import Path

TUNING = "tuning"


def resolve_config(path) -> Path:
    """`path` when it exists, else the file of the same name in the `tuning/` folder next to it (when that exists),
    else `path` unchanged (the caller reports the missing file)."""
    p = Path(path)
    if p.exists():
        return p
    alt = p.parent / TUNING / p.name
    return alt if alt.exists() else p


__all__ = ["resolve_config", "TUNING"]
