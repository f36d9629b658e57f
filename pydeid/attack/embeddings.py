"""Embedding files in Kaldi format (kaldiio): <dir>/xvector.scp (one vector per utterance, float32) and
<dir>/spk_xvector.scp (mean per speaker, as Kaldi's ivector-mean) with <dir>/num_utts.ark.

Writes are all-or-nothing: the ark is written under a temporary name, then renamed, and only then is the scp
(the index every reader uses) written atomically; a killed job leaves no scp behind.
"""

from __future__ import annotations

import os
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
