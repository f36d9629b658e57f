"""Train the attacker's embedding network from scratch on the speakers of one data dir.

Each batch uses one crop length drawn in [crop_min, crop_max] seconds, and every utterance of the batch is
cropped at a random offset (tiled when shorter): fixed shapes, no padding, fast on CPU. All randomness
(crop lengths, offsets, order, initialisation) derives from --seed.
"""

from __future__ import annotations

import logging
import math
import os
import time
from pathlib import Path

import numpy as np
import torch

from pydeid.io import DataDir, FormatError

from .model import SpeakerEmbedder, build_classifier, save_model

log = logging.getLogger(__name__)


def crop(wav: np.ndarray, n: int, start_frac: float) -> np.ndarray:
    """A window of n samples starting at start_frac of the free room; short audio is tiled to n."""
    if len(wav) == 0:
        return np.zeros(n, dtype=np.float32)
    if len(wav) < n:
        wav = np.tile(wav, int(math.ceil(n / len(wav))))
        return wav[:n]
    start = int(start_frac * (len(wav) - n + 1))
    return wav[start:start + n]


class CropDataset(torch.utils.data.Dataset):
    """Items are (utterance index, crop samples, start fraction) triples chosen by the batch plan."""

    def __init__(self, data: DataDir, utts: list[str], cache: bool, sr: int, vad: str = "none"):
        self.data, self.utts, self.sr, self.vad = data, utts, sr, vad
        self.cache = None
        if cache:
            self.cache = [self._load(u) for u in utts]

    def _load(self, utt: str) -> np.ndarray:
        from .vad import apply_vad
        return apply_vad(self.data.load_audio(utt, sr=self.sr), self.sr, self.vad)

    def __len__(self):
        return len(self.utts)

    def __getitem__(self, item):
        i, n, frac = item
        wav = self.cache[i] if self.cache is not None else self._load(self.utts[i])
        return torch.from_numpy(np.ascontiguousarray(crop(wav, n, frac))), i


def epoch_plan(n_utts: int, cfg: dict, rng: np.random.Generator) -> list[list[tuple[int, int, float]]]:
    """The batches of one epoch: shuffled utterance indices, one crop length per batch."""
    order = np.concatenate([rng.permutation(n_utts) for _ in range(cfg["crops_per_utt"])])
    bs = cfg["batch_size"]
    batches = []
    for b in range(0, len(order), bs):
        idx = order[b:b + bs]
        if len(idx) < 2:  # batch norm needs two examples
            continue
        n = int(rng.uniform(cfg["crop_min"], cfg["crop_max"]) * cfg["sample_rate"])
        batches.append([(int(i), n, float(f)) for i, f in zip(idx, rng.random(len(idx)))])
    return batches


def speaker_loss(cfg: dict):
    """The speaker-classification loss of the config: additive angular margin (AAM-softmax) or cross-entropy."""
    from speechbrain.nnet.losses import AdditiveAngularMargin, LogSoftmaxWrapper
    if cfg["loss"] == "aam":
        return LogSoftmaxWrapper(AdditiveAngularMargin(margin=cfg["aam_margin"], scale=cfg["aam_scale"]))
    ce = torch.nn.CrossEntropyLoss()
    return lambda out, y: ce(out, y.squeeze(1))


