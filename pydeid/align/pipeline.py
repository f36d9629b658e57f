"""Align a whole Kaldi data dir: <ali-dir>/wrd_ali/ctm, <ali-dir>/phn_ali/ctm and <ali-dir>/report.json.

Times are seconds relative to the utterance start (segments are resolved by pydeid.io), keyed by utterance id,
channel 1: the seed 004 A.4 layout, one CTM file per directory.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections import Counter
from pathlib import Path

from pydeid.io import CtmEntry, DataDir, atomic_write_text, write_ctm

from .result import STAT_KEYS, UttAlignment

log = logging.getLogger(__name__)
BACKENDS = ("pocketsphinx", "ctc")


def make_aligner(backend: str, model: str | None, **kw):
    if backend == "pocketsphinx":
        from .pocketsphinx_backend import PocketsphinxAligner
        return PocketsphinxAligner(model or "en-us", extra_dict=kw.get("extra_dict"),
                                   use_g2p=kw.get("use_g2p", True), phones=kw.get("phones", True))
    if backend == "ctc":
        from .ctc import CtcAligner
        if not model:
            raise ValueError("--backend ctc needs an ESPnet exp dir (config.yaml + *.pth)")
        if not kw.get("model_file"):   # the caller chooses it (pydeid.asr.checkpoints): align imports nothing from asr
            raise ValueError("--backend ctc needs the model file of the ESPnet exp dir (model_file)")
        return CtcAligner(model, model_file=kw["model_file"])
    raise ValueError(f"unknown backend '{backend}' (choose from {', '.join(BACKENDS)})")


def _progress(it, total, desc):
    if sys.stderr.isatty():
        from tqdm import tqdm
        return tqdm(it, total=total, desc=desc)
    return it


def align_data_dir(data: str | Path, ali_dir: str | Path, backend: str = "pocketsphinx", model: str | None = None,
                   **kw) -> dict:
    """Align every utterance of `data`; write the CTMs and report.json atomically; return the report."""
    d = DataDir.read(data)
    ali_dir = Path(ali_dir)
    aligner = make_aligner(backend, model, **kw)
    words: list[CtmEntry] = []
    phones: list[CtmEntry] = []
    stats: Counter = Counter()
    failed: dict[str, str] = {}
    t0 = time.time()
    audio_s = 0.0
    for utt in _progress(d.utts, len(d.utts), "align"):
        wav = d.load_audio(utt)
        audio_s += len(wav) / 16000
        r: UttAlignment = aligner.align(utt, wav, d.text.get(utt, ""))
        stats.update(r.stats)
        if r.error:
            failed[utt] = r.error
            log.warning("%s: not aligned: %s", utt, r.error)
            continue
        words += [CtmEntry(utt, "1", w.start, max(0.0, round(w.end - w.start, 3)), w.token) for w in r.words]
        phones += [CtmEntry(utt, "1", round(p.start, 3), max(0.0, round(p.end - p.start, 3)), p.phone)
                   for p in r.phones]
    elapsed = time.time() - t0
    report = {
        "data": str(Path(data).resolve()), "backend": backend, "model": model or "en-us",
        "counts": {k: int(stats.get(k, 0)) for k in STAT_KEYS} | {k: int(v) for k, v in stats.items()},
        "count_meaning": STAT_KEYS,
        "failed": failed,
        "g2p_words": dict(sorted(getattr(aligner, "g2p_words", {}).items())),
        "audio_seconds": round(audio_s, 2), "elapsed_seconds": round(elapsed, 2),
        "rtf": round(elapsed / audio_s, 4) if audio_s else None,
    }
    write_ctm(ali_dir / "wrd_ali" / "ctm", words)
    write_ctm(ali_dir / "phn_ali" / "ctm", phones)
    atomic_write_text(ali_dir / "report.json", json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    c = report["counts"]
    log.info("%s: %d/%d utterances aligned, %d word entries, %d tokens via G2P (%d distinct words), "
             "%d non-verbal tokens (%d aligned to fillers, %d absorbed in silence), %d punctuation tokens, "
             "RTF %.3f", ali_dir, c["aligned"], c["utterances"], c["words_in_ctm"], c["g2p_tokens"],
             len(report["g2p_words"]), c["nonverbal_tokens"], c["nonverbal_aligned"], c["nonverbal_unplaced"],
             c["punctuation_tokens"], report["rtf"] or 0)
    return report


def merge_reports(reports: list[dict]) -> dict:
    """Sum the counters of per-job reports (steps/align.sh --nj N)."""
    out = dict(reports[0])
    counts: Counter = Counter()
    failed: dict = {}
    g2p: dict = {}
    for r in reports:
        counts.update(r["counts"])
        failed.update(r["failed"])
        g2p.update(r.get("g2p_words", {}))
    out["counts"] = dict(counts)
    out["failed"] = dict(sorted(failed.items()))
    out["g2p_words"] = dict(sorted(g2p.items()))
    out["data"] = None
    for k in ("audio_seconds", "elapsed_seconds"):
        out[k] = round(sum(r.get(k) or 0 for r in reports), 2)
    out["rtf"] = round(out["elapsed_seconds"] / out["audio_seconds"], 4) if out["audio_seconds"] else None
    return out
