"""Convergence of the attackers on held-out TRAIN speakers (the dev protocol: no test speaker is used): each trained
attacker (x-vector conf/xvector/mini.yaml, ECAPA conf/xvector/ecapa_mini.yaml, the GE2E encoder fine-tuned) is
trained on the other train speakers of a data dir (original or converted by the attacker) and after every epoch
the training accuracy and the EER of the held-out speakers (every pair of their utterances, cosine) are recorded.

    python bench/attacker_convergence.py --data data/train_xv --dev-speakers 6 --models xvector,ecapa,ge2e \
        --out exp/convergence/original.json

Run from egs/speechocean762/s5 (configs under conf/xvector). One torch thread.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

CONFIGS = {"xvector": "conf/xvector/mini.yaml", "ecapa": "conf/xvector/ecapa_mini.yaml",
           "ge2e": "conf/xvector/ge2e.yaml"}


def main() -> None:
    import tempfile

    import torch

    from pydeid.attack.config import load_config
    from pydeid.attack.extract import embed_waveform
    from pydeid.attack.pretrained import PretrainedEncoder
    from pydeid.attack.pretrained_finetune import _pair_eer
    from pydeid.attack.train import train_attacker
    from pydeid.attack.vad import apply_vad
    from pydeid.io import DataDir, atomic_write_text

    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--dev-speakers", type=int, default=6)
    ap.add_argument("--models", default="xvector,ecapa,ge2e")
    ap.add_argument("--ge2e-epochs", type=int, default=6)
    ap.add_argument("--vad", default="energy")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    torch.set_num_threads(1)
    data = DataDir.read(a.data)
    rng = np.random.default_rng(a.seed)
    # the held-out train speakers (a seeded draw)
    dev = [str(s) for s in rng.permutation(data.speakers)[:a.dev_speakers]]
    out = {"data": a.data, "dev_speakers": dev, "vad": a.vad, "seed": a.seed, "models": {}}
    out_path = Path(a.out)
    if out_path.is_file():
        out = json.loads(out_path.read_text())
    with tempfile.TemporaryDirectory() as tmp:
        train_dir = Path(tmp) / "train"
        data.subset([u for u in data.utts if data.utt2spk[u] not in dev]).write(train_dir)
        dev_utts = [u for u in data.utts if data.utt2spk[u] in dev]
        dev_spk = [data.utt2spk[u] for u in dev_utts]
        for name in a.models.split(","):
            if name in out["models"]:
                continue
            t0, c0 = time.time(), time.process_time()
            over = {"vad": a.vad}
            if name == "ge2e":
                over["ge2e"] = {"finetune_epochs": a.ge2e_epochs, "dev_speakers": 0}
            cfg = load_config(CONFIGS[name], over)
            sr = cfg["sample_rate"]
            wavs = [apply_vad(data.load_audio(u, sr=sr), sr, a.vad) for u in dev_utts]
            if name == "ge2e":
                wavs = [PretrainedEncoder.preprocess(w, sr) for w in wavs]

            def on_epoch(epoch, net, wavs=wavs, cfg=cfg, name=name):
                if name == "ge2e":   # net: resemblyzer's VoiceEncoder being fine-tuned
                    e = np.stack([net.embed_utterance(w) for w in wavs])
                else:
                    e = np.stack([embed_waveform(net, w, sr, cfg["max_chunk"]) for w in wavs])
                e /= np.linalg.norm(e, axis=1, keepdims=True)
                return {"dev_eer_pct": round(_pair_eer(e, dev_spk), 3)}
            summary = train_attacker(train_dir, Path(tmp) / name, cfg, seed=a.seed, progress=False,
                                     on_epoch=on_epoch)
            out["models"][name] = {"config": CONFIGS[name], "history": summary["history"],
                                   "train_speakers": summary.get("train_speakers_used", summary["speakers"]),
                                   "utterances": summary["utterances"],
                                   "cpu_seconds": round(time.process_time() - c0, 1),
                                   "wall_seconds": round(time.time() - t0, 1)}
            out_path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(out_path, json.dumps(out, indent=1) + "\n")   # resumable per model
            print(name, json.dumps(out["models"][name]["history"]))


if __name__ == "__main__":
    main()
