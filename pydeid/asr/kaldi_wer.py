"""Kaldi-style scoring files of a decode dir, beside pydeid's scoring/ (pydeid.asr.score):
  <dir>/wer      `%WER 12.34 [ 56 / 454, 3 ins, 10 del, 43 sub ]` and the speaker-bootstrap 95 % interval
  <dir>/per_utt  per utterance, as Kaldi's align-text | wer_per_utt_details.pl: `<utt> ref`, `<utt> hyp`,
                 `<utt> op` (C S I D, *** for the missing side) and `<utt> #csid <c> <s> <i> <d>`
  <dir>/scoring/per_utt.json  per utterance words, sub, del, ins and speaker (paired comparisons)
  <dir>/rtf      real-time factor on one core (CPU seconds / audio seconds) from the decoder's json
References and hypotheses both go through <dir>/textnorm.json, as in pydeid.asr.score.
"""

from __future__ import annotations

import json
from pathlib import Path

import jiwer

from pydeid.io import DataDir, atomic_write_text, read_kaldi_map

from .score import BOOT_METHOD, score_decode_dir
from .textnorm import TextNorm


def align_ops(ref: str, hyp: str) -> tuple[list[str], list[str], list[str]]:
    """(ref tokens, hyp tokens, ops) of the minimum-edit alignment, *** where a side has no word."""
    r, h = ref.split(), hyp.split()
    if not r and not h:
        return [], [], []
    if not r:
        return ["***"] * len(h), h, ["I"] * len(h)
    if not h:
        return r, ["***"] * len(r), ["D"] * len(r)
    out_r, out_h, ops = [], [], []
    for chunk in jiwer.process_words(ref, hyp).alignments[0]:
        for k in range(max(chunk.ref_end_idx - chunk.ref_start_idx, chunk.hyp_end_idx - chunk.hyp_start_idx)):
            if chunk.type == "insert":
                out_r.append("***"); out_h.append(h[chunk.hyp_start_idx + k]); ops.append("I")
            elif chunk.type == "delete":
                out_r.append(r[chunk.ref_start_idx + k]); out_h.append("***"); ops.append("D")
            else:
                out_r.append(r[chunk.ref_start_idx + k]); out_h.append(h[chunk.hyp_start_idx + k])
                ops.append("C" if chunk.type == "equal" else "S")
    return out_r, out_h, ops


def write_wer_files(data, decode_dir, info_name: str | None = None) -> dict:
    decode_dir = Path(decode_dir)
    results = score_decode_dir(data, decode_dir, results_md=decode_dir / "scoring" / "RESULTS.md")
    d = DataDir.read(data)
    nf = decode_dir / "textnorm.json"
    norm = TextNorm.load(nf) if nf.exists() else TextNorm()
    hyps = read_kaldi_map(decode_dir / "text", require_value=False, check_sorted=False)
    lines, counts = [], {}
    for u in d.utts:
        r, h, ops = align_ops(norm(d.text.get(u, "")), norm(hyps.get(u, "")))
        counts[u] = {"words": sum(x != "***" for x in r), "sub": ops.count("S"), "ins": ops.count("I"),
                     "del": ops.count("D"), "spk": d.utt2spk[u]}
        lines += [f"{u} ref  {' '.join(r)}", f"{u} hyp  {' '.join(h)}", f"{u} op   {' '.join(ops)}",
                  f"{u} #csid {ops.count('C')} {ops.count('S')} {ops.count('I')} {ops.count('D')}"]
    atomic_write_text(decode_dir / "per_utt", "\n".join(lines) + "\n")
    atomic_write_text(decode_dir / "scoring" / "per_utt.json", json.dumps(counts) + "\n")
    a = results["all"]
    err = a["sub"] + a["del"] + a["ins"]
    ci = a.get("wer_ci95")
    wer = f"%WER {a['wer']:.2f} [ {err} / {a['words']}, {a['ins']} ins, {a['del']} del, {a['sub']} sub ]\n" \
        if a["words"] else "%WER n/a [ no reference words ]\n"
    wer += f"utterances {a['sents']}, missing hypotheses {a.get('missing_hyps', 0)}\n"
    if ci:
        wer += f"95% CI [ {ci[0]:.2f} , {ci[1]:.2f} ] ({BOOT_METHOD})\n"
    atomic_write_text(decode_dir / "wer", wer)
    info_files = [decode_dir / info_name] if info_name else sorted(decode_dir.glob("decode_*.json"))
    info = json.loads(info_files[0].read_text()) if info_files and info_files[0].is_file() else {}
    if info.get("rtf") is not None:
        atomic_write_text(decode_dir / "rtf", f"RTF {info['rtf']} ({info['decode_cpu_seconds']} CPU s / "
                                              f"{info['audio_seconds']} s of audio, {info.get('cpu_threads', 1)} "
                                              f"thread(s) per job)\n")
    return results
