"""Decode a data dir with the Whisper meter (pydeid.asr.whisper), one utterance at a time, resumable.

Per decode dir:
  results.jsonl          the work journal: one JSON record per decoded utterance (raw text, word times, guards,
                         audio and CPU seconds), appended and flushed as each one finishes; a rerun decodes only
                         the utterances it lacks (a journal of other settings is started afresh)
  hyp.txt                Whisper's raw text (digits, punctuation, case), Kaldi text
  text                   the normalised hypothesis (textnorm.json: lower case, punctuation removed, numbers spelled):
                         what steps/score.sh scores and what the CTM's tokens spell
  words.ctm              word CTM from Whisper's word timestamps, tokens normalised like `text` (a written word
                         that becomes several, "$3" -> "three dollars", shares its time span evenly); the 6th
                         field is Whisper's word probability (the CTM confidence)
  guards.tsv             utterance, guards that changed its output (only utterances a guard changed)
  decode_whisper.json    settings, utterances, audio and CPU seconds, RTF, guard counts
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

from pydeid.io import CtmEntry, DataDir, FormatError, atomic_write_text, kaldi_sort_key, write_ctm

from .textnorm import TextNorm

INFO = "decode_whisper.json"
JOURNAL = "results.jsonl"


def meter_norm(case: str = "lower") -> TextNorm:
    return TextNorm(case=case, strip_punct=True, numbers=True)


def word_tokens(words, norm: TextNorm) -> list[tuple[str, float, float, float | None]]:
    """Whisper's (word, start, end[, probability]) as normalised tokens with times and probability (None in a
    journal written before the probabilities were stored); a word that normalises to several tokens splits its
    span evenly and gives each its probability, one that normalises to nothing (punctuation) is dropped."""
    out = []
    for w, s, e, *p in words:
        toks = norm(w).split()
        step = (e - s) / len(toks) if toks else 0.0
        prob = p[0] if p else None
        out += [(t, round(s + i * step, 3), round(s + (i + 1) * step, 3), prob) for i, t in enumerate(toks)]
    return out


def _read_journal(path: Path, settings: dict) -> dict[str, dict]:
    """utterance -> record of a journal written with the same settings (a torn last line is ignored)."""
    if not path.is_file():
        return {}
    lines = path.read_text(encoding="utf-8").splitlines()
    try:
        head = json.loads(lines[0]) if lines else {}
    except json.JSONDecodeError:
        return {}
    if head.get("settings") != settings:
        return {}
    out = {}
    for ln in lines[1:]:
        try:
            rec = json.loads(ln)
        except json.JSONDecodeError:
            continue  # the line a killed job was writing
        out[rec["utt"]] = rec
    return out


def _wav_key(d: DataDir, utt: str) -> str:
    """What a journal record was decoded from: the audio entry, and for a plain file its size and modification
    time (a set masked or converted again under the same paths must be decoded again, not read from the journal)."""
    from pydeid.io.fingerprint import audio_entry_key
    spec, start, end = d.audio_spec(utt)
    key = audio_entry_key(spec)
    return key if start is None else f"{key} {start} {end}"


def decode_data_dir(data, out_dir, model: str = "tiny.en", beam_size: int = 5, cpu_threads: int = 1,
                    cache_dir=None, progress: bool | None = None, reuse=(), same_audio_as=()) -> dict:
    """Decode the utterances of `data` that neither <out_dir>/results.jsonl nor a `reuse` journal (the merged
    journal of an earlier run, same settings, same audio entry) already holds. same_audio_as: (data dir, decode
    dir) pairs of another condition (e.g. the conversion a masked set was made from): an utterance whose audio is
    sample for sample the same there takes that hypothesis (decoding is deterministic), counted as copied."""
    from .whisper import SAMPLE_RATE, WhisperRecognizer

    from pydeid.io.datadir import validate_data_dir
    validate_data_dir(data, no_text=True)   # recordings without transcripts are the point of steps/transcribe.sh
    d = DataDir.read(data, validate=False)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rec = WhisperRecognizer(model, beam_size=beam_size, cpu_threads=cpu_threads, cache_dir=cache_dir)
    settings = {k: v for k, v in rec.settings.items() if k not in ("model_path", "cpu_threads")}
    journal = out / JOURNAL
    done = _read_journal(journal, settings)
    for r in reuse:
        done.update({u: x for u, x in _read_journal(Path(r), settings).items() if u not in done})
    done = {u: x for u, x in done.items() if u in d.utt2spk and x.get("wav") == _wav_key(d, u)}
    # rewrite the journal with only what is kept (atomically), then append
    atomic_write_text(journal, "".join(json.dumps(x) + "\n"
                                       for x in [{"settings": settings}, *done.values()]))
    todo = [u for u in d.utts if u not in done]
    if progress is None:
        progress = sys.stderr.isatty()
    from tqdm import tqdm

    others = []
    for od, odec in same_audio_as:
        oinfo = Path(odec) / INFO
        if oinfo.is_file():
            others.append((DataDir.read(od, validate=False),
                           _read_journal(Path(odec) / JOURNAL, _settings_of(json.loads(oinfo.read_text())))))
    with open(journal, "a", encoding="utf-8") as j:
        for utt in tqdm(todo, desc=f"whisper {model}", unit="utt", disable=not progress):
            wav = d.load_audio(utt, sr=SAMPLE_RATE)
            same = next((recs[utt] for od, recs in others if utt in recs
                         and np.array_equal(od.load_audio(utt, sr=SAMPLE_RATE), wav)), None) \
                if others else None
            if same is not None:
                x = {k: same[k] for k in ("text", "words", "guards", "audio_s", "cpu_s")}
                x.update({"utt": utt, "wav": _wav_key(d, utt), "copied": True})
                j.write(json.dumps(x) + "\n")
                j.flush()
                done[utt] = x
                continue
            t0 = time.process_time()
            r = rec.transcribe(wav, SAMPLE_RATE)
            cpu = time.process_time() - t0
            x = {"utt": utt, "wav": _wav_key(d, utt), "text": r.text, "words": r.words, "guards": r.guards,
                 "audio_s": round(len(wav) / SAMPLE_RATE, 3), "cpu_s": round(cpu, 3)}
            j.write(json.dumps(x) + "\n")
            j.flush()
            done[utt] = x
    records = [done[u] for u in d.utts]
    info = {"decoder": f"whisper {model} (faster-whisper, CTranslate2 int8)", "data": str(data), **rec.settings,
            "resumed_utterances": len(d.utts) - len(todo)}
    return write_outputs(records, out, info)


def write_outputs(records: list[dict], out: Path, info: dict) -> dict:
    norm = meter_norm()
    records = sorted(records, key=lambda x: kaldi_sort_key(x["utt"]))
    atomic_write_text(out / "hyp.txt", "".join(f"{x['utt']} {x['text']}".rstrip() + "\n" for x in records))
    ctm, text = [], []
    for x in records:
        toks = word_tokens(x["words"], norm)
        if not toks and x["text"]:  # no word times (e.g. a truncated loop): the text still counts
            text.append(f"{x['utt']} {norm(x['text'])}".rstrip() + "\n")
        else:
            text.append(f"{x['utt']} {' '.join(t for t, *_ in toks)}".rstrip() + "\n")
        ctm += [CtmEntry(x["utt"], "1", s, max(0.0, e - s), t, p) for t, s, e, p in toks]
    atomic_write_text(out / "text", "".join(text))
    write_ctm(out / "words.ctm", ctm)
    norm.save(out / "textnorm.json")
    changed = [x for x in records if x["guards"]]
    atomic_write_text(out / "guards.tsv", "utt\tguards\n" + "".join(
        f"{x['utt']}\t{','.join(x['guards'])}\n" for x in changed))
    from .whisper_guards import GUARDS
    audio = sum(x["audio_s"] for x in records)
    cpu = sum(x["cpu_s"] for x in records)
    info = dict(info)
    copied = [x for x in records if x.get("copied")]
    info.update({"utterances": len(records), "audio_seconds": round(audio, 3), "decode_cpu_seconds": round(cpu, 3),
                 "rtf": round(cpu / audio, 4) if audio else None,
                 "copied_same_audio": len(copied),   # hypotheses of identical audio of another condition
                 "cpu_seconds_spent": round(cpu - sum(x["cpu_s"] for x in copied), 3),
                 "guard_changed_utterances": len(changed),
                 "guard_counts": {g: sum(g in x["guards"] for x in records) for g in GUARDS}})
    atomic_write_text(out / INFO, json.dumps(info, indent=1) + "\n")
    return info


def merge_parts(parts, out_dir) -> dict:
    """Join the decode dirs of split jobs: their journals' records, outputs rewritten over all of them."""
    out = Path(out_dir)
    records, infos = [], []
    for p in map(Path, parts):
        for f in (JOURNAL, INFO):
            if not (p / f).is_file():
                raise FormatError(p / f, None, "missing: that decoding job did not finish")
        info = json.loads((p / INFO).read_text())
        recs = list(_read_journal(p / JOURNAL, _settings_of(info)).values())
        if len(recs) != info["utterances"]:
            raise FormatError(p / JOURNAL, None, f"{len(recs)} records, {info['utterances']} decoded")
        records += recs
        infos.append(info)
    info = dict(infos[0])
    info["data"] = str(Path(infos[0]["data"]).parent.parent) if len(infos) > 1 else infos[0]["data"]
    info["jobs"] = len(infos)
    info["resumed_utterances"] = sum(i.get("resumed_utterances", 0) for i in infos)
    out.mkdir(parents=True, exist_ok=True)
    settings = _settings_of(info)
    atomic_write_text(out / JOURNAL, "".join(json.dumps(x) + "\n"
                                             for x in [{"settings": settings}, *records]))
    return write_outputs(records, out, info)


