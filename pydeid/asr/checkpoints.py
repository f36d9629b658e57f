"""Which checkpoint of an ESPnet exp dir to use when none is named.

ESPnet writes `<phase>.<metric>.best.pth` for every entry of `best_model_criterion`; the first entry of the
training config is the tier's own choice (a CTC-only tier has no attention accuracy, so `valid.acc.best.pth`
never exists there). Only yaml is imported: the alignment and probe code call this before loading torch.
"""

from __future__ import annotations

from pathlib import Path

import yaml

FALLBACKS = ("valid.acc.best.pth", "valid.cer_ctc.best.pth", "valid.loss.best.pth", "valid.acc.ave.pth",
             "latest.pth")


def default_model_file(exp_dir) -> Path:
    """<exp>/<phase>.<metric>.best.pth of the first best_model_criterion in <exp>/config.yaml, else the first
    existing of FALLBACKS. Raises FileNotFoundError naming the exp dir when there is no model at all."""
    exp = Path(exp_dir)
    names = []
    cfg = exp / "config.yaml"
    if cfg.exists():
        crits = (yaml.safe_load(cfg.read_text()) or {}).get("best_model_criterion") or []
        names += [f"{c[0]}.{c[1]}.best.pth" for c in crits if len(c) >= 2]
    for name in [*names, *FALLBACKS]:
        if (exp / name).exists():
            return exp / name
    raise FileNotFoundError(f"{exp}: no model file ({', '.join(dict.fromkeys([*names, *FALLBACKS]))}); "
                            "train with steps/train_asr.sh first")


def resolve_model_file(exp_dir, model_file=None) -> Path:
    """model_file as given (absolute, or relative to the exp dir), or default_model_file() when None/empty."""
    if not model_file:
        return default_model_file(exp_dir)
    p = Path(model_file)
    p = p if p.is_absolute() else Path(exp_dir) / p
    if not p.exists():
        raise FileNotFoundError(f"{p}: no such model file (train first, or pass another --model)")
    return p
