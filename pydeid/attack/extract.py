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

from .embeddings import read_vectors, write_vectors
from .model import load_model

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


def data_fingerprint(data: DataDir) -> str:
    """Hash of what decides the embeddings (audio specs, segments, utterance list): a cached extraction is
    reused only for the very same data."""
    import hashlib
    h = hashlib.sha1()
    for utt in data.utts:
        spec, start, end = data.audio_spec(utt)
        h.update(f"{utt}\t{spec}\t{start}\t{end}\n".encode())
    return h.hexdigest()


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
    stamp = scp.with_name(scp.name + ".fingerprint")
    fingerprint = data_fingerprint(data) + " " + _model_stamp(model_dir)
    if scp.is_file() and stamp.is_file() and stamp.read_text().strip() == fingerprint:
        try:
            done = read_vectors(scp)
        except Exception:  # unreadable leftovers are simply recomputed
            done = {}
        if set(done) == set(data.utts):
            log.info("%s already holds the %d embeddings of %s: skipped", scp, len(done), data_dir)
            return {"utterances": len(done), "skipped": True}
    embedder, cfg = load_model(model_dir)
    sr = cfg["sample_rate"]
    if progress is None:
        progress = os.isatty(2)
    vectors, audio_s, t0 = {}, 0.0, time.time()
    for utt in tqdm(data.utts, disable=not progress, desc="extract-xvectors", unit="utt"):
        wav = data.load_audio(utt, sr=sr)
        audio_s += len(wav) / sr
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


def _model_stamp(model_dir) -> str:
    from .model import CKPT
    st = (Path(model_dir) / CKPT).stat()
    return f"{Path(model_dir).resolve()}:{st.st_size}:{int(st.st_mtime)}"


def finalize_xvector_dir(data_dir: str | os.PathLike, xvec_dir: str | os.PathLike, nj: int | None = None) -> dict:
    """Merge the per-job indexes xvector.1..nj.scp (when nj is given) into xvector.scp, check it covers the
    data dir, write the speaker means (spk_xvector.scp, num_utts.ark) and copy utt2spk / genders so the
    directory is self-contained."""
    from pydeid.io import FormatError, atomic_write_text, kaldi_sort_key, write_kaldi_map
    from .embeddings import write_speaker_means
    data = DataDir.read(data_dir)
    xvec_dir = Path(xvec_dir)
    if nj:
        parts = [xvec_dir / f"xvector.{n}.scp" for n in range(1, nj + 1)]
        for p in parts:
            if not p.is_file():
                raise FormatError(p, None, "missing output of an extraction job: see the job logs")
        lines = {}
        for p in parts:
            for line in p.read_text().splitlines():
                if line.strip():
                    key = line.split(" ", 1)[0]
                    lines[key] = line
        atomic_write_text(xvec_dir / "xvector.scp",
                          "".join(lines[k] + "\n" for k in sorted(lines, key=kaldi_sort_key)))
    vectors = read_vectors(xvec_dir / "xvector.scp")
    missing = sorted(set(data.utts) - set(vectors), key=kaldi_sort_key)
    if missing:
        raise FormatError(xvec_dir / "xvector.scp", None, f"{len(missing)} utterance(s) of {data_dir} have no "
                          f"embedding (e.g. '{missing[0]}'): a job failed, see the logs")
    vectors = {u: vectors[u] for u in data.utts}
    write_speaker_means(xvec_dir, vectors, data.utt2spk)
    write_kaldi_map(xvec_dir / "utt2spk", data.utt2spk)
    for name, table in (("utt2gender", data.utt2gender), ("spk2gender", data.spk2gender)):
        if table is not None:
            write_kaldi_map(xvec_dir / name, table)
    dims = {v.shape[0] for v in vectors.values()}
    return {"utterances": len(vectors), "speakers": len(data.spk2utt), "dim": sorted(dims)}
