"""The model directory of the pretrained (GE2E) attacker, and the optional fine-tuning of its last layers.

`model: ge2e` with ge2e.finetune_epochs 0 (conf/xvector/ge2e.yaml): "training" writes config.yaml and a small
checkpoint that names the shipped weights by their SHA-256 (nothing is learnt; the semi-informed attacker's
training data feeds its back-end, pydeid/attack/scoring.py). With finetune_epochs > 0 the last LSTM layer and
the projection are trained with the additive angular margin loss over the training speakers (random 1.6 s
crops of each utterance, the encoder's own preprocessing and front-end), the first two LSTM layers frozen;
ge2e.dev_speakers > 0 holds that many training speakers out and records their EER (all utterance pairs) after
every epoch: the convergence curve. Seeded: same data + seed = same model.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

import numpy as np

from pydeid.io import DataDir, FormatError

from .config import CKPT, CONFIG

log = logging.getLogger(__name__)
PARTIAL = 160          # frames of one partial (1.6 s), as resemblyzer's hparams.partials_n_frames
TRAINED = ("lstm.weight_ih_l2", "lstm.weight_hh_l2", "lstm.bias_ih_l2", "lstm.bias_hh_l2", "linear.weight",
           "linear.bias")


def _save(model_dir: Path, cfg: dict, speakers: list[str], state: dict | None) -> None:
    import torch
    from pydeid.io import atomic_write
    from .config import save_config
    from .pretrained import weights_sha256
    model_dir.mkdir(parents=True, exist_ok=True)
    save_config(cfg, model_dir / CONFIG)
    with atomic_write(model_dir / CKPT, "wb", encoding=None) as f:   # last: marks a complete model dir
        torch.save({"kind": "ge2e", "weights_sha256": weights_sha256(), "state": state,
                    "train_speakers": speakers}, f)


def load_ge2e(ckpt: str | os.PathLike):
    import torch
    from .pretrained import PretrainedEncoder, weights_sha256
    st = torch.load(ckpt, map_location="cpu", weights_only=True)
    if st.get("kind") != "ge2e":
        raise FormatError(ckpt, None, "not a ge2e attacker checkpoint")
    if st["state"] is None and st["weights_sha256"] != weights_sha256():
        raise FormatError(ckpt, None, "the installed resemblyzer weights differ from those this model dir names: "
                          "reinstall resemblyzer==0.1.4 or re-run the attack")
    return PretrainedEncoder(state=st["state"], num_threads=None)


def _mels(data: DataDir, utts: list[str], cfg: dict) -> list[np.ndarray]:
    from resemblyzer import audio
    from .pretrained import PretrainedEncoder
    from .vad import apply_vad
    sr = cfg["sample_rate"]
    out = []
    for u in utts:
        mel = audio.wav_to_mel_spectrogram(PretrainedEncoder.preprocess(apply_vad(data.load_audio(u, sr=sr), sr,
                                                                                  cfg["vad"]), sr))
        if len(mel) < PARTIAL:
            mel = np.tile(mel, (PARTIAL // len(mel) + 1, 1))
        out.append(mel)
    return out


def _pair_eer(emb: np.ndarray, spk: list[str]) -> float:
    """EER (%) over all pairs of utterances (cosine): the dev figure of the convergence curve."""
    from .metrics import eer
    s = emb @ emb.T
    lab = np.array(spk)
    iu = np.triu_indices(len(lab), 1)
    same = (lab[:, None] == lab[None, :])[iu]
    return 100 * eer(s[iu][same], s[iu][~same])[0]


def train_ge2e(data_dir: str | os.PathLike, model_dir: str | os.PathLike, cfg: dict, seed: int = 0,
               on_epoch=None) -> dict:
    """on_epoch(epoch, voice_encoder) -> dict: figures added to each epoch's history entry (epoch 0: the encoder
    as shipped), as in train.train_attacker."""
    import torch
    # speechbrain's cosine classifier and AAM-softmax, as model.build_classifier / train.speaker_loss build them
    # (not imported from there: those modules dispatch to this one)
    from speechbrain.lobes.models.ECAPA_TDNN import Classifier
    from speechbrain.nnet.losses import AdditiveAngularMargin, LogSoftmaxWrapper
    from .pretrained import PretrainedEncoder
    from .vad import apply_vad

    data = DataDir.read(data_dir)
    model_dir = Path(model_dir)
    speakers = data.speakers
    if len(speakers) < 2:
        raise FormatError(Path(data_dir) / "utt2spk", None, f"need at least 2 speakers, found {len(speakers)}")
    g = cfg["ge2e"]
    epochs = int(g["finetune_epochs"])
    summary = {"speakers": len(speakers), "utterances": len(data.utts), "epochs": epochs, "history": [],
               "train_seconds": 0.0, "cpu_seconds": 0.0, "model": "ge2e",
               "weights": "resemblyzer 0.1.4 pretrained.pt" + (" (fine-tuned)" if epochs else " (as shipped)")}
    if epochs == 0:
        _save(model_dir, cfg, speakers, None)
        return summary

    t0, c0 = time.time(), time.process_time()
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    dev = list(rng.permutation(speakers)[:int(g["dev_speakers"])]) if g["dev_speakers"] else []
    train_spk = [s for s in speakers if s not in dev]
    utts = [u for u in data.utts if data.utt2spk[u] in train_spk]
    dev_utts = [u for u in data.utts if data.utt2spk[u] in dev]
    index = {s: i for i, s in enumerate(train_spk)}
    labels = torch.tensor([index[data.utt2spk[u]] for u in utts])
    mels = _mels(data, utts, cfg)
    sr = cfg["sample_rate"]
    dev_wavs = [PretrainedEncoder.preprocess(apply_vad(data.load_audio(u, sr=sr), sr, cfg["vad"]), sr)
                for u in dev_utts]

    enc = PretrainedEncoder(num_threads=None)
    model = enc.model
    for name, p in model.named_parameters():
        p.requires_grad = name in TRAINED
    head = Classifier(input_size=PretrainedEncoder.dim, lin_blocks=0, out_neurons=len(train_spk))
    loss_fn = LogSoftmaxWrapper(AdditiveAngularMargin(margin=cfg["aam_margin"], scale=cfg["aam_scale"]))
    opt = torch.optim.Adam([{"params": [p for p in model.parameters() if p.requires_grad], "lr": g["finetune_lr"]},
                            {"params": head.parameters(), "lr": 10 * g["finetune_lr"]}])

    def dev_eer():
        if not dev_utts:
            return None
        model.eval()
        e = np.stack([model.embed_utterance(w) for w in dev_wavs])
        return round(_pair_eer(e, [data.utt2spk[u] for u in dev_utts]), 3)

    def extra(ep):
        if on_epoch is None:
            return {}
        model.eval()
        return on_epoch(ep, model)

    history = [{"epoch": 0, "train_acc": None, "loss": None, "dev_eer_pct": dev_eer(), **extra(0)}]
    bs = cfg["batch_size"]
    for ep in range(1, epochs + 1):
        model.train()
        order = rng.permutation(len(utts))
        tot_loss, correct = 0.0, 0
        for b in range(0, len(order), bs):
            idx = order[b:b + bs]
            crops = []
            for i in idx:
                m = mels[i]
                s = int(rng.integers(0, len(m) - PARTIAL + 1))
                crops.append(m[s:s + PARTIAL])
            x = torch.from_numpy(np.stack(crops))
            y = labels[idx].unsqueeze(1)
            emb = model(x)
            out = head(emb.unsqueeze(1))
            loss = loss_fn(out, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot_loss += float(loss.detach()) * len(idx)
            correct += int((out.reshape(len(idx), -1).argmax(1) == y.squeeze(1)).sum())
        history.append({"epoch": ep, "train_acc": round(correct / len(utts), 4),
                        "loss": round(tot_loss / len(utts), 4), "dev_eer_pct": dev_eer(), **extra(ep)})
        log.info("ge2e fine-tuning epoch %d: %s", ep, history[-1])
    model.eval()
    state = {k: v.detach().clone() for k, v in model.state_dict().items()}
    _save(model_dir, cfg, train_spk, state)
    summary.update({"history": history, "dev_speakers": dev, "train_speakers_used": len(train_spk),
                    "train_seconds": round(time.time() - t0, 2), "cpu_seconds": round(time.process_time() - c0, 2)})
    return summary
