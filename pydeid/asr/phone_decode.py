"""Phone error rate (PER): a utility meter a weak recogniser still gives reliably.

pocketsphinx en-us is at 70-90 % WER on non-native speech, so a conversion's cost in words is lost in the
meter's own errors (word WER saturates: one wrong phone makes a wrong word, and the LM then guesses). Phones
degrade gradually: the same acoustic model decodes each utterance in phone-loop ("allphone") mode, with the
wheel's phonetic 3-gram (en-us-phone.lm.bin; no words, no word LM), and the phone string is scored against the
reference pronunciation of the transcript.

Reference phones: the first pronunciation of each word in the CMU dictionary of the wheel (the model's phone
set; it has no stress marks), the offline G2P (pydeid.align.g2p) for words it lacks (counted). The first variant
is used whatever the audio says, so the reference never depends on the hypothesis. Hypothesis: the decoder's
phones without silence (SIL) and fillers (+NSN+, +SPN+, ...). PER = (S + D + I) / N over reference phones
(jiwer on phone strings), with the project's speaker-bootstrap interval (pydeid.asr.score).

Decoding is deterministic (front end reset per utterance, as in pocketsphinx_decode) and resumable per utterance:
finished utterances are appended to <dir>/text.partial and skipped by a rerun.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from functools import lru_cache
from pathlib import Path

import numpy as np

from pydeid.io import FormatError, atomic_write_text, kaldi_sort_key, read_kaldi_map

log = logging.getLogger(__name__)
_ALT = re.compile(r"\(\d+\)$")
_NONPHONE = re.compile(r"^(SIL|<s>|</s>|<sil>|\+.*\+|\[.*\])$")
# Phone-loop settings: the beams of CMU Sphinx's phoneme-recognition advice (-beam 1e-20 -pbeam 1e-20); language
# weight 4 (their advice: 2), the best of 1, 2, 4, 7, 10 on TRAIN speakers only (bench/results/utility_per.md).
DEFAULT_LW = 4.0
DECODER_OPTS = {"beam": 1e-20, "pbeam": 1e-20}
N_BOOT = 1000


def phone_lm() -> str:
    import pocketsphinx
    path = os.path.join(pocketsphinx.get_model_path(), "en-us", "en-us-phone.lm.bin")
    if not os.path.isfile(path):
        raise FormatError(path, None, "the pocketsphinx wheel has no phonetic LM (en-us-phone.lm.bin)")
    return path


@lru_cache(maxsize=2)
def read_lexicon(path: str) -> dict[str, tuple[str, ...]]:
    """word (lower case) -> its FIRST pronunciation in a CMU-style dictionary ('word(2)' variants skipped)."""
    lex: dict[str, tuple[str, ...]] = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            fields = line.split()
            if len(fields) < 2 or _ALT.search(fields[0]):
                continue
            lex.setdefault(fields[0].lower(), tuple(re.sub(r"\d", "", p) for p in fields[1:]))
    return lex


class ReferencePhones:
    """Reference pronunciation of a transcript: CMU dictionary first variant, G2P for the rest."""

    def __init__(self, dictionary: str | None = None):
        from pydeid.align.pocketsphinx_backend import bundled_model

        self.lexicon = read_lexicon(dictionary or bundled_model()[1])
        self._g2p = None
        self.g2p_words: dict[str, str] = {}

    def word(self, w: str) -> tuple[str, ...]:
        p = self.lexicon.get(w)
        if p is not None:
            return p
        if self._g2p is None:
            from pydeid.align.g2p import NeuralG2P
            self._g2p = NeuralG2P()
        p = self._g2p.predict(w)
        self.g2p_words[w] = " ".join(p)
        return p

    def __call__(self, text: str) -> list[str]:
        from .textnorm import normalize_text

        return [ph for w in normalize_text(text).split() for ph in self.word(w)]


class PhoneDecoder:
    """Phone-loop decoding of 16 kHz float audio with the en-us acoustic model and the wheel's phonetic LM."""

    def __init__(self, lw: float = DEFAULT_LW):
        from pocketsphinx import Decoder

        from pydeid.align.pocketsphinx_backend import bundled_model

        hmm, _ = bundled_model()
        self.decoder = Decoder(hmm=hmm, allphone=phone_lm(), lw=lw, samprate=16000, loglevel="FATAL",
                               **DECODER_OPTS)
        self.settings = {"allphone": phone_lm(), "lw": lw, **DECODER_OPTS}

    def decode(self, wav: np.ndarray) -> list[str]:
        d = self.decoder
        pcm = (np.clip(wav, -1.0, 1.0) * 32767).astype(np.int16).tobytes()
        d.reinit_feat()   # no carry-over of CMN/noise estimates between utterances
        d.start_utt()
        d.process_raw(pcm, full_utt=True)
        d.end_utt()
        if d.hyp() is None:
            return []
        return [s.word for s in d.seg() if not _NONPHONE.match(s.word)]


