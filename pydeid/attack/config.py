"""Attacker configuration: a YAML file (conf/xvector/*.yaml) read into a dict with defaults filled in.

The same dict is stored next to the trained model (model_dir/config.yaml), so a model directory is
self-describing and can be supplied to another recipe as a pretrained attacker.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path

CKPT = "embedding_model.ckpt"   # files of a model directory
CONFIG = "config.yaml"
MODELS = ("xvector", "ecapa", "ge2e")

DEFAULTS: dict = {
    "model": "xvector",          # xvector (Snyder et al. 2018 TDNN) | ecapa (ECAPA-TDNN) | ge2e (pretrained GE2E
                                 # encoder shipped in the resemblyzer wheel, pydeid/attack/pretrained.py)
    "sample_rate": 16000,
    "vad": "energy",             # front-end of training, enrolment and trial audio: energy (Kaldi compute-vad,
                                 # pydeid/attack/vad.py: non-speech frames dropped) | none (whole utterances)
    "n_mels": 40,
    "xvector": {"tdnn_channels": [512, 512, 512, 512, 1500], "lin_neurons": 512},
    "ecapa": {"channels": [512, 512, 512, 512, 1536], "lin_neurons": 192, "attention_channels": 128},
    # ge2e: the pretrained encoder is used as shipped (finetune_epochs 0) or its last LSTM layer and projection are
    # fine-tuned on the attacker's training data (pydeid/attack/pretrained_finetune.py)
    "ge2e": {"finetune_epochs": 0, "finetune_lr": 1.0e-4, "dev_speakers": 0},
    "loss": "aam",               # aam (additive angular margin on a cosine classifier) | softmax (NLL)
    "aam_margin": 0.2,
    "aam_scale": 30.0,
    "epochs": 20,
    "batch_size": 32,
    "crop_min": 2.0,             # seconds; one random crop length per batch, drawn in [crop_min, crop_max]
    "crop_max": 3.0,
    "crops_per_utt": 1,          # random crops of each utterance per epoch
    "lr": 0.001,
    "weight_decay": 2.0e-5,
    "cache_audio": True,         # keep training audio in memory (small corpora); False reads per crop
    "num_workers": 0,
    "max_chunk": 30.0,           # extraction: longer utterances are embedded in chunks and averaged
    # back-end
    "lda_dim": 150,              # capped at (training speakers - 1)
    "plda_rank": 100,            # capped at the LDA dimension
    "plda_iter": 10,
}


def _merge(base: dict, over: dict) -> dict:
    out = copy.deepcopy(base)
    for k, v in (over or {}).items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def load_config(path: str | os.PathLike | None, overrides: dict | None = None) -> dict:
    import yaml
    from pydeid.io import FormatError

    user = {}
    if path is not None:
        path = Path(path)
        try:
            user = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as e:
            line = getattr(getattr(e, "problem_mark", None), "line", None)
            raise FormatError(path, None if line is None else line + 1, f"bad YAML: {e}") from None
        if not isinstance(user, dict):
            raise FormatError(path, None, "expected a mapping of options")
        unknown = sorted(set(user) - set(DEFAULTS))
        if unknown:
            raise FormatError(path, None, f"unknown option(s) {unknown}; known: {sorted(DEFAULTS)}")
    cfg = _merge(DEFAULTS, user)
    cfg = _merge(cfg, overrides or {})
    if cfg["model"] not in MODELS:
        raise FormatError(path, None, f"model must be one of {', '.join(MODELS)}, got '{cfg['model']}'")
    if cfg["model"] == "ge2e":
        unknown = sorted(set(cfg["ge2e"]) - set(DEFAULTS["ge2e"]))
        if unknown:
            raise FormatError(path, None, f"unknown ge2e option(s) {unknown}; known: {sorted(DEFAULTS['ge2e'])}")
    if cfg["vad"] not in ("energy", "none"):
        raise FormatError(path, None, f"vad must be 'energy' or 'none', got '{cfg['vad']}'")
    if cfg["loss"] not in ("aam", "softmax"):
        raise FormatError(path, None, f"loss must be 'aam' or 'softmax', got '{cfg['loss']}'")
    if not 0 < cfg["crop_min"] <= cfg["crop_max"]:
        raise FormatError(path, None, "need 0 < crop_min <= crop_max")
    return cfg


def save_config(cfg: dict, path: str | os.PathLike) -> None:
    import yaml
    from pydeid.io import atomic_write_text
    atomic_write_text(path, yaml.safe_dump(cfg, sort_keys=True))
