"""Seed 004 table 1's attacker on ASR representations: an x-vector network trained on phi_alpha(X) sequences.

Section 4.1.1 of seed 004 implements the speaker-recognition attacker with x-vectors (Snyder et al. 2018): here a
speechbrain x-vector TDNN (the project's attacker, pydeid.attack, with its config conf/xvector/*.yaml) reads,
instead of filterbanks of the waveform, the frame sequence of a representation:
  filterbank  the normalised log-mel features of the first ASR model (front end + its global MVN)
  phi_alpha   the encoder output of a model trained with adversarial weight alpha (alpha 0: the plain ASR encoder)
For each representation the attacker is trained from scratch on the training speakers' sequences (speakers =
classes, AAM loss; random crops of crop_min..crop_max seconds, i.e. that many frames at the representation's frame
rate, each crop mean-normalised like the waveform attacker's features), embeds the enrolment and trial
utterances whole, and is scored by pydeid.attack.evaluate (cosine and PLDA back-ends fitted on the training
embeddings): EER pooled/male/female with the project's 95 % speaker-bootstrap interval and trial counts, on the
same trial list as every other attack. Everything derives from --seed.
"""

from __future__ import annotations

import logging
import math
import time
from pathlib import Path

import numpy as np
import torch

from pydeid.io import DataDir, kaldi_sort_key

from .probe import representation

log = logging.getLogger(__name__)


def sequences(model, data: DataDir, utts: list[str], kind: str) -> dict[str, np.ndarray]:
    """utt -> [T, D] float32 frames of the 'encoder' output or the normalised 'filterbank' features."""
    out = {}
    with torch.no_grad():
        for u in utts:
            x, xl = representation(model, data.load_audio(u), kind)
            out[u] = x[0, : int(xl[0])].numpy().astype(np.float32)
    return out


def frame_rate(seqs: dict[str, np.ndarray], data: DataDir) -> float:
    """Frames per second of a representation (total frames / total seconds of the audio)."""
    frames = sum(len(v) for v in seqs.values())
    secs = sum(len(data.load_audio(u)) for u in seqs) / 16000.0
    return frames / secs if secs else 100.0


def _crop(x: np.ndarray, n: int, frac: float) -> np.ndarray:
    if len(x) < n:
        x = np.concatenate([x] * int(math.ceil(n / max(len(x), 1))), axis=0)
        return x[:n]
    s = int(frac * (len(x) - n + 1))
    return x[s:s + n]


class SeqEmbedder(torch.nn.Module):
    """[B, T, D] representation frames -> [B, E] embedding: per-utterance mean normalisation + x-vector TDNN."""

    def __init__(self, dim: int, cfg: dict):
        super().__init__()
        from speechbrain.lobes.models.Xvector import Xvector
        x = cfg["xvector"]
        self.net = Xvector(in_channels=dim, tdnn_channels=list(x["tdnn_channels"]), lin_neurons=x["lin_neurons"])
        self.dim = x["lin_neurons"]

    def forward(self, feats: torch.Tensor) -> torch.Tensor:
        feats = feats - feats.mean(dim=1, keepdim=True)
        if self.training:
            return self.net(feats).squeeze(1)
        with torch.random.fork_rng(devices=[]):   # speechbrain's pooling noise: fixed (see attack.model)
            torch.manual_seed(0)
            return self.net(feats).squeeze(1)


def train_embedder(seqs: dict[str, np.ndarray], utt2spk: dict[str, str], cfg: dict, fps: float,
                   seed: int = 0) -> tuple[SeqEmbedder, dict]:
    """Train from scratch on every sequence (speakers = classes); the batch plan of pydeid.attack.train with crop
    lengths in frames (crop seconds x fps)."""

    from pydeid.attack.model import build_classifier
    from pydeid.attack.train import epoch_plan, speaker_loss, train_step
    utts = sorted(seqs, key=kaldi_sort_key)
    speakers = sorted({utt2spk[u] for u in utts})
    if len(speakers) < 2:
        raise ValueError(f"need at least 2 training speakers, found {len(speakers)}")
    index = {s: i for i, s in enumerate(speakers)}
    labels = torch.tensor([index[utt2spk[u]] for u in utts])
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    dim = seqs[utts[0]].shape[1]
    emb = SeqEmbedder(dim, cfg)
    clf = build_classifier(cfg, emb.dim, len(speakers))
    loss_fn = speaker_loss(cfg)
    opt = torch.optim.Adam(list(emb.parameters()) + list(clf.parameters()), lr=cfg["lr"],
                           weight_decay=cfg["weight_decay"])
    # epoch_plan draws crop lengths in samples (seconds x sample_rate): the same draws, converted to frames
    plans = [epoch_plan(len(utts), cfg, rng) for _ in range(cfg["epochs"])]
    total = max(sum(len(p) for p in plans), 1)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=cfg["lr"], total_steps=total, pct_start=0.15,
                                                anneal_strategy="cos")
    t0 = time.time()
    emb.train()
    clf.train()
    history = []
    for epoch, plan in enumerate(plans, 1):
        tot, correct, seen = 0.0, 0, 0
        for batch in plan:
            n = max(3, int(round(batch[0][1] / cfg["sample_rate"] * fps)))
            x = torch.from_numpy(np.stack([_crop(seqs[utts[i]], n, f) for i, _, f in batch]))
            idx = torch.tensor([i for i, _, _ in batch])
            loss_sum, hits = train_step(emb, clf, loss_fn, opt, sched, x, labels[idx], cfg)
            tot += loss_sum
            correct += hits
            seen += len(idx)
        history.append({"epoch": epoch, "loss": tot / max(seen, 1), "train_acc": correct / max(seen, 1)})
    emb.eval()
    return emb, {"speakers": len(speakers), "utterances": len(utts), "epochs": cfg["epochs"], "fps": round(fps, 2),
                 "train_seconds": round(time.time() - t0, 2), "history": history}


