"""Turn a Kaldi data dir into the inputs ESPnet's data loader reads (the role of ESPnet's format_wav_scp.sh).

ESPnet's `sound` loader opens wav.scp values with soundfile, so plain 16 kHz mono files are referenced in place
(absolute paths) and everything else (pipes, ark entries, segments, other rates or channel counts) is decoded
with pydeid.io and dumped once to <out>/wav/<utt>.wav. The text is normalised (see textnorm). Utterances whose
normalised text is empty are dropped from training data (ESPnet cannot train on an empty target) and listed in
<out>/dropped.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import soundfile as sf

from pydeid.io import DataDir, atomic_write_text, spec_kind, write_audio, write_kaldi_map

from .textnorm import TextNorm

log = logging.getLogger(__name__)

SR = 16000


def _usable_in_place(spec: str) -> bool:
    if spec_kind(spec) != "file" or not os.path.isfile(spec):
        return False
    try:
        info = sf.info(spec)
    except RuntimeError:
        return False
    return info.samplerate == SR and info.channels == 1


def _read(data, need_text: bool) -> DataDir:
    """DataDir.read, or for decoding a data dir without text: wav.scp, utt2spk (and segments) only."""
    p = Path(data)
    if need_text or (p / "text").exists():
        return DataDir.read(p)
    from pydeid.io import read_kaldi_map, validate_data_dir
    from pydeid.io import parse_segments
    validate_data_dir(p, no_text=True)
    d = DataDir(path=p, wav_scp=read_kaldi_map(p / "wav.scp"), utt2spk=read_kaldi_map(p / "utt2spk"))
    if (p / "segments").exists():
        d.segments = parse_segments(p / "segments")
    return d


def prepare_asr_data(data: str | os.PathLike, out: str | os.PathLike, norm: TextNorm,
                     need_text: bool = True) -> Path:
    """Write <out>/{wav.scp,text,utt2spk} for ESPnet. Returns <out>. Idempotent: dumped wavs are reused."""
    d = _read(data, need_text)
    out = Path(out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    wav_scp, text, dropped = {}, {}, []
    for utt in d.utts:
        if need_text:
            t = norm(d.text.get(utt, ""))
            if not t:
                dropped.append(utt)
                continue
            text[utt] = t
        spec, start, end = d.audio_spec(utt)
        if start is None and _usable_in_place(spec):
            wav_scp[utt] = os.path.abspath(spec)
            continue
        dst = out / "wav" / f"{utt}.wav"
        if not dst.exists():
            dst.parent.mkdir(exist_ok=True)
            write_audio(dst, d.load_audio(utt, sr=SR), SR)
        wav_scp[utt] = str(dst)
    if dropped:
        log.warning("%s: %d utterances have an empty normalised text and are left out (see %s/dropped)",
                    data, len(dropped), out)
    atomic_write_text(out / "dropped", "".join(u + "\n" for u in dropped))
    if not wav_scp:
        raise ValueError(f"{data}: no usable utterance")
    write_kaldi_map(out / "wav.scp", wav_scp)
    write_kaldi_map(out / "utt2spk", {u: d.utt2spk[u] for u in wav_scp})
    if need_text:
        write_kaldi_map(out / "text", text)
    return out


def write_speaker_ids(asr_data: str | os.PathLike, spk2id: dict[str, int]) -> Path:
    """<asr_data>/spk: utterance -> integer speaker label (ESPnet `text_int`); -1 for unknown speakers,
    which the adversarial loss ignores (validation speakers are disjoint from the training speakers)."""
    from pydeid.io import read_kaldi_map
    asr_data = Path(asr_data)
    utt2spk = read_kaldi_map(asr_data / "utt2spk")
    write_kaldi_map(asr_data / "spk", {u: str(spk2id.get(s, -1)) for u, s in utt2spk.items()})
    return asr_data / "spk"
