"""Embedding files in Kaldi format (kaldiio): <dir>/xvector.scp (one vector per utterance, float32) and
<dir>/spk_xvector.scp (mean per speaker, as Kaldi's ivector-mean) with <dir>/num_utts.ark.

Writes are all-or-nothing: the ark is written under a temporary name, then renamed, and only then is the scp
(the index every reader uses) written atomically; a killed job leaves no scp behind.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from pydeid.io import FormatError, atomic_write_text, kaldi_sort_key


def write_vectors(ark: str | os.PathLike, scp: str | os.PathLike, vectors: dict[str, np.ndarray]) -> None:
    import kaldiio
    ark, scp = Path(ark), Path(scp)
    ark.parent.mkdir(parents=True, exist_ok=True)
    tmp_ark = ark.with_name(f".{ark.name}.{os.getpid()}.tmp")
    tmp_scp = scp.with_name(f".{scp.name}.{os.getpid()}.tmp")
    keys = sorted(vectors, key=kaldi_sort_key)
    try:
        kaldiio.save_ark(str(tmp_ark), {k: np.asarray(vectors[k], dtype=np.float32) for k in keys}, scp=str(tmp_scp))
        lines = tmp_scp.read_text().splitlines()
        os.replace(tmp_ark, ark)
        # scp values are "<ark path>:<offset>": point them at the final ark name
        fixed = []
        for line in lines:
            key, loc = line.split(" ", 1)
            offset = loc.rsplit(":", 1)[1]
            fixed.append(f"{key} {ark}:{offset}")
        atomic_write_text(scp, "".join(line + "\n" for line in fixed))
    finally:
        for t in (tmp_ark, tmp_scp):
            t.unlink(missing_ok=True)


def read_vectors(scp: str | os.PathLike) -> dict[str, np.ndarray]:
    import kaldiio
    scp = Path(scp)
    if not scp.is_file():
        raise FormatError(scp, None, "embedding index is missing (run steps/extract_xvectors.sh first)")
    out = {}
    with kaldiio.ReadHelper(f"scp:{scp}") as reader:
        for key, vec in reader:
            out[key] = np.asarray(vec, dtype=np.float64).reshape(-1)
    return out


def speaker_means(utt_vectors: dict[str, np.ndarray], utt2spk: dict[str, str]) -> tuple[dict, dict]:
    """Mean raw embedding per speaker, and the number of utterances averaged."""
    groups: dict[str, list[np.ndarray]] = {}
    for utt, vec in utt_vectors.items():
        if utt not in utt2spk:
            continue
        groups.setdefault(utt2spk[utt], []).append(vec)
    means = {s: np.mean(v, axis=0) for s, v in groups.items()}
    counts = {s: len(v) for s, v in groups.items()}
    return means, counts


def write_speaker_means(out_dir: str | os.PathLike, utt_vectors: dict[str, np.ndarray],
                        utt2spk: dict[str, str]) -> None:
    out_dir = Path(out_dir)
    means, counts = speaker_means(utt_vectors, utt2spk)
    write_vectors(out_dir / "spk_xvector.ark", out_dir / "spk_xvector.scp", means)
    atomic_write_text(out_dir / "num_utts.ark",
                      "".join(f"{s} {counts[s]}\n" for s in sorted(counts, key=kaldi_sort_key)))


def data_fingerprint(data) -> str:
    """Hash of what decides the embeddings (audio specs, segments, utterance list): a cached extraction is
    reused only for the very same data."""
    import hashlib
    h = hashlib.sha1()
    for utt in data.utts:
        spec, start, end = data.audio_spec(utt)
        h.update(f"{utt}\t{spec}\t{start}\t{end}\n".encode())
    return h.hexdigest()


def _model_stamp(model_dir) -> str:
    from .config import CKPT
    st = (Path(model_dir) / CKPT).stat()
    return f"{Path(model_dir).resolve()}:{st.st_size}:{int(st.st_mtime)}"


@contextmanager
def xvector_dir_lock(xvec_dir):
    """Hold an exclusive lock on an embedding dir (its .lock file) while it is checked, written or merged: the
    recipes run attacks side by side that share an attacker's cached embeddings of the same set."""
    import fcntl
    xvec_dir = Path(xvec_dir)
    xvec_dir.mkdir(parents=True, exist_ok=True)
    with open(xvec_dir / ".lock", "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def extraction_done(model_dir, data, scp: Path) -> tuple[bool, Path, str]:
    """(done?, stamp path, fingerprint): done when scp holds exactly the embeddings of this data and model."""
    stamp = scp.with_name(scp.name + ".fingerprint")
    fingerprint = data_fingerprint(data) + " " + _model_stamp(model_dir)
    if scp.is_file() and stamp.is_file() and stamp.read_text().strip() == fingerprint:
        try:
            done = read_vectors(scp)
        except Exception:  # unreadable leftovers are simply recomputed
            done = {}
        if set(done) == set(data.utts):
            return True, stamp, fingerprint
    return False, stamp, fingerprint


def finalize_xvector_dir(data_dir: str | os.PathLike, xvec_dir: str | os.PathLike, nj: int | None = None) -> dict:
    """Merge the per-job indexes xvector.1..nj.scp (when nj is given) into xvector.scp, check it covers the
    data dir, write the speaker means (spk_xvector.scp, num_utts.ark) and copy utt2spk / genders so the
    directory is self-contained."""
    from pydeid.io import DataDir, write_kaldi_map
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
