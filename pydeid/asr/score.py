"""WER/CER scoring of a decode dir against a data dir (jiwer), overall and per subset.

References and hypotheses are normalised alike with the decoder's normalisation (<decode-dir>/textnorm.json:
case, punctuation and, for the Whisper meter, numbers spelled) so they match in case, punctuation and digits. WER = (S + D + I) / N over reference words; CER is the same over
characters with spaces removed. Subsets (columns of the seed 004 A.3 tables):
  all        every scored utterance
  m, f       speaker gender, when the data dir has utt2gender or spk2gender
  <label>    from an optional subsets file: `<utt-or-speaker> <label> [<label> ...]` (utt2subset or spk2subset;
             a key that is a speaker applies to all its utterances), e.g. `ADB DE+ DA`.
An utterance without hypothesis is scored as an empty hypothesis (all deletions) and counted as missing.
Every WER carries its word count and a 95 % interval: a speaker bootstrap (the subset's speakers resampled with
replacement, WER = errors / reference words of the drawn speakers' utterances; utterances when the subset has a
single speaker), N_BOOT resamples, seed 0, percentile interval.

Writes <decode-dir>/scoring/{per_utt,results.json,result.md} and a section of a RESULTS.md.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import jiwer

from pydeid.io import DataDir, FormatError, atomic_write_text, kaldi_sort_key, read_kaldi_map
from pydeid.report import markdown_table, update_results_section

from .textnorm import TextNorm

log = logging.getLogger(__name__)
N_BOOT = 1000
BOOT_METHOD = ("speaker bootstrap (speakers resampled with replacement; utterances when there is one speaker), "
               f"{N_BOOT} resamples, seed 0, percentile interval")


def wer_bootstrap_ci(per_utt: dict[str, dict], utts: list[str], utt2spk: dict[str, str], n_boot: int = N_BOOT,
                     seed: int = 0, level: float = 0.95) -> tuple[float, float] | None:
    """95 % interval of the WER (%) of `utts` by resampling speakers (their errors and words summed)."""
    import numpy as np
    groups: dict[str, list[str]] = {}
    for u in utts:
        groups.setdefault(utt2spk.get(u, u), []).append(u)
    if len(groups) < 2:
        groups = {u: [u] for u in utts}
    if len(groups) < 2:
        return None
    keys = sorted(groups, key=kaldi_sort_key)
    err = np.array([sum(per_utt[u]["sub"] + per_utt[u]["del"] + per_utt[u]["ins"] for u in groups[k]) for k in keys],
                   dtype=np.float64)
    words = np.array([sum(per_utt[u]["words"] for u in groups[k]) for k in keys], dtype=np.float64)
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(len(keys), np.full(len(keys), 1.0 / len(keys)), size=n_boot)
    w = counts @ words
    ok = w > 0
    if not ok.any():
        return None
    wer = 100.0 * (counts @ err)[ok] / w[ok]
    a = (1 - level) / 2
    return float(np.quantile(wer, a)), float(np.quantile(wer, 1 - a))


def read_subsets(path, data: DataDir) -> dict[str, list[str]]:
    """label -> utterances, from a utt2subset or spk2subset file."""
    path = Path(path)
    spk2utt = data.spk2utt
    out: dict[str, list[str]] = {}
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) < 2:
                raise FormatError(path, lineno, f"expected '<utt-or-speaker> <label> ...', got '{line.rstrip()}'")
            key, labels = fields[0], fields[1:]
            if key in data.utt2spk:
                utts = [key]
            elif key in spk2utt:
                utts = spk2utt[key]
            else:
                raise FormatError(path, lineno, f"'{key}' is neither an utterance nor a speaker of {data.path}")
            for lab in labels:
                out.setdefault(lab, []).extend(utts)
    return out


def _counts(ref: str, hyp: str) -> dict[str, int]:
    w = jiwer.process_words(ref, hyp)
    rc, hc = ref.replace(" ", ""), hyp.replace(" ", "")
    if rc or hc:
        c = jiwer.process_characters(rc, hc)
        cs, cd, ci, ch = c.substitutions, c.deletions, c.insertions, c.hits
    else:
        cs = cd = ci = ch = 0
    return {"words": len(ref.split()), "sub": w.substitutions, "del": w.deletions, "ins": w.insertions,
            "chars": len(rc), "csub": cs, "cdel": cd, "cins": ci}


def _aggregate(per_utt: dict[str, dict], utts: list[str]) -> dict:
    tot = {k: sum(per_utt[u][k] for u in utts) for k in ("words", "sub", "del", "ins", "chars", "csub", "cdel",
                                                         "cins")}
    err = tot["sub"] + tot["del"] + tot["ins"]
    cerr = tot["csub"] + tot["cdel"] + tot["cins"]
    return {"sents": len(utts), "words": tot["words"], "sub": tot["sub"], "del": tot["del"], "ins": tot["ins"],
            "wer": 100.0 * err / tot["words"] if tot["words"] else None,
            "cer": 100.0 * cerr / tot["chars"] if tot["chars"] else None}


def score_decode_dir(data, decode_dir, subsets_file=None, results_md=None, title: str | None = None) -> dict:
    decode_dir = Path(decode_dir)
    d = DataDir.read(data)
    norm_file = decode_dir / "textnorm.json"
    norm = TextNorm.load(norm_file) if norm_file.exists() else TextNorm()
    hyps = read_kaldi_map(decode_dir / "text", require_value=False, check_sorted=False)
    missing = [u for u in d.utts if u not in hyps]
    if missing:
        log.warning("%s: %d of %d utterances have no hypothesis (scored as empty), e.g. %s",
                    decode_dir / "text", len(missing), len(d.utts), missing[0])
    per_utt, refs = {}, {}
    for u in d.utts:
        refs[u] = norm(d.text.get(u, ""))
        hyps[u] = norm(hyps.get(u, ""))  # both sides normalised alike (Whisper writes digits and punctuation)
        per_utt[u] = _counts(refs[u], hyps[u])

    subsets: dict[str, list[str]] = {"all": list(d.utts)}
    genders = {u: d.gender(u) for u in d.utts}
    for g in ("m", "f"):
        us = [u for u in d.utts if genders[u] == g]
        if us:
            subsets[g] = us
    if subsets_file:
        for lab, us in read_subsets(subsets_file, d).items():
            subsets[lab] = sorted(set(us), key=kaldi_sort_key)
    results = {lab: _aggregate(per_utt, us) for lab, us in subsets.items()}
    for lab, us in subsets.items():
        results[lab]["wer_ci95"] = wer_bootstrap_ci(per_utt, us, d.utt2spk)
        results[lab]["ci_method"] = BOOT_METHOD
    results["all"]["missing_hyps"] = len(missing)

    sdir = decode_dir / "scoring"
    sdir.mkdir(exist_ok=True)
    lines = [f"{u} words={c['words']} sub={c['sub']} del={c['del']} ins={c['ins']}\n  ref: {refs[u]}\n"
             f"  hyp: {' '.join(hyps.get(u, '').split())}\n" for u, c in per_utt.items()]
    atomic_write_text(sdir / "per_utt", "".join(lines))
    atomic_write_text(sdir / "results.json", json.dumps(results, indent=1) + "\n")
    labels = list(results)
    rows = [["# wrd"] + [results[lab]["words"] for lab in labels],
            ["# sent"] + [results[lab]["sents"] for lab in labels],
            ["WER (%)"] + [results[lab]["wer"] for lab in labels],
            ["WER 95 % CI"] + [_ci(results[lab].get("wer_ci95")) for lab in labels],
            ["CER (%)"] + [results[lab]["cer"] for lab in labels]]
    table = markdown_table([""] + labels, rows, ".2f")
    info_file = decode_dir / "decode_info.json"
    extra = ""
    if info_file.exists():
        info = json.loads(info_file.read_text())
        lm = info.get("lm") or {}
        lm_txt = f", LM `{_here(lm['lm_exp'])}` weight {lm['lm_weight']}" if lm else ", no LM"
        extra = (f"\nmodel `{_here(info.get('model'))}`, beam {info.get('beam_size')}, ctc weight "
                 f"{info.get('ctc_weight')}{lm_txt}, RTF {info.get('rtf')}\n")
    extra += f"\nWER 95 % CI: {BOOT_METHOD}.\n"
    atomic_write_text(sdir / "result.md", table + extra)
    if results_md is None:
        results_md = decode_dir.parent / "RESULTS.md"
    exp_name = decode_dir.resolve().parent.name
    update_results_section(results_md, f"asr-score-{exp_name}-{decode_dir.name}", table + extra,
                           title=title or f"WER of {exp_name}/{decode_dir.name} on {Path(data).name}")
    return results


def _ci(ci) -> str | None:
    return None if not ci else f"[{ci[0]:.1f}, {ci[1]:.1f}]"


def _here(path) -> str:
    """A path relative to the working directory when it lies below it (recipe RESULTS.md stay portable)."""
    if not path:
        return str(path)
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)
