"""The attacker's speaker-embedding network: speechbrain's Fbank -> sentence mean normalisation ->
Xvector (TDNN, Snyder et al. 2018) or ECAPA-TDNN, plus a training-only speaker classifier.

A model directory holds config.yaml (pydeid.attack.config) and embedding_model.ckpt (torch state dicts).
"""

from __future__ import annotations

import os
from pathlib import Path

import torch
from speechbrain.lobes.features import Fbank
from speechbrain.processing.features import InputNormalization

from .config import CKPT, CONFIG


class SpeakerEmbedder(torch.nn.Module):
    """waveform [B, T] (16 kHz float) -> embedding [B, D]."""

    def __init__(self, cfg: dict):
        super().__init__()
        self.fbank = Fbank(n_mels=cfg["n_mels"], sample_rate=cfg["sample_rate"])
        # Per-utterance mean normalisation (CMN): no running statistics to store or to drift.
        self.norm = InputNormalization(norm_type="sentence", std_norm=False)
        if cfg["model"] == "xvector":
            from speechbrain.lobes.models.Xvector import Xvector
            x = cfg["xvector"]
            self.net = Xvector(in_channels=cfg["n_mels"], tdnn_channels=list(x["tdnn_channels"]),
                               lin_neurons=x["lin_neurons"])
            self.dim = x["lin_neurons"]
        else:
            from speechbrain.lobes.models.ECAPA_TDNN import ECAPA_TDNN
            e = cfg["ecapa"]
            self.net = ECAPA_TDNN(input_size=cfg["n_mels"], channels=list(e["channels"]),
                                  lin_neurons=e["lin_neurons"], attention_channels=e["attention_channels"])
            self.dim = e["lin_neurons"]

    def forward(self, wav: torch.Tensor, lens: torch.Tensor | None = None) -> torch.Tensor:
        if lens is None:
            lens = torch.ones(wav.shape[0], device=wav.device)
        feats = self.fbank(wav)
        feats = self.norm(feats, lens)
        if self.training:
            return self.net(feats, lens).squeeze(1)
        # speechbrain's StatisticsPooling adds random noise (~1e-5) to the pooled mean even in eval mode: drawn
        # from a fixed seed here, an utterance's embedding no longer depends on what the process embedded before
        # (job split, order of the sets)
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(0)
            return self.net(feats, lens).squeeze(1)


def build_classifier(cfg: dict, dim: int, n_speakers: int) -> torch.nn.Module:
    """Training-only head: cosine classifier for the additive angular margin loss, or a linear softmax layer."""
    if cfg["loss"] == "aam":
        from speechbrain.lobes.models.ECAPA_TDNN import Classifier
        return Classifier(input_size=dim, lin_blocks=0, out_neurons=n_speakers)
    return torch.nn.Sequential(torch.nn.BatchNorm1d(dim), torch.nn.LeakyReLU(), torch.nn.Linear(dim, n_speakers))


def save_model(model_dir: str | os.PathLike, cfg: dict, embedder: SpeakerEmbedder, speakers: list[str]) -> None:
    from pydeid.io import atomic_write
    from .config import save_config
    model_dir = Path(model_dir)
    model_dir.mkdir(parents=True, exist_ok=True)
    save_config(cfg, model_dir / CONFIG)
    # the checkpoint is written last: its presence marks a complete model directory
    with atomic_write(model_dir / CKPT, "wb", encoding=None) as f:
        torch.save({"embedder": embedder.state_dict(), "train_speakers": speakers}, f)


def load_model(model_dir: str | os.PathLike):
    """(embedder, config): a SpeakerEmbedder, or for `model: ge2e` a pydeid.attack.pretrained.PretrainedEncoder
    (shipped weights, or the fine-tuned ones the checkpoint holds)."""
    from pydeid.io import FormatError
    from .config import load_config
    model_dir = Path(model_dir)
    for name in (CONFIG, CKPT):
        if not (model_dir / name).is_file():
            raise FormatError(model_dir / name, None, "not a pydeid attacker model directory (missing file); "
                              "train one with steps/train_xvector.sh")
    cfg = load_config(model_dir / CONFIG)
    if cfg["model"] == "ge2e":
        from .pretrained_finetune import load_ge2e
        return load_ge2e(model_dir / CKPT), cfg
    emb = SpeakerEmbedder(cfg)
    state = torch.load(model_dir / CKPT, map_location="cpu", weights_only=True)
    emb.load_state_dict(state["embedder"])
    emb.eval()
    return emb, cfg
