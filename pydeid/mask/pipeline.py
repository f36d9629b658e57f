"""mask-words: a data dir + CoNLL tags + word CTM -> a new data dir whose audio has every hidden entity silenced
and whose text has the same entities removed (or replaced by a mask token).

Everything is checked before any audio is written (tags for every utterance, every tagged word timed, CTM and
tags describing the same words). Audio is written per utterance, atomically, into <wav-dir> (default
<out>/wav); a rerun with the same inputs and options skips utterances already written (resume). The options and
input checksums are kept in <wav-dir>/mask_config.json so a rerun with different ones cannot mix outputs.
The output never refers to the input audio and carries no tag or CTM file (they hold the original tokens).
"""

from __future__ import annotations

import json
import logging
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pydeid.io import (ENTITY_TYPES, DataDir, FormatError, Sentence, check_data_audio, atomic_write_text, audio_duration, ctm_by_utt, read_audio, read_conll,
                       read_ctm, write_audio)

from pydeid.io.atomic import partial_dir, remove_stale_temps
from pydeid.io.fingerprint import file_sha as _sha
from pydeid.text.hidden_types import describe

from .core import (DEFAULT_TAGS, apply_mask, entity_times, mask_intervals, mask_text_tokens, parse_tagset,
                   text_spans, utt_rng)
from .match import MatchError

log = logging.getLogger(__name__)


@dataclass
class MaskOptions:
    tagset: str | tuple[str, ...] = DEFAULT_TAGS   # 'all' or a narrower list
    pad: float = 0.1             # seconds added on each side of an entity (covers aligner boundary errors)
    fill: str = "silence"        # or "noise"
    noise_dbfs: float = -70.0    # RMS of the noise fill
    ramp: float = 0.005          # fade just outside each interval
    seed: int = 0
    text_mode: str = "remove"    # or "replace"
    mask_token: str = "<mask>"
    strict: bool = True          # any CTM/tag word difference is an error (not only at tagged words)
    absorb_gaps: bool = True     # extend masks over the pauses next to an entity (see core.entity_times)
    on_untimed: str = "error"    # an utterance whose hidden words cannot be timed: "error" or "drop" it


def load_tags(path: str | Path) -> dict[str, Sentence]:
    out: dict[str, Sentence] = {}
    for k, s in enumerate(read_conll(path, types=ENTITY_TYPES)):
        if s.id is None:
            raise FormatError(path, None, f"sentence {k + 1} has no '# id = <utterance-id>' line")
        if s.id in out:
            raise FormatError(path, None, f"utterance '{s.id}' has two sentences")
        out[s.id] = s
    return out


def _progress(it, total, desc):
    if sys.stderr.isatty():
        from tqdm import tqdm
        return tqdm(it, total=total, desc=desc)
    return it


def plan_masks(d: DataDir, tags: dict[str, Sentence], words: dict, tagset: set[str], opts: MaskOptions,
               tags_path, ctm_path) -> dict[str, dict]:
    """Per utterance: hidden entity times (unpadded) and the masked text. Raises FormatError naming the file
    and the utterance on missing tags, untimed tagged words or mismatching words."""
    plan: dict[str, dict] = {}
    if opts.on_untimed not in ("error", "drop"):
        raise ValueError(f"on_untimed must be 'error' or 'drop', got '{opts.on_untimed}'")
    for utt in d.utts:
        if utt not in tags:
            raise FormatError(tags_path, None, f"utterance '{utt}' of {d.path} has no sentence (# id = {utt})")
        sent = tags[utt]
        try:
            ents = entity_times(utt, sent, words.get(utt, []), tagset, strict=opts.strict,
                                absorb_gaps=opts.absorb_gaps)
            toks = d.text.get(utt, "").split()
            spans = text_spans(utt, sent, tagset, toks)
        except MatchError as e:
            if opts.on_untimed == "drop":
                # safe fallback: an utterance whose sensitive words cannot be located leaves the corpus
                log.warning("dropping %s", e)
                plan[utt] = {"dropped": str(e)}
                continue
            raise FormatError(ctm_path, None, f"{e} (tags: {tags_path})") from None
        plan[utt] = {"entities": ents,
                     "text": " ".join(mask_text_tokens(toks, spans, opts.text_mode, opts.mask_token))}
    return plan