def _settings_of(info: dict) -> dict:
    keys = ("model", "beam_size", "temperature", "language", "compute_type", "vad_filter",
            "condition_on_previous_text", "word_timestamps", "guards")
    return {k: info[k] for k in keys}


def transcript_data_dir(data, decode_dir, out, case: str = "lower", ctm=None) -> dict:
    """A new data dir for the chain without reference transcripts: <data>'s audio and speaker tables (wav.scp,
    segments, utt2spk, spk2utt, genders, utt2dur), text = the Whisper hypothesis of <decode_dir> normalised like
    the meter (punctuation removed, numbers spelled) in `case`; side files of the reference transcript (tags, CTMs,
    CoNLL) are not copied. `ctm`: where to write the word CTM whose tokens are exactly the text's words."""
    from pydeid.io import write_datadir_atomic

    d = DataDir.read(data, validate=False)
    decode_dir = Path(decode_dir)
    info_file = decode_dir / INFO
    if not info_file.is_file():
        raise FormatError(info_file, None, "missing: decode the data dir first (steps/decode_whisper.sh)")
    recs = _read_journal(decode_dir / JOURNAL, _settings_of(json.loads(info_file.read_text())))
    missing = [u for u in d.utts if u not in recs]
    if missing:
        raise FormatError(decode_dir / JOURNAL, None, f"no hypothesis for {len(missing)} utterances of {data} "
                                                      f"(e.g. {missing[0]})")
    norm = meter_norm(case)
    text, entries = {}, []
    for u in d.utts:
        toks = word_tokens(recs[u]["words"], norm)
        text[u] = " ".join(t for t, *_ in toks) if toks or not recs[u]["text"] else norm(recs[u]["text"])
        entries += [CtmEntry(u, "1", s, max(0.0, e - s), t, p) for t, s, e, p in toks]
    d.text = text
    write_datadir_atomic(d, out)
    if ctm:
        write_ctm(ctm, entries)
    return {"utterances": len(d.utts), "empty": sum(not t for t in text.values()), "words": len(entries)}