@torch.no_grad()
def embed(emb: SeqEmbedder, seqs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Whole-utterance embeddings (sequences shorter than the TDNN's context are tiled to 16 frames)."""
    return {u: emb(torch.from_numpy(_crop(x, max(len(x), 16), 0.0)).unsqueeze(0))[0].double().numpy()
            for u, x in seqs.items()}


def _write_xvector_dir(d: Path, vectors: dict[str, np.ndarray], utt2spk: dict[str, str]) -> Path:
    from pydeid.attack.embeddings import write_vectors
    from pydeid.io import atomic_write_text
    d.mkdir(parents=True, exist_ok=True)
    write_vectors(d / "xvector.ark", d / "xvector.scp", vectors)
    atomic_write_text(d / "utt2spk", "".join(f"{u} {utt2spk[u]}\n" for u in sorted(vectors, key=kaldi_sort_key)))
    return d


def phi_attack(models: list[tuple[str, str]], train_data, enroll_data, trial_data, out_dir, cfg: dict,
               seed: int = 0, trials_file=None, backends=("cosine", "plda")) -> list[dict]:
    """One attack per representation (the first model also gives 'Filterbank'); each writes
    <out_dir>/<label>/scores/metrics.json (pydeid.attack.evaluate). Returns the metrics dicts in column order."""
    import json

    from pydeid.attack.evaluate import evaluate

    from .probe import load_model
    out_dir = Path(out_dir)
    train, enroll, trial = DataDir.read(train_data), DataDir.read(enroll_data), DataDir.read(trial_data)
    trials_file = Path(trials_file or Path(trial_data) / "trials")
    trial_utts = trial.utts   # pydeid.attack.evaluate scores every utterance of the trial dir
    runs = []
    for i, (label, exp) in enumerate(models):
        model = load_model(exp)
        for kind in (["filterbank"] if i == 0 else []) + ["encoder"]:
            name = "Filterbank" if kind == "filterbank" else label
            d = out_dir / name.replace("/", "_")
            done = d / "scores" / "metrics.json"
            if done.exists():
                runs.append(json.loads(done.read_text()))
                continue
            t0 = time.time()
            tr = sequences(model, train, train.utts, kind)
            net, summary = train_embedder(tr, train.utt2spk, cfg, frame_rate(tr, train), seed)
            x_tr = _write_xvector_dir(d / "xvectors_train", embed(net, tr), train.utt2spk)
            x_en = _write_xvector_dir(d / "xvectors_enroll", embed(net, sequences(model, enroll, enroll.utts, kind)),
                                      enroll.utt2spk)
            x_te = _write_xvector_dir(d / "xvectors_trial", embed(net, sequences(model, trial, trial_utts, kind)),
                                      trial.utt2spk)
            info = {"representation": name, "model": str(exp), "kind": kind, "seed": seed, "attacker": summary,
                    "dim": int(tr[next(iter(tr))].shape[1])}
            res = evaluate(x_tr, enroll_data, x_en, trial_data, x_te, trials_file, d / "scores", backends=backends,
                           info=info, lda_dim=cfg["lda_dim"], plda_rank=cfg["plda_rank"], plots=False)
            res["info"]["total_seconds"] = round(time.time() - t0, 2)
            (d / "scores" / "metrics.json").write_text(json.dumps(res, indent=1, sort_keys=True) + "\n")
            log.info("%s: EER cosine pooled %.2f %% (%.0f s)", name,
                     res["backends"]["cosine"]["pooled"].get("eer_pct", float("nan")), res["info"]["total_seconds"])
            runs.append(res)
    return runs


def phi_table(runs: list[dict], backend: str = "cosine") -> str:
    """Seed 004 table 1's EER rows: one column per representation, 'EER [95 % CI]' and trial counts."""
    from pydeid.attack.results import eer_cell
    from pydeid.report import markdown_table
    cols = [r["info"]["representation"] for r in runs]
    rows = []
    for sub, name in (("pooled", "EER Pooled"), ("male", "EER Male"), ("female", "EER Female")):
        rows.append([name] + [eer_cell(r["backends"][backend].get(sub, {})) for r in runs])
        rows.append([f"  trials ({sub}: target / non-target)"] +
                    [f"{r['backends'][backend].get(sub, {}).get('n_target', 0)} / "
                     f"{r['backends'][backend].get(sub, {}).get('n_nontarget', 0)}" for r in runs])
    return markdown_table([f"x-vector attacker ({backend})"] + cols, rows)