def mask_data_dir(data: str | Path, tags_path: str | Path, ctm_path: str | Path, out: str | Path,
                  opts: MaskOptions | None = None, wav_dir: str | Path | None = None, overwrite: bool = False
                  ) -> dict:
    opts = opts or MaskOptions()
    tagset = parse_tagset(opts.tagset)
    data, out = Path(data), Path(out)
    if out.resolve() == data.resolve():
        raise FormatError(out, None, "output data dir must differ from the input (a stage never edits its input)")
    d = DataDir.read(data)
    tags = load_tags(tags_path)
    words = ctm_by_utt(read_ctm(ctm_path))
    plan = plan_masks(d, tags, words, tagset, opts, tags_path, ctm_path)
    # before any audio is written: every file opens, holds samples, agrees with utt2dur/segments, and every hidden
    # word lies inside its audio (a word timed past the end would be masked nowhere)
    durs = check_data_audio(data)
    for utt in d.utts:
        for w in words.get(utt, []):
            if w.start > durs[utt] or w.end > durs[utt] + 0.1:
                raise FormatError(ctm_path, None, f"utterance '{utt}': word '{w.token}' at {w.start:.2f}-{w.end:.2f}s "
                                                  f"lies past the end of its audio ({durs[utt]:.2f}s); wrong CTM for "
                                                  f"this data?")
    for utt, p in plan.items():
        for s, e, t, _ in p.get("entities", []):
            if s > durs[utt] or durs[utt] + 0.05 < e < float("inf"):
                raise FormatError(ctm_path, None, f"utterance '{utt}': hidden {t} word at {s:.2f}-{e:.2f}s lies past "
                                                  f"the end of its audio ({durs[utt]:.2f}s); wrong CTM for this data?")

    wav_dir = Path(wav_dir) if wav_dir else out / "wav"
    wav_dir.mkdir(parents=True, exist_ok=True)
    # temp files live outside the published dir until renamed in; an older or killed run's leftovers go
    tmp_dir = partial_dir(wav_dir.parent)
    remove_stale_temps(wav_dir)
    config = {"tagset": sorted(tagset), "pad": opts.pad, "absorb_gaps": opts.absorb_gaps, "fill": opts.fill, "noise_dbfs": opts.noise_dbfs,
              "ramp": opts.ramp, "seed": opts.seed, "tags_sha": _sha(tags_path), "ctm_sha": _sha(ctm_path)}
    cfg_file = wav_dir / "mask_config.json"
    if cfg_file.exists() and not overwrite:
        old = json.loads(cfg_file.read_text())
        if old != config:
            raise FormatError(cfg_file, None, f"{wav_dir} holds audio masked with other options or inputs "
                              f"({old}); use another output dir or --overwrite true")
    # its temp file not in wav_dir: parallel jobs share it, and each removes the temps it finds there (leftovers)
    atomic_write_text(cfg_file, json.dumps(config, sort_keys=True) + "\n", tmp_dir=tmp_dir)

    stats: Counter = Counter()
    wav_scp: dict[str, str] = {}
    keep = [u for u in d.utts if "dropped" not in plan[u]]
    stats["dropped"] = len(d.utts) - len(keep)
    for utt in _progress(keep, len(keep), "mask"):
        ents = plan[utt]["entities"]
        stats["utterances"] += 1
        stats["entities"] += len(ents)
        stats.update(f"entities_{t}" for _, _, t, _ in ents)
        dst = (wav_dir / f"{utt}.wav").resolve()
        wav_scp[utt] = str(dst)
        if dst.exists() and not overwrite:
            stats["resumed"] += 1
            iv = mask_intervals(ents, opts.pad, audio_duration(str(dst)))
            stats["masked_seconds_x1000"] += int(round(1000 * sum(b - a for a, b in iv)))
            continue
        spec, start, end = d.audio_spec(utt)
        wav, sr = read_audio(spec, sr=None, start=start, end=end)
        dur = len(wav) / sr
        iv = mask_intervals(ents, opts.pad, dur)
        stats["masked_seconds_x1000"] += int(round(1000 * sum(b - a for a, b in iv)))
        masked = apply_mask(wav, sr, iv, opts.fill, opts.noise_dbfs, opts.ramp, utt_rng(opts.seed, utt))
        write_audio(dst, masked, sr, tmp_dir=tmp_dir)
        stats["written"] += 1
    # tables last: the output dir becomes a valid data dir only when every audio file exists
    if not keep:
        raise FormatError(ctm_path, None, "no utterance left to write (every one was dropped)")
    sub = d.subset(keep)
    od = DataDir(wav_scp=wav_scp, text={u: plan[u]["text"] for u in keep}, utt2spk=sub.utt2spk,
                 utt2gender=sub.utt2gender, spk2gender=sub.spk2gender, utt2dur=sub.utt2dur)
    od.write(out)
    report = {"utterances": stats["utterances"], "entities": stats["entities"],
              "by_type": {k[9:]: v for k, v in sorted(stats.items()) if k.startswith("entities_")},
              "masked_seconds": stats["masked_seconds_x1000"] / 1000, "written": stats["written"],
              "resumed": stats["resumed"], "dropped": stats["dropped"],
              "dropped_utterances": sorted(u for u in d.utts if "dropped" in plan[u]), "config": config,
              "hidden": describe(tagset)}
    log.info("%s: %s", out, report["hidden"])
    log.info("%s: %d utterances, %d entities masked (%s), %.2f s of audio hidden, %d written, %d resumed, "
             "%d dropped (untimed)", out, report["utterances"], report["entities"], report["by_type"],
             report["masked_seconds"], report["written"], report["resumed"], report["dropped"])
    return report