def decode_phones_data_dir(data, out_dir, lw: float = DEFAULT_LW) -> dict:
    """<out_dir>/text (phones per utterance, sorted like the data dir) and <out_dir>/decode_phones.json
    (settings, audio and CPU seconds, RTF). Utterances already in <out_dir>/text.partial are not decoded again."""
    from pydeid.io import DataDir

    d = DataDir.read(data)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    partial = out / "text.partial"
    state_file = out / "decode_phones.partial.json"
    done: dict[str, str] = {}
    state = {"audio_seconds": 0.0, "decode_cpu_seconds": 0.0}
    if partial.exists():
        prev = json.loads(state_file.read_text()) if state_file.exists() else {}
        if prev.get("lw") != lw:   # another setting: start again
            partial.unlink()
        else:
            state.update({k: prev[k] for k in state})
            for line in partial.read_text(encoding="utf-8").splitlines():
                if line.endswith("\t."):   # complete line (a line cut by a kill has no end mark)
                    u, _, ph = line[:-2].partition(" ")
                    done[u] = ph
            # keep the complete lines only: what is appended next must not join a line cut by the kill
            atomic_write_text(partial, "".join(f"{u} {ph}\t.\n" for u, ph in done.items()))
    dec = PhoneDecoder(lw=lw)
    with open(partial, "a", encoding="utf-8") as f:
        for utt in d.utts:
            if utt in done:
                continue
            wav = d.load_audio(utt, sr=16000)
            t0 = time.process_time()
            phones = dec.decode(wav)
            state["decode_cpu_seconds"] += time.process_time() - t0
            state["audio_seconds"] += len(wav) / 16000
            done[utt] = " ".join(phones)
            f.write(f"{utt} {done[utt]}\t.\n")
            f.flush()
            atomic_write_text(state_file, json.dumps({"lw": lw, **state}) + "\n")
    atomic_write_text(out / "text", "".join(f"{u} {done[u]}".rstrip() + "\n" for u in d.utts))
    a, c = state["audio_seconds"], state["decode_cpu_seconds"]
    info = {"decoder": "pocketsphinx en-us phone loop", "data": str(data), "utterances": len(d.utts),
            "audio_seconds": round(a, 3), "decode_cpu_seconds": round(c, 3), "rtf": round(c / a, 4) if a else None,
            **dec.settings}
    atomic_write_text(out / "decode_phones.json", json.dumps(info, indent=1) + "\n")
    partial.unlink()
    state_file.unlink(missing_ok=True)
    return info


def merge_parts(parts, out_dir) -> dict:
    """Join the decode dirs of split jobs: text in C order, RTF over all parts (pydeid.asr.decode_parts)."""
    from .decode_parts import merge_decode_parts

    return merge_decode_parts(parts, out_dir, "decode_phones.json", what="phone-decoding")


# ---------------------------------------------------------------- scoring

def _counts(ref: list[str], hyp: list[str]) -> dict[str, int]:
    import jiwer

    if not ref:
        return {"phones": 0, "sub": 0, "del": 0, "ins": len(hyp)}
    if not hyp:
        return {"phones": len(ref), "sub": 0, "del": len(ref), "ins": 0}
    o = jiwer.process_words(" ".join(ref), " ".join(hyp))
    return {"phones": len(ref), "sub": o.substitutions, "del": o.deletions, "ins": o.insertions}


def _grouped(values: dict[str, float], utt2spk: dict[str, str]) -> np.ndarray:
    """Sums of `values` per speaker (kaldi order of the speakers; per utterance when there is one speaker)."""
    groups = sorted({utt2spk.get(u, u) for u in values}, key=kaldi_sort_key)
    key = lambda u: utt2spk.get(u, u)  # noqa: E731
    if len(groups) < 2:
        groups, key = sorted(values, key=kaldi_sort_key), (lambda u: u)
    idx = {g: i for i, g in enumerate(groups)}
    out = np.zeros(len(groups))
    for u, v in values.items():
        out[idx[key(u)]] += v
    return out


