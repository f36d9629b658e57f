"""Embed every utterance of a data dir with a trained attacker model (whole utterance; long ones in chunks of
max_chunk seconds whose embeddings are averaged, weighted by duration)."""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

import numpy as np
import torch

from pydeid.io import DataDir

from .embeddings import extraction_done, finalize_xvector_dir, write_vectors  # noqa: F401 (re-export)
from .model import load_model
from .vad import apply_vad

log = logging.getLogger(__name__)
MIN_SAMPLES = 400  # one 25 ms analysis window: shorter audio is tiled up to this length


@torch.no_grad()
def embed_waveform(embedder, wav: np.ndarray, sr: int, max_chunk: float) -> np.ndarray:
    if len(wav) < MIN_SAMPLES:
        wav = np.tile(wav, MIN_SAMPLES // max(len(wav), 1) + 1)[:MIN_SAMPLES] if len(wav) else np.zeros(MIN_SAMPLES)
    n = int(max_chunk * sr)
    chunks = [wav[i:i + n] for i in range(0, len(wav), n)]
    if len(chunks) > 1 and len(chunks[-1]) < sr:  # fold a short tail into the previous chunk
        chunks[-2] = np.concatenate([chunks[-2], chunks[-1]])
        chunks.pop()
    embs, weights = [], []
    for c in chunks:
        x = torch.from_numpy(np.ascontiguousarray(c, dtype=np.float32)).unsqueeze(0)
        embs.append(embedder(x).squeeze(0).double().numpy())
        weights.append(len(c))
    return np.average(np.stack(embs), axis=0, weights=weights)


def extract_data_dir(model_dir: str | os.PathLike, data_dir: str | os.PathLike, ark: str | os.PathLike,
                     scp: str | os.PathLike, progress: bool | None = None) -> dict:
    """Write one embedding per utterance of data_dir to ark/scp; return timing figures.

    Resumable per job: when scp already holds the embeddings of exactly this data (same fingerprint) and
    model, it is left alone.
    """
    from tqdm import tqdm
    from pydeid.io import atomic_write_text
    data = DataDir.read(data_dir)
    scp = Path(scp)
    done, stamp, fingerprint = extraction_done(model_dir, data, scp)
    if done:
        log.info("%s already holds the %d embeddings of %s: skipped", scp, len(data.utts), data_dir)
        return {"utterances": len(data.utts), "skipped": True}
    embedder, cfg = load_model(model_dir)
    sr = cfg["sample_rate"]
    if progress is None:
        progress = os.isatty(2)
    vectors, audio_s, t0 = {}, 0.0, time.time()
    for utt in tqdm(data.utts, disable=not progress, desc="extract-xvectors", unit="utt"):
        wav = apply_vad(data.load_audio(utt, sr=sr), sr, cfg["vad"])   # the front-end the model was trained with
        audio_s += len(wav) / sr
        if cfg["model"] == "ge2e":   # the pretrained encoder: its own preprocessing and 1.6 s partials
            vectors[utt] = embedder.embed(wav, sr)
        else:
            vectors[utt] = embed_waveform(embedder, wav, sr, cfg["max_chunk"])
    elapsed = time.time() - t0
    stamp.unlink(missing_ok=True)
    write_vectors(ark, scp, vectors)
    atomic_write_text(stamp, fingerprint + "\n")
    rtf = elapsed / audio_s if audio_s else None
    log.info("embedded %d utterances (%.1f s of audio) in %.1f s: RTF %.4f", len(vectors), audio_s, elapsed,
             rtf or 0.0)
    return {"utterances": len(vectors), "audio_seconds": round(audio_s, 2), "seconds": round(elapsed, 2),
            "rtf": None if rtf is None else round(rtf, 5), "skipped": False}