def train_step(embedder, classifier, loss_fn, opt, sched, x, labels, cfg: dict) -> tuple[float, int]:
    """One optimiser step on a batch x of speakers `labels`; returns (summed loss, correct predictions). Shared by
    the waveform x-vector attacker and the attacker on ASR representations (pydeid.asr.phi_attack)."""
    y = labels.unsqueeze(1)
    emb = embedder(x)
    out = classifier(emb.unsqueeze(1)) if cfg["loss"] == "aam" else classifier(emb)
    loss = loss_fn(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    return float(loss.detach()) * len(labels), int((out.reshape(len(labels), -1).argmax(1) == y.squeeze(1)).sum())


STATE = "train_state.pt"   # the training state after the last finished epoch (removed once the model is saved)


def _state_key(cfg: dict, seed: int, data: DataDir, utts: list[str]) -> str:
    import hashlib
    import json
    from .embeddings import data_fingerprint
    return hashlib.sha1(f"{json.dumps(cfg, sort_keys=True)}|{seed}|{data_fingerprint(data)}".encode()).hexdigest()


def _save_state(path: Path, state: dict) -> None:
    from pydeid.io import atomic_write
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(path, "wb", encoding=None) as f:
        torch.save(state, f)


def train_attacker(data_dir: str | os.PathLike, model_dir: str | os.PathLike, cfg: dict, seed: int = 0,
                   progress: bool | None = None, on_epoch=None) -> dict:
    """Train on every utterance of data_dir (speakers = classes); write model_dir; return a training summary.
    on_epoch(epoch, embedder) -> dict: called after every epoch (embedder in eval mode, e.g. a held-out EER for the
    convergence curve); its figures join the epoch's history entry."""
    from tqdm import tqdm

    if cfg["model"] == "ge2e":   # pretrained: saved as shipped, or fine-tuned
        from .pretrained_finetune import train_ge2e
        return train_ge2e(data_dir, model_dir, cfg, seed=seed, on_epoch=on_epoch)
    data = DataDir.read(data_dir)
    utts = data.utts
    speakers = data.speakers
    if len(speakers) < 2:
        raise FormatError(Path(data_dir) / "utt2spk", None,
                          f"need at least 2 speakers to train a speaker classifier, found {len(speakers)}")
    spk_index = {s: i for i, s in enumerate(speakers)}
    labels = torch.tensor([spk_index[data.utt2spk[u]] for u in utts])

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    embedder = SpeakerEmbedder(cfg)
    classifier = build_classifier(cfg, embedder.dim, len(speakers))
    loss_fn = speaker_loss(cfg)
    params = list(embedder.parameters()) + list(classifier.parameters())
    opt = torch.optim.Adam(params, lr=cfg["lr"], weight_decay=cfg["weight_decay"])

    t0, c0 = time.time(), time.process_time()
    dataset = CropDataset(data, utts, cfg["cache_audio"], cfg["sample_rate"], cfg["vad"])
    t_load = time.time() - t0
    plans = [epoch_plan(len(utts), cfg, rng) for _ in range(cfg["epochs"])]
    total_steps = sum(len(p) for p in plans)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=cfg["lr"], total_steps=max(total_steps, 1),
                                                pct_start=0.15, anneal_strategy="cos")
    if progress is None:
        progress = os.isatty(2)
    history = []
    # resumable: the state after each epoch; the batch plans are drawn up front, so a resumed run takes the
    # same steps as an uninterrupted one (same seed -> same model)
    state_path = Path(model_dir) / STATE
    key = _state_key(cfg, seed, data, utts)
    first = 1
    if state_path.is_file():
        st = torch.load(state_path, map_location="cpu", weights_only=False)
        if st.get("key") == key:
            embedder.load_state_dict(st["embedder"])
            classifier.load_state_dict(st["classifier"])
            opt.load_state_dict(st["opt"])
            sched.load_state_dict(st["sched"])
            torch.set_rng_state(st["torch_rng"])
            history = st["history"]
            first = st["epoch"] + 1
            log.info("resuming %s after epoch %d", model_dir, st["epoch"])
        else:
            log.info("%s holds the state of another training: starting afresh", state_path)
    embedder.train()
    classifier.train()
    bar = tqdm(total=total_steps, disable=not progress, desc="train-xvector", unit="batch")
    for epoch, plan in enumerate(plans, 1):
        if epoch < first:
            continue
        loader = torch.utils.data.DataLoader(dataset, batch_sampler=plan, num_workers=cfg["num_workers"])
        tot_loss, correct, seen = 0.0, 0, 0
        for wav, idx in loader:
            loss_sum, hits = train_step(embedder, classifier, loss_fn, opt, sched, wav, labels[idx], cfg)
            tot_loss += loss_sum
            correct += hits
            seen += len(idx)
            bar.update(1)
        history.append({"epoch": epoch, "loss": tot_loss / max(seen, 1), "train_acc": correct / max(seen, 1)})
        if on_epoch is not None:
            embedder.eval()
            with torch.random.fork_rng(devices=[]):   # the evaluation leaves the training's draws alone
                history[-1].update(on_epoch(epoch, embedder))
            embedder.train()
        log.info("epoch %d/%d loss %.4f train-acc %.3f (%.1f s)", epoch, cfg["epochs"], history[-1]["loss"],
                 history[-1]["train_acc"], time.time() - t0)
        if epoch < len(plans):
            _save_state(state_path, {"key": key, "epoch": epoch, "embedder": embedder.state_dict(),
                                     "classifier": classifier.state_dict(), "opt": opt.state_dict(),
                                     "sched": sched.state_dict(), "torch_rng": torch.get_rng_state(),
                                     "history": history})
    bar.close()
    embedder.eval()
    save_model(model_dir, cfg, embedder, speakers)
    state_path.unlink(missing_ok=True)
    audio_s = sum(len(w) for w in dataset.cache) / cfg["sample_rate"] if dataset.cache is not None else None
    summary = {"speakers": len(speakers), "utterances": len(utts), "seed": seed, "epochs": cfg["epochs"],
               "steps": total_steps, "train_seconds": round(time.time() - t0, 2),
               "cpu_seconds": round(time.process_time() - c0, 1), "model": cfg["model"], "vad": cfg["vad"],
               "load_seconds": round(t_load, 2),
               "audio_hours": None if audio_s is None else round(audio_s / 3600, 4), "history": history}
    return summary