def _draws(n_groups: int, n_boot: int, seed: int) -> np.ndarray:
    """(n_boot, n_groups) draw counts of a bootstrap of the groups; the same seed draws the same speakers, so two
    conditions of the same utterances are compared on the same draws (paired)."""
    rng = np.random.default_rng(seed)
    return rng.multinomial(n_groups, np.full(n_groups, 1.0 / n_groups), size=n_boot)


def per_with_ci(per_utt: dict[str, dict], utt2spk: dict[str, str], n_boot: int = N_BOOT, seed: int = 0,
                level: float = 0.95) -> dict:
    """PER (%) over utterances, its S/D/I, and the speaker-bootstrap percentile interval."""
    tot = {k: sum(c[k] for c in per_utt.values()) for k in ("phones", "sub", "del", "ins")}
    errs = {u: c["sub"] + c["del"] + c["ins"] for u, c in per_utt.items()}
    per = 100.0 * sum(errs.values()) / tot["phones"] if tot["phones"] else None
    ci = None
    if per is not None and len(per_utt) >= 2:
        from pydeid.asr.score import wer_bootstrap_ci   # the same speaker bootstrap, phones in place of words
        as_words = {u: {"sub": c["sub"], "del": c["del"], "ins": c["ins"], "words": c["phones"]}
                    for u, c in per_utt.items()}
        ci = wer_bootstrap_ci(as_words, list(per_utt), utt2spk, n_boot=n_boot, seed=seed, level=level)
        ci = list(ci) if ci is not None else None
    return {"per": per, "ci95": ci, "utterances": len(per_utt),
            "speakers": len({utt2spk.get(u, u) for u in per_utt}), **tot}


def paired_difference(a: dict[str, dict], b: dict[str, dict], utt2spk: dict[str, str], n_boot: int = N_BOOT,
                      seed: int = 0, level: float = 0.95) -> dict:
    """PER(b) - PER(a) in points on the utterances both hold, with a paired speaker-bootstrap interval (the same
    speakers drawn for both) and whether 0 lies outside it."""
    common = sorted(set(a) & set(b), key=kaldi_sort_key)
    if not common:
        raise ValueError("no utterance in common")
    ea = {u: a[u]["sub"] + a[u]["del"] + a[u]["ins"] for u in common}
    eb = {u: b[u]["sub"] + b[u]["del"] + b[u]["ins"] for u in common}
    na = {u: a[u]["phones"] for u in common}
    nb = {u: b[u]["phones"] for u in common}
    diff = 100.0 * (sum(eb.values()) / sum(nb.values()) - sum(ea.values()) / sum(na.values()))
    ga = _grouped(ea, utt2spk)
    draws = _draws(len(ga), n_boot, seed)
    va = draws @ ga / np.maximum(draws @ _grouped(na, utt2spk), 1)
    vb = draws @ _grouped(eb, utt2spk) / np.maximum(draws @ _grouped(nb, utt2spk), 1)
    d = 100.0 * (vb - va)
    lo, hi = (float(np.quantile(d, (1 - level) / 2)), float(np.quantile(d, 1 - (1 - level) / 2)))
    return {"diff": diff, "ci95": [lo, hi], "beyond_noise": bool(lo > 0 or hi < 0), "utterances": len(common)}


def read_per_utt(path) -> dict[str, dict]:
    """The counts a scoring wrote (<decode-dir>/scoring_phones/per_utt.json)."""
    path = Path(path)
    if not path.is_file():
        raise FormatError(path, None, "missing: score the phone decoding first (pydeid score-phones)")
    return json.loads(path.read_text())


def score_phones(data, decode_dir, dictionary: str | None = None, n_boot: int = N_BOOT, seed: int = 0) -> dict:
    """PER of <decode_dir>/text against the reference pronunciations of <data>/text. Writes
    <decode_dir>/scoring_phones/{ref_phones,per_utt.json,per_utt.txt,results.json}."""
    from pydeid.io import DataDir

    decode_dir = Path(decode_dir)
    d = DataDir.read(data)
    hyp_file = decode_dir / "text"
    hyps = read_kaldi_map(hyp_file, require_value=False, check_sorted=False)
    extra = sorted(set(hyps) - set(d.utts), key=kaldi_sort_key)
    if extra:
        raise FormatError(hyp_file, None, f"utterance '{extra[0]}' is not in {Path(data) / 'utt2spk'} "
                                          f"({len(extra)} such): decoded from another data dir?")
    missing = [u for u in d.utts if u not in hyps]
    if missing:
        raise FormatError(hyp_file, None, f"no hypothesis for {len(missing)} of {len(d.utts)} utterances "
                                          f"(e.g. {missing[0]}): the decoding did not finish")
    refp = ReferencePhones(dictionary)
    no_text = [u for u in d.utts if not d.text.get(u, "").strip()]
    if no_text:
        raise FormatError(Path(data) / "text", None, f"utterance '{no_text[0]}' has no transcript to score against")
    refs = {u: refp(d.text[u]) for u in d.utts}
    per_utt = {u: _counts(refs[u], hyps[u].split()) for u in d.utts}
    res = per_with_ci(per_utt, d.utt2spk, n_boot, seed)
    res.update({"g2p_words": refp.g2p_words, "reference": "CMU dictionary of the pocketsphinx wheel, first variant; "
                "G2P for the words it lacks", "ci_method": f"speaker bootstrap, {n_boot} resamples, seed {seed}, "
                "percentile interval"})
    sdir = decode_dir / "scoring_phones"
    sdir.mkdir(exist_ok=True)
    atomic_write_text(sdir / "ref_phones", "".join(f"{u} {' '.join(refs[u])}\n" for u in d.utts))
    atomic_write_text(sdir / "per_utt.json", json.dumps(per_utt, indent=0) + "\n")
    atomic_write_text(sdir / "per_utt.txt", "".join(
        f"{u} phones={c['phones']} sub={c['sub']} del={c['del']} ins={c['ins']}\n  ref: {' '.join(refs[u])}\n"
        f"  hyp: {hyps[u]}\n" for u, c in per_utt.items()))
    atomic_write_text(sdir / "results.json", json.dumps(res, indent=1) + "\n")
    return res


# ---------------------------------------------------------------- the utility table

PER_COLUMNS = ("method", "per", "ci_low", "ci_high", "n_phones", "n_utts", "n_spk", "per_diff", "diff_ci_low",
               "diff_ci_high", "diff_beyond_noise", "wer", "wer_ci_low", "wer_ci_high", "n_words",
               "per_original_meter", "wer_original_meter")


def _wer_of(decode_dir) -> dict | None:
    if decode_dir is None:
        return None
    f = Path(decode_dir) / "scoring" / "results.json"
    if not f.is_file():
        raise FormatError(f, None, "missing: score the word decoding first (steps/score.sh)")
    a = json.loads(f.read_text())["all"]
    return {"wer": a["wer"], "ci": a.get("wer_ci95"), "words": a["words"]}


def per_table(specs: list[tuple[str, str, str | None]], utt2spk: dict[str, str], n_boot: int = N_BOOT,
              seed: int = 0) -> tuple[list[dict], list[dict]]:
    """specs: (method, phone decode dir, word decode dir or None), the FIRST the original speech (the meter's own
    figures, and the baseline of the paired differences). Returns the rows of per.tsv (PER_COLUMNS) and the
    paired differences between every two methods (per_pairs.tsv)."""
    if not specs:
        raise ValueError("no decode dirs")
    per_utts = {m: read_per_utt(Path(p) / "scoring_phones" / "per_utt.json") for m, p, _ in specs}
    orig = specs[0][0]
    base = set(per_utts[orig])
    for m, p, _ in specs[1:]:
        if set(per_utts[m]) != base:
            raise FormatError(Path(p) / "scoring_phones" / "per_utt.json", None,
                              f"its utterances are not those of the original ({specs[0][1]}): not a paired set")
    wers = {m: _wer_of(w) for m, _, w in specs}
    o = per_with_ci(per_utts[orig], utt2spk, n_boot, seed)
    rows = []
    for m, _, _ in specs:
        r = per_with_ci(per_utts[m], utt2spk, n_boot, seed)
        row = {"method": m, "per": r["per"], "ci_low": r["ci95"][0] if r["ci95"] else None,
               "ci_high": r["ci95"][1] if r["ci95"] else None, "n_phones": r["phones"], "n_utts": r["utterances"],
               "n_spk": r["speakers"], "per_diff": None, "diff_ci_low": None, "diff_ci_high": None,
               "diff_beyond_noise": None, "per_original_meter": o["per"],
               "wer_original_meter": wers[orig]["wer"] if wers[orig] else None}
        if m != orig:
            d = paired_difference(per_utts[orig], per_utts[m], utt2spk, n_boot, seed)
            row.update({"per_diff": d["diff"], "diff_ci_low": d["ci95"][0], "diff_ci_high": d["ci95"][1],
                        "diff_beyond_noise": d["beyond_noise"]})
        w = wers[m]
        row.update({"wer": w["wer"] if w else None, "wer_ci_low": w["ci"][0] if w and w["ci"] else None,
                    "wer_ci_high": w["ci"][1] if w and w["ci"] else None, "n_words": w["words"] if w else None})
        rows.append(row)
    pairs = []
    for i, (a, _, _) in enumerate(specs):
        for b, _, _ in specs[i + 1:]:
            d = paired_difference(per_utts[a], per_utts[b], utt2spk, n_boot, seed)
            pairs.append({"a": a, "b": b, "per_a": 100.0 * _rate(per_utts[a]), "per_b": 100.0 * _rate(per_utts[b]),
                          "diff": d["diff"], "ci_low": d["ci95"][0], "ci_high": d["ci95"][1],
                          "beyond_noise": d["beyond_noise"]})
    return rows, pairs


def _rate(per_utt: dict[str, dict]) -> float:
    n = sum(c["phones"] for c in per_utt.values())
    return sum(c["sub"] + c["del"] + c["ins"] for c in per_utt.values()) / n if n else float("nan")


def write_tsv(path, rows: list[dict], columns) -> None:
    def fmt(v):
        if v is None:
            return "NA"
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, float):
            return f"{v:.2f}"
        return str(v)
    atomic_write_text(path, "\t".join(columns) + "\n" + "".join(
        "\t".join(fmt(r[c]) for c in columns) + "\n" for r in rows))


def read_per_tsv(path) -> list[dict]:
    """The rows of a per.tsv (per_table's columns; NA -> None, numbers as float)."""
    path = Path(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or tuple(lines[0].split("\t")) != PER_COLUMNS:
        raise FormatError(path, 1, f"not a PER table: the header must be {' '.join(PER_COLUMNS)}")
    rows = []
    for k, ln in enumerate(lines[1:], 2):
        cells = ln.split("\t")
        if len(cells) != len(PER_COLUMNS):
            raise FormatError(path, k, f"{len(cells)} fields, expected {len(PER_COLUMNS)}")
        row = {}
        for c, v in zip(PER_COLUMNS, cells):
            row[c] = None if v == "NA" else v if c in ("method", "diff_beyond_noise") else float(v)
        rows.append(row)
    return rows


def render_per_table(path, labels: dict[str, str] | None = None) -> str:
    """Markdown of a per.tsv for a RESULTS.md: PER beside the word WER, the meter's own figures on original
    speech first."""
    from pydeid.report import markdown_table

    labels = labels or {}
    rows = read_per_tsv(path)

    def rate(r, k, lo, hi):
        return "n/a" if r[k] is None else (f"{r[k]:.1f}" + ("" if r[lo] is None else f" [{r[lo]:.1f}, {r[hi]:.1f}]"))

    out = []
    for r in rows:
        diff = "(the meter)" if r["per_diff"] is None else (
            f"{r['per_diff']:+.1f} [{r['diff_ci_low']:+.1f}, {r['diff_ci_high']:+.1f}]"
            + ("" if r["diff_beyond_noise"] == "yes" else " (noise)"))
        name = "original (no conversion)" if r is rows[0] else labels.get(r["method"], r["method"])
        out.append([name, rate(r, "per", "ci_low", "ci_high"), diff, rate(r, "wer", "wer_ci_low", "wer_ci_high"),
                    int(r["n_phones"])])
    o = rows[0]
    wo = "n/a" if o["wer_original_meter"] is None else f"{o['wer_original_meter']:.1f} %"
    return markdown_table(["method", "PER (%) [95 % CI]", "PER - original (paired, points)", "WER (%) [95 % CI]",
                           "ref. phones"], out) + (
        f"\nThe meter's own limits: on ORIGINAL speech pocketsphinx en-us is at {o['per_original_meter']:.1f} % PER "
        f"and {wo} WER ({int(o['n_utts'])} utterances of {int(o['n_spk'])} speakers). PER: phone-loop decoding (the "
        "wheel's phonetic LM, no words) against the CMU-dictionary pronunciation of the transcript; it still ranks "
        "conversions where word WER saturates. Intervals: speaker bootstrap; the difference is paired (same "
        "speakers drawn), '(noise)' when its interval holds 0. docs/utility_meters.md; exp/utility/per.tsv, "
        "per_pairs.tsv.\n")
